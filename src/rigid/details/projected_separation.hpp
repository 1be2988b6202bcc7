// SPDX-License-Identifier: MIT
#pragma once

// A cheap, certain "apart" for a segment and a triangle in space, before the exact intersection test.
//
// Bodies resting on each other put segments and triangles in (nearly) one plane, where the exact test's
// floating-point filter cannot decide and its exact stage (GMP) runs: most of a resting contact's time, and most
// of those tests answer "apart". A projection along a coordinate axis keeps common points, so a segment and a
// triangle whose projections are apart are apart. In the plane a closed triangle and a closed segment are apart
// iff the line of a side or of the segment has them strictly on opposite sides (separating axes of convex
// polygons); that is decided here by orientation signs that a floating-point filter certifies. An uncertain
// sign never answers "apart": the answer "not certainly apart" leaves the decision to the exact test.

#include <ccdkit/core/filtered_double.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <array>

namespace ccdkit::details {

/// Sign of the orientation of (a, b, c) in the plane when the filter certifies it, else 0. Every coordinate must
/// satisfy |x| <= 4 (FilteredDouble's absolute error term).
[[nodiscard]] inline int
certain_orientation_2d(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c)
{
    const FilteredDouble ax(a.x()), ay(a.y());
    const FilteredDouble det = (FilteredDouble(b.x()) - ax) * (FilteredDouble(c.y()) - ay)
        - (FilteredDouble(b.y()) - ay) * (FilteredDouble(c.x()) - ax);
    return det.sign();
}

/// Whether the closed segment (points 0, 1) and the closed triangle (points 2 to 4) are certainly apart, shown
/// by their projections along the axis of the triangle's largest normal component (where its projection is
/// least flattened). `false` says nothing. Every coordinate must satisfy |x| <= 4.
[[nodiscard]] inline bool apart_in_projection(const std::array<Eigen::Vector3d, 5>& points)
{
    const Eigen::Vector3d normal = (points[3] - points[2]).cross(points[4] - points[2]);
    Eigen::Index dropped = 0;
    normal.cwiseAbs().maxCoeff(&dropped);
    std::array<Eigen::Vector2d, 5> q;
    for (std::size_t k = 0; k < points.size(); ++k) {
        q[k] = { points[k][(dropped + 1) % 3], points[k][(dropped + 2) % 3] };
    }
    const Eigen::Vector2d& s0 = q[0];
    const Eigen::Vector2d& s1 = q[1];
    // A side's line with the third corner strictly on one side and both ends of the segment strictly on the other.
    for (std::size_t i = 0; i < 3; ++i) {
        const Eigen::Vector2d& a = q[2 + i];
        const Eigen::Vector2d& b = q[2 + (i + 1) % 3];
        const int inside = certain_orientation_2d(a, b, q[2 + (i + 2) % 3]);
        if (inside != 0 && certain_orientation_2d(a, b, s0) == -inside && certain_orientation_2d(a, b, s1) == -inside) {
            return true;
        }
    }
    // The segment's line with all three corners strictly on one side.
    const int side = certain_orientation_2d(s0, s1, q[2]);
    return side != 0 && certain_orientation_2d(s0, s1, q[3]) == side && certain_orientation_2d(s0, s1, q[4]) == side;
}

} // namespace ccdkit::details
