// SPDX-License-Identifier: MIT
// Review tests of the double filter's speed changes: the bit-level exponent scaling (QueryMotion::scaled_to_unit)
// against a plain reference on every mix of exponents, the inside terms visited one by one (visit_inside) against
// inside(), and end-to-end answers on motions whose coordinates span the whole double range (near DBL_MAX,
// subnormal, > 2000 binades apart, zeros of both signs) and contacts at split points, ends and degeneracies,
// against the independent exact oracle.
#include "narrow/ccd_test_support.hpp"
#include "narrow/details/contact_polynomials.hpp"
#include "narrow/details/query_motion.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <random>
#include <string>

using namespace ccdkit;
using details::QueryMotion;
using test::Points;

namespace {

std::string hex(const Points& x)
{
    std::string out;
    char buffer[80];
    for (const auto& p : x) {
        std::snprintf(buffer, sizeof buffer, "{%a, %a, %a} ", p[0], p[1], p[2]);
        out += buffer;
    }
    return out;
}

QueryMotion to_motion(const Points& x) { return { { x[0], x[1], x[2], x[3] }, { x[4], x[5], x[6], x[7] } }; }

/// What scaled_to_unit must do, written the plain way: scale by 2^e, e = -ilogb(largest |x|), unless all
/// coordinates are zero or some nonzero one would drop below 2^-1022 (subnormal, where it could lose bits).
std::optional<int> reference_exponent(const Points& x)
{
    double largest = 0.0;
    for (const auto& p : x) {
        largest = std::max(largest, p.cwiseAbs().maxCoeff());
    }
    if (largest == 0.0) {
        return std::nullopt;
    }
    const int e = -std::ilogb(largest);
    for (const auto& p : x) {
        for (int k = 0; k < 3; ++k) {
            if (p[k] != 0.0 && std::ilogb(p[k]) + e < std::numeric_limits<double>::min_exponent - 1) {
                return std::nullopt;
            }
        }
    }
    return e;
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

class Generator {
public:
    explicit Generator(std::uint64_t seed)
        : rng_(seed)
    {
    }

    int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool coin() { return integer(0, 1) == 1; }

    /// 0, -0, or +-m 2^k with m of up to 53 bits and k around `binade` (subnormals included).
    double coordinate(int binade)
    {
        switch (integer(0, 5)) {
        case 0:
            return 0.0;
        case 1:
            return -0.0;
        default: {
            const double m = 1.0 + std::ldexp(static_cast<double>(rng_() >> 11), -53); // [1, 2)
            const double x = std::ldexp(integer(0, 3) == 0 ? std::nextafter(2.0, 0.0) : m, binade);
            return coin() ? -x : x;
        }
        }
    }

    /// A time the filters are likely to split at (l + 63/128 (r - l) repeatedly), an end, or a dyadic.
    double contact_time()
    {
        switch (integer(0, 3)) {
        case 0:
            return coin() ? 0.0 : 1.0;
        case 1: {
            double l = 0.0, r = 1.0;
            for (int depth = integer(1, 8); depth > 0; --depth) {
                (coin() ? l : r) = l + 63.0 / 128.0 * (r - l);
            }
            return coin() ? l : r;
        }
        case 2:
            return std::ldexp(integer(1, 15), -4);
        default:
            return std::ldexp(integer(1, 127), -7);
        }
    }

    Eigen::Vector3d grid(int n) { return { 1.0 * integer(-n, n), 1.0 * integer(-n, n), 1.0 * integer(-n, n) }; }

    /// Small-integer motions that touch exactly at a chosen time: the vertex at a (possibly outside or boundary)
    /// barycentric point, or the edges crossing at quarter points; parallel, collinear and zero-length edges and
    /// coplanar or purely translating motion too.
    Points degenerate(bool vertex_face)
    {
        Points x;
        switch (integer(0, 3)) {
        case 0: { // coplanar motion
            for (auto& p : x) {
                p = { 1.0 * integer(-3, 3), 1.0 * integer(-3, 3), 0.0 };
            }
            return x;
        }
        case 1: { // one translation for all: the relative configuration never changes
            const Eigen::Vector3d v = grid(3);
            for (int i = 0; i < 4; ++i) {
                x[i] = grid(2);
                x[i + 4] = x[i] + v;
            }
            return x;
        }
        default:
            break;
        }
        const double t = contact_time();
        std::array<Eigen::Vector3d, 4> at { grid(4), grid(4), grid(4), grid(4) };
        if (vertex_face) {
            const int w0 = integer(0, 4), w1 = integer(0, 4 - w0);
            const int w2 = 4 - w0 - w1 + (integer(0, 3) == 0 ? integer(-1, 1) : 0);
            at[0] = (w0 * at[1] + w1 * at[2] + w2 * at[3]) / 4.0;
        } else {
            if (integer(0, 3) == 0) {
                at[3] = at[2] + integer(-2, 2) * (at[1] - at[0]); // parallel, collinear or zero length
            }
            if (integer(0, 5) == 0) {
                at[1] = at[0];
            }
            const int s = integer(0, 4), u = integer(0, 4);
            const Eigen::Vector3d shift = (s * at[0] + (4 - s) * at[1]) / 4.0 - (u * at[2] + (4 - u) * at[3]) / 4.0;
            at[2] += shift;
            at[3] += shift;
        }
        for (int i = 0; i < 4; ++i) {
            const Eigen::Vector3d v = grid(2);
            x[i] = at[i] - t * v; // exact: small integers times a dyadic of few bits
            x[i + 4] = x[i] + v;
        }
        return x;
    }

    /// Moves the query through the double range: scaled by 2^k near the top or the bottom, or with single
    /// coordinates replaced by values far below the rest (subnormals, zeros of either sign).
    void spread(Points& x)
    {
        switch (integer(0, 4)) {
        case 0: { // a power of two anywhere, keeping the largest (|x| <= 8) finite
            const int k = integer(-1074, 1019);
            for (auto& p : x) {
                for (int c = 0; c < 3; ++c) {
                    p[c] = std::ldexp(p[c], k);
                }
            }
            break;
        }
        case 1: { // one coordinate more than 2000 binades below the rest, or a signed zero
            const int i = integer(0, 7), c = integer(0, 2);
            for (auto& p : x) {
                for (int d = 0; d < 3; ++d) {
                    p[d] = std::ldexp(p[d], 1000);
                }
            }
            x[i][c] = coin() ? coordinate(integer(-1074, -1000)) : (coin() ? 0.0 : -0.0);
            break;
        }
        case 2: { // a single nonzero coordinate carries the whole motion
            const int i = integer(0, 7), c = integer(0, 2);
            const double keep = x[i][c] != 0.0 ? x[i][c] : 1.0;
            for (auto& p : x) {
                p.setZero();
            }
            x[i][c] = std::ldexp(keep, integer(-1070, 1010));
            break;
        }
        default:
            break;
        }
    }

private:
    std::mt19937_64 rng_;
};

} // namespace

TEST(FilterReview, ScaledToUnitMatchesThePlainReferenceOnEveryExponentMix)
{
    // Exponents drawn so that the smallest coordinate often sits right at the edge of exactness: 1022 binades
    // below the largest, give or take two (where a rounded check sees 2^-1022 instead of a subnormal).
    Generator gen(20261124);
    std::size_t scaled_count = 0, declined_count = 0;
    for (int n = 0; n < 200000; ++n) {
        const int top = gen.integer(-1074, 1023);
        Points x;
        for (auto& p : x) {
            for (int k = 0; k < 3; ++k) {
                int binade = top - gen.integer(0, 60);
                if (gen.integer(0, 7) == 0) {
                    binade = top - 1022 + gen.integer(-2, 2);
                }
                p[k] = gen.coordinate(std::clamp(binade, -1074, top));
            }
        }
        const QueryMotion motion = to_motion(x);
        const std::optional<QueryMotion> scaled = motion.scaled_to_unit();
        const std::optional<int> e = reference_exponent(x);
        ASSERT_EQ(scaled.has_value(), e.has_value()) << hex(x);
        if (!e) {
            ++declined_count;
            continue;
        }
        ++scaled_count;
        double largest = 0.0;
        for (int i = 0; i < 8; ++i) {
            const Eigen::Vector3d& from = i < 4 ? motion.start[i] : motion.end[i - 4];
            const Eigen::Vector3d& to = i < 4 ? scaled->start[i] : scaled->end[i - 4];
            for (int k = 0; k < 3; ++k) {
                // Bit for bit 2^e times the input (signed zeros included), and exact: scaling back restores it.
                ASSERT_TRUE(same_bits(to[k], std::ldexp(from[k], *e))) << hex(x) << " coordinate " << i << "," << k;
                ASSERT_TRUE(same_bits(std::ldexp(to[k], -*e), from[k])) << hex(x);
                ASSERT_TRUE(to[k] == 0.0 || std::abs(to[k]) >= std::numeric_limits<double>::min()) << hex(x);
                largest = std::max(largest, std::abs(to[k]));
            }
        }
        ASSERT_TRUE(largest >= 1.0 && largest < 2.0) << hex(x);
    }
    EXPECT_GT(scaled_count, 1000U);
    EXPECT_GT(declined_count, 1000U);
}

TEST(FilterReview, VisitInsideGivesTheInsideTermsInOrderAndStopsWhenAsked)
{
    // inside() is built on visit_inside, so the terms are checked against their formulas written out here:
    // vertex-face, the barycentric weights times |n|^2 ((t1 - t0) x (p - t0)).n and its two rotations;
    // edge-edge, s |m|^2, (1 - s) |m|^2, u |m|^2, (1 - u) |m|^2 from w = eb0 - ea0.
    Generator gen(7);
    for (int n = 0; n < 200; ++n) {
        const auto line = [&] { return Poly<double, 1> { { 1.0 * gen.integer(-9, 9), 1.0 * gen.integer(-9, 9) } }; };
        details::QueryPoints<double, 1> x;
        for (auto& p : x) {
            p = { line(), line(), line() };
        }
        const auto n_vf = details::VertexFaceTerms::normal(x);
        const std::array<Poly<double, 4>, 3> vertex_face { dot(cross(x[2] - x[1], x[0] - x[1]), n_vf),
                                                           dot(cross(x[3] - x[2], x[0] - x[2]), n_vf),
                                                           dot(cross(x[1] - x[3], x[0] - x[3]), n_vf) };
        const auto m = details::EdgeEdgeTerms::normal(x);
        const auto w = x[2] - x[0];
        const auto s = dot(cross(w, x[3] - x[2]), m), u = dot(cross(w, x[1] - x[0]), m), mm = dot(m, m);
        const std::array<Poly<double, 4>, 4> edge_edge { s, mm - s, u, mm - u };
        const auto check = [&](auto terms, const auto& expected) {
            using Terms = decltype(terms);
            const auto normal = Terms::normal(x);
            for (int stop_after = 1; stop_after <= Terms::INSIDE_COUNT; ++stop_after) {
                int visited = 0;
                Terms::visit_inside(x, normal, [&](const auto& g) {
                    EXPECT_EQ(g.c, expected[visited].c) << "term " << visited;
                    return ++visited < stop_after;
                });
                EXPECT_EQ(visited, stop_after);
            }
            const auto all = Terms::inside(x, normal);
            for (int i = 0; i < Terms::INSIDE_COUNT; ++i) {
                EXPECT_EQ(all[i].c, expected[i].c) << "inside() term " << i;
            }
        };
        check(details::VertexFaceTerms {}, vertex_face);
        check(details::EdgeEdgeTerms {}, edge_edge);
    }
}

TEST(FilterReview, AnswersAcrossTheDoubleRangeAgreeWithTheOracle)
{
    // Exact contacts (and near misses one ulp or 2^-40 away) at split points and ends, vertices on edges and
    // corners, parallel and zero-length edges, coplanar motion; then spread over the double range. The scaling
    // and the filter must give the oracle's verdict and an interval around its first contact time.
    Generator gen(0x5ca1ed);
    std::size_t hits = 0, failures = 0;
    for (int n = 0; n < 6000 && failures < 5; ++n) {
        const bool vertex_face = n % 2 == 0;
        Points x = gen.degenerate(vertex_face);
        if (gen.integer(0, 2) == 0) {
            double& c = x[gen.integer(0, 7)][gen.integer(0, 2)];
            c = gen.coin() ? std::nextafter(c, gen.coin() ? 16.0 : -16.0) : c + std::ldexp(gen.coin() ? 1 : -1, -40);
        }
        gen.spread(x);
        CcdOptions options;
        switch (gen.integer(0, 3)) {
        case 0:
            options.t_max = 63.0 / 128.0;
            break;
        case 1:
            options.t_max = 0.5;
            break;
        default:
            break;
        }
        if (gen.coin()) {
            options.tolerance = std::ldexp(1.0, -gen.integer(1, 50));
        }
        const auto agreement = test::agrees_with_oracle(vertex_face, x, options);
        EXPECT_TRUE(agreement) << hex(x) << " t_max " << options.t_max << " tolerance " << options.tolerance;
        failures += !agreement;
        hits += test::run(vertex_face, x, options).hit;
    }
    EXPECT_GT(hits, 1000U); // the families must actually produce contacts
}
