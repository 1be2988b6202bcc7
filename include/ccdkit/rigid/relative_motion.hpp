// SPDX-License-Identifier: MIT
#pragma once

// One rigid body's points seen from another body's coordinates while both move over the same step. In the
// frame body's coordinates that body stands still, so its geometry (and its bounding hierarchy) is built once
// and every query moves only the other body. When the frame body does not turn, the relative motion is again
// a rotation plus a translation and its arcs are bounded exactly as in arc_chord_deviation(); when it turns,
// the bound comes from the relative acceleration (see chord_deviation_bound).

#include <ccdkit/rigid/rigid_motion.hpp>

#include <Eigen/Core>

namespace ccdkit {

class RelativeMotion {
public:
    /// Body points of `moving` in the body coordinates of `frame`.
    /// @throws std::invalid_argument if the two steps differ in length
    RelativeMotion(const RigidMotion& moving, const RigidMotion& frame);

    /// Position of `moving`'s body point u in `frame`'s body coordinates at fraction s of the step.
    [[nodiscard]] Eigen::Vector3d point_at(const Eigen::Vector3d& body_point, double s) const
    {
        return placement_at(s).apply(body_point);
    }
    /// The map from `moving`'s body coordinates to `frame`'s at fraction s (point_at for many points).
    [[nodiscard]] RigidPlacement placement_at(double s) const;

    /// Bound on |point_at(u, s) - exact| (or placement_at(s).apply(u)) for s in [0, 1] and every body point u within
    /// `radius` of the moving body's centre of mass.
    [[nodiscard]] double point_error_bound(double radius) const;

    /// Bound, for every body point within `radius` of the moving body's centre of mass and every s in [sa, sb],
    /// on the distance between its exact position and (1 - l) p(sa) + l p(sb), l = (s - sa) / (sb - sa), with
    /// p the exact positions. Add point_error_bound() where computed end positions stand in for exact ones.
    [[nodiscard]] double chord_deviation_bound(double radius, double sa, double sb) const;

    /// Bound on |p(s) - p(s')| / |s - s'| for s, s' in [sa, sb], for body points within `radius` of the moving
    /// body's centre of mass (a speed per unit fraction of the step).
    [[nodiscard]] double speed_bound(double radius, double sa, double sb) const;

    [[nodiscard]] const RigidMotion& moving() const { return moving_; }
    [[nodiscard]] const RigidMotion& frame() const { return frame_; }

private:
    /// Largest distance between the two centres of mass over [sa, sb] (at an end: it is convex in s).
    [[nodiscard]] double center_distance_bound(double sa, double sb) const;

    RigidMotion moving_;
    RigidMotion frame_;
    bool frame_turns_ = false;
    double relative_travel_ = 0.0; ///< |v_moving - v_frame| T
};

} // namespace ccdkit
