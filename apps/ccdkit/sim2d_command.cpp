// SPDX-License-Identifier: MIT
#include "sim2d_command.hpp"

#include "number_checks.hpp"
#include "output_file.hpp"

#include <ccdkit/sim/elastic_contact_2d.hpp>

#include <fmt/core.h>
#include <fmt/os.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

namespace ccdkit::cli {

namespace {
    struct Sim2dOptions {
        int steps = 100;
        int grid = 5;
        double time_step = 0.01;
        std::string out_dir, json_path;
    };

    /// One frame as SVG: the squares as filled polygons, the container (ground and walls) and the
    /// ceiling as lines. The scene's y
    /// axis points up, SVG's down: the group flips it.
    void write_svg(const ElasticContact2d& sim, const std::filesystem::path& path)
    {
        const double size = sim.settings().square_size;
        const double left = -0.4 * size, bottom = -0.2 * size;
        const double width = 2.2 * size, height = sim.settings().ceiling_start_height + 0.4 * size;
        const double stroke = 0.01 * size;
        auto file = fmt::output_file(path.string());
        file.print(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{} {} {} {}\" width=\"540\" height=\"{:.0f}\">\n",
            left, -(bottom + height), width, height, 540.0 * height / width);
        file.print(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"white\"/>\n", left, -(bottom + height), width,
            height);
        file.print("<g transform=\"scale(1,-1)\" stroke-width=\"{}\">\n", stroke);
        const Eigen::MatrixXd& x = sim.positions();
        const char* colors[] = { "#4a90d9", "#e07b39" };
        for (int s = 0; s < 2; ++s) {
            std::string points;
            for (const int v : sim.outline(s)) {
                points += fmt::format("{:.6f},{:.6f} ", x(v, 0), x(v, 1));
            }
            file.print("<polygon points=\"{}\" fill=\"{}\" stroke=\"black\"/>\n", points, colors[s]);
        }
        std::string container;
        for (const int v : sim.container_vertices()) {
            container += fmt::format("{:.6f},{:.6f} ", x(v, 0), x(v, 1));
        }
        file.print("<polyline points=\"{}\" fill=\"none\" stroke=\"black\"/>\n", container);
        const auto ceiling = sim.ceiling_vertices();
        file.print(
            "<line x1=\"{:.6f}\" y1=\"{:.6f}\" x2=\"{:.6f}\" y2=\"{:.6f}\" stroke=\"black\"/>\n", x(ceiling[0], 0),
            x(ceiling[0], 1), x(ceiling[1], 0), x(ceiling[1], 1));
        file.print("</g>\n</svg>\n");
    }

    void run(const Sim2dOptions& opt)
    {
        std::ofstream json_out = open_output(opt.json_path);
        if (!opt.out_dir.empty()) {
            std::filesystem::create_directories(opt.out_dir);
        }
        ElasticContact2dSettings settings;
        settings.grid_resolution = opt.grid;
        settings.time_step = opt.time_step;
        ElasticContact2d sim(settings);
        const auto frame_path
            = [&](int frame) { return std::filesystem::path(opt.out_dir) / fmt::format("frame_{:04d}.svg", frame); };
        if (!opt.out_dir.empty()) {
            write_svg(sim, frame_path(0));
        }

        const auto start = std::chrono::steady_clock::now();
        const auto elapsed
            = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
        std::vector<ElasticContact2dStepStats> stats;
        for (int s = 0; s < opt.steps; ++s) {
            stats.push_back(sim.step());
            const auto& last = stats.back();
            if (elapsed() > 1.0) {
                fmt::print(
                    stderr, "sim2d: step {} / {}: {} Newton iterations, min distance {:.6g}, ceiling {:.4f}\n", s + 1,
                    opt.steps, last.newton_iterations, last.min_distance, last.ceiling_height);
            }
            if (!opt.out_dir.empty()) {
                write_svg(sim, frame_path(s + 1));
            }
        }
        const double seconds = elapsed();

        int total_iterations = 0, max_iterations = 0;
        double min_distance = std::numeric_limits<double>::infinity();
        for (const auto& st : stats) {
            total_iterations += st.newton_iterations;
            max_iterations = std::max(max_iterations, st.newton_iterations);
            min_distance = std::min(min_distance, st.min_distance);
        }
        const double xi = settings.separation;
        fmt::print(
            "scene: {} vertices ({}x{} grid per square), time step {} s, ceiling {} -> {:.4f}\n",
            sim.positions().rows(), opt.grid, opt.grid, settings.time_step, settings.ceiling_start_height,
            sim.ceiling_height());
        fmt::print(
            "sim2d: {} steps, {} Newton iterations (max {} per step), min distance {:.6g} > separation {:.6g}, "
            "{:.2f} s\n",
            stats.size(), total_iterations, max_iterations, min_distance, xi, seconds);

        if (!opt.json_path.empty()) {
            nlohmann::json j;
            j["steps"] = stats.size();
            j["time_step"] = settings.time_step;
            j["separation"] = xi;
            j["dhat"] = settings.dhat;
            j["grid_resolution"] = opt.grid;
            j["total_newton_iterations"] = total_iterations;
            j["min_distance"] = min_distance;
            j["wall_seconds"] = seconds;
            nlohmann::json per_step = nlohmann::json::array();
            for (const auto& st : stats) {
                per_step.push_back({ { "newton_iterations", st.newton_iterations },
                                     { "min_distance", st.min_distance },
                                     { "ceiling_height", st.ceiling_height },
                                     { "energy", st.energy },
                                     { "active_pairs", st.active_pairs },
                                     { "smallest_filter_step", st.smallest_filter_step } });
            }
            j["per_step"] = per_step;
            write_output(json_out, opt.json_path, j.dump(1) + '\n');
        }
    }
} // namespace

void add_sim2d_command(CLI::App& app)
{
    auto opt = std::make_shared<Sim2dOptions>();
    CLI::App* cmd = app.add_subcommand(
        "sim2d",
        "2D elastic contact simulation: two elastic squares dropped on the ground and squeezed by a descending "
        "ceiling (IPC barrier, projected Newton, line-search filter); checks the separation every step");
    cmd->add_option("--steps", opt->steps, "time steps (default 100)")->check(at_least_one());
    cmd->add_option("--grid", opt->grid, "vertices along each side of a square (default 5)")->check(CLI::Range(2, 64));
    cmd->add_option("--dt", opt->time_step, "time step in seconds (default 0.01)");
    cmd->add_option("--out", opt->out_dir, "write frame_0000.svg, frame_0001.svg, ... to this folder");
    cmd->add_option("--json", opt->json_path, "write a summary (per-step Newton iterations, distances) as JSON");
    cmd->callback([opt] { run(*opt); });
}

} // namespace ccdkit::cli
