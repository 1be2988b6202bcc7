// SPDX-License-Identifier: MIT
#pragma once

// Space-time CCD (Brochu & Bridson 2009, "Numerically Robust Continuous Collision Detection for Dynamic
// Explicit Surfaces"). Time is an extra coordinate: a vertex moving from x to x' over the step is the segment
// from (x, 0) to (x', 1). The curved (bilinear) surface an edge (a, b) sweeps is replaced by two triangles,
// split along the diagonal from the lower-id vertex at t = 0 to the higher-id vertex at t = 1:
//     (a, b, b')  and  (a, a', b')        for id(a) < id(b).
// The prism a triangle (a, b, c), id(a) < id(b) < id(c), sweeps is split into three tetrahedra whose side
// faces are exactly those edge triangles, so the space-time mesh has no cracks:
//     (a, b, c, c'),  (a, b, b', c'),  (a, a', b', c').
// A vertex hits a face when its segment meets one of the face's tetrahedra (4D); two edges collide when a
// triangle of one meets a triangle of the other (4D); in 2D a point hits an edge when its segment meets one of
// the edge's triangles (x, y, t). All simplices are closed: touching counts as a collision.
//
// This is its own model, not the linear one of `vertex_face_ccd` / `edge_edge_ccd`: the two agree on almost
// every query but not on all (see the README). The answer is exact for the space-time model for every finite
// double input: determinant signs come from a floating-point filter with a forward error bound, then exact
// integer arithmetic, and degenerate configurations (every determinant zero) are reduced exactly to
// lower-dimensional tests (see src/narrow/details/simplex_intersection.hpp).

#include <ccdkit/narrow/ccd_types.hpp>

#include <Eigen/Core>

#include <array>
#include <cstdint>

namespace ccdkit {

/// Global vertex ids of a query's points in the motion's order (vertex-face: p, t0, t1, t2; edge-edge: ea0,
/// ea1, eb0, eb1; point-edge: p, e0, e1). Only their order matters: it picks the diagonals, and using the mesh's
/// own ids makes neighbouring queries split their shared quads the same way. Ids within one query must be
/// distinct for the points that share a primitive.
using SpacetimeIds = std::array<std::int64_t, 4>;

/// A point `p` against an edge `(e0, e1)` in the plane, every point moving linearly over t in [0, 1].
struct PointEdgeMotion2d {
    Eigen::Vector2d p_t0, e0_t0, e1_t0;
    Eigen::Vector2d p_t1, e0_t1, e1_t1;
};

/// Space-time vertex-face CCD. Contact data: `contact` holds the triangle's barycentric weights at the contact
/// (from the space-time barycentric coordinates: a vertex's weight is the sum of its t = 0 and t = 1 copies),
/// `normal` the unit normal of the triangle interpolated at the contact time, `normal_velocity` the relative
/// normal velocity. `toi_lower` = `toi_upper` = the earliest contact time, computed in floating point from the
/// determinants (approximate; the yes/no answer is exact). `t_max` < 1 drops contacts computed later than it.
/// @return `INVALID_INPUT` for a coordinate that is not finite or an invalid option.
[[nodiscard]] CcdResult spacetime_vertex_face_ccd(
    const VertexFaceMotion& motion, const SpacetimeIds& ids = { 0, 1, 2, 3 }, const CcdOptions& options = {});

/// Space-time edge-edge CCD; `contact` is (s, u, 0) as for `edge_edge_ccd`, `normal` the unit cross product of
/// the edges at the contact time (zero where they are parallel or one has zero length).
[[nodiscard]] CcdResult spacetime_edge_edge_ccd(
    const EdgeEdgeMotion& motion, const SpacetimeIds& ids = { 0, 1, 2, 3 }, const CcdOptions& options = {});

/// Space-time point-edge CCD in 2D; ids are (p, e0, e1) in the first three entries. `contact` is (1 - s, s, 0)
/// with the contact at e0 + s (e1 - e0); `normal` is the edge's unit normal (z = 0) at the contact time.
[[nodiscard]] CcdResult spacetime_point_edge_ccd(
    const PointEdgeMotion2d& motion, const SpacetimeIds& ids = { 0, 1, 2, 3 }, const CcdOptions& options = {});

} // namespace ccdkit
