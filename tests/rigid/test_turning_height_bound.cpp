// SPDX-License-Identifier: MIT
// The lower bound on a turning point's height along a fixed direction (turning_height_bound.hpp), against the exact
// motion evaluated in long double (Rodrigues' formula) at many times: the concave bound for every angle, the lifts'
// and reliefs' tangents on [0, h] where the turn over h is at most MAX_LIFT_TURN, and how close the bound at h comes.

#include "random_motions.hpp"
#include "rigid/details/turning_height_bound.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ccdkit {
namespace {

    using details::lift_at_end;
    using details::lift_drop_at_start;
    using details::lift_slope_at_end;
    using details::MAX_LIFT_TURN;
    using details::relief_drop_at_start;
    using details::relief_short_of_cubic;
    using details::TurningDirection;
    using details::TurningHeightTerms;

    using Real = long double;
    using Vec = Eigen::Matrix<Real, 3, 1>;

    /// One point's motion: centre c + s d, arm turned by exp(s [w]).
    struct PointMotion {
        Eigen::Vector3d center, arm, travel, spin, n;

        /// The exact height n.x(s) in long double.
        [[nodiscard]] Real height_at(Real s) const
        {
            const Vec w = spin.cast<Real>();
            const Real angle = w.norm() * s;
            Vec arm_s = arm.cast<Real>();
            if (w.norm() > 0) {
                const Vec axis = w / w.norm();
                arm_s = arm_s * std::cos(angle) + axis.cross(arm_s) * std::sin(angle)
                    + axis * axis.dot(arm_s) * (1 - std::cos(angle));
            }
            const Vec x = center.cast<Real>() + s * travel.cast<Real>() + arm_s;
            return n.cast<Real>().dot(x);
        }
        [[nodiscard]] TurningHeightTerms terms() const
        {
            const double spin_norm = spin.norm();
            const Eigen::Vector3d axis = spin_norm > 0.0 ? Eigen::Vector3d(spin / spin_norm) : Eigen::Vector3d::Zero();
            return TurningDirection(n, travel, spin, axis, spin_norm).terms(center + arm, arm);
        }
    };

    PointMotion random_motion(test_support::RandomMotions& random, double max_angle)
    {
        return { random.vector(2.0), random.direction() * random.uniform(0.0, 1.5), random.vector(3.0),
                 random.direction() * random.uniform(0.0, max_angle), random.direction() };
    }

    /// Rounding of the terms in double (the model adds its own error terms for it): far above, far below any gap.
    constexpr Real SLACK = 1e-12;

    TEST(TurningHeightBound, ConcaveBoundHoldsAtAnyAngle)
    {
        test_support::RandomMotions random(11);
        for (int trial = 0; trial < 2000; ++trial) {
            const PointMotion m = random_motion(random, trial % 2 == 0 ? 2.0 : 20.0);
            const TurningHeightTerms t = m.terms();
            for (int k = 0; k <= 200; ++k) {
                const double s = k / 200.0;
                const Real bound = t.height + s * t.rate - s * s * t.bend - s * s * s * t.twist();
                ASSERT_LE(bound, m.height_at(s) + SLACK) << "trial " << trial << " s " << s;
            }
        }
    }

    /// The lift's tangent at h (from -lift_drop_at_start at 0 to lift_at_end at h) and the relief's (from -h^3
    /// relief_drop_at_start at 0 to h^3 (1 - relief_short_of_cubic) at h), linear in between, added to the concave
    /// bound, stay below the exact height on [0, h].
    TEST(TurningHeightBound, LiftAndReliefTangentsHoldOnTheInterval)
    {
        test_support::RandomMotions random(12);
        int lifted = 0, relieved = 0;
        for (int trial = 0; trial < 2000; ++trial) {
            const PointMotion m = random_motion(random, 3.0);
            const TurningHeightTerms t = m.terms();
            const double spin = m.spin.norm();
            if (spin == 0.0) {
                continue;
            }
            const double h = std::min(1.0, random.uniform(0.0, 1.0) * MAX_LIFT_TURN / spin);
            const double x_h = spin * h;
            lifted += t.lift > 0.0;
            relieved += t.relief() > 0.0;
            const Real cube = Real(h) * h * h;
            const Real lift_start = -Real(lift_drop_at_start(x_h)), lift_end = lift_at_end(x_h);
            const Real relief_start = -cube * relief_drop_at_start(x_h);
            const Real relief_end = cube * (1 - relief_short_of_cubic(x_h));
            for (int k = 0; k <= 200; ++k) {
                const double s = h * k / 200.0;
                const Real u = s / h;
                const Real tangents = t.lift * (lift_start + (lift_end - lift_start) * u)
                    + t.relief() * (relief_start + (relief_end - relief_start) * u);
                const Real bound = t.height + s * t.rate - s * s * t.bend - s * s * s * t.twist() + tangents;
                ASSERT_LE(bound, m.height_at(s) + SLACK) << "trial " << trial << " s " << s << " h " << h;
            }
            // The lift's tangent has slope psi'(x_h) in x: its ends agree with lift_slope_at_end.
            EXPECT_NEAR(
                static_cast<double>(lift_at_end(x_h) + lift_drop_at_start(x_h)),
                x_h * lift_slope_at_end(x_h, spin) / spin, 1e-12);
        }
        EXPECT_GT(lifted, 500); // (about half the points turn away from n)
        EXPECT_GT(relieved, 500); // (about half are carried towards -n)
    }

    TEST(TurningHeightBound, BoundAtTheEndMissesOnlyHigherOrderTerms)
    {
        // With the lift and the relief, the bound at h departs from the exact height by at most |A| x^4 / 24 +
        // |B| x^5 / 120 (and x^6 / 720 of the lift, x^7 / 5040 of the relief): a fourth-order remainder, where the
        // global curvature bound leaves a quadratic one (and the bound without the relief a cubic one, |B| x^3 / 6).
        test_support::RandomMotions random(13);
        int relieved = 0;
        for (int trial = 0; trial < 2000; ++trial) {
            const PointMotion m = random_motion(random, 3.0);
            const TurningHeightTerms t = m.terms();
            const double spin = m.spin.norm();
            const double h = spin > 0.0 ? std::min(1.0, random.uniform(0.0, 1.0) * MAX_LIFT_TURN / spin) : 0.5;
            const double x = spin * h;
            const Real relief = t.relief() * h * h * h * (1 - relief_short_of_cubic(x));
            const Real bound
                = t.height + h * t.rate - h * h * t.bend - h * h * h * t.twist() + t.lift * lift_at_end(x) + relief;
            const double amplitude = m.arm.norm(); // >= |A|, |B|
            const Real remainder = amplitude
                * (std::pow(x, 4) / 24.0 + std::pow(x, 5) / 120.0 + std::pow(x, 6) / 720.0 + std::pow(x, 7) / 5040.0);
            const Real exact = m.height_at(h);
            ASSERT_LE(bound, exact + SLACK);
            ASSERT_GE(bound, exact - remainder - SLACK) << "trial " << trial;
            relieved += t.relief() > 0.0 && x > 0.1;
        }
        EXPECT_GT(relieved, 300);
    }

    /// A still point seen from a body that turns (spin -w) and travels (d), v - s d turned by Rot(s), exactly in long
    /// double: the point's terms plus turning_travel_terms, lifts
    /// included (each lift times psi(x), which the lifts' tangent bounds from below where x <= MAX_LIFT_TURN), stay
    /// below its exact height for turns up to pi. The travel's own part, -s dir.(Rot(s) d - d), is bounded to third
    /// order, within s^3 (|A| |w|^2 / 2 + |B| |w|^3 / 6): where its turn lifts the point (B < 0), dropping the lift
    /// would leave a second-order gap, -B |w| s^2, that this fails on.
    TEST(TurningHeightBound, TravelSeenFromATurningFrameIsBounded)
    {
        test_support::RandomMotions random(14);
        int paying = 0, lifted = 0;
        for (int trial = 0; trial < 2000; ++trial) {
            const Eigen::Vector3d v = random.vector(2.0), d = random.vector(3.0), dir = random.direction();
            const Eigen::Vector3d spin = random.direction() * random.uniform(0.0, 3.0);
            const double spin_norm = spin.norm();
            const Eigen::Vector3d axis = spin / spin_norm;
            const TurningHeightTerms t = TurningDirection(dir, -d, spin, axis, spin_norm).terms(v, v);
            const details::TurningTravelTerms travel = details::turning_travel_terms(dir, d, axis, spin_norm);
            paying += travel.bend > 0.0 && travel.twist > 0.0;
            lifted += travel.lift > 0.0;
            const Vec axis_l = axis.cast<Real>(), d_l = d.cast<Real>(), dir_l = dir.cast<Real>();
            const Real radial = dir_l.dot(d_l - axis_l * axis_l.dot(d_l)), across = dir_l.dot(axis_l.cross(d_l));
            const Real third_order = std::abs(radial) * spin_norm * spin_norm / 2
                + std::abs(across) * spin_norm * spin_norm * spin_norm / 6;
            const auto turned = [&axis_l](const Vec& u, Real angle) -> Vec {
                return u * std::cos(angle) + axis_l.cross(u) * std::sin(angle)
                    + axis_l * axis_l.dot(u) * (1 - std::cos(angle));
            }; // Rot(s) u by Rodrigues' formula, in long double
            const double s_max = std::min(1.0, std::numbers::pi / spin_norm);
            for (int k = 0; k <= 200; ++k) {
                const double s = s_max * k / 200.0;
                const Real x = Real(spin_norm) * s;
                const Real psi = x * x / 2 - x * x * x * x / 24;
                const Real exact = dir_l.dot(turned(v.cast<Real>() - Real(s) * d_l, x));
                const Real bound = t.height + s * t.rate - s * s * (t.bend + travel.bend)
                    - s * s * s * (t.twist() + travel.twist) + (t.lift + travel.lift) * psi;
                ASSERT_LE(bound, exact + SLACK) << "trial " << trial << " s " << s;
                const Real travel_exact = -Real(s) * dir_l.dot(turned(d_l, x) - d_l);
                const Real travel_bound = -s * s * travel.bend - s * s * s * travel.twist + travel.lift * psi;
                ASSERT_LE(travel_bound, travel_exact + SLACK) << "trial " << trial << " s " << s;
                ASSERT_LE(travel_exact - travel_bound, s * s * s * third_order + SLACK)
                    << "trial " << trial << " s " << s;
            }
        }
        EXPECT_GT(paying, 300); // (about a quarter of the travels pay both terms)
        EXPECT_GT(lifted, 800); // (about half are lifted by the travel's turn)
    }

    /// The travel's rise (where its turn raises the still point, A > 0) through its tangent at the end of [0, h], as
    /// the model takes it: rise (h psi(x_h) + (s - h) (psi(x_h) + h |w| psi'(x_h))) stays below the exact raise
    /// s A (1 - cos x) on [0, h] wherever x_h <= MAX_LIFT_TURN, and at h it leaves only a seventh-order gap,
    /// rise h x^6 / 720 (without it the whole raise, third order, is left out).
    TEST(TurningHeightBound, TravelRiseThroughItsTangentIsBounded)
    {
        test_support::RandomMotions random(15);
        int rising = 0;
        for (int trial = 0; trial < 2000; ++trial) {
            const Eigen::Vector3d d = random.vector(3.0), dir = random.direction();
            const Eigen::Vector3d spin = random.direction() * random.uniform(0.01, 3.0);
            const double spin_norm = spin.norm();
            const Eigen::Vector3d axis = spin / spin_norm;
            const details::TurningTravelTerms travel = details::turning_travel_terms(dir, d, axis, spin_norm);
            const Vec axis_l = axis.cast<Real>(), d_l = d.cast<Real>(), dir_l = dir.cast<Real>();
            const Real radial = dir_l.dot(d_l - axis_l * axis_l.dot(d_l));
            ASSERT_NEAR(static_cast<double>(std::max(radial, Real(0))), travel.rise, 1e-12);
            rising += travel.rise > 0.0;
            const double h = std::min(1.0, random.uniform(0.0, 1.0) * MAX_LIFT_TURN / spin_norm);
            const double x_h = spin_norm * h;
            const Real at_end = travel.rise * h * lift_at_end(x_h);
            const Real slope = travel.rise * (lift_at_end(x_h) + h * lift_slope_at_end(x_h, spin_norm));
            for (int k = 0; k <= 100; ++k) {
                const double s = h * k / 100.0;
                const Real exact = Real(s) * std::max(radial, Real(0)) * (1 - std::cos(Real(spin_norm) * s));
                ASSERT_LE(at_end + (s - h) * slope, exact + SLACK) << "trial " << trial << " s " << s;
            }
            const Real exact_at_end = Real(h) * std::max(radial, Real(0)) * (1 - std::cos(Real(x_h)));
            ASSERT_LE(exact_at_end - at_end, travel.rise * h * std::pow(x_h, 6) / 720 + SLACK) << "trial " << trial;
        }
        EXPECT_GT(rising, 800); // (about half the travels raise the point)
    }

    TEST(TurningHeightBound, NoTurnIsExactLines)
    {
        test_support::RandomMotions random(14);
        for (int trial = 0; trial < 100; ++trial) {
            PointMotion m = random_motion(random, 1.0);
            m.spin.setZero();
            const TurningHeightTerms t = m.terms();
            EXPECT_EQ(t.bend, 0.0);
            EXPECT_EQ(t.cubic, 0.0);
            for (int k = 0; k <= 10; ++k) {
                const double s = k / 10.0;
                EXPECT_NEAR(static_cast<double>(t.height + s * t.rate - m.height_at(s)), 0.0, 1e-12);
            }
        }
    }

} // namespace
} // namespace ccdkit
