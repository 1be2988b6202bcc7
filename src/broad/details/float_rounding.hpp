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
    // One float down, for when the conversion rounded up (f > x >= -FLOAT_MAX, so f > -FLOAT_MAX): its bits
    // step away from zero when f < 0, toward zero when f > 0; below +0 (or -0) comes the negative subnormal.
    // Selected without a branch (masks, not conditions): whether the conversion rounded up is a coin toss.
    const auto bits = std::bit_cast<std::uint32_t>(f);
    const auto all_if = [](bool c) { return 0U - static_cast<std::uint32_t>(c); };
    const std::uint32_t step = bits - 1U + 2U * static_cast<std::uint32_t>(f < 0.0F);
    const std::uint32_t zero = all_if(f == 0.0F);
    const std::uint32_t down
        = (step & ~zero) | (std::bit_cast<std::uint32_t>(-std::numeric_limits<float>::denorm_min()) & zero);
    const std::uint32_t rounded_up = all_if(static_cast<double>(f) > x);
    return std::bit_cast<float>((bits & ~rounded_up) | (down & rounded_up));
}

/// The smallest float >= x (x not NaN).
[[nodiscard]] inline float float_above(double x) { return -float_below(-x); }

} // namespace ccdkit::details
