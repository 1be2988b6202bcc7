// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/broad/broad_phase.hpp>

namespace ccdkit {

/// Sweep and prune: the built boxes sorted by their lower bound along the axis where their centers
/// spread most. A query scans the boxes whose lower bound lies in [query.min - widest, query.max] on
/// that axis, where `widest` is the largest extent of a built box along it; for SELF_PAIRS each box scans
/// forward from its own place in the order, up to its upper bound. Fast when boxes are small against the
/// scene; one huge box (a vertex flung across the scene) makes queries scan far.
class SweepAndPrune final : public BroadPhase {
public:
    void build(std::span<const Aabb> boxes) override;
    void
    query(std::span<const Aabb> queries, std::size_t first_query_id, std::vector<CandidatePair>& out, QueryScope scope)
        const override;
    [[nodiscard]] std::size_t memory_bytes() const override;

private:
    void sort_along_widest_axis(std::span<const Aabb> boxes); ///< build() after its checks, in IEEE arithmetic
    /// query() in IEEE arithmetic. Out of line: the scope's restore in the same function as the loop cost 2 % more
    /// instructions in it.
    [[gnu::noinline]] void
    sweep(std::span<const Aabb> queries, std::size_t first_query_id, std::vector<CandidatePair>& out, QueryScope scope)
        const;

    int axis_ = 0;
    double widest_ = 0.0; ///< an upper bound on every built box's extent along axis_
    std::vector<double> lower_; ///< sorted lower bounds along axis_
    std::vector<Aabb> boxes_; ///< the boxes in that order
    std::vector<std::int32_t> index_; ///< index_[k]: input index of boxes_[k]
    std::vector<std::int32_t> rank_; ///< rank_[i]: where input box i is in the sorted order
};

} // namespace ccdkit
