// SPDX-License-Identifier: MIT
#include <ccdkit/core/exact_polynomial.hpp>

#include <gtest/gtest.h>

#include <cmath>

using namespace ccdkit::exact;

namespace {
IntegerPoly poly(std::initializer_list<long> c)
{
    std::vector<mpz_class> v;
    for (const long x : c) {
        v.emplace_back(x);
    }
    return IntegerPoly(std::move(v));
}

Dyadic dyadic(long num, unsigned long shift) { return { mpz_class(num), shift }; }
} // namespace

TEST(ExactDyadic, FromDoubleIsExact)
{
    for (const double x : { 0.0, 1.0, 0.75, -5.0 / 8, 1e-300, 3e300, 0x1.fffffffffffffp-1, 4.9e-324 }) {
        EXPECT_EQ(Dyadic::from_double(x).to_rational(), mpq_class(x)) << x;
        EXPECT_EQ(Dyadic::from_double(x).round_down(), x);
        EXPECT_EQ(Dyadic::from_double(x).round_up(), x);
    }
    const Dyadic third_ish { mpz_class(1) + (mpz_class(1) << 60), 62 }; // just above 1/4, not a double
    EXPECT_LT(third_ish.round_down(), third_ish.round_up());
    EXPECT_EQ(third_ish.round_down(), 0.25);
    EXPECT_EQ(compare(dyadic(1, 1), dyadic(2, 2)), 0);
    EXPECT_EQ(compare(midpoint(dyadic(0, 0), dyadic(1, 0)), dyadic(1, 1)), 0);
    EXPECT_EQ(compare(difference(dyadic(3, 2), dyadic(1, 1)), dyadic(1, 2)), 0);
}

TEST(ExactPolynomial, TrimsAndEvaluates)
{
    const IntegerPoly p = poly({ 1, -3, 2, 0, 0 }); // 2t^2 - 3t + 1
    EXPECT_EQ(p.degree(), 2);
    EXPECT_EQ(p.sign_at(dyadic(1, 1)), 0);
    EXPECT_EQ(p.sign_at(dyadic(3, 2)), -1);
    EXPECT_EQ(p.sign_at(dyadic(-1, 0)), 1);
    EXPECT_TRUE(poly({ 0, 0 }).is_zero());
    EXPECT_EQ(poly({ 6, 4, 2 }).primitive_part().coefficients(), poly({ 3, 2, 1 }).coefficients());
    EXPECT_EQ(poly({ -6, -4 }).primitive_part().coefficients(), poly({ -3, -2 }).coefficients());
}

TEST(ExactPolynomial, PseudoDivisionAndGcd)
{
    const IntegerPoly a = poly({ -1, 0, 0, 2 }); // 2t^3 - 1
    const IntegerPoly b = poly({ 1, -3 }); // 1 - 3t
    const PseudoDivision d = pseudo_divide(a, b);
    // lc(b)^k a = q b + r, checked at a few points through the sign of both sides' difference.
    EXPECT_EQ(d.remainder.degree(), 0);
    EXPECT_EQ(d.multiplier_sign, -1); // (-3)^3
    const IntegerPoly g = gcd(poly({ 2, -3, 1 }), poly({ -2, 1, 1 })); // (t-1)(t-2), (t-1)(t+2)
    EXPECT_EQ(g.degree(), 1);
    EXPECT_EQ(g.sign_at(dyadic(1, 0)), 0);
    EXPECT_EQ(gcd(poly({ 1, 1 }), poly({ -1, 1 })).degree(), 0);
}

TEST(ExactPolynomial, SquareFreePartRemovesMultipleRoots)
{
    // 36 (t - 1/2)^2 (t - 1/3) = (2t - 1)^2 (3t - 1) * 3 ... as integers: (4t^2 - 4t + 1)(3t - 1)
    const IntegerPoly p = poly({ -1, 7, -16, 12 });
    EXPECT_EQ(square_free_part(p).degree(), 2);
    const auto roots = real_roots(p, dyadic(0, 0), dyadic(1, 0));
    ASSERT_EQ(roots.size(), 2U);
    EXPECT_FALSE(roots[0].is_dyadic()); // 1/3
    EXPECT_TRUE(roots[1].is_dyadic()); // 1/2, hit exactly by bisection
    EXPECT_EQ(compare(roots[1].lower, dyadic(1, 1)), 0);
}

TEST(ExactPolynomial, RootsAtTheEndsAndInside)
{
    const IntegerPoly p = poly({ 0, -1, -1, 2 }); // t (t - 1) (2t + 1)
    const auto roots = real_roots(p, dyadic(0, 0), dyadic(1, 0));
    ASSERT_EQ(roots.size(), 2U);
    EXPECT_TRUE(roots[0].is_dyadic());
    EXPECT_EQ(sgn(roots[0].lower.num), 0);
    EXPECT_TRUE(roots[1].is_dyadic());
    EXPECT_EQ(compare(roots[1].lower, dyadic(1, 0)), 0);
    EXPECT_TRUE(real_roots(poly({ 1, 0, 1 }), dyadic(-10, 0), dyadic(10, 0)).empty()); // t^2 + 1
}

TEST(ExactPolynomial, SignAtIrrationalRoot)
{
    // alpha = 1/sqrt(2), the root of 2t^2 - 1 in [0, 1].
    auto roots = real_roots(poly({ -1, 0, 2 }), dyadic(0, 0), dyadic(1, 0));
    ASSERT_EQ(roots.size(), 1U);
    AlgebraicNumber alpha = roots[0];
    EXPECT_FALSE(alpha.is_dyadic());
    EXPECT_EQ(sign_at(poly({ -1, 0, 2 }), alpha), 0);
    EXPECT_EQ(sign_at(poly({ -7071, 10000 }), alpha), 1); // alpha > 0.7071
    EXPECT_EQ(sign_at(poly({ -7072, 10000 }), alpha), -1); // alpha < 0.7072
    EXPECT_EQ(sign_at(poly({ 0, -2, 0, 4 }), alpha), 0); // 4t^3 - 2t = 2t (2t^2 - 1)
    EXPECT_EQ(sign_at(poly({ 1, 0, -4, 0, 4 }), alpha), 0); // (2t^2 - 1)^2
    EXPECT_EQ(sign_at(poly({ 0, 0, -3 }), alpha), -1);
    EXPECT_EQ(sign_at(poly({ 5 }), alpha), 1);
    alpha.refine(dyadic(1, 40));
    EXPECT_LE(compare(difference(alpha.upper, alpha.lower), dyadic(1, 40)), 0);
    const mpq_class lo = alpha.lower.to_rational(), hi = alpha.upper.to_rational();
    EXPECT_LT(lo * lo * 2, 1);
    EXPECT_GT(hi * hi * 2, 1);
}

TEST(ExactPolynomial, CloseRootsAreSeparated)
{
    // (t - a)(t - b) with a = 1/3 and b = a + 2^-60, scaled to integers: (3t - 1)(3 2^60 t - 2^60 - 3).
    const mpz_class two60 = mpz_class(1) << 60;
    const IntegerPoly p(std::vector<mpz_class> { two60 + 3, -(3 * two60 + 3 * (two60 + 3)), 9 * two60 });
    const auto roots = real_roots(p, dyadic(0, 0), dyadic(1, 0));
    ASSERT_EQ(roots.size(), 2U);
    EXPECT_LE(compare(roots[0].upper, roots[1].lower), 0);
}
