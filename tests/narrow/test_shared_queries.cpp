// SPDX-License-Identifier: MIT
// The public benchmark queries (../shared/ccd-queries): the exact method must reproduce the ground truth on
// every query, and its time of impact must bracket the oracle's first contact time.
#include "narrow/ccd_test_support.hpp"
#include "support/shared_data.hpp"

#include <ccdkit/io/query_file.hpp>

#include <cstdlib>
#include <filesystem>

using namespace ccdkit;

namespace {
void check_data_set(const std::string& name)
{
    const std::filesystem::path dir = ccdkit::test::shared_query_dir() / name;
    if (!std::filesystem::exists(dir)) {
        GTEST_SKIP() << "shared queries not found at " << dir << " (set CCDKIT_QUERY_DIR)";
    }
    std::size_t queries = 0, positives = 0, false_positives = 0, false_negatives = 0;
    for (const QueryFile& file : read_query_paths({ dir })) {
        for (const Query& q : file.queries) {
            ASSERT_TRUE(q.truth.has_value()) << file.path << ":" << q.line;
            // The oracle below is 3D only; the shared data holds no 2D queries.
            ASSERT_NE(q.kind, QueryKind::POINT_EDGE) << file.path;
            const bool vertex_face = q.kind == QueryKind::VERTEX_FACE;
            const CcdResult r = test::run(vertex_face, q.points);
            ++queries;
            positives += *q.truth;
            false_positives += r.hit && !*q.truth;
            false_negatives += !r.hit && *q.truth;
            EXPECT_EQ(r.hit, *q.truth) << file.path << ":" << q.line;
            if (*q.truth) {
                EXPECT_TRUE(test::agrees_with_oracle(vertex_face, q.points)) << file.path << ":" << q.line;
            }
        }
    }
    std::printf(
        "%s: %zu queries, %zu positives, %zu false positives, %zu false negatives\n", name.c_str(), queries, positives,
        false_positives, false_negatives);
    EXPECT_GT(queries, 0U);
}
} // namespace

TEST(SharedQueries, Handcrafted) { check_data_set("wang2021-handcrafted"); }

TEST(SharedQueries, Belgrod2023) { check_data_set("belgrod2023"); }
