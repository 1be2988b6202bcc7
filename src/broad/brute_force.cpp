// SPDX-License-Identifier: MIT
#include "core/details/ieee_arithmetic_scope.hpp"

#include <ccdkit/broad/brute_force.hpp>

namespace ccdkit {

void BruteForceBroadPhase::build(std::span<const Aabb> boxes)
{
    check_boxes(boxes, "BruteForceBroadPhase");
    boxes_.assign(boxes.begin(), boxes.end());
}

void BruteForceBroadPhase::query(
    std::span<const Aabb> queries, std::size_t first_query_id, std::vector<CandidatePair>& out, QueryScope scope) const
{
    const details::IeeeArithmeticScope ieee; // compares as the other broad phases do
    for (std::size_t q = 0; q < queries.size(); ++q) {
        for (std::size_t k = scope == QueryScope::SELF_PAIRS ? first_query_id + q + 1 : 0; k < boxes_.size(); ++k) {
            if (overlaps(boxes_[k], queries[q])) {
                out.emplace_back(static_cast<std::int32_t>(first_query_id + q), static_cast<std::int32_t>(k));
            }
        }
    }
}

std::size_t BruteForceBroadPhase::memory_bytes() const { return boxes_.capacity() * sizeof(Aabb); }

} // namespace ccdkit
