// SPDX-License-Identifier: MIT
#include <ccdkit/core/filtered_double_double.hpp>

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

using ccdkit::FilteredDoubleDouble;
using DD = FilteredDoubleDouble;

namespace {
mpq_class exact_value(const DD& x) { return mpq_class(x.hi) + mpq_class(x.lo); }

void expect_bound_holds(const DD& x, const mpq_class& exact)
{
    ASSERT_TRUE(std::isfinite(x.hi) && std::isfinite(x.error_bound()));
    EXPECT_LE(abs(exact - exact_value(x)), mpq_class(x.error_bound()));
    if (x.sign() != 0) {
        EXPECT_EQ(x.sign(), sgn(exact));
    }
}
} // namespace

TEST(FilteredDoubleDouble, ErrorFreeTransformations)
{
    double s = 0, e = 0;
    ccdkit::dd::two_sum(1.0, 1e-30, s, e);
    EXPECT_EQ(mpq_class(s) + mpq_class(e), mpq_class(1.0) + mpq_class(1e-30));
    ccdkit::dd::two_product(0.1, 0.3, s, e);
    EXPECT_EQ(mpq_class(s) + mpq_class(e), mpq_class(0.1) * mpq_class(0.3));
}

TEST(FilteredDoubleDouble, DecidesWhatDoubleCannot)
{
    // (1 + 2^-60) - 1 = 2^-60: lost in double, kept in double-double.
    const DD x = (DD(1.0) + DD(0x1p-60)) - DD(1.0);
    EXPECT_EQ(x.sign(), 1);
    expect_bound_holds(x, mpq_class(0x1p-60));
    // And an exact zero stays undecided.
    const DD z = (DD(1.0) + DD(0x1p-60)) - DD(1.0) - DD(0x1p-60);
    EXPECT_EQ(z.sign(), 0);
}

TEST(FilteredDoubleDouble, BoundHoldsOnNearlySingularDeterminants)
{
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> coord(-1.0, 1.0);
    for (int trial = 0; trial < 20000; ++trial) {
        double v[9];
        for (double& x : v) {
            x = coord(rng);
        }
        // Third row = first + second, perturbed by a tiny amount (or not at all).
        const double eps = trial % 3 == 0 ? 0.0 : std::ldexp(coord(rng), -40 - trial % 60);
        for (int k = 0; k < 3; ++k) {
            v[6 + k] = v[k] + v[3 + k] + (k == 0 ? eps : 0.0);
        }
        DD f[9];
        mpq_class q[9];
        for (int i = 0; i < 9; ++i) {
            f[i] = v[i];
            q[i] = v[i];
        }
        const DD det = f[0] * (f[4] * f[8] - f[5] * f[7]) - f[1] * (f[3] * f[8] - f[5] * f[6])
            + f[2] * (f[3] * f[7] - f[4] * f[6]);
        const mpq_class exact = q[0] * (q[4] * q[8] - q[5] * q[7]) - q[1] * (q[3] * q[8] - q[5] * q[6])
            + q[2] * (q[3] * q[7] - q[4] * q[6]);
        expect_bound_holds(det, exact);
    }
}
