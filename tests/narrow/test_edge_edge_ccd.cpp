// SPDX-License-Identifier: MIT
#include "narrow/ccd_test_support.hpp"

#include <cmath>
#include <limits>
#include <utility>

using namespace ccdkit;
using ccdkit::test::agrees_with_oracle;
using ccdkit::test::Points;
using V = Eigen::Vector3d;

namespace {
/// Edge a fixed on the x axis from (0,0,0) to (1,0,0); edge b moves rigidly by `shift`.
Points moving_b(const V& b0, const V& b1, const V& shift)
{
    const V a0(0, 0, 0), a1(1, 0, 0);
    return { a0, a1, b0, b1, a0, a1, V(b0 + shift), V(b1 + shift) };
}

CcdResult ee(const Points& x, const CcdOptions& options = {})
{
    return edge_edge_ccd(test::edge_edge_motion(x), options);
}
} // namespace

TEST(EdgeEdgeCcd, CrossingEdges)
{
    // b is parallel to y at height z = 1, moving down by 4: crosses a at t = 1/4.
    const Points x = moving_b(V(0.5, -1, 1), V(0.5, 1, 1), V(0, 0, -4));
    const CcdResult r = ee(x);
    EXPECT_TRUE(r.hit);
    EXPECT_LE(r.toi_lower, 0.25);
    EXPECT_GE(r.toi_upper, 0.25);
    EXPECT_NEAR(r.contact[0], 0.5, 1e-6);
    EXPECT_NEAR(r.contact[1], 0.5, 1e-6);
    // Edge a starts below b: the normal points down, towards a, and a approaches b at relative speed 4.
    EXPECT_NEAR(r.normal[2], -1.0, 1e-12);
    EXPECT_NEAR(r.normal_velocity, -4.0, 1e-9);
    EXPECT_TRUE(agrees_with_oracle(false, x));
}

TEST(EdgeEdgeCcd, MissingEdges)
{
    const Points x = moving_b(V(1.5, -1, 1), V(1.5, 1, 1), V(0, 0, -4));
    EXPECT_FALSE(ee(x).hit);
    EXPECT_TRUE(agrees_with_oracle(false, x));
}

TEST(EdgeEdgeCcd, ParallelEdges)
{
    // Parallel, passing above: never touch. Parallel, coming down onto a, overlapping: touch at t = 1/2.
    const Points above = moving_b(V(0.5, 1, 1), V(1.5, 1, 1), V(0, -1, 0));
    EXPECT_FALSE(ee(above).hit);
    EXPECT_TRUE(agrees_with_oracle(false, above));
    const Points onto = moving_b(V(0.5, 0, 1), V(1.5, 0, 1), V(0, 0, -2));
    const CcdResult r = ee(onto);
    EXPECT_TRUE(r.hit);
    EXPECT_LE(r.toi_lower, 0.5);
    EXPECT_GE(r.toi_upper, 0.5);
    EXPECT_TRUE(agrees_with_oracle(false, onto));
    // Parallel, coming down beside a (collinear at t = 1/2 but disjoint): no contact.
    const Points beside = moving_b(V(1.5, 0, 1), V(2.5, 0, 1), V(0, 0, -2));
    EXPECT_FALSE(ee(beside).hit);
    EXPECT_TRUE(agrees_with_oracle(false, beside));
}

TEST(EdgeEdgeCcd, CollinearEdges)
{
    // Collinear all the time, sliding along the line into overlap at t = 1/2.
    const Points slide = moving_b(V(2, 0, 0), V(3, 0, 0), V(-2, 0, 0));
    const CcdResult r = ee(slide);
    EXPECT_TRUE(r.hit);
    EXPECT_LE(r.toi_lower, 0.5);
    EXPECT_GE(r.toi_upper, 0.5);
    EXPECT_TRUE(agrees_with_oracle(false, slide));
    const Points short_slide = moving_b(V(2, 0, 0), V(3, 0, 0), V(-0.5, 0, 0));
    EXPECT_FALSE(ee(short_slide).hit);
    EXPECT_TRUE(agrees_with_oracle(false, short_slide));
    const Points overlap = moving_b(V(0.5, 0, 0), V(3, 0, 0), V(0, 0, 0));
    EXPECT_EQ(ee(overlap).status, CcdStatus::INITIALLY_TOUCHING);
    EXPECT_TRUE(agrees_with_oracle(false, overlap));
}

TEST(EdgeEdgeCcd, ZeroLengthEdges)
{
    // b is a point falling through a: a contact; falling beside it: none.
    const Points through = moving_b(V(0.5, 0, 1), V(0.5, 0, 1), V(0, 0, -2));
    EXPECT_TRUE(ee(through).hit);
    EXPECT_TRUE(agrees_with_oracle(false, through));
    const Points beside = moving_b(V(1.5, 0, 1), V(1.5, 0, 1), V(0, 0, -2));
    EXPECT_FALSE(ee(beside).hit);
    EXPECT_TRUE(agrees_with_oracle(false, beside));
    // Both are points: they meet only if they coincide at some time.
    const Points meet {
        V(0, 0, 0), V(0, 0, 0), V(1, 1, 1), V(1, 1, 1), V(1, 1, 1), V(1, 1, 1), V(0, 0, 0), V(0, 0, 0)
    };
    EXPECT_TRUE(ee(meet).hit);
    EXPECT_TRUE(agrees_with_oracle(false, meet));
    const Points pass {
        V(0, 0, 0), V(0, 0, 0), V(1, 1, 1), V(1, 1, 1), V(1, 1, 0), V(1, 1, 0), V(0, 0, 1), V(0, 0, 1)
    };
    EXPECT_FALSE(ee(pass).hit);
    EXPECT_TRUE(agrees_with_oracle(false, pass));
}

TEST(EdgeEdgeCcd, EndpointContactAtTheEnd)
{
    // b's endpoint reaches a's endpoint (1,0,0) exactly at t = 1.
    const Points x = moving_b(V(1, 1, 1), V(2, 2, 1), V(0, -1, -1));
    const CcdResult r = ee(x);
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.toi_upper, 1.0);
    EXPECT_TRUE(agrees_with_oracle(false, x));
    const Points short_of = moving_b(V(1, 1, 1), V(2, 2, 1), V(0, -1, -1 + 0x1p-52));
    EXPECT_FALSE(ee(short_of).hit);
    EXPECT_TRUE(agrees_with_oracle(false, short_of));
}

TEST(EdgeEdgeCcd, SharedEndpointTouchesAtStart)
{
    const Points x { V(0, 0, 0), V(1, 0, 0), V(0, 0, 0), V(0, 1, 0), V(0, 0, 0), V(1, 0, 0), V(0, 0, 0), V(0, 0, 1) };
    const CcdResult r = ee(x);
    EXPECT_EQ(r.status, CcdStatus::INITIALLY_TOUCHING);
    EXPECT_EQ(r.toi_lower, 0.0);
    EXPECT_TRUE(agrees_with_oracle(false, x));
}

TEST(EdgeEdgeCcd, SeparatingAfterContactAtStart)
{
    // a rises from b's plane, where the two cross at t = 0.
    const Points x { V(0, 0, 0), V(1, 0, 0), V(0.5, -1, 0), V(0.5, 1, 0),
                     V(0, 0, 1), V(1, 0, 1), V(0.5, -1, 0), V(0.5, 1, 0) };
    EXPECT_TRUE(agrees_with_oracle(false, x));
    EXPECT_EQ(ee(x).status, CcdStatus::INITIALLY_TOUCHING);
}

TEST(EdgeEdgeCcd, HugeAndTinyCoordinates)
{
    for (const int e : { -1000, -500, 500, 1000 }) {
        SCOPED_TRACE(e);
        const double s = std::ldexp(1.0, e);
        Points hit = moving_b(V(0.5, -1, 1), V(0.5, 1, 1), V(0, 0, -4));
        Points grazing = moving_b(V(1, -1, 1), V(1, 1, 1), V(0, 0, -4));
        Points miss = moving_b(V(1 + 0x1p-52, -1, 1), V(1 + 0x1p-52, 1, 1), V(0, 0, -4));
        for (auto* x : { &hit, &grazing, &miss }) {
            for (auto& p : *x) {
                p *= s;
            }
        }
        EXPECT_TRUE(ee(hit).hit);
        EXPECT_TRUE(ee(grazing).hit);
        EXPECT_FALSE(ee(miss).hit);
        EXPECT_TRUE(agrees_with_oracle(false, grazing));
        EXPECT_TRUE(agrees_with_oracle(false, miss));
    }
}

TEST(EdgeEdgeCcd, SubnormalAndHugeCoordinatesInOneQuery)
{
    // Edge a from the origin to (2^1000, 0, 0); edge b parallel to y falls through z = 0 at t = 1/4 at
    // x = the smallest subnormal on either side of a's end at the origin (coordinates over 2000 bits apart).
    const double tiny = std::numeric_limits<double>::denorm_min(), huge = std::ldexp(1.0, 1000);
    const V a0(0, 0, 0), a1(huge, 0, 0);
    for (const auto& [x, touches] : { std::pair { tiny, true }, std::pair { -tiny, false }, std::pair { 0.0, true } }) {
        SCOPED_TRACE(x);
        const Points q { a0, a1, V(x, -huge, 1), V(x, huge, 1), a0, a1, V(x, -huge, -3), V(x, huge, -3) };
        EXPECT_EQ(ee(q).hit, touches);
        EXPECT_TRUE(agrees_with_oracle(false, q));
    }
}

TEST(EdgeEdgeCcd, InvalidInput)
{
    Points x = moving_b(V(0.5, -1, 1), V(0.5, 1, 1), V(0, 0, -4));
    x[7][2] = -std::numeric_limits<double>::infinity();
    EXPECT_EQ(ee(x).status, CcdStatus::INVALID_INPUT);
    EXPECT_FALSE(ee(x).hit);
}
