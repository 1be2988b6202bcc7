// SPDX-License-Identifier: MIT
#pragma once

// Where an edge passes through a triangle: the contacts of surfaces that cross at t = 0 (mesh_contact.cpp), whose
// closest vertex-face and edge-edge pairs can lie far from the crossing (a rod through a face's middle).

#include "rigid/details/wide_range_length.hpp"

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <optional>

namespace ccdkit::details {

/// How far, relative to the points' magnitude (largest |coordinate|), the ends of an edge must lie from a triangle's
/// plane on either side for the edge to pass through it: beyond the posed points' rounding (as POSED_ROUNDING in
/// contact_geometry.hpp), so that faces resting on each other, touching within rounding, do not count as crossing.
inline constexpr double PIERCING_ROUNDING = 1e-13;

/// The point where the segment from p to q passes through the triangle y (corners y[k], sides from y[k] to
/// y[(k + 1) % 3]), where its ends lie on opposite sides of the triangle's plane, each beyond PIERCING_ROUNDING of the
/// magnitude, and the point inside the triangle beyond that from each side but the flat ones (MeshShapeData::
/// flat_edges: the face beyond continues the plane, so a point on such a side is inside the surface); none otherwise
/// (apart, one end in the plane or the edge along it, a collapsed triangle, or through the triangle's rim: edges
/// crossing there touch, as the rims of two boxes stacked face to face). Computed from differences scaled by a power of
/// two near the extent (exact), so that products stay in range at any scale.
[[nodiscard]] inline std::optional<Eigen::Vector3d> piercing_point(
    const Eigen::Vector3d& p,
    const Eigen::Vector3d& q,
    const std::array<Eigen::Vector3d, 3>& y,
    const std::array<bool, 3>& flat_sides)
{
    const Eigen::Vector3d& origin = y[0];
    double extent = std::max((p - origin).cwiseAbs().maxCoeff(), (q - origin).cwiseAbs().maxCoeff());
    extent = std::max({ extent, (y[1] - origin).cwiseAbs().maxCoeff(), (y[2] - origin).cwiseAbs().maxCoeff() });
    if (!(extent > 0.0) || !std::isfinite(extent)) {
        return std::nullopt;
    }
    const int exponent = std::ilogb(extent);
    const auto local = [&](const Eigen::Vector3d& v) { return scaled_by_power_of_two(v - origin, -exponent); };
    const Eigen::Vector3d lp = local(p), lq = local(q), u = local(y[1]), v = local(y[2]);
    const Eigen::Vector3d normal = u.cross(v);
    const double length = normal.norm();
    const double side_p = normal.dot(lp), side_q = normal.dot(lq);
    double magnitude = std::max(p.cwiseAbs().maxCoeff(), q.cwiseAbs().maxCoeff());
    for (const Eigen::Vector3d& point : y) {
        magnitude = std::max(magnitude, point.cwiseAbs().maxCoeff());
    }
    const double rounding = PIERCING_ROUNDING * std::ldexp(magnitude, -exponent) * length;
    if (!((side_p > rounding && side_q < -rounding) || (side_p < -rounding && side_q > rounding))) {
        return std::nullopt;
    }
    const Eigen::Vector3d x = lp + (side_p / (side_p - side_q)) * (lq - lp);
    const std::array<Eigen::Vector3d, 3> corner { Eigen::Vector3d::Zero(), u, v };
    for (std::size_t k = 0; k < 3; ++k) {
        const Eigen::Vector3d& from = corner[k];
        const Eigen::Vector3d side = corner[(k + 1) % 3] - from;
        const double inside = side.cross(x - from).dot(normal);
        if (flat_sides[k] ? inside < 0.0 : inside <= rounding * side.norm()) {
            return std::nullopt;
        }
    }
    return origin + scaled_by_power_of_two(x, exponent);
}

} // namespace ccdkit::details
