// SPDX-License-Identifier: MIT
// Google Benchmark of the broad phases on generated crumpling-cloth steps: building (and refitting) a BVH,
// and finding every overlapping pair of edge boxes (self pairs) with each method.
#include <ccdkit/broad/aabb.hpp>
#include <ccdkit/broad/broad_phase.hpp>
#include <ccdkit/broad/bvh.hpp>
#include <ccdkit/broad/spatial_order.hpp>
#include <ccdkit/mesh/cloth_scene.hpp>
#include <ccdkit/mesh/triangle_mesh.hpp>

#include <benchmark/benchmark.h>

#include <cmath>

using namespace ccdkit;

namespace {
/// Edge boxes of a cloth step with about `triangles` triangles, in spatial order (as mesh_ccd queries them).
std::vector<Aabb> cloth_edge_boxes(std::int64_t triangles)
{
    const int resolution = static_cast<int>(std::lround(std::sqrt(static_cast<double>(triangles) / 2.0))) + 1;
    const ClothScene scene = crumpling_cloth(resolution);
    const std::vector<Aabb> boxes = edge_boxes(scene.start.vertices, scene.end, edges_from_faces(scene.start.faces));
    std::vector<Aabb> sorted;
    for (const std::int32_t i : spatial_order(boxes)) {
        sorted.push_back(boxes[static_cast<std::size_t>(i)]);
    }
    return sorted;
}

void BM_BvhBuild(benchmark::State& state)
{
    const auto boxes = cloth_edge_boxes(state.range(0));
    for (auto _ : state) {
        Bvh bvh;
        bvh.build(boxes);
        benchmark::DoNotOptimize(bvh.memory_bytes());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(boxes.size()));
}

void BM_BvhRefit(benchmark::State& state)
{
    const auto boxes = cloth_edge_boxes(state.range(0));
    Bvh bvh;
    bvh.build(boxes);
    for (auto _ : state) {
        bvh.refit(boxes);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(boxes.size()));
}

void self_pairs(benchmark::State& state, BroadPhaseMethod method)
{
    const auto boxes = cloth_edge_boxes(state.range(0));
    const auto broad = make_broad_phase(method);
    broad->build(boxes);
    std::vector<CandidatePair> pairs;
    for (auto _ : state) {
        pairs.clear();
        broad->query(boxes, 0, pairs, QueryScope::SELF_PAIRS);
        benchmark::DoNotOptimize(pairs.data());
    }
    state.counters["pairs"] = static_cast<double>(pairs.size());
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(boxes.size()));
}

void BM_BvhSelfPairs(benchmark::State& state) { self_pairs(state, BroadPhaseMethod::BVH); }
void BM_SweepAndPruneSelfPairs(benchmark::State& state) { self_pairs(state, BroadPhaseMethod::SWEEP_AND_PRUNE); }
} // namespace

BENCHMARK(BM_BvhBuild)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BvhRefit)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BvhSelfPairs)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SweepAndPruneSelfPairs)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
