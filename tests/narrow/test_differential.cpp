// SPDX-License-Identifier: MIT
// Randomized differential test of the exact method against the independent oracle, on generated queries
// that are mostly degenerate or nearly so: the cases where filters and case analyses go wrong.
#include "narrow/ccd_test_support.hpp"
#include "support/env_count.hpp"
#include "support/query_generator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <random>

using namespace ccdkit;
using test::Points;

namespace {

/// Total number of queries over all shards; CCDKIT_DIFFERENTIAL_QUERIES overrides it.
std::size_t total_queries() { return test::count_from_env("CCDKIT_DIFFERENTIAL_QUERIES", 1'000'000); }

constexpr int SHARDS = 16;

/// Relabelings that describe the same geometry: the answer must not change.
Points permuted(bool vertex_face, const Points& x)
{
    if (vertex_face) { // reverse the triangle's orientation
        return { x[0], x[1], x[3], x[2], x[4], x[5], x[7], x[6] };
    }
    // swap the two edges and reverse one of them
    return { x[2], x[3], x[1], x[0], x[6], x[7], x[5], x[4] };
}

class Differential : public ::testing::TestWithParam<int> { };

} // namespace

TEST_P(Differential, ExactAgreesWithOracle)
{
    const int shard = GetParam();
    const std::size_t count = total_queries() / SHARDS;
    test::QueryGenerator generator(0x5eed0000U + static_cast<std::uint64_t>(shard));
    std::size_t hits = 0, exact_stage = 0, failures = 0;
    for (std::size_t i = 0; i < count && failures < 10; ++i) {
        const bool vertex_face = i % 2 == 0;
        const Points x = generator.next(vertex_face);
        const auto agreement = test::agrees_with_oracle(vertex_face, x);
        EXPECT_TRUE(agreement);
        failures += !agreement;
        const CcdResult r = test::run(vertex_face, x);
        hits += r.hit;
        exact_stage += r.decided_by == DecidedBy::EXACT;
        EXPECT_EQ(test::run(vertex_face, permuted(vertex_face, x)).hit, r.hit) << test::describe(x);
    }
    std::printf("shard %d: %zu queries, %zu hits, %zu decided by exact arithmetic\n", shard, count, hits, exact_stage);
}

INSTANTIATE_TEST_SUITE_P(Shards, Differential, ::testing::Range(0, SHARDS));

namespace {

/// Queries whose eight points stay in one plane throughout (the coplanarity polynomial is identically zero):
/// the exact stage's coplanar path, where the candidate times are the ends and the roots of every contact
/// term. Coordinates are multiples of 1/8 on a plane through the origin with a dyadic slope (so the points are
/// exactly coplanar), often coinciding; a few are scaled by 2^-1060 .. 2^1000.
class CoplanarGenerator {
public:
    explicit CoplanarGenerator(std::uint64_t seed)
        : rng_(seed)
    {
    }

    Points next()
    {
        static constexpr double SLOPES[] = { 0.0, 0.0, 1.0, -1.0, 0.5, 2.0, -0.25 };
        const double sx = SLOPES[pick(std::size(SLOPES))], sy = SLOPES[pick(std::size(SLOPES))];
        const int steps = pick(2) == 0 ? 2 : 8;
        const int axis = static_cast<int>(pick(3)); // the plane's dependent coordinate
        Points x;
        for (auto& p : x) {
            const double u = coordinate(steps), v = coordinate(steps);
            p[(axis + 1) % 3] = u;
            p[(axis + 2) % 3] = v;
            p[axis] = sx * u + sy * v;
        }
        for (int n = static_cast<int>(pick(4)); n > 0; --n) { // shared and static points
            x[pick(8)] = x[pick(8)];
        }
        if (pick(8) == 0) { // down to subnormal coordinates (multiples of 2^-1066 stay exact), up to 2^1003
            const double s = std::ldexp(1.0, static_cast<int>(pick(2061)) - 1060);
            for (auto& p : x) {
                p *= s;
            }
        }
        return x;
    }

    std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

private:
    double coordinate(int steps)
    {
        return static_cast<double>(static_cast<int>(pick(4 * steps + 1)) - 2 * steps) / steps;
    }

    std::mt19937_64 rng_;
};

} // namespace

TEST(DifferentialCoplanar, ExactAgreesWithOracle)
{
    // Irrational contact times (roots of the quadratic orientation terms), ties between the roots of different
    // terms, contacts at the ends, zero-length edges and triangles collapsing mid-step; small and large t_max
    // and tolerances, so the early stop among the candidates and the certified interval are both exercised.
    CoplanarGenerator generator(0xc0b1a4eU);
    const std::size_t count = std::max<std::size_t>(total_queries() / 50, 2000);
    std::size_t hits = 0, exact_stage = 0, failures = 0;
    for (std::size_t i = 0; i < count && failures < 10; ++i) {
        const bool vertex_face = i % 2 == 0;
        const Points x = generator.next();
        CcdOptions options;
        static constexpr double T_MAX[] = { 1.0, 1.0, 0.5, 0.375, 1e-3 };
        static constexpr double TOLERANCE[] = { 1e-6, 1e-6, 1e-12, 0.25 };
        options.t_max = T_MAX[generator.pick(std::size(T_MAX))];
        options.tolerance = TOLERANCE[generator.pick(std::size(TOLERANCE))];
        const auto agreement = test::agrees_with_oracle(vertex_face, x, options);
        EXPECT_TRUE(agreement) << "t_max " << options.t_max << ", tolerance " << options.tolerance;
        failures += !agreement;
        const CcdResult r = test::run(vertex_face, x, options);
        hits += r.hit;
        exact_stage += r.decided_by == DecidedBy::EXACT;
        EXPECT_EQ(test::run(vertex_face, permuted(vertex_face, x), options).hit, r.hit) << test::describe(x);
    }
    std::printf("coplanar: %zu queries, %zu hits, %zu decided by exact arithmetic\n", count, hits, exact_stage);
}

namespace {

/// Coplanar motion whose plane turns: edges that stay parallel to one direction e (edge-edge), or a triangle
/// whose corners stay on one line along e (vertex-face; the vertex and that line always share a plane). The
/// offset between the two lines, w(t) = (1 - t / tau) u + (a + b t) e, vanishes along u at t = tau, when the
/// lines meet, so contacts happen mid-step, at the ends, or just outside the step.
class TurningPlaneGenerator {
public:
    explicit TurningPlaneGenerator(std::uint64_t seed)
        : rng_(seed)
    {
    }

    Points next(bool vertex_face)
    {
        static constexpr double TAU[] = { 0.5, 1.0, 0.25, 0.75, 2.0, 1.0 / 3.0 };
        const Eigen::Vector3d e = direction(), u = direction();
        const double tau = TAU[pick(std::size(TAU))];
        const Eigen::Vector3d base0 = point(), base1 = point();
        const double a = small(), b = small();
        // One line: base(t) + s e for the parameters of its points; the other: base(t) + w(t) + s e.
        const auto on_line = [&](double t, bool offset, double s) {
            const Eigen::Vector3d base = base0 + t * (base1 - base0);
            const Eigen::Vector3d w
                = offset ? Eigen::Vector3d((1 - t / tau) * u + (a + b * t) * e) : Eigen::Vector3d::Zero();
            return Eigen::Vector3d(base + w + s * e);
        };
        Points x;
        if (vertex_face) {
            const double p0 = small(), p1 = small();
            const double s0[3] = { small(), small(), small() }, s1[3] = { small(), small(), small() };
            x[0] = on_line(0, true, p0);
            x[4] = on_line(1, true, p1);
            for (int k = 0; k < 3; ++k) {
                x[1 + k] = on_line(0, false, s0[k]);
                x[5 + k] = on_line(1, false, s1[k]);
            }
        } else {
            for (int k = 0; k < 2; ++k) {
                x[k] = on_line(0, false, small());
                x[4 + k] = on_line(1, false, small());
                x[2 + k] = on_line(0, true, small());
                x[6 + k] = on_line(1, true, small());
            }
        }
        return x;
    }

    std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

private:
    /// Multiples of 1/4 in [-2, 2]: sums and products stay exact, so the points are exactly on their lines.
    double small() { return static_cast<double>(static_cast<int>(pick(17)) - 8) / 4; }
    Eigen::Vector3d point() { return { small(), small(), small() }; }
    Eigen::Vector3d direction()
    {
        Eigen::Vector3d d;
        do {
            d = { static_cast<double>(static_cast<int>(pick(5)) - 2),
                  static_cast<double>(static_cast<int>(pick(5)) - 2),
                  static_cast<double>(static_cast<int>(pick(5)) - 2) };
        } while (d.isZero());
        return d;
    }

    std::mt19937_64 rng_;
};

} // namespace

TEST(DifferentialCoplanar, TurningPlaneAgreesWithOracle)
{
    TurningPlaneGenerator generator(0x7a12e5U);
    const std::size_t count = std::max<std::size_t>(total_queries() / 50, 2000);
    std::size_t hits = 0, failures = 0;
    for (std::size_t i = 0; i < count && failures < 10; ++i) {
        const bool vertex_face = i % 2 == 0;
        const Points x = generator.next(vertex_face);
        CcdOptions options;
        static constexpr double T_MAX[] = { 1.0, 1.0, 0.5, 0.375 };
        options.t_max = T_MAX[generator.pick(std::size(T_MAX))];
        const auto agreement = test::agrees_with_oracle(vertex_face, x, options);
        EXPECT_TRUE(agreement) << "t_max " << options.t_max;
        failures += !agreement;
        hits += test::run(vertex_face, x, options).hit;
    }
    std::printf("turning plane: %zu queries, %zu hits\n", count, hits);
    EXPECT_GT(hits, count / 20); // the generator must produce contacts, not only misses
}
