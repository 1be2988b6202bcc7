// SPDX-License-Identifier: MIT
#include "narrow/details/exact_ccd.hpp"

#include "narrow/details/contact_polynomials.hpp"

#include <ccdkit/core/exact_polynomial.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ccdkit::details {

using exact::AlgebraicNumber;
using exact::RationalPoly;

namespace {
    template <int D> RationalPoly to_rational(const Poly<mpq_class, D>& p)
    {
        return RationalPoly(std::vector<mpq_class>(p.c.begin(), p.c.end()));
    }

    /// Coordinates as exact power-basis polynomials x0 + t (x1 - x0).
    QueryPoints<mpq_class, 1> exact_points(const QueryMotion& motion)
    {
        QueryPoints<mpq_class, 1> x;
        for (int i = 0; i < 4; ++i) {
            const auto linear = [&](int k) {
                const mpq_class x0(motion.start[i][k]);
                const mpq_class x1(motion.end[i][k]);
                return Poly<mpq_class, 1> { { x0, x1 - x0 } };
            };
            x[i] = { linear(0), linear(1), linear(2) };
        }
        return x;
    }

    /// The contact test at a coplanar time, from the exact polynomials of one query.
    template <class Terms> class ContactTest {
    public:
        explicit ContactTest(const QueryPoints<mpq_class, 1>& x) : nondegenerate_(to_rational(Terms::nondegenerate(x)))
        {
            for (const auto& g : Terms::inside(x)) {
                inside_.push_back(to_rational(g));
            }
            for (const auto& s : Terms::on_segments(x)) {
                segments_.push_back({ to_rational(s.collinear), to_rational(s.between) });
            }
        }

        /// Whether the primitives touch at alpha, given that their four points are coplanar then.
        [[nodiscard]] bool holds(AlgebraicNumber& alpha) const
        {
            if (exact::sign_at(nondegenerate_, alpha) > 0) {
                // A proper triangle, or edges that are not parallel: the inside test is exact on its own.
                return std::all_of(inside_.begin(), inside_.end(), [&](const RationalPoly& g) {
                    return exact::sign_at(g, alpha) >= 0;
                });
            }
            return std::any_of(segments_.begin(), segments_.end(), [&](const Segment& s) {
                return exact::sign_at(s.collinear, alpha) == 0 && exact::sign_at(s.between, alpha) <= 0;
            });
        }

        /// Every polynomial whose sign the test reads (for the candidates of coplanar motion).
        [[nodiscard]] std::vector<const RationalPoly*> polynomials() const
        {
            std::vector<const RationalPoly*> all { &nondegenerate_ };
            for (const auto& g : inside_) {
                all.push_back(&g);
            }
            for (const auto& s : segments_) {
                all.push_back(&s.collinear);
                all.push_back(&s.between);
            }
            return all;
        }

    private:
        struct Segment {
            RationalPoly collinear, between;
        };
        RationalPoly nondegenerate_;
        std::vector<RationalPoly> inside_;
        std::vector<Segment> segments_;
    };

    double round_down(const mpq_class& x)
    {
        double d = x.get_d(); // truncates toward zero
        if (mpq_class(d) > x) {
            d = std::nextafter(d, -std::numeric_limits<double>::infinity());
        }
        return d;
    }

    double round_up(const mpq_class& x)
    {
        double d = x.get_d();
        if (mpq_class(d) < x) {
            d = std::nextafter(d, std::numeric_limits<double>::infinity());
        }
        return d;
    }
} // namespace

template <class Terms> ExactOutcome exact_ccd(const QueryMotion& motion, double t_max, double tolerance)
{
    const QueryPoints<mpq_class, 1> x = exact_points(motion);
    const RationalPoly coplanarity = to_rational(Terms::coplanarity(x));
    const ContactTest<Terms> test(x);
    const mpq_class end(t_max);
    const mpq_class zero(0);

    std::vector<AlgebraicNumber> contacts;
    if (!coplanarity.is_zero()) {
        // Roots come in increasing order: the first that passes is the earliest contact.
        for (AlgebraicNumber& root : exact::real_roots(coplanarity, zero, end)) {
            if (test.holds(root)) {
                contacts.push_back(std::move(root));
                break;
            }
        }
    } else {
        std::vector<AlgebraicNumber> candidates { { RationalPoly(), zero, zero }, { RationalPoly(), end, end } };
        for (const RationalPoly* p : test.polynomials()) {
            if (!p->is_zero()) {
                for (AlgebraicNumber& root : exact::real_roots(*p, zero, end)) {
                    candidates.push_back(std::move(root));
                }
            }
        }
        for (AlgebraicNumber& c : candidates) {
            if (test.holds(c)) {
                contacts.push_back(std::move(c));
            }
        }
    }
    if (contacts.empty()) {
        return {};
    }
    // The earliest contact t* lies in [min lower, min upper] (it is >= its own lower bound and <= every upper
    // bound), and that interval is no wider than the candidates' own intervals.
    const mpq_class width = mpq_class(tolerance) / 2;
    mpq_class lower = end, upper = end;
    for (AlgebraicNumber& c : contacts) {
        c.refine(width);
        lower = std::min(lower, c.lower);
        upper = std::min(upper, c.upper);
    }
    return { true, sgn(upper) == 0, round_down(lower), round_up(upper) };
}

template ExactOutcome exact_ccd<VertexFaceTerms>(const QueryMotion&, double, double);
template ExactOutcome exact_ccd<EdgeEdgeTerms>(const QueryMotion&, double, double);

} // namespace ccdkit::details
