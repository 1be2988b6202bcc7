// SPDX-License-Identifier: MIT
#pragma once

#include "rigid/details/wide_range_length.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ccdkit::details {

/// The signed solid angle of triangle (a, b, c) seen from the origin (Van Oosterom & Strackee's formula). The formula
/// multiplies three coordinates, which leaves double's range beyond about 1e102 (a box of 1e103 had no inside) or below
/// about 1e-102: there the corners are scaled by a power of two first (exact; the angle is the same).
[[nodiscard]] inline double triangle_solid_angle(Eigen::Vector3d a, Eigen::Vector3d b, Eigen::Vector3d c)
{
    const double largest = std::max({ a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff(), c.cwiseAbs().maxCoeff() });
    if (largest > 0x1p300 || (largest < 0x1p-300 && largest > 0.0)) {
        const int exponent = -std::ilogb(largest);
        a = scaled_by_power_of_two(a, exponent);
        b = scaled_by_power_of_two(b, exponent);
        c = scaled_by_power_of_two(c, exponent);
    }
    const double la = a.norm(), lb = b.norm(), lc = c.norm();
    const double numerator = a.dot(b.cross(c));
    const double denominator = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
    return 2.0 * std::atan2(numerator, denominator);
}

/// Whether p is inside a closed, outward-wound triangle mesh: its generalized winding number (the solid
/// angle the surface subtends at p, over 4 pi) is 1 inside and 0 outside, so rounding only matters for points on the
/// surface itself.
[[nodiscard]] inline bool
inside_solid(const Eigen::Vector3d& p, const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces)
{
    double solid_angle = 0.0;
    for (Eigen::Index f = 0; f < faces.rows(); ++f) {
        solid_angle += triangle_solid_angle(
            vertices.row(faces(f, 0)).transpose() - p, vertices.row(faces(f, 1)).transpose() - p,
            vertices.row(faces(f, 2)).transpose() - p);
    }
    return solid_angle > 2.0 * std::numbers::pi; // winding number > 1/2
}

} // namespace ccdkit::details
