// SPDX-License-Identifier: MIT
#include <ccdkit/core/exact_polynomial.hpp>
#include <ccdkit/core/filtered_double.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

namespace ccdkit::exact {

// ---------------------------------------------------------------------------------------------- Dyadic

namespace {
    /// Removes common factors of two, so numbers stay as short as they can.
    void normalize(Dyadic& d)
    {
        if (sgn(d.num) == 0) {
            d.shift = 0;
            return;
        }
        const unsigned long zeros = mpz_scan1(d.num.get_mpz_t(), 0);
        const unsigned long k = std::min(zeros, d.shift);
        if (k > 0) {
            mpz_fdiv_q_2exp(d.num.get_mpz_t(), d.num.get_mpz_t(), k);
            d.shift -= k;
        }
    }
} // namespace

std::pair<mpz_class, mpz_class> aligned_numerators(const Dyadic& a, const Dyadic& b, unsigned long& shift)
{
    shift = std::max(a.shift, b.shift);
    mpz_class x = a.num, y = b.num;
    mpz_mul_2exp(x.get_mpz_t(), x.get_mpz_t(), shift - a.shift);
    mpz_mul_2exp(y.get_mpz_t(), y.get_mpz_t(), shift - b.shift);
    return { x, y };
}

Dyadic::Dyadic(mpz_class n, unsigned long k)
    : num(std::move(n))
    , shift(k)
{
    normalize(*this);
}

Dyadic Dyadic::from_double(double x)
{
    assert(std::isfinite(x));
    int exponent = 0;
    const double mantissa = std::frexp(x, &exponent); // x = mantissa 2^exponent, 0.5 <= |mantissa| < 1
    const auto m = static_cast<long>(std::ldexp(mantissa, 53));
    Dyadic d;
    d.num = m;
    const int e = exponent - 53;
    if (e >= 0) {
        mpz_mul_2exp(d.num.get_mpz_t(), d.num.get_mpz_t(), static_cast<unsigned long>(e));
    } else {
        d.shift = static_cast<unsigned long>(-e);
    }
    normalize(d);
    return d;
}

mpq_class Dyadic::to_rational() const
{
    mpq_class q(num);
    mpq_div_2exp(q.get_mpq_t(), q.get_mpq_t(), shift);
    return q;
}

namespace {
    /// num / 2^shift rounded to a double towards zero, and whether that was exact. Falls back to rational
    /// arithmetic where the result would not be a normal double.
    std::pair<double, bool> truncated(const Dyadic& d)
    {
        if (sgn(d.num) == 0) {
            return { 0.0, true };
        }
        long exponent = 0;
        const double mantissa = mpz_get_d_2exp(&exponent, d.num.get_mpz_t()); // truncates, 0.5 <= |m| < 1
        const long e = exponent - static_cast<long>(d.shift);
        if (e > -1000 && e < 1000) {
            const auto bits = static_cast<long>(mpz_sizeinbase(d.num.get_mpz_t(), 2));
            const bool exact = bits <= 53 || static_cast<long>(mpz_scan1(d.num.get_mpz_t(), 0)) >= bits - 53;
            return { std::ldexp(mantissa, static_cast<int>(e)), exact };
        }
        const mpq_class q = d.to_rational();
        const double t = q.get_d(); // truncates toward zero
        return { t, mpq_class(t) == q };
    }
} // namespace

double Dyadic::round_down() const
{
    const auto [t, exact] = truncated(*this);
    return exact || t > 0 || (t == 0 && sgn(num) > 0) ? t : std::nextafter(t, -std::numeric_limits<double>::infinity());
}

double Dyadic::round_up() const
{
    const auto [t, exact] = truncated(*this);
    return exact || t < 0 || (t == 0 && sgn(num) < 0) ? t : std::nextafter(t, std::numeric_limits<double>::infinity());
}

int compare(const Dyadic& a, const Dyadic& b)
{
    const int sa = sgn(a.num), sb = sgn(b.num);
    if (sa != sb || sa == 0) {
        return sa < sb ? -1 : (sa > sb ? 1 : 0);
    }
    // Same sign: magnitudes 2^(bits - shift - 1) <= |x| < 2^(bits - shift) often decide without arithmetic.
    const auto magnitude = [](const Dyadic& d) {
        return static_cast<long>(mpz_sizeinbase(d.num.get_mpz_t(), 2)) - static_cast<long>(d.shift);
    };
    const long ma = magnitude(a), mb = magnitude(b);
    if (ma != mb) {
        return (ma < mb) == (sa > 0) ? -1 : 1;
    }
    thread_local mpz_class scaled; // the one with the smaller shift, brought to the other's
    const bool a_finer = a.shift >= b.shift;
    const Dyadic& coarse = a_finer ? b : a;
    mpz_mul_2exp(scaled.get_mpz_t(), coarse.num.get_mpz_t(), (a_finer ? a.shift : b.shift) - coarse.shift);
    const int c = a_finer ? cmp(a.num, scaled) : cmp(scaled, b.num);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

Dyadic midpoint(const Dyadic& a, const Dyadic& b)
{
    unsigned long shift = 0;
    const auto [x, y] = aligned_numerators(a, b, shift);
    return { x + y, shift + 1 };
}

Dyadic difference(const Dyadic& a, const Dyadic& b)
{
    unsigned long shift = 0;
    const auto [x, y] = aligned_numerators(a, b, shift);
    return { x - y, shift };
}

// ----------------------------------------------------------------------------------------- IntegerPoly

IntegerPoly::IntegerPoly(std::vector<mpz_class> coefficients)
    : c_(std::move(coefficients))
{
    while (!c_.empty() && sgn(c_.back()) == 0) {
        c_.pop_back();
    }
}

int IntegerPoly::sign_at(const Dyadic& t) const
{
    thread_local mpz_class value;
    scaled_value_into(value, t.num, t.shift);
    return sgn(value);
}

mpz_class IntegerPoly::scaled_value(const mpz_class& num, unsigned long shift) const
{
    mpz_class value;
    scaled_value_into(value, num, shift);
    return value;
}

void IntegerPoly::scaled_value_into(mpz_class& value, const mpz_class& num, unsigned long shift) const
{
    if (c_.empty()) {
        value = 0;
        return;
    }
    thread_local mpz_class term;
    value = c_.back();
    const std::size_t d = c_.size() - 1;
    for (std::size_t i = d; i-- > 0;) {
        value *= num;
        mpz_mul_2exp(term.get_mpz_t(), c_[i].get_mpz_t(), shift * (d - i));
        value += term;
    }
}

IntegerPoly IntegerPoly::derivative() const
{
    std::vector<mpz_class> d;
    for (std::size_t i = 1; i < c_.size(); ++i) {
        d.emplace_back(c_[i] * static_cast<unsigned long>(i));
    }
    return IntegerPoly(std::move(d));
}

IntegerPoly IntegerPoly::primitive_part() const
{
    if (c_.empty()) {
        return *this;
    }
    // From the shortest coefficient: each gcd then reduces the longer number by the shorter first, and a
    // content of 1 (the usual case) shows after few steps.
    const auto shortest = std::min_element(c_.begin(), c_.end(), [](const mpz_class& x, const mpz_class& y) {
        const auto size = [](const mpz_class& z) { return sgn(z) == 0 ? SIZE_MAX : mpz_size(z.get_mpz_t()); };
        return size(x) < size(y);
    });
    thread_local mpz_class content;
    mpz_abs(content.get_mpz_t(), shortest->get_mpz_t());
    for (const auto& x : c_) {
        if (content == 1) {
            return *this;
        }
        if (&x != &*shortest) {
            mpz_gcd(content.get_mpz_t(), content.get_mpz_t(), x.get_mpz_t());
        }
    }
    if (content == 1) {
        return *this;
    }
    std::vector<mpz_class> c = c_;
    for (auto& x : c) {
        mpz_divexact(x.get_mpz_t(), x.get_mpz_t(), content.get_mpz_t());
    }
    return IntegerPoly(std::move(c));
}

PseudoDivision pseudo_divide(const IntegerPoly& a, const IntegerPoly& b)
{
    assert(!b.is_zero());
    const int db = b.degree();
    std::vector<mpz_class> r = a.coefficients();
    const auto& bc = b.coefficients();
    const mpz_class& lead = b.leading();
    std::vector<mpz_class> q(static_cast<std::size_t>(std::max(a.degree() - db + 1, 0)));
    int multiplier_sign = 1;
    for (int k = a.degree(); k >= db; --k) {
        const auto top = static_cast<std::size_t>(k);
        if (sgn(r[top]) == 0) {
            continue;
        }
        // r <- lead r - r_k t^(k - db) b: the top coefficient cancels, and so does the quotient's scale.
        const mpz_class factor = r[top];
        for (std::size_t i = 0; i <= top; ++i) {
            r[i] *= lead;
        }
        for (auto& x : q) {
            x *= lead;
        }
        const auto offset = static_cast<std::size_t>(k - db);
        for (std::size_t j = 0; j < bc.size(); ++j) {
            r[offset + j] -= factor * bc[j];
        }
        q[offset] += factor;
        multiplier_sign *= sgn(lead);
    }
    r.resize(static_cast<std::size_t>(std::min(db, a.degree() + 1)));
    return { IntegerPoly(std::move(q)), IntegerPoly(std::move(r)), multiplier_sign };
}

IntegerPoly gcd(IntegerPoly a, IntegerPoly b)
{
    a = a.primitive_part();
    b = b.primitive_part();
    while (!b.is_zero()) {
        IntegerPoly r = pseudo_divide(a, b).remainder.primitive_part();
        a = std::move(b);
        b = std::move(r);
    }
    return a;
}

IntegerPoly square_free_part(const IntegerPoly& p)
{
    if (p.degree() <= 1) {
        return p.primitive_part();
    }
    const IntegerPoly g = gcd(p, p.derivative());
    if (g.degree() == 0) {
        return p.primitive_part();
    }
    return pseudo_divide(p, g).quotient.primitive_part();
}

// --------------------------------------------------------------------------------------- SturmSequence

SturmSequence::SturmSequence(const IntegerPoly& square_free)
{
    sequence_.push_back(square_free);
    if (square_free.degree() <= 0) {
        return;
    }
    sequence_.push_back(sequence_.front().derivative().primitive_part());
    while (sequence_.back().degree() > 0) {
        // Next = -(remainder of the previous two), up to a positive factor.
        const PseudoDivision d = pseudo_divide(sequence_[sequence_.size() - 2], sequence_.back());
        if (d.remainder.is_zero()) {
            break;
        }
        std::vector<mpz_class> next = d.remainder.coefficients();
        if (d.multiplier_sign > 0) {
            for (auto& x : next) {
                x = -x;
            }
        }
        sequence_.push_back(IntegerPoly(std::move(next)).primitive_part());
    }
}

int SturmSequence::sign_changes(const Dyadic& t) const
{
    int changes = 0;
    int previous = 0;
    for (const auto& p : sequence_) {
        const int s = p.sign_at(t);
        if (s == 0) {
            continue;
        }
        changes += previous != 0 && s != previous;
        previous = s;
    }
    return changes;
}

int SturmSequence::count_roots(const Dyadic& lower, const Dyadic& upper) const
{
    return sign_changes(lower) - sign_changes(upper);
}

// ------------------------------------------------------------------------------------- AlgebraicNumber

void AlgebraicNumber::bisect()
{
    if (is_dyadic()) {
        return;
    }
    Dyadic mid = midpoint(lower, upper);
    const int s_mid = q.sign_at(mid);
    if (s_mid == 0) {
        lower = mid;
        upper = std::move(mid);
    } else if (s_mid == q.sign_at(lower)) {
        lower = std::move(mid);
    } else {
        upper = std::move(mid);
    }
}

void AlgebraicNumber::shrink()
{
    if (is_dyadic()) {
        return;
    }
    // Scratch numbers reused across calls: refinement runs often and its numbers are short-lived.
    thread_local mpz_class a, b, qa, qb, num, den, j, width;
    // Both ends on the common denominator 2^k, then the pieces on 2^(k + bits).
    const unsigned long k = std::max(lower.shift, upper.shift);
    mpz_mul_2exp(a.get_mpz_t(), lower.num.get_mpz_t(), k - lower.shift);
    mpz_mul_2exp(b.get_mpz_t(), upper.num.get_mpz_t(), k - upper.shift);
    q.scaled_value_into(qa, a, k);
    q.scaled_value_into(qb, b, k);
    const int sign_a = sgn(qa);
    const unsigned long bits = refinement_bits;
    // The secant crosses zero at a + (b - a) qa / (qa - qb): the nearest piece boundary is
    // j = floor((2^(bits + 1) qa + (qa - qb)) / (2 (qa - qb))), kept within [1, 2^bits - 1].
    den = qa - qb;
    mpz_mul_2exp(num.get_mpz_t(), qa.get_mpz_t(), bits + 1);
    num += den;
    den *= 2;
    if (sgn(den) < 0) {
        num = -num;
        den = -den;
    }
    mpz_fdiv_q(j.get_mpz_t(), num.get_mpz_t(), den.get_mpz_t());
    if (sgn(j) <= 0) {
        j = 1;
    } else if (mpz_sizeinbase(j.get_mpz_t(), 2) > bits) { // j >= 2^bits
        j = 1;
        mpz_mul_2exp(j.get_mpz_t(), j.get_mpz_t(), bits);
        j -= 1;
    }
    width = b - a;
    const auto point = [&](const mpz_class& i) { // a + i (b - a) / 2^bits
        mpz_class n;
        mpz_mul_2exp(n.get_mpz_t(), a.get_mpz_t(), bits);
        mpz_addmul(n.get_mpz_t(), i.get_mpz_t(), width.get_mpz_t());
        return Dyadic(std::move(n), k + bits);
    };
    Dyadic xj = point(j);
    const int sign_j = q.sign_at(xj);
    if (sign_j == 0) {
        upper = xj;
        lower = std::move(xj);
        return;
    }
    // The root is right of xj if q keeps lower's sign there; check the neighbouring boundary on that side.
    const bool right = sign_j == sign_a;
    if (right) {
        j += 1;
    } else {
        j -= 1;
    }
    Dyadic xn = point(j);
    const int sign_n = q.sign_at(xn);
    if (sign_n == 0) {
        upper = xn;
        lower = std::move(xn);
        return;
    }
    const bool success = right ? sign_n != sign_a : sign_n == sign_a;
    if (right) {
        lower = std::move(success ? xj : xn);
        if (success) {
            upper = std::move(xn);
        }
    } else {
        upper = std::move(success ? xj : xn);
        if (success) {
            lower = std::move(xn);
        }
    }
    refinement_bits = success ? std::min(2 * bits, 1UL << 16) : std::max(2UL, bits / 2);
}

void AlgebraicNumber::refine(const Dyadic& width)
{
    while (compare(difference(upper, lower), width) > 0) {
        shrink();
    }
}

namespace {
    /// Appends the roots of q in (lower, upper] in increasing order; `changes_lower` and `changes_upper` are
    /// the Sturm sequence's sign changes at the ends (their difference counts those roots).
    void isolate(
        const IntegerPoly& q,
        const SturmSequence& sturm,
        const Dyadic& lower,
        const Dyadic& upper,
        int changes_lower,
        int changes_upper,
        std::vector<AlgebraicNumber>& roots)
    {
        const int count = changes_lower - changes_upper;
        if (count == 0) {
            return;
        }
        if (count == 1) {
            if (q.sign_at(upper) == 0) {
                roots.push_back({ q, upper, upper });
                return;
            }
            if (q.sign_at(lower) != 0) {
                roots.push_back({ q, lower, upper });
                return;
            }
            // lower is itself a root (found before): split until the open interval excludes it.
        }
        const Dyadic mid = midpoint(lower, upper);
        const int changes_mid = sturm.sign_changes(mid);
        isolate(q, sturm, lower, mid, changes_lower, changes_mid, roots);
        isolate(q, sturm, mid, upper, changes_mid, changes_upper, roots);
    }
} // namespace

std::vector<mpz_class> bernstein_coefficients(const IntegerPoly& p, const Dyadic& lower, const Dyadic& upper)
{
    // With lower = a / 2^k, upper = b / 2^k and t = (a + w s) / 2^k, w = b - a: 2^(k d) p(t) = sum_j P_j s^j.
    // P comes from the coefficients c_i 2^(k (d - i)) (the polynomial in x = 2^k t) by a Taylor shift to
    // x = a + y (synthetic division, in place) and the scaling y = w s; then s^j = s^j ((1 - s) + s)^(d - j)
    // gives the Bernstein form: b_m = sum_{j <= m} C(d - j, m - j) P_j.
    unsigned long k = 0;
    const auto [a, b] = aligned_numerators(lower, upper, k);
    const std::size_t d = p.coefficients().size() - 1;
    std::vector<mpz_class> c(d + 1);
    for (std::size_t i = 0; i <= d; ++i) {
        mpz_mul_2exp(c[i].get_mpz_t(), p.coefficients()[i].get_mpz_t(), k * (d - i));
    }
    if (sgn(a) != 0) {
        for (std::size_t i = 0; i < d; ++i) {
            for (std::size_t j = d; j-- > i;) {
                mpz_addmul(c[j].get_mpz_t(), a.get_mpz_t(), c[j + 1].get_mpz_t());
            }
        }
    }
    const mpz_class w = b - a;
    if (w != 1) {
        mpz_class power = w;
        for (std::size_t j = 1; j <= d; ++j) {
            c[j] *= power;
            power *= w;
        }
    }
    std::vector<mpz_class> bernstein(d + 1);
    // The recurrence's largest product used, C(d - 1, m - 1) d, fits in 64 bits up to degree 62 (C(62, 31) 63
    // does not); beyond that the binomials are GMP numbers.
    constexpr std::size_t MACHINE_BINOMIALS = 62;
    if (d > MACHINE_BINOMIALS) {
        mpz_class binomial;
        for (std::size_t m = 0; m <= d; ++m) {
            for (std::size_t j = 0; j <= m; ++j) {
                mpz_bin_uiui(binomial.get_mpz_t(), d - j, m - j);
                mpz_addmul(bernstein[m].get_mpz_t(), c[j].get_mpz_t(), binomial.get_mpz_t());
            }
        }
        return bernstein;
    }
    for (std::size_t m = 0; m <= d; ++m) {
        unsigned long binomial = 1; // C(d - j, m - j), from j = m down
        for (std::size_t j = m + 1; j-- > 0;) {
            mpz_addmul_ui(bernstein[m].get_mpz_t(), c[j].get_mpz_t(), binomial);
            if (j > 0) {
                binomial = binomial * (d - j + 1) / (m - j + 1); // C(d - j + 1, m - j + 1)
            }
        }
    }
    return bernstein;
}

std::vector<AlgebraicNumber> real_roots(const IntegerPoly& p, const Dyadic& lower, const Dyadic& upper)
{
    assert(!p.is_zero());
    std::vector<AlgebraicNumber> roots;
    if (p.degree() <= 0) {
        return roots;
    }
    // Descartes' rule on the Bernstein coefficients settles most cases without a Sturm sequence: no sign
    // change means no root inside, one sign change exactly one (simple) root. (Signs do not depend on the
    // content, so the primitive part waits for the Sturm sequence, whose remainders it keeps short.)
    IntegerPoly q = p;
    if (compare(lower, upper) < 0) {
        const std::vector<mpz_class> b = bernstein_coefficients(q, lower, upper);
        if (sgn(b.front()) != 0 && sgn(b.back()) != 0) {
            int changes = 0, previous = sgn(b.front());
            for (const auto& x : b) {
                if (sgn(x) != 0 && sgn(x) != previous) {
                    ++changes;
                    previous = sgn(x);
                }
            }
            if (changes == 0) {
                return roots;
            }
            if (changes == 1) {
                roots.push_back({ q, lower, upper });
                return roots;
            }
        }
    }
    // The Sturm sequence of p is the remainder sequence of p and p': it ends in gcd(p, p'), which is a
    // constant exactly when p is square-free (the common case, which so needs no separate gcd).
    q = q.primitive_part();
    std::optional<SturmSequence> sturm(std::in_place, q);
    if (sturm->last().degree() > 0) {
        q = pseudo_divide(q, sturm->last()).quotient.primitive_part();
        sturm.emplace(q);
    }
    if (q.sign_at(lower) == 0) {
        roots.push_back({ q, lower, lower });
    }
    if (compare(lower, upper) < 0) {
        isolate(q, *sturm, lower, upper, sturm->sign_changes(lower), sturm->sign_changes(upper), roots);
    }
    return roots;
}

namespace {
    /// Sign of g(alpha) decided in floating point: +1 or -1; 0 when a smaller interval may decide it; 2 when
    /// floating point cannot (g(alpha) is within rounding error of zero). With l <= alpha <= u doubles,
    /// |g(alpha) - g(l)| <= (u - l) max |g'| on [l, u], and g(l) has a certified error bound.
    int filtered_sign_at(const IntegerPoly& g, const AlgebraicNumber& alpha)
    {
        constexpr int HOPELESS = 2;
        const double l = alpha.lower.round_down(), u = alpha.upper.round_up();
        const double reach = std::max(std::abs(l), std::abs(u));
        if (!(reach <= 4.0)) {
            return HOPELESS;
        }
        // Coefficients scaled by a common power of two into [-1, 1]; each conversion truncates (relative
        // error < 2u, two levels of the filter's depth budget).
        std::size_t bits = 0;
        for (const auto& c : g.coefficients()) {
            bits = std::max(bits, mpz_sizeinbase(c.get_mpz_t(), 2));
        }
        FilteredDouble value = 0.0;
        double slope = 0.0; // sum of i |c_i| reach^(i-1), bounds |g'| on [l, u]
        for (std::size_t i = g.coefficients().size(); i-- > 0;) {
            const mpz_class& c = g.coefficients()[i];
            double scaled = 0.0;
            if (sgn(c) != 0) {
                long exponent = 0;
                const double mantissa = mpz_get_d_2exp(&exponent, c.get_mpz_t());
                const long e = exponent - static_cast<long>(bits);
                if (e < -900) {
                    return HOPELESS; // too small for the filter's absolute bound
                }
                scaled = std::ldexp(mantissa, static_cast<int>(e));
            }
            value = value * FilteredDouble(l) + FilteredDouble(scaled);
            if (i > 0) {
                slope = slope * reach + static_cast<double>(i) * std::abs(scaled);
            }
        }
        constexpr double SLACK = 1.0 + 1e-12; // rounding of the slope bound, and truncated coefficients
        const double variation = slope * SLACK * SLACK * ((u - l) * SLACK);
        const double rounding = value.error_bound() * 2;
        if (std::abs(value.value) - rounding > variation) {
            return value.value > 0 ? 1 : -1;
        }
        return variation > rounding ? 0 : HOPELESS;
    }

    /// Sign of r(alpha) when alpha's interval proves it: |r(l)| > (u - l) max |r'| on [l, u]; else 0.
    int certified_sign_at(const IntegerPoly& r, const AlgebraicNumber& alpha)
    {
        thread_local mpz_class a, b, value, reach, bound, power, term;
        const unsigned long k = std::max(alpha.lower.shift, alpha.upper.shift);
        mpz_mul_2exp(a.get_mpz_t(), alpha.lower.num.get_mpz_t(), k - alpha.lower.shift);
        mpz_mul_2exp(b.get_mpz_t(), alpha.upper.num.get_mpz_t(), k - alpha.upper.shift);
        // Scaled by 2^(k d): |r(l)| 2^(k d) against sum_i i |c_i| M^(i-1) (b - a) 2^(k (d - i)), M = max(|a|, |b|).
        r.scaled_value_into(value, a, k);
        if (mpz_cmpabs(a.get_mpz_t(), b.get_mpz_t()) >= 0) {
            mpz_abs(reach.get_mpz_t(), a.get_mpz_t());
        } else {
            mpz_abs(reach.get_mpz_t(), b.get_mpz_t());
        }
        const auto& c = r.coefficients();
        const std::size_t d = c.size() - 1;
        bound = 0;
        power = 1;
        for (std::size_t i = 1; i <= d; ++i) {
            mpz_mul(term.get_mpz_t(), c[i].get_mpz_t(), power.get_mpz_t());
            mpz_abs(term.get_mpz_t(), term.get_mpz_t());
            mpz_mul_ui(term.get_mpz_t(), term.get_mpz_t(), i);
            mpz_mul_2exp(term.get_mpz_t(), term.get_mpz_t(), k * (d - i));
            bound += term;
            power *= reach;
        }
        mpz_sub(term.get_mpz_t(), b.get_mpz_t(), a.get_mpz_t());
        bound *= term;
        return mpz_cmpabs(value.get_mpz_t(), bound.get_mpz_t()) > 0 ? sgn(value) : 0;
    }
} // namespace

int sign_at(const IntegerPoly& g, AlgebraicNumber& alpha)
{
    if (g.degree() <= 0) {
        return g.is_zero() ? 0 : sgn(g.leading());
    }
    if (alpha.is_dyadic()) {
        return g.sign_at(alpha.lower);
    }
    // Most signs are far from zero: floating point decides them once alpha's interval is small enough.
    constexpr int FILTER_STEPS = 12;
    for (int i = 0; i < FILTER_STEPS; ++i) {
        const int s = filtered_sign_at(g, alpha);
        if (s == 1 || s == -1) {
            return s;
        }
        if (s != 0) {
            break;
        }
        alpha.shrink();
        if (alpha.is_dyadic()) {
            return g.sign_at(alpha.lower);
        }
    }
    // Exact arithmetic: g's value at an end of the interval often proves its sign at alpha already.
    if (const int s = certified_sign_at(g, alpha)) {
        return s;
    }
    // At a root of q, lc(q)^k g equals the pseudo-remainder r.
    const PseudoDivision d = pseudo_divide(g, alpha.q);
    const IntegerPoly& r = d.remainder;
    if (r.is_zero()) {
        return 0;
    }
    if (r.degree() == 0) {
        return sgn(r.leading()) * d.multiplier_sign;
    }
    // alpha is a root of r iff it is a root of gcd(q, r), whose roots in (lower, upper) are simple.
    const IntegerPoly h = gcd(alpha.q, r);
    if (h.degree() >= 1 && h.sign_at(alpha.lower) != h.sign_at(alpha.upper)) {
        return 0;
    }
    // r(alpha) != 0: shrink the interval until the sign of r at its end provably carries over to alpha.
    for (;;) {
        if (const int s = certified_sign_at(r, alpha)) {
            return s * d.multiplier_sign;
        }
        alpha.shrink();
        if (alpha.is_dyadic()) {
            return g.sign_at(alpha.lower);
        }
    }
}

} // namespace ccdkit::exact
