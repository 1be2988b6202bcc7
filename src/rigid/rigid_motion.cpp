// SPDX-License-Identifier: MIT
#include "rigid/details/rounding.hpp"
#include "rigid/details/wide_range_length.hpp"

#include <ccdkit/rigid/rigid_motion.hpp>

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace ccdkit {

namespace {

    void require_finite(const Eigen::Vector3d& x, const char* what)
    {
        if (!x.allFinite()) {
            throw std::invalid_argument(std::string("rigid motion: ") + what + " is not finite");
        }
    }

    Eigen::Quaterniond normalized_rotation(const Eigen::Quaterniond& q, const char* what)
    {
        if (!q.coeffs().allFinite()) {
            throw std::invalid_argument(std::string("rigid motion: ") + what + " rotation is not finite");
        }
        if (!(q.coeffs().cwiseAbs().maxCoeff() > 0.0)) {
            throw std::invalid_argument(std::string("rigid motion: ") + what + " rotation is a zero quaternion");
        }
        // (direction_of: q.norm() of components near 1e300 overflowed, and the quaternion divided down to zero turned
        // nothing; of components near 1e-170 it underflowed, "a zero quaternion".)
        return Eigen::Quaterniond(details::unit_direction<4>(q.coeffs()));
    }

} // namespace

RigidMotion::RigidMotion(
    const RigidPose& start,
    const Eigen::Vector3d& linear_velocity,
    const Eigen::Vector3d& angular_velocity,
    double duration,
    const Eigen::Vector3d& center_of_mass)
    : start_ { normalized_rotation(start.rotation, "start"), start.translation }
    , center_of_mass_(center_of_mass)
    , linear_velocity_(linear_velocity)
    , angular_velocity_(angular_velocity)
    , duration_(duration)
{
    require_finite(start.translation, "start translation");
    require_finite(linear_velocity, "linear velocity");
    require_finite(angular_velocity, "angular velocity");
    require_finite(center_of_mass, "centre of mass");
    if (!std::isfinite(duration) || !(duration > 0.0)) {
        throw std::invalid_argument("rigid motion: duration must be finite and > 0, got " + std::to_string(duration));
    }
    start_rotation_ = start_.rotation.toRotationMatrix();
    start_center_ = start_rotation_ * center_of_mass_ + start_.translation;
    step_displacement_ = linear_velocity_ * duration_;
    step_travel_ = step_displacement_.norm();
    const double speed = angular_velocity_.norm();
    step_angle_ = speed * duration_;
    if (speed > 0.0) {
        axis_ = angular_velocity_ / speed;
    }
    // Each quantity the bounds multiply, named with its value (a scene's duration of 1e308 shows as the step).
    const auto require_within_range = [](double magnitude, const char* what) {
        if (!(magnitude <= details::MAX_COORDINATE)) {
            std::ostringstream message;
            message << "rigid motion: " << what << " is " << magnitude
                    << " in magnitude, beyond 1e150 (the bounds would overflow)";
            throw std::invalid_argument(message.str());
        }
    };
    const auto largest = [](const Eigen::Vector3d& x) { return x.cwiseAbs().maxCoeff(); };
    // (The velocities first: beyond about 1e154 their norms are infinite.)
    require_within_range(largest(linear_velocity_), "the linear velocity");
    require_within_range(largest(angular_velocity_), "the angular velocity");
    require_within_range(largest(step_displacement_), "the step's displacement (linear velocity times duration)");
    require_within_range(step_angle_, "the step's angle (angular speed times duration)");
    require_within_range(largest(center_of_mass_), "the centre of mass");
    require_within_range(
        largest(start_center_), "the centre of mass at the start (its position plus the rotated centre)");
}

RigidMotion RigidMotion::between(
    const RigidPose& start, const RigidPose& end, double duration, const Eigen::Vector3d& center_of_mass)
{
    const Eigen::Quaterniond q0 = normalized_rotation(start.rotation, "start");
    const Eigen::Quaterniond q1 = normalized_rotation(end.rotation, "end");
    require_finite(end.translation, "end translation");
    if (!std::isfinite(duration) || !(duration > 0.0)) {
        throw std::invalid_argument("rigid motion: duration must be finite and > 0, got " + std::to_string(duration));
    }
    Eigen::Quaterniond turn = q1 * q0.conjugate();
    if (turn.w() < 0.0) {
        turn.coeffs() = -turn.coeffs(); // the same rotation; w >= 0 picks the angle <= pi
    }
    const double sine_half = turn.vec().norm();
    Eigen::Vector3d angular = Eigen::Vector3d::Zero();
    if (sine_half > 0.0) {
        const double angle = 2.0 * std::atan2(sine_half, turn.w());
        angular = turn.vec() * (angle / (sine_half * duration));
    }
    const Eigen::Vector3d c0 = q0.toRotationMatrix() * center_of_mass + start.translation;
    const Eigen::Vector3d c1 = q1.toRotationMatrix() * center_of_mass + end.translation;
    return RigidMotion(start, (c1 - c0) / duration, angular, duration, center_of_mass);
}

RigidMotion RigidMotion::translated(const Eigen::Vector3d& offset) const
{
    RigidMotion out = *this;
    out.start_.translation += offset;
    out.start_center_ = out.start_rotation_ * out.center_of_mass_ + out.start_.translation; // (as the constructor)
    return out;
}

Eigen::Matrix3d RigidMotion::rotation_at(double s) const
{
    if (step_angle_ == 0.0 || s == 0.0) {
        return start_rotation_; // (at s = 0 the turn below is the identity: the same matrix, without a sine)
    }
    // The turn by s |w| T about the axis composed with the start as unit quaternions, then one matrix: fewer
    // operations than the turn's matrix times the start's (the product of two unit quaternions is unit to a few ulps).
    const double half = 0.5 * (s * step_angle_);
    const double sine = std::sin(half);
    const Eigen::Quaterniond turn(std::cos(half), sine * axis_.x(), sine * axis_.y(), sine * axis_.z());
    return (turn * start_.rotation).toRotationMatrix();
}

Eigen::Vector3d RigidMotion::center_at(double s) const { return start_center_ + s * step_displacement_; }

RigidPose RigidMotion::pose_at(double s) const
{
    const Eigen::Matrix3d rotation = rotation_at(s);
    return { Eigen::Quaterniond(rotation), center_at(s) - rotation * center_of_mass_ };
}

Eigen::Vector3d RigidMotion::point_at(const Eigen::Vector3d& body_point, double s) const
{
    Eigen::Vector3d arm = start_rotation_ * (body_point - center_of_mass_);
    if (step_angle_ != 0.0) {
        arm = Eigen::AngleAxisd(s * step_angle_, axis_) * arm;
    }
    return center_at(s) + arm;
}

double RigidMotion::point_error_bound(double radius) const
{
    // Rounding of the arm (R0 (u - m): the normalized quaternion's matrix, a difference, a product) and of the
    // turn (the angle s |w| T and the unit axis carry a few ulps each, Rodrigues' formula a few more): a few
    // dozen ulps of the arm per radian turned plus a constant; of the centre (R0 m + t0 + s T v) a few ulps of
    // its terms. ARM_ULPS and CENTER_ULPS are generous multiples of those counts.
    constexpr double ARM_ULPS = 64.0;
    constexpr double CENTER_ULPS = 16.0;
    const double center_terms = start_rotation_.norm() * center_of_mass_.norm() + start_.translation.norm()
        + start_center_.norm() + step_travel_;
    const double bound
        = details::UNIT_ROUNDOFF * (ARM_ULPS * (1.0 + step_angle_) * radius + CENTER_ULPS * (center_terms + radius));
    return details::rounded_up(bound + details::ABSOLUTE_SLACK);
}

double arc_chord_deviation(double radius, double angle)
{
    const double bound = radius * std::min(angle * angle / 8.0, 2.0);
    return details::rounded_up(bound);
}

} // namespace ccdkit
