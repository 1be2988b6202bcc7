// SPDX-License-Identifier: MIT
#include "narrow/details/simplex_intersection.hpp"
#include "rigid/details/projected_separation.hpp"

#include <gtest/gtest.h>

#include <array>
#include <random>

namespace ccdkit {
namespace {

    /// The exact test (SimplexIntersection, without its filter) on the segment (points 0, 1) and triangle (2 to 4).
    bool meet_exactly(const std::array<Eigen::Vector3d, 5>& points)
    {
        const auto simplex_of = [&](std::size_t first, int size) {
            details::Simplex simplex;
            simplex.size = size;
            for (int k = 0; k < size; ++k) {
                const Eigen::Vector3d& p = points[first + static_cast<std::size_t>(k)];
                simplex.vertex[static_cast<std::size_t>(k)].x = { p.x(), p.y(), p.z(), 0.0 };
            }
            return simplex;
        };
        details::SimplexIntersection intersection(3, false);
        return intersection.intersect(simplex_of(0, 2), simplex_of(2, 3));
    }

    /// Segments against triangles in one plane (tilted, so that its points are rounded off it, or exactly in
    /// z = c with coordinates on a coarse grid: touching at corners, along sides, collinear overlaps, zero-length
    /// segments, collapsed triangles) and in general position: "apart" is never said of a pair that meets (the
    /// exact test decides), and it is said of most pairs in a plane that are apart.
    TEST(ProjectedSeparation, ApartOnlyWhenTheExactTestSaysApart)
    {
        std::mt19937_64 rng(1124);
        std::uniform_int_distribution<int> grid(-4, 4);
        std::uniform_real_distribution<double> uniform(-0.9, 0.9);
        int apart = 0, said_apart = 0;
        for (int trial = 0; trial < 20000; ++trial) {
            std::array<Eigen::Vector3d, 5> points;
            const int kind = trial % 3;
            const Eigen::Vector3d u = Eigen::Vector3d(uniform(rng), uniform(rng), uniform(rng)).normalized() * 0.6;
            const Eigen::Vector3d v
                = u.cross(Eigen::Vector3d(uniform(rng), uniform(rng), uniform(rng))).normalized() * 0.6;
            for (auto& p : points) {
                switch (kind) {
                case 0: // exactly in a plane z = c, on a grid: many exact touchings
                    p = Eigen::Vector3d(grid(rng) / 8.0, grid(rng) / 8.0, 0.25);
                    break;
                case 1: // a tilted plane, rounded
                    p = u * uniform(rng) + v * uniform(rng);
                    break;
                default:
                    p = Eigen::Vector3d(uniform(rng), uniform(rng), uniform(rng));
                    break;
                }
            }
            if (trial % 50 == 0) {
                points[1] = points[0]; // a point
            }
            if (trial % 70 == 0) {
                points[4] = points[3]; // a collapsed triangle
            }
            const bool meet = meet_exactly(points);
            const bool certainly_apart = details::apart_in_projection(points);
            ASSERT_FALSE(meet && certainly_apart) << "trial " << trial;
            if (kind != 2 && !meet) {
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
