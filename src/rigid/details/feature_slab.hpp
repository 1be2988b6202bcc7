// SPDX-License-Identifier: MIT
#pragma once

// The part of a body's features that can hold a contact: where two convex bodies overlap slightly along a direction
// n, a feature pair within a small distance r has its closest points at heights (along n) no higher than the other
// body's extreme plus r. Boxes of the features' parts below that height are far tighter than the features' own
// boxes (a side face reaching away from the contact shrinks to a sliver), so box tests keep only the pairs near the
// contact.

#include "rigid/details/rounding.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

namespace ccdkit::details {

/// A feature's part within a slab, as a box: index into its body's vertices, faces or edges.
struct ClippedFeature {
    std::int32_t index;
    Eigen::Array3d min;
    Eigen::Array3d max;
};

/// Whether the box [low, high] meets y's box. All six comparisons without a branch between them: which one fails
/// first follows no pattern, and its mispredicted branches cost more than the comparisons they skip.
[[nodiscard]] inline bool box_meets(const Eigen::Array3d& low, const Eigen::Array3d& high, const ClippedFeature& y)
{
    bool all = true;
    for (Eigen::Index d = 0; d < 3; ++d) {
        all &= (low[d] <= y.max[d]) & (y.min[d] <= high[d]);
    }
    return all;
}

/// One body's points at one time with their heights along a direction (signed so that the other body lies
/// below), and the height `limit` above which no contact of the pairs sought can lie.
struct FeatureSlab {
    std::span<const Eigen::Vector3d> points;
    std::span<const double> heights;
    double limit;
    double magnitude; ///< the largest coordinate of the points

    /// The box of the part of element e (its corners: a face's three, an edge's two) at heights up to limit,
    /// into `out`; false if it lies wholly above. Each side that crosses the limit is cut at its crossing, moved
    /// away from the kept corner by the heights' rounding (each dot product within 9 ulps of the magnitude) and the
    /// quotient's own; a side too flat for that is kept whole. (The limit's own rounding and the crossing point's
    /// are inside the 1e-12 magnitude that reach adds.) The definition: the contact search clips edges with
    /// clip_edge, which test_near_features.cpp checks against it bit for bit.
    template <class Elements>
    [[nodiscard]] bool clip(const Elements& elements, Eigen::Index e, ClippedFeature& out) const
    {
        constexpr int CORNERS = Elements::ColsAtCompileTime;
        std::array<std::size_t, CORNERS> corner {};
        int kept = 0;
        for (int c = 0; c < CORNERS; ++c) {
            corner[static_cast<std::size_t>(c)] = static_cast<std::size_t>(elements(e, c));
            kept += heights[corner[static_cast<std::size_t>(c)]] <= limit ? 1 : 0;
        }
        if (kept == 0) {
            return false;
        }
        out.index = static_cast<std::int32_t>(e);
        // The box starts at the first kept corner (as the union with an empty box would give: min(inf, x) = x).
        bool empty = true;
        const auto add = [&out, &empty](const Eigen::Vector3d& x) {
            if (empty) {
                out.min = x.array();
                out.max = x.array();
                empty = false;
                return;
            }
            out.min = out.min.min(x.array());
            out.max = out.max.max(x.array());
        };
        for (const std::size_t i : corner) {
            if (heights[i] > limit) {
                continue;
            }
            add(points[i]);
            if (kept == CORNERS) {
                continue;
            }
            // The sides from the kept corner i to corners above the limit.
            for (const std::size_t o : corner) {
                if (heights[o] > limit) {
                    add(crossing(i, o));
                }
            }
        }
        return true;
    }

    /// clip() for an edge from corner i to corner o (the same box, bit for bit, with less bookkeeping).
    [[nodiscard]] bool clip_edge(std::size_t i, std::size_t o, std::int32_t e, ClippedFeature& out) const
    {
        const bool keeps_i = heights[i] <= limit, keeps_o = heights[o] <= limit;
        if (!keeps_i && !keeps_o) {
            return false;
        }
        out.index = e;
        const Eigen::Array3d first = (keeps_i ? points[i] : points[o]).array();
        const Eigen::Array3d second = (keeps_i && keeps_o ? points[o]
                                           : keeps_i      ? crossing(i, o)
                                                          : crossing(o, i))
                                          .array();
        out.min = first.min(second);
        out.max = first.max(second);
        return true;
    }

private:
    /// Where the side from kept corner i to corner o above the limit crosses it, moved away from i by the rounding.
    [[nodiscard]] Eigen::Vector3d crossing(std::size_t i, std::size_t o) const
    {
        const double rounding = 32.0 * UNIT_ROUNDOFF * magnitude;
        const double rise = heights[o] - heights[i] - 2.0 * rounding;
        const double s
            = rise > 0.0 ? std::min((limit - heights[i] + rounding) / rise * (1.0 + 8.0 * UNIT_ROUNDOFF), 1.0) : 1.0;
        return points[i] + s * (points[o] - points[i]);
    }
};

} // namespace ccdkit::details
