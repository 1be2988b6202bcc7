// SPDX-License-Identifier: MIT
#include "rigid/details/feature_slab.hpp"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace ccdkit {
namespace {

    /// Random triangles and edges cut by random heights along random directions, at several scales: every point
    /// of the feature at or below the limit (sampled inside and on the sides, the crossings among them) lies in
    /// the clipped box, to the rounding the callers' reach adds (1e-12 of the magnitude). Dropping or shortening
    /// the crossings, or clipping on the wrong side, fails here.
    TEST(FeatureSlab, ClippedBoxHoldsEveryPointBelowTheLimit)
    {
        std::mt19937_64 rng(17);
        std::uniform_real_distribution<double> u(-1, 1), unit(0, 1);
        const auto vector = [&](double scale) -> Eigen::Vector3d {
            const double x = u(rng), y = u(rng), z = u(rng);
            return Eigen::Vector3d(x, y, z) * scale;
        };
        Eigen::MatrixX3i triangle(1, 3);
        triangle << 0, 1, 2;
        Eigen::MatrixX2i edge(1, 2);
        edge << 0, 1;
        int crossed = 0;
        for (const double scale : { 1e-4, 1.0, 1e4 }) {
            for (int k = 0; k < 3000; ++k) {
                std::vector<Eigen::Vector3d> points { vector(scale), vector(scale), vector(scale) };
                const Eigen::Vector3d n = vector(1.0).normalized();
                std::vector<double> heights;
                double magnitude = 0.0, low = 1e300, high = -1e300;
                for (const auto& x : points) {
                    heights.push_back(n.dot(x));
                    low = std::min(low, heights.back());
                    high = std::max(high, heights.back());
                    magnitude = std::max(magnitude, x.cwiseAbs().maxCoeff());
                }
                const details::FeatureSlab slab { points, heights, low + unit(rng) * (high - low), magnitude };
                const double tolerance = 1e-12 * magnitude;
                for (const bool is_edge : { false, true }) {
                    details::ClippedFeature box {};
                    const bool kept = is_edge ? slab.clip(edge, 0, box) : slab.clip(triangle, 0, box);
                    const int corners = is_edge ? 2 : 3;
                    const auto check = [&](const Eigen::Vector3d& p) {
                        if (n.dot(p) > slab.limit) {
                            return;
                        }
                        ASSERT_TRUE(kept);
                        EXPECT_TRUE(
                            (box.min - tolerance <= p.array()).all() && (p.array() <= box.max + tolerance).all())
                            << "scale " << scale << " case " << k << " edge " << is_edge;
                    };
                    // The crossings themselves, then random points of the sides and (triangles) the inside.
                    for (int i = 0; i < corners; ++i) {
                        for (int j = 0; j < corners; ++j) {
                            const double hi = heights[static_cast<std::size_t>(i)];
                            const double hj = heights[static_cast<std::size_t>(j)];
                            if (hi <= slab.limit && hj > slab.limit) {
                                ++crossed;
                                const double s = (slab.limit - hi) / (hj - hi);
                                const auto& pi = points[static_cast<std::size_t>(i)];
                                const auto& pj = points[static_cast<std::size_t>(j)];
                                check(pi + s * (pj - pi));
                                check(pi + 0.999 * s * (pj - pi));
                            }
                        }
                    }
                    for (int sample = 0; sample < 20; ++sample) {
                        double a = unit(rng), b = is_edge ? 0.0 : unit(rng);
                        if (a + b > 1.0) {
                            a = 1.0 - a;
                            b = 1.0 - b;
                        }
                        check(points[0] + a * (points[1] - points[0]) + b * (points[2] - points[0]));
                    }
                    if (kept) {
                        // No larger than the feature's own box.
                        Eigen::Array3d lo = points[0].array(), hi = lo;
                        for (int c = 1; c < corners; ++c) {
                            lo = lo.min(points[static_cast<std::size_t>(c)].array());
                            hi = hi.max(points[static_cast<std::size_t>(c)].array());
                        }
                        EXPECT_TRUE((lo - tolerance <= box.min).all() && (box.max <= hi + tolerance).all());
                    }
                }
            }
        }
        EXPECT_GT(crossed, 10000);
    }

    TEST(FeatureSlab, FeaturesWhollyAboveTheLimitAreDropped)
    {
        const std::vector<Eigen::Vector3d> points { { 0, 0, 1 }, { 1, 0, 2 }, { 0, 1, 3 } };
        const std::vector<double> heights { 1, 2, 3 };
        const details::FeatureSlab slab { points, heights, 0.5, 3.0 };
        Eigen::MatrixX3i triangle(1, 3);
        triangle << 0, 1, 2;
        details::ClippedFeature box {};
        EXPECT_FALSE(slab.clip(triangle, 0, box));
        const details::FeatureSlab all { points, heights, 3.0, 3.0 };
        ASSERT_TRUE(all.clip(triangle, 0, box));
        EXPECT_TRUE((box.min == Eigen::Array3d(0, 0, 1)).all() && (box.max == Eigen::Array3d(1, 1, 3)).all());
    }

    /// A feature wholly below the limit keeps the box of its corners to the bit, as the union of its corners with an
    /// empty box (from infinities) gives: the first kept corner starts the box. Zeros of both signs and a corner
    /// repeated check that the first kept corner's bits win ties, as std::min and std::max do from an empty box.
    TEST(FeatureSlab, WholeFeatureKeepsTheBoxOfItsCornersBitForBit)
    {
        const auto bits = [](const Eigen::Array3d& x) {
            return std::array<std::uint64_t, 3> { std::bit_cast<std::uint64_t>(x[0]),
                                                  std::bit_cast<std::uint64_t>(x[1]),
                                                  std::bit_cast<std::uint64_t>(x[2]) };
        };
        std::mt19937_64 rng(31);
        std::uniform_int_distribution<int> pick(0, 4);
        const std::array<double, 5> values { 0.0, -0.0, 1.5, -2.25, 1e300 };
        Eigen::MatrixX3i triangle(1, 3);
        triangle << 0, 1, 2;
        Eigen::MatrixX2i edge(1, 2);
        edge << 2, 0;
        for (int k = 0; k < 2000; ++k) {
            std::vector<Eigen::Vector3d> points;
            for (int c = 0; c < 3; ++c) {
                points.emplace_back(
                    values[static_cast<std::size_t>(pick(rng))], values[static_cast<std::size_t>(pick(rng))],
                    values[static_cast<std::size_t>(pick(rng))]);
            }
            const std::vector<double> heights { 0.0, -1.0, 0.5 };
            const details::FeatureSlab slab { points, heights, 1.0, 1e300 };
            for (const bool is_edge : { false, true }) {
                details::ClippedFeature box {};
                ASSERT_TRUE(is_edge ? slab.clip(edge, 0, box) : slab.clip(triangle, 0, box));
                Eigen::Array3d low = Eigen::Array3d::Constant(std::numeric_limits<double>::infinity());
                Eigen::Array3d high = -low;
                for (const std::size_t c :
                     is_edge ? std::vector<std::size_t> { 2, 0 } : std::vector<std::size_t> { 0, 1, 2 }) {
                    for (Eigen::Index d = 0; d < 3; ++d) {
                        low[d] = std::min(low[d], points[c][d]);
                        high[d] = std::max(high[d], points[c][d]);
                    }
                }
                EXPECT_EQ(bits(box.min), bits(low)) << "case " << k << " edge " << is_edge;
                EXPECT_EQ(bits(box.max), bits(high)) << "case " << k << " edge " << is_edge;
            }
        }
    }

} // namespace
} // namespace ccdkit
