// SPDX-License-Identifier: MIT
#pragma once

#include "narrow/details/simplex_intersection.hpp"

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <array>
#include <random>

namespace ccdkit::test_support {

/// The exact test (SimplexIntersection, without its filter) on the closed segment (points 0, 1) and the closed
/// triangle (points 2 to 4): the reference for the certain shortcuts taken before it.
[[nodiscard]] inline bool segment_meets_triangle_exactly(const std::array<Eigen::Vector3d, 5>& points)
{
    const auto simplex_of = [&](std::size_t first, int size) {
        details::Simplex simplex;
        simplex.size = size;
        for (int k = 0; k < size; ++k) {
            const Eigen::Vector3d& p = points[first + static_cast<std::size_t>(k)];
            simplex.vertex[static_cast<std::size_t>(k)].x = { p.x(), p.y(), p.z(), 0.0 };
        }
        return simplex;
    };
    details::SimplexIntersection intersection(3, false);
    return intersection.intersect(simplex_of(0, 2), simplex_of(2, 3));
}

/// Where random_segment_triangle() puts the five points.
enum class SegmentTriangleKind {
    GRID_PLANE, ///< exactly in a plane z = c, on a coarse grid: touching, collinear overlaps, exact zeros
    ROUNDED_PLANE, ///< in a tilted plane, rounded off it (as resting bodies' posed faces are)
    NEAR_PLANE, ///< up to 1e-12 off a tilted plane, either side
    GENERAL, ///< anywhere in the cube |x| < 0.9
};

/// A random segment (points 0, 1) and triangle (2 to 4) of the kind given; trial numbers divisible by 50 make the
/// segment a point, by 70 collapse the triangle's last side, by 90 start the segment at a corner.
[[nodiscard]] inline std::array<Eigen::Vector3d, 5>
random_segment_triangle(std::mt19937_64& rng, SegmentTriangleKind kind, int trial)
{
    std::uniform_int_distribution<int> grid(-4, 4);
    std::uniform_real_distribution<double> uniform(-0.9, 0.9);
    const Eigen::Vector3d u = Eigen::Vector3d(uniform(rng), uniform(rng), uniform(rng)).normalized() * 0.6;
    const Eigen::Vector3d v = u.cross(Eigen::Vector3d(uniform(rng), uniform(rng), uniform(rng))).normalized() * 0.6;
    const Eigen::Vector3d normal = u.cross(v).normalized();
    std::array<Eigen::Vector3d, 5> points;
    for (auto& p : points) {
        switch (kind) {
        case SegmentTriangleKind::GRID_PLANE:
            p = Eigen::Vector3d(grid(rng) / 8.0, grid(rng) / 8.0, 0.25);
            break;
        case SegmentTriangleKind::ROUNDED_PLANE:
            p = u * uniform(rng) + v * uniform(rng);
            break;
        case SegmentTriangleKind::NEAR_PLANE:
            p = u * uniform(rng) + v * uniform(rng) + normal * (1e-12 * uniform(rng));
            break;
        case SegmentTriangleKind::GENERAL:
            p = Eigen::Vector3d(uniform(rng), uniform(rng), uniform(rng));
            break;
        }
    }
    if (trial % 50 == 0) {
        points[1] = points[0];
    }
    if (trial % 70 == 0) {
        points[4] = points[3];
    }
    if (trial % 90 == 0) {
        points[0] = points[2];
    }
    return points;
}

} // namespace ccdkit::test_support
