// SPDX-License-Identifier: MIT
#pragma once

// The line-search filter of Incremental Potential Contact solvers: given positions x and a search direction
// p for every vertex, the largest step alpha in [0, 1] such that the motion x + s p, s in [0, alpha], keeps
// every pair of primitives more than `min_distance` apart. Pairs are those that can touch first: in 3D
// vertex-face (the vertex not in the face) and edge-edge (no shared vertex); in 2D vertex-edge (the vertex not
// on the edge). Swept boxes inflated by the separation feed a broad phase; each candidate pair runs additive
// CCD (narrow/additive_ccd.hpp), or exact linear-model CCD when min_distance is 0 and `EXACT` is asked for.

#include <ccdkit/broad/broad_phase.hpp>

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <optional>

namespace ccdkit {

enum class LineSearchNarrowPhase : std::uint8_t {
    ADDITIVE, ///< additive CCD: conservative, any min_distance; alpha is a certified safe step
    /// exact linear-model CCD (vertex_face_ccd / edge_edge_ccd; 2D pairs as edge-edge in z = 0): alpha is the
    /// earliest contact's certified lower bound, within `tolerance` of the true first contact. min_distance
    /// must be 0.
    EXACT,
};

struct LineSearchFilterOptions {
    double min_distance = 0.0; ///< >= 0
    LineSearchNarrowPhase narrow_phase = LineSearchNarrowPhase::ADDITIVE;
    double eta = 0.1; ///< additive CCD's step fraction / stop ratio, in (0, 1)
    std::int64_t max_iterations = 1'000'000; ///< additive CCD's cap per pair (a capped pair limits alpha safely)
    double tolerance = 1e-6; ///< exact CCD's time-of-impact tolerance
    BroadPhaseMethod broad_phase = BroadPhaseMethod::BVH;
    /// Candidate pairs are generated and tested in blocks of this many primitives (bounded memory).
    std::size_t block_size = 1 << 15;
};

/// The kind of pair that limits the step.
enum class LimitingPairKind : std::uint8_t {
    VERTEX_FACE, ///< (vertex row, face row)
    EDGE_EDGE, ///< (edge row, edge row), first < second
    VERTEX_EDGE, ///< 2D: (vertex row, edge row)
};

struct LimitingPair {
    LimitingPairKind kind = LimitingPairKind::VERTEX_FACE;
    std::int32_t first = 0, second = 0;
};

struct LineSearchFilterResult {
    /// Largest safe step found: every pair stays more than min_distance apart for s in [0, alpha] (with
    /// `EXACT`: no pair touches for s < alpha). 1 when nothing limits the step.
    double alpha = 1.0;
    /// The pair that set alpha (the lowest-numbered one among equals); empty when alpha = 1.
    std::optional<LimitingPair> limiting_pair;
    std::size_t candidates = 0; ///< pairs the narrow phase tested
    double broad_phase_ms = 0.0, narrow_phase_ms = 0.0;
};

/// The line-search filter (see the top of this file). Runs in parallel with oneTBB; the answer does not
/// depend on the number of threads.
/// @param[in] x      V x 2 (2D) or V x 3 (3D) vertex positions
/// @param[in] p      the search direction, the same shape as x
/// @param[in] edges  E x 2 vertex rows: the 2D boundary segments; in 3D the mesh edges (edges_from_faces())
/// @param[in] faces  F x 3 vertex rows of the triangles (3D); must be empty in 2D
/// @throws std::invalid_argument for a shape mismatch, a non-finite value, an index out of range, faces in
///         2D, or options out of range (naming the problem).
[[nodiscard]] LineSearchFilterResult largest_safe_step(
    const Eigen::MatrixXd& x,
    const Eigen::MatrixXd& p,
    const Eigen::MatrixX2i& edges,
    const Eigen::MatrixX3i& faces,
    const LineSearchFilterOptions& options = {});

} // namespace ccdkit
