// SPDX-License-Identifier: MIT
#include "rigid/details/contact_geometry.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace ccdkit {
namespace {

    /// Random vertex-triangle and edge-edge pairs at several scales, with slivers and nearly parallel edges among
    /// them: the cheap bound never exceeds the computed gap by more than its stated rounding (a pruning that
    /// trusted a larger bound would drop contacts), and it is not vacuous where the pair is well shaped.
    TEST(ContactGeometry, GapLowerBoundNeverExceedsTheGap)
    {
        std::mt19937_64 rng(3);
        std::uniform_real_distribution<double> u(-1, 1);
        const auto point = [&](double scale) -> Eigen::Vector3d {
            const double x = u(rng), y = u(rng), z = u(rng);
            return Eigen::Vector3d(x, y, z) * scale;
        };
        int useful = 0;
        for (const double scale : { 1e-3, 1.0, 1e5 }) {
            for (int k = 0; k < 20000; ++k) {
                details::PosedPair posed;
                posed.edges = k % 2 == 0;
                for (auto& x : posed.x) {
                    x = point(scale);
                }
                for (auto& y : posed.y) {
                    y = point(scale);
                }
                // Every fourth pair nearly degenerate: a sliver triangle, or nearly parallel edges.
                if (k % 4 < 2) {
                    const double squeeze = std::pow(10.0, -1.0 - (k / 4) % 12);
                    const Eigen::Vector3d along = posed.edges ? posed.x[1] - posed.x[0] : posed.y[1] - posed.y[0];
                    auto& moved = posed.edges ? posed.y[1] : posed.y[2];
                    moved = posed.y[0] + along * u(rng) + point(scale * squeeze);
                }
                const double bound = details::gap_lower_bound(posed);
                const double gap = details::closest_offset(posed).offset.norm();
                double magnitude = 0.0;
                for (const auto* side : { &posed.x, &posed.y }) {
                    for (const auto& x : *side) {
                        magnitude = std::max(magnitude, x.cwiseAbs().maxCoeff());
                    }
                }
                ASSERT_GE(bound, 0.0);
                ASSERT_LE(bound, gap + details::GAP_BOUND_ROUNDING * magnitude) << scale << " " << k;
                useful += bound > 0.5 * gap ? 1 : 0;
            }
        }
        EXPECT_GT(useful, 10000);
    }

    TEST(ContactGeometry, GapLowerBoundIsZeroWhereItCannotBeTrusted)
    {
        details::PosedPair parallel;
        parallel.edges = true;
        parallel.x = { Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 0, 0), Eigen::Vector3d::Zero() };
        parallel.y = { Eigen::Vector3d(0, 1, 0), Eigen::Vector3d(1, 1, 1e-9), Eigen::Vector3d::Zero() };
        EXPECT_EQ(details::gap_lower_bound(parallel), 0.0);
        details::PosedPair huge = parallel;
        huge.y[1] = Eigen::Vector3d(0, 1, 1);
        for (auto* side : { &huge.x, &huge.y }) {
            for (auto& x : *side) {
                x *= 1e150;
            }
        }
        EXPECT_EQ(details::gap_lower_bound(huge), 0.0); // squares overflow
        details::PosedPair tiny = parallel;
        tiny.y[1] = Eigen::Vector3d(0, 1, 1);
        for (auto* side : { &tiny.x, &tiny.y }) {
            for (auto& x : *side) {
                x *= 1e-140;
            }
        }
        EXPECT_EQ(details::gap_lower_bound(tiny), 0.0); // squares leave the normal range
    }

    /// Edges a (along x, ending at x = 1) and b (along y, crossing x = 1 + gap at height `lift`): the lines cross
    /// (lift = 0) or nearly cross beyond a's end, so the segments' closest points are a's end and a point of b,
    /// `gap` apart along x.
    details::PosedPair edges_past_an_end(double gap, double lift)
    {
        details::PosedPair posed;
        posed.edges = true;
        posed.x = { Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 0, 0), Eigen::Vector3d::Zero() };
        posed.y
            = { Eigen::Vector3d(1 + gap, -0.5, lift), Eigen::Vector3d(1 + gap, 0.5, lift), Eigen::Vector3d::Zero() };
        return posed;
    }

    TEST(ContactGeometry, EdgeNormalFollowsTheSegmentsNotTheirLines)
    {
        // Review finding: an edge-edge pair kept within the slack of the closest contact (a large eps leaves
        // gaps of 2e-4..4e-3) took the lines' common normal (here +-z, the lines cross or nearly so) oriented by
        // the lines' side, though the segments meet past a's end along x: the normal must point along the
        // segments' closest points, from b towards a (about -x here), with the lines crossing, nearly crossing above or
        // below.
        const details::FeaturePair pair { details::PairKind::EDGE_EDGE, 0, 0 };
        for (const double lift : { 0.0, 1e-9, -1e-9 }) {
            for (const double gap : { 2e-4, 1e-3, 4e-3 }) {
                SCOPED_TRACE(testing::Message() << "lift " << lift << " gap " << gap);
                const details::PosedPair before = edges_past_an_end(2.0 * gap, lift);
                const details::PosedPair at = edges_past_an_end(gap, lift);
                const RigidContact c = details::contact_of(pair, before, at);
                EXPECT_LT((c.normal - Eigen::Vector3d(-gap, 0, -lift).normalized()).norm(), 1e-12)
                    << c.normal.transpose();
                EXPECT_NEAR(c.gap, std::hypot(gap, lift), 1e-15);
            }
        }
    }

    TEST(ContactGeometry, EdgeNormalOfCrossingSegmentsIsTheirCommonNormal)
    {
        // Segments whose closest points are inside both keep the exact common normal (no rounding of closest
        // points in it), turned to the side a came from: a above b gives +z, below gives -z.
        const details::FeaturePair pair { details::PairKind::EDGE_EDGE, 0, 0 };
        for (const double side : { 1.0, -1.0 }) {
            details::PosedPair at;
            at.edges = true;
            at.x = { Eigen::Vector3d(-1, 0, side * 1e-3), Eigen::Vector3d(1, 0, side * 1e-3), Eigen::Vector3d::Zero() };
            at.y = { Eigen::Vector3d(0, -1, 0), Eigen::Vector3d(0, 1, 0), Eigen::Vector3d::Zero() };
            details::PosedPair before = at;
            before.x[0].z() *= 2.0;
            before.x[1].z() *= 2.0;
            const RigidContact c = details::contact_of(pair, before, at);
            EXPECT_EQ(c.normal, Eigen::Vector3d(0, 0, side));
            // Touching (gap 0): the side they came from decides.
            at.x[0].z() = at.x[1].z() = 0.0;
            EXPECT_EQ(details::contact_of(pair, before, at).normal, Eigen::Vector3d(0, 0, side));
        }
    }

} // namespace
} // namespace ccdkit
