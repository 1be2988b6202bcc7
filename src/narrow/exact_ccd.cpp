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

    /// The contact test at a coplanar time, from the exact polynomials of one query.
    template <class Terms> class ContactTest {
    public:
        explicit ContactTest(const QueryPoints<mpz_class, 1>& x)
            : nondegenerate_(to_integer_poly(Terms::nondegenerate(x)))
        {
            for (const auto& g : Terms::inside(x)) {
                inside_.push_back(to_integer_poly(g));
            }
            for (const auto& s : Terms::on_segments(x)) {
                segments_.push_back({ to_integer_poly(s.collinear), to_integer_poly(s.between) });
            }
        }

        /// Whether the primitives touch at alpha, given that their four points are coplanar then.
        [[nodiscard]] bool holds(AlgebraicNumber& alpha) const
        {
            if (exact::sign_at(nondegenerate_, alpha) > 0) {
                // A proper triangle, or edges that are not parallel: the inside test is exact on its own.
                return std::all_of(inside_.begin(), inside_.end(), [&](const IntegerPoly& g) {
                    return exact::sign_at(g, alpha) >= 0;
                });
            }
            return std::any_of(segments_.begin(), segments_.end(), [&](const Segment& s) {
                return exact::sign_at(s.collinear, alpha) == 0 && exact::sign_at(s.between, alpha) <= 0;
            });
        }

        /// Every polynomial whose sign the test reads (for the candidates of coplanar motion).
        [[nodiscard]] std::vector<const IntegerPoly*> polynomials() const
        {
            std::vector<const IntegerPoly*> all { &nondegenerate_ };
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
            IntegerPoly collinear, between;
        };
        IntegerPoly nondegenerate_;
        std::vector<IntegerPoly> inside_;
        std::vector<Segment> segments_;
    };

} // namespace

template <class Terms> ExactOutcome exact_ccd(const QueryMotion& motion, double t_max, double tolerance)
{
    const QueryPoints<mpz_class, 1> x = exact_points(motion);
    const IntegerPoly coplanarity = to_integer_poly(Terms::coplanarity(x));
    const ContactTest<Terms> test(x);
    const Dyadic end = Dyadic::from_double(t_max);
    const Dyadic zero;

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
        std::vector<AlgebraicNumber> candidates { { IntegerPoly(), zero, zero }, { IntegerPoly(), end, end } };
        for (const IntegerPoly* p : test.polynomials()) {
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
    Dyadic width = Dyadic::from_double(tolerance);
    ++width.shift; // tolerance / 2, exactly: outward rounding to doubles may then add an ulp on each side
    Dyadic lower = end, upper = end;
    for (AlgebraicNumber& c : contacts) {
        c.refine(width);
        if (compare(c.lower, lower) < 0) {
            lower = c.lower;
        }
        if (compare(c.upper, upper) < 0) {
            upper = c.upper;
        }
    }
    return { true, sgn(upper.num) == 0, lower.round_down(), upper.round_up() };
}

template ExactOutcome exact_ccd<VertexFaceTerms>(const QueryMotion&, double, double);
template ExactOutcome exact_ccd<EdgeEdgeTerms>(const QueryMotion&, double, double);

} // namespace ccdkit::details
