// SPDX-License-Identifier: MIT
// Randomized differential test of the exact method against the independent oracle, on generated queries
// that are mostly degenerate or nearly so: the cases where filters and case analyses go wrong.
#include "narrow/ccd_test_support.hpp"
#include "support/query_generator.hpp"

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
