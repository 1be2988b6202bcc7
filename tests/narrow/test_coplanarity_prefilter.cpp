// SPDX-License-Identifier: MIT
// The quick never-coplanar certificate: it may decline anything, but what it certifies must be true.
#include "narrow/details/coplanarity_prefilter.hpp"
#include "support/exact_coplanarity.hpp"

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

using ccdkit::details::never_coplanar;
using ccdkit::details::QueryMotion;

namespace {
mpq_class determinant_at(const QueryMotion& m, int k, int n)
{
    return ccdkit::test::coplanarity_determinant_at(m.start, m.end, k, n);
}

QueryMotion scaled(QueryMotion m, double s)
{
    for (int i = 0; i < 4; ++i) {
        m.start[i] *= s;
        m.end[i] *= s;
    }
    return m;
}

QueryMotion translating_tetrahedron()
{
    QueryMotion m;
    m.start
        = { Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(0, 1, 0), Eigen::Vector3d(0, 0, 1) };
    for (int i = 0; i < 4; ++i) {
        m.end[i] = m.start[i] + Eigen::Vector3d(0.5, -0.25, 3.0);
    }
    return m;
}
} // namespace

TEST(CoplanarityPrefilter, CertifiesAMovingTetrahedronAtEveryScale)
{
    EXPECT_TRUE(never_coplanar(translating_tetrahedron()));
    for (const int e : { -290, -100, -20, 20, 100, 290 }) {
        EXPECT_TRUE(never_coplanar(scaled(translating_tetrahedron(), std::ldexp(1.0, e)))) << e;
    }
    // Beyond its range it declines (the general filter and the exact stage decide those).
    EXPECT_FALSE(never_coplanar(scaled(translating_tetrahedron(), std::ldexp(1.0, -400))));
    EXPECT_FALSE(never_coplanar(scaled(translating_tetrahedron(), std::ldexp(1.0, 400))));
}

TEST(CoplanarityPrefilter, DeclinesExactlyCoplanarMoments)
{
    // Coplanar at t = 0, at t = 1, at t = 1/4 (constructed with integers), and throughout.
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> small(-8, 8);
    for (int trial = 0; trial < 2000; ++trial) {
        QueryMotion m;
        const int kind = trial % 4;
        for (int i = 0; i < 4; ++i) {
            const Eigen::Vector3d v(small(rng), small(rng), 4 * small(rng));
            m.start[i] = Eigen::Vector3d(small(rng), small(rng), small(rng));
            if (kind == 0) {
                m.start[i].z() = 3; // plane z = 3 at t = 0
            }
            if (kind == 2) {
                m.start[i].z() = -v.z() / 4; // z = 0 at t = 1/4
            }
            m.end[i] = m.start[i] + v;
            if (kind == 1) {
                m.end[i].z() = -5; // plane z = -5 at t = 1
            }
            if (kind == 3) {
                m.start[i].z() = m.end[i].z() = 1; // planar motion
            }
        }
        const double s = std::ldexp(1.0, 7 * (trial % 21) - 70);
        EXPECT_FALSE(never_coplanar(scaled(m, s))) << "kind " << kind;
    }
}

TEST(CoplanarityPrefilter, WhatItCertifiesHasOneSignThroughout)
{
    // Random motions, many nearly coplanar; a certified one must have a nonzero determinant of one sign at
    // every sampled time, computed exactly.
    std::mt19937 rng(5);
    std::normal_distribution<double> g(0.0, 1.0);
    int certified = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        QueryMotion m;
        const double flatness = std::ldexp(1.0, -(trial % 50)); // down to 2^-49 out of plane
        for (int i = 0; i < 4; ++i) {
            m.start[i] = Eigen::Vector3d(g(rng), g(rng), flatness * g(rng));
            m.end[i] = m.start[i] + Eigen::Vector3d(g(rng), g(rng), flatness * g(rng));
        }
        if (!never_coplanar(m)) {
            continue;
        }
        ++certified;
        const int sign = sgn(determinant_at(m, 0, 1));
        ASSERT_NE(sign, 0);
        for (int k = 1; k <= 32; ++k) {
            ASSERT_EQ(sgn(determinant_at(m, k, 32)), sign) << "trial " << trial << " t = " << k << "/32";
        }
    }
    EXPECT_GT(certified, 300);
}
