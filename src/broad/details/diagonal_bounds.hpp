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

/// Floats stored per side: the diagonals padded to a multiple of four, so that merging and comparing bounds
/// compile to a few vector instructions. A padding lane spans everything (-inf, +inf) and separates nothing.
inline constexpr std::size_t DIAGONAL_LANES = 12;

/// The projections' range along each diagonal, rounded outward to single precision.
struct DiagonalBounds {
    using Lanes = Eigen::Array<float, DIAGONAL_LANES, 1>; ///< fixed size: Eigen keeps it in vector registers
    Lanes low = Lanes::Zero(), high = Lanes::Zero();
};

/// Bounds of each vertex alone, at t = 0 and t = 1 (`v0` and `v1` finite), into `bounds` (one per row).
void vertex_diagonal_bounds(const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1, std::span<DiagonalBounds> bounds);

[[nodiscard]] inline std::vector<DiagonalBounds>
vertex_diagonal_bounds(const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1)
{
    std::vector<DiagonalBounds> bounds(static_cast<std::size_t>(v0.rows()));
    vertex_diagonal_bounds(v0, v1, bounds);
    return bounds;
}

/// Bounds of a primitive, merged from its vertices' bounds (indices into `vertex_bounds`, checked by the caller)
/// when a pair is tested: rounding outward commutes with min and max, so this equals rounding the primitive's
/// own bounds, and nothing per edge or face is stored (fresh memory costs more than these few comparisons).
/// Always inlined: called out of line, the bounds go through memory and the test costs twice as much.
template <std::size_t N>
[[nodiscard, gnu::always_inline]] inline DiagonalBounds
merged(std::span<const DiagonalBounds> vertex_bounds, const std::array<std::int32_t, N>& vertices)
{
    DiagonalBounds b = vertex_bounds[static_cast<std::size_t>(vertices[0])];
    for (std::size_t j = 1; j < N; ++j) {
        const DiagonalBounds& v = vertex_bounds[static_cast<std::size_t>(vertices[j])];
        b.low = b.low.min(v.low);
        b.high = b.high.max(v.high);
    }
    return b;
}

/// True only if the two primitives never touch: their ranges are disjoint along some diagonal (strictly: bounds
/// that only touch are not apart).
[[nodiscard, gnu::always_inline]] inline bool apart(const DiagonalBounds& a, const DiagonalBounds& b)
{
    // Disjoint along a diagonal iff the overlap of the two ranges ends below where it starts. A difference of
    // floats has the sign of the exact difference (zero only for equal floats; overflow keeps the sign) and is
    // never NaN here: highs are > -inf and lows < +inf. One vector reduction instead of a branch per lane.
    const DiagonalBounds::Lanes overlap = a.high.min(b.high) - a.low.max(b.low);
    return overlap.minCoeff() < 0.0F;
}

} // namespace ccdkit::details
