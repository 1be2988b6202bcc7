// SPDX-License-Identifier: MIT
#pragma once

// Bernstein sign classification by subdivision, in floating point.
//
// On a time interval [l, r] the coplanarity cubic and the inside polynomials are written in the (scaled)
// Bernstein basis of [l, r]; their coefficients bound them (convex hull property). The interval is:
// - separated if the cubic's coefficients all have one strict sign (no coplanar time);
// - a contact if the cubic's coefficients change sign exactly once (exactly one simple root inside) and every
//   inside polynomial is positive there (the vertex, or the edges' crossing, strictly inside at that root);
// - separated if that single root lies where some inside polynomial is negative;
// - otherwise split in two, left half first, so the first contact found is the earliest.
// With FilteredDouble every sign is certain or reported unknown, so the filter decides exactly or gives up;
// with plain double (bsc-float) signs are taken at face value.

#include "axis_separation.hpp"
#include "contact_polynomials.hpp"
#include "query_motion.hpp"

#include <ccdkit/core/filtered_double.hpp>
#include <ccdkit/core/filtered_double_double.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <type_traits>

namespace ccdkit::details {

enum class FilterVerdict { SEPARATED, CONTACT, UNDECIDED };

struct FilterOutcome {
    FilterVerdict verdict = FilterVerdict::UNDECIDED;
    /// CONTACT: the earliest contact time lies in [toi_lower, toi_upper]. UNDECIDED: the interval where the
    /// filter gave up (no contact before toi_lower).
    double toi_lower = 0.0, toi_upper = 0.0;
    /// UNDECIDED only: [toi_lower, toi_upper] holds exactly one root of the coplanarity polynomial, a simple
    /// one, and the polynomial has opposite nonzero signs at the two ends.
    bool single_root = false;
    int sign_at_lower = 0; ///< with single_root: the coplanarity polynomial's sign at toi_lower
};

/// Sign when certain, else 0.
inline int certain_sign(const FilteredDouble& x) { return x.sign(); }
inline int certain_sign(const FilteredDoubleDouble& x) { return x.sign(); }
inline int certain_sign(double x) { return (x > 0) - (x < 0); }

/// a - b as an input of the filter. In double it is rounded once (FilteredDouble counts that rounding as a
/// level of depth); in double-double it is exact, as that type's error bounds assume of its inputs.
template <class T> T difference_input(double a, double b) { return T(a - b); }
template <> inline FilteredDoubleDouble difference_input(double a, double b)
{
    double s = 0.0, e = 0.0;
    dd::two_sum(a, -b, s, e);
    return { s, e, std::abs(s) + std::abs(e) };
}

/// Classification of a polynomial's Bernstein coefficients on an interval.
enum class CoefficientSigns { POSITIVE, NEGATIVE, ONE_CHANGE, UNKNOWN };

/// Classification of the coefficients from index `from` on (the others are ignored).
template <class T, int D> CoefficientSigns classify(const Poly<T, D>& p, std::size_t from = 0)
{
    int first = certain_sign(p.c[from]);
    if (first == 0) {
        return CoefficientSigns::UNKNOWN;
    }
    int changes = 0;
    int previous = first;
    for (std::size_t i = from + 1; i <= D; ++i) {
        const int s = certain_sign(p.c[i]);
        if (s == 0) {
            return CoefficientSigns::UNKNOWN;
        }
        changes += s != previous;
        previous = s;
    }
    if (changes == 0) {
        return first > 0 ? CoefficientSigns::POSITIVE : CoefficientSigns::NEGATIVE;
    }
    return changes == 1 ? CoefficientSigns::ONE_CHANGE : CoefficientSigns::UNKNOWN;
}

/// Where an interval [l, r] is split: l + SPLIT (r - l). Not the midpoint, because contact times in test
/// scenes and real scenes are often exactly 1/2, 1/4, ...: a root exactly on a split point keeps its
/// coefficient at zero, which no filter can certify, and would send the query to the exact stage.
inline constexpr double SPLIT = 63.0 / 128.0;

/// Limits of a filter's work: the subdivision depth, and how often an interval around a root may be shrunk
/// while the inside polynomials stay undecided there.
struct BernsteinFilterLimits {
    int max_depth = 0;
    int max_root_steps = 0;
};

template <class Terms, class T> class BernsteinFilter {
public:
    using Limits = BernsteinFilterLimits;

    /// Every contact polynomial depends on differences of the points only, so the filter works on the
    /// positions relative to point 0: one rounding each, and error bounds that scale with the (often much
    /// smaller) distances between the points instead of their distance from the origin.
    BernsteinFilter(const QueryMotion& motion, double tolerance, Limits limits)
        : tolerance_(tolerance)
        , limits_(limits)
    {
        for (int i = 0; i < 4; ++i) {
            for (int k = 0; k < 3; ++k) {
                start_[i][k] = difference_input<T>(motion.start[i][k], motion.start[0][k]);
                end_[i][k] = difference_input<T>(motion.end[i][k], motion.end[0][k]);
                velocity_[i][k] = end_[i][k] - start_[i][k];
            }
        }
    }

    /// Classifies [lower, upper]; contact before `lower` must have been ruled out by the caller.
    [[nodiscard]] FilterOutcome run(double lower, double upper) const
    {
        return classify_interval(lower, upper, positions(lower), positions(upper), 0);
    }

    /// The coplanarity polynomial's sign at t if certain, else 0.
    [[nodiscard]] int sign_of_coplanarity_at(double t) const { return sign_of_coplanarity(positions(t)); }

    /// The four points' coordinates (relative to point 0) at one time. Each is computed the same way wherever
    /// it is needed, so the subdivision passes them on to the parts that share an end instead of recomputing.
    using Positions = std::array<std::array<T, 3>, 4>;

    /// Certain signs (else 0) of the inside terms, in visiting order.
    using TermSigns = std::array<int, Terms::INSIDE_COUNT>;

    /// The inside terms' certain signs at one time: the terms evaluated on the positions there as constants
    /// are, operation for operation, the first Bernstein coefficients of the terms on any interval that
    /// starts there and the last of any that ends there (each is a sum of products of the points' first,
    /// resp. last, coefficients, in the same order).
    [[nodiscard]] static TermSigns inside_signs(const Positions& at)
    {
        const QueryPoints<T, 0> p = as_points(at);
        TermSigns signs {};
        std::size_t term = 0;
        Terms::visit_inside(p, Terms::normal(p), [&](const auto& g) {
            signs[term++] = certain_sign(g.c[0]);
            return true;
        });
        return signs;
    }

    /// True only if the inside terms on [l, r], given their end coefficients' signs, certainly decide nothing
    /// (so computing them is skipped): none is classified NEGATIVE and none is hopeless, as each has a certain
    /// positive coefficient, and not all are POSITIVE, as one has a coefficient that is not certainly
    /// positive. Then the step would only shrink the interval, as it does without them.
    [[nodiscard]] static bool undecided_between(const TermSigns& at_l, const TermSigns& at_r)
    {
        bool some_not_positive = false;
        for (std::size_t i = 0; i < at_l.size(); ++i) {
            if (!(at_l[i] > 0 || at_r[i] > 0)) {
                return false;
            }
            some_not_positive = some_not_positive || at_l[i] <= 0 || at_r[i] <= 0;
        }
        return some_not_positive;
    }

    [[nodiscard]] Positions positions(double t) const
    {
        if (t == 0.0) {
            return start_;
        }
        if (t == 1.0) {
            return end_;
        }
        Positions x;
        for (int i = 0; i < 4; ++i) {
            for (int k = 0; k < 3; ++k) {
                x[i][k] = start_[i][k] + T(t) * velocity_[i][k];
            }
        }
        return x;
    }

    /// Coordinates on [l, r] in the scaled Bernstein basis: each is the linear (x(l), x(r)).
    [[nodiscard]] static QueryPoints<T, 1> points_on(const Positions& at_l, const Positions& at_r)
    {
        QueryPoints<T, 1> x;
        for (int i = 0; i < 4; ++i) {
            x[i] = { { { at_l[i][0], at_r[i][0] } }, { { at_l[i][1], at_r[i][1] } }, { { at_l[i][2], at_r[i][2] } } };
        }
        return x;
    }

private:
    /// Evaluated on the positions at t as constants, the coplanarity polynomial is, operation for operation,
    /// its first coefficient on [t, r], at a quarter of the work of the whole polynomial.
    /// Out of line: inlined into its many callers, GCC calls the normal out of line instead, which costs more
    /// (callgrind: 8% more instructions per vertex-face hit of the narrow benchmark).
    [[nodiscard, gnu::noinline]] static int sign_of_coplanarity(const Positions& at)
    {
        return certain_sign(coplanarity<Terms>(as_points(at)).c[0]);
    }

    /// Positions as constant polynomials.
    [[nodiscard]] static QueryPoints<T, 0> as_points(const Positions& at)
    {
        QueryPoints<T, 0> x;
        for (int i = 0; i < 4; ++i) {
            x[i] = { { { at[i][0] } }, { { at[i][1] } }, { { at[i][2] } } };
        }
        return x;
    }

    /// at_l, at_r: positions(l), positions(r).
    [[nodiscard]] FilterOutcome
    classify_interval(double l, double r, const Positions& at_l, const Positions& at_r, int depth) const
    {
        const QueryPoints<T, 1> x = points_on(at_l, at_r);
        const auto normal = Terms::normal(x);
        const auto coplanarity = Terms::coplanarity(x, normal);
        // With the certified root at t = 0 divided out: in the scaled Bernstein basis of [0, r], with p's first
        // coefficient zero, p(u r) = u q(u) where q's coefficients are p's second to last, so those alone
        // classify q, whose roots are p's roots in (0, r]. There is no contact at 0 itself.
        const std::size_t first = l == 0.0 && root_at_start_without_contact(coplanarity.c[0]) ? 1 : 0;
        switch (classify(coplanarity, first)) {
        case CoefficientSigns::POSITIVE:
        case CoefficientSigns::NEGATIVE:
            return { FilterVerdict::SEPARATED };
        case CoefficientSigns::ONE_CHANGE: {
            FilterOutcome root = classify_root(x, normal, l, r, at_l, at_r, certain_sign(coplanarity.c[first]));
            // A single root handed on promises nonzero signs at both ends, which p lacks at 0.
            root.single_root = root.single_root && !(first == 1 && root.toi_lower == 0.0);
            return root;
        }
        case CoefficientSigns::UNKNOWN:
            break;
        }
        const double mid = l + SPLIT * (r - l);
        // The first coefficient is the value at l, computed the same way in every left part: if its sign is
        // unknown here, no subdivision will learn it. (Plain double only sees an exact zero there, a contact
        // at l, which it keeps narrowing down to report a tight interval.)
        const bool stuck = !std::is_same_v<T, double> && first == 0 && certain_sign(coplanarity.c[0]) == 0;
        if (depth >= limits_.max_depth || !(l < mid && mid < r) || stuck) {
            return { FilterVerdict::UNDECIDED, l, r };
        }
        const Positions at_mid = positions(mid);
        const FilterOutcome left = classify_interval(l, mid, at_l, at_mid, depth + 1);
        if (left.verdict != FilterVerdict::SEPARATED) {
            return left;
        }
        return classify_interval(mid, r, at_mid, at_r, depth + 1);
    }

    /// [l, r] holds exactly one simple root of the cubic (f(l) has sign sign_at_l); x are the points on
    /// [l, r], n their normal, at_l and at_r the positions at l and r. Decides whether the primitives touch
    /// at that root, shrinking the interval around it until the inside polynomials have certain signs there
    /// (or the filter gives up).
    [[nodiscard]] FilterOutcome classify_root(
        QueryPoints<T, 1> x, PolyVec3<T, 2> n, double l, double r, Positions at_l, Positions at_r, int sign_at_l) const
    {
        // The inside terms' certain signs at l and at r, once known (see undecided_between).
        std::optional<TermSigns> signs_at_l, signs_at_r;
        bool points_are_on_l_r = true; // x and n belong to [l, r]
        for (int step = 0;; ++step) {
            if (!(signs_at_l && signs_at_r && undecided_between(*signs_at_l, *signs_at_r))) {
                if (!points_are_on_l_r) {
                    x = points_on(at_l, at_r);
                    n = Terms::normal(x);
                }
                bool all_positive = true, hopeless = false, negative = false;
                TermSigns first {}, last {};
                std::size_t term = 0;
                // A negative term decides alone: the terms after it are not even computed.
                Terms::visit_inside(x, n, [&](const auto& g) {
                    const CoefficientSigns s = classify(g);
                    negative = s == CoefficientSigns::NEGATIVE;
                    all_positive = all_positive && s == CoefficientSigns::POSITIVE;
                    // No coefficient with a certain sign: g is within rounding error of zero here, and a smaller
                    // interval will not change that. (Any classification but UNKNOWN saw a certain sign.)
                    hopeless = hopeless
                        || (s == CoefficientSigns::UNKNOWN
                            && std::none_of(g.c.begin(), g.c.end(), [](const T& v) { return certain_sign(v); }));
                    first[term] = certain_sign(g.c.front());
                    last[term] = certain_sign(g.c.back());
                    ++term;
                    return !negative;
                });
                if (negative) {
                    return { FilterVerdict::SEPARATED };
                }
                if (all_positive) {
                    return narrow_root(l, r, sign_at_l);
                }
                if (hopeless) {
                    return { FilterVerdict::UNDECIDED, l, r, true, sign_at_l };
                }
                // Not negative: every term was visited.
                signs_at_l = first;
                signs_at_r = last;
            }
            const double mid = l + SPLIT * (r - l);
            if (step == limits_.max_root_steps || !(l < mid && mid < r)) {
                return { FilterVerdict::UNDECIDED, l, r, true, sign_at_l };
            }
            const Positions at_mid = positions(mid);
            const int s = sign_of_coplanarity(at_mid);
            if (s == 0) {
                return { FilterVerdict::UNDECIDED, l, r, true, sign_at_l };
            }
            const TermSigns signs_at_mid = inside_signs(at_mid);
            if (s == sign_at_l) {
                l = mid;
                at_l = at_mid;
                signs_at_l = signs_at_mid;
            } else {
                r = mid;
                at_r = at_mid;
                signs_at_r = signs_at_mid;
            }
            points_are_on_l_r = false;
        }
    }

    /// Bisects [l, r], which holds exactly one simple root of the cubic, down to the tolerance.
    [[nodiscard]] FilterOutcome narrow_root(double l, double r, int sign_at_l) const
    {
        while (r - l > tolerance_) {
            const double mid = l + SPLIT * (r - l);
            if (!(l < mid && mid < r)) {
                break;
            }
            const int s = sign_of_coplanarity_at(mid);
            if (s == 0) {
                return { FilterVerdict::UNDECIDED, l, r, true, sign_at_l };
            }
            (s == sign_at_l ? l : r) = mid;
        }
        return { FilterVerdict::CONTACT, l, r };
    }

    /// True only if the coplanarity polynomial, of computed value `at_start` at t = 0, is exactly zero then
    /// and the primitives do not touch then (FilteredDouble only; common on meshes whose rows of vertices lie
    /// in coordinate planes).
    [[nodiscard]] bool root_at_start_without_contact(const T& at_start) const
    {
        if constexpr (std::is_same_v<T, FilteredDouble>) {
            return at_start.value == 0.0 && exactly_zero(at_start) && apart_at_start();
        }
        return false;
    }

    /// True only if `at_start`, the coplanarity polynomial at t = 0 (its first coefficient on any [0, r]: the
    /// products of the coefficients at 0 of the start differences), is exactly zero. Its magnitude (the same
    /// expression on the differences' magnitudes, all additions) is then zero: a sum of nonnegative terms is
    /// zero only if each is, and a product only if a factor is, unless it underflows. With every nonzero
    /// difference of magnitude at least 2^-300 (at most 8 after the subtractions inside the terms) no product
    /// of at most three factors comes near underflow, so a zero magnitude means that every product in the
    /// exact expression has an exactly zero factor (a rounded difference is zero only if the exact one is):
    /// the exact value, bounded by the exact magnitude, is zero.
    [[nodiscard]] bool exactly_zero(const FilteredDouble& at_start) const
    {
        for (const auto& p : start_) {
            for (const T& d : p) {
                if (d.magnitude != 0.0 && !(d.magnitude >= 0x1p-300)) {
                    return false;
                }
            }
        }
        return at_start.magnitude == 0.0;
    }

    /// True only if, at t = 0, one primitive lies beyond the other along a coordinate axis, so they do not
    /// touch. Compared on the rounded differences to point 0, which is rigorous: rounding is monotonic, so
    /// fl(a - x0) > fl(b - x0) implies a > b.
    [[nodiscard]] bool apart_at_start() const
    {
        std::array<std::array<double, 3>, 4> x;
        for (int i = 0; i < 4; ++i) {
            for (int k = 0; k < 3; ++k) {
                x[i][k] = start_[i][k].value;
            }
        }
        for (int j = 0; j < 3; ++j) {
            if (side_along_axis<Terms::FIRST_PRIMITIVE_POINTS>(x, j, 0.0) != 0) {
                return true;
            }
        }
        return false;
    }

    Positions start_, end_; ///< positions relative to point 0
    Positions velocity_; ///< end_ - start_
    double tolerance_;
    Limits limits_;
};

} // namespace ccdkit::details
