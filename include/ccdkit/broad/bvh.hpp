// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/broad/broad_phase.hpp>
#include <ccdkit/broad/huge_page_allocator.hpp>

#include <array>

namespace ccdkit {

/// A binary bounding volume hierarchy over boxes. Built top-down in parallel, splitting each node at the
/// median of its boxes' centers along the axis where the centers spread most, rounded to whole leaves:
/// every leaf holds LEAF_SIZE boxes but the last, which holds the rest. Nodes are stored depth first (a node's left
/// child follows it), so refit() is one backward pass. Node boxes are single precision, rounded outward (half the
/// memory traffic); the boxes in the leaves stay double, so the reported pairs are exactly the overlapping ones.
class Bvh final : public BroadPhase {
public:
    static constexpr std::int32_t LEAF_SIZE = 4;
    /// Consecutive queries traversed together (query()); 16 costs 2% more instructions than 8 and about 5%
    /// less time (fewer, longer vector tests per leaf).
    static constexpr std::size_t QUERY_GROUP = 16;

    void build(std::span<const Aabb> boxes) override;
    void reserve(std::size_t boxes) override;

    /// Keeps the tree's shape and recomputes its boxes for moved primitives: `boxes` are the same
    /// primitives, in the same order and number, as in build(). Queries stay exact; they only slow down
    /// when the primitives have moved far from where the tree was built.
    /// @throws std::invalid_argument if the number of boxes differs from build().
    void refit(std::span<const Aabb> boxes);

    void
    query(std::span<const Aabb> queries, std::size_t first_query_id, std::vector<CandidatePair>& out, QueryScope scope)
        const override;

    [[nodiscard]] std::size_t memory_bytes() const override;

private:
    /// A box in single precision that contains the double box it was made from.
    struct FloatBox {
        std::array<float, 3> min, max;
    };
    static FloatBox outward(const Aabb& box);
    static bool overlaps(const FloatBox& a, const FloatBox& b);

    /// 32 bytes, aligned: a node never straddles two cache lines, and often shares one with its left child.
    struct alignas(32) Node {
        FloatBox box;
        /// Inner node (first >= 0): the left child is the next node, the right child is node `first`. Leaf
        /// (first < 0): boxes ~first .. ~first + leaf_size(~first) - 1 of boxes_.
        std::int32_t first = 0;
        std::int32_t max_index = 0; ///< the largest input index below this node (prunes SELF_PAIRS)
    };
    /// Boxes in the leaf whose first box is boxes_[begin]: LEAF_SIZE, or the rest for the last leaf.
    [[nodiscard]] std::int32_t leaf_size(std::int32_t begin) const;

    /// A box's center (single precision: it only steers the split) beside its input index. The build
    /// partitions these 16-byte items themselves, contiguous, instead of indices into an array of centers.
    struct BuildItem {
        std::array<float, 3> center;
        std::int32_t index;
    };
    void order_and_build(std::span<const Aabb> boxes); ///< build() after sizing, in plain IEEE arithmetic
    void refit_nodes(std::span<const Aabb> boxes); ///< refit() after its check, in plain IEEE arithmetic
    /// query() on a non-empty tree, in IEEE arithmetic. Out of line: the scope's restore in the same function as
    /// the traversal cost 3 % more instructions in it.
    [[gnu::noinline]] void traverse(
        std::span<const Aabb> queries,
        std::size_t first_query_id,
        std::vector<CandidatePair>& out,
        QueryScope scope) const;
    void build_node(std::int32_t node, std::int32_t begin, std::int32_t end, std::span<const Aabb> boxes);
    /// Recomputes the box (and max_index) of leaf `node` from boxes_, or of an inner node from its children.
    void update_node(std::size_t node);

    // Rebuilt at every step of a simulation: in huge pages, where fresh memory faults in cheaply.
    HugePageVector<Node> nodes_;
    HugePageVector<Aabb> boxes_; ///< the built boxes in leaf order
    HugePageVector<std::int32_t> index_; ///< index_[k]: input index of boxes_[k]
    HugePageVector<BuildItem> items_; ///< build() scratch, kept so that building again reuses the memory
};

} // namespace ccdkit
