// SPDX-License-Identifier: MIT
#pragma once

#include <bit>
#include <cmath>
#include <limits>

namespace ccdkit {

/// A double that knows how far it can be from the exact value of the expression that produced it
/// (a semi-static filter, after Meyer & Pion's FPG and Shewchuk's predicates).
///
/// Alongside the value it carries the magnitude: the same expression evaluated on |inputs| with every
/// subtraction turned into an addition. If the expression has depth d (rounded operations on the longest
/// path from an input to the result), the standard forward error analysis gives
/// |value - exact| <= gamma_d * exact_magnitude <= 1.01 d u * magnitude, u = 2^-53, for d well below 1/u.
/// An input may itself be the rounded result of one operation on exact numbers (a difference of
/// coordinates, say): that rounding counts as one more level of depth.
/// `sign()` assumes d <= MAX_DEPTH and adds an absolute term that covers underflow, which is valid when
/// every input has |x| <= 4 and intermediate magnitudes stay below 2^64 (ccdkit scales each query by a
/// power of two, exactly, before filtering). Overflow or NaN makes the sign unknown.
/// Requires round-to-nearest and no FMA contraction (ccdkit builds with -ffp-contract=off).
struct FilteredDouble {
    double value = 0.0;
    double magnitude = 0.0;

    static constexpr int MAX_DEPTH = 60;
    static constexpr double UNIT_ROUNDOFF = std::numeric_limits<double>::epsilon() / 2;
    static constexpr double RELATIVE_BOUND = 1.01 * MAX_DEPTH * UNIT_ROUNDOFF;
    /// Covers every underflow of a product, times the largest magnitude it can be multiplied by later.
    static constexpr double ABSOLUTE_BOUND = 0x1p-1000;

    constexpr FilteredDouble() = default;
    /// An input, exact by definition.
    constexpr FilteredDouble(double exact)
        : value(exact)
        , magnitude(exact < 0 ? -exact : exact)
    {
    } // NOLINT

    /// Upper bound of |value - exact|.
    [[nodiscard]] double error_bound() const { return RELATIVE_BOUND * magnitude + ABSOLUTE_BOUND; }

    /// +1 or -1 when the sign of the exact value is certain, 0 when it is not (the value may be zero).
    [[nodiscard]] int sign() const
    {
        // `!(x > y)` is also true for NaN, so overflowed values end up as "unknown".
        if (!(std::abs(value) > error_bound()) || !(magnitude < std::numeric_limits<double>::infinity())) {
            return 0;
        }
        return value > 0 ? 1 : -1;
    }
};

namespace details {
    /// value and magnitude as one pair of lanes: each operation below is then one SSE2 instruction on both,
    /// lane by lane the same IEEE operation (so the same results) as two scalar ones.
    using FilteredLanes = double __attribute__((vector_size(16)));
    static_assert(sizeof(FilteredLanes) == sizeof(FilteredDouble));
    inline FilteredLanes lanes(const FilteredDouble& a) { return std::bit_cast<FilteredLanes>(a); }
    inline FilteredDouble from_lanes(FilteredLanes v) { return std::bit_cast<FilteredDouble>(v); }
} // namespace details

inline FilteredDouble operator+(const FilteredDouble& a, const FilteredDouble& b)
{
    return details::from_lanes(details::lanes(a) + details::lanes(b));
}

/// a - b is a + (-b) in IEEE arithmetic: the value lane adds b's negated value, the magnitude lane adds b's.
inline FilteredDouble operator-(const FilteredDouble& a, const FilteredDouble& b)
{
    return details::from_lanes(details::lanes(a) + details::FilteredLanes { -b.value, b.magnitude });
}

inline FilteredDouble operator*(const FilteredDouble& a, const FilteredDouble& b)
{
    return details::from_lanes(details::lanes(a) * details::lanes(b));
}

/// Negation is exact.
inline FilteredDouble operator-(const FilteredDouble& a)
{
    FilteredDouble r = a;
    r.value = -a.value;
    return r;
}

inline FilteredDouble& operator+=(FilteredDouble& a, const FilteredDouble& b) { return a = a + b; }
inline FilteredDouble& operator-=(FilteredDouble& a, const FilteredDouble& b) { return a = a - b; }

} // namespace ccdkit
