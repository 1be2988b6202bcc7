// SPDX-License-Identifier: MIT
#pragma once

#include "rigid/details/feature_pair.hpp"
#include "rigid/details/moving_side.hpp"

#include <ccdkit/rigid/rigid_motion.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace ccdkit::details {

/// The broad phase of rigid time of contact: the moving body's face tree, each node swept over the side's
/// current interval (in the fixed body's coordinates), traversed against the fixed body's tree. Overlapping
/// leaf faces give every feature pair the two faces hold: the moving face's vertices against the fixed face,
/// the moving face against the fixed face's vertices, and their sides pairwise. A node's sweep is the box of its
/// box as placed at the interval's ends (each the box around the turned box), grown by the side's separation: a
/// point's chord runs between its places at the ends, and its true path stays within the separation of its chord.
class SweptTreePairs {
public:
    explicit SweptTreePairs(const MovingSide& side)
        : sweeps_(side.shape().tree.nodes().size())
        , stamps_(sweeps_.size(), 0)
    {
    }

    /// The feature pairs (each once); nothing when the sweep overlaps more than `limit` of them (the caller then splits
    /// the interval). `reach` grows every sweep further: the pairs that come within it of each other.
    std::optional<std::vector<FeaturePair>> find(MovingSide& side, std::size_t limit, double reach = 0.0)
    {
        const auto& moving = side.shape();
        const auto& fixed = side.fixed();
        std::vector<FeaturePair> pairs;
        const bool complete = for_each_face_pair(
            side,
            [&](std::int32_t fa, std::int32_t fb) {
                // Each vertex and edge only from the face that owns it: every pair once, no sorting.
                const auto owned = [](const std::vector<std::uint8_t>& bits, std::int32_t face, int c) {
                    return (bits[static_cast<std::size_t>(face)] >> c & 1U) != 0;
                };
                for (int c = 0; c < 3; ++c) {
                    if (owned(moving.owned_vertices, fa, c)) {
                        pairs.push_back({ PairKind::VERTEX_FACE, moving.faces(fa, c), fb });
                    }
                    if (owned(fixed.owned_vertices, fb, c)) {
                        pairs.push_back({ PairKind::FACE_VERTEX, fa, fixed.faces(fb, c) });
                    }
                    if (!owned(moving.owned_edges, fa, c)) {
                        continue;
                    }
                    for (int d = 0; d < 3; ++d) {
                        if (owned(fixed.owned_edges, fb, d)) {
                            pairs.push_back({ PairKind::EDGE_EDGE, moving.face_edges(fa, c), fixed.face_edges(fb, d) });
                        }
                    }
                }
            },
            [&] { return pairs.size() > limit; }, reach);
        if (!complete) {
            return std::nullopt;
        }
        return pairs;
    }

    /// Calls `visit(moving_face, fixed_face)` for every pair of faces whose boxes overlap (the moving face's swept
    /// over the side's interval, grown by its separation and `reach`), unless `stop()` turns true first (checked per
    /// node pair); whether it did not.
    template <class Visit, class Stop>
    bool for_each_face_pair(MovingSide& side, Visit&& visit, Stop&& stop, double reach = 0.0)
    {
        ++current_;
        const auto& nodes_a = side.shape().tree.nodes();
        const auto& nodes_b = side.fixed().tree.nodes();
        std::vector<std::pair<std::int32_t, std::int32_t>> stack { { 0, 0 } };
        while (!stack.empty()) {
            if (stop()) {
                return false;
            }
            const auto [na, nb] = stack.back();
            stack.pop_back();
            const auto& node_a = nodes_a[static_cast<std::size_t>(na)];
            const auto& node_b = nodes_b[static_cast<std::size_t>(nb)];
            if (!overlaps(sweep(side, na, reach), node_b.box)) {
                continue;
            }
            if (node_a.count > 0 && node_b.count > 0) {
                visit_leaves(side, node_a, node_b, reach, visit);
            } else if (node_b.count > 0 || (node_a.count == 0 && volume(node_a.box) >= volume(node_b.box))) {
                stack.push_back({ na + 1, nb });
                stack.push_back({ node_a.first, nb });
            } else {
                stack.push_back({ na, nb + 1 });
                stack.push_back({ na, node_b.first });
            }
        }
        return true;
    }

private:
    static double volume(const Aabb& box) { return (box.max - box.min).prod(); }

    /// Node `n`'s sweep over the side's current interval, grown by `reach` (computed once per find()).
    const Aabb& sweep(const MovingSide& side, std::int32_t n, double reach)
    {
        const auto k = static_cast<std::size_t>(n);
        if (stamps_[k] != current_) {
            const Aabb& box = side.shape().tree.nodes()[k].box;
            const Eigen::Vector3d center = (box.min + box.max).matrix() / 2;
            const Eigen::Vector3d half = (box.max - box.min).matrix() / 2;
            // The node's box placed at either end lies in its centre placed there plus the half extents through
            // |rotation| (no farther than the box's radius along any axis); a point's chord runs between the two.
            const RigidPlacement& start = side.start_placement();
            const RigidPlacement& end = side.end_placement();
            const Eigen::Vector3d p0 = start.apply(center), p1 = end.apply(center);
            const Eigen::Array3d h0 = (start.rotation.cwiseAbs() * half).array();
            const Eigen::Array3d h1 = (end.rotation.cwiseAbs() * half).array();
            // The half extents and the sums round: a relative margin far above their few ulps keeps the box outward.
            constexpr double MARGIN = 1e-12;
            const double grow = (side.separation() + reach) * (1 + MARGIN)
                + MARGIN * (std::max(p0.cwiseAbs().maxCoeff(), p1.cwiseAbs().maxCoeff()) + half.sum());
            sweeps_[k]
                = { (p0.array() - h0).min(p1.array() - h1) - grow, (p0.array() + h0).max(p1.array() + h1) + grow };
            stamps_[k] = current_;
        }
        return sweeps_[k];
    }

    template <class Visit>
    static void visit_leaves(
        MovingSide& side, const FaceTree::Node& leaf_a, const FaceTree::Node& leaf_b, double reach, Visit& visit)
    {
        const auto& moving = side.shape();
        const auto& fixed = side.fixed();
        const double grow = side.separation() + reach;
        for (std::int32_t i = leaf_a.first; i < leaf_a.first + leaf_a.count; ++i) {
            const std::int32_t fa = moving.tree.order()[static_cast<std::size_t>(i)];
            Eigen::Array3d lo = Eigen::Array3d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
            for (int c = 0; c < 3; ++c) {
                const std::int32_t v = moving.faces(fa, c);
                lo = lo.min(side.start(v).array()).min(side.end(v).array());
                hi = hi.max(side.start(v).array()).max(side.end(v).array());
            }
            // Rounding of these few operations is far inside the separation's margin for rounded positions.
            const Aabb face_sweep { lo - grow, hi + grow };
            for (std::int32_t j = leaf_b.first; j < leaf_b.first + leaf_b.count; ++j) {
                const std::int32_t fb = fixed.tree.order()[static_cast<std::size_t>(j)];
                if (overlaps(face_sweep, fixed.tree.face_boxes()[static_cast<std::size_t>(fb)])) {
                    visit(fa, fb);
                }
            }
        }
    }

    std::vector<Aabb> sweeps_;
    std::vector<std::uint32_t> stamps_;
    std::uint32_t current_ = 0;
};

} // namespace ccdkit::details
