// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/broad/aabb.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace ccdkit {

enum class BroadPhaseMethod : std::uint8_t {
    BVH, ///< bounding volume hierarchy (Bvh)
    SWEEP_AND_PRUNE, ///< boxes sorted along one axis (SweepAndPrune)
    BRUTE_FORCE, ///< every pair: the reference the others are tested against
};

/// A candidate pair: (query index, index of a built box).
using CandidatePair = std::pair<std::int32_t, std::int32_t>;

/// Which overlapping pairs a query reports.
enum class QueryScope : std::uint8_t {
    ALL_PAIRS, ///< every (query, built box) that overlaps
    /// The queries are the built boxes themselves (query id i is built box i), as in the self-collision of
    /// one set: each unordered pair once, as (i, j) with i < j, and never (i, i). Cheaper than ALL_PAIRS.
    SELF_PAIRS,
};

/// Finds which boxes of a built set overlap query boxes. Every method reports exactly the overlapping
/// pairs (closed boxes: touching counts); they differ only in speed and memory.
class BroadPhase {
public:
    virtual ~BroadPhase() = default;

    /// Replaces the built set. Fewer than 2^31 boxes.
    virtual void build(std::span<const Aabb> boxes) = 0;

    /// Appends (first_query_id + i, j) for every query box i that overlaps built box j, in no set order,
    /// limited by `scope`. Safe to call from several threads at once after build() (each with its own `out`).
    virtual void
    query(std::span<const Aabb> queries, std::size_t first_query_id, std::vector<CandidatePair>& out, QueryScope scope)
        const = 0;

    /// Makes room to build on up to `boxes` boxes, so that building on fewer and then on that many reuses one
    /// allocation instead of moving to fresh memory. A hint only: by default it does nothing.
    virtual void reserve(std::size_t boxes) { static_cast<void>(boxes); }

    /// Bytes the built structure holds.
    [[nodiscard]] virtual std::size_t memory_bytes() const = 0;
};

[[nodiscard]] std::unique_ptr<BroadPhase> make_broad_phase(BroadPhaseMethod method);

/// "bvh", "sap" or "brute-force"; empty for any other name.
[[nodiscard]] std::optional<BroadPhaseMethod> broad_phase_method_from_name(std::string_view name);

[[nodiscard]] std::string_view name_of(BroadPhaseMethod method);

/// What every broad phase requires of its boxes: fewer than 2^31 - 1 (they are numbered with 32-bit
/// indices) and no NaN bound (infinite bounds are fine).
/// @throws std::invalid_argument naming `who` and the first offending box.
void check_boxes(std::span<const Aabb> boxes, std::string_view who);

} // namespace ccdkit
