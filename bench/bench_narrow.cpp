// SPDX-License-Identifier: MIT
// Google Benchmark of the primitive narrow-phase queries: typical hits and misses (decided by the filter),
// exactly degenerate ones (decided by exact arithmetic), and the bundled example query files; the exact
// linear-model method, BSC-float and space-time CCD side by side in one run.
#include <ccdkit/io/query_file.hpp>
#include <ccdkit/io/run_query.hpp>
#include <ccdkit/narrow/edge_edge_ccd.hpp>
#include <ccdkit/narrow/vertex_face_ccd.hpp>

#include <benchmark/benchmark.h>

#include <filesystem>

using namespace ccdkit;
using V = Eigen::Vector3d;

namespace {
const VertexFaceMotion VF_HIT { V(0.25, 0.25, 1), V(0, 0, 0), V(1, 0, 0), V(0, 1, 0),
                                V(0.3, 0.2, -1),  V(0, 0, 0), V(1, 0, 0), V(0, 1, 0) };
const VertexFaceMotion VF_MISS { V(0.75, 0.75, 1),  V(0, 0, 0), V(1, 0, 0), V(0, 1, 0),
                                 V(0.75, 0.75, -1), V(0, 0, 0), V(1, 0, 0), V(0, 1, 0) };
const VertexFaceMotion VF_ON_EDGE { V(0.5, 0.5, 1),  V(0, 0, 0), V(1, 0, 0), V(0, 1, 0),
                                    V(0.5, 0.5, -1), V(0, 0, 0), V(1, 0, 0), V(0, 1, 0) };
const VertexFaceMotion VF_COPLANAR { V(1, 1, 0), V(0, 0, 0), V(1, 0, 0), V(0, 1, 0),
                                     V(0, 0, 0), V(0, 0, 0), V(1, 0, 0), V(0, 1, 0) };
const EdgeEdgeMotion EE_HIT { V(0, 0, 0), V(1, 0, 0), V(0.5, -1, 1),  V(0.5, 1, 1),
                              V(0, 0, 0), V(1, 0, 0), V(0.4, -1, -3), V(0.6, 1, -3) };
const EdgeEdgeMotion EE_MISS { V(0, 0, 0), V(1, 0, 0), V(1.5, -1, 1),  V(1.5, 1, 1),
                               V(0, 0, 0), V(1, 0, 0), V(1.5, -1, -3), V(1.5, 1, -3) };
const EdgeEdgeMotion EE_ENDPOINT { V(0, 0, 0), V(1, 0, 0), V(1, 1, 1), V(2, 2, 1),
                                   V(0, 0, 0), V(1, 0, 0), V(1, 0, 0), V(2, 1, 0) };

template <class Motion> void bench_query(benchmark::State& state, const Motion& motion, CcdMethod method)
{
    CcdOptions options;
    options.method = method;
    for (auto _ : state) {
        if constexpr (std::is_same_v<Motion, VertexFaceMotion>) {
            benchmark::DoNotOptimize(vertex_face_ccd(motion, options));
        } else {
            benchmark::DoNotOptimize(edge_edge_ccd(motion, options));
        }
    }
}

void bench_example_files(benchmark::State& state, CcdMethod method)
{
    const auto files = read_query_paths({ std::filesystem::path(CCDKIT_EXAMPLE_DIR) / "queries" });
    CcdOptions options;
    options.method = method;
    std::size_t count = 0;
    for (auto _ : state) {
        for (const auto& f : files) {
            for (const auto& q : f.queries) {
                benchmark::DoNotOptimize(run_query(q, options));
                ++count;
            }
        }
    }
    state.SetItemsProcessed(static_cast<int64_t>(count));
}
} // namespace

BENCHMARK_CAPTURE(bench_query, vf_hit_exact, VF_HIT, CcdMethod::EXACT);
BENCHMARK_CAPTURE(bench_query, vf_hit_float, VF_HIT, CcdMethod::BSC_FLOAT);
BENCHMARK_CAPTURE(bench_query, vf_miss_exact, VF_MISS, CcdMethod::EXACT);
BENCHMARK_CAPTURE(bench_query, vf_miss_float, VF_MISS, CcdMethod::BSC_FLOAT);
BENCHMARK_CAPTURE(bench_query, vf_on_edge_exact, VF_ON_EDGE, CcdMethod::EXACT);
BENCHMARK_CAPTURE(bench_query, vf_coplanar_exact, VF_COPLANAR, CcdMethod::EXACT);
BENCHMARK_CAPTURE(bench_query, ee_hit_exact, EE_HIT, CcdMethod::EXACT);
BENCHMARK_CAPTURE(bench_query, ee_hit_float, EE_HIT, CcdMethod::BSC_FLOAT);
BENCHMARK_CAPTURE(bench_query, ee_miss_exact, EE_MISS, CcdMethod::EXACT);
BENCHMARK_CAPTURE(bench_query, ee_miss_float, EE_MISS, CcdMethod::BSC_FLOAT);
BENCHMARK_CAPTURE(bench_query, ee_endpoint_exact, EE_ENDPOINT, CcdMethod::EXACT);
BENCHMARK_CAPTURE(bench_query, vf_hit_spacetime, VF_HIT, CcdMethod::SPACETIME);
BENCHMARK_CAPTURE(bench_query, vf_miss_spacetime, VF_MISS, CcdMethod::SPACETIME);
BENCHMARK_CAPTURE(bench_query, vf_on_edge_spacetime, VF_ON_EDGE, CcdMethod::SPACETIME);
BENCHMARK_CAPTURE(bench_query, vf_coplanar_spacetime, VF_COPLANAR, CcdMethod::SPACETIME);
BENCHMARK_CAPTURE(bench_query, ee_hit_spacetime, EE_HIT, CcdMethod::SPACETIME);
BENCHMARK_CAPTURE(bench_query, ee_miss_spacetime, EE_MISS, CcdMethod::SPACETIME);
BENCHMARK_CAPTURE(bench_query, ee_endpoint_spacetime, EE_ENDPOINT, CcdMethod::SPACETIME);
BENCHMARK_CAPTURE(bench_example_files, exact, CcdMethod::EXACT);
BENCHMARK_CAPTURE(bench_example_files, float, CcdMethod::BSC_FLOAT);
BENCHMARK_CAPTURE(bench_example_files, spacetime, CcdMethod::SPACETIME);

BENCHMARK_MAIN();
