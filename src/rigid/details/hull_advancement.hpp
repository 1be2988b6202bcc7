// SPDX-License-Identifier: MIT
#pragma once

// Conservative advancement of two convex hulls (Mirtich 1996): at time t the hulls of the moving body's
// vertices (in the fixed body's coordinates) and of the fixed body's vertices are separated by at least
// `sep` along the direction GJK finds, certified with an error bound; no point moves faster than L, so
// nothing can touch before t + sep / L, and t advances there. A body lies inside the hull of its vertices,
// so this time is safe for any two meshes; for convex ones it converges on the contact in a few steps.

#include "rigid/details/convex_distance.hpp"
#include "rigid/details/moving_side.hpp"
#include "rigid/details/rounding.hpp"

#include <cmath>
#include <vector>

namespace ccdkit::details {

/// Certified lower bound on the distance between the hulls of p and q: their separation along `normal`
/// (any nonzero direction), less the rounding of the dot products and of normalizing.
[[nodiscard]] inline double certified_separation(
    const std::vector<Eigen::Vector3d>& p, const std::vector<Eigen::Vector3d>& q, const Eigen::Vector3d& direction)
{
    const Eigen::Vector3d n = direction.normalized();
    double low = std::numeric_limits<double>::infinity(), high = -low, magnitude = 0.0;
    for (const auto& x : p) {
        low = std::min(low, n.dot(x));
        magnitude = std::max(magnitude, x.cwiseAbs().sum());
    }
    for (const auto& x : q) {
        high = std::max(high, n.dot(x));
        magnitude = std::max(magnitude, x.cwiseAbs().sum());
    }
    // Each dot product: at most 3 ulps of sum |n_k x_k| <= |x|_1 (|n_k| <= 1 + rounding); the difference one ulp
    // of itself; |n| within 4 ulps of 1, which the division covers.
    const double raw = low - high;
    const double bound = raw - 8.0 * UNIT_ROUNDOFF * magnitude - UNIT_ROUNDOFF * std::abs(raw) - ABSOLUTE_SLACK;
    return bound / (1.0 + 8.0 * UNIT_ROUNDOFF);
}

struct HullAdvance {
    double safe_time = 0.0; ///< nothing touches before it (t_max: nothing before t_max)
    double last_step = 0.0; ///< the length of the last step taken (0 if none)
};

/// A time before which the moving side's body cannot touch the fixed one, by conservative advancement from 0
/// with at most `max_steps` steps.
[[nodiscard]] inline HullAdvance hull_safe_time(const MovingSide& side, double t_max, double eps, int max_steps)
{
    const auto& moving = side.shape().vertices;
    const auto& fixed = side.fixed().vertices;
    std::vector<Eigen::Vector3d> p(static_cast<std::size_t>(moving.rows()));
    std::vector<Eigen::Vector3d> q(static_cast<std::size_t>(fixed.rows()));
    for (std::size_t k = 0; k < q.size(); ++k) {
        q[k] = fixed.row(static_cast<Eigen::Index>(k)).transpose();
    }
    const double rounding = side.motion().point_error_bound(side.radius());
    Eigen::Vector3d offset = Eigen::Vector3d::Zero();
    double t = 0.0;
    double last_step = 0.0;
    for (int step = 0; step < max_steps; ++step) {
        const RigidPlacement placement = side.motion().placement_at(t);
        for (std::size_t k = 0; k < p.size(); ++k) {
            p[k] = placement.apply(moving.row(static_cast<Eigen::Index>(k)).transpose());
        }
        offset = convex_hull_offset(p, q, offset);
        if (offset.squaredNorm() == 0.0) {
            return { t, last_step };
        }
        const double separation = certified_separation(p, q, offset) - rounding;
        const double speed = side.motion().speed_bound(side.radius(), t, t_max);
        if (!(separation > 0.0) || !std::isfinite(separation) || !std::isfinite(speed)) {
            return { t, last_step }; // touching now, or no finite bound to advance by
        }
        if (speed == 0.0) {
            return { t_max, last_step }; // apart and not moving relative to each other
        }
        const double next = std::nextafter(t + separation / speed * (1.0 - 4.0 * UNIT_ROUNDOFF), 0.0);
        if (next >= t_max) {
            return { t_max, last_step };
        }
        if (next - t <= eps) {
            return { std::max(t, next), next - t };
        }
        last_step = next - t;
        t = next;
    }
    return { t, last_step };
}

} // namespace ccdkit::details
