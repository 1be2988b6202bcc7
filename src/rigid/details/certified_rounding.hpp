// SPDX-License-Identifier: MIT
#pragma once

// The constants and directed steps behind the certified clearances of implicit shapes and distance grids.
// Forward error bounds are written as (constant) * ROUNDOFF * (magnitude of the operands); a final
// round_down/round_up makes the last subtraction or division safe whatever its own rounding did.

#include <ccdkit/broad/aabb.hpp>

#include <cmath>
#include <limits>

namespace ccdkit::details {

constexpr double ROUNDOFF = 0x1p-53; ///< unit roundoff of double
constexpr double INF = std::numeric_limits<double>::infinity();
/// Absolute slack for underflow: a square or product that underflows loses at most 2^-1074, and the square
/// root of a handful of those stays below 2^-530; this is far below any distance a caller can resolve.
constexpr double UNDERFLOW_SLACK = 0x1p-500;

/// The next double towards -infinity: below the exact result of the operation that produced `x` (an
/// operation rounded to nearest is off by at most half an ulp).
[[nodiscard]] inline double round_down(double x) { return std::nextafter(x, -INF); }
/// The next double towards +infinity.
[[nodiscard]] inline double round_up(double x) { return std::nextafter(x, INF); }

/// a + b rounded up: exact when the sum is (the error term of Knuth's TwoSum is exact).
[[nodiscard]] inline double sum_rounded_up(double a, double b)
{
    const double sum = a + b;
    const double b_part = sum - a;
    const double error = (a - (sum - b_part)) + (b - b_part);
    return error > 0 ? round_up(sum) : sum;
}

/// A certified lower bound of `exact` given its computed value and a bound on |value - exact|.
[[nodiscard]] inline double lower_bound(double value, double error) { return round_down(value - error); }

/// The box that holds nothing; merging it with a box gives that box.
[[nodiscard]] inline Aabb empty_box() { return { Eigen::Array3d::Constant(INF), Eigen::Array3d::Constant(-INF) }; }
[[nodiscard]] inline bool is_empty(const Aabb& box) { return (box.min > box.max).any(); }

} // namespace ccdkit::details
