// SPDX-License-Identifier: MIT
#include "check_command.hpp"

#include "method_names.hpp"
#include "number_checks.hpp"
#include "output_file.hpp"
#include "peak_memory.hpp"
#include "progress.hpp"

#include <ccdkit/broad/mesh_ccd.hpp>
#include <ccdkit/mesh/cloth_scene.hpp>
#include <ccdkit/mesh/mesh_io.hpp>

#include <fmt/core.h>
#include <nlohmann/json.hpp>
#include <tbb/global_control.h>

#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>

namespace ccdkit::cli {

namespace {
    struct CheckOptions {
        std::string t0_path, t1_path, json_path;
        std::string method = "exact";
        std::string broad = "bvh";
        int threads = 0;
        double t_max = 1.0;
    };

    void run(const CheckOptions& opt)
    {
        std::ofstream json_out = open_output(opt.json_path);
        std::optional<tbb::global_control> threads;
        if (opt.threads > 0) {
            threads.emplace(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(opt.threads));
        }
        TriangleMesh start;
        Eigen::MatrixX3d end;
        if (opt.t0_path.empty()) {
            constexpr int RESOLUTION = 64;
            ClothScene scene = crumpling_cloth(RESOLUTION);
            fmt::print(
                "No meshes given: checking the built-in example, a crumpling cloth of {} triangles.\n",
                scene.start.faces.rows());
            start = std::move(scene.start);
            end = std::move(scene.end);
        } else {
            start = read_mesh(opt.t0_path);
            TriangleMesh finish = read_mesh(opt.t1_path);
            validate(start);
            if (finish.vertices.rows() != start.vertices.rows()) {
                throw std::runtime_error(fmt::format(
                    "{} has {} vertices but {} has {}", opt.t0_path, start.vertices.rows(), opt.t1_path,
                    finish.vertices.rows()));
            }
            if (finish.faces != start.faces) {
                throw std::runtime_error(fmt::format(
                    "{} and {} do not have the same faces (one topology is needed)", opt.t0_path, opt.t1_path));
            }
            end = std::move(finish.vertices);
        }
        const Eigen::MatrixX2i edges = edges_from_faces(start.faces);
        MeshCcdOptions options;
        options.narrow.method = *ccd_method_from_name(opt.method);
        options.narrow.t_max = opt.t_max;
        options.broad_phase = *broad_phase_method_from_name(opt.broad);
        Progress progress("check");
        options.progress = [&](double fraction) { progress.update(static_cast<std::size_t>(fraction * 100), 100); };
        const MeshCcdResult r = mesh_ccd(start.vertices, end, edges, start.faces, options);

        fmt::print("{} vertices, {} edges, {} faces\n", start.vertices.rows(), edges.rows(), start.faces.rows());
        fmt::print("candidates: {} vertex-face, {} edge-edge\n", r.vertex_face_candidates, r.edge_edge_candidates);
        fmt::print("colliding: {} vertex-face, {} edge-edge pairs\n", r.vertex_face.size(), r.edge_edge.size());
        if (r.earliest_toi_lower && options.narrow.method == CcdMethod::SPACETIME) {
            // Space-time contact times are computed in floating point: approximate, not a certified bound.
            fmt::print("earliest time of impact: {:.9g} (space-time model, approximate)\n", *r.earliest_toi_lower);
        } else if (r.earliest_toi_lower) {
            fmt::print(
                "earliest time of impact: in [{:.9g}, {:.9g}] (no contact before {:.9g})\n", *r.earliest_toi_lower,
                *r.earliest_toi_upper, *r.earliest_toi_lower);
        } else {
            fmt::print("no collision in [0, {}]\n", opt.t_max);
        }
        const std::optional<double> peak = peak_memory_mib();
        fmt::print(
            "time: broad phase {:.1f} ms (building {:.1f} ms), narrow phase {:.1f} ms; peak memory {}\n",
            r.broad_phase_ms, r.broad_phase_build_ms, r.narrow_phase_ms,
            peak ? fmt::format("{:.0f} MiB", *peak) : "unknown");

        if (!opt.json_path.empty()) {
            nlohmann::json vf = nlohmann::json::array(), ee = nlohmann::json::array();
            for (const auto& h : r.vertex_face) {
                vf.push_back({ h.vertex, h.face, h.toi_lower, h.toi_upper });
            }
            for (const auto& h : r.edge_edge) {
                ee.push_back({ h.edge_a, h.edge_b, h.toi_lower, h.toi_upper });
            }
            nlohmann::json j {
                { "vertex_face", vf },
                { "edge_edge", ee },
                { "earliest_toi", r.earliest_toi_lower ? nlohmann::json(*r.earliest_toi_lower) : nlohmann::json() },
                { "earliest_toi_upper",
                  r.earliest_toi_upper ? nlohmann::json(*r.earliest_toi_upper) : nlohmann::json() },
                { "candidates",
                  { { "vertex_face", r.vertex_face_candidates }, { "edge_edge", r.edge_edge_candidates } } },
                { "timings_ms",
                  { { "broad_phase", r.broad_phase_ms },
                    { "broad_phase_build", r.broad_phase_build_ms },
                    { "narrow_phase", r.narrow_phase_ms },
                    { "total", r.broad_phase_ms + r.narrow_phase_ms } } },
                { "peak_memory_mib", peak ? nlohmann::json(*peak) : nlohmann::json() },
            };
            write_output(json_out, opt.json_path, j.dump(1) + '\n');
        }
    }
} // namespace

void add_check_command(CLI::App& app)
{
    auto opt = std::make_shared<CheckOptions>();
    CLI::App* cmd = app.add_subcommand(
        "check",
        "Whole-mesh CCD between two frames of a mesh (OBJ or PLY): every colliding vertex-face and "
        "edge-edge pair and the earliest time of impact; no meshes: a built-in example");
    cmd->add_option("t0", opt->t0_path, "mesh at the start of the step")->check(CLI::ExistingFile);
    cmd->add_option("t1", opt->t1_path, "mesh at the end of the step (same faces)")->check(CLI::ExistingFile);
    cmd->add_option(
           "-m,--method", opt->method,
           "narrow phase: exact (default), bsc-float, or spacetime (space-time CCD with the mesh's vertex ids)")
        ->check(CLI::IsMember(method_names()));
    cmd->add_option("--broad", opt->broad, "broad phase: bvh (default), sap or brute-force")
        ->check(CLI::IsMember({ "bvh", "sap", "brute-force" }));
    cmd->add_option("--json", opt->json_path, "write the colliding pairs, times and counts as JSON");
    cmd->add_option("--threads", opt->threads, "worker threads (default: all cores)")->check(at_least_one());
    cmd->add_option("--t-max", opt->t_max, "end of the time interval, in (0, 1]")->check(positive_up_to(1.0));
    cmd->callback([opt] {
        if (opt->t0_path.empty() != opt->t1_path.empty()) {
            throw std::runtime_error("check needs both meshes (t0 and t1), or none for the built-in example");
        }
        run(*opt);
    });
}

} // namespace ccdkit::cli
