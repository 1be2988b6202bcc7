// SPDX-License-Identifier: MIT
#pragma once

// Swept boxes (aabb.hpp) written into memory the caller keeps, so that repeated calls reuse it.

#include <ccdkit/broad/aabb.hpp>

#include <Eigen/Core>

#include <span>

namespace ccdkit::details {

/// The swept box of every row of `primitives` (vertex indices: edges or faces), as edge_boxes() and
/// face_boxes(), into `boxes` (one per row).
template <class Primitives>
void swept_boxes(
    const Eigen::MatrixX3d& v0,
    const Eigen::MatrixX3d& v1,
    const Primitives& primitives,
    double inflation,
    std::span<Aabb> boxes);

/// The swept box of every vertex, as vertex_boxes(), into `boxes` (one per row).
void vertex_swept_boxes(
    const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1, double inflation, std::span<Aabb> boxes);

} // namespace ccdkit::details
