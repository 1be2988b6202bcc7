// SPDX-License-Identifier: MIT
// Hand-built space-time CCD cases with known answers (vertex-face, edge-edge, 2D point-edge): hits, misses,
// contact at exactly t = 0 and t = 1, contact on an edge or a vertex, parallel and zero-length edges, static
// and coplanar motion, invalid input; and the id-relabelling invariance of the model.

#include "oracle/convex_hull_oracle.hpp"

#include <ccdkit/narrow/spacetime_ccd.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

using namespace ccdkit;
using Vec3 = Eigen::Vector3d;
using Vec2 = Eigen::Vector2d;

namespace {

constexpr double TOI_TOLERANCE = 1e-9;
constexpr double CONTACT_TOLERANCE = 1e-9;

const Vec3 T0(0, 0, 0), T1(1, 0, 0), T2(0, 1, 0); // the static triangle of most vertex-face cases

/// A vertex moving from p_t0 to p_t1 against the static triangle (T0, T1, T2).
VertexFaceMotion against_static_triangle(const Vec3& p_t0, const Vec3& p_t1)
{
    return { p_t0, T0, T1, T2, p_t1, T0, T1, T2 };
}

/// A hit at (about) time toi that is not initially touching.
void expect_hit_at(const CcdResult& r, double toi)
{
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.status, toi == 0.0 ? CcdStatus::INITIALLY_TOUCHING : CcdStatus::HIT);
    EXPECT_NEAR(r.toi_lower, toi, TOI_TOLERANCE);
    EXPECT_NEAR(r.toi_upper, toi, TOI_TOLERANCE);
    EXPECT_LE(r.toi_lower, r.toi_upper);
}

void expect_miss(const CcdResult& r, double t_max = 1.0)
{
    EXPECT_FALSE(r.hit);
    EXPECT_EQ(r.status, CcdStatus::SEPARATED);
    EXPECT_EQ(r.toi_lower, t_max);
    EXPECT_EQ(r.toi_upper, t_max);
}

void expect_vec_near(const Vec3& actual, const Vec3& expected, double tolerance)
{
    EXPECT_NEAR(actual[0], expected[0], tolerance) << actual.transpose();
    EXPECT_NEAR(actual[1], expected[1], tolerance) << actual.transpose();
    EXPECT_NEAR(actual[2], expected[2], tolerance) << actual.transpose();
}

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
constexpr double INF = std::numeric_limits<double>::infinity();

} // namespace

// ---- vertex-face -------------------------------------------------------------------------------------------

TEST(SpacetimeVertexFace, FallsThroughStaticTriangle)
{
    const auto m = against_static_triangle(Vec3(0.25, 0.25, 1), Vec3(0.25, 0.25, -1));
    const CcdResult r = spacetime_vertex_face_ccd(m);
    expect_hit_at(r, 0.5);
    expect_vec_near(r.contact, Vec3(0.5, 0.25, 0.25), CONTACT_TOLERANCE); // barycentric weights of t0, t1, t2
    expect_vec_near(r.normal, Vec3(0, 0, 1), 1e-12); // towards the side the vertex starts on
    EXPECT_NEAR(r.normal_velocity, -2.0, 1e-9); // approaching: (0, 0, 1) . ((0, 0, -2) - 0)
    EXPECT_TRUE(oracle::spacetime_vertex_face_oracle(m, { 0, 1, 2, 3 }));
}

TEST(SpacetimeVertexFace, RisesThroughStaticTriangle)
{
    const CcdResult r = spacetime_vertex_face_ccd(against_static_triangle(Vec3(0.5, 0.25, -3), Vec3(0.5, 0.25, 1)));
    expect_hit_at(r, 0.75);
    expect_vec_near(r.contact, Vec3(0.25, 0.5, 0.25), CONTACT_TOLERANCE);
    expect_vec_near(r.normal, Vec3(0, 0, -1), 1e-12);
    EXPECT_NEAR(r.normal_velocity, -4.0, 1e-9);
}

TEST(SpacetimeVertexFace, TriangleMovesThroughStaticVertex)
{
    // The triangle translates from z = -1 to z = 1 (a translation keeps the swept prism exact): it passes the
    // vertex (0.2, 0.3, 0) at t = 1/2.
    const Vec3 down(0, 0, -1), up(0, 0, 1), p(0.2, 0.3, 0);
    const VertexFaceMotion m { p, T0 + down, T1 + down, T2 + down, p, T0 + up, T1 + up, T2 + up };
    const CcdResult r = spacetime_vertex_face_ccd(m);
    expect_hit_at(r, 0.5);
    expect_vec_near(r.contact, Vec3(0.5, 0.2, 0.3), CONTACT_TOLERANCE);
    expect_vec_near(r.normal, Vec3(0, 0, 1), 1e-12); // the vertex starts above the triangle
    EXPECT_NEAR(r.normal_velocity, -2.0, 1e-9); // 0 - (0, 0, 2)
}

TEST(SpacetimeVertexFace, Misses)
{
    expect_miss(spacetime_vertex_face_ccd(against_static_triangle(Vec3(0.75, 0.75, 1), Vec3(0.75, 0.75, -1))));
    expect_miss(spacetime_vertex_face_ccd(against_static_triangle(Vec3(0.25, 0.25, 1), Vec3(0.25, 0.25, 0.5))));
    // Stops one smallest double short of the plane.
    expect_miss(spacetime_vertex_face_ccd(against_static_triangle(Vec3(0.25, 0.25, 1), Vec3(0.25, 0.25, 0x1p-1074))));
    // Passes just outside the hypotenuse x + y = 1.
    expect_miss(spacetime_vertex_face_ccd(
        against_static_triangle(Vec3(0.5, std::nextafter(0.5, 1.0), 1), Vec3(0.5, std::nextafter(0.5, 1.0), -1))));
}

TEST(SpacetimeVertexFace, ContactAtTheEnds)
{
    // Starts on the triangle and leaves: touching at t = 0.
    const CcdResult start = spacetime_vertex_face_ccd(against_static_triangle(Vec3(0.25, 0.5, 0), Vec3(0.25, 0.5, 1)));
    EXPECT_TRUE(start.hit);
    EXPECT_EQ(start.status, CcdStatus::INITIALLY_TOUCHING);
    EXPECT_EQ(start.toi_lower, 0.0);
    EXPECT_EQ(start.toi_upper, 0.0);
    expect_vec_near(start.contact, Vec3(0.25, 0.25, 0.5), CONTACT_TOLERANCE);
    // Arrives on the triangle exactly at t = 1.
    const CcdResult end = spacetime_vertex_face_ccd(against_static_triangle(Vec3(0.25, 0.25, 1), Vec3(0.25, 0.25, 0)));
    expect_hit_at(end, 1.0);
    expect_vec_near(end.contact, Vec3(0.5, 0.25, 0.25), CONTACT_TOLERANCE);
    EXPECT_NEAR(end.normal_velocity, -1.0, 1e-9);
}

TEST(SpacetimeVertexFace, OnAnEdgeOrAVertex)
{
    // Through the middle of the hypotenuse (t1, t2).
    const CcdResult edge = spacetime_vertex_face_ccd(against_static_triangle(Vec3(0.5, 0.5, 1), Vec3(0.5, 0.5, -1)));
    expect_hit_at(edge, 0.5);
    expect_vec_near(edge.contact, Vec3(0, 0.5, 0.5), CONTACT_TOLERANCE);
    // Through the vertex t1, and along the edge (t0, t1) inside the plane.
    const CcdResult vertex = spacetime_vertex_face_ccd(against_static_triangle(Vec3(1, 0, 2), Vec3(1, 0, -2)));
    expect_hit_at(vertex, 0.5);
    expect_vec_near(vertex.contact, Vec3(0, 1, 0), CONTACT_TOLERANCE);
    const CcdResult along = spacetime_vertex_face_ccd(against_static_triangle(Vec3(-1, 0, 0), Vec3(3, 0, 0)));
    expect_hit_at(along, 0.25);
    expect_vec_near(along.contact, Vec3(1, 0, 0), CONTACT_TOLERANCE);
}

TEST(SpacetimeVertexFace, StaticConfigurations)
{
    const Vec3 above(0.2, 0.2, 0.5), on(0.2, 0.2, 0), on_edge(0.5, 0.5, 0);
    expect_miss(spacetime_vertex_face_ccd(against_static_triangle(above, above)));
    for (const Vec3& p : { on, on_edge, T2 }) {
        const CcdResult r = spacetime_vertex_face_ccd(against_static_triangle(p, p));
        EXPECT_TRUE(r.hit) << p.transpose();
        EXPECT_EQ(r.status, CcdStatus::INITIALLY_TOUCHING) << p.transpose();
        EXPECT_EQ(r.toi_upper, 0.0);
    }
}

TEST(SpacetimeVertexFace, CoplanarMotion)
{
    // Everything in z = 0: the vertex slides across the triangle and enters it at x = 0, t = 1/3.
    const CcdResult across = spacetime_vertex_face_ccd(against_static_triangle(Vec3(-1, 0.25, 0), Vec3(2, 0.25, 0)));
    expect_hit_at(across, 1.0 / 3.0);
    expect_vec_near(across.contact, Vec3(0.75, 0, 0.25), CONTACT_TOLERANCE);
    EXPECT_NEAR(across.normal_velocity, 0.0, 1e-9); // the motion lies in the triangle's plane
    // Slides past it, and the triangle slides away from it.
    expect_miss(spacetime_vertex_face_ccd(against_static_triangle(Vec3(-1, 2, 0), Vec3(2, 2, 0))));
    const Vec3 shift(2, 0, 0), p(-0.5, 0.25, 0);
    expect_miss(spacetime_vertex_face_ccd({ p, T0, T1, T2, p, T0 + shift, T1 + shift, T2 + shift }));
    // A degenerate (collinear) triangle in the plane of the motion, crossed at its middle at t = 1/2.
    const VertexFaceMotion collinear { Vec3(1, -1, 0), T0, Vec3(1, 0, 0), Vec3(2, 0, 0),
                                       Vec3(1, 1, 0),  T0, Vec3(1, 0, 0), Vec3(2, 0, 0) };
    const CcdResult r = spacetime_vertex_face_ccd(collinear);
    expect_hit_at(r, 0.5);
    EXPECT_TRUE(oracle::spacetime_vertex_face_oracle(collinear, { 0, 1, 2, 3 }));
}

TEST(SpacetimeVertexFace, TMax)
{
    const auto m = against_static_triangle(Vec3(0.25, 0.25, 1), Vec3(0.25, 0.25, -1)); // contact at t = 1/2
    CcdOptions options;
    options.t_max = 0.4;
    expect_miss(spacetime_vertex_face_ccd(m, { 0, 1, 2, 3 }, options), 0.4);
    options.t_max = 0.6;
    expect_hit_at(spacetime_vertex_face_ccd(m, { 0, 1, 2, 3 }, options), 0.5);
}

TEST(SpacetimeVertexFace, InvalidInput)
{
    for (const double bad : { NaN, INF, -INF }) {
        for (int point = 0; point < 8; ++point) {
            VertexFaceMotion m = against_static_triangle(Vec3(0.25, 0.25, 1), Vec3(0.25, 0.25, -1));
            Vec3* points[8] = { &m.p_t0, &m.t0_t0, &m.t1_t0, &m.t2_t0, &m.p_t1, &m.t0_t1, &m.t1_t1, &m.t2_t1 };
            (*points[point])[point % 3] = bad;
            const CcdResult r = spacetime_vertex_face_ccd(m);
            EXPECT_EQ(r.status, CcdStatus::INVALID_INPUT) << "point " << point << " = " << bad;
            EXPECT_FALSE(r.hit);
        }
    }
    const auto m = against_static_triangle(Vec3(0.25, 0.25, 1), Vec3(0.25, 0.25, -1));
    for (const double t_max : { NaN, -1.0, 2.0 }) {
        CcdOptions options;
        options.t_max = t_max;
        const CcdResult r = spacetime_vertex_face_ccd(m, { 0, 1, 2, 3 }, options);
        EXPECT_EQ(r.status, CcdStatus::INVALID_INPUT) << "t_max = " << t_max;
        EXPECT_FALSE(r.hit);
    }
}

// ---- edge-edge ---------------------------------------------------------------------------------------------

namespace {

/// Edge a along x at height z moves to height z1; edge b lies still along y at z = 0 (shifted by b_shift).
EdgeEdgeMotion falling_across(double z, double z1, const Vec3& b_shift = Vec3::Zero())
{
    return { Vec3(-1, 0, z),  Vec3(1, 0, z),  Vec3(0, -1, 0) + b_shift, Vec3(0, 1, 0) + b_shift,
             Vec3(-1, 0, z1), Vec3(1, 0, z1), Vec3(0, -1, 0) + b_shift, Vec3(0, 1, 0) + b_shift };
}

} // namespace

TEST(SpacetimeEdgeEdge, CrossingEdges)
{
    const CcdResult r = spacetime_edge_edge_ccd(falling_across(1, -1));
    expect_hit_at(r, 0.5);
    expect_vec_near(r.contact, Vec3(0.5, 0.5, 0), CONTACT_TOLERANCE);
    expect_vec_near(r.normal, Vec3(0, 0, 1), 1e-12); // x cross y, towards the side edge a starts on
    EXPECT_NEAR(r.normal_velocity, -2.0, 1e-9);
    // Off-centre: edge b at x = 0.5 is met at s = 3/4.
    const CcdResult off = spacetime_edge_edge_ccd(falling_across(2, -2, Vec3(0.5, 0, 0)));
    expect_hit_at(off, 0.5);
    expect_vec_near(off.contact, Vec3(0.75, 0.5, 0), CONTACT_TOLERANCE);
    // Edge b moves up to meet edge a, which is static.
    const EdgeEdgeMotion both { Vec3(-1, 0, 1), Vec3(1, 0, 1), Vec3(0, -1, -1), Vec3(0, 1, -1),
                                Vec3(-1, 0, 1), Vec3(1, 0, 1), Vec3(0, -1, 3),  Vec3(0, 1, 3) };
    const CcdResult rb = spacetime_edge_edge_ccd(both);
    expect_hit_at(rb, 0.5);
    EXPECT_NEAR(rb.normal_velocity, -4.0, 1e-9);
}

TEST(SpacetimeEdgeEdge, Misses)
{
    expect_miss(spacetime_edge_edge_ccd(falling_across(1, -1, Vec3(1.5, 0, 0)))); // b beside a's end
    expect_miss(spacetime_edge_edge_ccd(falling_across(1, 0x1p-1074))); // stops just above
    expect_miss(spacetime_edge_edge_ccd(falling_across(2, 1)));
}

TEST(SpacetimeEdgeEdge, ContactAtTheEnds)
{
    const CcdResult start = spacetime_edge_edge_ccd(falling_across(0, 1));
    EXPECT_TRUE(start.hit);
    EXPECT_EQ(start.status, CcdStatus::INITIALLY_TOUCHING);
    EXPECT_EQ(start.toi_upper, 0.0);
    expect_vec_near(start.contact, Vec3(0.5, 0.5, 0), CONTACT_TOLERANCE);
    const CcdResult end = spacetime_edge_edge_ccd(falling_across(1, 0));
    expect_hit_at(end, 1.0);
    EXPECT_NEAR(end.normal_velocity, -1.0, 1e-9);
}

TEST(SpacetimeEdgeEdge, ParallelEdges)
{
    // Parallel edges in the plane y = 0: a falls onto and through b, overlapping in x in [0, 1].
    const EdgeEdgeMotion through { Vec3(-1, 0, 1),  Vec3(1, 0, 1),  Vec3(0, 0, 0), Vec3(2, 0, 0),
                                   Vec3(-1, 0, -1), Vec3(1, 0, -1), Vec3(0, 0, 0), Vec3(2, 0, 0) };
    const CcdResult r = spacetime_edge_edge_ccd(through);
    expect_hit_at(r, 0.5);
    EXPECT_EQ(r.normal, Vec3::Zero()); // undefined for parallel edges
    // The same with b one unit aside (y = 1): never touches.
    EdgeEdgeMotion aside = through;
    for (Vec3* x : { &aside.eb0_t0, &aside.eb1_t0, &aside.eb0_t1, &aside.eb1_t1 }) {
        (*x)[1] = 1;
    }
    expect_miss(spacetime_edge_edge_ccd(aside));
    // Collinear, sliding towards each other along the x axis: a = [-3 + 4t, -2 + 4t] and b = [2 - 4t, 3 - 4t]
    // meet at t = 1/2.
    const EdgeEdgeMotion sliding { Vec3(-3, 0, 0), Vec3(-2, 0, 0), Vec3(2, 0, 0),  Vec3(3, 0, 0),
                                   Vec3(1, 0, 0),  Vec3(2, 0, 0),  Vec3(-2, 0, 0), Vec3(-1, 0, 0) };
    expect_hit_at(spacetime_edge_edge_ccd(sliding), 0.5);
}

TEST(SpacetimeEdgeEdge, ZeroLengthEdges)
{
    // A point (edge a collapsed) falls through the middle of edge b.
    const EdgeEdgeMotion point_through { Vec3(0, 0, 1),  Vec3(0, 0, 1),  Vec3(0, -1, 0), Vec3(0, 1, 0),
                                         Vec3(0, 0, -1), Vec3(0, 0, -1), Vec3(0, -1, 0), Vec3(0, 1, 0) };
    const CcdResult r = spacetime_edge_edge_ccd(point_through);
    expect_hit_at(r, 0.5);
    EXPECT_NEAR(r.contact[1], 0.5, CONTACT_TOLERANCE);
    EXPECT_EQ(r.normal, Vec3::Zero());
    EdgeEdgeMotion point_beside = point_through;
    point_beside.ea0_t0.x() = point_beside.ea1_t0.x() = point_beside.ea0_t1.x() = point_beside.ea1_t1.x() = 1e-3;
    expect_miss(spacetime_edge_edge_ccd(point_beside));
    // Two points passing through each other, and passing each other.
    const EdgeEdgeMotion points { Vec3(0, 0, 1),  Vec3(0, 0, 1),  Vec3(0, 0, 0), Vec3(0, 0, 0),
                                  Vec3(0, 0, -1), Vec3(0, 0, -1), Vec3(0, 0, 0), Vec3(0, 0, 0) };
    expect_hit_at(spacetime_edge_edge_ccd(points), 0.5);
    EdgeEdgeMotion apart = points;
    apart.eb0_t0.y() = apart.eb1_t0.y() = apart.eb0_t1.y() = apart.eb1_t1.y() = 0x1p-60;
    expect_miss(spacetime_edge_edge_ccd(apart));
}

TEST(SpacetimeEdgeEdge, StaticConfigurations)
{
    const EdgeEdgeMotion crossing = falling_across(0, 0);
    const CcdResult r = spacetime_edge_edge_ccd(crossing);
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.status, CcdStatus::INITIALLY_TOUCHING);
    expect_miss(spacetime_edge_edge_ccd(falling_across(0.5, 0.5)));
    // Touching at an end point only: b's end is a's end.
    const EdgeEdgeMotion end_to_end { Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 1),
                                      Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 1) };
    EXPECT_EQ(spacetime_edge_edge_ccd(end_to_end).status, CcdStatus::INITIALLY_TOUCHING);
}

TEST(SpacetimeEdgeEdge, CoplanarMotion)
{
    // Everything in z = 0: edge a (along y, at x = -2) slides to x = 2 and reaches the end (1, 0) of the static
    // edge b = (1, 0)-(3, 0) at t = 3/4.
    const EdgeEdgeMotion m { Vec3(-2, -1, 0), Vec3(-2, 1, 0), Vec3(1, 0, 0), Vec3(3, 0, 0),
                             Vec3(2, -1, 0),  Vec3(2, 1, 0),  Vec3(1, 0, 0), Vec3(3, 0, 0) };
    const CcdResult r = spacetime_edge_edge_ccd(m);
    expect_hit_at(r, 0.75);
    expect_vec_near(r.contact, Vec3(0.5, 0, 0), CONTACT_TOLERANCE);
    EXPECT_NEAR(r.normal_velocity, 0.0, 1e-9);
    EdgeEdgeMotion short_of = m;
    short_of.ea0_t1.x() = short_of.ea1_t1.x() = 0.5;
    expect_miss(spacetime_edge_edge_ccd(short_of));
}

TEST(SpacetimeEdgeEdge, InvalidInput)
{
    for (const double bad : { NaN, INF, -INF }) {
        for (int point = 0; point < 8; ++point) {
            EdgeEdgeMotion m = falling_across(1, -1);
            Vec3* points[8]
                = { &m.ea0_t0, &m.ea1_t0, &m.eb0_t0, &m.eb1_t0, &m.ea0_t1, &m.ea1_t1, &m.eb0_t1, &m.eb1_t1 };
            (*points[point])[(point + 1) % 3] = bad;
            const CcdResult r = spacetime_edge_edge_ccd(m);
            EXPECT_EQ(r.status, CcdStatus::INVALID_INPUT) << "point " << point << " = " << bad;
            EXPECT_FALSE(r.hit);
        }
    }
}

// ---- point-edge (2D) ---------------------------------------------------------------------------------------

TEST(SpacetimePointEdge, PointCrossesMovingEdge)
{
    // The point falls from y = 1 to y = -1 while the edge rises from y = 0 to y = 0.5: they meet when
    // 1 - 2t = t / 2, at t = 0.4, in the middle of the edge.
    const PointEdgeMotion2d m { Vec2(0, 1), Vec2(-1, 0), Vec2(1, 0), Vec2(0, -1), Vec2(-1, 0.5), Vec2(1, 0.5) };
    const CcdResult r = spacetime_point_edge_ccd(m);
    expect_hit_at(r, 0.4);
    expect_vec_near(r.contact, Vec3(0.5, 0.5, 0), CONTACT_TOLERANCE);
    expect_vec_near(r.normal, Vec3(0, 1, 0), 1e-12);
    EXPECT_NEAR(r.normal_velocity, -2.5, 1e-9); // (0, 1) . ((0, -2) - (0, 0.5))
    // Near the edge's end e1 (x = 0.9): s = 0.95.
    const PointEdgeMotion2d near_end { Vec2(0.9, 1), m.e0_t0, m.e1_t0, Vec2(0.9, -1), m.e0_t1, m.e1_t1 };
    const CcdResult re = spacetime_point_edge_ccd(near_end);
    expect_hit_at(re, 0.4);
    expect_vec_near(re.contact, Vec3(0.05, 0.95, 0), CONTACT_TOLERANCE);
}

TEST(SpacetimePointEdge, MissesAndEnds)
{
    const Vec2 e0(-1, 0), e1(1, 0);
    expect_miss(spacetime_point_edge_ccd({ Vec2(2, 1), e0, e1, Vec2(2, -1), e0, e1 }));
    expect_miss(spacetime_point_edge_ccd({ Vec2(0, 1), e0, e1, Vec2(0, 0x1p-1074), e0, e1 }));
    expect_hit_at(spacetime_point_edge_ccd({ Vec2(0, 1), e0, e1, Vec2(0, 0), e0, e1 }), 1.0);
    expect_hit_at(spacetime_point_edge_ccd({ Vec2(1, 1), e0, e1, Vec2(1, -1), e0, e1 }), 0.5); // through e1
    const CcdResult start = spacetime_point_edge_ccd({ Vec2(-1, 0), e0, e1, Vec2(-1, 1), e0, e1 });
    EXPECT_TRUE(start.hit);
    EXPECT_EQ(start.status, CcdStatus::INITIALLY_TOUCHING);
    expect_vec_near(start.contact, Vec3(1, 0, 0), CONTACT_TOLERANCE);
    // Static: on the edge, and off it.
    const CcdResult on = spacetime_point_edge_ccd({ Vec2(0.5, 0), e0, e1, Vec2(0.5, 0), e0, e1 });
    EXPECT_EQ(on.status, CcdStatus::INITIALLY_TOUCHING);
    expect_miss(spacetime_point_edge_ccd({ Vec2(0.5, 0.5), e0, e1, Vec2(0.5, 0.5), e0, e1 }));
    // Collinear motion along the edge's line: reaches e0 at t = 1/2.
    expect_hit_at(spacetime_point_edge_ccd({ Vec2(-3, 0), e0, e1, Vec2(1, 0), e0, e1 }), 0.5);
}

TEST(SpacetimePointEdge, ZeroLengthEdge)
{
    const Vec2 e(0, 0);
    expect_hit_at(spacetime_point_edge_ccd({ Vec2(-1, 0), e, e, Vec2(1, 0), e, e }), 0.5);
    expect_miss(spacetime_point_edge_ccd({ Vec2(-1, 0x1p-70), e, e, Vec2(1, 0x1p-70), e, e }));
}

TEST(SpacetimePointEdge, InvalidInput)
{
    for (const double bad : { NaN, INF, -INF }) {
        for (int point = 0; point < 6; ++point) {
            PointEdgeMotion2d m { Vec2(0, 1), Vec2(-1, 0), Vec2(1, 0), Vec2(0, -1), Vec2(-1, 0.5), Vec2(1, 0.5) };
            Vec2* points[6] = { &m.p_t0, &m.e0_t0, &m.e1_t0, &m.p_t1, &m.e0_t1, &m.e1_t1 };
            (*points[point])[point % 2] = bad;
            const CcdResult r = spacetime_point_edge_ccd(m);
            EXPECT_EQ(r.status, CcdStatus::INVALID_INPUT) << "point " << point << " = " << bad;
            EXPECT_FALSE(r.hit);
        }
    }
}

// ---- ids -------------------------------------------------------------------------------------------------

namespace {

/// A random order-preserving relabelling of ids: sorted ids go to sorted random distinct values.
SpacetimeIds relabel(const SpacetimeIds& ids, std::mt19937_64& rng)
{
    std::array<std::int64_t, 4> values;
    do {
        for (auto& v : values) {
            v = static_cast<std::int64_t>(rng());
        }
        std::sort(values.begin(), values.end());
    } while (std::adjacent_find(values.begin(), values.end()) != values.end());
    std::array<int, 4> order = { 0, 1, 2, 3 };
    std::sort(order.begin(), order.end(), [&ids](int a, int b) { return ids[a] < ids[b]; });
    SpacetimeIds out {};
    for (int rank = 0; rank < 4; ++rank) {
        out[order[rank]] = values[rank];
    }
    return out;
}

bool same_result(const CcdResult& a, const CcdResult& b)
{
    return a.hit == b.hit && a.status == b.status && a.toi_lower == b.toi_lower && a.toi_upper == b.toi_upper;
}

} // namespace

TEST(SpacetimeIds, OrderPreservingRelabellingChangesNothing)
{
    // Grid queries (many touching, split-sensitive cases) with all 24 id orders, each relabelled at random.
    std::mt19937_64 rng(0x1d5);
    std::array<int, 4> perm = { 0, 1, 2, 3 };
    int hits = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        std::array<Vec3, 8> x;
        for (auto& p : x) {
            for (int k = 0; k < 3; ++k) {
                p[k] = static_cast<double>(static_cast<int>(rng() % 5) - 2) * 0.5;
            }
        }
        std::next_permutation(perm.begin(), perm.end());
        const SpacetimeIds ids = { perm[0], perm[1], perm[2], perm[3] };
        const SpacetimeIds other = relabel(ids, rng);
        const VertexFaceMotion vf { x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] };
        const CcdResult r = spacetime_vertex_face_ccd(vf, ids);
        hits += r.hit;
        EXPECT_TRUE(same_result(r, spacetime_vertex_face_ccd(vf, other))) << "trial " << trial;
        // The vertex's own id plays no part in the model.
        SpacetimeIds moved_p = ids;
        moved_p[0] = static_cast<std::int64_t>(rng());
        EXPECT_TRUE(same_result(r, spacetime_vertex_face_ccd(vf, moved_p))) << "trial " << trial;
        const EdgeEdgeMotion ee { x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] };
        EXPECT_TRUE(same_result(spacetime_edge_edge_ccd(ee, ids), spacetime_edge_edge_ccd(ee, other)))
            << "trial " << trial;
        const PointEdgeMotion2d pe { x[0].head<2>(), x[1].head<2>(), x[2].head<2>(),
                                     x[4].head<2>(), x[5].head<2>(), x[6].head<2>() };
        EXPECT_TRUE(same_result(spacetime_point_edge_ccd(pe, ids), spacetime_point_edge_ccd(pe, other)))
            << "trial " << trial;
    }
    EXPECT_GT(hits, 100);
}

TEST(SpacetimeIds, SplitDecidesTwistedCase)
{
    // The twisting edge of the oracle's tests: a static point at (1.25, 1) is inside one split and not the other.
    const PointEdgeMotion2d m { Vec2(1.25, 1), Vec2(0, 0), Vec2(2, 0), Vec2(1.25, 1), Vec2(2, 2), Vec2(0, 2) };
    EXPECT_FALSE(spacetime_point_edge_ccd(m, { 0, 1, 2, 3 }).hit);
    EXPECT_TRUE(spacetime_point_edge_ccd(m, { 0, 2, 1, 3 }).hit);
    EXPECT_TRUE(spacetime_point_edge_ccd(m, { 9, 7, -4, 3 }).hit);
}

// ---- regressions found by the differential test (tests/narrow/test_spacetime_oracle.cpp) --------------------

namespace {

/// The oracle brackets the earliest contact time t* (exactly) to [t* - 1e-9, t*]; the method must report it.
template <class Motion, class ContactBy>
void expect_earliest_contact(const CcdResult& r, const Motion& m, const SpacetimeIds& ids, double t_star, ContactBy by)
{
    ASSERT_TRUE(by(m, ids, mpq_class(t_star)));
    ASSERT_FALSE(by(m, ids, mpq_class(t_star - 1e-9)));
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.status, CcdStatus::HIT);
    EXPECT_NEAR(r.toi_lower, t_star, 1e-6);
    EXPECT_NEAR(r.toi_upper, t_star, 1e-6);
}

} // namespace

TEST(SpacetimeRegression, VertexFaceOnAPlaneEarliestContact)
{
    // All eight points on one integer plane; the oracle puts the earliest contact at t = 1/5.
    const VertexFaceMotion m { Vec3(0, -2, 6),  Vec3(0, 0, 2),  Vec3(0, 0, 2), Vec3(0, -1, 4),
                               Vec3(-1, 2, -2), Vec3(1, -2, 6), Vec3(1, 1, 0), Vec3(-1, -2, 6) };
    const SpacetimeIds ids = { -2, -8557708897383946006, -5779306878154745239, -3 };
    expect_earliest_contact(spacetime_vertex_face_ccd(m, ids), m, ids, 0.2, oracle::spacetime_vertex_face_contact_by);
}

TEST(SpacetimeRegression, EdgeEdgeVertexPassesThroughEndpoint)
{
    // eb0 moves from (-2, 2, 0) to (2, 2, 2) and passes the static end ea0 = (0, 2, 1) at t = 1/2.
    const EdgeEdgeMotion m { Vec3(0, 2, 1), Vec3(2, 2, 2), Vec3(-2, 2, 0), Vec3(0, -2, 1),
                             Vec3(0, 2, 1), Vec3(2, 2, 2), Vec3(2, 2, 2),  Vec3(-2, 2, 0) };
    const SpacetimeIds ids = { 9113156546828070266, -1, 0, 4871070551807388265 };
    expect_earliest_contact(spacetime_edge_edge_ccd(m, ids), m, ids, 0.5, oracle::spacetime_edge_edge_contact_by);
}

TEST(SpacetimeRegression, EdgeEdgeContactOnlyAtTheEnd)
{
    // At t = 0 ea0 and eb0 differ only in the last bits of z; at t = 1 ea0, eb0 and eb1 coincide: the only
    // contact is at t = 1 (the oracle finds none by 1 - 1e-9), so the status is not INITIALLY_TOUCHING.
    const EdgeEdgeMotion m { Vec3(0x1.270aa4a12ca56p-501, -0x1.deea7b54b2acp-501, -0x1.aed64a990402dp-503),
                             Vec3(-0x1.4b3915dda51dp-503, 0x1.f702511e838ep-501, 0x1.153a9b374a7d8p-503),
                             Vec3(0x1.270aa4a12ca56p-501, -0x1.deea7b54b2acp-501, -0x1.aed64a990275p-503),
                             Vec3(0x1.87689642ba9e6p-500, -0x1.5b72789ce02b8p-499, -0x1.1f47d4d48191p-505),
                             Vec3(0x1.39d728c043ep-503, -0x1.52cff94ef6d69p-499, 0x1.af92a9873fbp-502),
                             Vec3(-0x1.4ef2c8e1175fp-501, -0x1.59c0224166f12p-501, 0x1.686f4952f87ap-503),
                             Vec3(0x1.39d728c043ep-503, -0x1.52cff94ef6d69p-499, 0x1.af92a9873fbp-502),
                             Vec3(0x1.39d728c043ep-503, -0x1.52cff94ef6d69p-499, 0x1.af92a9873fbp-502) };
    const SpacetimeIds ids = { 8017903591018304513, -1, -8004969794542389076, 879041715910222825 };
    EXPECT_FALSE(oracle::edge_edge_touching_at_start(m));
    expect_earliest_contact(spacetime_edge_edge_ccd(m, ids), m, ids, 1.0, oracle::spacetime_edge_edge_contact_by);
}
