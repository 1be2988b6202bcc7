// SPDX-License-Identifier: MIT
#include "support/contact_pairs.hpp"

#include <ccdkit/broad/mesh_ccd.hpp>
#include <ccdkit/mesh/cloth_scene.hpp>
#include <ccdkit/mesh/triangle_mesh.hpp>
#include <ccdkit/narrow/edge_edge_ccd.hpp>
#include <ccdkit/narrow/spacetime_ccd.hpp>
#include <ccdkit/narrow/vertex_face_ccd.hpp>

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <array>
#include <limits>
#include <set>
#include <tuple>
#include <vector>

using namespace ccdkit;
using ccdkit::test::edge_edge_pairs;
using ccdkit::test::vertex_face_pairs;

namespace {
/// Every pair tested directly, no broad phase: the reference for the whole pipeline. Space-time CCD gets the
/// mesh's vertex ids.
MeshCcdResult all_pairs(const ClothScene& s, const Eigen::MatrixX2i& edges, CcdMethod method = CcdMethod::EXACT)
{
    CcdOptions options;
    options.method = method;
    const bool spacetime = method == CcdMethod::SPACETIME;
    MeshCcdResult r;
    const auto& v0 = s.start.vertices;
    const auto& v1 = s.end;
    const auto& f = s.start.faces;
    const auto p0 = [&](Eigen::Index i) -> Eigen::Vector3d { return v0.row(i).transpose(); };
    const auto p1 = [&](Eigen::Index i) -> Eigen::Vector3d { return v1.row(i).transpose(); };
    for (int v = 0; v < v0.rows(); ++v) {
        for (int j = 0; j < f.rows(); ++j) {
            if (f(j, 0) == v || f(j, 1) == v || f(j, 2) == v) {
                continue;
            }
            const VertexFaceMotion m { p0(v), p0(f(j, 0)), p0(f(j, 1)), p0(f(j, 2)),
                                       p1(v), p1(f(j, 0)), p1(f(j, 1)), p1(f(j, 2)) };
            const CcdResult c = spacetime ? spacetime_vertex_face_ccd(m, { v, f(j, 0), f(j, 1), f(j, 2) })
                                          : vertex_face_ccd(m, options);
            if (c.hit) {
                r.vertex_face.push_back({ v, j, c.toi_lower, c.toi_upper });
            }
        }
    }
    for (int a = 0; a < edges.rows(); ++a) {
        for (int b = a + 1; b < edges.rows(); ++b) {
            const auto ea = edges.row(a), eb = edges.row(b);
            if (ea[0] == eb[0] || ea[0] == eb[1] || ea[1] == eb[0] || ea[1] == eb[1]) {
                continue;
            }
            const EdgeEdgeMotion m { p0(ea[0]), p0(ea[1]), p0(eb[0]), p0(eb[1]),
                                     p1(ea[0]), p1(ea[1]), p1(eb[0]), p1(eb[1]) };
            const CcdResult c
                = spacetime ? spacetime_edge_edge_ccd(m, { ea[0], ea[1], eb[0], eb[1] }) : edge_edge_ccd(m, options);
            if (c.hit) {
                r.edge_edge.push_back({ a, b, c.toi_lower, c.toi_upper });
            }
        }
    }
    return r;
}
} // namespace

class MeshCcdBroadPhases : public ::testing::TestWithParam<BroadPhaseMethod> { };

TEST_P(MeshCcdBroadPhases, AgreesWithAllPairs)
{
    for (const double shake : { 0.0, 0.6, 3.0 }) {
        SCOPED_TRACE(shake);
        const ClothScene s = crumpling_cloth(9, shake, 7);
        const Eigen::MatrixX2i edges = edges_from_faces(s.start.faces);
        MeshCcdOptions options;
        options.broad_phase = GetParam();
        options.block_size = 37; // several blocks
        const MeshCcdResult r = mesh_ccd(s.start.vertices, s.end, edges, s.start.faces, options);
        const MeshCcdResult expected = all_pairs(s, edges);
        EXPECT_EQ(vertex_face_pairs(r), vertex_face_pairs(expected));
        EXPECT_EQ(edge_edge_pairs(r), edge_edge_pairs(expected));
        if (shake > 1.0) {
            EXPECT_FALSE(r.vertex_face.empty());
        }
        if (r.earliest_toi_lower) {
            EXPECT_LE(*r.earliest_toi_lower, *r.earliest_toi_upper);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Methods,
    MeshCcdBroadPhases,
    ::testing::Values(BroadPhaseMethod::BVH, BroadPhaseMethod::SWEEP_AND_PRUNE, BroadPhaseMethod::BRUTE_FORCE));

TEST(MeshCcd, AReusedWorkspaceGivesWhatAFreshCallGives)
{
    // One workspace through scenes that grow and shrink, broad phases that change and blocks of several sizes:
    // nothing it held before may leak into a result (stale boxes, orders, trees, hits or counts).
    MeshCcdWorkspace workspace;
    const std::array<std::tuple<int, double, BroadPhaseMethod, std::size_t>, 6> runs { {
        { 9, 3.0, BroadPhaseMethod::BVH, 1 << 15 },
        { 14, 0.6, BroadPhaseMethod::BVH, 37 },
        { 5, 3.0, BroadPhaseMethod::BVH, 1 << 15 },
        { 12, 3.0, BroadPhaseMethod::SWEEP_AND_PRUNE, 50 },
        { 12, 3.0, BroadPhaseMethod::BVH, 1 << 15 },
        { 7, 0.0, BroadPhaseMethod::BRUTE_FORCE, 1 << 15 },
    } };
    for (const auto& [size, shake, method, block] : runs) {
        SCOPED_TRACE(size);
        const ClothScene s = crumpling_cloth(size, shake, 11);
        const Eigen::MatrixX2i edges = edges_from_faces(s.start.faces);
        MeshCcdOptions options;
        options.broad_phase = method;
        options.block_size = block;
        const MeshCcdResult reused = mesh_ccd(s.start.vertices, s.end, edges, s.start.faces, options, workspace);
        const MeshCcdResult fresh = mesh_ccd(s.start.vertices, s.end, edges, s.start.faces, options);
        EXPECT_EQ(vertex_face_pairs(reused), vertex_face_pairs(fresh));
        EXPECT_EQ(edge_edge_pairs(reused), edge_edge_pairs(fresh));
        EXPECT_EQ(reused.vertex_face_candidates, fresh.vertex_face_candidates);
        EXPECT_EQ(reused.edge_edge_candidates, fresh.edge_edge_candidates);
        EXPECT_EQ(reused.earliest_toi_lower, fresh.earliest_toi_lower);
        if (shake > 1.0) {
            EXPECT_FALSE(reused.vertex_face.empty());
        }
    }
}

TEST(MeshCcd, OneSharedTreeThroughPassesOfEveryRelativeSize)
{
    // Both passes rebuild one tree in place: on the faces, then on the edges. Edge sets larger, smaller, empty
    // or alone (no faces), in a workspace that goes through them all, on one thread or more: every colliding
    // pair of the all-pairs reference is found, and the reused workspace answers what a fresh call answers.
    const ClothScene cloth = crumpling_cloth(10, 3.0, 13);
    const Eigen::MatrixX2i all_edges = edges_from_faces(cloth.start.faces);
    const auto f = cloth.start.faces.rows(), e = all_edges.rows();
    const std::array<std::pair<Eigen::Index, Eigen::Index>, 6> sizes {
        { { f, e }, { f, e / 4 }, { f / 3, e }, { f, 0 }, { 0, e }, { 7, 5 } }
    };
    MeshCcdWorkspace workspace;
    for (const auto& [faces, edges] : sizes) {
        SCOPED_TRACE(testing::Message() << faces << " faces, " << edges << " edges");
        ClothScene s = cloth;
        s.start.faces = cloth.start.faces.topRows(faces);
        const Eigen::MatrixX2i some_edges = all_edges.bottomRows(edges);
        const MeshCcdResult expected = all_pairs(s, some_edges);
        for (const int threads : { 1, 2 }) {
            SCOPED_TRACE(threads);
            const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
            const MeshCcdResult reused = mesh_ccd(s.start.vertices, s.end, some_edges, s.start.faces, {}, workspace);
            const MeshCcdResult fresh = mesh_ccd(s.start.vertices, s.end, some_edges, s.start.faces);
            EXPECT_EQ(vertex_face_pairs(reused), vertex_face_pairs(expected));
            EXPECT_EQ(edge_edge_pairs(reused), edge_edge_pairs(expected));
            EXPECT_EQ(vertex_face_pairs(fresh), vertex_face_pairs(expected));
            EXPECT_EQ(edge_edge_pairs(fresh), edge_edge_pairs(expected));
            EXPECT_EQ(reused.vertex_face_candidates, fresh.vertex_face_candidates);
            EXPECT_EQ(reused.edge_edge_candidates, fresh.edge_edge_candidates);
        }
        if (faces == f && edges == e) {
            EXPECT_FALSE(expected.vertex_face.empty() || expected.edge_edge.empty());
        }
    }
}

TEST(MeshCcd, ProgressRisesBlockByBlockToOne)
{
    // Blocks of 37 queries over both passes: many reports, never going back, vertex-face pairs the first half.
    const ClothScene s = crumpling_cloth(9, 3.0, 7);
    const Eigen::MatrixX2i edges = edges_from_faces(s.start.faces);
    std::vector<double> reported;
    MeshCcdOptions options;
    options.block_size = 37;
    options.progress = [&reported](double done) { reported.push_back(done); };
    (void)mesh_ccd(s.start.vertices, s.end, edges, s.start.faces, options);
    const std::size_t blocks = (static_cast<std::size_t>(s.start.vertices.rows()) + 36) / 37
        + (static_cast<std::size_t>(edges.rows()) + 36) / 37;
    ASSERT_EQ(reported.size(), blocks);
    EXPECT_TRUE(std::ranges::is_sorted(reported));
    EXPECT_GT(reported.front(), 0.0);
    EXPECT_TRUE(std::ranges::find(reported, 0.5) != reported.end());
    EXPECT_EQ(reported.back(), 1.0);
}

TEST(MeshCcd, SpacetimeUsesTheMeshVertexIds)
{
    const ClothScene s = crumpling_cloth(9, 3.0, 7);
    const Eigen::MatrixX2i edges = edges_from_faces(s.start.faces);
    MeshCcdOptions options;
    options.narrow.method = CcdMethod::SPACETIME;
    const MeshCcdResult r = mesh_ccd(s.start.vertices, s.end, edges, s.start.faces, options);
    const MeshCcdResult expected = all_pairs(s, edges, CcdMethod::SPACETIME);
    EXPECT_FALSE(r.vertex_face.empty());
    EXPECT_EQ(vertex_face_pairs(r), vertex_face_pairs(expected));
    EXPECT_EQ(edge_edge_pairs(r), edge_edge_pairs(expected));
}

TEST(MeshCcd, BuildTimeIsAPartOfTheBroadPhase)
{
    const ClothScene s = crumpling_cloth(40, 0.6);
    for (const BroadPhaseMethod method : { BroadPhaseMethod::BVH, BroadPhaseMethod::SWEEP_AND_PRUNE }) {
        MeshCcdOptions options;
        options.broad_phase = method;
        const MeshCcdResult r
            = mesh_ccd(s.start.vertices, s.end, edges_from_faces(s.start.faces), s.start.faces, options);
        EXPECT_GT(r.broad_phase_build_ms, 0.0);
        EXPECT_LE(r.broad_phase_build_ms, r.broad_phase_ms);
    }
}

TEST(MeshCcd, StaticMeshDoesNotCollide)
{
    const ClothScene s = crumpling_cloth(12, 0.0);
    const MeshCcdResult r
        = mesh_ccd(s.start.vertices, s.start.vertices, edges_from_faces(s.start.faces), s.start.faces);
    EXPECT_TRUE(r.vertex_face.empty());
    EXPECT_TRUE(r.edge_edge.empty());
    EXPECT_FALSE(r.earliest_toi_lower.has_value());
    EXPECT_GT(r.vertex_face_candidates, 0U);
}

TEST(MeshCcd, EmptyMeshes)
{
    const MeshCcdResult none
        = mesh_ccd(Eigen::MatrixX3d(0, 3), Eigen::MatrixX3d(0, 3), Eigen::MatrixX2i(0, 2), Eigen::MatrixX3i(0, 3));
    EXPECT_TRUE(none.vertex_face.empty() && none.edge_edge.empty());
    EXPECT_FALSE(none.earliest_toi_lower.has_value());
    // Vertices without faces or edges: nothing to collide with.
    const ClothScene s = crumpling_cloth(5, 3.0);
    const MeshCcdResult points = mesh_ccd(s.start.vertices, s.end, Eigen::MatrixX2i(0, 2), Eigen::MatrixX3i(0, 3));
    EXPECT_EQ(points.vertex_face_candidates + points.edge_edge_candidates, 0U);
}

TEST(MeshCcd, BadInput)
{
    const ClothScene s = crumpling_cloth(4);
    const Eigen::MatrixX2i edges = edges_from_faces(s.start.faces);
    Eigen::MatrixX3d fewer = s.end.topRows(s.end.rows() - 1);
    EXPECT_THROW((void)mesh_ccd(s.start.vertices, fewer, edges, s.start.faces), std::invalid_argument);
    Eigen::MatrixX3d nan = s.end;
    nan(3, 1) = std::numeric_limits<double>::quiet_NaN();
    EXPECT_THROW((void)mesh_ccd(s.start.vertices, nan, edges, s.start.faces), std::invalid_argument);
    Eigen::MatrixX3i bad = s.start.faces;
    bad(0, 2) = static_cast<int>(s.end.rows());
    EXPECT_THROW((void)mesh_ccd(s.start.vertices, s.end, edges, bad), std::invalid_argument);
}

namespace {
/// Two sheets: the crumpling cloth, and a flat copy that falls through it during the step.
std::vector<MeshMotion> falling_sheet_over_cloth()
{
    const ClothScene cloth = crumpling_cloth(8, 0.6, 3);
    MeshMotion falling { cloth.start.vertices, cloth.start.vertices, cloth.start.faces, {} };
    falling.v0.col(2).setConstant(0.3);
    falling.v1.col(2).setConstant(-0.3);
    return { MeshMotion { cloth.start.vertices, cloth.end, cloth.start.faces, {} }, falling };
}
} // namespace

TEST(MultiMeshCcd, EqualsTheJoinedMeshRenumbered)
{
    const std::vector<MeshMotion> meshes = falling_sheet_over_cloth();
    const MultiMeshCcdResult r = multi_mesh_ccd(meshes);

    const Eigen::Index nv = meshes[0].v0.rows();
    const Eigen::MatrixX2i e0 = edges_from_faces(meshes[0].faces);
    const Eigen::MatrixX3i f1 = meshes[1].faces.array() + static_cast<int>(nv);
    Eigen::MatrixX3d v0(2 * nv, 3), v1(2 * nv, 3);
    v0 << meshes[0].v0, meshes[1].v0;
    v1 << meshes[0].v1, meshes[1].v1;
    Eigen::MatrixX3i faces(2 * meshes[0].faces.rows(), 3);
    faces << meshes[0].faces, f1;
    Eigen::MatrixX2i e1 = edges_from_faces(meshes[1].faces).array() + static_cast<int>(nv);
    Eigen::MatrixX2i edges(2 * e0.rows(), 2);
    edges << e0, e1;
    const MeshCcdResult joined = mesh_ccd(v0, v1, edges, faces);

    ASSERT_EQ(r.vertex_face.size(), joined.vertex_face.size());
    ASSERT_EQ(r.edge_edge.size(), joined.edge_edge.size());
    const auto nf = static_cast<std::int32_t>(meshes[0].faces.rows());
    const auto ne = static_cast<std::int32_t>(e0.rows());
    for (std::size_t i = 0; i < r.vertex_face.size(); ++i) {
        const auto& h = r.vertex_face[i];
        EXPECT_EQ(h.vertex.mesh * nv + h.vertex.index, joined.vertex_face[i].vertex);
        EXPECT_EQ(h.face.mesh * nf + h.face.index, joined.vertex_face[i].face);
    }
    for (std::size_t i = 0; i < r.edge_edge.size(); ++i) {
        const auto& h = r.edge_edge[i];
        EXPECT_EQ(h.edge_a.mesh * ne + h.edge_a.index, joined.edge_edge[i].edge_a);
        EXPECT_EQ(h.edge_b.mesh * ne + h.edge_b.index, joined.edge_edge[i].edge_b);
    }
    EXPECT_EQ(r.earliest_toi_lower, joined.earliest_toi_lower);
}

TEST(MultiMeshCcd, WithoutSelfCollisionsOnlyPairsAcrossMeshes)
{
    const std::vector<MeshMotion> meshes = falling_sheet_over_cloth();
    const MultiMeshCcdResult all = multi_mesh_ccd(meshes, true);
    const MultiMeshCcdResult across = multi_mesh_ccd(meshes, false);
    std::size_t across_in_all = 0, self_in_all = 0;
    for (const auto& h : all.vertex_face) {
        (h.vertex.mesh != h.face.mesh ? across_in_all : self_in_all) += 1;
    }
    for (const auto& h : all.edge_edge) {
        (h.edge_a.mesh != h.edge_b.mesh ? across_in_all : self_in_all) += 1;
    }
    EXPECT_GT(self_in_all, 0U); // the shaken cloth collides with itself
    EXPECT_GT(across_in_all, 0U); // and the falling sheet passes through it
    EXPECT_EQ(across.vertex_face.size() + across.edge_edge.size(), across_in_all);
    for (const auto& h : across.vertex_face) {
        EXPECT_NE(h.vertex.mesh, h.face.mesh);
    }
    for (const auto& h : across.edge_edge) {
        EXPECT_NE(h.edge_a.mesh, h.edge_b.mesh);
        EXPECT_TRUE(std::pair(h.edge_a.mesh, h.edge_a.index) < std::pair(h.edge_b.mesh, h.edge_b.index));
    }
}

TEST(MultiMeshCcd, BadInputNamesTheMesh)
{
    std::vector<MeshMotion> meshes = falling_sheet_over_cloth();
    meshes[1].faces(2, 1) = 1000;
    try {
        (void)multi_mesh_ccd(meshes);
        FAIL() << "no error";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("mesh 1"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(multi_mesh_ccd(std::vector<MeshMotion> {}).vertex_face.empty());
}
