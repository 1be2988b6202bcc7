// SPDX-License-Identifier: MIT
// Randomized differential test of the exact method against the independent oracle, on generated queries
// that are mostly degenerate or nearly so: the cases where filters and case analyses go wrong.
#include "narrow/ccd_test_support.hpp"

#include <cmath>
#include <cstdlib>
#include <random>

using namespace ccdkit;
using test::Points;

namespace {

/// Total number of queries over all shards; CCDKIT_DIFFERENTIAL_QUERIES overrides it.
std::size_t total_queries()
{
    if (const char* env = std::getenv("CCDKIT_DIFFERENTIAL_QUERIES")) {
        return std::strtoull(env, nullptr, 10);
    }
    return 1'000'000;
}

constexpr int SHARDS = 16;

class QueryGenerator {
public:
    explicit QueryGenerator(std::uint64_t seed)
        : rng_(seed)
    {
    }

    /// One query from a randomly chosen family.
    Points next(bool vertex_face)
    {
        Points x;
        switch (pick(6)) {
        case 0:
            x = grid(4);
            break; // small integer grid: exact coplanarity, touching, collinearity
        case 1:
            x = grid(1);
            break; // coarser grid: even more coincidences
        case 2:
            x = constructed_contact(vertex_face, false);
            break; // contact rounded to the nearest doubles
        case 3:
            x = constructed_contact(vertex_face, true);
            break; // contact on an edge or vertex
        case 4:
            x = uniform();
            break; // general position
        default:
            x = with_coincidences();
            break; // shared, static or collapsed points
        }
        if (pick(8) == 0) { // exact power-of-two scaling to huge or tiny magnitudes
            const double s = std::ldexp(1.0, static_cast<int>(pick(1200)) - 600);
            for (auto& p : x) {
                p *= s;
            }
        }
        return x;
    }

private:
    std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
    double unit() { return std::uniform_real_distribution<double>(-1.0, 1.0)(rng_); }

    Points grid(int steps)
    {
        Points x;
        for (auto& p : x) {
            for (int k = 0; k < 3; ++k) {
                p[k] = static_cast<double>(static_cast<int>(pick(2 * steps + 1)) - steps) / steps;
            }
        }
        return x;
    }

    Points uniform()
    {
        Points x;
        for (auto& p : x) {
            p = { unit(), unit(), unit() };
        }
        return x;
    }

    Points with_coincidences()
    {
        Points x = pick(2) ? uniform() : grid(2);
        for (int n = static_cast<int>(pick(4)) + 1; n > 0; --n) {
            const std::size_t i = pick(8), j = pick(8);
            if (pick(3) == 0) {
                x[i][pick(3)] = x[j][pick(3)]; // one coordinate shared
            } else {
                x[i] = x[j];
            }
        }
        return x;
    }

    /// Places the contact point of a random configuration at a random time, then rounds: the result touches,
    /// nearly touches or nearly misses.
    Points constructed_contact(bool vertex_face, bool on_boundary)
    {
        Points x = uniform();
        const double t = pick(4) == 0 ? static_cast<double>(pick(2)) : std::abs(unit());
        const auto at = [&](int i) -> Eigen::Vector3d { return x[i] + t * (x[i + 4] - x[i]); };
        double w[3] = { std::abs(unit()), std::abs(unit()), std::abs(unit()) };
        if (on_boundary) {
            w[pick(3)] = 0.0;
            if (pick(2)) {
                w[pick(3)] = 0.0;
            }
        }
        const double sum = w[0] + w[1] + w[2];
        if (sum == 0.0) {
            w[0] = 1.0;
        }
        Eigen::Vector3d target;
        if (vertex_face) {
            const double total = w[0] + w[1] + w[2];
            target = (w[0] * at(1) + w[1] * at(2) + w[2] * at(3)) / total;
            // Move the vertex's end so that it passes through the target at time t.
            if (t > 0.0) {
                x[4] = x[0] + (target - x[0]) / t;
            } else {
                x[0] = target;
            }
        } else {
            const double s = w[0] / (w[0] + w[1] + 1e-300);
            target = at(0) + s * (at(1) - at(0));
            const double u = on_boundary ? static_cast<double>(pick(2)) : std::abs(unit());
            // Shift edge b so that its point at parameter u passes through the target at time t.
            const Eigen::Vector3d offset = target - (at(2) + u * (at(3) - at(2)));
            for (const int i : { 2, 3, 6, 7 }) {
                x[i] += offset;
            }
        }
        return x;
    }

    std::mt19937_64 rng_;
};

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
    QueryGenerator generator(0x5eed0000U + static_cast<std::uint64_t>(shard));
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
