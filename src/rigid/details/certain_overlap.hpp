// SPDX-License-Identifier: MIT
#pragma once

// A certificate that two point sets' convex hulls overlap: GJK (convex_distance.hpp) ends inside a tetrahedron
// of their Minkowski difference, but decides that in plain double, which is no proof: on hulls with many nearly
// coplanar vertices (a 127-sided cylinder's cap) it built nearly flat tetrahedra and said "inside" for hulls
// 2.7e-8 of their size apart. Here the origin's four barycentric determinants in that tetrahedron, of the exact
// differences p - q, are signed by the double filter and else the double-double one: all certified alike, the
// origin lies strictly inside, so the hulls overlap.

#include <ccdkit/core/filtered_double.hpp>
#include <ccdkit/core/filtered_double_double.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

namespace ccdkit::details {

/// The four barycentric determinants of the origin in the tetrahedron with vertices w_k = p_k - q_k (inputs scaled
/// to |x| <= 4), in the arithmetic of Number: det(w1, w2, w3), -det(w0, w2, w3), det(w0, w1, w3), -det(w0, w1, w2)
/// (their sum is the tetrahedron's orientation; the origin is strictly inside iff all four share its sign).
template <class Number>
[[nodiscard]] std::array<int, 4>
barycentric_signs(const std::array<Eigen::Vector3d, 4>& p, const std::array<Eigen::Vector3d, 4>& q)
{
    std::array<std::array<Number, 3>, 4> w;
    for (std::size_t k = 0; k < 4; ++k) {
        for (Eigen::Index i = 0; i < 3; ++i) {
            w[k][static_cast<std::size_t>(i)] = Number(p[k][i]) - Number(q[k][i]);
        }
    }
    const auto det = [&w](std::size_t a, std::size_t b, std::size_t c) {
        const auto& x = w[a];
        const auto& y = w[b];
        const auto& z = w[c];
        return x[0] * (y[1] * z[2] - y[2] * z[1]) - x[1] * (y[0] * z[2] - y[2] * z[0])
            + x[2] * (y[0] * z[1] - y[1] * z[0]);
    };
    return { det(1, 2, 3).sign(), -det(0, 2, 3).sign(), det(0, 1, 3).sign(), -det(0, 1, 2).sign() };
}

/// Whether the origin certainly lies strictly inside the tetrahedron of the points p[ids[k][0]] - q[ids[k][1]]
/// (k < 4, the differences taken exactly): false where a sign is uncertain (the origin on or near a face, a flat
/// tetrahedron) or a coordinate is not finite.
[[nodiscard]] inline bool certainly_inside_difference(
    std::span<const Eigen::Vector3d> p,
    std::span<const Eigen::Vector3d> q,
    const std::array<std::array<std::uint32_t, 2>, 4>& ids)
{
    std::array<Eigen::Vector3d, 4> from_p, from_q;
    double largest = 0.0;
    for (std::size_t k = 0; k < 4; ++k) {
        from_p[k] = p[ids[k][0]];
        from_q[k] = q[ids[k][1]];
        largest = std::max({ largest, from_p[k].cwiseAbs().maxCoeff(), from_q[k].cwiseAbs().maxCoeff() });
    }
    // Scaled by a power of two to |x| <= 4 (the filters' precondition): 2^(2 - e) for largest in [2^(e - 1), 2^e),
    // formed from the exponent bits (no library call: this runs once per convex hit). A coordinate that the scaling
    // would round (a subnormal result) leaves the signs unproved.
    if (!(largest >= std::numeric_limits<double>::min() && largest < std::numeric_limits<double>::infinity())) {
        return false;
    }
    const auto biased = static_cast<std::int64_t>(std::bit_cast<std::uint64_t>(largest) >> 52); // e + 1022
    const auto power = [](std::int64_t biased_exponent) {
        return std::bit_cast<double>(static_cast<std::uint64_t>(biased_exponent) << 52);
    };
    const double scale = power(2047 - biased), unscale = power(biased - 1); // 2^(2 - e), 2^(e - 2)
    for (std::size_t k = 0; k < 4; ++k) {
        for (Eigen::Vector3d* v : { &from_p[k], &from_q[k] }) {
            const Eigen::Vector3d scaled = *v * scale;
            if (scaled * unscale != *v) {
                return false;
            }
            *v = scaled;
        }
    }
    std::array<int, 4> signs = barycentric_signs<FilteredDouble>(from_p, from_q);
    const auto alike
        = [](const std::array<int, 4>& s) { return s[0] != 0 && s[0] == s[1] && s[0] == s[2] && s[0] == s[3]; };
    if (alike(signs)) {
        return true;
    }
    // (Two certified signs that differ already place the origin outside.)
    for (const int a : signs) {
        for (const int b : signs) {
            if (a * b < 0) {
                return false;
            }
        }
    }
    signs = barycentric_signs<FilteredDoubleDouble>(from_p, from_q);
    return alike(signs);
}

} // namespace ccdkit::details
