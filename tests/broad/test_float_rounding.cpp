// SPDX-License-Identifier: MIT
// float_below / float_above: the float next to a double on the chosen side, at every kind of double (zeros,
// subnormals of both precisions, the ends of the float range, infinities, floats themselves, random values).
#include "broad/details/float_rounding.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using ccdkit::details::float_above;
using ccdkit::details::float_below;

namespace {
constexpr float FLOAT_INF = std::numeric_limits<float>::infinity();
constexpr double DOUBLE_INF = std::numeric_limits<double>::infinity();

/// The defining property: below <= x and the next float up is > x (or below is the largest float); above
/// likewise on the other side.
void expect_bracketed(double x)
{
    SCOPED_TRACE(x);
    const float below = float_below(x), above = float_above(x);
    ASSERT_FALSE(std::isnan(below));
    ASSERT_FALSE(std::isnan(above));
    EXPECT_LE(static_cast<double>(below), x);
    EXPECT_GE(static_cast<double>(above), x);
    if (below != std::numeric_limits<float>::max()) {
        EXPECT_GT(static_cast<double>(std::nextafter(below, FLOAT_INF)), x);
    }
    if (above != std::numeric_limits<float>::lowest()) {
        EXPECT_LT(static_cast<double>(std::nextafter(above, -FLOAT_INF)), x);
    }
    if (std::isfinite(x) && static_cast<double>(static_cast<float>(x)) == x) {
        EXPECT_EQ(below, static_cast<float>(x)); // a float is its own bound
        EXPECT_EQ(above, static_cast<float>(x));
    }
}
} // namespace

TEST(FloatRounding, SpecialValues)
{
    constexpr float FMAX = std::numeric_limits<float>::max();
    constexpr float FDEN = std::numeric_limits<float>::denorm_min();
    const std::vector<double> values {
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.1,
        -0.1,
        1e-300,
        -1e-300,
        std::numeric_limits<double>::denorm_min(),
        -std::numeric_limits<double>::denorm_min(),
        static_cast<double>(FDEN),
        static_cast<double>(FDEN) * 1.5,
        -static_cast<double>(FDEN) * 0.5,
        static_cast<double>(std::numeric_limits<float>::min()),
        static_cast<double>(FMAX),
        -static_cast<double>(FMAX),
        std::nextafter(static_cast<double>(FMAX), DOUBLE_INF),
        std::nextafter(static_cast<double>(FMAX), 0.0),
        -std::nextafter(static_cast<double>(FMAX), DOUBLE_INF),
        1e300,
        -1e300,
        std::numeric_limits<double>::max(),
        -std::numeric_limits<double>::max(),
    };
    for (const double x : values) {
        expect_bracketed(x);
    }
    EXPECT_EQ(float_below(DOUBLE_INF), FMAX);
    EXPECT_EQ(float_below(-DOUBLE_INF), -FLOAT_INF);
    EXPECT_EQ(float_above(DOUBLE_INF), FLOAT_INF);
    EXPECT_EQ(float_above(-DOUBLE_INF), -FMAX);
    EXPECT_EQ(float_below(1e-300), 0.0F);
    EXPECT_EQ(float_below(-1e-300), -FDEN);
    EXPECT_EQ(float_above(1e-300), FDEN);
    EXPECT_EQ(float_above(-1e-300), 0.0F);
}

TEST(FloatRounding, RandomDoublesOfEveryMagnitude)
{
    std::mt19937_64 rng(41);
    std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-160, 140);
    for (int i = 0; i < 200000; ++i) {
        const double x = std::ldexp(mantissa(rng), exponent(rng));
        expect_bracketed(x);
        // Floats and their neighbouring doubles, where rounding to nearest goes either way.
        const auto f = static_cast<double>(static_cast<float>(x));
        expect_bracketed(f);
        expect_bracketed(std::nextafter(f, DOUBLE_INF));
        expect_bracketed(std::nextafter(f, -DOUBLE_INF));
    }
}
