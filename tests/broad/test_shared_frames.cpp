// SPDX-License-Identifier: MIT
// The shared frames of Belgrod et al. 2023 (../shared/ccd-queries/belgrod2023): whole-mesh CCD between two
// frames of a simulation must report every pair the ground truth marks colliding.
#include "support/contact_pairs.hpp"
#include "support/shared_data.hpp"

#include <ccdkit/broad/mesh_ccd.hpp>
#include <ccdkit/mesh/mesh_io.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>

using namespace ccdkit;

namespace {
nlohmann::json read_json(const std::filesystem::path& p)
{
    std::ifstream in(p);
    return nlohmann::json::parse(in);
}
} // namespace

/// The shared frames of Belgrod et al.: every pair their ground truth marks colliding must be reported.
class SharedFrames : public ::testing::TestWithParam<std::pair<const char*, const char*>> { };

TEST_P(SharedFrames, FindsEveryCollidingPair)
{
    const auto [scene, frame] = GetParam();
    const std::filesystem::path dir = ccdkit::test::shared_query_dir() / "belgrod2023" / scene;
    if (!std::filesystem::exists(dir)) {
        GTEST_SKIP() << "shared frames not found at " << dir << " (set CCDKIT_QUERY_DIR)";
    }
    const int next = std::stoi(frame) + 1;
    const TriangleMesh t0 = read_mesh(dir / "frames" / (std::string(frame) + ".ply"));
    const TriangleMesh t1 = read_mesh(dir / "frames" / (std::to_string(next) + ".ply"));
    const Eigen::MatrixX2i edges = edges_from_faces(t0.faces);
    const MeshCcdResult r = mesh_ccd(t0.vertices, t1.vertices, edges, t0.faces);
    const long v_count = t0.vertices.rows(), e_count = edges.rows();

    const auto vf = ccdkit::test::vertex_face_pairs(r);
    const auto ee = ccdkit::test::edge_edge_pairs(r);
    std::size_t expected = 0, missed = 0, contradicted = 0;
    std::set<std::pair<int, int>> listed_vf, listed_ee;
    for (const char* kind : { "vf", "ee" }) {
        const auto boxes = read_json(dir / "boxes" / (std::string(frame) + kind + ".json"));
        const auto truth = read_json(dir / "mma_bool" / (std::string(frame) + kind + "_mma_bool.json"));
        ASSERT_EQ(boxes.size(), truth.size());
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            const long a = boxes[i][0], b = boxes[i][1];
            std::pair<int, int> key;
            bool found = false;
            if (std::string(kind) == "vf") {
                key = { static_cast<int>(a), static_cast<int>(b - v_count - e_count) };
                found = vf.count(key) > 0;
                listed_vf.insert(key);
            } else {
                key = { static_cast<int>(std::min(a, b) - v_count), static_cast<int>(std::max(a, b) - v_count) };
                found = ee.count(key) > 0;
                listed_ee.insert(key);
            }
            if (truth[i].get<bool>()) {
                ++expected;
                missed += !found;
                EXPECT_TRUE(found) << scene << " " << kind << " pair " << a << " " << b;
            } else {
                contradicted += found; // the exact method agrees with this ground truth query by query
            }
        }
    }
    std::size_t beyond = 0;
    for (const auto& p : vf) {
        beyond += listed_vf.count(p) == 0;
    }
    for (const auto& p : ee) {
        beyond += listed_ee.count(p) == 0;
    }
    std::printf(
        "%s/%s: %zu colliding pairs in the ground truth, %zu missed; %zu vertex-face + %zu edge-edge "
        "reported, %zu of them outside the ground truth's candidate list\n",
        scene, frame, expected, missed, vf.size(), ee.size(), beyond);
    EXPECT_EQ(missed, 0U);
    EXPECT_EQ(contradicted, 0U);
}

INSTANTIATE_TEST_SUITE_P(
    Belgrod2023,
    SharedFrames,
    ::testing::Values(std::pair { "rod-twist", "3036" }, std::pair { "cloth-funnel", "227" }));
