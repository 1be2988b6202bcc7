// SPDX-License-Identifier: MIT
// The convex path's branch-free selections (branch_free.hpp): the same values as the conditionals they replace, bit
// for bit, over every magnitude a double has, signed zeros, infinities and NaN.

#include "rigid/details/branch_free.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace ccdkit {
namespace {

    using details::facing_sign;
    using details::positive_part;
    using details::select;

    constexpr double INF = std::numeric_limits<double>::infinity();

    [[nodiscard]] std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

    /// Doubles of every binary exponent, both signs, with random significands; and the special values.
    std::vector<double> every_magnitude()
    {
        std::mt19937_64 rng(11);
        std::vector<double> out { 0.0,
                                  -0.0,
                                  INF,
                                  -INF,
                                  std::numeric_limits<double>::denorm_min(),
                                  -std::numeric_limits<double>::denorm_min(),
                                  std::numeric_limits<double>::max(),
                                  std::numeric_limits<double>::lowest() };
        for (int e = -1074; e <= 1023; ++e) {
            const double m = std::uniform_real_distribution<double>(1.0, 2.0)(rng);
            const double x = std::ldexp(m, e);
            out.push_back(x);
            out.push_back(-x);
        }
        return out;
    }

    TEST(BranchFree, SelectReturnsTheChosenValueBitForBit)
    {
        const std::vector<double> values = every_magnitude();
        const double nan = std::numeric_limits<double>::quiet_NaN();
        for (std::size_t k = 0; k + 1 < values.size(); ++k) {
            const double x = values[k], y = values[k + 1];
            EXPECT_EQ(bits(select(true, x, y)), bits(x));
            EXPECT_EQ(bits(select(false, x, y)), bits(y));
            EXPECT_EQ(bits(select(true, nan, y)), bits(nan));
            EXPECT_EQ(bits(select(false, nan, y)), bits(y));
        }
    }

    TEST(BranchFree, PositivePartIsTheMaximumWithZero)
    {
        // std::max(x, 0.0) keeps x where x is not below 0 (-0.0 included); positive_part gives +0.0 there, the same
        // value. Beyond 2^1023 (the largest binade) x + |x| overflows: the documented limit.
        for (const double x : every_magnitude()) {
            if (std::abs(x) >= 0x1p1023) {
                continue;
            }
            const double expected = std::max(x, 0.0);
            EXPECT_EQ(positive_part(x), expected) << x;
            EXPECT_FALSE(std::signbit(positive_part(x))) << x; // never -0.0
        }
        EXPECT_EQ(positive_part(INF), INF);
        EXPECT_TRUE(std::isnan(positive_part(std::numeric_limits<double>::quiet_NaN())));
        EXPECT_TRUE(std::isnan(positive_part(-INF))); // (-inf + inf: the one input where it differs from std::max)
    }

    TEST(BranchFree, FacingSignTurnsAVectorToTheOtherSide)
    {
        const Eigen::Vector3d towards(0.3, -1.2, 0.5);
        std::mt19937_64 rng(5);
        std::uniform_real_distribution<double> coordinate(-1.0, 1.0);
        for (int k = 0; k < 1000; ++k) {
            const Eigen::Vector3d x(coordinate(rng), coordinate(rng), coordinate(rng));
            const double sign = facing_sign(x, towards);
            const Eigen::Vector3d faced = sign * x;
            // What the branch did: x itself unless x.towards < 0, then -x; bit for bit.
            const Eigen::Vector3d expected = x.dot(towards) < 0.0 ? Eigen::Vector3d(-x) : x;
            for (Eigen::Index c = 0; c < 3; ++c) {
                EXPECT_EQ(bits(faced[c]), bits(expected[c]));
            }
            EXPECT_GE(faced.dot(towards), 0.0);
        }
        // Square to the direction (x.towards = 0, of either sign): x stays.
        EXPECT_EQ(facing_sign(Eigen::Vector3d(1.2, 0.3, 0.0), Eigen::Vector3d(0.0, 0.0, 1.0)), 1.0);
        EXPECT_EQ(facing_sign(Eigen::Vector3d(-0.0, 0.0, 0.0), Eigen::Vector3d(1.0, 0.0, 0.0)), 1.0);
    }

} // namespace
} // namespace ccdkit
