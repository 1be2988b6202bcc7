// SPDX-License-Identifier: MIT
#pragma once

// A set of points that answers whether any lies within a distance of a query point, in a hash grid: the cost of a
// query grows with the points near it, not with all of them (a face-to-face contact can leave a million regions).

#include "rigid/details/wide_range_length.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ccdkit::details {

class NearPoints {
public:
    /// Queries ask for distances of up to `spacing` (the grid's cell size; any positive spacing is correct for
    /// queries up to it, a non-positive one is taken as 1).
    explicit NearPoints(double spacing)
        : cell_(spacing > 0.0 && std::isfinite(spacing) ? spacing : 1.0)
    {
    }

    void insert(const Eigen::Vector3d& p)
    {
        points_.push_back(p);
        cells_[cell_of(p)].push_back(points_.size() - 1);
    }

    /// Whether some point lies within `distance` (at most the spacing) of p: two such points lie in the same or
    /// neighbouring cells.
    [[nodiscard]] bool any_within(const Eigen::Vector3d& p, double distance) const
    {
        const Cell c = cell_of(p);
        for (std::int64_t dx = -1; dx <= 1; ++dx) {
            for (std::int64_t dy = -1; dy <= 1; ++dy) {
                for (std::int64_t dz = -1; dz <= 1; ++dz) {
                    const auto found = cells_.find({ c[0] + dx, c[1] + dy, c[2] + dz });
                    if (found == cells_.end()) {
                        continue;
                    }
                    for (const std::size_t k : found->second) {
                        // (norm()'s squares underflow for points under about 1e-154 apart, all of which would
                        // then count as within any distance)
                        if (length_of(points_[k] - p) <= distance) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

private:
    using Cell = std::array<std::int64_t, 3>;
    struct CellHash {
        std::size_t operator()(const Cell& c) const
        {
            const auto mix = [](std::uint64_t h, std::int64_t x) {
                return (h ^ static_cast<std::uint64_t>(x)) * 0x100000001b3ULL; // FNV-1a style
            };
            return static_cast<std::size_t>(mix(mix(mix(0xcbf29ce484222325ULL, c[0]), c[1]), c[2]));
        }
    };

    /// The cell holding p. Coordinates are clamped far inside int64's range (clamping is monotone and moves
    /// neighbouring indices no farther apart, so points within a cell's size stay in neighbouring cells; a huge
    /// coordinate over a tiny spacing only crowds the outermost cells), NaN to 0.
    [[nodiscard]] Cell cell_of(const Eigen::Vector3d& p) const
    {
        constexpr double LIMIT = 4.0e18;
        Cell out {};
        for (Eigen::Index d = 0; d < 3; ++d) {
            const double q = std::floor(p[d] / cell_);
            out[static_cast<std::size_t>(d)] = q == q ? static_cast<std::int64_t>(std::clamp(q, -LIMIT, LIMIT)) : 0;
        }
        return out;
    }

    double cell_;
    std::vector<Eigen::Vector3d> points_;
    std::unordered_map<Cell, std::vector<std::size_t>, CellHash> cells_;
};

} // namespace ccdkit::details
