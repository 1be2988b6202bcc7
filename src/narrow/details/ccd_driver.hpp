// SPDX-License-Identifier: MIT
#pragma once

// The stages of a narrow-phase query, shared by vertex-face and edge-edge: input checks, the filtered
// Bernstein classification, and the exact fallback for what the filter cannot decide.

#include "bernstein_filter.hpp"
#include "exact_ccd.hpp"
#include "query_motion.hpp"

#include <ccdkit/narrow/ccd_types.hpp>

#include <cmath>
#include <optional>

namespace ccdkit::details {

/// Subdivision depth of the filters. Beyond this the intervals are so small that an undecided one is
/// almost surely degenerate (an exact root on a split point, coplanar motion), which is the exact stage's job.
inline constexpr int FILTER_MAX_DEPTH = 8;
inline constexpr int FLOAT_MAX_DEPTH = 12;

[[nodiscard]] inline bool valid_options(const CcdOptions& options)
{
    return options.t_max > 0.0 && options.t_max <= 1.0 && options.tolerance > 0.0 && std::isfinite(options.tolerance);
}

/// Runs a query; `contact_data(motion, t, result)` fills contact parameters and normal at time t.
template <class Terms, class ContactData>
[[nodiscard]] CcdResult run_ccd(const QueryMotion& motion, const CcdOptions& options, ContactData contact_data)
{
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

    const std::optional<QueryMotion> unit = motion.scaled_to_unit();
    if (options.method == CcdMethod::BSC_FLOAT) {
        result.decided_by = DecidedBy::FLOAT;
        const FilterOutcome f
            = BernsteinFilter<Terms, double>(unit ? *unit : motion, options.tolerance, FLOAT_MAX_DEPTH)
                  .run(options.t_max);
        // Floating point cannot tell a graze from a miss: undecided counts as contact (conservative).
        if (f.verdict != FilterVerdict::SEPARATED) {
            report_contact(f.toi_lower, f.toi_upper, f.toi_upper == 0.0);
        }
        return result;
    }

    // The filter's error bounds hold for unit-scaled coordinates only.
    const FilterOutcome f = unit
        ? BernsteinFilter<Terms, FilteredDouble>(*unit, options.tolerance, FILTER_MAX_DEPTH).run(options.t_max)
        : FilterOutcome {};
    if (f.verdict == FilterVerdict::SEPARATED) {
        return result;
    }
    if (f.verdict == FilterVerdict::CONTACT) {
        report_contact(f.toi_lower, f.toi_upper, false);
        return result;
    }
    result.decided_by = DecidedBy::EXACT;
    const ExactOutcome e = exact_ccd<Terms>(motion, options.t_max, options.tolerance);
    if (e.hit) {
        report_contact(e.toi_lower, e.toi_upper, e.initially_touching);
    }
    return result;
}

} // namespace ccdkit::details
