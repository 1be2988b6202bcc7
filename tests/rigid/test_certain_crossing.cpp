// SPDX-License-Identifier: MIT
#include "exact_segment_triangle.hpp"
#include "rigid/details/certain_crossing.hpp"

#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <random>

namespace ccdkit {
namespace {

    using test_support::random_segment_triangle;
    using test_support::segment_meets_triangle_exactly;
    using test_support::SegmentTriangleKind;

    /// Segments against triangles exactly in one plane (a coarse grid: touching, collinear, degenerate), in a
    /// tilted plane rounded off it, a hair off such a plane, and in general position: a decided answer is always
    /// the exact test's, and the rounded and general ones (what resting bodies produce) are mostly decided.
    TEST(CertainCrossing, DecidedAnswersAreTheExactOnes)
    {
        std::mt19937_64 rng(2411);
        constexpr std::array<SegmentTriangleKind, 4> KINDS { SegmentTriangleKind::GRID_PLANE,
                                                             SegmentTriangleKind::ROUNDED_PLANE,
                                                             SegmentTriangleKind::NEAR_PLANE,
                                                             SegmentTriangleKind::GENERAL };
        std::array<int, KINDS.size()> trials {}, decided {}, meets {};
        for (int trial = 0; trial < 40000; ++trial) {
            const auto k = static_cast<std::size_t>(trial) % KINDS.size();
            const std::array<Eigen::Vector3d, 5> points = random_segment_triangle(rng, KINDS[k], trial);
            const bool meet = segment_meets_triangle_exactly(points);
            const std::optional<bool> certain = details::certain_segment_meets_triangle(points);
            ++trials[k];
            meets[k] += meet;
            if (certain) {
                ASSERT_EQ(*certain, meet) << "trial " << trial;
                ++decided[k];
            }
        }
        for (std::size_t k = 1; k < KINDS.size(); ++k) {
            EXPECT_GT(decided[k], 9 * trials[k] / 10) << "kind " << k;
        }
        for (std::size_t k = 0; k < KINDS.size(); ++k) {
            EXPECT_GT(meets[k], 0) << "kind " << k; // (both answers occur)
            EXPECT_LT(meets[k], trials[k]) << "kind " << k;
        }
    }

    TEST(CertainCrossing, TouchingIsLeftToTheExactTest)
    {
        const Eigen::Vector3d t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0);
        const auto certain = [&](const Eigen::Vector3d& s0, const Eigen::Vector3d& s1) {
            return details::certain_segment_meets_triangle({ s0, s1, t0, t1, t2 });
        };
        EXPECT_EQ(certain({ 0.25, 0.25, 1 }, { 0.25, 0.25, -1 }), std::optional<bool>(true)); // through the inside
        EXPECT_EQ(certain({ 1, 1, 1 }, { 1, 1, -1 }), std::optional<bool>(false)); // through the plane, outside
        EXPECT_EQ(certain({ 0.2, 0.2, 1 }, { 0.2, 0.2, 2 }), std::optional<bool>(false)); // above
        EXPECT_EQ(certain({ 2, -0.5, 1 }, { -0.5, 2, -1 }), std::optional<bool>(false)); // past the hypotenuse
        EXPECT_EQ(certain({ 2, -1, 1 }, { -1, 2, -1 }), std::nullopt); // through the hypotenuse
        EXPECT_EQ(certain({ 0, 0, 1 }, { 0, 0, -1 }), std::nullopt); // through a corner
        EXPECT_EQ(certain({ 0.5, 0, 1 }, { 0.5, 0, -1 }), std::nullopt); // through a side
        EXPECT_EQ(certain({ 0.2, 0.2, 0 }, { 0.2, 0.2, 1 }), std::nullopt); // an end on the triangle
        EXPECT_EQ(certain({ 2, 2, 0 }, { 2, 2, 1 }), std::nullopt); // an end in the plane, outside
        EXPECT_EQ(certain({ -1, 0.2, 0 }, { 2, 0.2, 0 }), std::nullopt); // in the plane
        EXPECT_EQ(certain({ 0.25, 0.25, 1e-300 }, { 0.25, 0.25, -1e-300 }), std::optional<bool>(true)); // a hair
    }

} // namespace
} // namespace ccdkit
