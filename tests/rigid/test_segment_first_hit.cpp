// SPDX-License-Identifier: MIT
#include <ccdkit/rigid/segment_first_hit.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <stdexcept>

namespace ccdkit {
namespace {

    TEST(SegmentFirstHit, StopsJustBeforeASphereAndNeverPastIt)
    {
        const ImplicitShape sphere = ImplicitShape::sphere(1.0);
        std::mt19937_64 rng(2);
        std::uniform_real_distribution<double> u(-1, 1);
        for (const double scale : { 1e-6, 1.0, 1e6 }) {
            const ImplicitShape scaled = ImplicitShape::sphere(scale);
            for (int k = 0; k < 500; ++k) {
                const Eigen::Vector3d from = Eigen::Vector3d(-3, u(rng), u(rng)) * scale;
                const Eigen::Vector3d to = Eigen::Vector3d(3, u(rng), u(rng)) * scale;
                const double tolerance = 1e-9 * scale;
                const SegmentHit hit = segment_first_hit(scaled, from, to, tolerance);
                // Exact first parameter where |from + s d| = r (the smaller root), if any.
                const Eigen::Vector3d d = to - from;
                const double a = d.squaredNorm(), b = 2 * from.dot(d), c = from.squaredNorm() - scale * scale;
                const double disc = b * b - 4 * a * c;
                SCOPED_TRACE(k);
                if (disc < 0) {
                    EXPECT_FALSE(hit.hit);
                    continue;
                }
                const double first = (-b - std::sqrt(disc)) / (2 * a);
                ASSERT_TRUE(hit.hit);
                EXPECT_LE(hit.fraction, first * (1 + 1e-12));
                EXPECT_LE(hit.point.norm() - scale, 2 * tolerance + 1e-12 * scale); // stopped next to the surface
                EXPECT_NEAR(hit.normal.dot(hit.point.normalized()), 1.0, 1e-9);
            }
        }
        EXPECT_FALSE(segment_first_hit(sphere, { -3, 1.5, 0 }, { 3, 1.5, 0 }, 1e-9).hit);
        const SegmentHit inside = segment_first_hit(sphere, { 0, 0, 0 }, { 3, 0, 0 }, 1e-9);
        EXPECT_TRUE(inside.hit);
        EXPECT_EQ(inside.fraction, 0.0);
    }

    TEST(SegmentFirstHit, PassesThroughAHoleAndHitsTheRim)
    {
        const ImplicitShape plate = subtract(ImplicitShape::box({ 2, 2, 0.1 }), ImplicitShape::box({ 0.3, 0.3, 1 }));
        EXPECT_FALSE(segment_first_hit(plate, { 0, 0, 2 }, { 0, 0, -2 }, 1e-9).hit);
        const SegmentHit rim = segment_first_hit(plate, { 1, 0, 2 }, { 1, 0, -2 }, 1e-9);
        ASSERT_TRUE(rim.hit);
        EXPECT_LE(rim.fraction, 1.9 / 4.0);
        EXPECT_NEAR(rim.point.z(), 0.1, 1e-8);
        EXPECT_LT((rim.normal - Eigen::Vector3d(0, 0, 1)).norm(), 1e-9);
    }

    /// A tolerance below the end points' rounding ends too (fuzzing review, twenty-eighth session: the steps fell to
    /// zero or below and the trace never returned): a ball 1e10 from the origin at a tolerance of 1e-5, and a unit
    /// ball at 1e-15 and at the least double.
    TEST(SegmentFirstHit, EndsAtToleranceBelowTheEndPointsRounding)
    {
        const Eigen::Vector3d far(1e10, 0, 0);
        const ImplicitShape far_ball
            = ImplicitShape::sphere(1.0).transformed(Eigen::Isometry3d(Eigen::Translation3d(far)));
        const ImplicitShape ball = ImplicitShape::sphere(1.0);
        struct Case {
            const ImplicitShape& shape;
            Eigen::Vector3d center;
            double tolerance;
        };
        for (const Case& c : { Case { far_ball, far, 1e-5 }, Case { ball, Eigen::Vector3d::Zero(), 1e-15 },
                               Case { ball, Eigen::Vector3d::Zero(), std::numeric_limits<double>::denorm_min() } }) {
            SCOPED_TRACE(testing::Message() << "tolerance " << c.tolerance << " at " << c.center.x());
            const SegmentHit hit = segment_first_hit(
                c.shape, c.center + Eigen::Vector3d(3, 0, 0), c.center - Eigen::Vector3d(3, 0, 0), c.tolerance);
            ASSERT_TRUE(hit.hit);
            EXPECT_LE(hit.fraction, 1.0 / 3.0); // (never past the surface, at x = 1)
            EXPECT_NEAR(hit.fraction, 1.0 / 3.0, 1e-4); // (far away, within the rounding of 1e10: 3.5e-5)
            EXPECT_LT(hit.steps, 200);
        }
    }

    /// A segment grazing a face just beyond the tolerance takes about its length over its clearance in steps (fuzzing
    /// review, twenty-eighth session: 1e-9 from a box's face at a tolerance of 1e-12, for hours): past max_steps the
    /// trace stops, clear of the solid up to where it stood.
    TEST(SegmentFirstHit, StopsAfterMaxStepsAlongAGrazingSegment)
    {
        const ImplicitShape box = ImplicitShape::box({ 0.5, 0.5, 0.5 });
        const Eigen::Vector3d from(-1.0, 0.0, 0.5 + 1e-9), to(1.0, 0.0, 0.5 + 1e-9);
        const SegmentHit stopped = segment_first_hit(box, from, to, 1e-12, 1000);
        EXPECT_FALSE(stopped.hit);
        EXPECT_TRUE(stopped.stopped);
        EXPECT_EQ(stopped.steps, 1000);
        EXPECT_GT(stopped.fraction, 0.25); // (past the face's near edge, at x = -0.5)
        EXPECT_LT(stopped.fraction, 1.0);
        EXPECT_EQ(stopped.point, from + stopped.fraction * (to - from));
        EXPECT_GT(box.signed_distance(stopped.point), 0.0);
        // A segment that ends within its steps does not stop.
        const SegmentHit through
            = segment_first_hit(box, Eigen::Vector3d(-2, 0, 2), Eigen::Vector3d(2, 0, 2), 1e-6, 1000);
        EXPECT_FALSE(through.stopped);
        EXPECT_EQ(through.fraction, 1.0);
        EXPECT_THROW((void)segment_first_hit(box, from, to, 1e-12, 0), std::invalid_argument);
    }

    TEST(SegmentFirstHit, RejectsBadInput)
    {
        const ImplicitShape sphere = ImplicitShape::sphere(1.0);
        const double nan = std::numeric_limits<double>::quiet_NaN();
        EXPECT_THROW((void)segment_first_hit(sphere, { nan, 0, 0 }, { 1, 0, 0 }, 1e-9), std::invalid_argument);
        EXPECT_THROW((void)segment_first_hit(sphere, { 2, 0, 0 }, { 3, 0, 0 }, 0.0), std::invalid_argument);
        EXPECT_FALSE(segment_first_hit(sphere, { 2, 0, 0 }, { 2, 0, 0 }, 1e-9).hit); // a point outside
    }

} // namespace
} // namespace ccdkit
