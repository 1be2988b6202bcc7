// SPDX-License-Identifier: MIT
#pragma once

// First contacts among many rigid bodies over one step: every pair whose swept bounds meet (a broad phase over
// the bodies' boxes, each holding all the body covers over the step), each pair's time of contact
// (rigid_time_of_contact) across the cores. Pairs whose boxes do not meet cannot touch before t_max.

#include <ccdkit/broad/aabb.hpp>
#include <ccdkit/rigid/rigid_contact.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace ccdkit {

/// A box holding everything `body` covers over [0, t_max] of its step: its shape lies within
/// RigidShape::radius_about(centre of mass) of the centre of mass, which moves on a straight line; rounded
/// outward (motion's rounding included). Unbounded where the shape is (infinite bounds).
/// @throws std::invalid_argument for t_max outside (0, 1] (or NaN)
[[nodiscard]] Aabb rigid_swept_box(const RigidBody& body, double t_max = 1.0);

/// The answer for one pair of bodies (indices into the list given, a < b).
struct RigidPairContact {
    std::int32_t a = 0;
    std::int32_t b = 0;
    RigidCcdResult result;
    double milliseconds = 0.0; ///< wall-clock time of this pair's query (to find the slow pairs)
};

/// rigid_time_of_contact for every pair of `bodies` whose swept boxes over [0, options.t_max] meet
/// (rigid_swept_box), in parallel (oneTBB: as many threads as its global control allows); ordered by (a, b).
/// Every other pair has no contact before t_max. `progress`, when set, is called with the pairs answered and the
/// pairs in all after most pairs (from the threads that answer them, never two at once: the callback limits its
/// own rate), and once at the end from the calling thread.
/// @throws std::invalid_argument for options rigid_time_of_contact refuses, bodies whose steps differ in length
///         (naming the first two indices), or more than 2^31 - 2 bodies
[[nodiscard]] std::vector<RigidPairContact> rigid_pairs_time_of_contact(
    std::span<const RigidBody> bodies,
    const RigidCcdOptions& options = {},
    const std::function<void(std::size_t done, std::size_t total)>& progress = {});

} // namespace ccdkit
