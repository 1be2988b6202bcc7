// SPDX-License-Identifier: MIT
#include <ccdkit/rigid/segment_first_hit.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ccdkit {

SegmentHit segment_first_hit(
    const ImplicitShape& shape,
    const Eigen::Vector3d& from,
    const Eigen::Vector3d& to,
    double tolerance,
    std::int64_t max_steps)
{
    if (!from.allFinite() || !to.allFinite()) {
        throw std::invalid_argument("segment first hit: an end point is not finite");
    }
    if (!std::isfinite(tolerance) || !(tolerance > 0.0)) {
        throw std::invalid_argument("segment first hit: tolerance must be finite and > 0");
    }
    if (max_steps < 1) {
        throw std::invalid_argument("segment first hit: max_steps must be >= 1");
    }
    const Eigen::Vector3d direction = to - from;
    const double length = direction.norm();
    // The computed point from + s (to - from) is within a few ulps of the magnitudes of the true one.
    const double slack = 8.0 * std::numeric_limits<double>::epsilon() * (from.norm() + to.norm());
    // A tolerance below twice that counts as twice that: every step then advances by more than the slack, at least 8
    // ulps of 1 in s (a tolerance under the slack had left steps of zero or less: the trace never ended).
    const double least = std::max(tolerance, 2.0 * slack);
    SegmentHit result;
    double s = 0.0;
    while (true) {
        const Eigen::Vector3d p = from + s * direction;
        const double clearance = shape.clearance(p) - slack;
        if (!(clearance > least)) {
            result = { true, s, p, shape.normal(p), result.steps };
            return result;
        }
        // The ball of radius `clearance` about the true point is free of the solid; stepping a little less than
        // its radius along the segment (in parameter units, rounded down) stays inside it.
        const double step = (clearance - slack) / length * (1.0 - 1e-12);
        if (!(length > 0.0) || s + step >= 1.0) {
            result.point = to;
            return result; // the rest of the segment lies in the ball
        }
        s = std::nextafter(s + step, 0.0);
        ++result.steps;
        if (result.steps >= max_steps) {
            result.fraction = s;
            result.point = from + s * direction;
            result.stopped = true;
            return result; // (nothing of the solid before s: each step stayed in a ball free of it)
        }
    }
}

} // namespace ccdkit
