// SPDX-License-Identifier: MIT
// Around an isolated root the filter skips computing the inside terms on [l, r] when their signs at l and at
// r alone show that they decide nothing there (BernsteinFilter::undecided_between); that keeps its results
// bit for bit unchanged only if (1) the terms evaluated at a time as constants are exactly the first and last
// Bernstein coefficients that the full computation gets, and (2) whenever the skip is taken, the full
// classification is indeed neither negative, nor all positive, nor hopeless. Both checked here on cloth-like
// grid queries (exactly coplanar starts, shared coordinates), random near-contacts, tiny and far-out motions.
#include "narrow/details/bernstein_filter.hpp"
#include "narrow/details/query_motion.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace ccdkit;
using namespace ccdkit::details;
using V = Eigen::Vector3d;

namespace {

double on_grid(std::mt19937_64& rng, int n, double step)
{
    return step * static_cast<double>(std::uniform_int_distribution<int>(-n, n)(rng));
}

/// Cloth-like (points on a grid, one coordinate plane at t = 0), random near-contacts, and those scaled tiny
/// or moved far from the origin.
QueryMotion some_query(std::mt19937_64& rng, int kind)
{
    QueryMotion m;
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const int axis = kind % 3;
    for (int i = 0; i < 4; ++i) {
        for (int k = 0; k < 3; ++k) {
            m.start[i][k] = kind % 2 == 0 ? (k == axis ? 0.25 : on_grid(rng, 4, 0.5)) : u(rng);
            m.end[i][k] = m.start[i][k] + (kind % 2 == 0 ? on_grid(rng, 8, 0.125) : 0.7 * u(rng));
        }
    }
    if (kind % 5 == 3) {
        for (auto* points : { &m.start, &m.end }) {
            for (V& p : *points) {
                p = V(1e7, -2e7, 3e7) + 1e-5 * p;
            }
        }
    }
    return m;
}

template <class Terms, class T> void check_query(const QueryMotion& motion, std::mt19937_64& rng, int& skips)
{
    using Filter = BernsteinFilter<Terms, T>;
    const std::optional<QueryMotion> unit = motion.scaled_to_unit();
    ASSERT_TRUE(unit);
    const Filter filter(*unit, 1e-6, { .max_depth = 8, .max_root_steps = 10 });
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int pair = 0; pair < 12; ++pair) {
        double l = pair == 0 ? 0.0 : u(rng), r = pair == 1 ? 1.0 : u(rng);
        if (pair >= 8) {
            r = l + std::ldexp(u(rng), -5 * (pair - 7)); // narrow intervals, as the root is shrunk
        }
        if (l > r) {
            std::swap(l, r);
        }
        if (!(l < r && r <= 1.0)) {
            continue;
        }
        const auto at_l = filter.positions(l), at_r = filter.positions(r);
        // The points as the filter itself builds them on [l, r], so that a change there is caught too.
        const QueryPoints<T, 1> x = Filter::points_on(at_l, at_r);
        const auto terms = all_terms<Terms>(x, Terms::normal(x));
        const auto signs_l = Filter::inside_signs(at_l), signs_r = Filter::inside_signs(at_r);
        for (std::size_t i = 0; i < terms.size(); ++i) {
            EXPECT_EQ(signs_l[i], certain_sign(terms[i].c.front())) << "term " << i << " at l = " << l;
            EXPECT_EQ(signs_r[i], certain_sign(terms[i].c.back())) << "term " << i << " at r = " << r;
        }
        if (!Filter::undecided_between(signs_l, signs_r)) {
            continue;
        }
        ++skips;
        bool all_positive = true;
        for (const auto& g : terms) {
            const CoefficientSigns s = classify(g);
            EXPECT_NE(s, CoefficientSigns::NEGATIVE);
            EXPECT_TRUE(std::any_of(g.c.begin(), g.c.end(), [](const T& v) { return certain_sign(v) != 0; }));
            all_positive = all_positive && s == CoefficientSigns::POSITIVE;
        }
        EXPECT_FALSE(all_positive) << "on [" << l << ", " << r << "]";
    }
}

template <class T> void check_all()
{
    std::mt19937_64 rng(4);
    int skips = 0;
    for (int q = 0; q < 3000; ++q) {
        const QueryMotion m = some_query(rng, q);
        check_query<EdgeEdgeTerms, T>(m, rng, skips);
        check_query<VertexFaceTerms, T>(m, rng, skips);
    }
    EXPECT_GT(skips, 1000); // the skip path is exercised
}

} // namespace

TEST(InsideTermSkip, FilteredDoubleSkipsOnlyStepsThatDecideNothing) { check_all<FilteredDouble>(); }

TEST(InsideTermSkip, PlainDoubleSkipsOnlyStepsThatDecideNothing) { check_all<double>(); }

TEST(InsideTermSkip, DoubleDoubleSkipsOnlyStepsThatDecideNothing) { check_all<FilteredDoubleDouble>(); }
