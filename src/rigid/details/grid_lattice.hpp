// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/broad/aabb.hpp>
#include <ccdkit/rigid/signed_distance_grid.hpp>

#include <Eigen/Core>

#include <functional>

namespace ccdkit::details {

/// A grid of `field` sampled at the lattice of spacing `cell_size` that covers `box` grown by `padding`
/// (evaluated in parallel: `field` must be safe to call from several threads).
/// @throws std::invalid_argument, naming `caller`, for a bad cell size or padding, an empty or unbounded box,
/// or too many samples.
[[nodiscard]] SignedDistanceGrid sample_on_lattice(
    const Aabb& box,
    double cell_size,
    double padding,
    const char* caller,
    const std::function<double(const Eigen::Vector3d&)>& field);

} // namespace ccdkit::details
