// SPDX-License-Identifier: MIT
#pragma once

#include "query_motion.hpp"

#include <ccdkit/narrow/ccd_types.hpp>

#include <Eigen/Core>

#include <array>

namespace ccdkit::details {

/// Orients a contact's unit normal (zero when undefined) towards the side the first primitive (the vertex,
/// edge a, the 2D point) starts on, and sets the relative normal velocity, so that an approaching contact has
/// `normal_velocity < 0`. When the two contact points start at the same place, the normal keeps its
/// orientation.
/// @param[in] weight  the contact points as weights of the query's points: the first primitive's positive
///                    (summing to 1), the second's negated, so that sum_i weight_i x_i is the offset from the
///                    second contact point to the first
inline void orient_normal(const QueryMotion& motion, const std::array<double, 4>& weight, CcdResult& result)
{
    Eigen::Vector3d start_offset = Eigen::Vector3d::Zero(), end_offset = Eigen::Vector3d::Zero();
    for (int i = 0; i < 4; ++i) {
        start_offset += weight[i] * motion.start[i];
        end_offset += weight[i] * motion.end[i];
    }
    if (result.normal.dot(start_offset) < 0.0) {
        result.normal = -result.normal;
    }
    result.normal_velocity = result.normal.dot(end_offset - start_offset);
}

} // namespace ccdkit::details
