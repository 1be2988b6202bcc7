// SPDX-License-Identifier: MIT
// Tests of the exact linear-motion CCD oracle itself: hand-built cases with known contact times,
// and randomized checks against simpler independent exact computations (Cyrus-Beck clipping for
// coplanar translations, a single plane crossing for motions along one axis).

#include "oracle/linear_ccd_oracle.hpp"

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using ccdkit::oracle::edge_edge;
using ccdkit::oracle::OracleResult;
using ccdkit::oracle::vertex_face;
using Vec = Eigen::Vector3d;
using Points = std::array<Vec, 8>;

Points moving(const std::array<Vec, 4>& t0, const std::array<Vec, 4>& t1)
{
    return { t0[0], t0[1], t0[2], t0[3], t1[0], t1[1], t1[2], t1[3] };
}

Points fixed(const std::array<Vec, 4>& x) { return moving(x, x); }

std::string describe(const OracleResult& r)
{
    return r.hit ? "hit at " + r.earliest->to_string() : std::string("miss");
}

/// Expects a hit at exactly t (a rational).
void expect_hit_at(const OracleResult& r, const mpq_class& t)
{
    ASSERT_TRUE(r.hit) << "expected a hit at " << t.get_str();
    ASSERT_NE(r.earliest, nullptr);
    EXPECT_EQ(r.earliest->compare(t), 0) << describe(r) << ", expected " << t.get_str();
    EXPECT_TRUE(r.earliest->is_rational());
}

void expect_miss(const OracleResult& r)
{
    EXPECT_FALSE(r.hit) << describe(r);
    EXPECT_EQ(r.earliest, nullptr);
}

// Big static triangle in z = 0 used by several vertex-face cases.
const Vec A(0, 0, 0);
const Vec B(4, 0, 0);
const Vec C(0, 4, 0);

// ---------------------------------------------------------------------------------------------
// Vertex-face, hand-built.

TEST(OracleVertexFace, PassesThroughInterior)
{
    const auto r = vertex_face(moving({ Vec(1, 1, 1), A, B, C }, { Vec(1, 1, -1), A, B, C }));
    expect_hit_at(r, mpq_class(1, 2));
    EXPECT_EQ(r.earliest->compare(0.5), 0);
    EXPECT_EQ(r.earliest->compare(std::nextafter(0.5, 0.0)), 1);
    EXPECT_EQ(r.earliest->compare(std::nextafter(0.5, 1.0)), -1);
    EXPECT_EQ(r.earliest->approx(), 0.5);
}

TEST(OracleVertexFace, MissesBeside)
{
    expect_miss(vertex_face(moving({ Vec(3, 3, 1), A, B, C }, { Vec(3, 3, -1), A, B, C })));
    // Crosses the plane one ulp outside the hypotenuse x + y = 4.
    const double x = std::nextafter(2.0, 3.0);
    expect_miss(vertex_face(moving({ Vec(x, 2, 1), A, B, C }, { Vec(x, 2, -1), A, B, C })));
    // ...and exactly on it.
    expect_hit_at(vertex_face(moving({ Vec(2, 2, 1), A, B, C }, { Vec(2, 2, -1), A, B, C })), mpq_class(1, 2));
}

TEST(OracleVertexFace, TouchesEdgeExactlyAtEnd)
{
    const auto hit = vertex_face(moving({ Vec(2, -1, 1), A, B, C }, { Vec(2, 0, 0), A, B, C }));
    expect_hit_at(hit, mpq_class(1));
    EXPECT_EQ(hit.earliest->compare(1.0), 0);
    // Stops 2^-40 short of the edge.
    expect_miss(vertex_face(moving({ Vec(2, -1, 1), A, B, C }, { Vec(2, -std::ldexp(1.0, -40), 0), A, B, C })));
    // The same touch, but the interval ends just before it.
    expect_miss(vertex_face(moving({ Vec(2, -1, 1), A, B, C }, { Vec(2, 0, 0), A, B, C }), std::nextafter(1.0, 0.0)));
}

TEST(OracleVertexFace, TouchesVertexExactlyAtEnd)
{
    expect_hit_at(vertex_face(moving({ Vec(4, 0, 1), A, B, C }, { Vec(4, 0, 0), A, B, C })), mpq_class(1));
    const double x = 4 + std::ldexp(1.0, -40);
    expect_miss(vertex_face(moving({ Vec(x, 0, 1), A, B, C }, { Vec(x, 0, 0), A, B, C })));
}

TEST(OracleVertexFace, ContactAtStart)
{
    expect_hit_at(vertex_face(moving({ Vec(1, 1, 0), A, B, C }, { Vec(1, 1, 5), A, B, C })), mpq_class(0));
    // On a vertex at t = 0, the triangle moving away.
    const Vec up(0, 0, 3);
    expect_hit_at(vertex_face(moving({ C, A, B, C }, { C, A + up, B + up, C + up })), mpq_class(0));
    // Also with t_max = 0.
    expect_hit_at(vertex_face(moving({ Vec(1, 1, 0), A, B, C }, { Vec(1, 1, 5), A, B, C }), 0.0), mpq_class(0));
    expect_miss(vertex_face(moving({ Vec(1, 1, 1), A, B, C }, { Vec(1, 1, -1), A, B, C }), 0.0));
}

TEST(OracleVertexFace, CoplanarMotion)
{
    // In the triangle's plane the whole time: enters through the edge x = 0 at t = 2/7.
    const auto hit = vertex_face(moving({ Vec(-2, 1, 0), A, B, C }, { Vec(5, 1, 0), A, B, C }));
    expect_hit_at(hit, mpq_class(2, 7));
    const double approx = 2.0 / 7.0; // not exactly 2/7
    EXPECT_NE(hit.earliest->compare(approx), 0);
    EXPECT_EQ(hit.earliest->compare(approx), mpq_class(approx) < mpq_class(2, 7) ? 1 : -1);
    // Passes above the triangle within its plane.
    expect_miss(vertex_face(moving({ Vec(-2, 5, 0), A, B, C }, { Vec(5, 5, 0), A, B, C })));
    // Grazes the vertex C = (0, 4) at t = 1/2.
    expect_hit_at(vertex_face(moving({ Vec(-1, 4, 0), A, B, C }, { Vec(1, 4, 0), A, B, C })), mpq_class(1, 2));
    // Starts inside.
    expect_hit_at(vertex_face(moving({ Vec(1, 1, 0), A, B, C }, { Vec(9, 9, 0), A, B, C })), mpq_class(0));
}

TEST(OracleVertexFace, CoplanarMovingTriangleInTiltedPlane)
{
    // The plane x + y + z = 0 is not axis-aligned, so every projection is non-degenerate.
    // Triangle (u, v): (0,0), (4,0), (0,4) mapped by u e1 + v e2, arriving from 10 e1 back; while
    // p sits at (1, 1): inside once 11 - 10 t + 1 <= 4, i.e. from t = 4/5.
    const Vec e1(1, -1, 0);
    const Vec e2(0, 1, -1);
    auto at = [&](double u, double v) { return Vec(u * e1 + v * e2); };
    const Vec p = at(1, 1);
    const auto r = vertex_face(moving({ p, at(-10, 0), at(-6, 0), at(-10, 4) }, { p, at(0, 0), at(4, 0), at(0, 4) }));
    expect_hit_at(r, mpq_class(4, 5));
    // Same, but p is off the plane by a tiny amount: never coplanar, so no contact.
    const Vec q = p + Vec(0, 0, std::ldexp(1.0, -30));
    expect_miss(vertex_face(moving({ q, at(-10, 0), at(-6, 0), at(-10, 4) }, { q, at(0, 0), at(4, 0), at(0, 4) })));
}

TEST(OracleVertexFace, TriangleCollapsedToSegment)
{
    const Vec mid(2, 0, 0);
    expect_hit_at(vertex_face(moving({ Vec(1, -1, -1), A, B, mid }, { Vec(1, 1, 1), A, B, mid })), mpq_class(1, 2));
    expect_miss(vertex_face(moving({ Vec(5, -1, -1), A, B, mid }, { Vec(5, 1, 1), A, B, mid })));
    // Hits the segment's end point exactly.
    expect_hit_at(vertex_face(moving({ Vec(4, -1, -1), A, B, mid }, { Vec(4, 1, 1), A, B, mid })), mpq_class(1, 2));
    // A triangle that flattens into a segment at t = 1/2 while p lies on its line's extension.
    const Vec c_t0(2, 2, 0);
    const Vec c_t1(2, -2, 0);
    expect_miss(vertex_face(moving({ Vec(6, 0, 0), A, B, c_t0 }, { Vec(6, 0, 0), A, B, c_t1 })));
    // ...and when p = (1, -1) is reached only by the flipped triangle's side ac, at t = 1.
    expect_hit_at(vertex_face(moving({ Vec(1, -1, 0), A, B, c_t0 }, { Vec(1, -1, 0), A, B, c_t1 })), mpq_class(1));
}

TEST(OracleVertexFace, TriangleCollapsedToPoint)
{
    const Vec q(1, 2, 3);
    expect_hit_at(vertex_face(moving({ Vec(0, 0, 0), q, q, q }, { Vec(2, 4, 6), q, q, q })), mpq_class(1, 2));
    expect_miss(vertex_face(moving({ Vec(0, 0, 0), q, q, q }, { Vec(2, 4, 6.5), q, q, q })));
}

TEST(OracleVertexFace, ZeroMotion)
{
    expect_hit_at(vertex_face(fixed({ Vec(1, 1, 0), A, B, C })), mpq_class(0));
    expect_miss(vertex_face(fixed({ Vec(1, 1, 1e-300), A, B, C })));
    expect_miss(vertex_face(fixed({ Vec(3, 3, 0), A, B, C })));
    const Vec q(0.1, 0.2, 0.3);
    expect_hit_at(vertex_face(fixed({ q, q, q, q })), mpq_class(0));
}

TEST(OracleVertexFace, TangentialDoubleRoot)
{
    // c_z(t) = t lifts vertex C; p = (1, t, t/4 - 1/16). The coplanarity cubic is a multiple
    // of (t - 1/2)^2: p touches the triangle's plane at t = 1/2 without crossing it.
    const Vec c_t0(0, 4, 0);
    const Vec c_t1(0, 4, 1);
    const Vec p_t0(1, 0, -1.0 / 16);
    const Vec p_t1(1, 1, 3.0 / 16);
    expect_hit_at(vertex_face(moving({ p_t0, A, B, c_t0 }, { p_t1, A, B, c_t1 })), mpq_class(1, 2));
    // Shifted outside the triangle in x (x does not affect coplanarity here): no contact.
    const Vec dx(4, 0, 0);
    expect_miss(vertex_face(moving({ p_t0 + dx, A, B, c_t0 }, { p_t1 + dx, A, B, c_t1 })));
}

TEST(OracleVertexFace, IrrationalContactTime)
{
    // p = (1, 2t, 1/4 + t/2), C = (0, 4, 1 + t): coplanar iff 2t^2 - 1 = 0, so t* = 1/sqrt(2).
    const Points x = moving({ Vec(1, 0, 0.25), A, B, Vec(0, 4, 1) }, { Vec(1, 2, 0.75), A, B, Vec(0, 4, 2) });
    const auto r = vertex_face(x);
    ASSERT_TRUE(r.hit);
    const auto& t = *r.earliest;
    EXPECT_FALSE(t.is_rational());
    EXPECT_NEAR(t.approx(), 0.70710678118654752440, 1e-15);
    // 1/sqrt(2) = 0.7071067811865475244..., between these two adjacent doubles.
    const double below = 0.70710678118654746;
    const double above = 0.70710678118654757;
    ASSERT_EQ(std::nextafter(below, 1.0), above);
    EXPECT_EQ(t.compare(below), 1);
    EXPECT_EQ(t.compare(above), -1);
    EXPECT_EQ(t.compare(0.0), 1);
    EXPECT_EQ(t.compare(1.0), -1);
    EXPECT_EQ(t.compare(std::numeric_limits<double>::infinity()), -1);
    // Against exact rationals x: t* < x iff 2 x^2 > 1.
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<long> num(1, 999'999);
    for (int i = 0; i < 200; ++i) {
        const mpq_class q(num(rng), 1'000'000);
        const int expected = 2 * q * q > 1 ? -1 : 1;
        EXPECT_EQ(t.compare(q), expected) << q.get_str();
    }
    EXPECT_EQ(t.compare(mpq_class(7071, 10000)), 1);
    EXPECT_EQ(t.compare(mpq_class(7072, 10000)), -1);
    // Cut off just before the root.
    expect_miss(vertex_face(x, below));
    EXPECT_TRUE(vertex_face(x, above).hit);
}

TEST(OracleVertexFace, CompareIrrationalContactTimes)
{
    // As above with p = (1, 3t, 1/4 + 3t/4): coplanar iff 3t^2 - 1 = 0, t* = 1/sqrt(3).
    const auto r2
        = vertex_face(moving({ Vec(1, 0, 0.25), A, B, Vec(0, 4, 1) }, { Vec(1, 2, 0.75), A, B, Vec(0, 4, 2) }));
    const auto r3
        = vertex_face(moving({ Vec(1, 0, 0.25), A, B, Vec(0, 4, 1) }, { Vec(1, 3, 1.0), A, B, Vec(0, 4, 2) }));
    // 1/sqrt(2) again, from a scaled and shifted copy: another defining polynomial.
    const Vec s(3, -5, 7);
    const auto r2b = vertex_face(moving(
        { 0.5 * Vec(1, 0, 0.25) + s, 0.5 * A + s, 0.5 * B + s, 0.5 * Vec(0, 4, 1) + s },
        { 0.5 * Vec(1, 2, 0.75) + s, 0.5 * A + s, 0.5 * B + s, 0.5 * Vec(0, 4, 2) + s }));
    // p = (1, 2t, 33/128 + t/2): 2t^2 - 33/32 = 0, t* = sqrt(33)/8 = 0.718..., near 1/sqrt(2).
    const auto r33 = vertex_face(
        moving({ Vec(1, 0, 0.2578125), A, B, Vec(0, 4, 1) }, { Vec(1, 2, 0.7578125), A, B, Vec(0, 4, 2) }));
    ASSERT_TRUE(r2.hit && r3.hit && r2b.hit && r33.hit);
    // Compare first, while the isolating intervals are still wide and overlap.
    EXPECT_EQ(r2.earliest->compare(*r33.earliest), -1)
        << r2.earliest->to_string() << " vs " << r33.earliest->to_string();
    EXPECT_EQ(r33.earliest->compare(*r2.earliest), 1);
    EXPECT_EQ(r33.earliest->compare(0.71807033081725358), 1); // sqrt(33)/8 = 0.7180703308172536...
    EXPECT_EQ(r33.earliest->compare(0.71807033081725369), -1);
    EXPECT_EQ(r2.earliest->compare(*r3.earliest), 1);
    EXPECT_EQ(r3.earliest->compare(*r2.earliest), -1);
    EXPECT_EQ(r2.earliest->compare(*r2.earliest), 0);
    EXPECT_EQ(r2.earliest->compare(*r2b.earliest), 0)
        << r2.earliest->to_string() << " vs " << r2b.earliest->to_string();
    EXPECT_EQ(r2b.earliest->compare(*r2.earliest), 0);
    EXPECT_FALSE(r3.earliest->is_rational());
    EXPECT_NEAR(r3.earliest->approx(), 0.57735026918962576451, 1e-15);
}

TEST(OracleVertexFace, CoplanarIrrationalContactTime)
{
    // All in one plane; c = (4t - 2, 4) swings the side ac over p = (-3/4 + 5t/4, 1 - t/2):
    // orient(c, a, p) = 2t^2 - 1, so p enters through side ac at t* = 1/sqrt(2).
    const Vec c_t0(-2, 4, 0);
    const Vec c_t1(2, 4, 0);
    const Vec p_t0(-0.75, 1, 0);
    const Vec p_t1(0.5, 0.5, 0);
    const double below = 0.70710678118654746;
    const double above = 0.70710678118654757;
    for (int tilted = 0; tilted < 2; ++tilted) {
        SCOPED_TRACE(tilted);
        // (x, y) -> x e1 + y e2, exact for these coordinates.
        const Vec e1 = tilted ? Vec(1, 2, -1) : Vec(1, 0, 0);
        const Vec e2 = tilted ? Vec(0, 1, 3) : Vec(0, 1, 0);
        auto map = [&](const Vec& q) { return Vec(q.x() * e1 + q.y() * e2); };
        const auto r
            = vertex_face(moving({ map(p_t0), map(A), map(B), map(c_t0) }, { map(p_t1), map(A), map(B), map(c_t1) }));
        ASSERT_TRUE(r.hit);
        EXPECT_FALSE(r.earliest->is_rational()) << r.earliest->to_string();
        EXPECT_EQ(r.earliest->compare(below), 1) << r.earliest->to_string();
        EXPECT_EQ(r.earliest->compare(above), -1) << r.earliest->to_string();
    }
}

TEST(OracleVertexFace, TMaxCutsOffContact)
{
    const Points x = moving({ Vec(1, 1, 1), A, B, C }, { Vec(1, 1, -1), A, B, C });
    expect_miss(vertex_face(x, 0.4));
    expect_miss(vertex_face(x, std::nextafter(0.5, 0.0)));
    expect_hit_at(vertex_face(x, 0.5), mpq_class(1, 2));
    // t_max > 1 extrapolates the motion.
    expect_hit_at(vertex_face(moving({ Vec(1, 1, 4), A, B, C }, { Vec(1, 1, 2), A, B, C }), 3.0), mpq_class(2));
}

TEST(OracleVertexFace, RejectsInvalidInput)
{
    Points x = fixed({ Vec(1, 1, 0), A, B, C });
    EXPECT_THROW(vertex_face(x, -0.5), std::invalid_argument);
    EXPECT_THROW(vertex_face(x, std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
    x[5].x() = std::numeric_limits<double>::infinity();
    EXPECT_THROW(vertex_face(x), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Edge-edge, hand-built.

TEST(OracleEdgeEdge, CrossingAtQuarter)
{
    const auto r = edge_edge(moving(
        { Vec(-1, 0, 0), Vec(1, 0, 0), Vec(0, -1, 1), Vec(0, 1, 1) },
        { Vec(-1, 0, 0), Vec(1, 0, 0), Vec(0, -1, -3), Vec(0, 1, -3) }));
    expect_hit_at(r, mpq_class(1, 4));
    EXPECT_EQ(r.earliest->compare(0.25), 0);
    EXPECT_EQ(r.earliest->compare(0.2500000000000001), -1);
}

TEST(OracleEdgeEdge, ParallelNeverTouching)
{
    // Static, coplanar, parallel.
    expect_miss(edge_edge(fixed({ Vec(0, 0, 0), Vec(1, 0, 0), Vec(0, 1, 0), Vec(1, 1, 0) })));
    // b sweeps through a's height (z) while staying one unit away in y.
    expect_miss(edge_edge(moving(
        { Vec(0, 0, 0), Vec(1, 0, 0), Vec(0, 1, 1), Vec(1, 1, 1) },
        { Vec(0, 0, 0), Vec(1, 0, 0), Vec(0, 1, -1), Vec(1, 1, -1) })));
    // b moves towards a within the plane: parallel all the time, touches at t = 1/2.
    expect_hit_at(
        edge_edge(moving(
            { Vec(0, 0, 0), Vec(1, 0, 0), Vec(0.5, 1, 0), Vec(1.5, 1, 0) },
            { Vec(0, 0, 0), Vec(1, 0, 0), Vec(0.5, -1, 0), Vec(1.5, -1, 0) })),
        mpq_class(1, 2));
}

TEST(OracleEdgeEdge, CollinearOverlapping)
{
    expect_hit_at(edge_edge(fixed({ Vec(0, 0, 0), Vec(2, 0, 0), Vec(1, 0, 0), Vec(3, 0, 0) })), mpq_class(0));
    // On one line all the time; b = [3 - 4t, 5 - 4t] reaches a's end x = 2 at t = 1/4.
    expect_hit_at(
        edge_edge(moving(
            { Vec(0, 0, 0), Vec(2, 0, 0), Vec(3, 0, 0), Vec(5, 0, 0) },
            { Vec(0, 0, 0), Vec(2, 0, 0), Vec(-1, 0, 0), Vec(1, 0, 0) })),
        mpq_class(1, 4));
    // Same along a diagonal line, b reversed.
    const Vec d(1, 2, 3);
    expect_hit_at(edge_edge(moving({ 0 * d, 2 * d, 5 * d, 3 * d }, { 0 * d, 2 * d, 1 * d, -1 * d })), mpq_class(1, 4));
}

TEST(OracleEdgeEdge, CollinearDisjoint)
{
    expect_miss(edge_edge(fixed({ Vec(0, 0, 0), Vec(2, 0, 0), Vec(3, 0, 0), Vec(5, 0, 0) })));
    expect_miss(edge_edge(moving(
        { Vec(0, 0, 0), Vec(2, 0, 0), Vec(3, 0, 0), Vec(5, 0, 0) },
        { Vec(0, 0, 0), Vec(2, 0, 0), Vec(2.5, 0, 0), Vec(4.5, 0, 0) })));
    // Collinear, one ulp apart.
    expect_miss(edge_edge(fixed({ Vec(0, 0, 0), Vec(2, 0, 0), Vec(std::nextafter(2.0, 3.0), 0, 0), Vec(5, 0, 0) })));
    expect_hit_at(edge_edge(fixed({ Vec(0, 0, 0), Vec(2, 0, 0), Vec(2, 0, 0), Vec(5, 0, 0) })), mpq_class(0));
}

TEST(OracleEdgeEdge, ZeroLengthEdge)
{
    const Vec a0(0, 0, 0);
    const Vec a1(2, 0, 0);
    expect_hit_at(
        edge_edge(moving({ a0, a1, Vec(1, -1, 0), Vec(1, -1, 0) }, { a0, a1, Vec(1, 1, 0), Vec(1, 1, 0) })),
        mpq_class(1, 2));
    expect_miss(edge_edge(moving({ a0, a1, Vec(3, -1, 0), Vec(3, -1, 0) }, { a0, a1, Vec(3, 1, 0), Vec(3, 1, 0) })));
    // Out of the plane: crosses the line z = 0 at t = 1/2 at (1, 0, 0) on the edge.
    expect_hit_at(
        edge_edge(moving({ a0, a1, Vec(1, -1, 1), Vec(1, -1, 1) }, { a0, a1, Vec(1, 1, -1), Vec(1, 1, -1) })),
        mpq_class(1, 2));
    // Both edges are points passing through (1, 1, 1) at t = 1/2, and passing near it.
    expect_hit_at(
        edge_edge(moving(
            { Vec(0, 0, 0), Vec(0, 0, 0), Vec(2, 0, 0), Vec(2, 0, 0) },
            { Vec(2, 2, 2), Vec(2, 2, 2), Vec(0, 2, 2), Vec(0, 2, 2) })),
        mpq_class(1, 2));
    expect_miss(edge_edge(moving(
        { Vec(0, 0, 0), Vec(0, 0, 0), Vec(2, 0, 0), Vec(2, 0, 0) },
        { Vec(2, 2, 2), Vec(2, 2, 2), Vec(0, 2, 2.5), Vec(0, 2, 2.5) })));
}

TEST(OracleEdgeEdge, TouchingOnlyAtEndpointAtEnd)
{
    // eb0 = (1, 1 - t, 1 - t) reaches ea1 = (1, 0, 0) at t = 1.
    const Points x = moving(
        { Vec(0, 0, 0), Vec(1, 0, 0), Vec(1, 1, 1), Vec(1, 2, 1) },
        { Vec(0, 0, 0), Vec(1, 0, 0), Vec(1, 0, 0), Vec(1, 1, 0) });
    expect_hit_at(edge_edge(x), mpq_class(1));
    expect_miss(edge_edge(x, 0.5));
    // Shift a one ulp away from b's path.
    const double e = std::nextafter(1.0, 0.0);
    expect_miss(edge_edge(moving(
        { Vec(0, 0, 0), Vec(e, 0, 0), Vec(1, 1, 1), Vec(1, 2, 1) },
        { Vec(0, 0, 0), Vec(e, 0, 0), Vec(1, 0, 0), Vec(1, 1, 0) })));
}

TEST(OracleEdgeEdge, TangentialDoubleRoot)
{
    // a = [(0,0,0), (0,4,t)], b = [(4,0,0), (-2, 2t, t/2 - 1/8)]: the coplanarity cubic is a
    // multiple of (t - 1/2)^2, and at t = 1/2 the segments cross at (0, 2/3, 1/12).
    const Points x = moving(
        { Vec(0, 0, 0), Vec(0, 4, 0), Vec(4, 0, 0), Vec(-2, 0, -0.125) },
        { Vec(0, 0, 0), Vec(0, 4, 1), Vec(4, 0, 0), Vec(-2, 2, 0.375) });
    expect_hit_at(edge_edge(x), mpq_class(1, 2));
    // Shorten b so that it stops before a's line (x = 0 needs b's parameter 2/3).
    const Points y = moving(
        { Vec(0, 0, 0), Vec(0, 4, 0), Vec(4, 0, 0), Vec(1, 0, -0.0625) },
        { Vec(0, 0, 0), Vec(0, 4, 1), Vec(4, 0, 0), Vec(1, 1, 0.1875) });
    expect_miss(edge_edge(y));
}

TEST(OracleEdgeEdge, TMaxCutsOffContact)
{
    const Points x = moving(
        { Vec(-1, 0, 0), Vec(1, 0, 0), Vec(0, -1, 1), Vec(0, 1, 1) },
        { Vec(-1, 0, 0), Vec(1, 0, 0), Vec(0, -1, -3), Vec(0, 1, -3) });
    expect_miss(edge_edge(x, 0.2));
    expect_miss(edge_edge(x, std::nextafter(0.25, 0.0)));
    expect_hit_at(edge_edge(x, 0.25), mpq_class(1, 4));
}

TEST(OracleEdgeEdge, SkewNearMiss)
{
    // b passes below a's end point by 2^-40.
    const double y = -std::ldexp(1.0, -40);
    expect_miss(edge_edge(moving(
        { Vec(-1, 0, 0), Vec(1, 0, 0), Vec(1, y, 1), Vec(1, y - 1, 1) },
        { Vec(-1, 0, 0), Vec(1, 0, 0), Vec(1, y, -1), Vec(1, y - 1, -1) })));
}

// ---------------------------------------------------------------------------------------------
// Randomized checks against independent exact computations.

using Rational2 = std::array<mpq_class, 2>;

mpq_class cross2(const Rational2& a, const Rational2& b) { return a[0] * b[1] - a[1] * b[0]; }

/// Earliest t in [0, 1] with f0[i] + t f1[i] >= 0 for all i (Cyrus-Beck clipping), if any.
std::optional<mpq_class> earliest_feasible(const std::vector<std::pair<mpq_class, mpq_class>>& halfplanes)
{
    mpq_class lo = 0;
    mpq_class hi = 1;
    for (const auto& [f0, f1] : halfplanes) {
        if (sgn(f1) == 0) {
            if (sgn(f0) < 0) {
                return std::nullopt;
            }
        } else if (sgn(f1) > 0) {
            lo = std::max(lo, mpq_class(-f0 / f1));
        } else {
            hi = std::min(hi, mpq_class(-f0 / f1));
        }
    }
    if (lo > hi) {
        return std::nullopt;
    }
    return lo;
}

/// Half-planes (as linear functions of t) for "point q0 + t dq lies in the convex polygon poly".
std::vector<std::pair<mpq_class, mpq_class>>
inside_polygon(std::vector<Rational2> poly, const Rational2& q0, const Rational2& dq)
{
    mpq_class area2 = 0;
    for (std::size_t i = 0; i < poly.size(); ++i) {
        area2 += cross2(poly[i], poly[(i + 1) % poly.size()]);
    }
    if (area2 < 0) {
        std::reverse(poly.begin(), poly.end());
    }
    std::vector<std::pair<mpq_class, mpq_class>> out;
    for (std::size_t i = 0; i < poly.size(); ++i) {
        const Rational2& v = poly[i];
        const Rational2& w = poly[(i + 1) % poly.size()];
        const Rational2 edge { w[0] - v[0], w[1] - v[1] };
        out.emplace_back(cross2(edge, { q0[0] - v[0], q0[1] - v[1] }), cross2(edge, dq));
    }
    return out;
}

/// Integer 2D point embedded in 3D, either in z = 0 or in a random tilted plane.
struct Embedding {
    Vec origin;
    Vec e1;
    Vec e2;
    Vec operator()(long u, long v) const { return origin + static_cast<double>(u) * e1 + static_cast<double>(v) * e2; }
};

Embedding random_embedding(std::mt19937_64& rng)
{
    std::uniform_int_distribution<int> small(-3, 3);
    auto vec = [&] { return Vec(small(rng), small(rng), small(rng)); };
    if (rng() % 3 == 0) {
        return { Vec::Zero(), Vec(1, 0, 0), Vec(0, 1, 0) };
    }
    for (;;) {
        Embedding e { vec(), vec(), vec() };
        if (e.e1.cross(e.e2).squaredNorm() > 0) {
            return e;
        }
    }
}

void expect_same(const OracleResult& r, const std::optional<mpq_class>& expected, const std::string& what)
{
    ASSERT_EQ(r.hit, expected.has_value()) << what << ": oracle " << describe(r);
    if (expected) {
        EXPECT_EQ(r.earliest->compare(*expected), 0)
            << what << ": oracle " << describe(r) << ", expected " << expected->get_str();
    }
}

TEST(OracleRandomized, CoplanarTranslationsVertexFace)
{
    // Small integer coordinates make touching and boundary cases frequent.
    std::mt19937_64 rng(1);
    std::uniform_int_distribution<long> coord(-4, 4);
    int hits = 0;
    for (int iter = 0; iter < 1500; ++iter) {
        std::array<std::array<long, 2>, 3> tri;
        for (auto& v : tri) {
            v = { coord(rng), coord(rng) };
        }
        const long area2
            = (tri[1][0] - tri[0][0]) * (tri[2][1] - tri[0][1]) - (tri[1][1] - tri[0][1]) * (tri[2][0] - tri[0][0]);
        if (area2 == 0) {
            continue;
        }
        const std::array<long, 2> w { coord(rng), coord(rng) }; // triangle translation
        const std::array<long, 2> p0 { coord(rng), coord(rng) };
        const std::array<long, 2> p1 { coord(rng), coord(rng) };
        const Embedding emb = random_embedding(rng);
        const Points x = moving(
            { emb(p0[0], p0[1]), emb(tri[0][0], tri[0][1]), emb(tri[1][0], tri[1][1]), emb(tri[2][0], tri[2][1]) },
            { emb(p1[0], p1[1]), emb(tri[0][0] + w[0], tri[0][1] + w[1]), emb(tri[1][0] + w[0], tri[1][1] + w[1]),
              emb(tri[2][0] + w[0], tri[2][1] + w[1]) });
        // Relative to the triangle, p moves from p0 with velocity (p1 - p0 - w).
        std::vector<Rational2> poly;
        for (const auto& v : tri) {
            poly.push_back({ mpq_class(v[0]), mpq_class(v[1]) });
        }
        const auto expected = earliest_feasible(inside_polygon(
            poly, { mpq_class(p0[0]), mpq_class(p0[1]) },
            { mpq_class(p1[0] - p0[0] - w[0]), mpq_class(p1[1] - p0[1] - w[1]) }));
        hits += expected.has_value() ? 1 : 0;
        expect_same(vertex_face(x), expected, "iteration " + std::to_string(iter));
        if (HasFailure()) {
            return;
        }
    }
    EXPECT_GT(hits, 100); // the check is not vacuous
}

TEST(OracleRandomized, CoplanarTranslationsEdgeEdge)
{
    std::mt19937_64 rng(2);
    std::uniform_int_distribution<long> coord(-4, 4);
    int hits = 0;
    for (int iter = 0; iter < 1500; ++iter) {
        std::array<std::array<long, 2>, 4> e; // ea0, ea1, eb0, eb1
        for (auto& v : e) {
            v = { coord(rng), coord(rng) };
        }
        const std::array<long, 2> wa { coord(rng), coord(rng) };
        const std::array<long, 2> wb { coord(rng), coord(rng) };
        // a + r (a1 - a0) = b0 + s (b1 - b0) iff a0 - b0 - t (wb - wa) = s u + r v with
        // u = b1 - b0, v = a0 - a1: the moving point must enter the parallelogram {s u + r v}.
        const Rational2 u { mpq_class(e[3][0] - e[2][0]), mpq_class(e[3][1] - e[2][1]) };
        const Rational2 v { mpq_class(e[0][0] - e[1][0]), mpq_class(e[0][1] - e[1][1]) };
        if (sgn(cross2(u, v)) == 0) {
            continue; // parallel or degenerate: covered by the hand-built cases
        }
        const std::vector<Rational2> poly { { 0, 0 }, u, { u[0] + v[0], u[1] + v[1] }, v };
        const Rational2 q0 { mpq_class(e[0][0] - e[2][0]), mpq_class(e[0][1] - e[2][1]) };
        const Rational2 dq { mpq_class(wa[0] - wb[0]), mpq_class(wa[1] - wb[1]) };
        const auto expected = earliest_feasible(inside_polygon(poly, q0, dq));
        hits += expected.has_value() ? 1 : 0;
        const Embedding emb = random_embedding(rng);
        const Points x = moving(
            { emb(e[0][0], e[0][1]), emb(e[1][0], e[1][1]), emb(e[2][0], e[2][1]), emb(e[3][0], e[3][1]) },
            { emb(e[0][0] + wa[0], e[0][1] + wa[1]), emb(e[1][0] + wa[0], e[1][1] + wa[1]),
              emb(e[2][0] + wb[0], e[2][1] + wb[1]), emb(e[3][0] + wb[0], e[3][1] + wb[1]) });
        expect_same(edge_edge(x), expected, "iteration " + std::to_string(iter));
        if (HasFailure()) {
            return;
        }
    }
    EXPECT_GT(hits, 100);
}

TEST(OracleRandomized, SinglePlaneCrossingVertexFace)
{
    // Static triangle in z = 0; p crosses z = 0 once, at t = z0 / (z0 - z1), possibly at an end.
    std::mt19937_64 rng(3);
    std::uniform_int_distribution<long> coord(-4, 4);
    std::uniform_int_distribution<long> height(0, 4);
    int hits = 0;
    for (int iter = 0; iter < 1500; ++iter) {
        std::array<Rational2, 3> tri;
        for (auto& v : tri) {
            v = { mpq_class(coord(rng)), mpq_class(coord(rng)) };
        }
        const mpq_class area2 = cross2(
            { tri[1][0] - tri[0][0], tri[1][1] - tri[0][1] }, { tri[2][0] - tri[0][0], tri[2][1] - tri[0][1] });
        const long z0 = height(rng);
        const long z1 = -height(rng);
        if (sgn(area2) == 0 || z0 == z1) {
            continue;
        }
        const Rational2 p0 { mpq_class(coord(rng)), mpq_class(coord(rng)) };
        const Rational2 p1 { mpq_class(coord(rng)), mpq_class(coord(rng)) };
        const mpq_class t(z0, z0 - z1);
        const Rational2 pt { p0[0] + t * (p1[0] - p0[0]), p0[1] + t * (p1[1] - p0[1]) };
        // Barycentric signs: inside iff no sub-triangle has area of opposite sign to the whole.
        bool inside = true;
        for (std::size_t i = 0; i < 3; ++i) {
            const Rational2& v = tri[i];
            const Rational2& w = tri[(i + 1) % 3];
            const mpq_class sub = cross2({ w[0] - v[0], w[1] - v[1] }, { pt[0] - v[0], pt[1] - v[1] });
            inside = inside && sgn(sub) * sgn(area2) >= 0;
        }
        hits += inside ? 1 : 0;
        auto v3 = [](const Rational2& q, long z) { return Vec(q[0].get_d(), q[1].get_d(), static_cast<double>(z)); };
        const Points x = moving(
            { v3(p0, z0), v3(tri[0], 0), v3(tri[1], 0), v3(tri[2], 0) },
            { v3(p1, z1), v3(tri[0], 0), v3(tri[1], 0), v3(tri[2], 0) });
        expect_same(
            vertex_face(x), inside ? std::optional<mpq_class>(t) : std::nullopt, "iteration " + std::to_string(iter));
        if (HasFailure()) {
            return;
        }
    }
    EXPECT_GT(hits, 100);
}

TEST(OracleRandomized, SinglePlaneCrossingEdgeEdge)
{
    // a static in z = 0; b translates from height z0 > 0 to z1 < 0 (and sideways).
    std::mt19937_64 rng(4);
    std::uniform_int_distribution<long> coord(-4, 4);
    std::uniform_int_distribution<long> height(1, 4);
    int hits = 0;
    for (int iter = 0; iter < 1500; ++iter) {
        std::array<Rational2, 4> e;
        for (auto& v : e) {
            v = { mpq_class(coord(rng)), mpq_class(coord(rng)) };
        }
        const Rational2 w { mpq_class(coord(rng)), mpq_class(coord(rng)) };
        const long z0 = height(rng);
        const long z1 = -height(rng);
        const Rational2 da { e[1][0] - e[0][0], e[1][1] - e[0][1] };
        const Rational2 db { e[3][0] - e[2][0], e[3][1] - e[2][1] };
        const mpq_class denom = cross2(da, db);
        if (sgn(denom) == 0) {
            continue;
        }
        const mpq_class t(z0, z0 - z1);
        const Rational2 b0 { e[2][0] + t * w[0], e[2][1] + t * w[1] };
        // Solve a0 + r da = b0 + s db by Cramer's rule.
        const Rational2 d { b0[0] - e[0][0], b0[1] - e[0][1] };
        const mpq_class r = cross2(d, db) / denom;
        const mpq_class s = cross2(d, da) / denom;
        const bool crossing = r >= 0 && r <= 1 && s >= 0 && s <= 1;
        hits += crossing ? 1 : 0;
        auto v3 = [](const Rational2& q, long z) { return Vec(q[0].get_d(), q[1].get_d(), static_cast<double>(z)); };
        const Rational2 b0_t1 { e[2][0] + w[0], e[2][1] + w[1] };
        const Rational2 b1_t1 { e[3][0] + w[0], e[3][1] + w[1] };
        const Points x = moving(
            { v3(e[0], 0), v3(e[1], 0), v3(e[2], z0), v3(e[3], z0) },
            { v3(e[0], 0), v3(e[1], 0), v3(b0_t1, z1), v3(b1_t1, z1) });
        expect_same(
            edge_edge(x), crossing ? std::optional<mpq_class>(t) : std::nullopt, "iteration " + std::to_string(iter));
        if (HasFailure()) {
            return;
        }
    }
    EXPECT_GT(hits, 100);
}

TEST(OracleRandomized, ContactAtChosenTime)
{
    // Build a configuration in contact at t = 1/2 with random velocities: the earliest contact
    // must exist and be <= 1/2. Integer coordinates keep everything exact.
    std::mt19937_64 rng(5);
    std::uniform_int_distribution<int> coord(-64, 64);
    auto vec = [&] { return Vec(coord(rng), coord(rng), coord(rng)); };
    for (int iter = 0; iter < 300; ++iter) {
        // Vertex-face: p = (a + b + 2c) / 4 at t = 1/2.
        const Vec a = 4 * vec();
        const Vec b = 4 * vec();
        const Vec c = 4 * vec();
        const Vec p = (a + b + 2 * c) / 4;
        std::array<Vec, 4> mid { p, a, b, c };
        std::array<Vec, 4> t0;
        std::array<Vec, 4> t1;
        for (std::size_t i = 0; i < 4; ++i) {
            const Vec v = vec();
            t0[i] = mid[i] - v;
            t1[i] = mid[i] + v;
        }
        const auto r = vertex_face(moving(t0, t1));
        ASSERT_TRUE(r.hit) << iter;
        EXPECT_LE(r.earliest->compare(0.5), 0) << iter << ": " << describe(r);
        // Edge-edge: both edges pass through the same point q at t = 1/2.
        const Vec q = 2 * vec();
        const Vec da = vec();
        const Vec db = vec();
        mid = { q - da, q + 3 * da, q - 3 * db, q + db };
        for (std::size_t i = 0; i < 4; ++i) {
            const Vec v = vec();
            t0[i] = mid[i] - v;
            t1[i] = mid[i] + v;
        }
        const auto s = edge_edge(moving(t0, t1));
        ASSERT_TRUE(s.hit) << iter;
        EXPECT_LE(s.earliest->compare(0.5), 0) << iter << ": " << describe(s);
    }
}

TEST(OracleRandomized, SeparatedByPlaneNeverHits)
{
    // p (or edge a) stays in z <= 0 and the other primitive in z >= 1 at both ends, so they are
    // separated the whole time, though the four points may well become coplanar.
    std::mt19937_64 rng(6);
    std::uniform_real_distribution<double> xy(-1, 1);
    std::uniform_real_distribution<double> low(-1, 0);
    std::uniform_real_distribution<double> high(1, 2);
    for (int iter = 0; iter < 500; ++iter) {
        Points x;
        for (std::size_t i = 0; i < 8; ++i) {
            const bool below = i % 4 == 0 || i % 4 == 1;
            x[i] = Vec(xy(rng), xy(rng), below ? low(rng) : high(rng));
        }
        Points vf = x;
        vf[1].z() = vf[5].z() = high(rng); // a above too
        expect_miss(vertex_face(vf));
        expect_miss(edge_edge(x));
    }
}

TEST(OracleRandomized, SymmetriesAgree)
{
    // Relabeling the triangle, swapping or reversing edges, and scaling by powers of two or
    // translating by small integers (exact for these inputs) must not change t*.
    std::mt19937_64 rng(8);
    std::uniform_int_distribution<int> coord(-3, 3);
    std::uniform_real_distribution<double> real(-1, 1);
    int hits = 0;
    for (int iter = 0; iter < 600; ++iter) {
        Points x;
        for (auto& v : x) {
            // Half the queries on a tiny integer grid (degenerate), half random doubles.
            v = iter % 2 == 0 ? Vec(coord(rng), coord(rng), coord(rng)) : Vec(real(rng), real(rng), real(rng));
        }
        auto check = [&](const OracleResult& ref, const OracleResult& other, const char* what) {
            ASSERT_EQ(ref.hit, other.hit)
                << what << " iteration " << iter << ": " << describe(ref) << " vs " << describe(other);
            if (ref.hit) {
                EXPECT_EQ(ref.earliest->compare(*other.earliest), 0)
                    << what << " iteration " << iter << ": " << describe(ref) << " vs " << describe(other);
            }
        };
        auto permuted = [&](std::array<int, 4> order) {
            Points y;
            for (std::size_t i = 0; i < 4; ++i) {
                y[i] = x[static_cast<std::size_t>(order[i])];
                y[i + 4] = x[static_cast<std::size_t>(order[i]) + 4];
            }
            return y;
        };
        Points scaled = x;
        Points shifted = x;
        for (auto& v : scaled) {
            v *= 0.125;
        }
        for (auto& v : shifted) {
            v += Vec(1, -2, 3);
        }
        const auto vf = vertex_face(x);
        hits += vf.hit ? 1 : 0;
        check(vf, vertex_face(permuted({ 0, 2, 3, 1 })), "vf cyclic");
        check(vf, vertex_face(permuted({ 0, 2, 1, 3 })), "vf mirrored");
        const auto ee = edge_edge(x);
        hits += ee.hit ? 1 : 0;
        check(ee, edge_edge(permuted({ 2, 3, 0, 1 })), "ee swapped");
        check(ee, edge_edge(permuted({ 1, 0, 3, 2 })), "ee reversed");
        if (iter % 2 == 0) {
            check(vf, vertex_face(scaled), "vf scaled");
            check(ee, edge_edge(scaled), "ee scaled");
            check(vf, vertex_face(shifted), "vf shifted");
            check(ee, edge_edge(shifted), "ee shifted");
        }
        if (HasFailure()) {
            return;
        }
    }
    EXPECT_GT(hits, 50);
}

} // namespace
