// SPDX-License-Identifier: MIT
#include "rigid/details/rounding.hpp"

#include <ccdkit/rigid/relative_motion.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ccdkit {

RelativeMotion::RelativeMotion(const RigidMotion& moving, const RigidMotion& frame)
    : moving_(moving)
    , frame_(frame)
    , frame_turns_(frame.step_angle() != 0.0)
{
    if (moving.duration() != frame.duration()) {
        throw std::invalid_argument("relative motion: the two bodies' steps differ in length");
    }
    relative_travel_
        = details::rounded_up(((moving.linear_velocity() - frame.linear_velocity()) * moving.duration()).norm());
}

Eigen::Vector3d RelativeMotion::point_at(const Eigen::Vector3d& body_point, double s) const
{
    const Eigen::Vector3d world = moving_.point_at(body_point, s);
    return frame_.rotation_at(s).transpose() * (world - frame_.center_at(s)) + frame_.center_of_mass();
}

double RelativeMotion::center_distance_bound(double sa, double sb) const
{
    const auto gap = [&](double s) { return (moving_.center_at(s) - frame_.center_at(s)).norm(); };
    return details::rounded_up(
        std::max(gap(sa), gap(sb)) + 2.0 * moving_.point_error_bound(0.0) + 2.0 * frame_.point_error_bound(0.0));
}

double RelativeMotion::point_error_bound(double radius) const
{
    // The world position carries the moving body's error; subtracting the frame's centre adds the frame's
    // error at radius 0; turning the difference y back by the frame's rotation adds the rotation's error times
    // |y| (as point_error_bound does for an arm of length |y|) and the frame's offset m rounds once more.
    const double y = center_distance_bound(0.0, 1.0) + radius;
    const double m = frame_.center_of_mass().norm();
    return details::rounded_up(moving_.point_error_bound(radius) + frame_.point_error_bound(y + m));
}

double RelativeMotion::speed_bound(double radius, double sa, double sb) const
{
    // d/ds of R_B^T y is R_B^T (y' - w_B T x y) with y the offset from the frame's centre: |y'| <= |v_A - v_B| T
    // + |w_A| T radius, and |y| <= centre distance + radius.
    const double own = relative_travel_ + moving_.step_angle() * radius;
    const double frame_spin = frame_turns_ ? frame_.step_angle() * (center_distance_bound(sa, sb) + radius) : 0.0;
    return details::rounded_up(own + frame_spin);
}

double RelativeMotion::chord_deviation_bound(double radius, double sa, double sb) const
{
    const double width = sb - sa;
    if (!frame_turns_) {
        // A rotation about the moving body's centre plus a linear motion: the arc bound is exact.
        return arc_chord_deviation(radius, moving_.step_angle() * width);
    }
    // x'' = R_B^T (y'' - 2 w x y' + w x (w x y)) per unit s^2 with w = w_B T: |y''| <= (|w_A| T)^2 radius.
    // Interpolation error <= max |x''| width^2 / 8, and never more than width * max |x'| / 2.
    const double wa = moving_.step_angle();
    const double wb = frame_.step_angle();
    const double own_speed = relative_travel_ + wa * radius;
    const double offset = center_distance_bound(sa, sb) + radius;
    const double acceleration = wa * wa * radius + 2.0 * wb * own_speed + wb * wb * offset;
    const double by_curvature = acceleration * width * width / 8.0;
    const double by_speed = width * speed_bound(radius, sa, sb) / 2.0;
    return details::rounded_up(std::min(by_curvature, by_speed));
}

} // namespace ccdkit
