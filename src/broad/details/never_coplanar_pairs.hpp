// SPDX-License-Identifier: MIT
#pragma once

// The narrow phase's never-coplanar certificate (narrow/details/coplanarity_prefilter.hpp) for the candidate
// pairs of one mesh, read straight from the mesh's positions: no query is assembled, and nothing is copied or
// precomputed (fresh memory costs more than the few products it would save).

#include "narrow/details/coplanarity_prefilter.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <span>

namespace ccdkit::details {

class NeverCoplanarPairs {
public:
    /// Positions at t = 0 and t = 1 (finite) and the mesh's edges and faces (indices checked); all are kept by
    /// reference.
    NeverCoplanarPairs(
        std::span<const Eigen::Vector3d> x0,
        std::span<const Eigen::Vector3d> x1,
        const Eigen::MatrixX2i& edges,
        const Eigen::MatrixX3i& faces)
        : x0_(x0)
        , x1_(x1)
        , edges_(edges)
        , faces_(faces)
    {
    }

    /// True only if the vertex and the face's corners are never coplanar during the step (so never touch).
    [[nodiscard]] bool vertex_face(std::int32_t vertex, std::int32_t face) const
    {
        const auto f = faces_.row(face);
        // det(t1 - t0, t2 - t0, p - t0): the face's normal against the vertex.
        double largest = 0.0;
        const LinearVector e1 = difference(f[0], f[1], largest), e2 = difference(f[0], f[2], largest);
        const LinearVector w = difference(f[0], vertex, largest);
        return never_zero(cross(e1, e2), w, largest);
    }

    /// True only if the two edges' end points are never coplanar during the step (so the edges never touch).
    [[nodiscard]] bool edge_edge(std::int32_t edge_a, std::int32_t edge_b) const
    {
        const auto a = edges_.row(edge_a), b = edges_.row(edge_b);
        // det(a1 - a0, b0 - a0, b1 - a0) = det(a1 - a0, b0 - a0, b1 - b0): the cubic is (da x db) . (b0 - a0).
        double largest = 0.0;
        const LinearVector da = difference(a[0], a[1], largest), db = difference(b[0], b[1], largest);
        const LinearVector w = difference(a[0], b[0], largest);
        return never_zero(cross(da, db), w, largest);
    }

private:
    /// The rounded difference x_j - x_i at both ends of the step; widens `largest` to its components' magnitudes.
    /// Always inlined: called out of line (three times per pair), its result went through memory.
    [[nodiscard, gnu::always_inline]] LinearVector difference(std::int32_t i, std::int32_t j, double& largest) const
    {
        const auto k = [](std::int32_t v) { return static_cast<std::size_t>(v); };
        LinearVector d;
        for (int c = 0; c < 3; ++c) {
            d.start[c] = x0_[k(j)][c] - x0_[k(i)][c];
            d.end[c] = x1_[k(j)][c] - x1_[k(i)][c];
            largest = std::max({ largest, std::abs(d.start[c]), std::abs(d.end[c]) });
        }
        return d;
    }

    std::span<const Eigen::Vector3d> x0_, x1_;
    const Eigen::MatrixX2i& edges_;
    const Eigen::MatrixX3i& faces_;
};

} // namespace ccdkit::details
