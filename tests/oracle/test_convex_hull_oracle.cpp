// SPDX-License-Identifier: MIT
// Tests of the exact convex-hull intersection oracle and the space-time simplices built from queries:
// hand-built cases whose answer is obvious, and randomized cases whose answer is known by construction
// (a common point placed in both hulls, or a separating hyperplane with each list strictly on one side).

#include "oracle/convex_hull_oracle.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

namespace {

using ccdkit::EdgeEdgeMotion;
using ccdkit::PointEdgeMotion2d;
using ccdkit::VertexFaceMotion;
using ccdkit::oracle::convex_hulls_intersect;
using ccdkit::oracle::RationalPoint;
using ccdkit::oracle::RationalPoints;
using Vec3 = Eigen::Vector3d;
using Vec2 = Eigen::Vector2d;

RationalPoints pts(std::initializer_list<std::initializer_list<mpq_class>> rows)
{
    RationalPoints out;
    for (const auto& row : rows) {
        out.emplace_back(row);
    }
    return out;
}

/// The answer, checked to be the same with the two lists swapped and with each list reversed.
bool meet(const RationalPoints& P, const RationalPoints& Q)
{
    const bool answer = convex_hulls_intersect(P, Q);
    EXPECT_EQ(convex_hulls_intersect(Q, P), answer) << "not symmetric";
    const RationalPoints P_reversed(P.rbegin(), P.rend()), Q_reversed(Q.rbegin(), Q.rend());
    EXPECT_EQ(convex_hulls_intersect(P_reversed, Q_reversed), answer) << "depends on the point order";
    return answer;
}

const mpq_class THIRD(1, 3);
const mpq_class TINY(1, mpz_class("1000000000000000000000000000000")); // 1e-30, exactly

} // namespace

TEST(ConvexHullOracle, Segments2d)
{
    EXPECT_FALSE(meet(pts({ { 0, 0 }, { 1, 0 } }), pts({ { 0, 1 }, { 1, 1 } }))); // parallel, disjoint
    EXPECT_TRUE(meet(pts({ { 0, 0 }, { 2, 2 } }), pts({ { 0, 2 }, { 2, 0 } }))); // crossing
    EXPECT_TRUE(meet(pts({ { 0, 0 }, { 1, 0 } }), pts({ { 1, 0 }, { 2, 5 } }))); // touching at a vertex
    EXPECT_TRUE(meet(pts({ { 0, 0 }, { 2, 0 } }), pts({ { 1, 0 }, { 1, 5 } }))); // T junction
    EXPECT_TRUE(meet(pts({ { 0, 0 }, { 2, 0 } }), pts({ { 1, 0 }, { 3, 0 } }))); // collinear, overlapping
    EXPECT_FALSE(meet(pts({ { 0, 0 }, { 1, 0 } }), pts({ { 2, 0 }, { 3, 0 } }))); // collinear, apart
    // Boxes overlap but the segments miss by 1e-30.
    EXPECT_FALSE(meet(pts({ { 0, 0 }, { 2, 2 } }), pts({ { 0, mpq_class(2) + TINY }, { 1, 1 + TINY } })));
    EXPECT_TRUE(meet(pts({ { 0, 0 }, { 2, 2 } }), pts({ { 0, 2 }, { 1, 1 } })));
}

TEST(ConvexHullOracle, Segments3dAndTriangles)
{
    // Skew segments: the boxes overlap, the segments miss.
    EXPECT_FALSE(meet(pts({ { 0, 0, 0 }, { 1, 1, 0 } }), pts({ { 0, 1, 1 }, { 1, 0, 1 } })));
    EXPECT_FALSE(meet(pts({ { 0, 0, -1 }, { 1, 1, 1 } }), pts({ { 0, 1, 1 }, { 1, 0, -1 + TINY } })));
    EXPECT_TRUE(meet(pts({ { 0, 0, -1 }, { 1, 1, 1 } }), pts({ { 0, 1, 1 }, { 1, 0, -1 } })));
    const RationalPoints triangle = pts({ { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } });
    EXPECT_TRUE(meet(pts({ { 1, 1, -1 }, { 1, 1, 1 } }), triangle)); // through the interior
    EXPECT_FALSE(meet(pts({ { 3, 3, -1 }, { 3, 3, 1 } }), triangle)); // beside it
    EXPECT_TRUE(meet(pts({ { 2, 2, -1 }, { 2, 2, 1 } }), triangle)); // through the hypotenuse
    EXPECT_TRUE(meet(pts({ { 0, 0, 5 }, { 0, 0, 0 } }), triangle)); // ends on a vertex
    EXPECT_FALSE(meet(pts({ { 1, 1, TINY }, { 1, 1, 1 } }), triangle)); // stops just above
    EXPECT_TRUE(meet(pts({ { -1, 1, 0 }, { 5, 1, 0 } }), triangle)); // in the plane, across
    // Coplanar triangles.
    EXPECT_TRUE(meet(triangle, pts({ { 1, 1, 0 }, { 5, 1, 0 }, { 1, 5, 0 } }))); // overlapping
    EXPECT_TRUE(meet(triangle, pts({ { 4, 0, 0 }, { 0, 4, 0 }, { 4, 4, 0 } }))); // sharing an edge
    EXPECT_TRUE(meet(triangle, pts({ { 2, 2, 0 }, { 5, 5, 0 }, { 5, 2, 0 } }))); // touching at a vertex
    EXPECT_FALSE(meet(triangle, pts({ { 2 + TINY, 2, 0 }, { 5, 5, 0 }, { 5, 2, 0 } })));
    // Parallel planes, and a triangle piercing another.
    EXPECT_FALSE(meet(triangle, pts({ { 0, 0, 1 }, { 4, 0, 1 }, { 0, 4, 1 } })));
    EXPECT_TRUE(meet(triangle, pts({ { 1, 1, -1 }, { 1, 1, 1 }, { 9, 9, 1 } })));
}

TEST(ConvexHullOracle, FourDimensions)
{
    // A segment through a tetrahedron of the hyperplane w = 0.
    const RationalPoints tetrahedron = pts({ { 0, 0, 0, 0 }, { 3, 0, 0, 0 }, { 0, 3, 0, 0 }, { 0, 0, 3, 0 } });
    EXPECT_TRUE(meet(pts({ { 1, 1, 1, -1 }, { 1, 1, 1, 1 } }), tetrahedron));
    EXPECT_FALSE(meet(pts({ { 1, 1, 1, TINY }, { 1, 1, 1, 1 } }), tetrahedron));
    EXPECT_TRUE(meet(pts({ { 1, 1, 1, 0 }, { 1, 1, 1, 1 } }), tetrahedron)); // ends on the face x+y+z = 3
    EXPECT_FALSE(meet(pts({ { 1, 1, 1 + TINY, -1 }, { 1, 1, 1 + TINY, 1 } }), tetrahedron));
    // Two triangles in orthogonal planes meet in exactly one point (generic in 4D).
    const RationalPoints xy = pts({ { -1, -1, 0, 0 }, { 2, -1, 0, 0 }, { -1, 2, 0, 0 } });
    EXPECT_TRUE(meet(xy, pts({ { 0, 0, -1, -1 }, { 0, 0, 2, -1 }, { 0, 0, -1, 2 } })));
    EXPECT_FALSE(meet(xy, pts({ { 0, -1 - TINY, -1, -1 }, { 0, -1 - TINY, 2, -1 }, { 0, -1 - TINY, -1, 2 } })));
    EXPECT_TRUE(meet(xy, pts({ { 0, -1, -1, -1 }, { 0, -1, 2, -1 }, { 0, -1, -1, 2 } }))); // on an edge of xy
    EXPECT_FALSE(meet(xy, pts({ { 0, 0, TINY, TINY }, { 0, 0, 2, 1 }, { 0, 0, 1, 2 } }))); // misses the origin
}

TEST(ConvexHullOracle, PointInsideSimplex)
{
    // The centroid of the standard simplex of R^n and points beside it, for n = 1..6.
    for (int n = 1; n <= 6; ++n) {
        SCOPED_TRACE(n);
        RationalPoints simplex(static_cast<std::size_t>(n) + 1, RationalPoint(static_cast<std::size_t>(n), 0));
        for (int k = 0; k < n; ++k) {
            simplex[static_cast<std::size_t>(k) + 1][static_cast<std::size_t>(k)] = 1;
        }
        RationalPoint centroid(static_cast<std::size_t>(n), mpq_class(1, n + 1));
        EXPECT_TRUE(meet({ centroid }, simplex));
        RationalPoint on_face(static_cast<std::size_t>(n), mpq_class(1, n)); // on x_1 + ... + x_n = 1
        EXPECT_TRUE(meet({ on_face }, simplex));
        on_face[0] += TINY;
        EXPECT_FALSE(meet({ on_face }, simplex));
        RationalPoint below = centroid;
        below[static_cast<std::size_t>(n) - 1] = -TINY;
        EXPECT_FALSE(meet({ below }, simplex));
        EXPECT_TRUE(meet({ simplex.back() }, simplex)); // a vertex
    }
}

TEST(ConvexHullOracle, IdenticalAndRepeatedPoints)
{
    EXPECT_TRUE(meet(pts({ { 1, 2, 3 } }), pts({ { 1, 2, 3 } })));
    EXPECT_FALSE(meet(pts({ { 1, 2, 3 } }), pts({ { 1, 2, mpq_class(3) + TINY } })));
    // Repeated points: a "triangle" that is a segment, a "tetrahedron" that is a point.
    const RationalPoints flat = pts({ { 0, 0, 0 }, { 2, 0, 0 }, { 2, 0, 0 } });
    EXPECT_TRUE(meet(pts({ { 1, -1, 0 }, { 1, 1, 0 } }), flat));
    EXPECT_FALSE(meet(pts({ { 1, -1, 1 }, { 1, 1, 0 + TINY } }), flat));
    const RationalPoints point = pts({ { THIRD, THIRD, 0, 1 }, { THIRD, THIRD, 0, 1 }, { THIRD, THIRD, 0, 1 } });
    EXPECT_TRUE(meet(pts({ { 0, 0, 0, 0 }, { 1, 1, 0, 3 } }), point)); // passes (1/3, 1/3, 0, 1)
    EXPECT_FALSE(meet(pts({ { 0, 0, 0, 0 }, { 1, 1, 0, 3 + TINY } }), point));
    EXPECT_TRUE(meet(point, point));
    EXPECT_TRUE(meet(pts({ { 5 }, { 5 }, { 7 } }), pts({ { 7 }, { 9 } }))); // 1D: intervals touching
    EXPECT_FALSE(meet(pts({ { 5 }, { 5 }, { 7 } }), pts({ { mpq_class(7) + TINY }, { 9 } })));
}

TEST(ConvexHullOracle, ConstantCoordinates)
{
    // A coordinate that is constant over both lists: equal values drop out, different ones separate.
    EXPECT_TRUE(meet(pts({ { 0, 7, 0 }, { 2, 7, 2 } }), pts({ { 0, 7, 2 }, { 2, 7, 0 } })));
    EXPECT_FALSE(meet(pts({ { 0, 7, 0 }, { 2, 7, 2 } }), pts({ { 0, 8, 2 }, { 2, 8, 0 } })));
    EXPECT_TRUE(meet(pts({ { 3, 3, 3 } }), pts({ { 3, 3, 3 }, { 3, 3, 3 } })));
}

TEST(ConvexHullOracle, HugeAndTinyScales)
{
    for (const int e : { -1000, -500, 500, 1000 }) {
        SCOPED_TRACE(e);
        mpq_class s = 1;
        mpq_mul_2exp(s.get_mpq_t(), s.get_mpq_t(), static_cast<mp_bitcnt_t>(std::abs(e)));
        if (e < 0) {
            s = 1 / s;
        }
        EXPECT_TRUE(meet(pts({ { 0, 0 }, { 2 * s, 2 * s } }), pts({ { 0, 2 * s }, { 2 * s, 0 } })));
        EXPECT_FALSE(meet(pts({ { 0, 0 }, { 2 * s, 2 * s } }), pts({ { 0, 2 * s }, { s - s * TINY, s + s * TINY } })));
    }
}

TEST(ConvexHullOracle, BoundOnTheLastCoordinate)
{
    using ccdkit::oracle::convex_hulls_intersect_up_to;
    // The crossing segments meet at (1, 1) only.
    const RationalPoints a = pts({ { 0, 0 }, { 2, 2 } }), b = pts({ { 0, 2 }, { 2, 0 } });
    EXPECT_TRUE(convex_hulls_intersect_up_to(a, b, 1));
    EXPECT_TRUE(convex_hulls_intersect_up_to(a, b, 100));
    EXPECT_FALSE(convex_hulls_intersect_up_to(a, b, 1 - TINY));
    EXPECT_FALSE(convex_hulls_intersect_up_to(a, b, -5));
    // In (x, t): the cone t >= |x| / 2 (up to t = 1) and a narrower one from (0, 1/4) overlap from t = 1/4 on.
    const RationalPoints wide = pts({ { 0, 0 }, { 2, 1 }, { -2, 1 } });
    const RationalPoints narrow = pts({ { 0, mpq_class(1, 4) }, { 3, 2 }, { -3, 2 } });
    EXPECT_TRUE(convex_hulls_intersect_up_to(wide, narrow, mpq_class(1, 4)));
    EXPECT_FALSE(convex_hulls_intersect_up_to(wide, narrow, mpq_class(1, 4) - TINY));
    EXPECT_TRUE(convex_hulls_intersect_up_to(narrow, wide, mpq_class(1, 4)));
    EXPECT_FALSE(convex_hulls_intersect_up_to(narrow, wide, mpq_class(1, 4) - TINY));
    EXPECT_TRUE(
        convex_hulls_intersect_up_to(wide, pts({ { -5, mpq_class(1, 4) }, { 5, mpq_class(1, 4) } }), mpq_class(1, 4)));
    // A constant last coordinate.
    EXPECT_TRUE(convex_hulls_intersect_up_to(pts({ { 1, 3 } }), pts({ { 0, 3 }, { 2, 3 } }), 3));
    EXPECT_FALSE(convex_hulls_intersect_up_to(pts({ { 1, 3 } }), pts({ { 0, 3 }, { 2, 3 } }), 3 - TINY));
}

TEST(ConvexHullOracle, BadInput)
{
    EXPECT_FALSE(convex_hulls_intersect({}, pts({ { 1, 2 } })));
    EXPECT_FALSE(convex_hulls_intersect(pts({ { 1, 2 } }), {}));
    EXPECT_THROW((void)convex_hulls_intersect(pts({ { 1, 2 } }), pts({ { 1, 2, 3 } })), std::invalid_argument);
    EXPECT_THROW((void)convex_hulls_intersect(pts({ { 1, 2 }, { 1 } }), pts({ { 1, 2 } })), std::invalid_argument);
    EXPECT_THROW(
        (void)convex_hulls_intersect(RationalPoints { RationalPoint {} }, RationalPoints { RationalPoint {} }),
        std::invalid_argument);
    EXPECT_THROW((void)ccdkit::oracle::to_rational(std::nan("")), std::invalid_argument);
    EXPECT_THROW((void)ccdkit::oracle::to_rational(-INFINITY), std::invalid_argument);
    EXPECT_EQ(ccdkit::oracle::to_rational(0x1p-1074), mpq_class(1, mpz_class(1) << 1074));
    EXPECT_EQ(ccdkit::oracle::to_rational(-0.1), mpq_class(-3602879701896397, mpz_class(1) << 55));
}

namespace {

/// Random small rationals num / den with |num| <= 60, den in 1..4.
class RandomRationals {
public:
    explicit RandomRationals(std::uint64_t seed)
        : rng_(seed)
    {
    }
    mpq_class next()
    {
        mpq_class q(
            std::uniform_int_distribution<long>(-60, 60)(rng_), std::uniform_int_distribution<long>(1, 4)(rng_));
        q.canonicalize();
        return q;
    }
    int count(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    RationalPoints points(int count, int n)
    {
        RationalPoints out(static_cast<std::size_t>(count), RationalPoint(static_cast<std::size_t>(n)));
        for (auto& x : out) {
            for (auto& c : x) {
                c = next();
            }
        }
        return out;
    }
    /// Random convex weights (nonnegative, some zero, summing to 1).
    std::vector<mpq_class> weights(std::size_t count)
    {
        std::vector<mpq_class> w(count);
        mpq_class sum = 0;
        for (auto& v : w) {
            v = std::uniform_int_distribution<long>(0, 1)(rng_) == 0 ? 0
                                                                     : std::uniform_int_distribution<long>(1, 9)(rng_);
            sum += v;
        }
        if (sum == 0) {
            w[0] = sum = 1;
        }
        for (auto& v : w) {
            v /= sum;
        }
        return w;
    }

private:
    std::mt19937_64 rng_;
};

RationalPoint combination(const RationalPoints& x, const std::vector<mpq_class>& w)
{
    RationalPoint p(x.front().size(), 0);
    for (std::size_t i = 0; i < x.size(); ++i) {
        for (std::size_t k = 0; k < p.size(); ++k) {
            p[k] += w[i] * x[i][k];
        }
    }
    return p;
}

mpq_class dot(const RationalPoint& a, const RationalPoint& b)
{
    mpq_class s = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
        s += a[k] * b[k];
    }
    return s;
}

} // namespace

TEST(ConvexHullOracle, RandomWithACommonPoint)
{
    // Translate Q so that a random convex combination of it lands on one of P: the hulls meet.
    RandomRationals random(0xc0ffee);
    for (int trial = 0; trial < 3000; ++trial) {
        const int n = random.count(1, 6);
        const RationalPoints P = random.points(random.count(1, n + 2), n);
        RationalPoints Q = random.points(random.count(1, n + 2), n);
        const RationalPoint p = combination(P, random.weights(P.size()));
        const RationalPoint q = combination(Q, random.weights(Q.size()));
        for (auto& x : Q) {
            for (std::size_t k = 0; k < x.size(); ++k) {
                x[k] += p[k] - q[k];
            }
        }
        ASSERT_TRUE(meet(P, Q)) << "trial " << trial;
    }
}

TEST(ConvexHullOracle, RandomWithASeparatingHyperplane)
{
    // Points with dot(normal, x) <= 0 against points with dot(normal, x) >= gap > 0: the hulls are disjoint.
    // With gap = 0 and a point of each on the hyperplane, moved onto one common point, they touch.
    RandomRationals random(0xfeed);
    for (int trial = 0; trial < 3000; ++trial) {
        const int n = random.count(1, 6);
        RationalPoint normal = random.points(1, n).front();
        if (dot(normal, normal) == 0) {
            normal[0] = 1;
        }
        const auto project = [&](RationalPoints x, bool below, const mpq_class& gap) {
            for (auto& point : x) {
                const mpq_class d = dot(normal, point) / dot(normal, normal);
                // Move the point along the normal to the chosen side, at distance at least gap.
                const mpq_class target
                    = below ? (d < 0 ? d : mpq_class(-d)) : (d > gap ? d : mpq_class(gap + (d < 0 ? -d : d)));
                for (std::size_t k = 0; k < point.size(); ++k) {
                    point[k] += (target - d) * normal[k];
                }
            }
            return x;
        };
        const mpq_class gap(1, mpz_class(1) << random.count(0, 40));
        const RationalPoints P = project(random.points(random.count(1, n + 2), n), true, 0);
        RationalPoints Q = project(random.points(random.count(1, n + 2), n), false, gap);
        ASSERT_FALSE(meet(P, Q)) << "trial " << trial;
        // Touching: move one point of each onto a common point of the hyperplane.
        RationalPoints P_touch = P;
        RationalPoint on_plane = random.points(1, n).front();
        const mpq_class d = dot(normal, on_plane) / dot(normal, normal);
        for (std::size_t k = 0; k < on_plane.size(); ++k) {
            on_plane[k] -= d * normal[k];
        }
        P_touch[0] = on_plane;
        Q[0] = on_plane;
        ASSERT_TRUE(meet(P_touch, Q)) << "trial " << trial;
    }
}

// ---- Space-time simplices and queries ------------------------------------------------------------------

TEST(SpacetimeOracle, EdgeTrianglesFollowTheIds)
{
    const Vec3 a(0, 0, 0), b(1, 0, 0), a1(0, 1, 0), b1(1, 1, 0);
    const auto t = ccdkit::oracle::spacetime_edge_triangles(a, b, a1, b1, 4, 9);
    EXPECT_EQ(t[0], pts({ { 0, 0, 0, 0 }, { 1, 0, 0, 0 }, { 1, 1, 0, 1 } })); // (a, b, b')
    EXPECT_EQ(t[1], pts({ { 0, 0, 0, 0 }, { 0, 1, 0, 1 }, { 1, 1, 0, 1 } })); // (a, a', b')
    const auto swapped = ccdkit::oracle::spacetime_edge_triangles(a, b, a1, b1, 9, 4); // now b is the lower id
    EXPECT_EQ(swapped[0], pts({ { 1, 0, 0, 0 }, { 0, 0, 0, 0 }, { 0, 1, 0, 1 } }));
    EXPECT_EQ(swapped[1], pts({ { 1, 0, 0, 0 }, { 1, 1, 0, 1 }, { 0, 1, 0, 1 } }));
    EXPECT_THROW((void)ccdkit::oracle::spacetime_edge_triangles(a, b, a1, b1, 3, 3), std::invalid_argument);
    const auto path = ccdkit::oracle::spacetime_vertex_path(Vec2(1, 2), Vec2(3, 4));
    EXPECT_EQ(path, pts({ { 1, 2, 0 }, { 3, 4, 1 } }));
}

TEST(SpacetimeOracle, PrismTetrahedraFollowTheIds)
{
    const Vec3 x0(0, 0, 0), x1(1, 0, 0), x2(0, 1, 0);
    const Vec3 y0(0, 0, 5), y1(1, 0, 5), y2(0, 1, 5);
    // ids 7, 2, 5: sorted order is vertex 1 (a), vertex 2 (b), vertex 0 (c).
    const auto tets = ccdkit::oracle::spacetime_prism_tetrahedra(x0, x1, x2, y0, y1, y2, { 7, 2, 5 });
    const RationalPoint a = { 1, 0, 0, 0 }, b = { 0, 1, 0, 0 }, c = { 0, 0, 0, 0 };
    const RationalPoint a1 = { 1, 0, 5, 1 }, b1 = { 0, 1, 5, 1 }, c1 = { 0, 0, 5, 1 };
    EXPECT_EQ(tets[0], (RationalPoints { a, b, c, c1 }));
    EXPECT_EQ(tets[1], (RationalPoints { a, b, b1, c1 }));
    EXPECT_EQ(tets[2], (RationalPoints { a, a1, b1, c1 }));
    EXPECT_THROW(
        (void)ccdkit::oracle::spacetime_prism_tetrahedra(x0, x1, x2, y0, y1, y2, { 1, 2, 1 }), std::invalid_argument);
}

TEST(SpacetimeOracle, VertexFace)
{
    using ccdkit::oracle::spacetime_vertex_face_oracle;
    const Vec3 t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0);
    const ccdkit::SpacetimeIds ids = { 0, 1, 2, 3 };
    // Falls through the static triangle.
    EXPECT_TRUE(
        spacetime_vertex_face_oracle({ Vec3(0.25, 0.25, 1), t0, t1, t2, Vec3(0.25, 0.25, -1), t0, t1, t2 }, ids));
    // Falls beside it.
    EXPECT_FALSE(
        spacetime_vertex_face_oracle({ Vec3(0.75, 0.75, 1), t0, t1, t2, Vec3(0.75, 0.75, -1), t0, t1, t2 }, ids));
    // Stops on it at t = 1, starts on it at t = 0, stops just above.
    EXPECT_TRUE(
        spacetime_vertex_face_oracle({ Vec3(0.25, 0.25, 1), t0, t1, t2, Vec3(0.25, 0.25, 0), t0, t1, t2 }, ids));
    EXPECT_TRUE(
        spacetime_vertex_face_oracle({ Vec3(0.25, 0.25, 0), t0, t1, t2, Vec3(0.25, 0.25, 1), t0, t1, t2 }, ids));
    EXPECT_FALSE(spacetime_vertex_face_oracle(
        { Vec3(0.25, 0.25, 1), t0, t1, t2, Vec3(0.25, 0.25, 0x1p-1074), t0, t1, t2 }, ids));
    // The triangle rises through a static vertex.
    const Vec3 up(0, 0, 2);
    EXPECT_TRUE(spacetime_vertex_face_oracle(
        { Vec3(0.2, 0.3, 1), t0, t1, t2, Vec3(0.2, 0.3, 1), t0 + up, t1 + up, t2 + up }, ids));
    EXPECT_TRUE(ccdkit::oracle::vertex_face_touching_at_start({ Vec3(0.5, 0.5, 0), t0, t1, t2, {}, {}, {}, {} }));
    EXPECT_FALSE(ccdkit::oracle::vertex_face_touching_at_start(
        { Vec3(0.5, 0.5 + 0x1p-53, 0), t0, t1, t2, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero() }));
    EXPECT_THROW(
        (void)spacetime_vertex_face_oracle({ Vec3(NAN, 0, 0), t0, t1, t2, Vec3::Zero(), t0, t1, t2 }, ids),
        std::invalid_argument);
}

TEST(SpacetimeOracle, SplitMatters)
{
    // A twisting edge: the split diagonal decides whether a point passing the middle of the quad is hit.
    // Edge (e0, e1) moves from (0,0)-(2,0) at t = 0 to (2,2)-(0,2) at t = 1 (its ends cross over: the bilinear
    // surface it sweeps is curved). A static point at the centre (1, 1) is hit with either split.
    const PointEdgeMotion2d m { Vec2(1, 1), Vec2(0, 0), Vec2(2, 0), Vec2(1, 1), Vec2(2, 2), Vec2(0, 2) };
    // For id(e0) < id(e1) the triangles are (0,0,0), (2,0,0), (0,2,1) and (0,0,0), (2,2,1), (0,2,1):
    // (1, 1, 1/2) = ((2,0,0) + (0,2,1)) / 2 lies on the first one's edge b-b'.
    EXPECT_TRUE(ccdkit::oracle::spacetime_point_edge_oracle(m, { 0, 1, 2, 3 }));
    // For id(e1) < id(e0): (2,0,0), (0,0,0), (2,2,1) and (2,0,0), (0,2,1), (2,2,1); (1, 1, 1/2) =
    // ((0,0,0) + (2,2,1)) / 2 lies on the first one's edge b-b'.
    EXPECT_TRUE(ccdkit::oracle::spacetime_point_edge_oracle(m, { 0, 2, 1, 3 }));
    // Off the centre, at (1.25, 1): the triangles of the second split contain (1.25, 1, 1/2), those of the first
    // contain no (1.25, 1, t).
    const PointEdgeMotion2d shifted { Vec2(1.25, 1), m.e0_t0, m.e1_t0, Vec2(1.25, 1), m.e0_t1, m.e1_t1 };
    EXPECT_FALSE(ccdkit::oracle::spacetime_point_edge_oracle(shifted, { 0, 1, 2, 3 }));
    EXPECT_TRUE(ccdkit::oracle::spacetime_point_edge_oracle(shifted, { 0, 2, 1, 3 }));
}

TEST(SpacetimeOracle, EdgeEdgeAndPointEdge)
{
    using ccdkit::oracle::spacetime_edge_edge_oracle;
    using ccdkit::oracle::spacetime_point_edge_oracle;
    const ccdkit::SpacetimeIds ids = { 0, 1, 2, 3 };
    // Edge a along x at z = 1 falls to z = -1 across the static edge b along y at z = 0.
    const EdgeEdgeMotion crossing { Vec3(-1, 0, 1),  Vec3(1, 0, 1),  Vec3(0, -1, 0), Vec3(0, 1, 0),
                                    Vec3(-1, 0, -1), Vec3(1, 0, -1), Vec3(0, -1, 0), Vec3(0, 1, 0) };
    EXPECT_TRUE(spacetime_edge_edge_oracle(crossing, ids));
    EdgeEdgeMotion beside = crossing;
    for (Vec3* x : { &beside.eb0_t0, &beside.eb1_t0, &beside.eb0_t1, &beside.eb1_t1 }) {
        (*x)[0] += 1.5;
    }
    EXPECT_FALSE(spacetime_edge_edge_oracle(beside, ids));
    EXPECT_TRUE(ccdkit::oracle::edge_edge_touching_at_start(
        { Vec3(0, 0, 0), Vec3(1, 1, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), {}, {}, {}, {} }));
    // A point crossing an edge that moves the other way.
    const PointEdgeMotion2d pe { Vec2(0, 1), Vec2(-1, 0), Vec2(1, 0), Vec2(0, -1), Vec2(-1, 0.5), Vec2(1, 0.5) };
    EXPECT_TRUE(spacetime_point_edge_oracle(pe, ids));
    const PointEdgeMotion2d away { Vec2(0, 1), Vec2(-1, 0), Vec2(1, 0), Vec2(0, 2), Vec2(-1, 0.5), Vec2(1, 0.5) };
    EXPECT_FALSE(spacetime_point_edge_oracle(away, ids));
    EXPECT_TRUE(ccdkit::oracle::point_edge_touching_at_start({ Vec2(0, 0), Vec2(-1, 0), Vec2(1, 0), {}, {}, {} }));
}

TEST(SpacetimeOracle, EarliestContact)
{
    // The earliest contact time t* is bracketed exactly: contact by t*, none by anything less.
    using ccdkit::oracle::spacetime_edge_edge_contact_by;
    using ccdkit::oracle::spacetime_point_edge_contact_by;
    using ccdkit::oracle::spacetime_vertex_face_contact_by;
    const ccdkit::SpacetimeIds ids = { 0, 1, 2, 3 };
    const mpq_class half(1, 2), quarter(3, 4);
    const Vec3 t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0);
    const VertexFaceMotion falling { Vec3(0.25, 0.25, 1), t0, t1, t2, Vec3(0.25, 0.25, -1), t0, t1, t2 };
    EXPECT_TRUE(spacetime_vertex_face_contact_by(falling, ids, half));
    EXPECT_FALSE(spacetime_vertex_face_contact_by(falling, ids, half - TINY));
    // Collinear edges sliding into each other: a = [-3 + 4t, -2 + 4t], b = [2 - 4t, 3 - 4t] meet at t = 1/2.
    const EdgeEdgeMotion sliding { Vec3(-3, 0, 0), Vec3(-2, 0, 0), Vec3(2, 0, 0),  Vec3(3, 0, 0),
                                   Vec3(1, 0, 0),  Vec3(2, 0, 0),  Vec3(-2, 0, 0), Vec3(-1, 0, 0) };
    EXPECT_TRUE(spacetime_edge_edge_contact_by(sliding, ids, half));
    EXPECT_FALSE(spacetime_edge_edge_contact_by(sliding, ids, half - TINY));
    // In the plane z = 0: edge a along y slides from x = -2 to x = 2 and reaches b = (1, 0)-(3, 0) at t = 3/4.
    const EdgeEdgeMotion coplanar { Vec3(-2, -1, 0), Vec3(-2, 1, 0), Vec3(1, 0, 0), Vec3(3, 0, 0),
                                    Vec3(2, -1, 0),  Vec3(2, 1, 0),  Vec3(1, 0, 0), Vec3(3, 0, 0) };
    EXPECT_TRUE(spacetime_edge_edge_contact_by(coplanar, ids, quarter));
    EXPECT_FALSE(spacetime_edge_edge_contact_by(coplanar, ids, quarter - TINY));
    // A point moving along the edge's line reaches e0 = (-1, 0) at t = 1/2.
    const PointEdgeMotion2d collinear { Vec2(-3, 0), Vec2(-1, 0), Vec2(1, 0), Vec2(1, 0), Vec2(-1, 0), Vec2(1, 0) };
    EXPECT_TRUE(spacetime_point_edge_contact_by(collinear, ids, half));
    EXPECT_FALSE(spacetime_point_edge_contact_by(collinear, ids, half - TINY));
}
