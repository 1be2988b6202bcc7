// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/io/query_file.hpp>
#include <ccdkit/narrow/ccd_types.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace ccdkit::cli {

/// Statistics of one method over one set of queries (one folder and kind).
struct QuerySetStats {
    std::string path;
    QueryKind kind = QueryKind::VERTEX_FACE;
    std::size_t queries = 0, positives = 0, false_positives = 0, false_negatives = 0, with_truth = 0;
    double mean_ns = 0, median_ns = 0, p99_ns = 0, max_ns = 0;
    std::size_t decided_by_filter = 0, decided_by_double_double = 0, decided_by_exact = 0, decided_by_float = 0;
    std::vector<std::string> misses; ///< `file:line` of each false negative, for the report
    std::vector<double> times_ns; ///< every query's time, in increasing order
};

/// The sets taken together: counts added, times pooled (so the percentiles and the maximum are over every
/// query of every set). `path` names the whole.
[[nodiscard]] QuerySetStats pooled(const std::vector<QuerySetStats>& sets, std::string path);

/// Runs every query of the given files with one method, grouping files by (folder, kind).
/// `progress(done, total)` is called now and then.
[[nodiscard]] std::vector<QuerySetStats> run_query_sets(
    const std::vector<QueryFile>& files,
    const CcdOptions& options,
    const std::function<void(std::size_t, std::size_t)>& progress);

} // namespace ccdkit::cli
