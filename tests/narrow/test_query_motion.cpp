// SPDX-License-Identifier: MIT
// QueryMotion::scaled_to_unit: the scaling the floating-point filters rely on must be exact, or declined.
#include "narrow/details/query_motion.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using ccdkit::details::QueryMotion;

namespace {
QueryMotion filled_with(double value)
{
    QueryMotion m;
    for (int i = 0; i < 4; ++i) {
        m.start[i].setConstant(value);
        m.end[i].setConstant(value);
    }
    return m;
}

/// True when every coordinate of `scaled` is that of `m` times the same power of two, exactly.
bool exactly_scaled(const QueryMotion& m, const QueryMotion& scaled, int e)
{
    for (int i = 0; i < 4; ++i) {
        for (int k = 0; k < 3; ++k) {
            if (scaled.start[i][k] != std::ldexp(m.start[i][k], e) || scaled.end[i][k] != std::ldexp(m.end[i][k], e)
                || std::ldexp(scaled.start[i][k], -e) != m.start[i][k]
                || std::ldexp(scaled.end[i][k], -e) != m.end[i][k]) {
                return false;
            }
        }
    }
    return true;
}
} // namespace

TEST(QueryMotion, ScalesTheLargestCoordinateIntoOneToTwo)
{
    for (const double largest : { 3.0, -1e300, 0x1p-1000, 0x1p-1070, 1.0, 0x1.fffffffffffffp1023 }) {
        SCOPED_TRACE(largest);
        QueryMotion m = filled_with(0.0);
        m.start[1] = Eigen::Vector3d(largest, largest / 4, 0.0);
        m.end[3] = Eigen::Vector3d(0.0, -largest / 2, largest / 8);
        const auto scaled = m.scaled_to_unit();
        ASSERT_TRUE(scaled.has_value());
        EXPECT_EQ(std::abs(scaled->start[1][0]), 1.0 * std::abs(largest) / std::ldexp(1.0, std::ilogb(largest)));
        EXPECT_TRUE(exactly_scaled(m, *scaled, -std::ilogb(largest)));
    }
}

TEST(QueryMotion, DeclinesAllZeroAndNonFiniteCoordinates)
{
    EXPECT_FALSE(filled_with(0.0).scaled_to_unit().has_value());
    QueryMotion m = filled_with(1.0);
    m.end[2][1] = std::numeric_limits<double>::infinity();
    EXPECT_FALSE(m.scaled_to_unit().has_value());
}

TEST(QueryMotion, DeclinesWhenASmallCoordinateWouldLoseBits)
{
    // Scaled by 2^-10, the smallest coordinate (2 - 2^-52) 2^-1013 would need 53 bits below 2^-1022, where
    // doubles are subnormal: it would round (to 2^-1022 itself, which a check of the rounded value misses).
    QueryMotion m = filled_with(1.0);
    m.start[0][0] = 0x1p10;
    m.end[1][2] = 0x1.fffffffffffffp-1013;
    EXPECT_FALSE(m.scaled_to_unit().has_value());
    // One binade up it stays normal: scaled, exactly.
    m.end[1][2] = 0x1.fffffffffffffp-1012;
    const auto scaled = m.scaled_to_unit();
    ASSERT_TRUE(scaled.has_value());
    EXPECT_TRUE(exactly_scaled(m, *scaled, -10));
}

TEST(QueryMotion, ScalesSubnormalCoordinatesOneByOne)
{
    QueryMotion m = filled_with(0.0);
    m.start[2][0] = 0x1p-1070;
    m.end[0][1] = -0x1p-1074;
    const auto scaled = m.scaled_to_unit();
    ASSERT_TRUE(scaled.has_value());
    EXPECT_TRUE(exactly_scaled(m, *scaled, 1070));
}
