// SPDX-License-Identifier: MIT
#pragma once

// A lower bound on the height n.x(s) of a body point along a fixed direction n while the body moves a fraction s of
// the step on (RigidMotion's formula from a placed time: the arm about the centre of mass turns about the axis by
// x = |w| s, the centre moves by s d). Exactly,
//
//     n.x(s) = height + s rate + A (cos x - 1) + B (sin x - x),
//
// with rate = n.d + n.(w x arm), A = n.arm_perp (arm_perp: the arm less its part along the axis) and
// B |w| = n.(w x arm): along n the point's circle is a sinusoid. As cos x - 1 >= -x^2 / 2 and sin x - x >= -x^3 / 6
// (x >= 0), only the points that the turn carries towards -n pay, and only the remainders:
//
//     n.x(s) >= height + s rate - bend s^2 - twist s^3,  bend = |w|^2 max(A, 0) / 2,  twist = |w|^2 max(|w| B, 0) / 6,
//
// concave in s. Where A < 0 the turn lifts the point (A (cos x - 1) = lift (1 - cos x), lift = -A >= 0), and
// 1 - cos x >= psi(x) = x^2 / 2 - x^4 / 24, convex for x <= sqrt(2): on [0, h] with x_h = |w| h <= sqrt(2), psi's
// tangent at x_h, lift (psi(x_h) + psi'(x_h) (x - x_h)), is a linear (so concave) lower bound of the lift's share,
// exact to x^6 / 720 at h and -lift (x_h^2 / 2 - x_h^4 / 8) at 0. Where B < 0 the turn carries the point towards -n
// and that approach slows: B (sin x - x) >= relief s^3 (1 - x^2 / 20), relief = |w|^2 max(-|w| B, 0) / 6 (from
// x - sin x >= x^3 / 6 - x^5 / 120), convex in s for x <= sqrt(6), so it too enters through its tangent at h:
// relief h^3 (1 - x_h^2 / 20) there, -relief h^3 (2 - x_h^2 / 5) at 0. (Left out, a step towards a contact that the
// turn approaches stops short by about relief h^3: on the benchmark's large-angle box pairs, 1e-6 to 1e-4 of the step,
// and one interval more.) SeparationModel (separation_model.hpp) sums these per vertex with their rounding errors;
// test_turning_height_bound.cpp checks the inequalities in long double.

#include "rigid/details/branch_free.hpp"

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>

namespace ccdkit::details {

/// A point's terms of the bound (file comment), at the placed time.
struct TurningHeightTerms {
    double height; ///< n.x
    double rate; ///< n.x' = n.d + n.(w x arm)
    double bend; ///< |w|^2 max(A, 0) / 2
    double cubic; ///< |w|^2 |w| B / 6: its positive part is the twist, its negative part the relief
    double lift; ///< max(-A, 0)

    [[nodiscard]] double twist() const { return std::max(cubic, 0.0); }
    [[nodiscard]] double relief() const { return std::max(-cubic, 0.0); }
};

/// What the terms of every point share along one direction n: computed once per direction.
class TurningDirection {
public:
    /// @param n the direction; @param travel d; @param spin w; @param spin_axis w / |w| (zero without a turn);
    /// @param spin_norm |w| (rounded up by callers that bound rounding)
    TurningDirection(
        const Eigen::Vector3d& n,
        const Eigen::Vector3d& travel,
        const Eigen::Vector3d& spin,
        const Eigen::Vector3d& spin_axis,
        double spin_norm)
        : n_(n)
        , along_(n.dot(travel))
        , across_(n.cross(spin)) // (n x w).arm = n.(w x arm): one cross product per direction, not per point
        , off_axis_(n - spin_axis * spin_axis.dot(n)) // n_perp.arm = n.arm_perp
        , bend_scale_(0.5 * spin_norm * spin_norm)
        , twist_scale_(spin_norm * spin_norm / 6.0)
    {
    }

    /// The terms of the point at `point` with arm `arm` (point - centre of mass).
    [[nodiscard]] TurningHeightTerms terms(const Eigen::Vector3d& point, const Eigen::Vector3d& arm) const
    {
        const double spin_rate = across_.dot(arm);
        const double radial = off_axis_.dot(arm);
        return { n_.dot(point), along_ + spin_rate, bend_scale_ * positive_part(radial), // (branch_free.hpp)
                 twist_scale_ * spin_rate, positive_part(-radial) };
    }
    /// The same terms for the points x x e, read from x: each of the direction's vectors z becomes e x z
    /// (z.(x x e) = x.(e x z)), so that a point costs no cross product. (across() is then e x (n x w).)
    [[nodiscard]] TurningDirection crossed(const Eigen::Vector3d& e) const
    {
        TurningDirection out = *this;
        out.n_ = e.cross(n_);
        out.across_ = e.cross(across_);
        out.off_axis_ = e.cross(off_axis_);
        return out;
    }
    /// n.d, the rate of a point without a turn.
    [[nodiscard]] double along() const { return along_; }
    /// n x w.
    [[nodiscard]] const Eigen::Vector3d& across() const { return across_; }

private:
    Eigen::Vector3d n_;
    double along_;
    Eigen::Vector3d across_;
    Eigen::Vector3d off_axis_;
    double bend_scale_;
    double twist_scale_;
};

/// A travel seen from a turning frame. In the coordinates of a body that turns (spin -w) and travels (d), a still
/// point moves as Rot(s) (v - s d) with Rot(s) the turn by x = |w| s about w: its height along dir has
/// TurningDirection's terms for the point v with travel -d, less the part of the travel that turns,
/// s dir.(Rot(s) d - d) = s (A (cos x - 1) + B sin x), A = dir.d_perp, B = dir.(axis x d). For x in [0, pi]
/// (cos x - 1 >= -x^2 / 2, 0 <= sin x <= x), the signs that lower the height pay:
///     -s dir.(Rot(s) d - d) >= -bend s^2 - twist s^3,  bend = |w| max(B, 0),  twist = |w|^2 max(-A, 0) / 2,
/// concave in s like the point's own terms, to which they add. Where B < 0 the turn lifts the point instead, by
/// -B s sin x = (-B / |w|) x sin x >= (-B / |w|) (2 psi(x) - x^4 / 12) (sin x >= x - x^3 / 6; psi as for a point's
/// lift), and x^4 = |w|^4 s^4 <= |w|^4 s^3 for s <= 1: a lift of 2 max(-B, 0) / |w| and a twist of
/// |w|^3 max(-B, 0) / 12 more. (Without that lift the bound would fall short by a second-order term, -B |w| s^2,
/// and so would the steps.) Where A > 0 the turn raises the point alike, by s A (1 - cos x) >= rise s psi(x),
/// rise = max(A, 0): convex in s for x <= MAX_LIFT_TURN, a term common to every point that the model takes through
/// its tangent at the end of the interval, as the lifts (without it the bound falls short by a third-order term,
/// rise x^2 s / 2).
struct TurningTravelTerms {
    double bend;
    double twist;
    double lift;
    double rise; ///< max(A, 0) (above)
};
[[nodiscard]] inline TurningTravelTerms turning_travel_terms(
    const Eigen::Vector3d& dir, const Eigen::Vector3d& travel, const Eigen::Vector3d& spin_axis, double spin_norm)
{
    const double radial = dir.dot(travel - spin_axis * spin_axis.dot(travel));
    const double across = dir.dot(spin_axis.cross(travel));
    const double lifting = std::max(-across, 0.0);
    return { spin_norm * std::max(across, 0.0),
             spin_norm * spin_norm * (0.5 * std::max(-radial, 0.0) + spin_norm * lifting / 12.0),
             spin_norm > 0.0 ? 2.0 * lifting / spin_norm : 0.0, std::max(radial, 0.0) };
}

/// Largest turn x_h for which the lifts' tangent bounds (psi convex up to sqrt(2)).
inline constexpr double MAX_LIFT_TURN = 1.4;

/// psi(x) = x^2 / 2 - x^4 / 24 <= 1 - cos x: a unit lift's share of the bound at the end of [0, h], x = |w| h.
[[nodiscard]] inline double lift_at_end(double x) { return x * x * (0.5 - x * x / 24.0); }
/// psi'(x) |w|: the slope in h of lift_at_end(|w| h).
[[nodiscard]] inline double lift_slope_at_end(double x, double spin) { return spin * x * (1.0 - x * x / 6.0); }
/// A unit relief's tangent at the end of [0, h] (x = |w| h) is h^3 (1 - x^2 / 20) at h: h^3 less h^3 times this ...
[[nodiscard]] inline double relief_short_of_cubic(double x) { return x * x / 20.0; }
/// ... and -h^3 times this at 0.
[[nodiscard]] inline double relief_drop_at_start(double x) { return 2.0 - x * x / 5.0; }
/// x^2 / 2 - x^4 / 8 = x psi'(x) - psi(x): what a unit lift's tangent at the end of [0, h] takes off the bound at 0.
[[nodiscard]] inline double lift_drop_at_start(double x) { return x * x * (0.5 - x * x / 8.0); }

} // namespace ccdkit::details
