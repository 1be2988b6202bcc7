// SPDX-License-Identifier: MIT
#include <ccdkit/core/filtered_double.hpp>

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using ccdkit::FilteredDouble;

namespace {
/// |exact - value| <= error, checked in rational arithmetic.
void expect_bound_holds(const FilteredDouble& x, const mpq_class& exact)
{
    ASSERT_TRUE(std::isfinite(x.value) && std::isfinite(x.error_bound()));
    EXPECT_LE(abs(exact - mpq_class(x.value)), mpq_class(x.error_bound()));
}
} // namespace

TEST(FilteredDouble, ExactInputsHaveNoError)
{
    const FilteredDouble x(0.1);
    EXPECT_EQ(x.magnitude, 0.1);
    EXPECT_EQ(x.sign(), 1);
    EXPECT_EQ(FilteredDouble(0.0).sign(), 0);
    EXPECT_EQ(FilteredDouble(-3.0).sign(), -1);
}

TEST(FilteredDouble, CancellationIsUncertain)
{
    // (1 + 1e-17) - 1 - 1e-17 is exactly 0, but the rounded sum makes it -1e-17: the sign must stay unknown.
    const FilteredDouble y(1e-17);
    const FilteredDouble x = ((FilteredDouble(1.0) + y) - FilteredDouble(1.0)) - y;
    EXPECT_NE(x.value, 0.0);
    EXPECT_EQ(x.sign(), 0);
    // A clear sign is certain.
    EXPECT_EQ(((FilteredDouble(0.1) + FilteredDouble(0.2)) - FilteredDouble(0.25)).sign(), 1);
}

TEST(FilteredDouble, OverflowAndNaNAreUncertain)
{
    const FilteredDouble big(1e300);
    EXPECT_EQ((big * big).sign(), 0);
    EXPECT_EQ((big * big - big * big).sign(), 0);
    EXPECT_EQ(FilteredDouble(std::numeric_limits<double>::quiet_NaN()).sign(), 0);
}

TEST(FilteredDouble, UnderflowIsCovered)
{
    const FilteredDouble tiny(1e-200);
    const FilteredDouble p = tiny * tiny; // underflows to 0
    EXPECT_EQ(p.value, 0.0);
    EXPECT_EQ(p.sign(), 0);
    expect_bound_holds(p, mpq_class(1e-200) * mpq_class(1e-200));
    const FilteredDouble q = (tiny * tiny) * FilteredDouble(1.5) - FilteredDouble(1e-310) * FilteredDouble(1e-10);
    expect_bound_holds(
        q, mpq_class(1e-200) * mpq_class(1e-200) * mpq_class(1.5) - mpq_class(1e-310) * mpq_class(1e-10));
}

TEST(FilteredDouble, BoundHoldsOnRandomDeterminants)
{
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> coord(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-60, 0); // inputs within the documented range |x| <= 2
    for (int trial = 0; trial < 20000; ++trial) {
        const double scale = std::ldexp(1.0, exponent(rng));
        double v[9];
        for (double& x : v) {
            x = coord(rng) * scale;
        }
        // A few trials with exactly dependent rows, where the true determinant is 0.
        if (trial % 4 == 0) {
            for (int k = 0; k < 3; ++k) {
                v[6 + k] = v[k] + v[3 + k];
            }
        }
        FilteredDouble f[9];
        mpq_class q[9];
        for (int i = 0; i < 9; ++i) {
            f[i] = v[i];
            q[i] = v[i];
        }
        const FilteredDouble det = f[0] * (f[4] * f[8] - f[5] * f[7]) - f[1] * (f[3] * f[8] - f[5] * f[6])
            + f[2] * (f[3] * f[7] - f[4] * f[6]);
        const mpq_class exact = q[0] * (q[4] * q[8] - q[5] * q[7]) - q[1] * (q[3] * q[8] - q[5] * q[6])
            + q[2] * (q[3] * q[7] - q[4] * q[6]);
        expect_bound_holds(det, exact);
        if (det.sign() != 0) {
            EXPECT_EQ(det.sign(), sgn(exact));
        }
    }
}

TEST(FilteredDouble, OperationsMatchTheScalarOnesBitForBit)
{
    // The operators work on value and magnitude as two lanes of one vector: each lane must be exactly the
    // scalar IEEE operation, signed zeros, subnormals and overflow included.
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> unit(-2.0, 2.0);
    std::vector<double> samples = { 0.0, -0.0, 1.0, -1.0, 0x1p-1074, -0x1p-1060, 0x1.fffffffffffffp1023, 3.0 };
    for (int i = 0; i < 40; ++i) {
        samples.push_back(std::ldexp(unit(rng), static_cast<int>(rng() % 64) - 32));
    }
    const auto same
        = [](double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); };
    for (const double a : samples) {
        for (const double b : samples) {
            FilteredDouble x(a), y(b);
            x.magnitude = std::abs(b) * 0.75; // magnitudes that are not just |value|
            SCOPED_TRACE(testing::Message() << a << " " << b);
            const FilteredDouble sum = x + y, difference = x - y, product = x * y;
            EXPECT_TRUE(same(sum.value, a + b) && same(sum.magnitude, x.magnitude + y.magnitude));
            EXPECT_TRUE(same(difference.value, a - b) && same(difference.magnitude, x.magnitude + y.magnitude));
            EXPECT_TRUE(same(product.value, a * b) && same(product.magnitude, x.magnitude * y.magnitude));
        }
    }
}
