// SPDX-License-Identifier: MIT
#pragma once

// The conservative advancement's bound for two convex bodies (convex_contact.cpp): a lower bound on the separation
// of their vertex hulls along a direction over an interval of the step, from the vertices' height terms
// (convex_side.hpp, turning_height_bound.hpp) and their rounding.

#include "rigid/details/branch_free.hpp"
#include "rigid/details/convex_side.hpp"
#include "rigid/details/rounding.hpp"
#include "rigid/details/turning_height_bound.hpp"

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory_resource>
#include <optional>
#include <span>
#include <tuple>
#include <utility>

namespace ccdkit::details {

/// A lower bound on the separation of the bodies' vertex hulls along a direction n over [t, t + h], the bodies
/// placed at t: the least of a's vertex height bounds along n plus the least of b's along -n (SeparationTerms).
/// For each h it is a concave function of the time s in [0, h], so its values at 0 and h bound it on the whole
/// interval (apart_for). Near a contact the lines carry the true closing speed and the turns only a cubic
/// remainder (or a quadratic one that the points turning away do not pay), so steps land next to the contact.
class SeparationModel {
public:
    /// Largest |e| |f| / |e x f| (1 / sine of the edges' angle) for which update_along_edges takes the edges' common
    /// normal: nearer parallel, the normal turns fast and its terms grow with that ratio.
    static constexpr double MAX_EDGE_SKEW = 8.0;

    SeparationModel(std::size_t count_a, std::size_t count_b, std::pmr::memory_resource* arena)
        : storage_(static_cast<double*>(arena->allocate(5 * (count_a + count_b) * sizeof(double), alignof(double))))
        , a_ { terms_in(0, count_a) }
        , b_ { terms_in(5 * count_a, count_b) }
    {
    }

    /// Not copied: the arrays are views of storage_.
    SeparationModel(const SeparationModel&) = delete;
    SeparationModel& operator=(const SeparationModel&) = delete;

    /// The terms along n (b's along -n) of the bodies as placed now.
    void update(const ConvexSide& a, const ConvexSide& b, const Eigen::Vector3d& n)
    {
        const SeparationSummary summary_a = a.bound_terms_along(n, a_.terms);
        const SeparationSummary summary_b = b.bound_terms_along(-n, b_.terms);
        const double rate_magnitude = std::max(summary_a.largest_rate, summary_b.largest_rate);
        a_.take(summary_a, a.spins() ? a.step_angle() : 0.0);
        b_.take(summary_b, b.spins() ? b.step_angle() : 0.0);
        start_ = { summary_a.lowest + summary_b.lowest, summary_a.lowest_rate + summary_b.lowest_rate };
        // Heights: each dot product within 3 ulps of sum |n_k x_k| <= |x|_1 (|n_k| <= 1 + 4 ulps), plus the
        // points' own rounding (times |n| <= 1 + 4 ulps, inside rounded_up). The sums height + h rate and
        // the differences below add a few ulps of the magnitudes; 8 ulps of each covers all of them.
        const double magnitude = std::max(a.magnitude(), b.magnitude());
        constant_error_ = rounded_up(a.error() + b.error() + 8.0 * UNIT_ROUNDOFF * magnitude) + ABSOLUTE_SLACK;
        rate_error_ = rounded_up(a.rate_error() + b.rate_error() + 8.0 * UNIT_ROUNDOFF * rate_magnitude);
        bend_error_ = rounded_up(bend_error(a) + bend_error(b));
        twist_error_ = rounded_up(twist_error(a) + twist_error(b));
    }

    /// The terms along a direction that turns with `frame` (n at the placed time; `frame_is_a` says which side
    /// it is: a's heights run along n, b's along -n), the other body still. Along it the frame's vertices keep
    /// their heights above its centre, and the other's points move in the frame's coordinates as still points
    /// seen from a turning, travelling body: Rot(-w s) (v - s d), v the point less the frame's centre (the
    /// TurningPoints terms along -n). Where a face of the frame body meets the other body, a direction fixed in
    /// the world tilts against the turning face and each step closes only a share of the gap; along the face's
    /// own normal the steps land as on a still face.
    void update_in_frame(const ConvexSide& frame, const ConvexSide& other, const Eigen::Vector3d& n, bool frame_is_a)
    {
        Side& frame_side = frame_is_a ? a_ : b_;
        Side& other_side = frame_is_a ? b_ : a_;
        const Eigen::Vector3d up = frame_is_a ? n : Eigen::Vector3d(-n); // the frame side's direction
        double magnitude = 0.0;
        const auto arms = frame.arms();
        for (std::size_t k = 0; k < arms.size(); ++k) {
            frame_side.terms.heights[k] = up.dot(arms[k]);
            frame_side.terms.rates[k] = 0.0;
            magnitude = std::max(magnitude, arms[k].cwiseAbs().sum());
        }
        const SeparationSummary frame_summary
            = SeparationSummary::of(frame_side.terms.heights, frame_side.terms.rates, 0.0);
        frame_side.take(frame_summary, 0.0); // (no turn: only the heights are read)

        const double spin = frame.step_angle();
        const Eigen::Vector3d& center = frame.center();
        const auto still_points = other.points();
        const TurningPoints seen = turning_points_terms(
            other_side.terms, [&](std::size_t k) { return Eigen::Vector3d(still_points[k] - center); }, nullptr, -up,
            -frame.spin(), -frame.spin_axis(), spin, frame.travel());
        other_side.take(seen.summary, spin, seen.rise, seen.twist);
        start_ = { frame_summary.lowest + seen.summary.lowest, seen.summary.lowest_rate };
        // Rounding: the frame's arms lie within 2 error() of the exact ones; each v within the other's point's,
        // the frame centre's and the difference's.
        const double shift = rounded_up(frame.error() + other.error() + 2.0 * UNIT_ROUNDOFF * seen.reach);
        const TermErrors errors = turning_points_errors(seen, shift, 0.0);
        constant_error_
            = rounded_up(2.0 * frame.error() + 8.0 * UNIT_ROUNDOFF * magnitude + errors.constant) + ABSOLUTE_SLACK;
        rate_error_ = errors.rate;
        bend_error_ = errors.bend;
        twist_error_ = errors.twist;
    }

    /// The terms along the common normal of two edges, mu(s) = Rot(w s) e x f, where the frame body turns (e its
    /// edge, turning with it) and the other body is still (f its edge): n at the placed time points as mu(0)
    /// does (`frame_is_a` as for update_in_frame). Along a direction fixed in the world both edges of an
    /// edge-on-edge contact tilt as the frame turns and the steps close only a share of the gap; along mu both
    /// stay level. Returns that direction at the placed time as n runs (a's heights along it); none (nothing
    /// updated) where the edges are too near parallel for it.
    ///
    /// Heights relative to the frame's centre c(s) (a term common to both sides, so the separation stays):
    /// with e scaled so that |e x f| = 1, a frame vertex's arm a gives mu.Rot a = f.Rot(w s) (a x e), a point
    /// turning with the frame seen along f; a still point y, v = y - c, gives -mu.(y - c(s)) = -e.Rot(-w s)
    /// (f x v - s f x d), a still point seen from the turning, travelling frame along -e (as in update_in_frame,
    /// with f x v for v and f x d for d). Both are TurningPoints terms.
    [[nodiscard]] std::optional<Eigen::Vector3d> update_along_edges(
        const ConvexSide& frame,
        const ConvexSide& other,
        const Eigen::Vector3d& frame_edge,
        const Eigen::Vector3d& other_edge,
        const Eigen::Vector3d& n,
        bool frame_is_a)
    {
        const Eigen::Vector3d up = frame_is_a ? n : Eigen::Vector3d(-n);
        const Eigen::Vector3d crossed = frame_edge.cross(other_edge);
        const double side = facing_sign(crossed, up); // (branch_free.hpp)
        const Eigen::Vector3d f = side * other_edge, normal = side * crossed;
        const double length = normal.norm();
        const double skew = frame_edge.norm() * f.norm(); // |e| |f| = |e x f| / sin of the edges' angle
        if (!(length > 0.0) || !(skew <= MAX_EDGE_SKEW * length)) {
            return std::nullopt; // (near parallel, or not finite)
        }
        const Eigen::Vector3d e = frame_edge / length;
        Side& frame_side = frame_is_a ? a_ : b_;
        Side& other_side = frame_is_a ? b_ : a_;
        const double spin = frame.step_angle();
        const auto arms = frame.arms();
        const TurningPoints turning = turning_points_terms(
            frame_side.terms, [&](std::size_t k) { return arms[k]; }, &e, f, frame.spin(), frame.spin_axis(), spin,
            Eigen::Vector3d::Zero());
        const Eigen::Vector3d& center = frame.center();
        const auto still_points = other.points();
        const Eigen::Vector3d travel = f.cross(frame.travel());
        const Eigen::Vector3d back = -f; // f x v = v x (-f)
        const TurningPoints still = turning_points_terms(
            other_side.terms, [&](std::size_t k) { return Eigen::Vector3d(still_points[k] - center); }, &back, -e,
            -frame.spin(), -frame.spin_axis(), spin, travel);
        frame_side.take(turning.summary, spin, 0.0, turning.twist);
        other_side.take(still.summary, spin, still.rise, still.twist);
        start_ = { turning.summary.lowest + still.summary.lowest,
                   turning.summary.lowest_rate + still.summary.lowest_rate };
        // Rounding. A frame arm lies within 2 error() of the exact one, so a x e within |e| times that (the crossed
        // vectors' own rounding, a few ulps of |e| |z| each, is inside the heights' and rates' ulps of |dir| |p|);
        // a still point's v within both bodies' errors and the difference's (|v| at most the centres' distance,
        // the other's radius and its error), so f x v within |f| times that; f x d within a few ulps of |f| |d|.
        // (|e| and |f| are the other side's scales.)
        const double turning_shift
            = rounded_up(still.scale * (2.0 * frame.error() + 8.0 * UNIT_ROUNDOFF * frame.radius()));
        const double reach = rounded_up((other.center() - center).norm() + other.radius() + 2.0 * other.error());
        const double still_shift
            = rounded_up(turning.scale * (frame.error() + other.error() + 10.0 * UNIT_ROUNDOFF * reach));
        const double travel_shift = rounded_up(8.0 * UNIT_ROUNDOFF * turning.scale * frame.travel().norm());
        const TermErrors from_turning = turning_points_errors(turning, turning_shift, 0.0);
        const TermErrors from_still = turning_points_errors(still, still_shift, travel_shift);
        constant_error_ = rounded_up(from_turning.constant + from_still.constant) + ABSOLUTE_SLACK;
        rate_error_ = rounded_up(from_turning.rate + from_still.rate);
        bend_error_ = rounded_up(from_turning.bend + from_still.bend);
        twist_error_ = rounded_up(from_turning.twist + from_still.twist);
        const Eigen::Vector3d direction = e.cross(f); // mu(0), along up
        return frame_is_a ? direction : Eigen::Vector3d(-direction);
    }

    /// Whether the bodies are certainly apart throughout [t, t + h] (the bound, less its rounding error at h,
    /// positive at 0 and at h; concave in between). The lifts' and reliefs' tangents at h raise the bound at h and
    /// lower it at 0; where that costs the start, the bound without them decides (the start then is
    /// apart_for(0)'s). A twist's rounding moves the bound at h by its share, and at 0 (a relief's tangent, 2 - x^2
    /// / 5 times the cubic) by up to twice that: three shares cover either end.
    [[nodiscard]] bool apart_for(double h) const
    {
        if (h == 0.0) {
            return clears(a_.lowest, b_.lowest, constant_error_);
        }
        const double error
            = rounded_up(constant_error_ + h * (rate_error_ + h * (bend_error_ + h * 3.0 * twist_error_)));
        const Ends ends_a = lifted_ends(a_, h), ends_b = lifted_ends(b_, h);
        if (!clears(ends_a.end, ends_b.end, error)) {
            return false; // (without the lifts the bound at h is lower still)
        }
        if (clears(ends_a.start, ends_b.start, error)) {
            return true;
        }
        return clears(lowest_at(a_, h, false).value, lowest_at(b_, h, false).value, error)
            && clears(a_.lowest, b_.lowest, constant_error_);
    }

    /// A guess of the contact: the first time in [0, limit] (within `tolerance`, from below) where the bound
    /// at h (no rounding terms) reaches zero, or `limit` if it stays positive there. Newton's steps on the
    /// lowest vertices, kept inside a bracket that shrinks from both sides. apart_for() certifies the steps.
    [[nodiscard]] double predicted_contact(double limit, double tolerance) const
    {
        // The bracket [low, high]: the bound is >= 0 at low, < 0 at high (once high_value is known).
        double low = 0.0, high = limit;
        double low_value = start_.value, high_value = INFINITE; // (INFINITE: the bound at limit not evaluated)
        Value at = start_;
        double h = 0.0;
        constexpr int MAX_ITERATIONS = 16;
        for (int k = 0; k < MAX_ITERATIONS && high - low > tolerance; ++k) {
            double next = at.slope < 0.0 ? h - at.value / at.slope : INFINITE;
            if (at.value < 0.0) {
                // From above Newton lands at or past a concave bound's root: a short step is within tolerance.
                if (!(next < h - 0.5 * tolerance)) {
                    return std::max(low, h - tolerance);
                }
                next -= 0.5 * tolerance; // aim just short
                if (next <= low && next > low - tolerance) {
                    return low;
                }
            } else if (next - h <= tolerance) {
                return h; // from below Newton overshoots a concave bound's root: it lies within tolerance
            }
            if (!(next > low && next < high)) {
                // Newton leaves the bracket: the limit first, then the secant of the bracket's ends.
                next = high_value == INFINITE ? limit : low + (high - low) * (low_value / (low_value - high_value));
                if (!(next > low && next <= high) || (next == high && high_value != INFINITE)) {
                    next = 0.5 * (low + high);
                }
            }
            h = next;
            at = bound_at(h);
            if (at.value >= 0.0) {
                if (h == limit) {
                    return limit;
                }
                low = h;
                low_value = at.value;
            } else {
                high = h;
                high_value = at.value;
            }
        }
        return high_value == INFINITE && bound_at(limit).value >= 0.0 ? limit : low;
    }

    /// Whether the bound's departure from the true separation moves a root near h by at most `tolerance` (as a
    /// time): the remainders that it leaves out (per point |A| x^4 / 24 and |B| x^5 / 120; the third-order ones of
    /// a frame's turning travel), within the side's curvature h^2 (x / 6 + x^2 / 24) (the whole curvature h^2
    /// where it is coarse), over the mean closing rate (the separation at 0 over h).
    [[nodiscard]] bool sharp_root(double h, double tolerance) const
    {
        return (slack(a_, h) + slack(b_, h)) * h <= tolerance * start_.value;
    }

private:
    static constexpr double INFINITE = std::numeric_limits<double>::infinity();

    /// The rounding of one side's terms: SeparationModel's four error coefficients.
    struct TermErrors {
        double constant;
        double rate;
        double bend;
        double twist;
    };
    /// What turning_points_terms reports beside the arrays.
    struct TurningPoints {
        SeparationSummary summary;
        double scale; ///< |dir| (rounded up)
        double spin; ///< |w| (rounded up)
        double reach; ///< the largest |p| (rounded up)
        double magnitude; ///< the largest |p|_1
        double distance; ///< |d| (rounded up)
        double rise; ///< TurningTravelTerms::rise of the travel, common to every point (Side::rise)
        double twist; ///< TurningTravelTerms::twist of the travel, in every point's twist (Side::common_twist)
    };
    /// One side's terms for points p_k that turn with w (about `axis`, |w| <= spin) while carried back by their
    /// travel turning with them: the heights dir.Rot(w s) (p_k - s d), TurningDirection's terms of p_k with travel
    /// -d plus turning_travel_terms for the part of the travel that turns. p_k = point_of(k), or point_of(k) x e
    /// where `through` points to e (read through the direction's vectors crossed with e: no cross product per
    /// point). The side's curvature bounds |g''| = |(dir x w).(w x z) - 2 (dir x w).Rot d| (z = Rot (p - s d))
    /// by |dir x w| (|w| (reach + |d|) + 2 |d|).
    template <class PointOf>
    [[nodiscard]] static TurningPoints turning_points_terms(
        const SeparationTerms& terms,
        PointOf point_of,
        const Eigen::Vector3d* through,
        const Eigen::Vector3d& dir,
        const Eigen::Vector3d& spin_vector,
        const Eigen::Vector3d& axis,
        double spin,
        const Eigen::Vector3d& travel)
    {
        TurningDirection direction(dir, -travel, spin_vector, axis, spin);
        const double scale = rounded_up(dir.norm());
        const double across = direction.across().norm() + 8.0 * UNIT_ROUNDOFF * spin * scale;
        double stretch = 1.0; // |p| <= stretch |point_of(k)|
        if (through != nullptr) {
            direction = direction.crossed(*through);
            stretch = rounded_up(through->norm());
        }
        const TurningTravelTerms turning = turning_travel_terms(dir, travel, axis, spin);
        double reach_squared = 0.0, magnitude = 0.0, largest_relief = 0.0;
        for (std::size_t k = 0; k < terms.heights.size(); ++k) {
            const Eigen::Vector3d x = point_of(k);
            const TurningHeightTerms at = direction.terms(x, x);
            terms.heights[k] = at.height;
            terms.rates[k] = at.rate;
            terms.bends[k] = at.bend + turning.bend;
            terms.twists[k] = at.cubic + turning.twist;
            terms.lifts[k] = at.lift + turning.lift;
            largest_relief = std::max(largest_relief, -at.cubic);
            reach_squared = std::max(reach_squared, x.squaredNorm());
            magnitude = std::max(magnitude, x.cwiseAbs().sum());
        }
        const double distance = rounded_up(travel.norm());
        const double reach = rounded_up(stretch * rounded_up(std::sqrt(reach_squared)));
        const double curvature = rounded_up(across * (spin * (reach + distance) + 2.0 * distance));
        SeparationSummary summary = SeparationSummary::of(terms.heights, terms.rates, curvature);
        summary.largest_relief = largest_relief;
        return { summary, scale, spin, reach, rounded_up(stretch * magnitude), distance, turning.rise, turning.twist };
    }
    /// The rounding of turning_points_terms' side whose points lie within `shift` of the exact ones and whose
    /// travel within `travel_shift`: each height within |dir| shift and the dot product's few ulps; the rates,
    /// bends and twists as update() has them, with the points' reach for the radius and the travel's terms (a few
    /// ulps of |w| |d| and |w|^2 |d|), all times |dir|. The twists' share covers the rise's tangent too (its
    /// coefficient within a few ulps of |dir| |d| and |dir| travel_shift; it moves the bound by at most
    /// |w|^2 h^3 rise).
    [[nodiscard]] static TermErrors turning_points_errors(const TurningPoints& p, double shift, double travel_shift)
    {
        const double spin = p.spin;
        const double rate = 2.0 * spin * shift + travel_shift + 32.0 * UNIT_ROUNDOFF * (p.distance + spin * p.reach);
        return { rounded_up(p.scale * (shift + 8.0 * UNIT_ROUNDOFF * p.magnitude)),
                 rounded_up(p.scale * rate + 8.0 * UNIT_ROUNDOFF * p.summary.largest_rate),
                 rounded_up(
                     p.scale
                     * (spin * spin * (shift + 48.0 * UNIT_ROUNDOFF * p.reach)
                        + spin * (16.0 * UNIT_ROUNDOFF * p.distance + travel_shift))),
                 rounded_up(
                     p.scale * spin * spin
                     * (rate / 6.0 + 16.0 * UNIT_ROUNDOFF * (spin * p.reach + 2.0 * p.distance)
                        + 2.0 * travel_shift)) };
    }

    /// One body's terms, its turn and the coarse bound on its points' curvature along n.
    struct Side {
        SeparationTerms terms;
        double spin = 0.0; ///< |w| rounded up; 0 without a turn (then only the lines are read)
        double curvature = 0.0; ///< |n x w| |w| radius >= |n.x''| for every point
        double lowest = 0.0; ///< the lowest height (SeparationSummary): the side's part of the bound at 0
        double lowest_rate = 0.0; ///< the least rate at the lowest height
        /// A travel that turns with the side and raises every point alike, by s rise (1 - cos x) >= rise s
        /// psi(x) (turning_height_bound.hpp): convex in s up to MAX_LIFT_TURN, so it enters, like the lifts,
        /// through its tangent at the end of [0, h]. (Without it, a face turning towards a still corner stops
        /// short of the contact by a third-order term, s rise x^2 / 2, and the steps with it.)
        double rise = 0.0;
        /// The part of every twist that the side's travel adds (>= 0): a twist below it holds a relief.
        double common_twist = 0.0;
        /// The largest relief (common_twist less a twist): the relief's tangent at h, relief h^3 (1 - x^2 / 20),
        /// is taken as the cubic's relief h^3 there, less this largest relief's x^2 h^3 / 20 (one term per side,
        /// not per vertex).
        double largest_relief = 0.0;

        /// The summary of the terms just written, the side's turn (0 without one), its travel's rise and the
        /// twist that its travel adds to every point.
        void take(const SeparationSummary& summary, double turn, double travel_rise = 0.0, double travel_twist = 0.0)
        {
            spin = turn;
            rise = travel_rise;
            common_twist = travel_twist;
            curvature = summary.curvature;
            lowest = summary.lowest;
            lowest_rate = summary.lowest_rate;
            largest_relief = summary.largest_relief;
        }
    };
    /// A side's bound at a time and its slope there (of the vertex that is lowest).
    struct Value {
        double value;
        double slope;
    };
    /// The least of a side's vertex bounds at h. Where the side turns by at most MAX_LIFT_TURN over h (beyond,
    /// x^3 / 6 outgrows x^2 / 2 and the lifts' tangent fails), per vertex,
    /// with (where `lifted`) lift psi(x_h): the tangent of lift psi at h, below lift (1 - cos x) on [0, h],
    /// taken at h; else the lines less the coarse curvature h^2 / 2 (valid at any angle).
    [[nodiscard]] static Value lowest_at(const Side& side, double h, bool lifted)
    {
        const SeparationTerms& t = side.terms;
        const double x = side.spin * h;
        // The least of a per-vertex value, and its vertex.
        const auto lowest_of = [count = t.heights.size()](auto value_of) {
            double low = INFINITE;
            std::size_t lowest = 0;
            for (std::size_t k = 0; k < count; ++k) {
                const double value = value_of(k);
                if (value < low) {
                    low = value;
                    lowest = k;
                }
            }
            return std::pair { low, lowest };
        };
        if (x <= MAX_LIFT_TURN && side.spin != 0.0) {
            if (!lifted) {
                // The concave bound: no tangents, so no reliefs (a twist below the common part pays only that).
                const auto twist = [&](std::size_t k) { return std::max(t.twists[k], side.common_twist); };
                const auto [low, lowest] = lowest_of(
                    [&](std::size_t k) { return t.heights[k] + h * (t.rates[k] - h * (t.bends[k] + h * twist(k))); });
                return { low, t.rates[lowest] - h * (2.0 * t.bends[lowest] + 3.0 * h * twist(lowest)) };
            }
            const double weight = lift_at_end(x);
            const auto [low, lowest] = lowest_of([&](std::size_t k) {
                return t.heights[k] + h * (t.rates[k] - h * (t.bends[k] + h * t.twists[k])) + weight * t.lifts[k];
            });
            const double weight_slope = lift_slope_at_end(x, side.spin);
            return { low + side.rise * h * weight - relief_excess(side, h),
                     t.rates[lowest] - h * (2.0 * t.bends[lowest] + 3.0 * h * t.twists[lowest])
                         + weight_slope * t.lifts[lowest] + side.rise * (weight + h * weight_slope) };
        }
        double low = 0.0, rate = side.lowest_rate;
        if (side.spin == 0.0) {
            // Without a turn every rate is n.d, and rounding is monotone: the lowest height's line is the
            // lowest at h (the same bits as the loop below).
            low = side.lowest + h * rate;
        } else {
            std::size_t lowest = 0;
            std::tie(low, lowest) = lowest_of([&](std::size_t k) { return t.heights[k] + h * t.rates[k]; });
            rate = t.rates[lowest];
        }
        return { low - rounded_up(0.5 * side.curvature * h * h), rate - side.curvature * h };
    }
    /// A side's bound at 0 and at h under the lifts' tangent at h (where it turns by at most MAX_LIFT_TURN; else
    /// the coarse bound, the heights at 0). At 0 each unit of lift costs psi(x_h) - x_h psi'(x_h) = -(x_h^2 / 2
    /// - x_h^4 / 8).
    struct Ends {
        double start;
        double end;
    };
    [[nodiscard]] static Ends lifted_ends(const Side& side, double h)
    {
        const SeparationTerms& t = side.terms;
        const double x = side.spin * h;
        if (!(x <= MAX_LIFT_TURN) || side.spin == 0.0) {
            return { side.lowest, lowest_at(side, h, false).value };
        }
        const double weight = lift_at_end(x);
        const double drop = lift_drop_at_start(x);
        Ends low { INFINITE, INFINITE };
        for (std::size_t k = 0; k < t.heights.size(); ++k) {
            low.start = std::min(low.start, t.heights[k] - drop * t.lifts[k]);
            low.end = std::min(
                low.end, t.heights[k] + h * (t.rates[k] - h * (t.bends[k] + h * t.twists[k])) + weight * t.lifts[k]);
        }
        // The rise's tangent at h: rise h psi(x_h) there, less h times its slope, rise (psi + x psi'), at 0.
        low.end += side.rise * h * weight - relief_excess(side, h);
        // At 0 a relief's tangent takes off relief h^3 (2 - x^2 / 5): the largest relief's, from every vertex.
        low.start -= side.rise * h * h * lift_slope_at_end(x, side.spin)
            + side.largest_relief * h * h * h * relief_drop_at_start(x);
        return low;
    }
    /// What the twists' cubic at h, relief h^3, adds beyond the reliefs' tangent there, relief h^3 (1 - x^2 / 20),
    /// at most: the largest relief's x^2 h^3 / 20.
    [[nodiscard]] static double relief_excess(const Side& side, double h)
    {
        return side.largest_relief * h * h * h * relief_short_of_cubic(side.spin * h);
    }
    /// Whether a bound whose sides' parts are low_a and low_b is positive beyond `error` and the sum's own
    /// rounding (an ulp of each term, inside 2 ulps of their magnitudes).
    [[nodiscard]] static bool clears(double low_a, double low_b, double error)
    {
        return low_a + low_b > error + 2.0 * UNIT_ROUNDOFF * (std::abs(low_a) + std::abs(low_b));
    }
    [[nodiscard]] Value bound_at(double h) const
    {
        const Value va = lowest_at(a_, h, true), vb = lowest_at(b_, h, true);
        return { va.value + vb.value, va.slope + vb.slope };
    }
    [[nodiscard]] static double slack(const Side& side, double h)
    {
        const double x = side.spin * h;
        const double share = x <= MAX_LIFT_TURN ? x / 6.0 + x * x / 24.0 : 1.0;
        return side.curvature * h * h * share;
    }
    /// The rounding of a side's bend coefficients: A within 2 error (the arm's) + a few ulps of the radius (n_perp,
    /// the dot product), times |w|^2 / 2; with 16 ulps of |w|^2 radius for the evaluation of the bend and lift
    /// terms (each at most |w|^2 radius h^2) and the rounded-up |w| in the lifts' tangent.
    [[nodiscard]] static double bend_error(const ConvexSide& side)
    {
        const double spin = side.step_angle();
        return spin * spin * (side.error() + 48.0 * UNIT_ROUNDOFF * side.radius());
    }
    /// The rounding of a side's twist coefficients: n.(w x arm) within rate_error(), times |w|^2 / 6; with 16 ulps
    /// of |w|^3 radius for their evaluation.
    [[nodiscard]] static double twist_error(const ConvexSide& side)
    {
        const double spin = side.step_angle();
        return spin * spin * (side.rate_error() / 6.0 + 16.0 * UNIT_ROUNDOFF * spin * side.radius());
    }
    /// The five arrays of a side of `count` vertices from `offset` in storage_.
    [[nodiscard]] SeparationTerms terms_in(std::size_t offset, std::size_t count)
    {
        double* at = storage_ + offset;
        return { { at, count },
                 { at + count, count },
                 { at + 2 * count, count },
                 { at + 3 * count, count },
                 { at + 4 * count, count } };
    }

    /// The arrays of both sides in one allocation from the query's arena (freed with it; left uninitialized:
    /// update() writes every term that is read).
    double* storage_;
    Side a_;
    Side b_;
    Value start_ { 0.0, 0.0 }; ///< the bound at 0 (no rounding terms) and its slope there
    double constant_error_ = 0.0;
    double rate_error_ = 0.0;
    double bend_error_ = 0.0;
    double twist_error_ = 0.0;
};

} // namespace ccdkit::details
