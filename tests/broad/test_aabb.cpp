// SPDX-License-Identifier: MIT
#include <ccdkit/broad/aabb.hpp>

#include <gtest/gtest.h>

#include <limits>

using namespace ccdkit;

namespace {
Aabb box(double x0, double y0, double z0, double x1, double y1, double z1)
{
    return { Eigen::Array3d(x0, y0, z0), Eigen::Array3d(x1, y1, z1) };
}
} // namespace

TEST(Aabb, TouchingBoxesOverlap)
{
    EXPECT_TRUE(overlaps(box(0, 0, 0, 1, 1, 1), box(1, 1, 1, 2, 2, 2)));
    EXPECT_TRUE(overlaps(box(0, 0, 0, 0, 0, 0), box(0, 0, 0, 0, 0, 0)));
    EXPECT_FALSE(overlaps(box(0, 0, 0, 1, 1, 1), box(std::nextafter(1.0, 2.0), 0, 0, 2, 1, 1)));
    EXPECT_FALSE(overlaps(box(0, 0, 0, 1, 1, 1), box(0, 0, -2, 1, 1, std::nextafter(0.0, -1.0))));
}

TEST(Aabb, SweptBoxesHoldBothEnds)
{
    Eigen::MatrixX3d v0(3, 3), v1(3, 3);
    v0 << 0, 0, 0, 1, 0, 0, 0, 1, 0;
    v1 << 0, 0, -1, 2, 0, 0, 0, 3, 5;
    const auto vb = vertex_boxes(v0, v1);
    ASSERT_EQ(vb.size(), 3U);
    EXPECT_TRUE((vb[0].min == Eigen::Array3d(0, 0, -1)).all());
    EXPECT_TRUE((vb[0].max == Eigen::Array3d(0, 0, 0)).all());
    Eigen::MatrixX2i e(1, 2);
    e << 1, 2;
    const auto eb = edge_boxes(v0, v1, e);
    EXPECT_TRUE((eb[0].min == Eigen::Array3d(0, 0, 0)).all());
    EXPECT_TRUE((eb[0].max == Eigen::Array3d(2, 3, 5)).all());
    Eigen::MatrixX3i f(1, 3);
    f << 0, 1, 2;
    const auto fb = face_boxes(v0, v1, f);
    EXPECT_TRUE((fb[0].min == Eigen::Array3d(0, 0, -1)).all());
    EXPECT_TRUE((fb[0].max == Eigen::Array3d(2, 3, 5)).all());
}

TEST(Aabb, InflationRoundsOutward)
{
    // The exact sums of these doubles fit in a long double (64-bit significand), so they serve as the
    // reference; rounding to nearest alone would put some bounds inside the exact box.
    Eigen::MatrixX3d v(1, 3);
    v << 0.1, -0.3, 1e300;
    const double d = 0.2;
    const auto b = vertex_boxes(v, v, d)[0];
    using Exact = long double;
    if (std::numeric_limits<Exact>::digits < 64) {
        GTEST_SKIP() << "needs a long double of at least 64 significant bits";
    }
    EXPECT_LE(Exact(b.min[0]), Exact(0.1) - Exact(d));
    EXPECT_GE(Exact(b.max[0]), Exact(0.1) + Exact(d));
    EXPECT_LE(Exact(b.min[1]), Exact(-0.3) - Exact(d));
    EXPECT_GE(Exact(b.max[1]), Exact(-0.3) + Exact(d));
    EXPECT_GT(b.max[2], 1e300); // d is far below half an ulp of 1e300, yet the box still grows
    EXPECT_LT(b.min[2], 1e300);
}

TEST(Aabb, InflationNearTheLargestDoubleGivesInfiniteBounds)
{
    const double big = std::numeric_limits<double>::max();
    Eigen::MatrixX3d v(1, 3);
    v << big, -big, 0;
    const auto b = vertex_boxes(v, v, big)[0];
    EXPECT_EQ(b.max[0], std::numeric_limits<double>::infinity());
    EXPECT_EQ(b.min[1], -std::numeric_limits<double>::infinity());
}
