// SPDX-License-Identifier: MIT
// Closest-point offsets between points, segments and triangles, against dense sampling of the primitives,
// degenerate ones included (zero-length and parallel segments, collapsed triangles).
#include <ccdkit/distance/closest_offset.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <utility>
#include <vector>

using namespace ccdkit;
using V = Eigen::Vector3d;

namespace {

/// The smallest distance between points of the two primitives sampled on a fine grid of their parameters
/// (an upper bound of the true distance, within the sampling step of it).
double sampled_distance(const std::vector<V>& a, const std::vector<V>& b)
{
    constexpr int STEPS = 60;
    const auto samples = [](const std::vector<V>& p) {
        std::vector<V> out;
        const int rows = p.size() == 1 ? 0 : STEPS;
        for (int i = 0; i <= rows; ++i) {
            const int columns = p.size() == 3 ? STEPS - i : 0;
            for (int j = 0; j <= columns; ++j) {
                V x = p[0];
                if (p.size() > 1) {
                    x += double(i) / STEPS * (p[1] - p[0]);
                }
                if (p.size() > 2) {
                    x += double(j) / STEPS * (p[2] - p[0]);
                }
                out.push_back(x);
            }
        }
        return out;
    };
    double best = std::numeric_limits<double>::infinity();
    for (const V& x : samples(a)) {
        for (const V& y : samples(b)) {
            best = std::min(best, (x - y).norm());
        }
    }
    return best;
}

/// Points of a random primitive, made degenerate now and then.
std::vector<V> primitive(std::mt19937_64& rng, int points)
{
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<V> p;
    for (int i = 0; i < points; ++i) {
        p.emplace_back(u(rng), u(rng), u(rng));
    }
    switch (std::uniform_int_distribution<int>(0, 4)(rng)) {
    case 0:
        p.back() = p.front(); // zero-length segment, or a triangle collapsed to a segment
        break;
    case 1:
        if (points == 3) {
            p[2] = p[0] + 0.5 * (p[1] - p[0]); // collinear triangle
        }
        break;
    default:
        break;
    }
    return p;
}

} // namespace

TEST(ClosestOffset, AgreesWithSampling)
{
    std::mt19937_64 rng(3);
    for (int i = 0; i < 600; ++i) {
        const auto p = primitive(rng, 1), e = primitive(rng, 2), f = primitive(rng, 3), g = primitive(rng, 2);
        // Nearly parallel second segment for a third of the edge-edge cases.
        std::vector<V> h = g;
        if (i % 3 == 0) {
            h = { e[0] + V(0.1, -0.2, 0.3), e[1] + V(0.1, -0.2, 0.3) + 1e-9 * V(1, 1, 1) };
        }
        const double pe = point_edge_closest_offset<double, 3>(p[0], e[0], e[1]).norm();
        const double pt = point_triangle_closest_offset<double>(p[0], f[0], f[1], f[2]).norm();
        const double ee = edge_edge_closest_offset<double, 3>(e[0], e[1], h[0], h[1]).norm();
        // Never longer than any sampled pair (it is the minimum), and not shorter than the sampling allows.
        const double spacing = 2.0 / 60 * 4;
        for (const auto& [value, sampled] :
             { std::pair { pe, sampled_distance(p, e) }, std::pair { pt, sampled_distance(p, f) },
               std::pair { ee, sampled_distance(e, h) } }) {
            EXPECT_LE(value, sampled + 1e-12) << "case " << i << " pe " << pe << " pt " << pt << " ee " << ee;
            EXPECT_GE(value, sampled - spacing) << "case " << i;
        }
    }
}

/// A point over a sliver (a needle's face: 1 long, 1.4e-5 across), near one of its long sides, at a few heights: the
/// distance is the height over the plane. Barycentric coordinates from the sides' Gram determinant (which loses most
/// of its digits to cancellation there) had put such points outside and measured to the side, 2.8e-7 for 1.4e-7.
TEST(ClosestOffset, PointOverASliver)
{
    constexpr double WIDE = 1.4225464088211761e-05;
    const V t0(0, 0, 0), t1(1, WIDE, 0), t2(1, 0, 0);
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> along(0.05, 0.95), inside(0.01, 0.99);
    for (int k = 0; k < 2000; ++k) {
        const double x = along(rng);
        // 2e-9 to 2e-7 of the width from the long side y = 0, inside the sliver.
        const double y = std::min(x * WIDE * inside(rng), x * WIDE * std::pow(10.0, -2.0 - 2.0 * inside(rng)));
        const double height = std::pow(10.0, -9.0 + 3.0 * inside(rng)) * (k % 2 == 0 ? 1.0 : -1.0);
        const V p(x, y, height);
        const V offset = point_triangle_closest_offset<double>(p, t0, t1, t2);
        EXPECT_NEAR(offset.norm(), std::abs(height), 1e-9 * std::abs(height)) << "point " << p.transpose();
    }
}

TEST(ClosestOffset, ExactCases)
{
    // Above a triangle's interior, beyond a corner, beside an edge.
    const V t0(0, 0, 0), t1(2, 0, 0), t2(0, 2, 0);
    EXPECT_EQ(point_triangle_closest_offset<double>(V(0.5, 0.5, 3), t0, t1, t2), V(0, 0, 3));
    EXPECT_EQ(point_triangle_closest_offset<double>(V(-1, -1, 0), t0, t1, t2), V(-1, -1, 0));
    EXPECT_EQ(point_triangle_closest_offset<double>(V(1, -2, 0), t0, t1, t2), V(0, -2, 0));
    // Crossing segments touch; parallel ones are their gap apart; a zero-length segment is a point.
    const auto ee = [](const V& a0, const V& a1, const V& b0, const V& b1) {
        return edge_edge_closest_offset<double, 3>(a0, a1, b0, b1);
    };
    EXPECT_EQ(ee(V(-1, 0, 0), V(1, 0, 0), V(0, -1, 0), V(0, 1, 0)).norm(), 0.0);
    EXPECT_EQ(ee(V(0, 0, 0), V(1, 0, 0), V(0.5, 0, 2), V(3, 0, 2)), V(0, 0, -2));
    EXPECT_EQ(ee(V(0, 0, 0), V(0, 0, 0), V(1, 1, 0), V(1, -1, 0)), V(-1, 0, 0));
    const double s = point_edge_closest_parameter<double, 3>(V(5, 5, 5), V(1, 1, 1), V(1, 1, 1));
    EXPECT_EQ(s, 0.0);
    // 2D.
    const Eigen::Vector2d planar
        = point_edge_closest_offset<double, 2>(Eigen::Vector2d(0.5, 1), Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 0));
    EXPECT_EQ(planar, Eigen::Vector2d(0, 1));
}
