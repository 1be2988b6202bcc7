// SPDX-License-Identifier: MIT
#pragma once

// Independent references for the implicit-shape tests: the primitives' signed distances in long double
// (64-bit significand, 2^11 times finer than double, so its own rounding is negligible next to the error
// bounds under test), random points on their surfaces, and brute-force distances to point sets.

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

namespace ccdkit::testing {

using LongVector = Eigen::Matrix<long double, 3, 1>;
using ReferenceDistance = std::function<long double(const LongVector&)>;

[[nodiscard]] inline LongVector widen(const Eigen::Vector3d& x) { return x.cast<long double>(); }

[[nodiscard]] inline ReferenceDistance sphere_distance(long double r)
{
    return [r](const LongVector& x) { return x.norm() - r; };
}

[[nodiscard]] inline ReferenceDistance box_distance(const LongVector& h)
{
    return [h](const LongVector& x) {
        const LongVector q = x.cwiseAbs() - h;
        return q.cwiseMax(0.0L).norm() + std::min(q.maxCoeff(), 0.0L);
    };
}

[[nodiscard]] inline ReferenceDistance capsule_distance(long double r, long double a)
{
    return
        [r, a](const LongVector& x) { return LongVector(x.x(), x.y(), x.z() - std::clamp(x.z(), -a, a)).norm() - r; };
}

[[nodiscard]] inline ReferenceDistance torus_distance(long double major, long double minor)
{
    return [major, minor](const LongVector& x) {
        const long double rho = std::sqrt(x.x() * x.x() + x.y() * x.y());
        return std::sqrt((rho - major) * (rho - major) + x.z() * x.z()) - minor;
    };
}

/// A random point on a surface and the unit outward normal there.
struct SurfacePoint {
    Eigen::Vector3d point;
    Eigen::Vector3d normal;
};
using SurfaceGenerator = std::function<SurfacePoint(std::mt19937_64&)>;

[[nodiscard]] inline Eigen::Vector3d random_direction(std::mt19937_64& rng)
{
    std::normal_distribution<double> gauss;
    Eigen::Vector3d d(gauss(rng), gauss(rng), gauss(rng));
    return d.normalized();
}

[[nodiscard]] inline SurfaceGenerator sphere_surface(double r)
{
    return [r](std::mt19937_64& rng) {
        const Eigen::Vector3d n = random_direction(rng);
        return SurfacePoint { r * n, n };
    };
}

[[nodiscard]] inline SurfaceGenerator box_surface(const Eigen::Vector3d& h)
{
    return [h](std::mt19937_64& rng) {
        std::uniform_real_distribution<double> unit(-1.0, 1.0);
        const int axis = std::uniform_int_distribution<int>(0, 2)(rng);
        const double side = unit(rng) < 0 ? -1.0 : 1.0;
        Eigen::Vector3d p(unit(rng) * h.x(), unit(rng) * h.y(), unit(rng) * h.z());
        p[axis] = side * h[axis];
        return SurfacePoint { p, side * Eigen::Vector3d::Unit(axis) };
    };
}

[[nodiscard]] inline SurfaceGenerator capsule_surface(double r, double a)
{
    return [r, a](std::mt19937_64& rng) {
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        const Eigen::Vector3d n = random_direction(rng);
        if (unit(rng) < 0.5) { // on the cylinder
            const Eigen::Vector3d radial = Eigen::Vector3d(n.x(), n.y(), 0.0).normalized();
            return SurfacePoint { r * radial + (2 * unit(rng) - 1) * a * Eigen::Vector3d::UnitZ(), radial };
        }
        return SurfacePoint { r * n + std::copysign(a, n.z()) * Eigen::Vector3d::UnitZ(), n };
    };
}

[[nodiscard]] inline SurfaceGenerator torus_surface(double major, double minor)
{
    return [major, minor](std::mt19937_64& rng) {
        std::uniform_real_distribution<double> angle(0.0, 2 * std::numbers::pi);
        const double theta = angle(rng), phi = angle(rng);
        const Eigen::Vector3d radial(std::cos(theta), std::sin(theta), 0.0);
        const Eigen::Vector3d n = std::cos(phi) * radial + std::sin(phi) * Eigen::Vector3d::UnitZ();
        return SurfacePoint { major * radial + minor * n, n };
    };
}

/// The smallest distance from x to the points, in long double.
[[nodiscard]] inline long double
distance_to_points(const Eigen::Vector3d& x, const std::vector<Eigen::Vector3d>& points)
{
    long double best = std::numeric_limits<long double>::infinity();
    const LongVector wide = widen(x);
    for (const Eigen::Vector3d& p : points) {
        best = std::min(best, (wide - widen(p)).squaredNorm());
    }
    return std::sqrt(best);
}

} // namespace ccdkit::testing
