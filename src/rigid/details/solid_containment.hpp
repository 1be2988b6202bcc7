// SPDX-License-Identifier: MIT
#pragma once

#include <Eigen/Core>

#include <cmath>
#include <numbers>

namespace ccdkit::details {

/// Whether p is inside a closed, outward-wound triangle mesh: its generalized winding number (the solid
/// angle the surface subtends at p, over 4 pi; Van Oosterom & Strackee's formula per triangle) is 1 inside
/// and 0 outside, so rounding only matters for points on the surface itself.
[[nodiscard]] inline bool
inside_solid(const Eigen::Vector3d& p, const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces)
{
    double solid_angle = 0.0;
    for (Eigen::Index f = 0; f < faces.rows(); ++f) {
        const Eigen::Vector3d a = vertices.row(faces(f, 0)).transpose() - p;
        const Eigen::Vector3d b = vertices.row(faces(f, 1)).transpose() - p;
        const Eigen::Vector3d c = vertices.row(faces(f, 2)).transpose() - p;
        const double la = a.norm(), lb = b.norm(), lc = c.norm();
        const double numerator = a.dot(b.cross(c));
        const double denominator = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
        solid_angle += 2.0 * std::atan2(numerator, denominator);
    }
    return solid_angle > 2.0 * std::numbers::pi; // winding number > 1/2
}

} // namespace ccdkit::details
