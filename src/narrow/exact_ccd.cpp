// SPDX-License-Identifier: MIT
#include "narrow/details/exact_ccd.hpp"

#include <ccdkit/core/filtered_double.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace ccdkit::details {

using exact::AlgebraicNumber;
using exact::Dyadic;
using exact::IntegerPoly;

namespace {
    template <int D> IntegerPoly to_integer_poly(const Poly<mpz_class, D>& p)
    {
        return IntegerPoly(std::vector<mpz_class>(p.c.begin(), p.c.end()));
    }

    /// A finite double as m 2^e with m an integer of at most 53 bits, odd unless zero.
    struct ScaledInteger {
        std::int64_t m = 0;
        int e = 0;
    };
    ScaledInteger split(double x)
    {
        if (x == 0.0) {
            return {};
        }
        int exponent = 0;
        const double mantissa = std::frexp(x, &exponent); // x = mantissa 2^exponent, 0.5 <= |mantissa| < 1
        auto m = static_cast<std::int64_t>(std::ldexp(mantissa, 53));
        const int zeros = std::countr_zero(static_cast<std::uint64_t>(m));
        return { m >> zeros, exponent - 53 + zeros };
    }

    /// Coordinates as exact power-basis polynomials x0 + t (x1 - x0), all scaled by one power of two that
    /// makes them integers. The contact polynomials are homogeneous in the coordinates, so a common positive
    /// scale changes none of their signs or roots.
    QueryPoints<mpz_class, 1> exact_points(const QueryMotion& motion)
    {
        std::array<std::array<ScaledInteger, 3>, 8> d;
        int lowest = std::numeric_limits<int>::max();
        for (int i = 0; i < 8; ++i) {
            const Eigen::Vector3d& p = i < 4 ? motion.start[i] : motion.end[i - 4];
            for (int k = 0; k < 3; ++k) {
                d[i][k] = split(p[k]);
                if (d[i][k].m != 0) {
                    lowest = std::min(lowest, d[i][k].e);
                }
            }
        }
        const auto integer = [&](mpz_class& n, int i, int k) {
            const int shift = d[i][k].e - lowest;
            if (shift <= 960) {
                // m 2^shift < 2^1013 is an integer that a double holds exactly: one conversion, one allocation.
                mpz_set_d(n.get_mpz_t(), std::ldexp(static_cast<double>(d[i][k].m), shift));
                return;
            }
            n = static_cast<long>(d[i][k].m);
            mpz_mul_2exp(n.get_mpz_t(), n.get_mpz_t(), static_cast<unsigned long>(shift));
        };
        QueryPoints<mpz_class, 1> x;
        for (int i = 0; i < 4; ++i) {
            const auto linear = [&](int k) {
                Poly<mpz_class, 1> line;
                integer(line.c[0], i, k);
                integer(line.c[1], i + 4, k);
                line.c[1] -= line.c[0];
                return line;
            };
            x[i] = { linear(0), linear(1), linear(2) };
        }
        return x;
    }
} // namespace

template <class Terms>
ExactCcd<Terms>::ExactCcd(const QueryMotion& motion, double t_max, double tolerance)
    : x_(exact_points(motion))
    , normal_(Terms::normal(x_))
    , coplanarity_(to_integer_poly(Terms::coplanarity(x_, normal_)))
    , t_max_(Dyadic::from_double(t_max))
    , half_tolerance_(Dyadic::from_double(tolerance))
    , t_max_double_(t_max)
{
    ++half_tolerance_.shift; // exactly tolerance / 2: outward rounding to doubles may add an ulp on each side
}

template <class Terms> void ExactCcd<Terms>::build_inside()
{
    if (inside_.empty()) {
        nondegenerate_ = to_integer_poly(Terms::nondegenerate(normal_));
        for (const auto& g : Terms::inside(x_, normal_)) {
            inside_.push_back(to_integer_poly(g));
        }
    }
}

template <class Terms> void ExactCcd<Terms>::build_segments()
{
    if (segments_.empty()) {
        for (const auto& s : Terms::on_segments(x_)) {
            segments_.push_back({ to_integer_poly(s.collinear), to_integer_poly(s.between) });
        }
    }
}

template <class Terms> bool ExactCcd<Terms>::holds_at(const Dyadic& t) const
{
    // The positions at t = n / 2^k, scaled by 2^k: the contact terms are plain integers then.
    const QueryPoints<mpz_class, 0> p = positions_at(t.num, t.shift);
    const auto n = Terms::normal(p);
    if (sgn(Terms::nondegenerate(n).c[0]) > 0) {
        const auto inside = Terms::inside(p, n);
        return std::all_of(inside.begin(), inside.end(), [](const auto& g) { return sgn(g.c[0]) >= 0; });
    }
    const auto segments = Terms::on_segments(p);
    return std::any_of(segments.begin(), segments.end(), [](const auto& s) {
        return sgn(s.collinear.c[0]) == 0 && sgn(s.between.c[0]) <= 0;
    });
}

template <class Terms>
QueryPoints<mpz_class, 0> ExactCcd<Terms>::positions_at(const mpz_class& num, unsigned long shift) const
{
    // x0 + t (x1 - x0) at t = num / 2^shift, scaled by 2^shift (the contact terms are homogeneous).
    QueryPoints<mpz_class, 0> p;
    for (int i = 0; i < 4; ++i) {
        const auto at = [&](const Poly<mpz_class, 1>& x) {
            mpz_class v = x.c[0];
            mpz_mul_2exp(v.get_mpz_t(), v.get_mpz_t(), shift);
            v += num * x.c[1];
            return Poly<mpz_class, 0> { { v } };
        };
        p[i] = { at(x_[i].x), at(x_[i].y), at(x_[i].z) };
    }
    return p;
}

template <class Terms> std::optional<bool> ExactCcd<Terms>::holds_near(const AlgebraicNumber& alpha)
{
    if (!slopes_) {
        // Bounds of sum_i |c_i| for each term g(t) = sum_i c_i t^i: the same expression evaluated on
        // |x0| + |x1 - x0| with every subtraction made an addition (FilteredDouble's magnitude), rounded up.
        QueryPoints<FilteredDouble, 0> m;
        for (int i = 0; i < 4; ++i) {
            const auto bound = [](const Poly<mpz_class, 1>& x) {
                const double b = mpz_class(abs(x.c[0]) + abs(x.c[1])).get_d() * (1 + 0x1p-40);
                return Poly<FilteredDouble, 0> { { FilteredDouble(b) } };
            };
            m[i] = { bound(x_[i].x), bound(x_[i].y), bound(x_[i].z) };
        }
        TermSlopes slopes;
        for (const auto& g : Terms::inside(m, Terms::normal(m))) {
            slopes.inside.push_back(g.c[0].magnitude);
        }
        slopes_ = slopes;
    }
    // With l = a / 2^k and u = b / 2^k: |g(alpha) - g(l)| <= (u - l) max |g'| <= (u - l) D sum |c_i|, so
    // scaled by 2^(k D), the sign of g(l) is g(alpha)'s once |2^(k D) g(l)| > (b - a) D bound 2^(k (D - 1)).
    constexpr int D = 4;
    unsigned long k = 0;
    const auto [a, b] = exact::aligned_numerators(alpha.lower, alpha.upper, k);
    const QueryPoints<mpz_class, 0> p = positions_at(a, k);
    const auto certified = [&, &b = b, &a = a](const mpz_class& value, double slope) -> int {
        if (!(slope < 1e300)) {
            return 0;
        }
        mpz_class bound(std::ceil(slope * D * (1 + 0x1p-40)));
        bound *= b - a;
        mpz_mul_2exp(bound.get_mpz_t(), bound.get_mpz_t(), k * (D - 1));
        return mpz_cmpabs(value.get_mpz_t(), bound.get_mpz_t()) > 0 ? sgn(value) : 0;
    };
    // The inside terms are multiples of the normal: a certified nonzero sign among them also proves the
    // nondegenerate term positive (with none, the polynomial path decides).
    const auto inside = Terms::inside(p, Terms::normal(p));
    bool all_positive = true;
    for (std::size_t i = 0; i < inside.size(); ++i) {
        const int s = certified(inside[i].c[0], slopes_->inside[i]);
        if (s < 0) {
            return false;
        }
        all_positive = all_positive && s > 0;
    }
    if (all_positive) {
        return true;
    }
    return std::nullopt;
}

template <class Terms> bool ExactCcd<Terms>::holds(AlgebraicNumber& alpha, const CertifiedTermSigns& known)
{
    // Only called at roots of the coplanarity polynomial.
    if (alpha.is_dyadic()) {
        return holds_at(alpha.lower);
    }
    if (!known.evaluated) {
        // Usually the terms are far enough from zero at alpha that their values at a point within 2^-80 of it
        // decide; quadratic refinement gets there in a few steps. (A second try at 2^-240 decided 3 of the 23
        // shared queries that get past this one, for the cost of all.) Where double-double evaluation at a
        // bracket of the root already left terms undecided, they are (nearly always) zero at alpha, which no
        // near evaluation can show.
        alpha.refine(Dyadic(1, 80));
        if (alpha.is_dyadic()) {
            return holds_at(alpha.lower);
        }
        if (const std::optional<bool> h = holds_near(alpha)) {
            return *h;
        }
    }
    build_inside();
    const auto inside_sign
        = [&](std::size_t i) { return known.inside[i] != 0 ? known.inside[i] : exact::sign_at(inside_[i], alpha); };
    const bool some_known = std::any_of(known.inside.begin(), known.inside.end(), [](int s) { return s != 0; });
    if (some_known || exact::sign_at(nondegenerate_, alpha) > 0) {
        // A proper triangle, or edges that are not parallel: the inside test is exact on its own.
        for (std::size_t i = 0; i < inside_.size(); ++i) {
            if (inside_sign(i) < 0) {
                return false;
            }
        }
        return true;
    }
    build_segments();
    return std::any_of(segments_.begin(), segments_.end(), [&](const Segment& s) {
        return exact::sign_at(s.collinear, alpha) == 0 && exact::sign_at(s.between, alpha) <= 0;
    });
}

template <class Terms>
ExactOutcome ExactCcd<Terms>::decide(double lower, double upper, bool single_root, const CertifiedTermSigns& known)
{
    const Dyadic from = Dyadic::from_double(lower);
    std::vector<AlgebraicNumber> contacts;
    if (single_root) {
        contacts.push_back({ coplanarity_, from, Dyadic::from_double(upper) });
        if (holds(contacts.back(), known)) {
            return earliest_of(contacts);
        }
        return { .decided_until = upper };
    }
    if (!coplanarity_.is_zero()) {
        // Roots come in increasing order: the first that passes is the earliest contact.
        for (AlgebraicNumber& root : exact::real_roots(coplanarity_, from, Dyadic::from_double(upper))) {
            if (holds(root)) {
                contacts.push_back(std::move(root));
                return earliest_of(contacts);
            }
        }
        return { .decided_until = upper };
    }
    return decide_coplanar(from);
}

template <class Terms> ExactOutcome ExactCcd<Terms>::decide_coplanar(const Dyadic& from)
{
    // In coplanar motion the primitives first touch at `from` or when a point reaches a segment (an endpoint
    // the other edge, the vertex a side of the triangle): edges that cross at interior points, or a vertex
    // strictly inside a proper triangle, did so a moment earlier too (the crossing parameters, resp. the
    // barycentric weights, move continuously while the edges stay non-parallel, resp. the triangle proper),
    // and a collinear overlap, a collapsed triangle or a zero-length edge touches through such a point.
    std::vector<AlgebraicNumber> contacts;
    if (holds_at(from)) {
        contacts.push_back({ IntegerPoly(), from, from });
        return earliest_of(contacts);
    }
    for (const auto& s : Terms::on_segments(x_)) {
        if (std::optional<AlgebraicNumber> t = first_on_segment(s, from)) {
            contacts.push_back(std::move(*t));
        }
    }
    if (contacts.empty()) {
        return { .decided_until = t_max_double_ };
    }
    return earliest_of(contacts);
}

template <class Terms>
std::optional<AlgebraicNumber>
ExactCcd<Terms>::first_on_segment(const PointOnSegment<mpz_class, 1>& s, const Dyadic& from) const
{
    // q is on the line through x and y where every component of (q - x) x (q - y) vanishes: at the roots of
    // their gcd. It is on the segment there if also (q - x).(q - y) <= 0.
    const IntegerPoly between = to_integer_poly(s.between);
    std::optional<IntegerPoly> line;
    for (const Poly<mpz_class, 2>* c : { &s.side.x, &s.side.y, &s.side.z }) {
        IntegerPoly p = to_integer_poly(*c);
        if (!p.is_zero()) {
            line = line ? exact::gcd(std::move(*line), std::move(p)) : std::move(p);
        }
    }
    if (!line) {
        // Always on the line, and off the segment at `from` (the caller checked): on it from the first root
        // of `between` on. (`between` is not identically zero then: q would be on the segment at `from`.)
        std::vector<AlgebraicNumber> roots
            = between.is_zero() ? std::vector<AlgebraicNumber>() : exact::real_roots(between, from, t_max_);
        return roots.empty() ? std::nullopt : std::optional(std::move(roots.front()));
    }
    if (line->degree() <= 0) {
        return std::nullopt;
    }
    for (AlgebraicNumber& root : exact::real_roots(*line, from, t_max_)) {
        if (exact::sign_at(between, root) <= 0) {
            return std::move(root);
        }
    }
    return std::nullopt;
}

template <class Terms> ExactOutcome ExactCcd<Terms>::earliest_of(std::vector<AlgebraicNumber>& contacts) const
{
    // The earliest contact t* lies in [min lower, min upper] (it is >= its own lower bound and <= every upper
    // bound), and that interval is no wider than the candidates' own intervals.
    Dyadic lower = t_max_, upper = t_max_;
    for (AlgebraicNumber& c : contacts) {
        c.refine(half_tolerance_);
        if (compare(c.lower, lower) < 0) {
            lower = c.lower;
        }
        if (compare(c.upper, upper) < 0) {
            upper = c.upper;
        }
    }
    return { .hit = true,
             .initially_touching = sgn(upper.num) == 0,
             .toi_lower = lower.round_down(),
             .toi_upper = upper.round_up() };
}

template class ExactCcd<VertexFaceTerms>;
template class ExactCcd<EdgeEdgeTerms>;

} // namespace ccdkit::details
