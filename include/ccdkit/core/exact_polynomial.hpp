// SPDX-License-Identifier: MIT
#pragma once

// Exact real-root arithmetic for the small univariate polynomials of CCD: integer coefficients (the inputs,
// doubles, are scaled to integers by a common power of two), evaluation points that are dyadic rationals
// (n / 2^k: the ends of [0, t_max] and every bisection point), and divisions replaced by pseudo-divisions
// with positive or tracked-sign multipliers, so that no rational arithmetic (and no gcd of every
// intermediate number) is ever needed.

#include <ccdkit/core/polynomial.hpp>

#include <gmpxx.h>

#include <utility>
#include <vector>

namespace ccdkit {
/// GMP integers: products added in place (mpz_addmul) need no temporary, which would be an allocation each.
template <> struct ProductAccumulation<mpz_class> {
    static constexpr bool IN_PLACE = true;
    static void add(mpz_class& r, const mpz_class& a, const mpz_class& b)
    {
        mpz_addmul(r.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t());
    }
    static void subtract(mpz_class& r, const mpz_class& a, const mpz_class& b)
    {
        mpz_submul(r.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t());
    }
};
} // namespace ccdkit

namespace ccdkit::exact {

/// The dyadic rational num / 2^shift.
struct Dyadic {
    mpz_class num;
    unsigned long shift = 0;

    Dyadic() = default;
    Dyadic(mpz_class n, unsigned long k = 0);
    /// Exactly the value of a finite double in [0, +inf) whose binary exponent is <= 0 or an integer.
    static Dyadic from_double(double x);

    [[nodiscard]] mpq_class to_rational() const;
    /// Largest double <= this, smallest double >= this.
    [[nodiscard]] double round_down() const;
    [[nodiscard]] double round_up() const;
};
[[nodiscard]] int compare(const Dyadic& a, const Dyadic& b);
[[nodiscard]] Dyadic midpoint(const Dyadic& a, const Dyadic& b);
[[nodiscard]] Dyadic difference(const Dyadic& a, const Dyadic& b);
/// The numerators of a and b over their common denominator 2^shift.
[[nodiscard]] std::pair<mpz_class, mpz_class>
aligned_numerators(const Dyadic& a, const Dyadic& b, unsigned long& shift);

/// A polynomial with integer coefficients in the power basis, c[i] t^i, kept trimmed: no trailing zero
/// coefficients, so the zero polynomial has no coefficients and degree -1.
class IntegerPoly {
public:
    IntegerPoly() = default;
    explicit IntegerPoly(std::vector<mpz_class> coefficients);

    [[nodiscard]] int degree() const { return static_cast<int>(c_.size()) - 1; }
    [[nodiscard]] bool is_zero() const { return c_.empty(); }
    [[nodiscard]] const std::vector<mpz_class>& coefficients() const { return c_; }
    [[nodiscard]] const mpz_class& leading() const { return c_.back(); }

    /// Sign (-1, 0, +1) of the value at t.
    [[nodiscard]] int sign_at(const Dyadic& t) const;
    /// 2^(shift degree) p(num / 2^shift): the value at a dyadic point, scaled to an integer.
    [[nodiscard]] mpz_class scaled_value(const mpz_class& num, unsigned long shift) const;
    /// The same into `value` (reusing its storage).
    void scaled_value_into(mpz_class& value, const mpz_class& num, unsigned long shift) const;
    [[nodiscard]] IntegerPoly derivative() const;
    /// Divided by the gcd of its coefficients (a positive number: signs are kept).
    [[nodiscard]] IntegerPoly primitive_part() const;

private:
    std::vector<mpz_class> c_;
};

/// Pseudo-division: lc(b)^k a = quotient b + remainder, deg remainder < deg b; `multiplier_sign` is the sign
/// of lc(b)^k. b must not be zero.
struct PseudoDivision {
    IntegerPoly quotient, remainder;
    int multiplier_sign = 1;
};
[[nodiscard]] PseudoDivision pseudo_divide(const IntegerPoly& a, const IntegerPoly& b);
/// A greatest common divisor, primitive (zero only when both are zero); its sign is unspecified.
[[nodiscard]] IntegerPoly gcd(IntegerPoly a, IntegerPoly b);
/// A polynomial with the same real roots as p, each simple (p / gcd(p, p'), up to a constant factor).
[[nodiscard]] IntegerPoly square_free_part(const IntegerPoly& p);

/// Sturm sequence of a square-free polynomial: counts its distinct real roots in a half-open interval.
class SturmSequence {
public:
    explicit SturmSequence(const IntegerPoly& square_free);
    /// The last element: for a polynomial that is not square-free, gcd(p, p') up to a constant factor.
    [[nodiscard]] const IntegerPoly& last() const { return sequence_.back(); }
    /// Number of distinct real roots in (lower, upper], lower < upper.
    [[nodiscard]] int count_roots(const Dyadic& lower, const Dyadic& upper) const;
    /// Sign changes along the sequence at t (zeros skipped): count_roots(l, u) = sign_changes(l) - sign_changes(u).
    [[nodiscard]] int sign_changes(const Dyadic& t) const;

private:
    std::vector<IntegerPoly> sequence_;
};

/// A real algebraic number: the only root of `q` in the open interval (lower, upper), where it is a simple
/// root and q(lower) and q(upper) have opposite signs; or, when lower == upper, that dyadic.
struct AlgebraicNumber {
    IntegerPoly q;
    Dyadic lower, upper;
    /// Subdivision count (log2) of the next quadratic refinement step; grows while its guesses succeed.
    unsigned long refinement_bits = 16;

    [[nodiscard]] bool is_dyadic() const { return compare(lower, upper) == 0; }
    /// Halves the isolating interval (or lands on the root exactly).
    void bisect();
    /// Shrinks the interval by quadratic interval refinement (Abbott 2006): splits it into 2^bits pieces,
    /// guesses the piece holding the root from the secant, and checks the guess with two evaluations.
    /// Successive successes square the shrinking factor, so precision doubles per step near a simple root.
    void shrink();
    /// Shrinks until upper - lower <= width.
    void refine(const Dyadic& width);
};

/// Bernstein coefficients of p on [lower, upper] (lower < upper), each times a positive factor: the same
/// signs, so no sign change means no root in (lower, upper), one sign change exactly one.
[[nodiscard]] std::vector<mpz_class>
bernstein_coefficients(const IntegerPoly& p, const Dyadic& lower, const Dyadic& upper);

/// The distinct real roots of p (not the zero polynomial) in [lower, upper], in increasing order.
[[nodiscard]] std::vector<AlgebraicNumber> real_roots(const IntegerPoly& p, const Dyadic& lower, const Dyadic& upper);

/// Exact sign (-1, 0, +1) of g at the algebraic number alpha; may refine alpha's interval.
[[nodiscard]] int sign_at(const IntegerPoly& g, AlgebraicNumber& alpha);

} // namespace ccdkit::exact
