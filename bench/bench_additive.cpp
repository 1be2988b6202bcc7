// SPDX-License-Identifier: MIT
// Google Benchmark of additive CCD: ns per pair for each pair type (random pairs, the candidate pairs of a
// generated cloth step, the shared benchmark queries), the exact linear-model CCD on the same pairs in the
// same run as the baseline, and the whole line-search filter on cloth meshes.
#include <ccdkit/broad/aabb.hpp>
#include <ccdkit/broad/broad_phase.hpp>
#include <ccdkit/io/query_file.hpp>
#include <ccdkit/mesh/cloth_scene.hpp>
#include <ccdkit/mesh/triangle_mesh.hpp>
#include <ccdkit/narrow/additive_ccd.hpp>
#include <ccdkit/narrow/edge_edge_ccd.hpp>
#include <ccdkit/narrow/vertex_face_ccd.hpp>
#include <ccdkit/response/line_search_filter.hpp>

#include <benchmark/benchmark.h>

#include <filesystem>
#include <random>
#include <vector>

using namespace ccdkit;
using V = Eigen::Vector3d;

namespace {

/// Random pairs of `points` points, the first `first` of them one primitive: points in the unit cube, each primitive
/// displaced by a common random vector of length up to 0.5 plus a jitter of 0.1, so that about a third of them collide.
std::vector<std::array<V, 8>> random_pairs(std::size_t count, int points, int first)
{
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> u(-1, 1);
    const auto random_vector = [&] { return V(u(rng), u(rng), u(rng)); };
    std::vector<std::array<V, 8>> pairs(count);
    for (auto& x : pairs) {
        const V drift_a = 0.5 * random_vector(), drift_b = 0.5 * random_vector();
        for (int i = 0; i < points; ++i) {
            x[i] = 0.5 * random_vector();
            x[i + points] = x[i] + (i < first ? drift_a : drift_b) + 0.1 * random_vector();
        }
    }
    return pairs;
}

/// The vertex-face (or edge-edge) candidate pairs of a generated crumpling-cloth step, from a broad phase.
std::vector<std::array<V, 8>> cloth_candidates(bool vertex_face)
{
    const ClothScene scene = crumpling_cloth(64);
    const Eigen::MatrixX3d& v0 = scene.start.vertices;
    const Eigen::MatrixX3i& faces = scene.start.faces;
    const Eigen::MatrixX2i edges = edges_from_faces(faces);
    const auto broad = make_broad_phase(BroadPhaseMethod::BVH);
    std::vector<CandidatePair> pairs;
    if (vertex_face) {
        broad->build(face_boxes(v0, scene.end, faces));
        broad->query(vertex_boxes(v0, scene.end), 0, pairs, QueryScope::ALL_PAIRS);
    } else {
        const auto boxes = edge_boxes(v0, scene.end, edges);
        broad->build(boxes);
        broad->query(boxes, 0, pairs, QueryScope::SELF_PAIRS);
    }
    std::vector<std::array<V, 8>> motions;
    for (const auto& [a, b] : pairs) {
        std::array<int, 4> rows {};
        if (vertex_face) {
            rows = { a, faces(b, 0), faces(b, 1), faces(b, 2) };
            if (rows[1] == a || rows[2] == a || rows[3] == a) {
                continue;
            }
        } else {
            rows = { edges(a, 0), edges(a, 1), edges(b, 0), edges(b, 1) };
            if (rows[0] == rows[2] || rows[0] == rows[3] || rows[1] == rows[2] || rows[1] == rows[3]) {
                continue;
            }
        }
        std::array<V, 8> x;
        for (int i = 0; i < 4; ++i) {
            x[i] = v0.row(rows[i]).transpose();
            x[i + 4] = scene.end.row(rows[i]).transpose();
        }
        motions.push_back(x);
    }
    return motions;
}

std::vector<std::array<V, 8>> shared_queries(QueryKind kind)
{
    std::vector<std::array<V, 8>> motions;
    const std::filesystem::path dir(CCDKIT_QUERY_DIR);
    if (std::filesystem::exists(dir)) {
        for (const auto& file : read_query_paths({ dir })) {
            for (const auto& q : file.queries) {
                if (q.kind == kind) {
                    motions.push_back(q.points);
                }
            }
        }
    }
    return motions;
}

enum class Pairs { RANDOM, CLOTH, SHARED };

std::vector<std::array<V, 8>> pair_set(Pairs set, bool vertex_face)
{
    switch (set) {
    case Pairs::RANDOM:
        return random_pairs(4096, 4, vertex_face ? 1 : 2);
    case Pairs::CLOTH:
        return cloth_candidates(vertex_face);
    case Pairs::SHARED:
        return shared_queries(vertex_face ? QueryKind::VERTEX_FACE : QueryKind::EDGE_EDGE);
    }
    return {};
}

/// ns per pair over a set, additive (`exact` false) or exact linear-model CCD.
void bench_pairs(benchmark::State& state, Pairs set, bool vertex_face, bool exact)
{
    const auto pairs = pair_set(set, vertex_face);
    if (pairs.empty()) {
        state.SkipWithError("no pairs (shared queries not found?)");
        return;
    }
    std::size_t hits = 0;
    for (auto _ : state) {
        hits = 0;
        for (const auto& x : pairs) {
            const VertexFaceMotion vf { x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] };
            const EdgeEdgeMotion ee { x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] };
            bool hit = false;
            if (exact) {
                hit = vertex_face ? vertex_face_ccd(vf).hit : edge_edge_ccd(ee).hit;
            } else {
                hit = vertex_face ? additive_vertex_face_ccd(vf).hit : additive_edge_edge_ccd(ee).hit;
            }
            hits += hit;
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * pairs.size()));
    state.counters["ns_per_pair"] = benchmark::Counter(
        static_cast<double>(pairs.size()) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["pairs"] = static_cast<double>(pairs.size());
    state.counters["hit_fraction"] = static_cast<double>(hits) / static_cast<double>(pairs.size());
}

/// ns per pair for the point primitives (random pairs), 2D and 3D.
void bench_point_pairs(benchmark::State& state, int points, bool planar)
{
    auto pairs = random_pairs(4096, points, 1);
    if (planar) {
        for (auto& x : pairs) {
            for (auto& p : x) {
                p.z() = 0;
            }
        }
    }
    for (auto _ : state) {
        for (const auto& x : pairs) {
            if (points == 2) {
                benchmark::DoNotOptimize(
                    planar ? additive_point_point_ccd(
                        PointPointMotion<2> { x[0].head<2>(), x[1].head<2>(), x[2].head<2>(), x[3].head<2>() })
                           : additive_point_point_ccd(PointPointMotion<3> { x[0], x[1], x[2], x[3] }));
            } else {
                benchmark::DoNotOptimize(
                    planar
                        ? additive_point_edge_ccd(PointEdgeMotion2d { x[0].head<2>(), x[1].head<2>(), x[2].head<2>(),
                                                                      x[3].head<2>(), x[4].head<2>(), x[5].head<2>() })
                        : additive_point_edge_ccd(PointEdgeMotion { x[0], x[1], x[2], x[3], x[4], x[5] }));
            }
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * pairs.size()));
    state.counters["ns_per_pair"] = benchmark::Counter(
        static_cast<double>(pairs.size()) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

/// The whole filter on a cloth step (x = start, p = end - start), additive or exact narrow phase.
void bench_filter(benchmark::State& state, bool exact)
{
    const ClothScene scene = crumpling_cloth(static_cast<int>(state.range(0)));
    const Eigen::MatrixXd x = scene.start.vertices, p = scene.end - scene.start.vertices;
    const Eigen::MatrixX2i edges = edges_from_faces(scene.start.faces);
    LineSearchFilterOptions options;
    options.narrow_phase = exact ? LineSearchNarrowPhase::EXACT : LineSearchNarrowPhase::ADDITIVE;
    LineSearchFilterResult r;
    for (auto _ : state) {
        r = largest_safe_step(x, p, edges, scene.start.faces, options);
    }
    state.counters["triangles"] = static_cast<double>(scene.start.faces.rows());
    state.counters["candidates"] = static_cast<double>(r.candidates);
    state.counters["alpha"] = r.alpha;
    state.counters["narrow_ns_per_candidate"] = 1e6 * r.narrow_phase_ms / static_cast<double>(r.candidates);
}

} // namespace

BENCHMARK_CAPTURE(bench_pairs, vf_random_additive, Pairs::RANDOM, true, false);
BENCHMARK_CAPTURE(bench_pairs, vf_random_exact, Pairs::RANDOM, true, true);
BENCHMARK_CAPTURE(bench_pairs, ee_random_additive, Pairs::RANDOM, false, false);
BENCHMARK_CAPTURE(bench_pairs, ee_random_exact, Pairs::RANDOM, false, true);
BENCHMARK_CAPTURE(bench_pairs, vf_cloth_additive, Pairs::CLOTH, true, false);
BENCHMARK_CAPTURE(bench_pairs, vf_cloth_exact, Pairs::CLOTH, true, true);
BENCHMARK_CAPTURE(bench_pairs, ee_cloth_additive, Pairs::CLOTH, false, false);
BENCHMARK_CAPTURE(bench_pairs, ee_cloth_exact, Pairs::CLOTH, false, true);
BENCHMARK_CAPTURE(bench_pairs, vf_shared_additive, Pairs::SHARED, true, false);
BENCHMARK_CAPTURE(bench_pairs, vf_shared_exact, Pairs::SHARED, true, true);
BENCHMARK_CAPTURE(bench_pairs, ee_shared_additive, Pairs::SHARED, false, false);
BENCHMARK_CAPTURE(bench_pairs, ee_shared_exact, Pairs::SHARED, false, true);
BENCHMARK_CAPTURE(bench_point_pairs, point_point_3d, 2, false);
BENCHMARK_CAPTURE(bench_point_pairs, point_point_2d, 2, true);
BENCHMARK_CAPTURE(bench_point_pairs, point_edge_3d, 3, false);
BENCHMARK_CAPTURE(bench_point_pairs, point_edge_2d, 3, true);
BENCHMARK_CAPTURE(bench_filter, additive, false)->Arg(64)->Arg(224)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bench_filter, exact, true)->Arg(64)->Arg(224)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
