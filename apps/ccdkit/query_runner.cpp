// SPDX-License-Identifier: MIT
#include "query_runner.hpp"

#include <ccdkit/io/run_query.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <numeric>
#include <stdexcept>

namespace ccdkit::cli {

namespace {
    double time_once_ns(const Query& query, const CcdOptions& options, CcdResult& result)
    {
        const auto start = std::chrono::steady_clock::now();
        result = run_query(query, options);
        const auto stop = std::chrono::steady_clock::now();
        return std::chrono::duration<double, std::nano>(stop - start).count();
    }

    double percentile(const std::vector<double>& sorted, double q)
    {
        if (sorted.empty()) {
            return 0.0;
        }
        const auto i = static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5);
        return sorted[std::min(i, sorted.size() - 1)];
    }

    /// Stores the times (sorted) and their statistics.
    void set_times(QuerySetStats& stats, std::vector<double> times)
    {
        std::sort(times.begin(), times.end());
        if (!times.empty()) {
            stats.mean_ns = std::accumulate(times.begin(), times.end(), 0.0) / static_cast<double>(times.size());
            stats.median_ns = percentile(times, 0.5);
            stats.p99_ns = percentile(times, 0.99);
            stats.max_ns = times.back();
        }
        stats.times_ns = std::move(times);
    }
} // namespace

/// A query slower than this is timed again (the machines are shared: a single timing can include a
/// preemption); its time is the fastest of the repeats.
constexpr double RETIME_ABOVE_NS = 10'000.0;
constexpr int RETIMES = 3;

std::vector<QuerySetStats> run_query_sets(
    const std::vector<QueryFile>& files,
    const CcdOptions& options,
    const std::function<void(std::size_t, std::size_t)>& progress)
{
    std::map<std::pair<std::string, QueryKind>, std::vector<const QueryFile*>> sets;
    std::size_t total = 0;
    for (const auto& f : files) {
        sets[{ f.path.parent_path().string(), f.kind }].push_back(&f);
        total += f.queries.size();
    }
    std::vector<QuerySetStats> all;
    std::size_t done = 0;
    for (const auto& [key, members] : sets) {
        QuerySetStats stats;
        stats.path = key.first;
        stats.kind = key.second;
        std::vector<double> times;
        for (const QueryFile* file : members) {
            for (const Query& q : file->queries) {
                CcdResult r;
                double ns = time_once_ns(q, options, r);
                for (int k = 0; k < RETIMES && ns > RETIME_ABOVE_NS; ++k) {
                    CcdResult again;
                    ns = std::min(ns, time_once_ns(q, options, again));
                }
                times.push_back(ns);
                ++stats.queries;
                stats.positives += r.hit;
                switch (r.decided_by) {
                case DecidedBy::FILTER:
                    ++stats.decided_by_filter;
                    break;
                case DecidedBy::DOUBLE_DOUBLE:
                    ++stats.decided_by_double_double;
                    break;
                case DecidedBy::EXACT:
                    ++stats.decided_by_exact;
                    break;
                case DecidedBy::FLOAT:
                    ++stats.decided_by_float;
                    break;
                }
                if (q.truth) {
                    ++stats.with_truth;
                    stats.false_positives += r.hit && !*q.truth;
                    if (!r.hit && *q.truth) {
                        ++stats.false_negatives;
                        stats.misses.push_back(file->path.string() + ":" + std::to_string(q.line));
                    }
                }
                if (++done % 4096 == 0) {
                    progress(done, total);
                }
            }
        }
        set_times(stats, std::move(times));
        all.push_back(std::move(stats));
    }
    progress(done, total);
    return all;
}

QuerySetStats pooled(const std::vector<QuerySetStats>& sets, std::string path)
{
    QuerySetStats all;
    all.path = std::move(path);
    std::vector<double> times;
    for (const auto& s : sets) {
        all.queries += s.queries;
        all.positives += s.positives;
        all.false_positives += s.false_positives;
        all.false_negatives += s.false_negatives;
        all.with_truth += s.with_truth;
        all.decided_by_filter += s.decided_by_filter;
        all.decided_by_double_double += s.decided_by_double_double;
        all.decided_by_exact += s.decided_by_exact;
        all.decided_by_float += s.decided_by_float;
        times.insert(times.end(), s.times_ns.begin(), s.times_ns.end());
    }
    set_times(all, std::move(times));
    return all;
}

} // namespace ccdkit::cli
