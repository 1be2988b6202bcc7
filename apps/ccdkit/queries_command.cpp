// SPDX-License-Identifier: MIT
#include "queries_command.hpp"

#include "method_names.hpp"
#include "number_checks.hpp"
#include "output_file.hpp"
#include "progress.hpp"
#include "query_runner.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>

namespace ccdkit::cli {

namespace {
    struct QueriesOptions {
        std::vector<std::string> methods { "exact" };
        std::vector<std::string> paths;
        std::string json_path;
        double t_max = 1.0;
        double tolerance = 1e-6;
    };

    std::string kind_name(QueryKind k)
    {
        switch (k) {
        case QueryKind::VERTEX_FACE:
            return "vf";
        case QueryKind::EDGE_EDGE:
            return "ee";
        case QueryKind::POINT_EDGE:
            return "point-edge";
        }
        throw std::invalid_argument("kind_name: invalid QueryKind");
    }

    std::string microseconds(double ns) { return fmt::format("{:.3f}", ns / 1000.0); }

    constexpr std::string_view ROW_FORMAT
        = "{:<48} {:>{}} {:>7} {:>6} {:>5} {:>5} {:>9} {:>9} {:>9} {:>10} {:>7} {:>6} {:>6}\n";

    void print_row(const QuerySetStats& s, const std::string& kind, std::size_t kind_width)
    {
        std::string path = s.path;
        if (path.size() > 48) {
            path = "…" + path.substr(path.size() - 47);
        }
        const bool truth = s.with_truth == s.queries;
        fmt::print(
            fmt::runtime(ROW_FORMAT), path, kind, kind_width, s.queries, s.positives,
            truth ? std::to_string(s.false_positives) : "-", truth ? std::to_string(s.false_negatives) : "-",
            microseconds(s.mean_ns), microseconds(s.median_ns), microseconds(s.p99_ns), microseconds(s.max_ns),
            s.decided_by_filter + s.decided_by_float, s.decided_by_double_double, s.decided_by_exact);
    }

    void print_table(const std::string& method, const std::vector<QuerySetStats>& sets, const QuerySetStats& all)
    {
        std::size_t kind_width = 3;
        for (const auto& s : sets) {
            kind_width = std::max(kind_width, kind_name(s.kind).size());
        }
        fmt::print("method {}\n", method);
        fmt::print(
            fmt::runtime(ROW_FORMAT), "set", "", kind_width, "queries", "pos", "FP", "FN", "mean µs", "median µs",
            "p99 µs", "max µs", "filter", "dd", "exact");
        for (const auto& s : sets) {
            print_row(s, kind_name(s.kind), kind_width);
            // The space-time model differs from the linear one on thousands of queries: name a few.
            constexpr std::size_t MAX_LISTED = 10;
            for (std::size_t i = 0; i < std::min(s.misses.size(), MAX_LISTED); ++i) {
                fmt::print("    false negative: {}\n", s.misses[i]);
            }
            if (s.misses.size() > MAX_LISTED) {
                fmt::print("    ... and {} more false negatives\n", s.misses.size() - MAX_LISTED);
            }
        }
        if (sets.size() > 1) {
            print_row(all, "all", kind_width);
        }
    }

    nlohmann::json stats_json(const QuerySetStats& s, const std::string& kind)
    {
        return {
            { "path", s.path },
            { "kind", kind },
            { "queries", s.queries },
            { "positives", s.positives },
            { "false_positives", s.false_positives },
            { "false_negatives", s.false_negatives },
            { "with_truth", s.with_truth },
            { "mean_ns", s.mean_ns },
            { "median_ns", s.median_ns },
            { "p99_ns", s.p99_ns },
            { "max_ns", s.max_ns },
            { "decided_by",
              { { "filter", s.decided_by_filter },
                { "double_double", s.decided_by_double_double },
                { "exact", s.decided_by_exact },
                { "float", s.decided_by_float } } },
        };
    }

    nlohmann::json to_json(const std::string& method, const std::vector<QuerySetStats>& sets, const QuerySetStats& all)
    {
        nlohmann::json j_sets = nlohmann::json::array();
        for (const auto& s : sets) {
            j_sets.push_back(stats_json(s, kind_name(s.kind)));
        }
        return { { "method", method }, { "sets", j_sets }, { "all", stats_json(all, "all") } };
    }

    void run(const QueriesOptions& opt)
    {
        std::vector<std::filesystem::path> paths(opt.paths.begin(), opt.paths.end());
        if (paths.empty()) {
            paths.emplace_back(std::filesystem::path(CCDKIT_EXAMPLE_DIR) / "queries");
            fmt::print("No PATH given: running the bundled example queries in {}\n", paths.back().string());
        }
        const std::vector<QueryFile> files = read_query_paths(paths);
        std::size_t count = 0;
        for (const auto& f : files) {
            count += f.queries.size();
        }
        if (count == 0) {
            throw std::runtime_error("no queries found under the given paths");
        }
        nlohmann::json runs = nlohmann::json::array();
        for (const auto& method : opt.methods) {
            CcdOptions options;
            options.method = *ccd_method_from_name(method);
            options.t_max = opt.t_max;
            options.tolerance = opt.tolerance;
            Progress progress("queries (" + method + ")");
            const auto sets = run_query_sets(
                files, options, [&](std::size_t done, std::size_t total) { progress.update(done, total); });
            const QuerySetStats all = pooled(sets, "all sets");
            print_table(method, sets, all);
            runs.push_back(to_json(method, sets, all));
        }
        if (!opt.json_path.empty()) {
            std::ofstream out = open_output(opt.json_path);
            write_output(out, opt.json_path, (runs.size() == 1 ? runs[0] : runs).dump(2) + '\n');
        }
    }
} // namespace

void add_queries_command(CLI::App& app)
{
    auto opt = std::make_shared<QueriesOptions>();
    CLI::App* cmd = app.add_subcommand(
        "queries",
        "Run narrow-phase CCD over benchmark query files (CSV: vertex-face and edge-edge in 3D, point-edge in 2D) "
        "and report accuracy and time per query");
    cmd->add_option("paths", opt->paths, "CSV files or folders (searched recursively); default: bundled examples")
        ->check(CLI::ExistingPath);
    cmd->add_option(
           "-m,--method", opt->methods,
           "method(s): exact (default), bsc-float, spacetime (space-time CCD, its own model: differences from the "
           "linear-model truth count as FP/FN); repeat to compare")
        ->check(CLI::IsMember(method_names()))
        // One method per -m, so that paths may follow it (`-m exact -m spacetime PATH`).
        ->allow_extra_args(false);
    cmd->add_option("--json", opt->json_path, "write the statistics as JSON (a list when several methods)");
    cmd->add_option("--t-max", opt->t_max, "end of the time interval, in (0, 1]")->check(positive_up_to(1.0));
    cmd->add_option("--tolerance", opt->tolerance, "time-of-impact interval width")->check(positive_number());
    cmd->callback([opt] { run(*opt); });
}

} // namespace ccdkit::cli
