// SPDX-License-Identifier: MIT
#pragma once

// The stages of a narrow-phase query, shared by vertex-face and edge-edge: input checks, the filtered
// Bernstein classification, and the exact fallback for what the filter cannot decide.

#include "additive_stepping.hpp"
#include "bernstein_filter.hpp"
#include "coplanarity_prefilter.hpp"
#include "core/details/ieee_arithmetic_scope.hpp"
#include "double_double_stage.hpp"
#include "exact_ccd.hpp"
#include "query_motion.hpp"

#include <ccdkit/narrow/ccd_types.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>

namespace ccdkit::details {

/// Work limits of the filters. Beyond the depth the intervals are so small that an undecided one is almost
/// surely degenerate (an exact root on a split point, coplanar motion), which is the exact stage's job. Around
/// a root, the certified filter hands over to the double-double stage after a few steps (more cost it more
/// than that stage does); bsc-float has no later stage, so it keeps shrinking longer before it reports an
/// undecided root as a contact.
inline constexpr BernsteinFilterLimits FILTER_LIMITS { .max_depth = 8, .max_root_steps = 10 };
inline constexpr BernsteinFilterLimits FLOAT_LIMITS { .max_depth = 12, .max_root_steps = 40 };
/// The double-double filter starts on a stretch the double filter gave up on, so its depth counts from there;
/// around an isolated root it hands over to the double-double root stage at once (cheaper than shrinking).
inline constexpr BernsteinFilterLimits FINE_LIMITS { .max_depth = 8, .max_root_steps = 0 };
/// How often the filter may resume after handing a stretch of time to the exact stage.
inline constexpr int FILTER_ROUNDS = 3;

/// Certified: a direction separates the two primitives both at the start and at the end of the step, on the
/// same side, so they never touch during the step (additive_stepping.hpp, gaps_at).
template <class Terms> [[nodiscard]] bool apart_over_the_step(const QueryMotion& motion)
{
    constexpr bool vertex_face = std::is_same_v<Terms, VertexFaceTerms>;
    if constexpr (vertex_face) {
        const ScaledPair<3, 1, 3> pair(motion.start, motion.end, false, 0.0);
        return apart_over_the_step(pair, VertexFaceDirections {}(pair.x0));
    } else {
        const ScaledPair<3, 2, 2> pair(motion.start, motion.end, false, 0.0);
        return apart_over_the_step(pair, EdgeEdgeDirections {}(pair.x0));
    }
}

/// Runs a query; `contact_data(motion, t, result)` fills contact parameters and normal at time t.
template <class Terms, class ContactData>
[[nodiscard]] CcdResult run_ccd(const QueryMotion& motion, const CcdOptions& options, ContactData contact_data)
{
    const IeeeArithmeticScope ieee;
    CcdResult result;
    result.toi_lower = result.toi_upper = options.t_max;
    if (!motion.is_finite() || !valid_options(options)) {
        result.status = CcdStatus::INVALID_INPUT;
        return result;
    }
    const auto report_contact = [&](double lower, double upper, bool at_start) {
        result.hit = true;
        result.status = at_start ? CcdStatus::INITIALLY_TOUCHING : CcdStatus::HIT;
        result.toi_lower = lower;
        result.toi_upper = upper;
        contact_data(motion, upper, result);
    };

    if (never_coplanar(motion) || apart_over_the_step<Terms>(motion)) {
        result.decided_by = options.method == CcdMethod::BSC_FLOAT ? DecidedBy::FLOAT : DecidedBy::FILTER;
        return result;
    }
    const std::optional<QueryMotion> unit = motion.scaled_to_unit();
    if (options.method == CcdMethod::BSC_FLOAT) {
        result.decided_by = DecidedBy::FLOAT;
        const FilterOutcome f = BernsteinFilter<Terms, double>(unit ? *unit : motion, options.tolerance, FLOAT_LIMITS)
                                    .run(0.0, options.t_max);
        // Floating point cannot tell a graze from a miss: undecided counts as contact (conservative).
        if (f.verdict != FilterVerdict::SEPARATED) {
            report_contact(f.toi_lower, f.toi_upper, f.toi_upper == 0.0);
        }
        return result;
    }

    // The filter's error bounds hold for unit-scaled coordinates only; without them everything is exact.
    std::optional<BernsteinFilter<Terms, FilteredDouble>> filter;
    if (unit) {
        filter.emplace(*unit, options.tolerance, FILTER_LIMITS); // in place: the filter is some 600 bytes
    }
    std::optional<BernsteinFilter<Terms, FilteredDoubleDouble>> fine;
    std::optional<DoubleDoubleStage<Terms>> second;
    std::optional<ExactCcd<Terms>> exact;
    double from = 0.0;
    for (int round = 0;; ++round) {
        CertifiedTermSigns known; // what the double-double stage learned about a single root
        // The filter runs first; where it gives up, exact arithmetic decides just that stretch of time, and
        // the filter resumes after it. Past a few rounds the exact stage takes all that is left.
        FilterOutcome f = filter && round < FILTER_ROUNDS
            ? filter->run(from, options.t_max)
            : FilterOutcome { .toi_lower = from, .toi_upper = options.t_max };
        if (f.verdict == FilterVerdict::UNDECIDED && !f.single_root && unit && round < FILTER_ROUNDS) {
            // Undecided without an isolated root: usually coefficients within double rounding of zero (nearly
            // coplanar motion, a root at a split point). The same classification in double-double decides most.
            if (!fine) {
                fine.emplace(*unit, options.tolerance, FINE_LIMITS);
            }
            // Unless the polynomial vanishes at an end (typically an exact contact at t = 0 or 1): no filter can
            // decide at a zero, so that goes straight to the exact stage.
            if (fine->sign_of_coplanarity_at(f.toi_lower) != 0 && fine->sign_of_coplanarity_at(f.toi_upper) != 0) {
                const FilterOutcome g = fine->run(f.toi_lower, f.toi_upper);
                result.decided_by = std::max(result.decided_by, DecidedBy::DOUBLE_DOUBLE);
                if (g.verdict == FilterVerdict::SEPARATED) {
                    from = f.toi_upper;
                    if (from >= options.t_max) {
                        return result;
                    }
                    continue;
                }
                f = g;
            }
        }
        if (f.verdict == FilterVerdict::SEPARATED) {
            return result;
        }
        if (f.verdict == FilterVerdict::CONTACT) {
            report_contact(f.toi_lower, f.toi_upper, false);
            return result;
        }
        if (f.single_root) {
            if (!second) {
                second.emplace(*unit);
            }
            const FilterOutcome g
                = second->decide_root(f.toi_lower, f.toi_upper, f.sign_at_lower, options.tolerance, known);
            if (g.verdict != FilterVerdict::UNDECIDED) {
                result.decided_by = std::max(result.decided_by, DecidedBy::DOUBLE_DOUBLE);
                if (g.verdict == FilterVerdict::CONTACT) {
                    report_contact(g.toi_lower, g.toi_upper, false);
                    return result;
                }
                from = f.toi_upper;
                continue;
            }
        }
        result.decided_by = DecidedBy::EXACT;
        if (!exact) {
            exact.emplace(motion, options.t_max, options.tolerance);
        }
        const ExactOutcome e = exact->decide(f.toi_lower, f.toi_upper, f.single_root, known);
        if (e.hit) {
            report_contact(e.toi_lower, e.toi_upper, e.initially_touching);
            return result;
        }
        if (e.decided_until >= options.t_max) {
            return result;
        }
        from = e.decided_until;
    }
}

} // namespace ccdkit::details
