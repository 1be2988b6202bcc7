// SPDX-License-Identifier: MIT
#pragma once

// The log barrier of Incremental Potential Contact (Li et al. 2020), on a gap g:
//   b(g) = -(g - dhat)^2 ln(g / dhat) for 0 < g < dhat, 0 for g >= dhat.
// It is C2 at g = dhat (value, first and second derivatives all vanish there) and grows without bound as
// g -> 0, which is what keeps a Newton solver with a safe line search from ever closing the gap.

#include <cmath>
#include <limits>

namespace ccdkit::details {

struct BarrierValue {
    double value = 0.0, first = 0.0, second = 0.0; ///< b, db/dg, d2b/dg2
};

/// b and its first two derivatives at gap g for threshold dhat > 0; +infinity (value) for g <= 0.
[[nodiscard]] inline BarrierValue barrier(double g, double dhat)
{
    BarrierValue out;
    if (g >= dhat) {
        return out;
    }
    if (!(g > 0.0)) {
        out.value = std::numeric_limits<double>::infinity();
        return out;
    }
    const double s = g - dhat;
    const double log_ratio = std::log(g / dhat);
    out.value = -s * s * log_ratio;
    out.first = -2.0 * s * log_ratio - s * s / g;
    out.second = -2.0 * log_ratio - 4.0 * s / g + s * s / (g * g);
    return out;
}

} // namespace ccdkit::details
