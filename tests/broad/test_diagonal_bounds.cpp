// SPDX-License-Identifier: MIT
// Diagonal bounds of swept primitives: pairs called apart must have disjoint exact projections along some
// diagonal, rounding included.
#include "broad/details/diagonal_bounds.hpp"

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>

using ccdkit::details::apart;
using ccdkit::details::DiagonalBounds;
using ccdkit::details::merged;
using ccdkit::details::vertex_diagonal_bounds;

namespace {
using ccdkit::details::DIAGONAL_DIRECTIONS;

/// Exactly: is some diagonal strictly separating the start and end positions of vertices `a` from those of `b`?
bool exactly_apart(
    const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1, const std::vector<int>& a, const std::vector<int>& b)
{
    for (const auto& d : DIAGONAL_DIRECTIONS) {
        const auto range = [&](const std::vector<int>& vs) {
            std::pair<mpq_class, mpq_class> r;
            bool first = true;
            for (const int v : vs) {
                for (const auto* x : { &v0, &v1 }) {
                    mpq_class s = 0;
                    for (int c = 0; c < 3; ++c) {
                        s += d[static_cast<std::size_t>(c)] * mpq_class((*x)(v, c));
                    }
                    if (first || s < r.first) {
                        r.first = s;
                    }
                    if (first || s > r.second) {
                        r.second = s;
                    }
                    first = false;
                }
            }
            return r;
        };
        const auto ra = range(a), rb = range(b);
        if (ra.second < rb.first || rb.second < ra.first) {
            return true;
        }
    }
    return false;
}
} // namespace

TEST(DiagonalBounds, WhatItSeparatesIsSeparatedExactly)
{
    // Edges (0, 1) and (2, 3), and vertex 0 against face (1, 2, 3), with coordinates that cancel along the
    // diagonals (x close to -y, z tiny) at scales from 2^-600 to 2^600: their computed projections round.
    std::mt19937_64 rng(17);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::array<int, 2> separated {};
    for (int trial = 0; trial < 20000; ++trial) {
        const double scale = std::ldexp(1.0, 60 * (trial % 21) - 600);
        const double spread = std::ldexp(1.0, -(trial % 60));
        Eigen::MatrixX3d v0(4, 3), v1(4, 3);
        const double x = unit(rng);
        for (int i = 0; i < 4; ++i) {
            for (auto* v : { &v0, &v1 }) {
                const double dx = spread * unit(rng), dy = spread * unit(rng), dz = spread * unit(rng);
                v->row(i) << (x + dx) * scale, (-x + dy) * scale, std::ldexp(dz, -30) * scale;
            }
        }
        const std::vector<DiagonalBounds> vertex = vertex_diagonal_bounds(v0, v1);
        const std::array edge { merged<2>(vertex, { 0, 1 }), merged<2>(vertex, { 2, 3 }) };
        const std::array face { merged<3>(vertex, { 1, 2, 3 }) };
        if (apart(edge[0], edge[1])) {
            ++separated[0];
            ASSERT_TRUE(exactly_apart(v0, v1, { 0, 1 }, { 2, 3 })) << "edges, trial " << trial;
        }
        if (apart(vertex[0], face[0])) {
            ++separated[1];
            ASSERT_TRUE(exactly_apart(v0, v1, { 0 }, { 1, 2, 3 })) << "vertex-face, trial " << trial;
        }
    }
    EXPECT_GT(separated[0], 100);
    EXPECT_GT(separated[1], 100);
}

TEST(DiagonalBounds, ContainTheExactProjections)
{
    // Cancellation: fl(fl(1 + 2^-60) - 1) = 0 but the projection is 2^-60, and similar cases; then random points
    // with cancelling coordinates. Every vertex's bounds must hold its exact projections.
    std::vector<Eigen::RowVector3d> points { { 1.0, 0x1p-60, -1.0 },
                                             { -1.0, -0x1p-60, 1.0 },
                                             { 1.0, -1.0, 0x1p-70 },
                                             { 0x1p-70, 1.0, -1.0 },
                                             { 1.0, 0x1p-60, 1.0 } };
    std::mt19937_64 rng(19);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (int i = 0; i < 5000; ++i) {
        const double x = unit(rng), small = std::ldexp(unit(rng), -(i % 70));
        points.emplace_back(x, -x + small, std::ldexp(unit(rng), -(i % 90)));
    }
    Eigen::MatrixX3d v(static_cast<Eigen::Index>(points.size()), 3);
    for (std::size_t i = 0; i < points.size(); ++i) {
        v.row(static_cast<Eigen::Index>(i)) = points[i];
    }
    const auto bounds = vertex_diagonal_bounds(v, v);
    for (std::size_t i = 0; i < points.size(); ++i) {
        for (std::size_t k = 0; k < DIAGONAL_DIRECTIONS.size(); ++k) {
            mpq_class s = 0;
            for (int c = 0; c < 3; ++c) {
                s += DIAGONAL_DIRECTIONS[k][static_cast<std::size_t>(c)] * mpq_class(points[i][c]);
            }
            ASSERT_LE(mpq_class(bounds[i].low[k]), s) << "point " << i << " diagonal " << k;
            ASSERT_GE(mpq_class(bounds[i].high[k]), s) << "point " << i << " diagonal " << k;
        }
    }
}

TEST(DiagonalBounds, TouchingAndHugeArePairedNotApart)
{
    // Two edges meeting at a point (exactly touching along every diagonal through it) and coordinates whose
    // projections overflow.
    Eigen::MatrixX3d v0(4, 3);
    v0 << 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 0, 3;
    const auto vertex = vertex_diagonal_bounds(v0, v0);
    EXPECT_FALSE(apart(merged<2>(vertex, { 0, 1 }), merged<2>(vertex, { 2, 3 })));
    // Far apart near the top of the range: separated; where the projections' error bound overflows, the
    // bounds open up and separate nothing.
    Eigen::MatrixX3d big(2, 3);
    big << 1e307, 1e307, 1e307, -1e307, 1e307, -1e307;
    const auto b = vertex_diagonal_bounds(big, big);
    EXPECT_FALSE(apart(b[0], b[0]));
    EXPECT_TRUE(apart(b[0], b[1]));
    Eigen::MatrixX3d huge(2, 3);
    huge << 1.7e308, 1.7e308, 1.7e308, -1.7e308, 1.7e308, -1.7e308;
    const auto h = vertex_diagonal_bounds(huge, huge);
    EXPECT_FALSE(apart(h[0], h[1]));
}
