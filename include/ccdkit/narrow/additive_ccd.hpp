// SPDX-License-Identifier: MIT
#pragma once

// Additive CCD (Li, Kaufman & Jiang 2021, "Codimensional Incremental Potential Contact", Alg. 1): a
// conservative CCD with a minimum separation, for pairs of points, segments and triangles moving linearly
// over t in [0, t_max]. It solves no polynomial: it advances time by steps that are provably safe lower
// bounds on the time of impact.
//
// With the mean displacement subtracted, no point of one primitive moves towards the other faster than
// l_p = max |p_i - mean| over the first primitive's vertices + the same over the second's. So if the
// distance at time t is d > s (s = min_distance), none reaches s before t + (d - s) / l_p. Each step
// covers (1 - eta) of that bound, (1 - eta)(d^2 - s^2) / ((d + s) l_p) in the paper's squared-distance
// form; the pair is reported colliding once the gap d - s has fallen below eta times its value at t = 0,
// and the time returned is the last one reached before that.
//
// Floating-point safety (this is where the published form is "not provably conservative"): every step is
// computed from certified bounds, never from rounded distances. The distance bound is the separation of the
// two vertex sets along a direction (any unit vector n gives dist(A, B) >= min_A n.a - max_B n.b), evaluated
// with a forward error bound on positions and dot products; l_p is rounded up; the step rounded down; and a
// step is only taken while eta times the gap exceeds what rounding the new time can add (l_p * 2^-53).
// Where that fails the pair is reported colliding at the last safe time. Result: for every finite input, the
// true distance stays above `min_distance` on [0, toi] (certified, not approximate).
//
// eta trades safety margin for iterations: the paper's 0.1 (default) keeps 10% of the gap at each step and
// stops once the gap is below 10% of the initial one; a smaller eta steps closer and returns later times
// after more iterations; a larger one stops earlier and further from contact.

#include <ccdkit/narrow/ccd_types.hpp>
#include <ccdkit/narrow/spacetime_ccd.hpp>

#include <Eigen/Core>

#include <cstdint>

namespace ccdkit {

struct AdditiveCcdOptions {
    double min_distance = 0.0; ///< s >= 0: a collision is the distance reaching s
    double eta = 0.1; ///< in (0, 1): step fraction 1 - eta, stop at eta times the initial gap
    /// In (0, 1]. The answer is the t_max = 1 answer capped at t_max (toi = min(toi, t_max), a HIT whose time
    /// would be at or after t_max reported as SEPARATED), so a smaller t_max only saves steps.
    double t_max = 1.0;
    /// Steps before giving up with `ITERATION_LIMIT`: a hit at the last safe time (never a false "separated").
    std::int64_t max_iterations = 1'000'000;
};

enum class AdditiveCcdStatus : std::uint8_t {
    SEPARATED, ///< distance > min_distance over [0, t_max] (certified)
    HIT, ///< the gap fell below eta times the initial gap after `toi`
    INITIALLY_TOUCHING, ///< distance <= min_distance at t = 0 (or too close to certify otherwise): toi = 0
    ITERATION_LIMIT, ///< max_iterations steps taken, or rounding left no safe step: a hit at the last safe time
    INVALID_INPUT, ///< a non-finite coordinate or an option out of range
};

/// Result of an additive CCD query.
struct AdditiveCcdResult {
    bool hit = false; ///< HIT, INITIALLY_TOUCHING and ITERATION_LIMIT are collisions
    AdditiveCcdStatus status = AdditiveCcdStatus::SEPARATED;
    /// Safe time: the distance is > min_distance for all t in [0, toi] (toi = t_max when separated, 0 when
    /// initially touching or invalid input). A HIT is never before the first step, (1 - eta) (d0 - s) / l_p.
    double toi = 1.0;
    std::int64_t iterations = 0; ///< steps taken
};

/// Two points; the first moves from `a_t0` to `a_t1`, the second from `b_t0` to `b_t1`.
template <int Dim> struct PointPointMotion {
    Eigen::Matrix<double, Dim, 1> a_t0, b_t0, a_t1, b_t1;
};
/// A point against a segment (3D); PointEdgeMotion2d (spacetime_ccd.hpp) is the 2D one.
struct PointEdgeMotion {
    Eigen::Vector3d p_t0, e0_t0, e1_t0;
    Eigen::Vector3d p_t1, e0_t1, e1_t1;
};

[[nodiscard]] AdditiveCcdResult
additive_point_point_ccd(const PointPointMotion<3>& motion, const AdditiveCcdOptions& options = {});
[[nodiscard]] AdditiveCcdResult
additive_point_point_ccd(const PointPointMotion<2>& motion, const AdditiveCcdOptions& options = {});
[[nodiscard]] AdditiveCcdResult
additive_point_edge_ccd(const PointEdgeMotion& motion, const AdditiveCcdOptions& options = {});
[[nodiscard]] AdditiveCcdResult
additive_point_edge_ccd(const PointEdgeMotion2d& motion, const AdditiveCcdOptions& options = {});
/// Vertex against triangle (point-triangle distance: the face, its sides and its corners).
[[nodiscard]] AdditiveCcdResult
additive_vertex_face_ccd(const VertexFaceMotion& motion, const AdditiveCcdOptions& options = {});
[[nodiscard]] AdditiveCcdResult
additive_edge_edge_ccd(const EdgeEdgeMotion& motion, const AdditiveCcdOptions& options = {});

} // namespace ccdkit
