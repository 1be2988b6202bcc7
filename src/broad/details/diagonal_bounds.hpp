// SPDX-License-Identifier: MIT
#pragma once

// Bounds of a primitive's swept vertices along the ten diagonal directions of the cube (its face diagonals
// x +- y, y +- z, x +- z and its corner diagonals x + y + z, x + y - z, x - y + z, -x + y + z). With the axis-aligned
// box they make a 26-sided bounding volume: a primitive moving linearly stays in the hull of its start and end
// vertices, so two primitives whose intervals are disjoint along any one direction never touch. Candidate pairs
// of a broad phase over boxes are mostly neighbours whose boxes overlap only at a corner; most of them are
// separated along a diagonal, at a fraction of the cost of the narrow phase's own certificates.

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace ccdkit::details {

inline constexpr std::size_t DIAGONALS = 10;

/// Signs of x, y and z in each diagonal direction.
inline constexpr std::array<std::array<int, 3>, DIAGONALS> DIAGONAL_DIRECTIONS { {
    { 1, 1, 0 },
    { 1, -1, 0 },
    { 0, 1, 1 },
    { 0, 1, -1 },
    { 1, 0, 1 },
    { 1, 0, -1 },
    { 1, 1, 1 },
    { 1, 1, -1 },
    { 1, -1, 1 },
    { -1, 1, 1 },
} };

/// The projections' range along each diagonal, rounded outward to single precision.
struct DiagonalBounds {
    std::array<float, DIAGONALS> low {}, high {};
};

/// Bounds of each vertex alone, at t = 0 and t = 1 (`v0` and `v1` finite).
[[nodiscard]] std::vector<DiagonalBounds>
vertex_diagonal_bounds(const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1);

/// Bounds of a primitive, merged from its vertices' bounds (indices into `vertex_bounds`, checked by the caller)
/// when a pair is tested: rounding outward commutes with min and max, so this equals rounding the primitive's
/// own bounds, and nothing per edge or face is stored (fresh memory costs more than these few comparisons).
template <std::size_t N>
[[nodiscard]] DiagonalBounds
merged(std::span<const DiagonalBounds> vertex_bounds, const std::array<std::int32_t, N>& vertices)
{
    DiagonalBounds b = vertex_bounds[static_cast<std::size_t>(vertices[0])];
    for (std::size_t j = 1; j < N; ++j) {
        const DiagonalBounds& v = vertex_bounds[static_cast<std::size_t>(vertices[j])];
        for (std::size_t k = 0; k < DIAGONALS; ++k) {
            b.low[k] = std::min(b.low[k], v.low[k]);
            b.high[k] = std::max(b.high[k], v.high[k]);
        }
    }
    return b;
}

/// True only if the two primitives never touch: their ranges are disjoint along some diagonal (strictly: bounds
/// that only touch are not apart).
[[nodiscard]] inline bool apart(const DiagonalBounds& a, const DiagonalBounds& b)
{
    bool separated = false; // no early exit: branch-free, and most pairs are settled by a few directions anyway
    for (std::size_t k = 0; k < DIAGONALS; ++k) {
        separated |= (a.high[k] < b.low[k]) | (b.high[k] < a.low[k]);
    }
    return separated;
}

} // namespace ccdkit::details
