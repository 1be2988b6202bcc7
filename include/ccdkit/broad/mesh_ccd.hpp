// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/broad/broad_phase.hpp>
#include <ccdkit/narrow/ccd_types.hpp>

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace ccdkit {

struct MeshCcdOptions {
    CcdOptions narrow; ///< narrow-phase method, t_max, toi tolerance
    BroadPhaseMethod broad_phase = BroadPhaseMethod::BVH;
    /// Primitives are queried against the built structure in blocks of this many, so that the candidate
    /// pairs in memory at once stay bounded however many pairs the scene has in total.
    std::size_t block_size = 1 << 15;
    /// Called from the calling thread with the fraction of the work done, now and then.
    std::function<void(double)> progress;
};

struct VertexFaceHit {
    std::int32_t vertex = 0, face = 0;
    double toi_lower = 0.0, toi_upper = 0.0;
};

struct EdgeEdgeHit {
    std::int32_t edge_a = 0, edge_b = 0; ///< rows of the edge matrix, edge_a < edge_b
    double toi_lower = 0.0, toi_upper = 0.0;
};

struct MeshCcdResult {
    std::vector<VertexFaceHit> vertex_face; ///< sorted by (vertex, face)
    std::vector<EdgeEdgeHit> edge_edge; ///< sorted by (edge_a, edge_b)
    /// Earliest contact over the whole mesh: no contact before `earliest_toi_lower`; some contact at or
    /// before `earliest_toi_upper`. Empty when nothing collides.
    std::optional<double> earliest_toi_lower, earliest_toi_upper;
    std::size_t vertex_face_candidates = 0, edge_edge_candidates = 0;
    double broad_phase_ms = 0.0, narrow_phase_ms = 0.0;
    std::size_t broad_phase_bytes = 0; ///< largest memory of the built structure
};

/// Continuous collision detection of a whole mesh moving linearly from `v0` to `v1` over [0, t_max]:
/// every vertex-face and edge-edge pair that touches (self-collision; a vertex is never tested against a
/// face that contains it, nor an edge against one it shares a vertex with). Put several objects into one
/// mesh (offset their indices) to test them against each other too. Runs in parallel with oneTBB.
/// @param[in] edges rows (i, j); use edges_from_faces(faces) for the usual numbering
/// @throws std::invalid_argument for mismatched sizes, non-finite coordinates or indices out of range.
[[nodiscard]] MeshCcdResult mesh_ccd(
    const Eigen::MatrixX3d& v0,
    const Eigen::MatrixX3d& v1,
    const Eigen::MatrixX2i& edges,
    const Eigen::MatrixX3i& faces,
    const MeshCcdOptions& options = {});

} // namespace ccdkit
