// SPDX-License-Identifier: MIT
#include "core/details/ieee_arithmetic_tasks.hpp"

#include <ccdkit/broad/sweep_and_prune.hpp>

#include <tbb/parallel_sort.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace ccdkit {

namespace {
    constexpr double INF = std::numeric_limits<double>::infinity();
} // namespace

void SweepAndPrune::build(std::span<const Aabb> boxes)
{
    check_boxes(boxes, "SweepAndPrune");
    // Sorted and bounded in plain IEEE arithmetic, as the sweep reads them: under flush-to-zero the widest
    // extent (a difference of bounds) can round to zero and the sweep start past overlapping boxes.
    details::with_ieee_arithmetic([&] { sort_along_widest_axis(boxes); });
}

void SweepAndPrune::sort_along_widest_axis(std::span<const Aabb> boxes)
{
    Eigen::Array3d low = Eigen::Array3d::Constant(INF), high = Eigen::Array3d::Constant(-INF);
    for (const Aabb& b : boxes) {
        const Eigen::Array3d c = b.min * 0.5 + b.max * 0.5; // no overflow near the largest double
        low = low.min(c);
        high = high.max(c);
    }
    Eigen::Index axis = 0;
    if (!boxes.empty()) {
        (high - low).maxCoeff(&axis);
    }
    axis_ = static_cast<int>(axis);

    index_.resize(boxes.size());
    std::iota(index_.begin(), index_.end(), 0);
    tbb::parallel_sort(index_.begin(), index_.end(), [&](std::int32_t a, std::int32_t b) {
        return boxes[static_cast<std::size_t>(a)].min[axis_] < boxes[static_cast<std::size_t>(b)].min[axis_];
    });
    boxes_.resize(boxes.size());
    lower_.resize(boxes.size());
    rank_.resize(boxes.size());
    widest_ = 0.0;
    for (std::size_t k = 0; k < boxes.size(); ++k) {
        boxes_[k] = boxes[static_cast<std::size_t>(index_[k])];
        lower_[k] = boxes_[k].min[axis_];
        rank_[static_cast<std::size_t>(index_[k])] = static_cast<std::int32_t>(k);
        // Rounded up, so that widest_ bounds the exact extent.
        widest_ = std::max(widest_, std::nextafter(boxes_[k].max[axis_] - boxes_[k].min[axis_], INF));
    }
}

void SweepAndPrune::query(
    std::span<const Aabb> queries, std::size_t first_query_id, std::vector<CandidatePair>& out, QueryScope scope) const
{
    const details::IeeeArithmeticScope ieee; // the sweep's bound subtracts `widest_` (see build)
    sweep(queries, first_query_id, out, scope);
}

void SweepAndPrune::sweep(
    std::span<const Aabb> queries, std::size_t first_query_id, std::vector<CandidatePair>& out, QueryScope scope) const
{
    for (std::size_t q = 0; q < queries.size(); ++q) {
        const Aabb& box = queries[q];
        const auto query_id = static_cast<std::int32_t>(first_query_id + q);
        if (scope == QueryScope::SELF_PAIRS) {
            // Of two overlapping boxes, the one earlier in the sorted order finds the other by scanning
            // forward, so each pair is found exactly once.
            for (auto k = static_cast<std::size_t>(rank_[static_cast<std::size_t>(query_id)]) + 1;
                 k < lower_.size() && lower_[k] <= box.max[axis_]; ++k) {
                if (overlaps(boxes_[k], box)) {
                    out.emplace_back(std::min(query_id, index_[k]), std::max(query_id, index_[k]));
                }
            }
            continue;
        }
        // A built box b overlapping the query has b.min >= b.max - widest >= query.min - widest; the
        // bound is rounded down so that no such box is skipped.
        const double from = std::nextafter(box.min[axis_] - widest_, -INF);
        for (auto k = static_cast<std::size_t>(std::lower_bound(lower_.begin(), lower_.end(), from) - lower_.begin());
             k < lower_.size() && lower_[k] <= box.max[axis_]; ++k) {
            if (overlaps(boxes_[k], box)) {
                out.emplace_back(query_id, index_[k]);
            }
        }
    }
}

std::size_t SweepAndPrune::memory_bytes() const
{
    return lower_.capacity() * sizeof(double) + boxes_.capacity() * sizeof(Aabb)
        + (index_.capacity() + rank_.capacity()) * sizeof(std::int32_t);
}

} // namespace ccdkit
