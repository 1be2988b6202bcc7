// SPDX-License-Identifier: MIT
#pragma once

#include <gmpxx.h>

#include <vector>

namespace ccdkit::exact {

/// A polynomial with rational coefficients in the power basis, c[i] t^i, kept trimmed: no trailing zero
/// coefficients, so the zero polynomial has no coefficients and degree -1.
class RationalPoly {
public:
    RationalPoly() = default;
    explicit RationalPoly(std::vector<mpq_class> coefficients);

    [[nodiscard]] int degree() const { return static_cast<int>(c_.size()) - 1; }
    [[nodiscard]] bool is_zero() const { return c_.empty(); }
    [[nodiscard]] const std::vector<mpq_class>& coefficients() const { return c_; }
    [[nodiscard]] const mpq_class& leading() const { return c_.back(); }

    [[nodiscard]] mpq_class operator()(const mpq_class& t) const;
    /// Sign (-1, 0, +1) of the value at t.
    [[nodiscard]] int sign_at(const mpq_class& t) const;
    [[nodiscard]] RationalPoly derivative() const;
    /// The same polynomial scaled to leading coefficient 1 (zero stays zero).
    [[nodiscard]] RationalPoly monic() const;

private:
    std::vector<mpq_class> c_;
};

/// Quotient and remainder of a / b; b must not be zero.
struct DivisionResult {
    RationalPoly quotient, remainder;
};
[[nodiscard]] DivisionResult divide(const RationalPoly& a, const RationalPoly& b);
/// Monic greatest common divisor (zero only when both are zero).
[[nodiscard]] RationalPoly gcd(RationalPoly a, RationalPoly b);
/// p / gcd(p, p'): the same real roots, each simple.
[[nodiscard]] RationalPoly square_free_part(const RationalPoly& p);

/// Sturm sequence of a square-free polynomial: counts its distinct real roots in a half-open interval.
class SturmSequence {
public:
    explicit SturmSequence(const RationalPoly& square_free);
    /// Number of distinct real roots in (lower, upper], lower < upper.
    [[nodiscard]] int count_roots(const mpq_class& lower, const mpq_class& upper) const;

private:
    [[nodiscard]] int sign_changes(const mpq_class& t) const;
    std::vector<RationalPoly> sequence_;
};

/// A real algebraic number: the only root of the square-free polynomial `q` in the open interval
/// (lower, upper), where q(lower) and q(upper) have opposite signs; or, when lower == upper, that rational.
struct AlgebraicNumber {
    RationalPoly q;
    mpq_class lower, upper;

    [[nodiscard]] bool is_rational() const { return lower == upper; }
    /// Halves the isolating interval (or lands on the root exactly).
    void bisect();
    /// Bisects until upper - lower <= width.
    void refine(const mpq_class& width);
};

/// The distinct real roots of p (not the zero polynomial) in [lower, upper], in increasing order.
[[nodiscard]] std::vector<AlgebraicNumber>
real_roots(const RationalPoly& p, const mpq_class& lower, const mpq_class& upper);

/// Exact sign (-1, 0, +1) of g at the algebraic number alpha; may refine alpha's interval.
[[nodiscard]] int sign_at(const RationalPoly& g, AlgebraicNumber& alpha);

} // namespace ccdkit::exact
