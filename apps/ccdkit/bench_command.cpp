// SPDX-License-Identifier: MIT
#include "bench_command.hpp"

#include "number_checks.hpp"
#include "output_file.hpp"
#include "peak_memory.hpp"

#include <ccdkit/broad/mesh_ccd.hpp>
#include <ccdkit/mesh/cloth_scene.hpp>
#include <ccdkit/mesh/mesh_io.hpp>

#include <fmt/core.h>
#include <nlohmann/json.hpp>
#include <tbb/global_control.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>

namespace ccdkit::cli {

namespace {
    struct BenchOptions {
        std::vector<int> triangles { 1000, 10000, 100000, 1000000 };
        std::vector<std::string> frames;
        std::vector<int> threads { 1, 2 };
        std::vector<std::string> broad { "bvh", "sap" };
        std::string json_path;
        bool warm = false;
    };

    struct Scene {
        std::string name;
        TriangleMesh start;
        Eigen::MatrixX3d end;
    };

    void run(const BenchOptions& opt)
    {
        std::vector<Scene> scenes;
        for (const int n : opt.triangles) {
            // 2 (r - 1)^2 triangles for r x r vertices.
            const int r = std::max(2, static_cast<int>(std::lround(std::sqrt(n / 2.0))) + 1);
            ClothScene c = crumpling_cloth(r);
            scenes.push_back({ fmt::format("cloth {}", c.start.faces.rows()), std::move(c.start), std::move(c.end) });
        }
        for (std::size_t i = 0; i + 1 < opt.frames.size(); i += 2) {
            TriangleMesh a = read_mesh(opt.frames[i]);
            TriangleMesh b = read_mesh(opt.frames[i + 1]);
            scenes.push_back(
                { std::filesystem::path(opt.frames[i]).stem().string() + " ("
                      + std::filesystem::path(opt.frames[i]).parent_path().parent_path().filename().string() + ")",
                  std::move(a), std::move(b.vertices) });
        }
        fmt::print(
            "{:<24} {:>6} {:>7} {:>11} {:>11} {:>10} {:>10} {:>10} {:>10} {:>7} {:>9}\n", "scene", "broad", "threads",
            "vf cand.", "ee cand.", "build ms", "broad ms", "narrow ms", "total ms", "hits", "peak MiB");
        nlohmann::json rows = nlohmann::json::array();
        for (const Scene& s : scenes) {
            const Eigen::MatrixX2i edges = edges_from_faces(s.start.faces);
            for (const std::string& broad : opt.broad) {
                for (const int t : opt.threads) {
                    tbb::global_control limit(
                        tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(t));
                    MeshCcdOptions options;
                    options.broad_phase = *broad_phase_method_from_name(broad);
                    // Warm: the memory of an untimed call on the same scene is reused, as by a simulator that
                    // keeps its workspace between steps. Cold: every buffer is allocated afresh.
                    MeshCcdWorkspace workspace;
                    if (opt.warm) {
                        static_cast<void>(mesh_ccd(s.start.vertices, s.end, edges, s.start.faces, options, workspace));
                    }
                    const auto start = std::chrono::steady_clock::now();
                    const MeshCcdResult r = mesh_ccd(s.start.vertices, s.end, edges, s.start.faces, options, workspace);
                    const double total
                        = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
                    const std::size_t hits = r.vertex_face.size() + r.edge_edge.size();
                    const double peak = peak_memory_mib().value_or(0.0);
                    fmt::print(
                        "{:<24} {:>6} {:>7} {:>11} {:>11} {:>10.1f} {:>10.1f} {:>10.1f} {:>10.1f} {:>7} {:>9.0f}\n",
                        s.name, broad, t, r.vertex_face_candidates, r.edge_edge_candidates, r.broad_phase_build_ms,
                        r.broad_phase_ms, r.narrow_phase_ms, total, hits, peak);
                    std::fflush(stdout);
                    rows.push_back(
                        { { "scene", s.name },
                          { "broad_phase", broad },
                          { "threads", t },
                          { "workspace", opt.warm ? "warm" : "cold" },
                          { "triangles", s.start.faces.rows() },
                          { "candidates",
                            { { "vertex_face", r.vertex_face_candidates }, { "edge_edge", r.edge_edge_candidates } } },
                          { "build_ms", r.broad_phase_build_ms },
                          { "broad_ms", r.broad_phase_ms },
                          { "narrow_ms", r.narrow_phase_ms },
                          { "total_ms", total },
                          { "colliding_pairs", hits },
                          { "broad_phase_bytes", r.broad_phase_bytes },
                          { "peak_memory_mib", peak } });
                }
            }
        }
        if (!opt.json_path.empty()) {
            std::ofstream out = open_output(opt.json_path);
            write_output(out, opt.json_path, rows.dump(1) + '\n');
        }
    }
} // namespace

void add_bench_command(CLI::App& app)
{
    auto opt = std::make_shared<BenchOptions>();
    CLI::App* cmd = app.add_subcommand(
        "bench", "Time whole-mesh CCD (broad + narrow phase) on generated crumpling-cloth scenes and mesh frames");
    cmd->add_option("--triangles", opt->triangles, "sizes of the generated cloth scenes (default 1e3 1e4 1e5 1e6)");
    cmd->add_option("--frames", opt->frames, "pairs of mesh files (t0 t1 t0 t1 ...) to time as well")
        ->check(CLI::ExistingFile);
    cmd->add_option("--threads", opt->threads, "thread counts to run with (default 1 2)")->check(at_least_one());
    cmd->add_option("--broad", opt->broad, "broad phases (default bvh sap)")
        ->check(CLI::IsMember({ "bvh", "sap", "brute-force" }));
    cmd->add_option("--json", opt->json_path, "write the rows as JSON");
    cmd->add_flag(
        "--warm", opt->warm,
        "time each run after an untimed one on the same scene and workspace (memory reused, as between a "
        "simulator's steps); default: cold, all memory fresh");
    cmd->callback([opt] { run(*opt); });
}

} // namespace ccdkit::cli
