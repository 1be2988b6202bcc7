// SPDX-License-Identifier: MIT
#pragma once

// The contacts of two convex bodies found touching within [lower, upper] (convex_contact.cpp's probe): every
// feature pair whose gap at `upper` lies within the interval's slack of the closest, as the general search reports
// them.

#include <ccdkit/rigid/rigid_contact.hpp>

#include <Eigen/Core>

#include <span>
#include <vector>

namespace ccdkit::details {

/// One convex body over [lower, upper]: its vertices (world coordinates) at both ends and the bounds of its motion.
struct ConvexContactSide {
    const RigidShape& shape;
    const RigidMotion& motion;
    std::span<const Eigen::Vector3d> lower_points; ///< at `lower`, before the contact: they orient the normals
    std::span<const Eigen::Vector3d> upper_points; ///< at `upper`: the gaps are measured there
    const Eigen::Matrix3d& upper_rotation; ///< the body's rotation at `upper` (its faces' outward normals there)
    double radius; ///< largest distance of a vertex from the centre of mass
    double step_angle; ///< angle turned over the whole step (rounded up)
    double error; ///< the vertices' rounding (RigidMotion::point_error_bound)
    double speed; ///< bound on any point's speed per unit of the step
};

/// Contacts at `upper`: every feature pair within the interval's slack of the closest; those that passed through each
/// other by then first, then closest first. `n` is a direction along which a lies above b at `lower` (the separating
/// direction of the search). Each measured pair counts in stats.pair_tests.
[[nodiscard]] std::vector<RigidContact> convex_contacts(
    const ConvexContactSide& a,
    const ConvexContactSide& b,
    double lower,
    double upper,
    const Eigen::Vector3d& n,
    RigidCcdStats& stats);

} // namespace ccdkit::details
