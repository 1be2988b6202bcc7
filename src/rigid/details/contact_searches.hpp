// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/rigid/rigid_contact.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace ccdkit::details {

/// Two meshes: feature pairs (vertex-face both ways, edge-edge) along chords widened by the arcs' departure.
[[nodiscard]] RigidCcdResult
mesh_time_of_contact(const RigidBody& a, const RigidBody& b, const RigidCcdOptions& options);

/// A surface (a mesh, or an implicit shape's surface) against an implicit solid: regions of the surface,
/// refined in space and time, against the solid's certified clearance. Contacts name `surface` as body a.
[[nodiscard]] RigidCcdResult
surface_time_of_contact(const RigidBody& surface, const RigidBody& solid, const RigidCcdOptions& options);

/// Both bodies are small convex solids (MeshShapeData::convex): convex_time_of_contact applies.
[[nodiscard]] bool convex_pair(const RigidBody& a, const RigidBody& b);

/// What convex_time_of_contact found: the answer (CONSERVATIVE's contract), or nothing where it could not decide
/// (bodies touching at the start, a graze); the statistics either way.
struct ConvexAnswer {
    std::optional<RigidCcdResult> result;
    RigidCcdStats stats;
};

/// Two convex solids: conservative advancement with a local speed bound in world coordinates, and an overlap
/// test eps later as the upper bound (convex_contact.cpp).
[[nodiscard]] ConvexAnswer
convex_time_of_contact(const RigidBody& a, const RigidBody& b, const RigidCcdOptions& options);

/// The same contacts seen with the bodies' roles exchanged (a search run as (b, a) answering for (a, b)).
[[nodiscard]] inline RigidCcdResult with_roles_exchanged(RigidCcdResult result)
{
    for (RigidContact& c : result.contacts) {
        std::swap(c.feature_a, c.feature_b);
        c.normal = -c.normal;
    }
    return result;
}

/// How many equal intervals the step is first cut into: neither body turns more than half a radian relative to
/// the other within one, which keeps the first bounding volumes close to the arcs they hold.
[[nodiscard]] inline int top_interval_count(const RigidBody& a, const RigidBody& b, double t_max)
{
    constexpr double TOP_INTERVAL_ANGLE = 0.5;
    constexpr double MAX_TOP_INTERVALS = 4096;
    const double angle = (a.motion.step_angle() + b.motion.step_angle()) * t_max;
    return static_cast<int>(std::clamp(std::ceil(angle / TOP_INTERVAL_ANGLE), 1.0, MAX_TOP_INTERVALS));
}

/// A search's answer: no hit (both times t_max), or a hit in [found.lower, found.upper] with its contacts (where
/// the options ask for them); the statistics as they stand after the contacts' search.
template <class Found, class ContactsOf>
[[nodiscard]] RigidCcdResult result_of(
    const std::optional<Found>& found,
    const RigidCcdOptions& options,
    const RigidCcdStats& stats,
    ContactsOf&& contacts_of)
{
    RigidCcdResult result;
    result.toi_lower = result.toi_upper = options.t_max;
    if (found) {
        result.hit = true;
        result.toi_lower = found->lower;
        result.toi_upper = found->upper;
        if (options.contacts) {
            result.contacts = contacts_of(*found);
        }
    }
    result.stats = stats;
    return result;
}

} // namespace ccdkit::details
