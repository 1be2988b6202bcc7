// SPDX-License-Identifier: MIT
#pragma once

// Doubles rounded to single precision in a chosen direction, for bounds stored in float (half the memory
// traffic) that must still contain what they bound.

#include <bit>
#include <cstdint>
#include <limits>

namespace ccdkit::details {

/// The largest float <= x (x finite or infinite, not NaN).
[[nodiscard]] inline float float_below(double x)
{
    constexpr auto FLOAT_MAX = static_cast<double>(std::numeric_limits<float>::max());
    if (x > FLOAT_MAX) {
        return std::numeric_limits<float>::max();
    }
    if (x < -FLOAT_MAX) {
        return -std::numeric_limits<float>::infinity();
    }
    const auto f = static_cast<float>(x);
    if (static_cast<double>(f) <= x) {
        return f;
    }
    // One float down (f > x >= -FLOAT_MAX, so f > -FLOAT_MAX): its bits step away from zero when f < 0, toward
    // zero when f > 0; below +0 (or -0) comes the negative subnormal.
    if (f == 0.0F) {
        return -std::numeric_limits<float>::denorm_min();
    }
    const auto bits = std::bit_cast<std::uint32_t>(f);
    return std::bit_cast<float>(f > 0.0F ? bits - 1 : bits + 1);
}

/// The smallest float >= x (x not NaN).
[[nodiscard]] inline float float_above(double x) { return -float_below(-x); }

} // namespace ccdkit::details
