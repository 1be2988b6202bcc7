// SPDX-License-Identifier: MIT
// Whole-mesh CCD (and its broad phases' boxes) under a caller's flush-to-zero / denormals-are-zero mode: the
// same contacts, with the same times, as in plain IEEE mode, and the caller's mode back unchanged. The work
// runs on oneTBB tasks, which do not see the calling thread's mode but the one their arena captured.
#include "support/flush_to_zero_mode.hpp"

#include <ccdkit/broad/aabb.hpp>
#include <ccdkit/broad/broad_phase.hpp>
#include <ccdkit/broad/mesh_ccd.hpp>
#include <ccdkit/mesh/cloth_scene.hpp>
#include <ccdkit/mesh/triangle_mesh.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <tuple>
#include <vector>

#if defined(__SSE2__)
using namespace ccdkit;
using test::in_flush_to_zero_program;
using test::with_flush_to_zero_caller;

namespace {

struct MeshMotionCase {
    const char* name;
    Eigen::MatrixX3d v0, v1;
    Eigen::MatrixX2i edges;
    Eigen::MatrixX3i faces;
};

/// Contacts with their times, comparable as a whole.
using Contacts = std::tuple<
    std::vector<std::tuple<int, int, double, double>>,
    std::vector<std::tuple<int, int, double, double>>,
    std::optional<double>,
    std::optional<double>>;

Contacts contacts_of(const MeshCcdResult& r)
{
    Contacts c;
    for (const auto& h : r.vertex_face) {
        std::get<0>(c).emplace_back(h.vertex, h.face, h.toi_lower, h.toi_upper);
    }
    for (const auto& h : r.edge_edge) {
        std::get<1>(c).emplace_back(h.edge_a, h.edge_b, h.toi_lower, h.toi_upper);
    }
    std::get<2>(c) = r.earliest_toi_lower;
    std::get<3>(c) = r.earliest_toi_upper;
    return c;
}

/// Two edges (rows 0-1 and 2-3) from the eight points of an edge-edge query (ea0..eb1 at t0, then at t1).
MeshMotionCase edge_pair(const char* name, const std::array<Eigen::Vector3d, 8>& x)
{
    MeshMotionCase c { name, Eigen::MatrixX3d(4, 3), Eigen::MatrixX3d(4, 3), Eigen::MatrixX2i(2, 2), {} };
    for (int i = 0; i < 4; ++i) {
        c.v0.row(i) = x[static_cast<std::size_t>(i)].transpose();
        c.v1.row(i) = x[static_cast<std::size_t>(i + 4)].transpose();
    }
    c.edges << 0, 1, 2, 3;
    return c;
}

/// A crumpling cloth step (contacts of every kind) with its coordinates scaled by `scale`.
MeshMotionCase scaled_cloth(const char* name, double scale)
{
    const ClothScene s = crumpling_cloth(8, 3.0, 5);
    return { name, s.start.vertices * scale, s.end * scale, edges_from_faces(s.start.faces), s.start.faces };
}

std::vector<MeshMotionCase> cases()
{
    using V = Eigen::Vector3d;
    std::vector<MeshMotionCase> all;
    // Edge pairs at subnormal scale that touch; the narrow phase's never-coplanar certificate, which whole-mesh
    // CCD runs on the candidate pairs itself, read their flushed differences as zero.
    all.push_back(edge_pair(
        "subnormal edges",
        { V(0x1p-1021, 0x1p-1021, 0x1.56p-1021), V(-0x1p-1021, -0x1.fffffffffffffp-1021, -0x1.56p-1022),
          V(0x0p+0, -0x1p-1021, 0x1.56p-1021), V(0x1p-1020, -0x1p-1020, 0x0p+0), V(0x1p-1021, 0x1p-1020, -0x1.54p-1022),
          V(0x0p+0, -0x1p-1021, 0x0.aap-1022), V(0x0p+0, 0x0p+0, -0x1.54p-1022), V(-0x1p-1021, 0x0p+0, 0x0p+0) }));
    all.push_back(edge_pair(
        "subnormal edges, second",
        { V(-0x0.8p-1022, 0x0p+0, -0x0.8p-1022), V(0x0.8p-1022, 0x0.8p-1022, 0x1p-1022),
          V(0x0p+0, -0x1.8p-1022, -0x1.8p-1022), V(0x1.8p-1022, 0x0.8p-1022, 0x1p-1021),
          V(0x0.8p-1022, 0x1.8p-1022, 0x1p-1021), V(0x1.8p-1022, -0x1p-1022, 0x0.8p-1022),
          V(0x1.8p-1022, 0x1.8p-1022, 0x1.8p-1021), V(0x1.8p-1022, -0x1p-1022, 0x0.8p-1022) }));
    // A vertex falling through a face, all at subnormal scale (2^-1060 ~ 1e-319).
    {
        const double s = 0x1p-1060;
        MeshMotionCase c { "subnormal vertex through a face",
                           Eigen::MatrixX3d(4, 3),
                           Eigen::MatrixX3d(4, 3),
                           {},
                           Eigen::MatrixX3i(1, 3) };
        c.v0 << 0.25 * s, 0.25 * s, s, 0, 0, 0, s, 0, 0, 0, s, 0;
        c.v1 = c.v0;
        c.v1(0, 2) = -s;
        c.faces << 1, 2, 3;
        c.edges = edges_from_faces(c.faces);
        all.push_back(c);
    }
    all.push_back(scaled_cloth("cloth", 1.0));
    all.push_back(scaled_cloth("cloth scaled by 1e-300", 1e-300));
    all.push_back(scaled_cloth("cloth scaled by 1e-310 (subnormal)", 1e-310));
    return all;
}

class MeshCcdFlushToZero : public ::testing::TestWithParam<BroadPhaseMethod> { };

} // namespace

TEST_P(MeshCcdFlushToZero, FindsWhatPlainArithmeticFinds)
{
    MeshCcdOptions options;
    options.broad_phase = GetParam();
    for (const MeshMotionCase& c : cases()) {
        SCOPED_TRACE(c.name);
        const auto run = [&] { return contacts_of(mesh_ccd(c.v0, c.v1, c.edges, c.faces, options)); };
        const Contacts plain = run();
        if (c.v0.rows() == 4) {
            EXPECT_FALSE(std::get<0>(plain).empty() && std::get<1>(plain).empty()) << "the case should touch";
        }
        EXPECT_EQ(in_flush_to_zero_program(run), plain);
        EXPECT_EQ(with_flush_to_zero_caller(run), plain);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Methods,
    MeshCcdFlushToZero,
    ::testing::Values(BroadPhaseMethod::BVH, BroadPhaseMethod::SWEEP_AND_PRUNE, BroadPhaseMethod::BRUTE_FORCE));

TEST_P(MeshCcdFlushToZero, BroadPhaseFindsWhatPlainArithmeticFinds)
{
    // Built and queried directly (not through mesh_ccd): every pair of overlapping swept boxes of the subnormal
    // cloth, as in plain mode.
    const MeshMotionCase c = scaled_cloth("cloth scaled by 1e-310", 1e-310);
    const std::vector<Aabb> faces = face_boxes(c.v0, c.v1, c.faces), vertices = vertex_boxes(c.v0, c.v1);
    const auto run = [&] {
        const std::unique_ptr<BroadPhase> broad = make_broad_phase(GetParam());
        broad->build(faces);
        std::vector<CandidatePair> pairs;
        broad->query(vertices, 0, pairs, QueryScope::ALL_PAIRS);
        std::sort(pairs.begin(), pairs.end());
        return pairs;
    };
    const std::vector<CandidatePair> plain = run();
    EXPECT_FALSE(plain.empty());
    EXPECT_EQ(in_flush_to_zero_program(run), plain);
    EXPECT_EQ(with_flush_to_zero_caller(run), plain);
}

TEST(MeshCcdFlushToZero, MultiMeshCcdFindsWhatPlainArithmeticFinds)
{
    const MeshMotionCase c = scaled_cloth("cloth scaled by 1e-310", 1e-310);
    const std::vector<MeshMotion> meshes { { c.v0, c.v1, c.faces, c.edges }, { c.v0, c.v1, c.faces, c.edges } };
    const auto run = [&] {
        const MultiMeshCcdResult r = multi_mesh_ccd(meshes);
        return std::tuple(r.vertex_face.size(), r.edge_edge.size(), r.earliest_toi_lower, r.earliest_toi_upper);
    };
    const auto plain = run();
    EXPECT_EQ(in_flush_to_zero_program(run), plain);
    EXPECT_EQ(with_flush_to_zero_caller(run), plain);
}

TEST(MeshCcdFlushToZero, SweptBoxesAreThoseOfPlainArithmetic)
{
    // Subnormal coordinates and a subnormal inflation: flushed sums shrink a box toward zero.
    const MeshMotionCase c = scaled_cloth("cloth scaled by 1e-310", 1e-310);
    const double inflation = 0x1p-1060;
    const auto boxes = [&] {
        std::vector<std::tuple<Eigen::Array3d, Eigen::Array3d>> all;
        for (const auto& list : { vertex_boxes(c.v0, c.v1, inflation), edge_boxes(c.v0, c.v1, c.edges, inflation),
                                  face_boxes(c.v0, c.v1, c.faces, inflation) }) {
            for (const Aabb& b : list) {
                all.emplace_back(b.min, b.max);
            }
        }
        return all;
    };
    const auto plain = boxes();
    const auto equal = [](const auto& a, const auto& b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (!(std::get<0>(a[i]) == std::get<0>(b[i])).all() || !(std::get<1>(a[i]) == std::get<1>(b[i])).all()) {
                return false;
            }
        }
        return true;
    };
    EXPECT_TRUE(equal(in_flush_to_zero_program(boxes), plain));
    EXPECT_TRUE(equal(with_flush_to_zero_caller(boxes), plain));
}
#endif
