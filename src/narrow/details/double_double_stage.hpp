// SPDX-License-Identifier: MIT
#pragma once

// The second filter stage: decides the contact at one simple root of the coplanarity polynomial, which the
// double-precision filter isolated but could not classify (the inside tests are within its rounding error
// there: near-degenerate contact). With double-double arithmetic (about 106 bits) and error bounds, the
// root is found by Newton's method, bracketed by two certified sign evaluations, and the inside terms are
// evaluated at the bracket with a bound on how much they can change across it.

#include "bernstein_filter.hpp"
#include "contact_polynomials.hpp"
#include "query_motion.hpp"

#include <ccdkit/core/filtered_double_double.hpp>

#include <array>
#include <cmath>
#include <limits>

namespace ccdkit::details {

template <class Terms> class DoubleDoubleStage {
public:
    using DD = FilteredDoubleDouble;

    /// `unit_motion` scaled as for the double filter (largest coordinate in [1, 2)).
    explicit DoubleDoubleStage(const QueryMotion& unit_motion)
    {
        // Power-basis coordinates relative to point 0: (start, end - start), differences taken in double-double.
        QueryPoints<DD, 1> x;
        for (int i = 0; i < 4; ++i) {
            std::array<Poly<DD, 1>, 3> c;
            for (int k = 0; k < 3; ++k) {
                const DD start = DD(unit_motion.start[i][k]) - DD(unit_motion.start[0][k]);
                const DD end = DD(unit_motion.end[i][k]) - DD(unit_motion.end[0][k]);
                c[static_cast<std::size_t>(k)] = { { start, end - start } };
            }
            x[i] = { c[0], c[1], c[2] };
        }
        const auto normal = Terms::normal(x);
        coplanarity_ = Terms::coplanarity(x, normal);
        inside_ = Terms::inside(x, normal);
    }

    /// [l, r] holds exactly one root of the coplanarity polynomial, a simple one, with sign `sign_at_l` at l
    /// and the opposite at r, and there is no contact before l. Returns CONTACT with a bracket of that root,
    /// SEPARATED if the primitives do not touch then, or UNDECIDED; then `known` holds the inside terms'
    /// signs at that root where they were certain.
    [[nodiscard]] FilterOutcome
    decide_root(double l, double r, int sign_at_l, double tolerance, CertifiedTermSigns& known) const
    {
        const DD t = approximate_root(l, r, sign_at_l);
        // Narrow brackets first; wider ones for flat polynomials (nearly a double root, or terms that nearly
        // cancel), whose signs double-double cannot certify close to the root.
        for (const double delta : { 0x1p-90, 0x1p-75, 0x1p-60, 0x1p-45, 0x1p-30 }) {
            if (8 * delta > tolerance) {
                break;
            }
            // The bracket's ends are inputs of the evaluations: exact, with their own magnitude.
            const DD a = exact_input(t - DD(delta)), b = exact_input(t + DD(delta));
            if (!(a.hi >= l && b.hi <= r)) {
                break;
            }
            if (evaluate(coplanarity_, a).sign() != sign_at_l || evaluate(coplanarity_, b).sign() != -sign_at_l) {
                continue; // the root is not certainly between a and b: try a wider bracket
            }
            const double reach = std::max(std::abs(a.hi), std::abs(b.hi)) * (1 + 0x1p-40);
            const double width = 2 * delta * (1 + 0x1p-40) + 0x1p-100; // b - a, rounded up
            const auto certain = [&](const auto& g) { return certified_sign(g, a, reach, width); };
            // Every inside term vanishes with the nondegenerate one (they are multiples of the normal), so one
            // certified nonzero sign also certifies a proper triangle, or edges that are not parallel.
            bool all_positive = true;
            known.evaluated = true;
            for (std::size_t i = 0; i < inside_.size(); ++i) {
                const int s = certain(inside_[i]);
                if (s < 0) {
                    return { FilterVerdict::SEPARATED };
                }
                known.inside[i] = s;
                all_positive = all_positive && s > 0;
            }
            if (all_positive) {
                return { FilterVerdict::CONTACT, round_down(a), round_up(b) };
            }
            return { FilterVerdict::UNDECIDED, l, r, true };
        }
        return { FilterVerdict::UNDECIDED, l, r, true };
    }

private:
    /// Quadratic convergence from the middle of the filter's interval takes about 6 steps to 2^-100.
    static constexpr int MAX_NEWTON_STEPS = 10;

    template <int D> static DD evaluate(const Poly<DD, D>& p, const DD& t)
    {
        DD v = p.c[D];
        for (int i = D - 1; i >= 0; --i) {
            v = v * t + p.c[static_cast<std::size_t>(i)];
        }
        return v;
    }

    /// The root in [l, r]: Newton's method from the middle, or, where that leaves the interval (a flat
    /// polynomial), bisection on certified signs until they are no longer certain.
    [[nodiscard]] DD approximate_root(double l, double r, int sign_at_l) const
    {
        DD t(0.5 * (l + r));
        for (int i = 0; i < MAX_NEWTON_STEPS; ++i) {
            const DD next = newton_step(t);
            if (!(next.hi >= l && next.hi <= r)) {
                return bisected_root(l, r, sign_at_l);
            }
            const DD step = next - t;
            t = next;
            if (std::abs(step.hi) <= 0x1p-100) {
                break;
            }
        }
        return t;
    }

    [[nodiscard]] DD bisected_root(double l, double r, int sign_at_l) const
    {
        for (;;) {
            const double mid = 0.5 * (l + r);
            if (!(l < mid && mid < r)) {
                break;
            }
            const int s = evaluate(coplanarity_, DD(mid)).sign();
            if (s == 0) {
                break;
            }
            (s == sign_at_l ? l : r) = mid;
        }
        return DD(0.5 * (l + r));
    }

    /// t - f(t) / f'(t), in double-double (an iteration: no error bound needed).
    [[nodiscard]] DD newton_step(const DD& t) const
    {
        const auto& c = coplanarity_.c;
        const DD f = evaluate(coplanarity_, t);
        const DD df = (DD(3.0) * c[3] * t + DD(2.0) * c[2]) * t + c[1];
        if (df.hi == 0.0) {
            return t;
        }
        const double q_hi = f.hi / df.hi;
        const DD residual = f - DD(q_hi) * df;
        const double q_lo = residual.hi / df.hi;
        return t - DD(q_hi) - DD(q_lo);
    }

    /// Sign of g at the root alpha in [a, a + width]: that of g(a) when |g(a)| exceeds its error bound plus
    /// width * max |g'| (bounded by sum i |c_i| reach^(i-1)); else 0.
    template <int D> static int certified_sign(const Poly<DD, D>& g, const DD& a, double reach, double width)
    {
        const DD v = evaluate(g, a);
        double slope = 0.0;
        for (int i = D; i >= 1; --i) {
            const DD& c = g.c[static_cast<std::size_t>(i)];
            slope = slope * reach + i * (std::abs(c.hi) * (1 + 0x1p-50) + c.error_bound());
        }
        const double margin = (v.error_bound() + width * slope) * (1 + 0x1p-40);
        if (!(std::abs(v.hi) * (1 - 0x1p-50) > margin)) {
            return 0;
        }
        return v.hi > 0 ? 1 : -1;
    }

    static DD exact_input(const DD& x) { return { x.hi, x.lo, std::abs(x.hi) + std::abs(x.lo) }; }
    static double round_down(const DD& x) { return x.lo < 0 ? std::nextafter(x.hi, -1.0) : x.hi; }
    static double round_up(const DD& x) { return x.lo > 0 ? std::nextafter(x.hi, 2.0) : x.hi; }

    Poly<DD, 3> coplanarity_;
    std::array<Poly<DD, 4>, Terms::INSIDE_COUNT> inside_;
};

} // namespace ccdkit::details
