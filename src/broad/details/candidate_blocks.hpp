// SPDX-License-Identifier: MIT
#pragma once

// Candidate pairs for mesh-level drivers (whole-mesh CCD, the line-search filter): primitives in spatial
// order, a broad phase queried block by block so that the pairs in memory stay bounded, and the adjacency
// rules (a vertex is never paired with an element that contains it, nor an edge with one it shares a
// vertex with).

#include <ccdkit/broad/broad_phase.hpp>
#include <ccdkit/broad/spatial_order.hpp>

#include <Eigen/Core>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
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

/// Boxes in spatial_order(), with the way back to the input numbering.
struct SortedBoxes {
    explicit SortedBoxes(const std::vector<Aabb>& input)
        : order(spatial_order(input))
        , boxes(input.size())
    {
        for (std::size_t k = 0; k < order.size(); ++k) {
            boxes[k] = input[static_cast<std::size_t>(order[k])];
        }
    }
    [[nodiscard]] std::int32_t original(std::int32_t sorted) const { return order[static_cast<std::size_t>(sorted)]; }

    std::vector<std::int32_t> order; ///< order[k]: input index of boxes[k]
    std::vector<Aabb> boxes;
};

/// Time and memory spent in the broad and narrow phases.
struct PhaseCosts {
    double broad_phase_ms = 0.0, narrow_phase_ms = 0.0;
    std::size_t broad_phase_bytes = 0; ///< largest built structure
};

struct CandidateBlockSettings {
    BroadPhaseMethod method = BroadPhaseMethod::BVH;
    std::size_t block_size = 1 << 15;
    /// Called with the fraction of the queries done after each block; may be empty.
    std::function<void(double)> progress;
};

/// Builds the broad phase on `built`, queries `queries` block by block, and hands each block's candidate
/// pairs (query index, built index; sorted numbering) to `narrow` before the next block.
template <class Narrow>
void for_each_candidate_block(
    const std::vector<Aabb>& built,
    const std::vector<Aabb>& queries,
    QueryScope scope,
    const CandidateBlockSettings& settings,
    PhaseCosts& costs,
    Narrow narrow)
{
    auto start = Clock::now();
    const std::unique_ptr<BroadPhase> broad = make_broad_phase(settings.method);
    broad->build(built);
    costs.broad_phase_bytes = std::max(costs.broad_phase_bytes, broad->memory_bytes());
    costs.broad_phase_ms += elapsed_ms(start);
    const std::size_t block = std::max<std::size_t>(settings.block_size, 1);
    for (std::size_t first = 0; first < queries.size(); first += block) {
        const std::size_t count = std::min(block, queries.size() - first);
        start = Clock::now();
        // Query sub-blocks in parallel; each thread collects into its own vector.
        tbb::enumerable_thread_specific<std::vector<Pair>> local;
        tbb::parallel_for(
            tbb::blocked_range<std::size_t>(first, first + count, 1024), [&](const tbb::blocked_range<std::size_t>& r) {
                broad->query(
                    std::span<const Aabb>(queries).subspan(r.begin(), r.size()), r.begin(), local.local(), scope);
            });
        std::vector<Pair> candidates;
        for (auto& v : local) {
            candidates.insert(candidates.end(), v.begin(), v.end());
        }
        costs.broad_phase_ms += elapsed_ms(start);
        start = Clock::now();
        narrow(candidates);
        costs.narrow_phase_ms += elapsed_ms(start);
        if (settings.progress) {
            settings.progress(static_cast<double>(first + count) / static_cast<double>(queries.size()));
        }
    }
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
    std::erase_if(pairs, [&](const Pair& p) {
        const auto e = elements.row(p.second);
        return (e.array() == p.first).any();
    });
}

/// Maps self pairs of sorted edges to input rows (first < second) and drops edges that share a vertex.
inline void keep_edge_edge_pairs(std::vector<Pair>& pairs, const SortedBoxes& edge_boxes, const Eigen::MatrixX2i& edges)
{
    for (Pair& p : pairs) {
        p = std::minmax(edge_boxes.original(p.first), edge_boxes.original(p.second));
    }
    std::erase_if(pairs, [&](const Pair& p) {
        const auto a = edges.row(p.first), b = edges.row(p.second);
        return a[0] == b[0] || a[0] == b[1] || a[1] == b[0] || a[1] == b[1];
    });
}

} // namespace ccdkit::details
