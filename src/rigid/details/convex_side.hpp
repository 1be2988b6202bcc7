// SPDX-License-Identifier: MIT
#pragma once

// A convex body's vertices placed in world coordinates at a time of the step (ConvexSide), and the terms of the
// lower bounds on their heights along a direction a fraction of the step later (SeparationTerms), which
// SeparationModel (separation_model.hpp) combines into the conservative advancement's bound (convex_contact.cpp).

#include "rigid/details/branch_free.hpp"
#include "rigid/details/mesh_shape_data.hpp"
#include "rigid/details/rounding.hpp"
#include "rigid/details/turning_height_bound.hpp"

#include <ccdkit/rigid/rigid_contact.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory_resource>
#include <span>
#include <vector>

namespace ccdkit::details {

/// One body's vertices along a direction n (towards the other body) at the placed time, the terms of a lower
/// bound on each height a fraction s of the step later. Exactly (RigidMotion's formula: the arm turns about the
/// axis by x = |w| s), n.x(s) = height + s rate + A (cos x - 1) + B (sin x - x), with A = n.arm_perp (the arm
/// less its part along the axis) and B |w| = n.(w x arm). As cos x - 1 >= -x^2 / 2 and sin x - x >= -x^3 / 6
/// (x >= 0), n.x(s) >= height + s rate - bend s^2 - twist s^3, concave, with bend = |w|^2 max(A, 0) / 2 and
/// twist = |w|^2 max(|w| B, 0) / 6: only the points that the turn carries towards the other body pay. Where
/// A < 0 the turn lifts the point away (A (cos x - 1) = lift (1 - cos x) >= 0, lift = -A), which
/// SeparationModel uses through a tangent. Where B < 0 the turn carries the point towards the other body and
/// that approach slows by at least relief s^3 (1 - x^2 / 20) (turning_height_bound.hpp), also through a tangent:
/// a twist holds twist - relief (one of them is 0), negative for a relief, plus any part common to the side
/// (Side::common_twist).
struct SeparationTerms {
    std::span<double> heights, rates, bends, twists, lifts;
};
/// What SeparationModel needs of a side's terms beyond the arrays.
struct SeparationSummary {
    double largest_rate; ///< the largest |rate|
    double lowest; ///< the lowest height
    double lowest_rate; ///< the least rate among the vertices at the lowest height
    double curvature; ///< ConvexSide::curvature along the direction
    double largest_relief = 0.0; ///< the largest relief (SeparationTerms), written with the terms

    /// The summary of a side's heights and rates as written, with `curvature`. Plain minima and maxima, then the
    /// rates at the lowest height selected without a branch (branch_free.hpp): which vertex is lowest follows no
    /// pattern, and a comparison that chose it would have to wait on the previous one.
    static SeparationSummary of(std::span<const double> heights, std::span<const double> rates, double curvature)
    {
        double largest_rate = 0.0, lowest = std::numeric_limits<double>::infinity();
        for (std::size_t k = 0; k < heights.size(); ++k) {
            largest_rate = std::max(largest_rate, std::abs(rates[k]));
            lowest = std::min(lowest, heights[k]);
        }
        double lowest_rate = std::numeric_limits<double>::infinity();
        for (std::size_t k = 0; k < heights.size(); ++k) {
            lowest_rate = std::min(
                lowest_rate, select(heights[k] == lowest, rates[k], std::numeric_limits<double>::infinity()));
        }
        return { largest_rate, lowest, lowest_rate, curvature };
    }
};

/// One body's vertices in world coordinates at one time, with what the advancement bound needs, and at a
/// second time (the probe).
class ConvexSide {
public:
    ConvexSide(const RigidBody& body, std::pmr::memory_resource* arena)
        : body_(body)
        , storage_(4 * static_cast<std::size_t>(body.shape.mesh_data().vertices.rows()), arena)
        , local_(vertex_array(0))
        , points_(vertex_array(1))
        , arms_(vertex_array(2))
        , probe_points_(vertex_array(3))
        , travel_(body.motion.linear_velocity() * body.motion.duration())
        , spin_(body.motion.angular_velocity() * body.motion.duration())
        , spin_length_(spin_.norm())
        , spin_axis_(spin_.normalized())
        , spin_norm_(rounded_up(spin_length_))
    {
        // The vertices about the centre of mass, as RigidPlacement::apply forms them (the same bits).
        const auto& vertices = body.shape.mesh_data().vertices;
        const Eigen::Vector3d& center = body.motion.center_of_mass();
        // The largest norm is the root of the largest square (the square root rounds monotonically): one root.
        double radius_squared = 0.0;
        for (std::size_t k = 0; k < local_.size(); ++k) {
            // (Formed in registers, then stored: read back from memory, the store would stall the load.)
            const Eigen::Vector3d local = vertices.row(static_cast<Eigen::Index>(k)).transpose() - center;
            local_[k] = local;
            radius_squared = std::max(radius_squared, local.squaredNorm());
        }
        radius_ = rounded_up(std::sqrt(radius_squared));
        error_ = body.motion.point_error_bound(radius_);
        // The rate n.(d + w x arm) is computed from rounded n, d, w and an arm within 2 error_ of the exact
        // one (the arm's rounding is part of what point_error_bound covers, the centre's the rest): a few
        // ulps of |d| + |w| |arm| (32 is generous) plus |w| times the arm's error.
        rate_error_
            = rounded_up(2.0 * spin_norm_ * error_ + 32.0 * UNIT_ROUNDOFF * (travel_.norm() + spin_norm_ * radius_));
    }

    /// Not copied: the arrays are views of storage_.
    ConvexSide(const ConvexSide&) = delete;
    ConvexSide& operator=(const ConvexSide&) = delete;

    /// Places the vertices (and their arms about the centre of mass) at fraction s of the step, as
    /// RigidPlacement::apply does; and the largest |x|_1 of them.
    void place(double s)
    {
        if (placed_ && (still_ || s == placed_at_)) {
            return; // placed already (a body at rest is placed the same, the same bits, at every time)
        }
        placed_ = true;
        placed_at_ = s;
        const RigidPlacement placement = body_.motion.placement_at(s);
        center_ = placement.translation;
        // (In registers: a member, stored through each point's store, would carry the loop through memory.)
        double magnitude = 0.0;
        for (std::size_t k = 0; k < local_.size(); ++k) {
            const Eigen::Vector3d arm = placement.rotation * local_[k];
            const Eigen::Vector3d point = arm + placement.translation;
            arms_[k] = arm;
            points_[k] = point;
            magnitude = std::max(magnitude, point.cwiseAbs().sum());
        }
        magnitude_ = magnitude;
    }
    /// Places the vertices at fraction s into probe_points() (points() stay).
    void place_probe(double s)
    {
        if (still_ && placed_) {
            std::copy(points_.begin(), points_.end(), probe_points_.begin());
            probe_rotation_ = body_.motion.rotation_at(0.0); // (still: the start's, without a sine)
            return;
        }
        const RigidPlacement placement = body_.motion.placement_at(s);
        for (std::size_t k = 0; k < local_.size(); ++k) {
            probe_points_[k] = placement.rotation * local_[k] + placement.translation;
        }
        probe_rotation_ = placement.rotation;
    }

    /// Bound on |n.x''| for every body point x and a direction |n| <= 1 + 4 ulps, from `across` = n x w (the
    /// same bits along -n): |n x w| |w| radius (the cross product's cancellation covered by a few ulps of |w| |n|).
    [[nodiscard]] double curvature(const Eigen::Vector3d& across_spin) const
    {
        const double across = across_spin.norm() + 8.0 * UNIT_ROUNDOFF * spin_norm_;
        return rounded_up(across * spin_norm_ * radius_);
    }
    /// n.x' at the placed time for vertex k.
    [[nodiscard]] double rate(const Eigen::Vector3d& n, std::size_t k) const
    {
        return n.dot(travel_ + spin_.cross(arms_[k]));
    }
    /// Every vertex's terms of the bound on its height along n a fraction s of the step after the placed time
    /// (SeparationTerms), in one pass over the vertices; with the largest |rate|, the lowest height and the least
    /// rate among the vertices at that height (the lowest just after).
    SeparationSummary bound_terms_along(const Eigen::Vector3d& n, const SeparationTerms& terms) const
    {
        // The rounding of the rate's (n x w).arm, a few ulps of |d| + |w| |arm|, is within rate_error().
        const TurningDirection direction(n, travel_, spin_, spin_axis_, spin_norm_);
        const std::size_t count = points_.size();
        // (n x w is the direction's: the curvature reuses it rather than a cross product of its own.)
        const double curvature_along = curvature(direction.across());
        double largest_relief = 0.0;
        if (!spins()) {
            // No turn: the lines are exact (SeparationModel reads no other terms).
            for (std::size_t k = 0; k < count; ++k) {
                terms.heights[k] = n.dot(points_[k]);
                terms.rates[k] = direction.along();
            }
        } else {
            for (std::size_t k = 0; k < count; ++k) {
                const TurningHeightTerms at = direction.terms(points_[k], arms_[k]);
                terms.heights[k] = at.height;
                terms.rates[k] = at.rate;
                terms.bends[k] = at.bend;
                terms.twists[k] = at.cubic;
                terms.lifts[k] = at.lift;
                largest_relief = std::max(largest_relief, -at.cubic);
            }
        }
        SeparationSummary summary = SeparationSummary::of(terms.heights, terms.rates, curvature_along);
        summary.largest_relief = largest_relief;
        return summary;
    }

    /// The turn over a fraction h of the step, for guesses (guessed_point): over small angles from the half
    /// angle's Taylor polynomials (within 1e-10 there, and cheaper than the sine and cosine).
    [[nodiscard]] Eigen::Quaterniond turn(double h) const
    {
        if (!spins()) {
            return Eigen::Quaterniond::Identity(); // (spin_norm_ is rounded up: never 0)
        }
        const double half = 0.5 * h * spin_length_;
        if (!(std::abs(half) <= 0.125)) {
            return Eigen::Quaterniond(Eigen::AngleAxisd(h * spin_length_, spin_axis_));
        }
        const double square = half * half; // (times the reciprocals: a guess needs no exact quotient)
        const double sine = half * (1.0 - square * (1.0 / 6.0) * (1.0 - square * (1.0 / 20.0)));
        const double cosine = 1.0 - square * 0.5 * (1.0 - square * (1.0 / 12.0) * (1.0 - square * (1.0 / 30.0)));
        return { cosine, sine * spin_axis_.x(), sine * spin_axis_.y(), sine * spin_axis_.z() };
    }
    /// Where vertex k will be a fraction h of the step after the placed time, `turn` = turn(h): a guess for
    /// choosing directions (rounding unbounded), never part of a bound.
    [[nodiscard]] Eigen::Vector3d guessed_point(std::size_t k, double h, const Eigen::Matrix3d& turn) const
    {
        if (!spins()) {
            return points_[k] + h * travel_; // (no turn: skip the rotation)
        }
        return points_[k] + h * travel_ + (turn * arms_[k] - arms_[k]);
    }

    /// The centre of mass at the placed time.
    [[nodiscard]] const Eigen::Vector3d& center() const { return center_; }
    [[nodiscard]] std::span<const Eigen::Vector3d> points() const { return points_; }
    /// The points less the centre of mass, as placed (within 2 error() of the exact ones).
    [[nodiscard]] std::span<const Eigen::Vector3d> arms() const { return arms_; }
    /// The centre's travel over the step (d) and the turn's axis (unit; zero without a turn).
    [[nodiscard]] const Eigen::Vector3d& travel() const { return travel_; }
    [[nodiscard]] const Eigen::Vector3d& spin_axis() const { return spin_axis_; }
    /// The turn over the step, w (angular velocity times the step's duration).
    [[nodiscard]] const Eigen::Vector3d& spin() const { return spin_; }
    [[nodiscard]] std::span<const Eigen::Vector3d> probe_points() const { return probe_points_; }
    /// The rotation that place_probe placed the vertices with (body to world).
    [[nodiscard]] const Eigen::Matrix3d& probe_rotation() const { return probe_rotation_; }
    [[nodiscard]] const RigidBody& body() const { return body_; }
    [[nodiscard]] double radius() const { return radius_; }
    [[nodiscard]] double error() const { return error_; }
    [[nodiscard]] double rate_error() const { return rate_error_; }
    /// The largest |x|_1 of points().
    [[nodiscard]] double magnitude() const { return magnitude_; }
    /// Bound on any point's speed (per unit s).
    [[nodiscard]] double speed() const { return rounded_up(travel_.norm() + spin_norm_ * radius_); }
    [[nodiscard]] double step_angle() const { return spin_norm_; }
    /// Whether the turn over the step is other than none (spin_norm_ is rounded up: never 0).
    [[nodiscard]] bool spins() const { return spin_length_ != 0.0; }
    [[nodiscard]] bool turns() const { return body_.motion.step_angle() != 0.0; }
    /// Neither turns nor travels.
    [[nodiscard]] bool still() const { return still_; }

private:
    const RigidBody& body_;
    /// The k-th of the four arrays below, in storage_.
    [[nodiscard]] std::span<Eigen::Vector3d> vertex_array(std::size_t k)
    {
        const std::size_t count = storage_.size() / 4;
        return { storage_.data() + k * count, count };
    }

    /// The four arrays below in one allocation (one arena call per body, not four).
    std::pmr::vector<Eigen::Vector3d> storage_;
    std::span<Eigen::Vector3d> local_; ///< vertex - centre of mass, body coordinates
    std::span<Eigen::Vector3d> points_;
    std::span<Eigen::Vector3d> arms_;
    std::span<Eigen::Vector3d> probe_points_;
    Eigen::Vector3d travel_;
    Eigen::Vector3d spin_;
    double spin_length_; ///< |spin_| (the turn's angle per unit h)
    Eigen::Vector3d spin_axis_; ///< spin_ / |spin_| (the turn's axis; zero without a turn)
    double spin_norm_; ///< |spin_| rounded up (for bounds)
    double radius_ = 0.0;
    double error_ = 0.0;
    double rate_error_ = 0.0;
    double magnitude_ = 0.0;
    Eigen::Vector3d center_ = Eigen::Vector3d::Zero();
    Eigen::Matrix3d probe_rotation_ = Eigen::Matrix3d::Identity();
    /// No turn (as rotation_at tests it) and no velocity at all: every placement is the same.
    bool still_ = body_.motion.step_angle() == 0.0 && (body_.motion.linear_velocity().array() == 0.0).all();
    bool placed_ = false;
    double placed_at_ = 0.0; ///< the fraction of the step the points are placed at (once placed_)
};

} // namespace ccdkit::details
