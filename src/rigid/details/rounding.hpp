// SPDX-License-Identifier: MIT
#pragma once

// Outward rounding for the rigid module's bounds: each is a short sum of products of non-negative terms,
// evaluated in double; enlarging the result by a few ulps (relative) and an underflow-sized absolute term
// covers its own rounding.

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace ccdkit::details {

/// 2^-52: one ulp of 1.
inline constexpr double UNIT_ROUNDOFF = std::numeric_limits<double>::epsilon();
/// Largest coordinate (and step) magnitude the rigid module accepts: squares and products of a few such terms
/// stay finite, so no bound overflows.
inline constexpr double MAX_COORDINATE = 1e150;
/// Least size (largest side of the bounding box) of a mesh body, and of an implicit shape's dimensions: below about
/// 3e-162 the bounds' squares underflow far enough that the certified steps were late (a cube of 3e-162 met another
/// at twice the true time).
inline constexpr double MIN_SIZE = 1.0 / MAX_COORDINATE;
/// Covers results that underflow (subnormal products of tiny terms).
inline constexpr double ABSOLUTE_SLACK = 1e-300;

/// x enlarged by 8 ulps: more than the relative rounding of a sum of a few products of non-negative terms.
[[nodiscard]] inline double rounded_up(double x) { return x * (1.0 + 8.0 * UNIT_ROUNDOFF) + ABSOLUTE_SLACK; }

/// The next double below x, as std::nextafter(x, -infinity) gives it; a positive finite x (the times of a step,
/// the hot case) steps down its bit pattern inline instead of calling the library.
[[nodiscard]] inline double next_below(double x)
{
    if (x > 0.0 && x <= std::numeric_limits<double>::max()) {
        return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) - 1);
    }
    return std::nextafter(x, -std::numeric_limits<double>::infinity());
}

} // namespace ccdkit::details
