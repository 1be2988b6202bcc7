// SPDX-License-Identifier: MIT
// The never-coplanar certificate for a mesh's candidate pairs: it may decline anything, but what it certifies
// must be true, rounding included.
#include "broad/details/never_coplanar_pairs.hpp"
#include "support/exact_coplanarity.hpp"

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

using ccdkit::details::NeverCoplanarPairs;

namespace {
/// Four moving points as a tiny mesh: edges (0, 1) and (2, 3), face (1, 2, 3) against vertex 0.
struct FourPoints {
    Eigen::MatrixX3d v0 = Eigen::MatrixX3d::Zero(4, 3), v1 = Eigen::MatrixX3d::Zero(4, 3);

    [[nodiscard]] std::array<bool, 2> certified() const
    {
        Eigen::MatrixX2i edges(2, 2);
        edges << 0, 1, 2, 3;
        Eigen::MatrixX3i faces(1, 3);
        faces << 1, 2, 3;
        std::vector<Eigen::Vector3d> x0(4), x1(4);
        for (int i = 0; i < 4; ++i) {
            x0[static_cast<std::size_t>(i)] = v0.row(i).transpose();
            x1[static_cast<std::size_t>(i)] = v1.row(i).transpose();
        }
        const NeverCoplanarPairs pairs(x0, x1, edges, faces);
        return { pairs.vertex_face(0, 0), pairs.edge_edge(0, 1) };
    }

    /// The coplanarity determinant at t = k / n, exactly.
    [[nodiscard]] mpq_class determinant_at(int k, int n) const
    {
        std::array<Eigen::Vector3d, 4> start, end;
        for (int i = 0; i < 4; ++i) {
            start[static_cast<std::size_t>(i)] = v0.row(i).transpose();
            end[static_cast<std::size_t>(i)] = v1.row(i).transpose();
        }
        return ccdkit::test::coplanarity_determinant_at(start, end, k, n);
    }
};
} // namespace

TEST(NeverCoplanarPairs, WhatItCertifiesHasOneSignThroughout)
{
    // Random motions, many nearly coplanar; a certified pair must have a nonzero determinant of one sign at
    // every sampled time, computed exactly.
    std::mt19937 rng(11);
    std::normal_distribution<double> g(0.0, 1.0);
    std::array<int, 2> certified {};
    for (int trial = 0; trial < 3000; ++trial) {
        FourPoints m;
        const double flatness = std::ldexp(1.0, -(trial % 50)); // down to 2^-49 out of plane
        for (int i = 0; i < 4; ++i) {
            m.v0.row(i) << g(rng), g(rng), flatness * g(rng);
            m.v1.row(i) = m.v0.row(i) + Eigen::RowVector3d(g(rng), g(rng), flatness * g(rng));
        }
        const auto c = m.certified();
        if (!c[0] && !c[1]) {
            continue;
        }
        certified[0] += c[0];
        certified[1] += c[1];
        const int sign = sgn(m.determinant_at(0, 1));
        ASSERT_NE(sign, 0) << "trial " << trial;
        for (int k = 1; k <= 32; ++k) {
            ASSERT_EQ(sgn(m.determinant_at(k, 32)), sign) << "trial " << trial << " t = " << k << "/32";
        }
    }
    EXPECT_GT(certified[0], 300);
    EXPECT_GT(certified[1], 300);
}

TEST(NeverCoplanarPairs, DeclinesMotionInATiltedPlaneDespiteRounding)
{
    // All four points move inside a plane through the origin spanned by integer vectors, so the determinant
    // is zero throughout; the coordinates are exact, but the dot products round (68-bit products), so the
    // computed coefficients are noise of either sign. Only the error bound keeps them from being certified.
    std::mt19937 rng(13);
    std::uniform_int_distribution<int> coefficient(-1024, 1024);
    for (int trial = 0; trial < 4000; ++trial) {
        const Eigen::RowVector3d u(coefficient(rng), coefficient(rng), coefficient(rng));
        const Eigen::RowVector3d v(coefficient(rng), coefficient(rng), coefficient(rng));
        const double scale = std::ldexp(1.0, 10 * (trial % 41) - 200);
        FourPoints m;
        for (int i = 0; i < 4; ++i) {
            m.v0.row(i) = (coefficient(rng) * u + coefficient(rng) * v) * scale;
            m.v1.row(i) = (coefficient(rng) * u + coefficient(rng) * v) * scale;
        }
        ASSERT_EQ(m.determinant_at(1, 3), 0);
        const auto c = m.certified();
        EXPECT_FALSE(c[0]) << "vertex-face, trial " << trial;
        EXPECT_FALSE(c[1]) << "edge-edge, trial " << trial;
    }
}

TEST(NeverCoplanarPairs, DeclinesOutsideItsRange)
{
    FourPoints m;
    m.v0 << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
    m.v1 = m.v0.rowwise() + Eigen::RowVector3d(0.5, -0.25, 3.0);
    EXPECT_EQ(m.certified(), (std::array { true, true }));
    for (const int e : { -400, 400 }) {
        FourPoints s = m;
        s.v0 *= std::ldexp(1.0, e);
        s.v1 *= std::ldexp(1.0, e);
        EXPECT_EQ(s.certified(), (std::array { false, false })) << e;
    }
}
