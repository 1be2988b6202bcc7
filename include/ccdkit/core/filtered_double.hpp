// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>
#include <limits>

namespace ccdkit {

/// A double together with a proven bound on its absolute error: the exact real value of the expression that
/// produced it lies in [value - error, value + error] (running forward error analysis).
///
/// Each operation adds the rounding error of its own result (at most u |result| in round-to-nearest, plus the
/// smallest subnormal for products, which covers underflow) to the propagated input errors. The error terms are
/// themselves rounded, so each new bound is inflated by a few units of round-off to stay an upper bound. An
/// overflow makes value or error infinite or NaN, and `sign()` then answers "unknown".
/// Requires round-to-nearest and no FMA contraction (ccdkit builds with -ffp-contract=off).
struct FilteredDouble {
    double value = 0.0;
    double error = 0.0;

    static constexpr double UNIT_ROUNDOFF = std::numeric_limits<double>::epsilon() / 2;
    /// Covers the rounding of the few operations that compute each error bound.
    static constexpr double INFLATE = 1.0 + 8 * UNIT_ROUNDOFF;

    constexpr FilteredDouble() = default;
    /// An exactly known value.
    constexpr FilteredDouble(double exact) : value(exact) { } // NOLINT: implicit by design
    constexpr FilteredDouble(double v, double e) : value(v), error(e) { }

    /// +1 or -1 when the sign of the exact value is certain, 0 when it is not (the value may be zero).
    [[nodiscard]] int sign() const
    {
        // `!(x > y)` is also true for NaN, so overflowed values end up as "unknown".
        if (!(std::abs(value) > error)) {
            return 0;
        }
        return value > 0 ? 1 : -1;
    }
};

inline FilteredDouble operator+(const FilteredDouble& a, const FilteredDouble& b)
{
    const double s = a.value + b.value;
    return { s, (a.error + b.error + FilteredDouble::UNIT_ROUNDOFF * std::abs(s)) * FilteredDouble::INFLATE };
}

inline FilteredDouble operator-(const FilteredDouble& a, const FilteredDouble& b)
{
    const double s = a.value - b.value;
    return { s, (a.error + b.error + FilteredDouble::UNIT_ROUNDOFF * std::abs(s)) * FilteredDouble::INFLATE };
}

inline FilteredDouble operator-(const FilteredDouble& a) { return { -a.value, a.error }; }

inline FilteredDouble operator*(const FilteredDouble& a, const FilteredDouble& b)
{
    constexpr double SMALLEST_SUBNORMAL = std::numeric_limits<double>::denorm_min();
    const double p = a.value * b.value;
    const double propagated = std::abs(a.value) * b.error + std::abs(b.value) * a.error + a.error * b.error;
    return { p,
             (propagated + FilteredDouble::UNIT_ROUNDOFF * std::abs(p) + SMALLEST_SUBNORMAL)
                 * FilteredDouble::INFLATE };
}

inline FilteredDouble& operator+=(FilteredDouble& a, const FilteredDouble& b) { return a = a + b; }
inline FilteredDouble& operator-=(FilteredDouble& a, const FilteredDouble& b) { return a = a - b; }

} // namespace ccdkit
