// SPDX-License-Identifier: MIT
#include "narrow/details/exact_ccd.hpp"

#include <algorithm>

namespace ccdkit::details {

using exact::AlgebraicNumber;
using exact::Dyadic;
using exact::IntegerPoly;

namespace {
    template <int D> IntegerPoly to_integer_poly(const Poly<mpz_class, D>& p)
    {
        return IntegerPoly(std::vector<mpz_class>(p.c.begin(), p.c.end()));
    }

    /// Coordinates as exact power-basis polynomials x0 + t (x1 - x0), all scaled by one power of two that
    /// makes them integers. The contact polynomials are homogeneous in the coordinates, so a common positive
    /// scale changes none of their signs or roots.
    QueryPoints<mpz_class, 1> exact_points(const QueryMotion& motion)
    {
        std::array<std::array<Dyadic, 3>, 8> d;
        unsigned long shift = 0;
        for (int i = 0; i < 8; ++i) {
            const Eigen::Vector3d& p = i < 4 ? motion.start[i] : motion.end[i - 4];
            for (int k = 0; k < 3; ++k) {
                d[i][k] = Dyadic::from_double(p[k]);
                shift = std::max(shift, d[i][k].shift);
            }
        }
        const auto integer = [&](int i, int k) {
            mpz_class n = d[i][k].num;
            mpz_mul_2exp(n.get_mpz_t(), n.get_mpz_t(), shift - d[i][k].shift);
            return n;
        };
        QueryPoints<mpz_class, 1> x;
        for (int i = 0; i < 4; ++i) {
            const auto linear = [&](int k) {
                mpz_class x0 = integer(i, k);
                mpz_class x1 = integer(i + 4, k);
                return Poly<mpz_class, 1> { { x0, x1 - x0 } };
            };
            x[i] = { linear(0), linear(1), linear(2) };
        }
        return x;
    }
} // namespace

template <class Terms>
ExactCcd<Terms>::ExactCcd(const QueryMotion& motion, double t_max, double tolerance)
    : x_(exact_points(motion))
    , coplanarity_(to_integer_poly(Terms::coplanarity(x_)))
    , t_max_(Dyadic::from_double(t_max))
    , half_tolerance_(Dyadic::from_double(tolerance))
    , t_max_double_(t_max)
{
    ++half_tolerance_.shift; // exactly tolerance / 2: outward rounding to doubles may add an ulp on each side
}

template <class Terms> void ExactCcd<Terms>::build_inside()
{
    if (inside_.empty()) {
        nondegenerate_ = to_integer_poly(Terms::nondegenerate(x_));
        for (const auto& g : Terms::inside(x_)) {
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

template <class Terms> bool ExactCcd<Terms>::holds(AlgebraicNumber& alpha)
{
    // Only called at coplanar times.
    build_inside();
    if (exact::sign_at(nondegenerate_, alpha) > 0) {
        // A proper triangle, or edges that are not parallel: the inside test is exact on its own.
        return std::all_of(
            inside_.begin(), inside_.end(), [&](const IntegerPoly& g) { return exact::sign_at(g, alpha) >= 0; });
    }
    build_segments();
    return std::any_of(segments_.begin(), segments_.end(), [&](const Segment& s) {
        return exact::sign_at(s.collinear, alpha) == 0 && exact::sign_at(s.between, alpha) <= 0;
    });
}

template <class Terms> ExactOutcome ExactCcd<Terms>::decide(double lower, double upper, bool single_root)
{
    const Dyadic from = Dyadic::from_double(lower);
    std::vector<AlgebraicNumber> contacts;
    if (single_root) {
        contacts.push_back({ coplanarity_, from, Dyadic::from_double(upper) });
        if (holds(contacts.back())) {
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
    build_inside();
    build_segments();
    std::vector<AlgebraicNumber> candidates { { IntegerPoly(), from, from }, { IntegerPoly(), t_max_, t_max_ } };
    const auto add_roots = [&](const IntegerPoly& p) {
        if (!p.is_zero()) {
            for (AlgebraicNumber& root : exact::real_roots(p, from, t_max_)) {
                candidates.push_back(std::move(root));
            }
        }
    };
    add_roots(nondegenerate_);
    for (const IntegerPoly& g : inside_) {
        add_roots(g);
    }
    for (const Segment& s : segments_) {
        add_roots(s.collinear);
        add_roots(s.between);
    }
    for (AlgebraicNumber& c : candidates) {
        if (holds(c)) {
            contacts.push_back(std::move(c));
        }
    }
    if (contacts.empty()) {
        return { .decided_until = t_max_double_ };
    }
    return earliest_of(contacts);
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
