// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>
#include <limits>

namespace ccdkit {

/// A double-double number (hi + lo, about 106 bits) that knows how far it can be from the exact value of the
/// expression that produced it: the second filter stage, for what double precision cannot decide.
///
/// Like FilteredDouble it carries the magnitude of the expression (the same expression on |inputs| with
/// subtractions made additions). Every operation below returns a result within 8 u^2 of the exact result of
/// the operation on its (computed) operands, relative to their magnitude (the double-word algorithms of
/// Joldes, Muller & Popescu 2017, with error bounds of at most 7 u^2), so an expression of depth d is within
/// about 8 d u^2 magnitude of its exact value. The same preconditions as FilteredDouble apply: inputs scaled
/// to |x| <= 4, intermediate magnitudes below 2^64, depth at most MAX_DEPTH.
struct FilteredDoubleDouble {
    double hi = 0.0, lo = 0.0;
    double magnitude = 0.0;

    static constexpr int MAX_DEPTH = 60;
    static constexpr double UNIT_ROUNDOFF = std::numeric_limits<double>::epsilon() / 2;
    static constexpr double RELATIVE_BOUND = 1.01 * 8 * MAX_DEPTH * UNIT_ROUNDOFF * UNIT_ROUNDOFF;
    static constexpr double ABSOLUTE_BOUND = 0x1p-1000;

    constexpr FilteredDoubleDouble() = default;
    /// An input, exact by definition.
    constexpr FilteredDoubleDouble(double exact) // NOLINT: implicit by design
        : hi(exact)
        , magnitude(exact < 0 ? -exact : exact)
    {
    }
    constexpr FilteredDoubleDouble(double h, double l, double m)
        : hi(h)
        , lo(l)
        , magnitude(m)
    {
    }

    [[nodiscard]] double error_bound() const { return RELATIVE_BOUND * magnitude + ABSOLUTE_BOUND; }

    /// +1 or -1 when the sign of the exact value is certain, 0 when it is not.
    [[nodiscard]] int sign() const
    {
        // hi carries the sign of hi + lo (normalized); |hi + lo| >= |hi| (1 - u).
        if (!(std::abs(hi) * (1 - 2 * UNIT_ROUNDOFF) > error_bound())
            || !(magnitude < std::numeric_limits<double>::infinity())) {
            return 0;
        }
        return hi > 0 ? 1 : -1;
    }
};

namespace dd {
    /// s + e == a + b exactly.
    inline void two_sum(double a, double b, double& s, double& e)
    {
        s = a + b;
        const double bb = s - a;
        e = (a - (s - bb)) + (b - bb);
    }

    /// s + e == a + b exactly, for |a| >= |b| (or a == 0).
    inline void fast_two_sum(double a, double b, double& s, double& e)
    {
        s = a + b;
        e = b - (s - a);
    }

    /// p + e == a b exactly (Dekker's product with Veltkamp's split; no FMA needed), barring over/underflow.
    inline void two_product(double a, double b, double& p, double& e)
    {
        constexpr double SPLITTER = 134217729.0; // 2^27 + 1
        p = a * b;
        const double ca = SPLITTER * a, cb = SPLITTER * b;
        const double a_hi = ca - (ca - a), a_lo = a - a_hi;
        const double b_hi = cb - (cb - b), b_lo = b - b_hi;
        e = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo;
    }
} // namespace dd

/// AccurateDWPlusDW (relative error <= 3 u^2 + O(u^3)).
inline FilteredDoubleDouble operator+(const FilteredDoubleDouble& x, const FilteredDoubleDouble& y)
{
    double sh, sl, th, tl, vh, vl, zh, zl;
    dd::two_sum(x.hi, y.hi, sh, sl);
    dd::two_sum(x.lo, y.lo, th, tl);
    dd::fast_two_sum(sh, sl + th, vh, vl);
    dd::fast_two_sum(vh, tl + vl, zh, zl);
    return { zh, zl, x.magnitude + y.magnitude };
}

inline FilteredDoubleDouble operator-(const FilteredDoubleDouble& y) { return { -y.hi, -y.lo, y.magnitude }; }

inline FilteredDoubleDouble operator-(const FilteredDoubleDouble& x, const FilteredDoubleDouble& y) { return x + (-y); }

/// DWTimesDW (relative error <= 7 u^2 for the variant without the lo * lo term; this one keeps it).
inline FilteredDoubleDouble operator*(const FilteredDoubleDouble& x, const FilteredDoubleDouble& y)
{
    double ch, cl, zh, zl;
    dd::two_product(x.hi, y.hi, ch, cl);
    const double cross = (x.hi * y.lo + x.lo * y.hi) + x.lo * y.lo;
    dd::fast_two_sum(ch, cl + cross, zh, zl);
    return { zh, zl, x.magnitude * y.magnitude };
}

inline FilteredDoubleDouble& operator+=(FilteredDoubleDouble& a, const FilteredDoubleDouble& b) { return a = a + b; }
inline FilteredDoubleDouble& operator-=(FilteredDoubleDouble& a, const FilteredDoubleDouble& b) { return a = a - b; }

} // namespace ccdkit
