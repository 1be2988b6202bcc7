// SPDX-License-Identifier: MIT
#pragma once

// The motion of a rigid body over one time step: constant linear velocity of its centre of mass and constant
// angular velocity, the motion a rigid-body integrator assumes within a step. A body-fixed point u (body
// coordinates) is at
//
//     p(s, u) = c0 + s T v + exp(s T [w]) R0 (u - m),    s in [0, 1] the fraction of the step, T its length,
//
// where m is the centre of mass in body coordinates, R0 the rotation at s = 0, c0 = R0 m + translation0 the
// centre of mass in world coordinates, v the linear and w the angular velocity (world frame). The rotation is
// exact (Rodrigues' formula for exp), not integrated, so a body may turn by any angle in one step.
//
// Every evaluation in double comes with a bound on its rounding error (point_error_bound), and
// chord_deviation_bound() bounds how far a point's arc strays from the straight chord between its positions
// at two times: with both, a caller can enclose the true trajectory rigorously (Shell & Drumwright 2009).

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace ccdkit {

/// A placement: world = rotation * body + translation.
struct RigidPose {
    Eigen::Quaterniond rotation = Eigen::Quaterniond::Identity(); ///< normalized by RigidMotion
    Eigen::Vector3d translation = Eigen::Vector3d::Zero();
};

/// Where a body's points are at one time: x = rotation (u - center) + translation.
struct RigidPlacement {
    Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
    Eigen::Vector3d center = Eigen::Vector3d::Zero();
    Eigen::Vector3d translation = Eigen::Vector3d::Zero();

    [[nodiscard]] Eigen::Vector3d apply(const Eigen::Vector3d& u) const
    {
        return rotation * (u - center) + translation;
    }
};

/// Constant linear and angular velocity over a step; see the file comment for the formula.
class RigidMotion {
public:
    /// At rest at the identity pose.
    RigidMotion() = default;

    /// @param start pose at s = 0 (its rotation is normalized; a zero quaternion is an error)
    /// @param linear_velocity velocity of the centre of mass, world frame, units per unit of time
    /// @param angular_velocity world frame, radians per unit of time, right-handed about its direction
    /// @param duration T > 0, the step's length in units of time
    /// @param center_of_mass m, body coordinates; the body turns about it
    /// @throws std::invalid_argument for a non-finite value, a zero quaternion, duration <= 0, or a velocity, step
    ///         displacement, step angle or centre of mass beyond 1e150 in magnitude (the message names which)
    RigidMotion(
        const RigidPose& start,
        const Eigen::Vector3d& linear_velocity,
        const Eigen::Vector3d& angular_velocity,
        double duration = 1.0,
        const Eigen::Vector3d& center_of_mass = Eigen::Vector3d::Zero());

    /// The constant-velocity motion from `start` to `end` over `duration`: the rotation turns by the
    /// smaller angle (at most pi; for exactly pi either sense), the centre of mass moves on a straight line.
    /// pose_at(1) equals `end` within rounding.
    /// @throws std::invalid_argument as the constructor does
    [[nodiscard]] static RigidMotion between(
        const RigidPose& start,
        const RigidPose& end,
        double duration = 1.0,
        const Eigen::Vector3d& center_of_mass = Eigen::Vector3d::Zero());

    /// The same motion with its start translation moved by `offset` (the sum as rounded: the motion moved by exactly
    /// `offset` where each sum is exact). Precondition: the sums within 1e150 in magnitude.
    [[nodiscard]] RigidMotion translated(const Eigen::Vector3d& offset) const;

    /// Pose at fraction s of the step (s outside [0, 1] extrapolates).
    [[nodiscard]] RigidPose pose_at(double s) const;
    /// World position of body point u at fraction s.
    [[nodiscard]] Eigen::Vector3d point_at(const Eigen::Vector3d& body_point, double s) const;
    /// Rotation matrix at fraction s (body to world).
    [[nodiscard]] Eigen::Matrix3d rotation_at(double s) const;
    /// Centre of mass in world coordinates at fraction s.
    [[nodiscard]] Eigen::Vector3d center_at(double s) const;
    /// The map from body to world coordinates at fraction s (point_at for many points; same error bound).
    [[nodiscard]] RigidPlacement placement_at(double s) const
    {
        return { rotation_at(s), center_of_mass_, center_at(s) };
    }

    /// Bound on |point_at(u, s) - p(s, u)| (computed minus exact) for every s in [0, 1], for every body point
    /// within distance `radius` of the centre of mass.
    [[nodiscard]] double point_error_bound(double radius) const;

    /// Angle turned over the whole step, |w| T (radians, any size).
    [[nodiscard]] double step_angle() const { return step_angle_; }
    /// Distance the centre of mass moves over the whole step, |v| T.
    [[nodiscard]] double step_travel() const { return step_travel_; }
    /// Unit rotation axis (x axis when the body does not turn).
    [[nodiscard]] const Eigen::Vector3d& axis() const { return axis_; }
    [[nodiscard]] const Eigen::Vector3d& center_of_mass() const { return center_of_mass_; }
    [[nodiscard]] const Eigen::Vector3d& linear_velocity() const { return linear_velocity_; }
    [[nodiscard]] const Eigen::Vector3d& angular_velocity() const { return angular_velocity_; }
    [[nodiscard]] double duration() const { return duration_; }
    [[nodiscard]] const RigidPose& start() const { return start_; }

private:
    RigidPose start_;
    Eigen::Matrix3d start_rotation_ = Eigen::Matrix3d::Identity();
    Eigen::Vector3d center_of_mass_ = Eigen::Vector3d::Zero();
    Eigen::Vector3d start_center_ = Eigen::Vector3d::Zero(); ///< c0, world
    Eigen::Vector3d linear_velocity_ = Eigen::Vector3d::Zero();
    Eigen::Vector3d angular_velocity_ = Eigen::Vector3d::Zero();
    Eigen::Vector3d step_displacement_ = Eigen::Vector3d::Zero(); ///< T v
    Eigen::Vector3d axis_ = Eigen::Vector3d::UnitX();
    double duration_ = 1.0;
    double step_angle_ = 0.0;
    double step_travel_ = 0.0;
};

/// Bound on the distance between the arc of a point turning by `angle` radians over an interval about an axis
/// at distance `radius`, and the chord between its two ends, compared at equal times: the true position at
/// fraction l of the interval is within this of (1 - l) start + l end. The bound is radius * min(angle^2 / 8, 2)
/// (interpolation error of a curve with |second derivative| <= radius angle^2, and at most one diameter): it
/// covers every angle, pi and beyond (Shell & Drumwright's nu). The true maximum, radius (1 - cos(angle / 2))
/// up to 2 pi, is at most 1.42 times smaller. A linear motion added to the turning cancels (the chord follows
/// it), so this bounds a rigid motion's arcs. Rounded up.
[[nodiscard]] double arc_chord_deviation(double radius, double angle);

} // namespace ccdkit
