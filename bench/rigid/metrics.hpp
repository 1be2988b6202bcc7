// SPDX-License-Identifier: MIT
#pragma once
// Runs every method on every query set and measures it against the reference (reference_toc.hpp).
//
// Per (shape pair, motion set, method): queries; reference hits; method hits; misses (the reference finds a contact,
// the method none); "ref miss?" (the method finds one, the reference none: a false positive, or a contact shorter
// than the reference's sampling step); late answers (both hit and the method's time > reference time + 1e-6); mean
// and max |method time - reference time| over queries where both hit; mean gap at the method's time (distance
// between the bodies posed at the reported time, 0 if they overlap there) over method hits; mean angle between the
// method's contact normal (from b towards a) and the reference normal (direction between the closest points just
// before the reference contact), "n/a" when the method gives none; and µs per query: mean over the set, median
// over repeats, timing only the method's call.

#include "methods.hpp"
#include "motion_sets.hpp"
#include "reference_toc.hpp"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ccdkit::bench {

struct BenchmarkOptions {
    GenerationOptions generation;
    ReferenceOptions reference;
    std::int32_t repeats = 3;
    /// A method stops repeating a set once its repeats so far took longer than this (seconds).
    double max_seconds_per_set = 20.0;
    double late_tolerance = 1e-6;
    std::int32_t fcl_naive_samples = 1000;
    std::vector<std::string> pairs; ///< names to run (all when empty)
    std::vector<std::string> motions; ///< names to run (all when empty)
};

struct ResultRow {
    std::string pair, motion, method, notes;
    bool supported = true;
    std::int32_t queries = 0, reference_hits = 0, hits = 0, misses = 0, reference_misses = 0, late = 0, errors = 0;
    std::int32_t both_hit = 0;
    double mean_abs_error = 0.0, max_abs_error = 0.0, mean_gap = 0.0;
    std::optional<double> mean_normal_angle_deg;
    double us_per_query = 0.0;
    std::int32_t repeats = 0;
};

struct SetSummary {
    std::string pair, motion;
    std::int32_t queries = 0, reference_hits = 0, aimed_hit = 0, aimed_graze = 0, aimed_miss = 0;
    std::int32_t reference_hits_of_grazes = 0;
    double mean_overlap_tests = 0.0;
    double generation_seconds = 0.0, reference_seconds = 0.0;
};

struct BenchmarkReport {
    BenchmarkOptions options;
    std::vector<SetSummary> sets;
    std::vector<ResultRow> rows;
};

[[nodiscard]] BenchmarkReport
run_benchmark(const BenchmarkOptions& options, const std::vector<std::unique_ptr<Method>>& methods, std::ostream& log);

void print_table(std::ostream& out, const BenchmarkReport& report);
void write_markdown(std::ostream& out, const BenchmarkReport& report);
[[nodiscard]] nlohmann::json to_json(const BenchmarkReport& report);

} // namespace ccdkit::bench
