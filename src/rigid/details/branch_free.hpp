// SPDX-License-Identifier: MIT
#pragma once

// Selections without a branch, for the convex path's per-vertex loops: which vertex is lowest, which feature box
// meets which, follow no pattern a branch predictor could learn, and a mispredicted branch (some 15 cycles) costs
// more than the few operations the selection takes.

#include <Eigen/Core>

#include <bit>
#include <cmath>
#include <cstdint>

namespace ccdkit::details {

/// `condition ? if_true : if_false`, through bit masks (compilers turn a plain conditional on doubles into a branch).
[[nodiscard]] inline double select(bool condition, double if_true, double if_false)
{
    const std::uint64_t mask = std::uint64_t { 0 } - static_cast<std::uint64_t>(condition);
    return std::bit_cast<double>(
        (std::bit_cast<std::uint64_t>(if_true) & mask) | (std::bit_cast<std::uint64_t>(if_false) & ~mask));
}

/// max(x, 0), exactly (x + |x| is 2x or 0, halved exactly; for |x| < 2^1023), as +0.0 where x is a zero: compilers
/// make std::max a branch in places, and the signs of the points' radial and turning rates follow no pattern.
[[nodiscard]] inline double positive_part(double x) { return 0.5 * (x + std::abs(x)); }

/// -1 where x.towards < 0, else 1: the sign that turns x to face `towards` (x times it is exactly x or -x). Which way
/// a feature's normal comes out of a cross product follows no pattern.
[[nodiscard]] inline double facing_sign(const Eigen::Vector3d& x, const Eigen::Vector3d& towards)
{
    return select(x.dot(towards) < 0.0, -1.0, 1.0);
}

} // namespace ccdkit::details
