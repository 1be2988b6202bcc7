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

using Vec3 = std::array<double, 3>;

/// A vector moving linearly over the step: v(t) = start (1 - t) + end t.
struct LinearVector {
    Vec3 start {}, end {};
};

/// A quadratic vector q(t) = c[0] (1 - t)^2 + c[1] (1 - t) t + c[2] t^2.
struct QuadraticVector {
    std::array<Vec3, 3> c {};
};

[[nodiscard]] inline Vec3 cross(const Vec3& x, const Vec3& y)
{
    return { x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0] };
}

[[nodiscard]] inline double dot(const Vec3& x, const Vec3& y) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; }

[[nodiscard]] inline QuadraticVector cross(const LinearVector& a, const LinearVector& b)
{
    const Vec3 ab = cross(a.start, b.end), ba = cross(a.end, b.start);
    return { { cross(a.start, b.start), Vec3 { ab[0] + ba[0], ab[1] + ba[1], ab[2] + ba[2] }, cross(a.end, b.end) } };
}

/// True only if the cubic (a x b)(t) . w(t) has no root in [0, 1], where q = cross(a, b) was computed by the
/// function above; false means "not certified". Precondition: every component of a, b and w, at both ends,
/// is the rounded difference of two input coordinates (one rounding), and `largest` is at least all their
/// magnitudes.
[[nodiscard]] inline bool never_zero(const QuadraticVector& q, const LinearVector& w, double largest)
{
    // Keeps every product far from overflow and its underflow error far below the bound; NaN fails too.
    if (!(largest >= 0x1p-300 && largest <= 0x1p300)) {
        return false;
    }
    // Coefficients in the basis (1 - t)^(3-k) t^k (Bernstein up to positive factors): all of one strict sign
    // means no root.
    const std::array<double, 4> c { dot(q.c[0], w.start), dot(q.c[0], w.end) + dot(q.c[1], w.start),
                                    dot(q.c[1], w.end) + dot(q.c[2], w.start), dot(q.c[2], w.end) };
    // Error bound. Each c_k is a sum of at most 18 terms +-d d d (d: exact differences, |d| <= M, where
    // M <= largest / (1 - u)); each term passes through at most 10 roundings (the 3 differences, 2
    // products, and at most 5 additions: the cross product's, q1's, the dot product's two, c_k's), so
    // |computed - exact| <= gamma_10 * 18 M^3 < 181 u largest^3. Underflow adds at most ~60 * 2^-1075 in
    // absolute terms, negligible above 2^-953 (largest >= 2^-300). 256 covers 181 and the rounding of the
    // bound's own product.
    constexpr double U = std::numeric_limits<double>::epsilon() / 2;
    const double bound = 256.0 * U * largest * largest * largest;
    const bool positive = c[0] > bound && c[1] > bound && c[2] > bound && c[3] > bound;
    const bool negative = c[0] < -bound && c[1] < -bound && c[2] < -bound && c[3] < -bound;
    return positive || negative;
}

/// True only if the four points of `motion` (each moving linearly over [0, 1]) are affinely independent
/// at every t in [0, 1]; false means "not certified", not "coplanar".
[[nodiscard]] inline bool never_coplanar(const QueryMotion& motion)
{
    // The coplanarity cubic is det(x1 - x0, x2 - x0, x3 - x0)(t) = ((x1 - x0) x (x2 - x0)) . (x3 - x0).
    std::array<LinearVector, 3> d;
    double largest = 0.0;
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) {
            d[i].start[k] = motion.start[i + 1][k] - motion.start[0][k];
            d[i].end[k] = motion.end[i + 1][k] - motion.end[0][k];
            largest = std::max({ largest, std::abs(d[i].start[k]), std::abs(d[i].end[k]) });
        }
    }
    return never_zero(cross(d[0], d[1]), d[2], largest);
}

} // namespace ccdkit::details
