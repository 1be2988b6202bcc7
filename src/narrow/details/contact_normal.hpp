// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/narrow/ccd_types.hpp>

#include <Eigen/Core>

namespace ccdkit::details {

/// Orients a contact's unit normal (zero when undefined) towards the side the first primitive (the vertex,
/// edge a, the 2D point) starts on, and sets the relative normal velocity, so that an approaching contact has
/// `normal_velocity < 0`. When the two contact points start at the same place, the normal keeps its
/// orientation.
/// @param[in] start_offset       first contact point minus second, at t = 0
/// @param[in] relative_velocity  velocity of the first contact point minus the second's (per unit time)
inline void
orient_normal(const Eigen::Vector3d& start_offset, const Eigen::Vector3d& relative_velocity, CcdResult& result)
{
    if (result.normal.dot(start_offset) < 0.0) {
        result.normal = -result.normal;
    }
    result.normal_velocity = result.normal.dot(relative_velocity);
}

} // namespace ccdkit::details
