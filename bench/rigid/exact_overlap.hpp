// SPDX-License-Identifier: MIT
#pragma once
// Exact overlap tests for the reference of the rigid-body comparison benchmark, written independently of the
// library: orientation signs of double coordinates (a floating-point filter with Shewchuk's error bound, then
// GMP rationals), closed triangle-triangle intersection, and point-in-solid by ray parity.

#include <Eigen/Core>

namespace ccdkit::bench {

/// Sign of det[a - d, b - d, c - d] for the given doubles, exactly.
[[nodiscard]] int
orient3d_sign(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c, const Eigen::Vector3d& d);

/// Sign of det[a - c, b - c] (2D), exactly.
[[nodiscard]] int orient2d_sign(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c);

/// Whether the closed segment pq meets the closed triangle abc (abc not collinear), exactly.
[[nodiscard]] bool segment_meets_triangle(
    const Eigen::Vector3d& p,
    const Eigen::Vector3d& q,
    const Eigen::Vector3d& a,
    const Eigen::Vector3d& b,
    const Eigen::Vector3d& c);

/// Whether two closed triangles share a point (touching counts), exactly; neither may be collinear. Two triangles
/// meet iff an edge of one meets the other (the ends of their common segment, or of their common polygon when
/// coplanar, lie on edges).
[[nodiscard]] bool triangles_meet(
    const Eigen::Vector3d& a0,
    const Eigen::Vector3d& a1,
    const Eigen::Vector3d& a2,
    const Eigen::Vector3d& b0,
    const Eigen::Vector3d& b1,
    const Eigen::Vector3d& b2);

/// Whether p lies inside the closed triangle mesh (vertices, faces), by the parity of crossings of a segment from p
/// to beyond the mesh's bounding box. A segment that meets an edge or a vertex (exact zero sign) is replaced by one
/// in another direction. Points on the surface are reported either way (callers test surfaces first).
[[nodiscard]] bool
point_in_solid(const Eigen::Vector3d& p, const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces);

} // namespace ccdkit::bench
