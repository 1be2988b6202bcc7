// SPDX-License-Identifier: MIT
#pragma once

// A segment against a triangle in space, decided from orientation signs where none of them is zero, before the
// exact intersection test.
//
// Resting bodies put segments and triangles nearly in one plane: the poses' rounding leaves them a few ulps off
// it, where the exact test's double filter cannot decide and its exact stage (GMP) runs. Those signs are far
// from zero for double-double arithmetic, though, and they decide the test: with o(a, b, c, d) the orientation
// of four points,
// - segment ends strictly on one side of the triangle's plane (o(A, B, C, P) and o(A, B, C, Q) nonzero, equal):
//   apart;
// - strictly on opposite sides: the segment crosses the plane at one point, which lies in the closed triangle iff
//   the line PQ passes every side with the same sign, o(P, Q, A, B), o(P, Q, B, C), o(P, Q, C, A) (Plücker
//   coordinates): all nonzero and equal, it meets; two nonzero and different, apart.
// A zero or uncertain sign (touching, coplanar, a degenerate triangle or segment) decides nothing: the exact
// test does.

#include <ccdkit/core/filtered_double.hpp>
#include <ccdkit/core/filtered_double_double.hpp>

#include <Eigen/Core>

#include <array>
#include <cstddef>
#include <optional>

namespace ccdkit::details {

/// Orientation of (a, b, c, d), the determinant of (b - a, c - a, d - a), in the arithmetic of Number.
template <class Number>
[[nodiscard]] Number
orientation_3d(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c, const Eigen::Vector3d& d)
{
    std::array<std::array<Number, 3>, 3> m;
    const std::array<const Eigen::Vector3d*, 3> rows { &b, &c, &d };
    for (std::size_t i = 0; i < 3; ++i) {
        for (Eigen::Index j = 0; j < 3; ++j) {
            m[i][static_cast<std::size_t>(j)] = Number((*rows[i])[j]) - Number(a[j]);
        }
    }
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

/// Sign of the orientation of (a, b, c, d) when the double filter or else the double-double one certifies it
/// nonzero; 0 when neither does (it may be zero). Every coordinate must satisfy |x| <= 4.
[[nodiscard]] inline int certain_orientation_3d(
    const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c, const Eigen::Vector3d& d)
{
    const int sign = orientation_3d<FilteredDouble>(a, b, c, d).sign();
    return sign != 0 ? sign : orientation_3d<FilteredDoubleDouble>(a, b, c, d).sign();
}

/// Whether the closed segment (points 0, 1) and the closed triangle (points 2 to 4) meet, where certified signs
/// decide it (file comment); none where they do not. Every coordinate must satisfy |x| <= 4.
[[nodiscard]] inline std::optional<bool> certain_segment_meets_triangle(const std::array<Eigen::Vector3d, 5>& points)
{
    const auto& [p, q, a, b, c] = points;
    const int side_p = certain_orientation_3d(a, b, c, p);
    if (side_p == 0) {
        return std::nullopt;
    }
    const int side_q = certain_orientation_3d(a, b, c, q);
    if (side_q == 0) {
        return std::nullopt;
    }
    if (side_p == side_q) {
        return false;
    }
    // The line crosses the plane at one point, inside the closed triangle iff no two sides' signs differ.
    const std::array<int, 3> sides { certain_orientation_3d(p, q, a, b), certain_orientation_3d(p, q, b, c),
                                     certain_orientation_3d(p, q, c, a) };
    const bool positive = sides[0] > 0 || sides[1] > 0 || sides[2] > 0;
    const bool negative = sides[0] < 0 || sides[1] < 0 || sides[2] < 0;
    if (positive && negative) {
        return false;
    }
    if (sides[0] == 0 || sides[1] == 0 || sides[2] == 0) {
        return std::nullopt; // (on a side's line, or uncertain)
    }
    return true;
}

} // namespace ccdkit::details
