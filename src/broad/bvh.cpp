// SPDX-License-Identifier: MIT
#include "broad/details/float_rounding.hpp"
#include "core/details/ieee_arithmetic_tasks.hpp"

#include <ccdkit/broad/bvh.hpp>

#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ccdkit {

using details::float_above;
using details::float_below;

namespace {
    /// Leaves over `count` boxes: all full but the last (64-bit sum: no overflow near the largest count).
    std::int32_t leaf_count(std::int32_t count)
    {
        return static_cast<std::int32_t>((std::int64_t { count } + Bvh::LEAF_SIZE - 1) / Bvh::LEAF_SIZE);
    }

    /// Nodes of a tree over `count` boxes: every inner node has two children; none over no boxes.
    std::int32_t subtree_nodes(std::int32_t count) { return count == 0 ? 0 : 2 * leaf_count(count) - 1; }

    /// Subtrees larger than this are built as separate tasks.
    constexpr std::int32_t PARALLEL_BUILD_MIN = 1 << 12;
} // namespace

Bvh::FloatBox Bvh::outward(const Aabb& box)
{
    FloatBox f;
    for (int a = 0; a < 3; ++a) {
        f.min[a] = float_below(box.min[a]);
        f.max[a] = float_above(box.max[a]);
    }
    return f;
}

bool Bvh::overlaps(const FloatBox& a, const FloatBox& b)
{
    return a.min[0] <= b.max[0] && b.min[0] <= a.max[0] && a.min[1] <= b.max[1] && b.min[1] <= a.max[1]
        && a.min[2] <= b.max[2] && b.min[2] <= a.max[2];
}

void Bvh::build(std::span<const Aabb> boxes)
{
    check_boxes(boxes, "Bvh");
    const auto count = static_cast<std::int32_t>(boxes.size());
    index_.resize(boxes.size());
    boxes_.resize(boxes.size());
    nodes_.assign(static_cast<std::size_t>(subtree_nodes(count)), Node {});
    items_.resize(boxes.size());
    // Node boxes rounded outward in plain IEEE arithmetic, on every task (see ieee_arithmetic_tasks.hpp).
    details::with_ieee_arithmetic([&] { order_and_build(boxes); });
}

void Bvh::order_and_build(std::span<const Aabb> boxes)
{
    const auto count = static_cast<std::int32_t>(boxes.size());
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, boxes.size(), 4096), [&](const tbb::blocked_range<std::size_t>& r) {
            for (std::size_t k = r.begin(); k != r.end(); ++k) {
                // Half the sum: no overflow near the largest double. A NaN center (a box infinite both ways)
                // would break the ordering of the split: it counts as 0.
                const Eigen::Array3d c = boxes[k].min * 0.5 + boxes[k].max * 0.5;
                BuildItem& item = items_[k];
                for (Eigen::Index a = 0; a < 3; ++a) {
                    item.center[static_cast<std::size_t>(a)] = std::isnan(c[a]) ? 0.0F : static_cast<float>(c[a]);
                }
                item.index = static_cast<std::int32_t>(k);
            }
        });
    if (count > 0) {
        build_node(0, 0, count, boxes);
    }
}

void Bvh::reserve(std::size_t boxes)
{
    if (boxes > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max() - 1)) {
        return; // build() rejects that many
    }
    nodes_.reserve(static_cast<std::size_t>(subtree_nodes(static_cast<std::int32_t>(boxes))));
    boxes_.reserve(boxes);
    index_.reserve(boxes);
    items_.reserve(boxes);
}

void Bvh::build_node(std::int32_t node, std::int32_t begin, std::int32_t end, std::span<const Aabb> boxes)
{
    const std::int32_t count = end - begin;
    Node& n = nodes_[static_cast<std::size_t>(node)];
    const auto items = std::span(items_).subspan(static_cast<std::size_t>(begin), static_cast<std::size_t>(count));
    if (count <= LEAF_SIZE) {
        n.first = ~begin;
        for (std::size_t k = 0; k < items.size(); ++k) {
            const std::size_t at = static_cast<std::size_t>(begin) + k;
            index_[at] = items[k].index;
            boxes_[at] = boxes[static_cast<std::size_t>(items[k].index)];
        }
        update_node(static_cast<std::size_t>(node));
        return;
    }
    // Split at the median center along the axis where the centers spread most.
    std::array<float, 3> low = items.front().center, high = low;
    for (const BuildItem& item : items) {
        for (std::size_t a = 0; a < 3; ++a) {
            low[a] = std::min(low[a], item.center[a]);
            high[a] = std::max(high[a], item.center[a]);
        }
    }
    std::size_t axis = 0;
    for (std::size_t a = 1; a < 3; ++a) {
        if (high[a] - low[a] > high[axis] - low[axis]) {
            axis = a;
        }
    }
    // Whole leaves to the left, so that only the last leaf of the tree is partly filled.
    const std::int32_t half = leaf_count(count) / 2 * LEAF_SIZE;
    std::nth_element(items.begin(), items.begin() + half, items.end(), [axis](const BuildItem& a, const BuildItem& b) {
        return a.center[axis] < b.center[axis];
    });

    const std::int32_t middle = begin + half;
    const std::int32_t left = node + 1;
    const std::int32_t right = left + subtree_nodes(half);
    n.first = right;
    if (count >= PARALLEL_BUILD_MIN) {
        tbb::parallel_invoke(
            [&] { build_node(left, begin, middle, boxes); }, [&] { build_node(right, middle, end, boxes); });
    } else {
        build_node(left, begin, middle, boxes);
        build_node(right, middle, end, boxes);
    }
    update_node(static_cast<std::size_t>(node));
}

void Bvh::refit(std::span<const Aabb> boxes)
{
    if (boxes.size() != boxes_.size()) {
        throw std::invalid_argument(
            "Bvh::refit: " + std::to_string(boxes.size()) + " boxes but the tree was built on "
            + std::to_string(boxes_.size()));
    }
    details::with_ieee_arithmetic([&] { refit_nodes(boxes); });
}

void Bvh::refit_nodes(std::span<const Aabb> boxes)
{
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, boxes_.size(), 4096), [&](const tbb::blocked_range<std::size_t>& r) {
            for (std::size_t k = r.begin(); k != r.end(); ++k) {
                boxes_[k] = boxes[static_cast<std::size_t>(index_[k])];
            }
        });
    // Children follow their parent, so a backward pass sees both children before the parent.
    for (std::size_t i = nodes_.size(); i-- > 0;) {
        update_node(i);
    }
}

std::int32_t Bvh::leaf_size(std::int32_t begin) const
{
    return std::min(LEAF_SIZE, static_cast<std::int32_t>(boxes_.size()) - begin);
}

void Bvh::update_node(std::size_t node)
{
    Node& n = nodes_[node];
    if (n.first < 0) {
        const std::int32_t begin = ~n.first;
        Aabb box = boxes_[static_cast<std::size_t>(begin)];
        n.max_index = index_[static_cast<std::size_t>(begin)];
        for (std::int32_t k = begin + 1; k < begin + leaf_size(begin); ++k) {
            box = box.merged(boxes_[static_cast<std::size_t>(k)]);
            n.max_index = std::max(n.max_index, index_[static_cast<std::size_t>(k)]);
        }
        n.box = outward(box);
        return;
    }
    const Node& left = nodes_[node + 1];
    const Node& right = nodes_[static_cast<std::size_t>(n.first)];
    for (int a = 0; a < 3; ++a) {
        n.box.min[a] = std::min(left.box.min[a], right.box.min[a]);
        n.box.max[a] = std::max(left.box.max[a], right.box.max[a]);
    }
    n.max_index = std::max(left.max_index, right.max_index);
}

void Bvh::query(
    std::span<const Aabb> queries, std::size_t first_query_id, std::vector<CandidatePair>& out, QueryScope scope) const
{
    if (nodes_.empty()) {
        return;
    }
    const details::IeeeArithmeticScope ieee; // the queries' boxes rounded outward to float
    traverse(queries, first_query_id, out, scope);
}

void Bvh::traverse(
    std::span<const Aabb> queries, std::size_t first_query_id, std::vector<CandidatePair>& out, QueryScope scope) const
{
    const bool self = scope == QueryScope::SELF_PAIRS;
    // Depth is about log2(n / LEAF_SIZE) + 1 for the median split; 64 covers any int32 count.
    std::array<std::int32_t, 64> stack {};
    // The group's boxes by coordinate (lane q: query q), so that a leaf is tested against all of them in a
    // few vector instructions instead of a branch per query.
    using Lanes = Eigen::Array<float, QUERY_GROUP, 1>;
    static_assert(QUERY_GROUP < 32, "lane masks are 32-bit");
    std::array<Lanes, 3> query_min, query_max;
    query_min.fill(Lanes::Zero());
    query_max.fill(Lanes::Zero());
    // Consecutive queries (callers pass them in a spatial order) walk the inner nodes once, as a group, with
    // the box around them all; each query is tested on its own only at the leaves. Most of a lone query's
    // box tests are the inner nodes above its leaves, which its neighbours share.
    for (std::size_t group = 0; group < queries.size(); group += QUERY_GROUP) {
        const std::size_t size = std::min(QUERY_GROUP, queries.size() - group);
        FloatBox group_box = outward(queries[group]);
        for (std::size_t q = 0; q < size; ++q) {
            const FloatBox box = outward(queries[group + q]);
            for (std::size_t a = 0; a < 3; ++a) {
                query_min[a][q] = box.min[a];
                query_max[a][q] = box.max[a];
                group_box.min[a] = std::min(group_box.min[a], box.min[a]);
                group_box.max[a] = std::max(group_box.max[a], box.max[a]);
            }
        }
        const unsigned group_lanes = (1U << size) - 1U;
        // The group's smallest id: a subtree of ids at most that pairs with no query of the group.
        const auto group_id = static_cast<std::int32_t>(first_query_id + group);
        // Nodes are tested before they are pushed: the stack holds only overlapping ones.
        // A wanted node's far child (an inner node's right child, or a leaf's boxes) is fetched into the cache
        // while other nodes are visited: it is read when the node comes off the stack, and is rarely nearby.
        const auto wanted = [&](std::int32_t node) {
            const Node& n = nodes_[static_cast<std::size_t>(node)];
            if (!overlaps(n.box, group_box) || (self && n.max_index <= group_id)) {
                return false;
            }
            if (n.first >= 0) {
                __builtin_prefetch(&nodes_[static_cast<std::size_t>(n.first)]);
            } else {
                __builtin_prefetch(&boxes_[static_cast<std::size_t>(~n.first)]);
            }
            return true;
        };
        std::size_t top = 0;
        if (wanted(0)) {
            stack[top++] = 0;
        }
        while (top > 0) {
            const std::int32_t node = stack[--top];
            const Node& n = nodes_[static_cast<std::size_t>(node)];
            if (n.first >= 0) {
                if (wanted(n.first)) {
                    stack[top++] = n.first;
                }
                if (wanted(node + 1)) {
                    stack[top++] = node + 1;
                }
                continue;
            }
            // Boxes overlap iff the overlap of their ranges, smallest over the axes, is >= 0. The differences
            // have the sign of the exact ones and are never NaN: float lows are < +inf, highs > -inf (outward()).
            Lanes overlap = Lanes::Constant(std::numeric_limits<float>::infinity());
            for (std::size_t a = 0; a < 3; ++a) {
                overlap = overlap.min(query_max[a].min(n.box.max[a]) - query_min[a].max(n.box.min[a]));
            }
            unsigned lanes = 0;
            for (std::size_t q = 0; q < QUERY_GROUP; ++q) {
                lanes |= static_cast<unsigned>(overlap[static_cast<Eigen::Index>(q)] >= 0.0F) << q;
            }
            lanes &= group_lanes;
            if (self) {
                // Only queries with ids below the leaf's largest id pair with it (ids are consecutive).
                const std::int32_t below = std::clamp<std::int32_t>(n.max_index - group_id, 0, QUERY_GROUP);
                lanes &= (1U << static_cast<unsigned>(below)) - 1U;
            }
            for (; lanes != 0; lanes &= lanes - 1U) {
                const auto q = static_cast<std::size_t>(std::countr_zero(lanes));
                const auto query_id = static_cast<std::int32_t>(group_id + static_cast<std::int32_t>(q));
                const Aabb& box = queries[group + q];
                // Every box of the leaf is tested and written at the end of `out`; only the overlapping ones
                // are kept (no branch on the outcome, which is hard to predict).
                const std::int32_t begin = ~n.first, leaf_boxes = leaf_size(begin);
                const std::size_t at = out.size();
                out.resize(at + static_cast<std::size_t>(leaf_boxes));
                std::size_t kept = at;
                for (std::int32_t k = begin; k < begin + leaf_boxes; ++k) {
                    const std::int32_t built_id = index_[static_cast<std::size_t>(k)];
                    const Aabb& b = boxes_[static_cast<std::size_t>(k)];
                    bool keep = !self || built_id > query_id;
                    for (Eigen::Index a = 0; a < 3; ++a) {
                        keep &= (b.min[a] <= box.max[a]) & (box.min[a] <= b.max[a]);
                    }
                    out[kept] = { query_id, built_id };
                    kept += static_cast<std::size_t>(keep);
                }
                out.resize(kept);
            }
        }
    }
}

std::size_t Bvh::memory_bytes() const
{
    return nodes_.capacity() * sizeof(Node) + boxes_.capacity() * sizeof(Aabb)
        + index_.capacity() * sizeof(std::int32_t) + items_.capacity() * sizeof(BuildItem);
}

} // namespace ccdkit
