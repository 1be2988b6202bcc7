// SPDX-License-Identifier: MIT
#pragma once

// Candidate pairs for mesh-level drivers (whole-mesh CCD, the line-search filter): primitives in spatial
// order, a broad phase queried block by block (for_each_candidate_block) or streamed a few queries at a time
// into the caller's filters on each thread (stream_candidates), so that the pairs in memory stay bounded, and
// the adjacency rules (a vertex is never paired with an element that contains it, nor an edge with one it
// shares a vertex with).

#include "broad/details/spatial_order_buffers.hpp"

#include <ccdkit/broad/broad_phase.hpp>
#include <ccdkit/broad/huge_page_allocator.hpp>

#include <Eigen/Core>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace ccdkit::details {

using Pair = std::pair<std::int32_t, std::int32_t>;
using Clock = std::chrono::steady_clock;

inline double elapsed_ms(Clock::time_point since)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

/// Boxes in spatial_order(), with the way back to the input numbering. Sorting again reuses the memory.
class SortedBoxes {
public:
    SortedBoxes() = default;
    explicit SortedBoxes(const std::vector<Aabb>& input)
        : boxes(input.begin(), input.end())
    {
        sort();
    }

    /// Reorders `boxes` (the caller's, in input order) and sets `order`. The sorted boxes are gathered in
    /// parallel into a second buffer that then trades places with `boxes`: following the permutation's cycles
    /// in place saves that buffer, but is one serial chain of dependent cache misses (about 150 ms for the 1.5
    /// million edges of a 10^6-triangle cloth, against about 25 ms for the gather on 2 threads).
    void sort()
    {
        order.resize(boxes.size());
        spatial_order(boxes, keys_, order);
        gathered_.resize(boxes.size());
        tbb::parallel_for(
            tbb::blocked_range<std::size_t>(0, boxes.size(), 4096), [&](const tbb::blocked_range<std::size_t>& r) {
                for (std::size_t k = r.begin(); k != r.end(); ++k) {
                    gathered_[k] = boxes[static_cast<std::size_t>(order[k])];
                }
            });
        boxes.swap(gathered_);
    }

    [[nodiscard]] std::int32_t original(std::int32_t sorted) const { return order[static_cast<std::size_t>(sorted)]; }

    HugePageVector<std::int32_t> order; ///< order[k]: input index of boxes[k]
    HugePageVector<Aabb> boxes;

private:
    SpatialKeys keys_;
    HugePageVector<Aabb> gathered_; ///< sort() scratch: the boxes before the last sort
};

/// Time and memory spent in the broad and narrow phases.
struct PhaseCosts {
    double broad_phase_ms = 0.0, narrow_phase_ms = 0.0;
    /// The part of broad_phase_ms spent before any query: swept boxes, spatial orders, building the structure.
    double broad_phase_build_ms = 0.0;
    std::size_t broad_phase_bytes = 0; ///< largest built structure
};

struct CandidateBlockSettings {
    BroadPhaseMethod method = BroadPhaseMethod::BVH;
    std::size_t block_size = 1 << 15;
    /// The most boxes the broad phase is built on in this step (BroadPhase::reserve()), 0 if unknown: a first
    /// build on fewer then leaves room for the larger one.
    std::size_t largest_build = 0;
    /// Called with the fraction of the queries done after each block; may be empty.
    std::function<void(double)> progress;
};

/// A broad phase kept between calls and rebuilt in place (its memory reused) while the method stays the same.
struct BroadPhaseSlot {
    std::optional<BroadPhaseMethod> method;
    std::unique_ptr<BroadPhase> broad;
};

/// The broad phase of `settings` built on `built` in `slot`, its time and memory added to `costs`.
inline const BroadPhase& build_broad_phase(
    BroadPhaseSlot& slot, std::span<const Aabb> built, const CandidateBlockSettings& settings, PhaseCosts& costs)
{
    const auto start = Clock::now();
    if (slot.method != settings.method) {
        slot.broad = make_broad_phase(settings.method);
        slot.method = settings.method;
    }
    slot.broad->reserve(std::max(settings.largest_build, built.size()));
    slot.broad->build(built);
    costs.broad_phase_bytes = std::max(costs.broad_phase_bytes, slot.broad->memory_bytes());
    const double built_in = elapsed_ms(start);
    costs.broad_phase_ms += built_in;
    costs.broad_phase_build_ms += built_in;
    return *slot.broad;
}

/// Calls `step(first, count)` for consecutive blocks of `settings.block_size` of `total` queries, reporting the
/// progress after each block.
template <class Step> void for_each_query_block(std::size_t total, const CandidateBlockSettings& settings, Step step)
{
    const std::size_t block = std::max<std::size_t>(settings.block_size, 1);
    for (std::size_t first = 0; first < total; first += block) {
        const std::size_t count = std::min(block, total - first);
        step(first, count);
        if (settings.progress) {
            settings.progress(static_cast<double>(first + count) / static_cast<double>(total));
        }
    }
}

/// Builds the broad phase on `built`, queries `queries` block by block, and hands each block's candidate
/// pairs (query index, built index; sorted numbering) to `narrow` before the next block.
template <class Narrow>
void for_each_candidate_block(
    std::span<const Aabb> built,
    std::span<const Aabb> queries,
    QueryScope scope,
    const CandidateBlockSettings& settings,
    PhaseCosts& costs,
    Narrow narrow)
{
    BroadPhaseSlot slot;
    const BroadPhase& broad = build_broad_phase(slot, built, settings, costs);
    for_each_query_block(queries.size(), settings, [&](std::size_t first, std::size_t count) {
        auto start = Clock::now();
        // Query sub-blocks in parallel; each thread collects into its own vector.
        tbb::enumerable_thread_specific<std::vector<Pair>> local;
        tbb::parallel_for(
            tbb::blocked_range<std::size_t>(first, first + count, 1024), [&](const tbb::blocked_range<std::size_t>& r) {
                broad.query(queries.subspan(r.begin(), r.size()), r.begin(), local.local(), scope);
            });
        std::vector<Pair> candidates;
        for (auto& v : local) {
            candidates.insert(candidates.end(), v.begin(), v.end());
        }
        costs.broad_phase_ms += elapsed_ms(start);
        start = Clock::now();
        narrow(candidates);
        costs.narrow_phase_ms += elapsed_ms(start);
    });
}

/// Queries handed to the broad phase at once by stream_candidates(): their pairs fit in a buffer that stays
/// in cache and is reused, so no memory grows with the number of candidates.
inline constexpr std::size_t STREAM_QUERIES = 64;

/// What stream_candidates() keeps between calls: the broad phase and each thread's pair buffer.
struct CandidateStream {
    struct Local {
        std::vector<Pair> pairs;
        Clock::duration querying {}, visiting {};
    };
    BroadPhaseSlot broad;
    tbb::enumerable_thread_specific<Local> locals;
};

/// Builds the broad phase on `built` and queries `queries` in parallel, a few at a time; each few's candidate
/// pairs (query index, built index; the given numbering) go to `visit(std::span<const Pair>)` on the thread
/// that found them, before it queries more. Nothing is gathered, sorted or copied between the phases, and
/// no thread waits for another except at the end of each block of `settings.block_size` queries (progress
/// is reported there, from the calling thread). `visit` runs concurrently: it must be thread-safe.
/// The phases interleave, so the block's time is split between them in proportion to their time per thread.
template <class Visit>
void stream_candidates(
    CandidateStream& stream,
    std::span<const Aabb> built,
    std::span<const Aabb> queries,
    QueryScope scope,
    const CandidateBlockSettings& settings,
    PhaseCosts& costs,
    Visit visit)
{
    const BroadPhase& broad = build_broad_phase(stream.broad, built, settings, costs);
    auto& locals = stream.locals;
    for_each_query_block(queries.size(), settings, [&](std::size_t first, std::size_t count) {
        const auto start = Clock::now();
        tbb::parallel_for(
            tbb::blocked_range<std::size_t>(first, first + count, STREAM_QUERIES),
            [&](const tbb::blocked_range<std::size_t>& r) {
                CandidateStream::Local& local = locals.local();
                for (std::size_t q = r.begin(); q < r.end(); q += STREAM_QUERIES) {
                    const std::size_t n = std::min(STREAM_QUERIES, r.end() - q);
                    const auto t0 = Clock::now();
                    local.pairs.clear();
                    broad.query(queries.subspan(q, n), q, local.pairs, scope);
                    const auto t1 = Clock::now();
                    visit(std::span<const Pair>(local.pairs));
                    local.querying += t1 - t0;
                    local.visiting += Clock::now() - t1;
                }
            });
        const double wall = elapsed_ms(start);
        Clock::duration querying {}, visiting {};
        for (CandidateStream::Local& local : locals) {
            querying += local.querying;
            visiting += local.visiting;
            local.querying = local.visiting = {};
        }
        const double total = std::chrono::duration<double>(querying + visiting).count();
        const double broad_share = total > 0.0 ? std::chrono::duration<double>(querying).count() / total : 0.5;
        costs.broad_phase_ms += broad_share * wall;
        costs.narrow_phase_ms += (1.0 - broad_share) * wall;
    });
}

/// True if `vertex` is a corner of `element` (a row of edges or faces): the pair is adjacent, never tested.
template <class Row> [[nodiscard]] bool has_corner(const Row& element, std::int32_t vertex)
{
    return (element.array() == vertex).any();
}

/// True if edges (rows) `a` and `b` share a vertex: the pair is adjacent, never tested.
[[nodiscard]] inline bool share_vertex(const Eigen::MatrixX2i& edges, std::int32_t a, std::int32_t b)
{
    const auto ea = edges.row(a), eb = edges.row(b);
    return ea[0] == eb[0] || ea[0] == eb[1] || ea[1] == eb[0] || ea[1] == eb[1];
}

/// Maps (sorted vertex, sorted element) pairs to input rows and drops those whose vertex belongs to the
/// element (a row of `elements`: a face or an edge).
template <class Elements>
void keep_vertex_element_pairs(
    std::vector<Pair>& pairs, const SortedBoxes& vertices, const SortedBoxes& element_boxes, const Elements& elements)
{
    for (Pair& p : pairs) {
        p = { vertices.original(p.first), element_boxes.original(p.second) };
    }
    std::erase_if(pairs, [&](const Pair& p) { return has_corner(elements.row(p.second), p.first); });
}

/// Maps self pairs of sorted edges to input rows (first < second) and drops edges that share a vertex.
inline void keep_edge_edge_pairs(std::vector<Pair>& pairs, const SortedBoxes& edge_boxes, const Eigen::MatrixX2i& edges)
{
    for (Pair& p : pairs) {
        p = std::minmax(edge_boxes.original(p.first), edge_boxes.original(p.second));
    }
    std::erase_if(pairs, [&](const Pair& p) { return share_vertex(edges, p.first, p.second); });
}

} // namespace ccdkit::details
