// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/broad/broad_phase.hpp>

namespace ccdkit {

/// Tests every query against every built box: quadratic, the reference for the others.
class BruteForceBroadPhase final : public BroadPhase {
public:
    void build(std::span<const Aabb> boxes) override;
    void
    query(std::span<const Aabb> queries, std::size_t first_query_id, std::vector<CandidatePair>& out, QueryScope scope)
        const override;
    [[nodiscard]] std::size_t memory_bytes() const override;

private:
    std::vector<Aabb> boxes_;
};

} // namespace ccdkit
