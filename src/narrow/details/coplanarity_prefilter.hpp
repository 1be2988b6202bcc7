// SPDX-License-Identifier: MIT
#pragma once

// A quick certificate that a query's four points are never coplanar during the step, hence never touch.
// Most candidate pairs of a broad phase are of this kind; certifying them in plain double arithmetic with
// one static error bound is several times cheaper than the general filter.

#include "query_motion.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ccdkit::details {

/// True only if the four points of `motion` (each moving linearly over [0, 1]) are affinely independent
/// at every t in [0, 1]; false means "not certified", not "coplanar".
[[nodiscard]] inline bool never_coplanar(const QueryMotion& motion)
{
    // The coplanarity cubic is det(x1 - x0, x2 - x0, x3 - x0)(t). With the differences linear in t,
    // d_i(t) = a_i (1 - t) + b_i t, its coefficients c_k in the basis (1 - t)^(3-k) t^k (Bernstein up to
    // positive factors) are sums of products a.a.a, a.a.b, ...; all of one strict sign means no root.
    std::array<std::array<double, 3>, 3> a {}, b {};
    double largest = 0.0;
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) {
            a[i][k] = motion.start[i + 1][k] - motion.start[0][k];
            b[i][k] = motion.end[i + 1][k] - motion.end[0][k];
            largest = std::max({ largest, std::abs(a[i][k]), std::abs(b[i][k]) });
        }
    }
    // Keeps every product far from overflow and its underflow error far below the bound; NaN fails too.
    if (!(largest >= 0x1p-300 && largest <= 0x1p300)) {
        return false;
    }
    const auto cross = [](const std::array<double, 3>& x, const std::array<double, 3>& y) {
        return std::array<double, 3> { x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2],
                                       x[0] * y[1] - x[1] * y[0] };
    };
    const auto dot = [](const std::array<double, 3>& x, const std::array<double, 3>& y) {
        return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    };
    // The cross product of d_0 and d_1 is the quadratic q0 (1-t)^2 + q1 (1-t) t + q2 t^2.
    const auto q0 = cross(a[0], a[1]);
    const auto q2 = cross(b[0], b[1]);
    const auto ab = cross(a[0], b[1]);
    const auto ba = cross(b[0], a[1]);
    const std::array<double, 3> q1 { ab[0] + ba[0], ab[1] + ba[1], ab[2] + ba[2] };
    const std::array<double, 4> c { dot(q0, a[2]), dot(q0, b[2]) + dot(q1, a[2]), dot(q1, b[2]) + dot(q2, a[2]),
                                    dot(q2, b[2]) };
    // Error bound. Each c_k is a sum of at most 18 terms +-d d d (d: exact differences, |d| <= M, where
    // M <= largest / (1 - u)); each term passes through at most 10 roundings (the 3 differences, 2
    // products, and at most 5 additions), so |computed - exact| <= gamma_10 * 18 M^3 < 181 u largest^3.
    // Underflow adds at most ~60 * 2^-1075 in absolute terms, negligible above 2^-953 (largest >= 2^-300).
    // 256 covers 181 and the rounding of the bound's own product.
    constexpr double U = std::numeric_limits<double>::epsilon() / 2;
    const double bound = 256.0 * U * largest * largest * largest;
    const bool positive = c[0] > bound && c[1] > bound && c[2] > bound && c[3] > bound;
    const bool negative = c[0] < -bound && c[1] < -bound && c[2] < -bound && c[3] < -bound;
    return positive || negative;
}

} // namespace ccdkit::details
