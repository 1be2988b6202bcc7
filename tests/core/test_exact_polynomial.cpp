// SPDX-License-Identifier: MIT
#include <ccdkit/core/exact_polynomial.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <vector>

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

// ------------------------------------------------------------------ randomized checks against mpq_class

namespace {
/// Random dyadics: zero, small and long numerators of both signs, shifts from 0 to beyond the double range,
/// and non-normalized representations (trailing zero bits in num with a positive shift).
class DyadicSource {
public:
    explicit DyadicSource(unsigned long seed)
    {
        gmp_randinit_mt(state_);
        gmp_randseed_ui(state_, seed);
    }
    DyadicSource(const DyadicSource&) = delete;
    DyadicSource& operator=(const DyadicSource&) = delete;
    ~DyadicSource() { gmp_randclear(state_); }

    unsigned long below(unsigned long n) { return gmp_urandomm_ui(state_, n); }

    mpz_class integer(unsigned long max_bits)
    {
        mpz_class n;
        const unsigned long bits = below(max_bits + 1);
        if (below(2) == 0) {
            mpz_urandomb(n.get_mpz_t(), state_, bits);
        } else {
            mpz_rrandomb(n.get_mpz_t(), state_, bits); // long runs of ones and zeros
        }
        return below(2) == 0 ? mpz_class(-n) : n;
    }

    Dyadic next()
    {
        Dyadic d;
        switch (below(4)) {
        case 0:
            d.num = integer(8);
            break;
        case 1:
            d.num = integer(53);
            break;
        case 2:
            d.num = integer(54);
            break;
        default:
            d.num = integer(300);
            break;
        }
        const unsigned long zeros = below(4) == 0 ? below(80) : 0;
        mpz_mul_2exp(d.num.get_mpz_t(), d.num.get_mpz_t(), zeros);
        static constexpr unsigned long SHIFTS[] = { 0, 1, 52, 53, 64, 999, 1000, 1022, 1074, 1100, 1400, 2200 };
        d.shift = below(3) == 0 ? SHIFTS[below(std::size(SHIFTS))] + below(60) : below(200);
        return d;
    }

private:
    gmp_randstate_t state_;
};

int sign_of(const mpq_class& x) { return sgn(x); }
} // namespace

TEST(ExactDyadic, CompareMatchesRationals)
{
    DyadicSource source(1);
    for (int i = 0; i < 200000; ++i) {
        const Dyadic a = source.next();
        Dyadic b = source.next();
        switch (source.below(4)) {
        case 0: // the same value in another representation
            b.num = a.num;
            b.shift = a.shift;
            if (b.shift < 4000) {
                const unsigned long extra = source.below(100);
                mpz_mul_2exp(b.num.get_mpz_t(), b.num.get_mpz_t(), extra);
                b.shift += extra;
            }
            break;
        case 1: // one unit of the finer grid apart
            b.num = a.num;
            b.shift = a.shift;
            b.num += source.below(2) == 0 ? 1 : -1;
            break;
        default:
            break;
        }
        const int expected = sign_of(a.to_rational() - b.to_rational());
        ASSERT_EQ(compare(a, b), expected) << a.num << "/2^" << a.shift << " vs " << b.num << "/2^" << b.shift;
        ASSERT_EQ(compare(b, a), -expected);
    }
}

TEST(ExactDyadic, DirectedRoundingMatchesRationals)
{
    DyadicSource source(2);
    const auto check = [](const Dyadic& d) {
        const mpq_class q = d.to_rational();
        if (abs(q) >= mpq_class(std::numeric_limits<double>::max())) {
            return; // out of the double range
        }
        const double down = d.round_down(), up = d.round_up();
        // down is the largest double <= q, up the smallest double >= q.
        ASSERT_LE(mpq_class(down), q) << d.num << "/2^" << d.shift;
        ASSERT_GE(mpq_class(up), q) << d.num << "/2^" << d.shift;
        if (mpq_class(down) != q) {
            ASSERT_GT(mpq_class(std::nextafter(down, INFINITY)), q) << d.num << "/2^" << d.shift;
            ASSERT_EQ(std::nextafter(down, INFINITY), up) << d.num << "/2^" << d.shift;
        } else {
            ASSERT_EQ(down, up) << d.num << "/2^" << d.shift;
        }
    };
    for (int i = 0; i < 200000; ++i) {
        check(source.next());
    }
    // Every double and its neighbours at the edges of the fast path's exponent range and of the subnormals.
    for (int e = -1200; e <= 1100; ++e) {
        for (const long m : { 1L, -1L, 3L, (1L << 53) - 1, -((1L << 53) - 1), (1L << 53) + 1, -((1L << 53) + 1),
                              (1L << 54) - 1, (1L << 60) + 1 }) {
            Dyadic d;
            d.num = m;
            if (e < 0) {
                d.shift = static_cast<unsigned long>(-e);
            } else {
                mpz_mul_2exp(d.num.get_mpz_t(), d.num.get_mpz_t(), static_cast<unsigned long>(e));
            }
            check(d);
        }
    }
}

TEST(ExactPolynomial, EvaluationMatchesRationals)
{
    DyadicSource source(3);
    for (int i = 0; i < 20000; ++i) {
        std::vector<mpz_class> c(source.below(8));
        for (auto& x : c) {
            x = source.below(3) == 0 ? mpz_class(0) : source.integer(source.below(2) == 0 ? 10 : 200);
        }
        const IntegerPoly p(c);
        Dyadic t = source.next();
        t.shift %= 300;
        mpq_class value = 0;
        for (std::size_t j = p.coefficients().size(); j-- > 0;) {
            value = value * t.to_rational() + p.coefficients()[j];
        }
        ASSERT_EQ(p.sign_at(t), sign_of(value));
        mpq_class scaled(p.scaled_value(t.num, t.shift));
        if (!p.is_zero()) {
            mpq_div_2exp(scaled.get_mpq_t(), scaled.get_mpq_t(), t.shift * static_cast<unsigned long>(p.degree()));
        }
        ASSERT_EQ(scaled, value);
        // The content divides out and nothing else does.
        const IntegerPoly primitive = p.primitive_part();
        mpz_class content = 0;
        for (const auto& x : p.coefficients()) {
            mpz_gcd(content.get_mpz_t(), content.get_mpz_t(), x.get_mpz_t());
        }
        ASSERT_EQ(primitive.coefficients().size(), p.coefficients().size());
        for (std::size_t j = 0; j < p.coefficients().size(); ++j) {
            ASSERT_EQ(primitive.coefficients()[j] * content, p.coefficients()[j]);
        }
    }
}

namespace {
/// The Bernstein coefficients checked through their defining identity at d + 2 points s in [0, 1]:
/// 2^(k d) p(lower + s (upper - lower)) = sum_m b_m s^m (1 - s)^(d - m), with k the larger shift.
void expect_bernstein_identity(const IntegerPoly& p, const Dyadic& lower, const Dyadic& upper)
{
    const std::vector<mpz_class> b = bernstein_coefficients(p, lower, upper);
    const auto d = static_cast<std::size_t>(p.degree());
    ASSERT_EQ(b.size(), d + 1);
    mpq_class scale(1);
    mpq_mul_2exp(scale.get_mpq_t(), scale.get_mpq_t(), std::max(lower.shift, upper.shift) * d);
    const mpq_class l = lower.to_rational(), u = upper.to_rational();
    for (std::size_t i = 0; i <= d + 1; ++i) {
        mpq_class s(static_cast<long>(i), static_cast<long>(d + 1));
        s.canonicalize();
        const mpq_class t = l + s * (u - l);
        mpq_class value = 0;
        for (std::size_t j = d + 1; j-- > 0;) {
            value = value * t + p.coefficients()[j];
        }
        mpq_class sum = 0;
        for (std::size_t m = 0; m <= d; ++m) {
            mpq_class basis = b[m];
            for (std::size_t j = 0; j < m; ++j) {
                basis *= s;
            }
            for (std::size_t j = m; j < d; ++j) {
                basis *= 1 - s;
            }
            sum += basis;
        }
        ASSERT_EQ(sum, value * scale) << "degree " << d << " at s = " << s;
    }
}
} // namespace

TEST(ExactPolynomial, BernsteinCoefficientsMatchRationals)
{
    DyadicSource source(4);
    for (int i = 0; i < 3000; ++i) {
        std::vector<mpz_class> c;
        for (unsigned long j = source.below(9) + 1; j > 0; --j) {
            c.push_back(source.below(4) == 0 ? mpz_class(0) : source.integer(source.below(2) == 0 ? 6 : 120));
        }
        c.emplace_back(source.below(2) == 0 ? 1 : -3); // the leading coefficient
        Dyadic lower = source.next(), upper = source.next();
        lower.shift %= 100;
        upper.shift %= 100;
        if (source.below(4) == 0) { // an interval of width 1 (no scaling step)
            upper = lower;
            upper.num += mpz_class(1) << upper.shift;
        }
        const int order = compare(lower, upper);
        if (order == 0) {
            continue;
        }
        expect_bernstein_identity(IntegerPoly(c), order < 0 ? lower : upper, order < 0 ? upper : lower);
    }
}

TEST(ExactPolynomial, BernsteinCoefficientsOfHighDegree)
{
    // Binomials C(d, m) times d beyond 64 bits from d = 63 on: alternating coefficients, d up to 80.
    for (const std::size_t d : { 20UL, 40UL, 60UL, 61UL, 62UL, 63UL, 64UL, 65UL, 70UL, 80UL }) {
        std::vector<mpz_class> c(d + 1);
        for (std::size_t i = 0; i <= d; ++i) {
            c[i] = (i % 2 == 0 ? 1 : -1) * static_cast<long>(i + 1);
        }
        expect_bernstein_identity(IntegerPoly(c), dyadic(-1, 1), dyadic(3, 2));
        expect_bernstein_identity(IntegerPoly(c), dyadic(0, 0), dyadic(1, 0));
    }
}

namespace {
IntegerPoly product(const IntegerPoly& a, const IntegerPoly& b)
{
    if (a.is_zero() || b.is_zero()) {
        return {};
    }
    std::vector<mpz_class> c(a.coefficients().size() + b.coefficients().size() - 1);
    for (std::size_t i = 0; i < a.coefficients().size(); ++i) {
        for (std::size_t j = 0; j < b.coefficients().size(); ++j) {
            c[i + j] += a.coefficients()[i] * b.coefficients()[j];
        }
    }
    return IntegerPoly(std::move(c));
}

IntegerPoly sum(const IntegerPoly& a, const IntegerPoly& b)
{
    std::vector<mpz_class> c(std::max(a.coefficients().size(), b.coefficients().size()));
    for (std::size_t i = 0; i < a.coefficients().size(); ++i) {
        c[i] += a.coefficients()[i];
    }
    for (std::size_t i = 0; i < b.coefficients().size(); ++i) {
        c[i] += b.coefficients()[i];
    }
    return IntegerPoly(std::move(c));
}

/// num t - 2^shift num' ...: the linear polynomial 2^d.shift t - d.num, zero at the dyadic d.
IntegerPoly vanishing_at(const Dyadic& d)
{
    mpz_class scale = 1;
    mpz_mul_2exp(scale.get_mpz_t(), scale.get_mpz_t(), d.shift);
    return IntegerPoly(std::vector<mpz_class> { -d.num, scale });
}

/// An isolating interval's invariants: lower <= upper, and a sign change of q across it (or a dyadic root).
::testing::AssertionResult isolates(const AlgebraicNumber& alpha)
{
    const int order = compare(alpha.lower, alpha.upper);
    if (order > 0) {
        return ::testing::AssertionFailure() << "lower > upper";
    }
    if (order == 0) {
        return alpha.q.sign_at(alpha.lower) == 0 ? ::testing::AssertionSuccess()
                                                 : ::testing::AssertionFailure() << "dyadic non-root";
    }
    const int l = alpha.q.sign_at(alpha.lower), u = alpha.q.sign_at(alpha.upper);
    if (l == 0 || u == 0 || l == u) {
        return ::testing::AssertionFailure() << "no sign change: " << l << " " << u;
    }
    return ::testing::AssertionSuccess();
}
} // namespace

TEST(ExactPolynomial, RefinementAndSignsAtConstructedRoots)
{
    // alpha = +-sqrt(n) / s, a root of s^2 t^2 - n (n not a square), among the roots of (s^2 t^2 - n) times
    // rational and other quadratic factors. Signs at alpha of: multiples of that quadratic (0), linear
    // polynomials vanishing at rationals just below and above alpha (+1 and -1, however close), and those
    // plus a multiple of the quadratic (the pseudo-remainder path).
    DyadicSource source(5);
    int checked = 0;
    for (int i = 0; i < 400; ++i) {
        long n = static_cast<long>(source.below(1000)) + 2;
        while (static_cast<long>(std::sqrt(static_cast<double>(n)))
                   * static_cast<long>(std::sqrt(static_cast<double>(n)))
               == n) {
            ++n;
        }
        const long s = static_cast<long>(source.below(40)) + 1;
        const IntegerPoly quadratic = poly({ -n, 0, s * s });
        IntegerPoly p = quadratic;
        for (int f = static_cast<int>(source.below(3)); f > 0; --f) {
            p = product(p, poly({ -static_cast<long>(source.below(200)), static_cast<long>(source.below(60)) + 1 }));
        }
        if (source.below(2) == 0) { // a second quadratic with nearby roots
            p = product(p, poly({ -(n * 10000 + 1), 0, s * s * 10000 }));
        }
        if (source.below(3) == 0) { // a repeated factor
            p = product(p, quadratic);
        }
        const mpq_class root_squared(mpq_class(n) / (s * s));
        for (AlgebraicNumber& root : real_roots(p, dyadic(-64, 0), dyadic(64, 0))) {
            ASSERT_TRUE(isolates(root));
            // Is this root +-sqrt(n) / s? Its interval holds exactly one root of q; check against the quadratic.
            const mpq_class lo = root.lower.to_rational(), hi = root.upper.to_rational();
            if (sgn(lo) <= 0 && sgn(hi) >= 0) {
                root.refine(dyadic(1, 20));
            }
            const mpq_class l2 = root.lower.to_rational(), h2 = root.upper.to_rational();
            const bool plus = sgn(l2) > 0 && l2 * l2 < root_squared && h2 * h2 > root_squared;
            const bool minus = sgn(h2) < 0 && h2 * h2 < root_squared && l2 * l2 > root_squared;
            if (root.is_dyadic() || !(plus || minus)) {
                continue; // not a root of the quadratic
            }
            AlgebraicNumber alpha = root;
            // Random refinement steps, from a random subdivision count: the interval only shrinks, and isolates.
            alpha.refinement_bits = source.below(2) == 0 ? 2 : source.below(200) + 2;
            for (int step = static_cast<int>(source.below(12)); step > 0; --step) {
                const Dyadic before_lower = alpha.lower, before_upper = alpha.upper;
                alpha.shrink();
                ASSERT_TRUE(isolates(alpha));
                ASSERT_GE(compare(alpha.lower, before_lower), 0);
                ASSERT_LE(compare(alpha.upper, before_upper), 0);
            }
            AlgebraicNumber fine = alpha;
            fine.refine(dyadic(1, source.below(300) + 10));
            ASSERT_TRUE(isolates(fine));
            ASSERT_FALSE(fine.is_dyadic());
            const IntegerPoly below = vanishing_at(fine.lower), above = vanishing_at(fine.upper);
            const IntegerPoly cofactor = poly({ static_cast<long>(source.below(9)) - 4, 1, -3 });
            const auto sign_at_copy = [&](const IntegerPoly& g) {
                AlgebraicNumber a = alpha;
                return sign_at(g, a);
            };
            EXPECT_EQ(sign_at_copy(quadratic), 0);
            EXPECT_EQ(sign_at_copy(product(quadratic, cofactor)), 0);
            EXPECT_EQ(sign_at_copy(product(quadratic, quadratic)), 0);
            EXPECT_EQ(sign_at_copy(p), 0);
            EXPECT_EQ(sign_at_copy(below), 1);
            EXPECT_EQ(sign_at_copy(above), -1);
            EXPECT_EQ(sign_at_copy(product(below, below)), 1);
            EXPECT_EQ(sign_at_copy(product(below, above)), -1);
            EXPECT_EQ(sign_at_copy(sum(below, product(quadratic, cofactor))), 1);
            EXPECT_EQ(sign_at_copy(sum(above, product(quadratic, cofactor))), -1);
            EXPECT_EQ(sign_at_copy(poly({ -7 })), -1);
            EXPECT_EQ(sign_at_copy(IntegerPoly()), 0);
            ++checked;
        }
    }
    EXPECT_GT(checked, 200);
}

TEST(ExactPolynomial, RefinementWithTheRootAtAnEndsEdge)
{
    // The secant's guess falls outside the pieces (clamped to the first or the last) when the root lies
    // within 2^-100 of an end of the interval; curved polynomials make the guess miss.
    const mpz_class big = mpz_class(1) << 100;
    const std::vector<IntegerPoly> polys {
        IntegerPoly(std::vector<mpz_class> { -1, big }), // root 2^-100
        IntegerPoly(std::vector<mpz_class> { 1 - big, big }), // root 1 - 2^-100
        IntegerPoly(std::vector<mpz_class> { -1, 0, big }), // root 2^-50
        IntegerPoly(std::vector<mpz_class> { -1, 0, 0, 0, 0, big }), // root 2^-20
        IntegerPoly(std::vector<mpz_class> { 1 - big * big, 0, big * big }), // root just below 1
    };
    for (const IntegerPoly& q : polys) {
        for (const unsigned long bits : { 2UL, 3UL, 16UL, 64UL }) {
            AlgebraicNumber alpha { q, dyadic(0, 0), dyadic(1, 0) };
            alpha.refinement_bits = bits;
            ASSERT_TRUE(isolates(alpha));
            for (int step = 0; step < 8 && !alpha.is_dyadic(); ++step) {
                alpha.shrink();
                ASSERT_TRUE(isolates(alpha)) << "degree " << q.degree() << ", bits " << bits << ", step " << step;
            }
            alpha.refine(dyadic(1, 200));
            ASSERT_TRUE(isolates(alpha));
        }
    }
}
