// SPDX-License-Identifier: MIT
#include "narrow/ccd_test_support.hpp"

#include <cmath>
#include <limits>
#include <tuple>

using namespace ccdkit;
using ccdkit::test::agrees_with_oracle;
using ccdkit::test::Points;

namespace {
/// Triangle (0,0,0), (1,0,0), (0,1,0) at rest; the vertex moves from `from` to `to`.
Points vertex_through_unit_triangle(const Eigen::Vector3d& from, const Eigen::Vector3d& to)
{
    const Eigen::Vector3d a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
    return { from, a, b, c, to, a, b, c };
}

CcdResult vf(const Points& x, const CcdOptions& options = {})
{
    return vertex_face_ccd(test::vertex_face_motion(x), options);
}
} // namespace

TEST(VertexFaceCcd, PassesThroughInterior)
{
    const Points x = vertex_through_unit_triangle({ 0.25, 0.25, 1 }, { 0.25, 0.25, -1 });
    const CcdResult r = vf(x);
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.status, CcdStatus::HIT);
    EXPECT_LE(r.toi_lower, 0.5);
    EXPECT_GE(r.toi_upper, 0.5);
    EXPECT_LE(r.toi_upper - r.toi_lower, 1e-6);
    EXPECT_NEAR(r.contact[0], 0.5, 1e-6);
    EXPECT_NEAR(r.contact[1], 0.25, 1e-6);
    // The normal points to the side the vertex comes from; approaching gives a negative normal velocity.
    EXPECT_NEAR(r.normal[2], 1.0, 1e-12);
    EXPECT_NEAR(r.normal_velocity, -2.0, 1e-9);
    EXPECT_EQ(r.decided_by, DecidedBy::FILTER);
    EXPECT_TRUE(agrees_with_oracle(true, x));
}

TEST(VertexFaceCcd, PassesBeside)
{
    const Points x = vertex_through_unit_triangle({ 0.75, 0.75, 1 }, { 0.75, 0.75, -1 });
    EXPECT_FALSE(vf(x).hit);
    EXPECT_TRUE(agrees_with_oracle(true, x));
}

TEST(VertexFaceCcd, TouchesEdgeExactly)
{
    // Crosses the plane at t = 1/2 exactly on the hypotenuse x + y = 1: a contact.
    const Points x = vertex_through_unit_triangle({ 0.5, 0.5, 1 }, { 0.5, 0.5, -1 });
    const CcdResult r = vf(x);
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.decided_by, DecidedBy::EXACT);
    EXPECT_TRUE(agrees_with_oracle(true, x));
    // The smallest step outwards misses.
    const double out = std::nextafter(0.5, 1.0);
    const Points y = vertex_through_unit_triangle({ out, 0.5, 1 }, { out, 0.5, -1 });
    EXPECT_FALSE(vf(y).hit);
    EXPECT_TRUE(agrees_with_oracle(true, y));
}

TEST(VertexFaceCcd, TouchesVertexExactlyAtEnd)
{
    const Points x = vertex_through_unit_triangle({ 1, 0, 1 }, { 1, 0, 0 });
    const CcdResult r = vf(x);
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.toi_upper, 1.0);
    EXPECT_TRUE(agrees_with_oracle(true, x));
    // Stopping just short of the plane misses.
    const Points y = vertex_through_unit_triangle({ 1, 0, 1 }, { 1, 0, std::numeric_limits<double>::denorm_min() });
    EXPECT_FALSE(vf(y).hit);
    EXPECT_TRUE(agrees_with_oracle(true, y));
}

TEST(VertexFaceCcd, InitiallyTouching)
{
    const Points x = vertex_through_unit_triangle({ 0.25, 0.25, 0 }, { 0.25, 0.25, 1 });
    const CcdResult r = vf(x);
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.status, CcdStatus::INITIALLY_TOUCHING);
    EXPECT_EQ(r.toi_lower, 0.0);
    EXPECT_TRUE(agrees_with_oracle(true, x));
}

TEST(VertexFaceCcd, CoplanarMotion)
{
    // Slides in the triangle's plane from outside to inside: contact when it crosses the hypotenuse at t = 1/2.
    const Points in = vertex_through_unit_triangle({ 1, 1, 0 }, { 0, 0, 0 });
    const CcdResult r = vf(in);
    EXPECT_TRUE(r.hit);
    EXPECT_LE(r.toi_lower, 0.5);
    EXPECT_GE(r.toi_upper, 0.5);
    EXPECT_TRUE(agrees_with_oracle(true, in));
    // Slides in the plane, parallel to the hypotenuse and outside.
    const Points beside = vertex_through_unit_triangle({ 2, 0, 0 }, { 0, 2, 0 });
    EXPECT_FALSE(vf(beside).hit);
    EXPECT_TRUE(agrees_with_oracle(true, beside));
    // Parallel to the plane, off it.
    const Points above = vertex_through_unit_triangle({ 1, 1, 1e-300 }, { 0, 0, 1e-300 });
    EXPECT_FALSE(vf(above).hit);
    EXPECT_TRUE(agrees_with_oracle(true, above));
}

TEST(VertexFaceCcd, NearlyCoplanarMotionIsDecidedInDoubleDouble)
{
    // A vertex sliding 2^-72 (relative) off the plane z = 3/4 x + 1/2 y of a fixed triangle: below double
    // precision's error bounds, well above double-double's. It never reaches the plane; tilted the other way at
    // the end, it crosses it at t = 1/2, inside the triangle.
    const Eigen::Vector3d a(0, 0, 0), b(1, 0, 0.75), c(0, 1, 0.5);
    const double x = 0x1p-20, off = 0x1p-72;
    const auto at = [&](double xi, double y) { return Eigen::Vector3d(xi, y, 0.75 * x + 0.5 * y); };
    const Points beside { at(x + off, 0.25), a, b, c, at(x + off, 0.5), a, b, c };
    const CcdResult miss = vf(beside);
    EXPECT_FALSE(miss.hit);
    EXPECT_EQ(miss.decided_by, DecidedBy::DOUBLE_DOUBLE);
    EXPECT_TRUE(agrees_with_oracle(true, beside));
    const Points through { at(x + off, 0.25), a, b, c, at(x - off, 0.5), a, b, c };
    const CcdResult hit = vf(through);
    EXPECT_TRUE(hit.hit);
    EXPECT_EQ(hit.decided_by, DecidedBy::DOUBLE_DOUBLE);
    EXPECT_LE(hit.toi_lower, 0.5);
    EXPECT_GE(hit.toi_upper, 0.5);
    EXPECT_TRUE(agrees_with_oracle(true, through));
}

TEST(VertexFaceCcd, FloatMethodNarrowsAContactAtTheStart)
{
    // The coplanarity function is exactly zero at t = 0: bsc-float cannot classify the first interval, and
    // keeps splitting towards 0 instead of reporting the whole step.
    const Points x = vertex_through_unit_triangle({ 0.25, 0.25, 0 }, { 0.25, 0.25, 1 });
    CcdOptions options;
    options.method = CcdMethod::BSC_FLOAT;
    const CcdResult r = vf(x, options);
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.toi_lower, 0.0);
    EXPECT_LT(r.toi_upper, 1e-3);
}

TEST(VertexFaceCcd, CollapsedTriangle)
{
    // A triangle collapsed to the segment (0,0,0)-(2,0,0); the vertex crosses the segment, then misses it.
    const Eigen::Vector3d a(0, 0, 0), b(1, 0, 0), c(2, 0, 0);
    const Points cross { Eigen::Vector3d(1.5, 1, 0), a, b, c, Eigen::Vector3d(1.5, -1, 0), a, b, c };
    EXPECT_TRUE(vf(cross).hit);
    EXPECT_TRUE(agrees_with_oracle(true, cross));
    const Points miss { Eigen::Vector3d(3, 1, 0), a, b, c, Eigen::Vector3d(3, -1, 0), a, b, c };
    EXPECT_FALSE(vf(miss).hit);
    EXPECT_TRUE(agrees_with_oracle(true, miss));
    // Collapsed to a point that the vertex passes through, and beside.
    const Points point { Eigen::Vector3d(-1, -1, -1), a, a, a, Eigen::Vector3d(1, 1, 1), a, a, a };
    EXPECT_TRUE(vf(point).hit);
    EXPECT_TRUE(agrees_with_oracle(true, point));
    const Points point_miss { Eigen::Vector3d(-1, -1, -1), a, a, a, Eigen::Vector3d(1, 1, 1.5), a, a, a };
    EXPECT_FALSE(vf(point_miss).hit);
    EXPECT_TRUE(agrees_with_oracle(true, point_miss));
}

TEST(VertexFaceCcd, TriangleCollapsesDuringStep)
{
    // The triangle flattens to a segment at t = 1/2 exactly when the vertex reaches its line, beside the
    // segment: no contact, though every inside polynomial vanishes then.
    const Points x { Eigen::Vector3d(5, 0, 1), Eigen::Vector3d(0, 0, 0),  Eigen::Vector3d(1, 0, 0),
                     Eigen::Vector3d(0, 1, 1), Eigen::Vector3d(5, 0, -1), Eigen::Vector3d(0, 0, 0),
                     Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(0, -1, -1) };
    EXPECT_FALSE(vf(x).hit);
    EXPECT_TRUE(agrees_with_oracle(true, x));
}

TEST(VertexFaceCcd, NoMotion)
{
    const Points touching = vertex_through_unit_triangle({ 0.5, 0, 0 }, { 0.5, 0, 0 });
    EXPECT_EQ(vf(touching).status, CcdStatus::INITIALLY_TOUCHING);
    EXPECT_TRUE(agrees_with_oracle(true, touching));
    const Points apart = vertex_through_unit_triangle({ 0.5, 0, 1e-30 }, { 0.5, 0, 1e-30 });
    EXPECT_FALSE(vf(apart).hit);
    EXPECT_TRUE(agrees_with_oracle(true, apart));
}

TEST(VertexFaceCcd, HugeAndTinyCoordinates)
{
    // Scaling by a power of two is exact and does not change the answer.
    for (const int e : { -1000, -500, -60, 60, 500, 1000 }) {
        SCOPED_TRACE(e);
        const double s = std::ldexp(1.0, e);
        Points hit = vertex_through_unit_triangle({ 0.25, 0.25, 1 }, { 0.25, 0.25, -1 });
        Points edge = vertex_through_unit_triangle({ 0.5, 0.5, 1 }, { 0.5, 0.5, -1 });
        Points miss = vertex_through_unit_triangle({ 0.5, 0.5 + 0x1p-52, 1 }, { 0.5, 0.5 + 0x1p-52, -1 });
        for (auto* x : { &hit, &edge, &miss }) {
            for (auto& p : *x) {
                p *= s;
            }
        }
        EXPECT_TRUE(vf(hit).hit);
        EXPECT_TRUE(vf(edge).hit);
        EXPECT_FALSE(vf(miss).hit);
        EXPECT_TRUE(agrees_with_oracle(true, edge));
        EXPECT_TRUE(agrees_with_oracle(true, miss));
    }
}

TEST(VertexFaceCcd, SubnormalAndHugeCoordinatesInOneQuery)
{
    // The exact stage scales every coordinate to an integer by one power of two: here over 2000 bits apart.
    // A triangle of legs 2^1000 in z = 0; the vertex falls through z = 0 at t = 1/2 at y = 0 (on the edge
    // (0,0,0)-(2^1000,0,0)) with x the smallest subnormal on either side of the corner, or the largest.
    const double tiny = std::numeric_limits<double>::denorm_min(), huge = std::ldexp(1.0, 1000);
    const Eigen::Vector3d a(0, 0, 0), b(huge, 0, 0), c(0, huge, 0);
    const auto falling = [&](double x, double y) {
        return Points { Eigen::Vector3d(x, y, 1), a, b, c, Eigen::Vector3d(x, y, -1), a, b, c };
    };
    for (const auto& [x, y, touches] :
         { std::tuple { tiny, 0.0, true }, std::tuple { -tiny, 0.0, false }, std::tuple { tiny, tiny, true },
           std::tuple { tiny, -tiny, false }, std::tuple { 0.0, tiny, true }, std::tuple { huge, 0.0, true },
           std::tuple { huge, tiny, false } }) {
        SCOPED_TRACE(testing::Message() << x << " " << y);
        const Points q = falling(x, y);
        EXPECT_EQ(vf(q).hit, touches);
        EXPECT_TRUE(agrees_with_oracle(true, q));
    }
}

TEST(VertexFaceCcd, TimeLimit)
{
    const Points x = vertex_through_unit_triangle({ 0.25, 0.25, 1 }, { 0.25, 0.25, -1 });
    CcdOptions options;
    options.t_max = 0.25;
    EXPECT_FALSE(vf(x, options).hit);
    EXPECT_EQ(vf(x, options).toi_lower, 0.25);
    options.t_max = 0.5; // contact exactly at t_max
    EXPECT_TRUE(vf(x, options).hit);
    EXPECT_TRUE(agrees_with_oracle(true, x, options));
}

TEST(VertexFaceCcd, ToleranceIsHonoured)
{
    const Points x = vertex_through_unit_triangle({ 0.2, 0.3, 0.7 }, { 0.1, 0.3, -0.3 });
    for (const double tol : { 1e-2, 1e-6, 1e-12 }) {
        CcdOptions options;
        options.tolerance = tol;
        EXPECT_TRUE(agrees_with_oracle(true, x, options)) << tol;
    }
}

TEST(VertexFaceCcd, InvalidInput)
{
    Points x = vertex_through_unit_triangle({ 0.25, 0.25, 1 }, { 0.25, 0.25, -1 });
    x[5][1] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(vf(x).status, CcdStatus::INVALID_INPUT);
    EXPECT_FALSE(vf(x).hit);
    x[5][1] = std::numeric_limits<double>::infinity();
    EXPECT_EQ(vf(x).status, CcdStatus::INVALID_INPUT);
    const Points ok = vertex_through_unit_triangle({ 0.25, 0.25, 1 }, { 0.25, 0.25, -1 });
    CcdOptions bad;
    bad.t_max = 0.0;
    EXPECT_EQ(vf(ok, bad).status, CcdStatus::INVALID_INPUT);
    bad.t_max = 1.0;
    bad.tolerance = 0.0;
    EXPECT_EQ(vf(ok, bad).status, CcdStatus::INVALID_INPUT);
}

TEST(VertexFaceCcd, FloatMethodAgreesOnClearCases)
{
    CcdOptions options;
    options.method = CcdMethod::BSC_FLOAT;
    const CcdResult hit = vf(vertex_through_unit_triangle({ 0.25, 0.25, 1 }, { 0.25, 0.25, -1 }), options);
    EXPECT_TRUE(hit.hit);
    EXPECT_EQ(hit.decided_by, DecidedBy::FLOAT);
    EXPECT_FALSE(vf(vertex_through_unit_triangle({ 0.75, 0.75, 1 }, { 0.75, 0.75, -1 }), options).hit);
}
