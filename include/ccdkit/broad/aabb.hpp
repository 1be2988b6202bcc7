// SPDX-License-Identifier: MIT
#pragma once

#include <Eigen/Core>

#include <vector>

namespace ccdkit {

/// A closed axis-aligned box; boxes that only touch overlap.
struct Aabb {
    Eigen::Array3d min = Eigen::Array3d::Constant(0.0);
    Eigen::Array3d max = Eigen::Array3d::Constant(0.0);

    /// The smallest box holding both.
    [[nodiscard]] Aabb merged(const Aabb& other) const { return { min.min(other.min), max.max(other.max) }; }
};

[[nodiscard]] inline bool overlaps(const Aabb& a, const Aabb& b)
{
    return (a.min <= b.max).all() && (b.min <= a.max).all();
}

/// Swept boxes over the step: each holds its primitive at every t in [0, 1] of the linear motion from `v0`
/// to `v1` (a primitive moving linearly stays inside the box of its end positions). `inflation` >= 0 grows
/// every box by that distance on each side (a minimum separation); the grown bounds are rounded outward, so
/// rounding never shrinks a box. Without inflation the bounds are input coordinates, exactly.
/// Indices are not checked here (mesh_ccd checks them).
[[nodiscard]] std::vector<Aabb>
vertex_boxes(const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1, double inflation = 0.0);
[[nodiscard]] std::vector<Aabb> edge_boxes(
    const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1, const Eigen::MatrixX2i& edges, double inflation = 0.0);
[[nodiscard]] std::vector<Aabb> face_boxes(
    const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1, const Eigen::MatrixX3i& faces, double inflation = 0.0);

} // namespace ccdkit
