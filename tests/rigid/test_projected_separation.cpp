// SPDX-License-Identifier: MIT
#include "exact_segment_triangle.hpp"
#include "rigid/details/projected_separation.hpp"

#include <gtest/gtest.h>

#include <array>
#include <random>

namespace ccdkit {
namespace {

    using test_support::random_segment_triangle;
    using test_support::segment_meets_triangle_exactly;
    using test_support::SegmentTriangleKind;

    /// Segments against triangles in one plane (tilted, so that its points are rounded off it, or exactly in
    /// z = c with coordinates on a coarse grid: touching at corners, along sides, collinear overlaps, zero-length
    /// segments, collapsed triangles) and in general position: "apart" is never said of a pair that meets (the
    /// exact test decides), and it is said of most pairs in a plane that are apart.
    TEST(ProjectedSeparation, ApartOnlyWhenTheExactTestSaysApart)
    {
        std::mt19937_64 rng(1124);
        constexpr std::array<SegmentTriangleKind, 3> KINDS { SegmentTriangleKind::GRID_PLANE,
                                                             SegmentTriangleKind::ROUNDED_PLANE,
                                                             SegmentTriangleKind::GENERAL };
        int apart = 0, said_apart = 0;
        for (int trial = 0; trial < 20000; ++trial) {
            const SegmentTriangleKind kind = KINDS[static_cast<std::size_t>(trial) % KINDS.size()];
            const std::array<Eigen::Vector3d, 5> points = random_segment_triangle(rng, kind, trial);
            const bool meet = segment_meets_triangle_exactly(points);
            const bool certainly_apart = details::apart_in_projection(points);
            ASSERT_FALSE(meet && certainly_apart) << "trial " << trial;
            if (kind != SegmentTriangleKind::GENERAL && !meet) {
                ++apart;
                said_apart += certainly_apart;
            }
        }
        EXPECT_GT(said_apart, apart / 2) << said_apart << " of " << apart;
    }

    TEST(ProjectedSeparation, TouchingIsNeverApart)
    {
        // A triangle in z = 0 and segments touching it at a corner, along a side, inside, from above; and one
        // just past a corner, which is apart.
        const Eigen::Vector3d t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0);
        const auto apart = [&](const Eigen::Vector3d& s0, const Eigen::Vector3d& s1) {
            return details::apart_in_projection({ s0, s1, t0, t1, t2 });
        };
        EXPECT_FALSE(apart({ 1, 0, 0 }, { 2, 0, 0 })); // collinear, from the corner
        EXPECT_FALSE(apart({ 1, 0, 0 }, { 2, 1, 0 })); // from the corner
        EXPECT_FALSE(apart({ 0.5, 0.5, 0 }, { 1, 1, 0 })); // from the hypotenuse
        EXPECT_FALSE(apart({ 0.25, 0.25, 1 }, { 0.25, 0.25, -1 })); // through the inside
        EXPECT_FALSE(apart({ 0.25, 0.25, 0 }, { 0.25, 0.25, 0 })); // a point inside
        EXPECT_FALSE(apart({ -1, 0, 0 }, { 2, 0, 0 })); // along a side, past both ends
        EXPECT_TRUE(apart({ 1.001, 0, 0 }, { 2, 0, 0 }));
        EXPECT_TRUE(apart({ 1, 1, 0 }, { 1, 1, 5 }));
    }

} // namespace
} // namespace ccdkit
