// SPDX-License-Identifier: MIT
#include "metrics.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <ostream>
#include <sstream>

namespace ccdkit::bench {
namespace {
    using Clock = std::chrono::steady_clock;

    double seconds_since(Clock::time_point start)
    {
        return std::chrono::duration<double>(Clock::now() - start).count();
    }

    bool selected(const std::vector<std::string>& names, const std::string& name)
    {
        return names.empty() || std::find(names.begin(), names.end(), name) != names.end();
    }

    std::string format(const char* pattern, double value)
    {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, pattern, value);
        return buffer;
    }

    /// Runs one method over a set: answers of the first repeat, and the median over repeats of the mean time.
    ResultRow run_method(
        Method& method,
        const ShapePair& pair,
        MotionKind kind,
        const ReferenceScene& scene,
        const std::vector<Query>& queries,
        const std::vector<ReferenceToc>& references,
        const BenchmarkOptions& options)
    {
        ResultRow row;
        row.pair = pair.name;
        row.motion = motion_name(kind);
        row.method = method.name();
        row.queries = static_cast<std::int32_t>(queries.size());
        for (const ReferenceToc& r : references) {
            row.reference_hits += r.hit ? 1 : 0;
        }
        if (!method.supports(pair)) {
            row.supported = false;
            return row;
        }
        row.notes = method.prepare(pair, kind);
        std::vector<MethodAnswer> answers(queries.size());
        std::vector<bool> failed(queries.size(), false);
        std::vector<double> means;
        const Clock::time_point start = Clock::now();
        for (std::int32_t repeat = 0; repeat < std::max(options.repeats, 1); ++repeat) {
            double total = 0.0;
            for (std::size_t i = 0; i < queries.size(); ++i) {
                const Clock::time_point before = Clock::now();
                MethodAnswer answer;
                try {
                    answer = method.run(queries[i]);
                } catch (const std::exception&) {
                    failed[i] = true;
                }
                total += seconds_since(before);
                if (repeat == 0) {
                    answers[i] = answer;
                }
            }
            means.push_back(1e6 * total / static_cast<double>(std::max<std::size_t>(queries.size(), 1)));
            if (seconds_since(start) > options.max_seconds_per_set) {
                break;
            }
        }
        std::sort(means.begin(), means.end());
        row.repeats = static_cast<std::int32_t>(means.size());
        row.us_per_query = means.size() % 2 == 1 ? means[means.size() / 2]
                                                 : 0.5 * (means[means.size() / 2 - 1] + means[means.size() / 2]);

        // Gap at the reported time, per method hit (in parallel: it is not timed).
        std::vector<double> gaps(queries.size(), 0.0);
        tbb::parallel_for(std::size_t { 0 }, queries.size(), [&](std::size_t i) {
            if (answers[i].hit) {
                gaps[i] = scene.at(queries[i], std::clamp(answers[i].toi, 0.0, 1.0), true).distance;
            }
        });
        double error_sum = 0.0, gap_sum = 0.0, angle_sum = 0.0;
        std::int32_t angles = 0;
        for (std::size_t i = 0; i < queries.size(); ++i) {
            const MethodAnswer& a = answers[i];
            const ReferenceToc& r = references[i];
            row.errors += failed[i] ? 1 : 0;
            row.hits += a.hit ? 1 : 0;
            if (r.hit && !a.hit) {
                ++row.misses;
            }
            if (a.hit && !r.hit) {
                ++row.reference_misses;
            }
            if (a.hit) {
                gap_sum += gaps[i];
            }
            if (a.hit && r.hit) {
                ++row.both_hit;
                const double error = a.toi - r.toi_upper;
                error_sum += std::abs(error);
                row.max_abs_error = std::max(row.max_abs_error, std::abs(error));
                if (error > options.late_tolerance) {
                    ++row.late;
                }
                if (a.has_normal && r.normal.squaredNorm() > 0.0) {
                    const double cosine = std::clamp(a.normal.normalized().dot(r.normal), -1.0, 1.0);
                    angle_sum += std::acos(cosine) * 180.0 / std::numbers::pi;
                    ++angles;
                }
            }
        }
        row.mean_abs_error = row.both_hit > 0 ? error_sum / row.both_hit : 0.0;
        row.mean_gap = row.hits > 0 ? gap_sum / row.hits : 0.0;
        if (angles > 0) {
            row.mean_normal_angle_deg = angle_sum / angles;
        }
        return row;
    }

    std::vector<std::string> cells(const ResultRow& row)
    {
        if (!row.supported) {
            return { row.pair,
                     row.motion,
                     row.method,
                     std::to_string(row.queries),
                     std::to_string(row.reference_hits),
                     "n/a",
                     "n/a",
                     "n/a",
                     "n/a",
                     "n/a",
                     "n/a",
                     "n/a",
                     "n/a",
                     "n/a" };
        }
        const bool timed = row.both_hit > 0;
        return { row.pair,
                 row.motion,
                 row.method,
                 std::to_string(row.queries),
                 std::to_string(row.reference_hits),
                 std::to_string(row.hits),
                 std::to_string(row.misses),
                 std::to_string(row.reference_misses),
                 std::to_string(row.late),
                 timed ? format("%.1e", row.mean_abs_error) : "-",
                 timed ? format("%.1e", row.max_abs_error) : "-",
                 row.hits > 0 ? format("%.1e", row.mean_gap) : "-",
                 row.mean_normal_angle_deg ? format("%.2f", *row.mean_normal_angle_deg) : "n/a",
                 format(row.us_per_query < 100.0 ? "%.1f" : "%.0f", row.us_per_query) };
    }

    const std::vector<std::string> HEADER { "pair",     "motion",   "method",           "queries", "ref hits",
                                            "hits",     "misses",   "ref miss?",        "late",    "mean |dt|",
                                            "max |dt|", "mean gap", "normal err (deg)", "us/query" };
} // namespace

BenchmarkReport
run_benchmark(const BenchmarkOptions& options, const std::vector<std::unique_ptr<Method>>& methods, std::ostream& log)
{
    BenchmarkReport report;
    report.options = options;
    for (const ShapePair& pair : make_shape_pairs()) {
        if (!selected(options.pairs, pair.name)) {
            continue;
        }
        const ReferenceScene scene(pair);
        for (const MotionKind kind : ALL_MOTIONS) {
            if (!selected(options.motions, motion_name(kind))) {
                continue;
            }
            SetSummary set;
            set.pair = pair.name;
            set.motion = motion_name(kind);
            Clock::time_point start = Clock::now();
            const std::vector<Query> queries = make_queries(scene, kind, options.generation);
            set.generation_seconds = seconds_since(start);
            start = Clock::now();
            std::vector<ReferenceToc> references(queries.size());
            tbb::parallel_for(std::size_t { 0 }, queries.size(), [&](std::size_t i) {
                references[i] = reference_time_of_contact(scene, queries[i], options.reference);
            });
            set.reference_seconds = seconds_since(start);
            set.queries = static_cast<std::int32_t>(queries.size());
            std::int64_t tests = 0;
            for (std::size_t i = 0; i < queries.size(); ++i) {
                set.reference_hits += references[i].hit ? 1 : 0;
                set.aimed_hit += queries[i].aim == Aim::HIT ? 1 : 0;
                set.aimed_graze += queries[i].aim == Aim::GRAZE ? 1 : 0;
                set.aimed_miss += queries[i].aim == Aim::MISS ? 1 : 0;
                set.reference_hits_of_grazes += queries[i].aim == Aim::GRAZE && references[i].hit ? 1 : 0;
                tests += references[i].overlap_tests;
            }
            set.mean_overlap_tests = static_cast<double>(tests) / std::max(set.queries, 1);
            log << pair.name << " / " << set.motion << ": " << set.queries << " queries (aimed " << set.aimed_hit
                << " hit, " << set.aimed_graze << " graze, " << set.aimed_miss << " miss), reference hits "
                << set.reference_hits << " (grazes " << set.reference_hits_of_grazes << "), generation "
                << format("%.1f", set.generation_seconds) << " s, reference " << format("%.1f", set.reference_seconds)
                << " s (" << format("%.0f", set.mean_overlap_tests) << " overlap tests per query)" << std::endl;
            report.sets.push_back(set);
            for (const auto& method : methods) {
                report.rows.push_back(run_method(*method, pair, kind, scene, queries, references, options));
                const ResultRow& row = report.rows.back();
                log << "  " << row.method
                    << (row.supported ? ": " + format("%.1f", row.us_per_query) + " us/query" : ": n/a") << std::endl;
            }
        }
    }
    return report;
}

void print_table(std::ostream& out, const BenchmarkReport& report)
{
    std::vector<std::vector<std::string>> table { HEADER };
    for (const ResultRow& row : report.rows) {
        table.push_back(cells(row));
    }
    std::vector<std::size_t> widths(HEADER.size(), 0);
    for (const auto& line : table) {
        for (std::size_t c = 0; c < line.size(); ++c) {
            widths[c] = std::max(widths[c], line[c].size());
        }
    }
    for (const auto& line : table) {
        for (std::size_t c = 0; c < line.size(); ++c) {
            const std::string pad(widths[c] - line[c].size(), ' ');
            out << (c < 3 ? line[c] + pad : pad + line[c]) << (c + 1 < line.size() ? "  " : "\n");
        }
    }
}

void write_markdown(std::ostream& out, const BenchmarkReport& report)
{
    out << "|";
    for (const std::string& h : HEADER) {
        out << ' ' << h << " |";
    }
    out << "\n|";
    for (std::size_t c = 0; c < HEADER.size(); ++c) {
        out << (c < 3 ? "---|" : "---:|");
    }
    out << '\n';
    for (const ResultRow& row : report.rows) {
        out << "|";
        for (const std::string& cell : cells(row)) {
            out << ' ' << cell << " |";
        }
        out << '\n';
    }
}

nlohmann::json to_json(const BenchmarkReport& report)
{
    const BenchmarkOptions& o = report.options;
    nlohmann::json settings { { "queries_per_set", o.generation.queries },
                              { "seed", o.generation.seed },
                              { "reference_samples", o.reference.samples },
                              { "reference_tolerance", o.reference.tolerance },
                              { "repeats", o.repeats },
                              { "late_tolerance", o.late_tolerance },
                              { "fcl_naive_samples", o.fcl_naive_samples } };
    nlohmann::json sets = nlohmann::json::array();
    for (const SetSummary& s : report.sets) {
        sets.push_back({ { "pair", s.pair },
                         { "motion", s.motion },
                         { "queries", s.queries },
                         { "reference_hits", s.reference_hits },
                         { "aimed_hit", s.aimed_hit },
                         { "aimed_graze", s.aimed_graze },
                         { "aimed_miss", s.aimed_miss },
                         { "reference_hits_of_grazes", s.reference_hits_of_grazes },
                         { "mean_overlap_tests", s.mean_overlap_tests },
                         { "reference_seconds", s.reference_seconds } });
    }
    nlohmann::json rows = nlohmann::json::array();
    for (const ResultRow& r : report.rows) {
        nlohmann::json row { { "pair", r.pair },       { "motion", r.motion },
                             { "method", r.method },   { "supported", r.supported },
                             { "queries", r.queries }, { "reference_hits", r.reference_hits } };
        if (r.supported) {
            row.update(
                { { "notes", r.notes },
                  { "hits", r.hits },
                  { "misses", r.misses },
                  { "reference_misses", r.reference_misses },
                  { "late", r.late },
                  { "errors", r.errors },
                  { "both_hit", r.both_hit },
                  { "mean_abs_time_error", r.mean_abs_error },
                  { "max_abs_time_error", r.max_abs_error },
                  { "mean_gap", r.mean_gap },
                  { "mean_normal_angle_deg",
                    r.mean_normal_angle_deg ? nlohmann::json(*r.mean_normal_angle_deg) : nlohmann::json(nullptr) },
                  { "us_per_query", r.us_per_query },
                  { "repeats", r.repeats } });
        }
        rows.push_back(row);
    }
    return { { "settings", settings }, { "sets", sets }, { "results", rows } };
}

} // namespace ccdkit::bench
