// SPDX-License-Identifier: MIT
#include <ccdkit/core/exact_polynomial.hpp>

#include <gtest/gtest.h>

using namespace ccdkit::exact;

namespace {
RationalPoly poly(std::initializer_list<mpq_class> c) { return RationalPoly(std::vector<mpq_class>(c)); }
} // namespace

TEST(ExactPolynomial, TrimsAndEvaluates)
{
    const RationalPoly p = poly({ 1, -3, 2, 0, 0 }); // 2t^2 - 3t + 1
    EXPECT_EQ(p.degree(), 2);
    EXPECT_EQ(p(mpq_class(1, 2)), 0);
    EXPECT_EQ(p.sign_at(mpq_class(3, 4)), -1);
    EXPECT_TRUE(poly({ 0, 0 }).is_zero());
}

TEST(ExactPolynomial, DivisionAndGcd)
{
    const RationalPoly a = poly({ -1, 0, 0, 1 }); // t^3 - 1 = (t - 1)(t^2 + t + 1)
    const RationalPoly b = poly({ -1, 1 });
    const auto [q, r] = divide(a, b);
    EXPECT_TRUE(r.is_zero());
    EXPECT_EQ(q.coefficients(), (std::vector<mpq_class> { 1, 1, 1 }));
    const RationalPoly g = gcd(poly({ 2, -3, 1 }), poly({ -2, 1, 1 })); // (t-1)(t-2), (t-1)(t+2)
    EXPECT_EQ(g.coefficients(), (std::vector<mpq_class> { -1, 1 }));
}

TEST(ExactPolynomial, SquareFreePartRemovesMultipleRoots)
{
    // (t - 1/2)^2 (t - 1/3)
    const RationalPoly p = poly({ mpq_class(-1, 12), mpq_class(7, 12), mpq_class(-4, 3), 1 });
    EXPECT_EQ(square_free_part(p).degree(), 2);
    const auto roots = real_roots(p, 0, 1);
    ASSERT_EQ(roots.size(), 2U);
    EXPECT_TRUE(roots[1].is_rational() || (roots[1].lower < mpq_class(1, 2) && mpq_class(1, 2) < roots[1].upper));
}

TEST(ExactPolynomial, RootsAtTheEndsAndInside)
{
    const RationalPoly p = poly({ 0, mpq_class(-1, 2), mpq_class(-1, 2), 1 }); // t (t - 1) (t + 1/2)
    const auto roots = real_roots(p, 0, 1);
    ASSERT_EQ(roots.size(), 2U);
    EXPECT_TRUE(roots[0].is_rational());
    EXPECT_EQ(roots[0].lower, 0);
    EXPECT_TRUE(roots[1].is_rational());
    EXPECT_EQ(roots[1].lower, 1);
    EXPECT_TRUE(real_roots(poly({ 1, 0, 1 }), -10, 10).empty()); // t^2 + 1
}

TEST(ExactPolynomial, SignAtIrrationalRoot)
{
    // alpha = 1/sqrt(2), the root of 2t^2 - 1 in [0, 1].
    auto roots = real_roots(poly({ -1, 0, 2 }), 0, 1);
    ASSERT_EQ(roots.size(), 1U);
    AlgebraicNumber alpha = roots[0];
    EXPECT_FALSE(alpha.is_rational());
    EXPECT_EQ(sign_at(poly({ -1, 0, 2 }), alpha), 0);
    EXPECT_EQ(sign_at(poly({ -mpq_class(7071, 10000), 1 }), alpha), 1);   // alpha > 0.7071
    EXPECT_EQ(sign_at(poly({ -mpq_class(7072, 10000), 1 }), alpha), -1);  // alpha < 0.7072
    EXPECT_EQ(sign_at(poly({ 0, -2, 0, 4 }), alpha), 0);                  // 4t^3 - 2t = 2t (2t^2 - 1)
    EXPECT_EQ(sign_at(poly({ 1, 0, -4, 0, 4 }), alpha), 0);               // (2t^2 - 1)^2
    EXPECT_EQ(sign_at(poly({ 5 }), alpha), 1);
    alpha.refine(mpq_class(1, 1000000));
    EXPECT_LE(alpha.upper - alpha.lower, mpq_class(1, 1000000));
    EXPECT_LT(alpha.lower * alpha.lower * 2, 1);
    EXPECT_GT(alpha.upper * alpha.upper * 2, 1);
}

TEST(ExactPolynomial, CloseRootsAreSeparated)
{
    // (t - a)(t - b) with a and b 2^-60 apart.
    const mpq_class a(1, 3), b = a + mpq_class(1, mpz_class(1) << 60);
    const auto roots = real_roots(poly({ a * b, -(a + b), 1 }), 0, 1);
    ASSERT_EQ(roots.size(), 2U);
    EXPECT_LE(roots[0].upper, roots[1].lower);
}
