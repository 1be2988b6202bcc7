// SPDX-License-Identifier: MIT
// Time of contact of two small convex solids (MeshShapeData::convex), in world coordinates, without the
// general search's hierarchies and pair tests.
//
// Lower bound (conservative advancement with a local bound). At a time t, GJK gives a direction n along which
// the vertex hulls are apart. For a body point x(s) = c(s) + arm(s) (arm turning at w = angular velocity * T,
// moving at d = linear velocity * T per unit s):
//     n.x(t + h) >= n.x(t) + h n.(d + w x arm(t)) - h^2 / 2 |n x w| |w| |arm|,
// because the second derivative is w x (w x arm) and n.(w x (w x arm)) = (n x w).(w x arm). The minimum over
// body a's vertices of the right side less the maximum over body b's (with the signs turned) is a concave
// function F(h) of h (a minimum of lines less a maximum of lines less a parabola) that bounds the separation of
// the hulls along n, and hence the bodies' distance, from below. So F(0) > 0 and F(h) > 0 (certified, rounding
// included) prove no contact in [t, t + h]. Near a contact the lines carry the true closing speed, so steps land
// next to it (quadratically closer each step) where a global speed bound creeps up geometrically. Where GJK's
// features are a face of a turning body against a vertex of a still one, n turns with that face instead
// (SeparationModel::update_in_frame): a direction fixed in the world tilts against a turning face, and the steps
// then close only a share of the gap each.
//
// Upper bound. Once the lower bound is within eps of the predicted contact, the hulls are tested at t + eps: if
// GJK finds them overlapping, the bodies (convex, so their hulls up to CONVEX_TOLERANCE) touched in between.
//
// Anything else (bodies overlapping at the start, a graze that the probe misses, no certified step) is left to
// the general search, which is correct for any mesh.

#include "rigid/details/branch_free.hpp"
#include "rigid/details/contact_searches.hpp"
#include "rigid/details/convex_contacts.hpp"
#include "rigid/details/convex_distance.hpp"
#include "rigid/details/mesh_shape_data.hpp"
#include "rigid/details/rounding.hpp"
#include "rigid/details/turning_height_bound.hpp"

#include <ccdkit/rigid/rigid_contact.hpp>

#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory_resource>
#include <optional>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

namespace ccdkit::details {

namespace {

    constexpr double INFINITE = std::numeric_limits<double>::infinity();
    /// Advancement steps and probes before the general search takes over. Convex pairs need a handful; a graze or a
    /// tangential approach closes a fraction of the gap per step and may need a few dozen, still far cheaper than
    /// the general search (on two boxes it costs about 70 steps; a limit of 32 sent 2 of the 256 large-angle
    /// benchmark queries there, 8% of that set's instructions).
    constexpr int MAX_STEPS = 64;
    /// Step candidates tried at one time (each halves the previous) before the general search takes over.
    constexpr int MAX_HALVINGS = 12;
    /// Largest turn (radians, both bodies together) until the guessed contact for which the closest points' rate
    /// guesses its time: farther off, the features at the contact are likely others and the fastest vertex's rate
    /// (an earlier guess, a smaller turn of the normal) steps better (tuned on random box pairs: 0.01 to 0.1 do
    /// about as well).
    constexpr double WITNESS_TURN = 0.03;
    /// Largest turn (radians, both bodies together) until the guessed contact for which secant steps on the gap of
    /// the GJK simplex's features refine the guess (ConvexSearch::refined_time_to_contact): nearer, those features
    /// are likely the contact's, so their normal at the refined time is the contact normal, along which the model's
    /// root is the contact; farther off they change before the contact and the refinement costs more than it saves.
    constexpr double REFINE_TURN = 0.1;
    /// Secant steps of that refinement (each moves the features once). With the reliefs (turning_height_bound.hpp)
    /// the model's root is sharp enough for the second step to count: on the benchmark's box pairs turning both, 3.21
    /// intervals per query against 3.32 with one, on large angles 3.62 against 3.71.
    constexpr int REFINE_STEPS = 2;
    /// Share of the previous step beyond which the contact that a step predicts shows the steps closing in only
    /// linearly (near a contact they land quadratically closer: the next prediction is a few percent of the step or
    /// less). An edge-on-edge contact of a turning body against a still one then takes the edges' common normal.
    constexpr double STALLED_SHARE = 0.1;
    /// Largest |e| |f| / |e x f| (1 / sine of the edges' angle) for which the edges' common normal directs the
    /// advancement: nearer parallel, the normal turns fast and its terms grow with that ratio.
    constexpr double MAX_EDGE_SKEW = 8.0;
    /// Where a step lands on its model's root and the model's remainders move that root by at most this many eps
    /// (SeparationModel::sharp_root), but not by the quarter eps that proves the landing on their own, the simplex
    /// features moved to eps past the landing decide the probe (features_cross): beyond, the features rarely meet
    /// there and moving them costs more than the probes it starts (16 to 256 do about as well on the benchmark's
    /// box pairs).
    constexpr double NEAR_ROOT = 64.0;

    /// Scratch memory of one query: its vectors come from a buffer on the stack (enough for two boxes' search; the
    /// heap beyond; the contacts have their own, convex_contacts.cpp), so a query allocates nothing but its result.
    constexpr std::size_t ARENA_BYTES = 16384;
    template <class T> using ScratchVector = std::pmr::vector<T>;

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
            double largest_rate = 0.0, lowest = INFINITE;
            for (std::size_t k = 0; k < heights.size(); ++k) {
                largest_rate = std::max(largest_rate, std::abs(rates[k]));
                lowest = std::min(lowest, heights[k]);
            }
            double lowest_rate = INFINITE;
            for (std::size_t k = 0; k < heights.size(); ++k) {
                lowest_rate = std::min(lowest_rate, select(heights[k] == lowest, rates[k], INFINITE));
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
            , storage_(4 * static_cast<std::size_t>(body.shape.vertices().rows()), arena)
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
            const auto& vertices = body.shape.vertices();
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
            rate_error_ = rounded_up(
                2.0 * spin_norm_ * error_ + 32.0 * UNIT_ROUNDOFF * (travel_.norm() + spin_norm_ * radius_));
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
                return;
            }
            const RigidPlacement placement = body_.motion.placement_at(s);
            for (std::size_t k = 0; k < local_.size(); ++k) {
                probe_points_[k] = placement.rotation * local_[k] + placement.translation;
            }
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
            const double square = half * half;
            const double sine = half * (1.0 - square / 6.0 * (1.0 - square / 20.0));
            const double cosine = 1.0 - square / 2.0 * (1.0 - square / 12.0 * (1.0 - square / 30.0));
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
        ScratchVector<Eigen::Vector3d> storage_;
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
        /// No turn (as rotation_at tests it) and no velocity at all: every placement is the same.
        bool still_ = body_.motion.step_angle() == 0.0 && (body_.motion.linear_velocity().array() == 0.0).all();
        bool placed_ = false;
        double placed_at_ = 0.0; ///< the fraction of the step the points are placed at (once placed_)
    };

    /// A lower bound on the separation of the bodies' vertex hulls along a direction n over [t, t + h], the bodies
    /// placed at t: the least of a's vertex height bounds along n plus the least of b's along -n (SeparationTerms).
    /// For each h it is a concave function of the time s in [0, h], so its values at 0 and h bound it on the whole
    /// interval (apart_for). Near a contact the lines carry the true closing speed and the turns only a cubic
    /// remainder (or a quadratic one that the points turning away do not pay), so steps land next to the contact.
    class SeparationModel {
    public:
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
        void
        update_in_frame(const ConvexSide& frame, const ConvexSide& other, const Eigen::Vector3d& n, bool frame_is_a)
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
                other_side.terms, [&](std::size_t k) { return Eigen::Vector3d(still_points[k] - center); }, nullptr,
                -up, -frame.spin(), -frame.spin_axis(), spin, frame.travel());
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
            return {
                summary, scale, spin, reach, rounded_up(stretch * magnitude), distance, turning.rise, turning.twist
            };
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
            const double rate
                = 2.0 * spin * shift + travel_shift + 32.0 * UNIT_ROUNDOFF * (p.distance + spin * p.reach);
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
            void
            take(const SeparationSummary& summary, double turn, double travel_rise = 0.0, double travel_twist = 0.0)
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
                    const auto [low, lowest] = lowest_of([&](std::size_t k) {
                        return t.heights[k] + h * (t.rates[k] - h * (t.bends[k] + h * twist(k)));
                    });
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
                    low.end,
                    t.heights[k] + h * (t.rates[k] - h * (t.bends[k] + h * t.twists[k])) + weight * t.lifts[k]);
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

    class ConvexSearch {
    public:
        ConvexSearch(const RigidBody& a, const RigidBody& b, const RigidCcdOptions& options)
            : a_(a, &arena_)
            , b_(b, &arena_)
            , model_(a_.points().size(), b_.points().size(), &arena_)
            , options_(options)
        {
        }
        ConvexSearch(const ConvexSearch&) = delete;
        ConvexSearch& operator=(const ConvexSearch&) = delete;

        ConvexAnswer run()
        {
            double t = 0.0;
            bool probed = false;
            double previous_step = INFINITE;
            bool stalled = false; // (the previous step's prediction: STALLED_SHARE)
            for (int step = 0; step < MAX_STEPS; ++step) {
                ++stats_.intervals;
                a_.place(t);
                b_.place(t);
                // GJK starts from the simplex of the previous time (the same vertices, moved a little); the first
                // time from the vertices farthest along the line between the centres (0.5-2.5% fewer instructions per
                // box-box query than from the first vertices).
                const Eigen::Vector3d offset = convex_hull_offset(
                    a_.points(), b_.points(), simplex_, a_.center() - b_.center(), distance_tolerance_);
                if (offset.squaredNorm() == 0.0) {
                    return undecided(); // (nearly) touching at t: the general search decides
                }
                // Along the closest direction the separation closes early where the contact's features turn;
                // along their normal moved to the (guessed) contact it closes nearly at the contact. Any direction
                // apart at t gives a certified model; the closest one always is.
                Eigen::Vector3d n = offset.normalized();
                features_contact_ = std::numeric_limits<double>::quiet_NaN();
                if (!along_turning_features(n, stalled)) {
                    const auto turned = turned_direction(n, refined_time_to_contact(offset, n));
                    if (turned) {
                        model_.update(a_, b_, *turned);
                    }
                    if (turned && model_.apart_for(0.0)) {
                        n = *turned;
                    } else {
                        model_.update(a_, b_, n);
                        if (!model_.apart_for(0.0)) {
                            return undecided();
                        }
                    }
                }
                const SeparationModel& model = model_;
                const double remaining = options_.t_max - t;
                const double contact = std::min(model.predicted_contact(remaining, 0.125 * options_.eps), remaining);
                if (contact <= 0.5 * options_.eps && !probed) {
                    // The contact is likely within eps: an overlap at t + eps proves it.
                    probed = true;
                    if (auto found = probe(t, n)) {
                        return { std::move(found), stats_ };
                    }
                }
                // (A model that predicts a contact before `remaining` is not positive there.)
                if (contact == remaining && model.apart_for(remaining)) {
                    return { miss(), stats_ };
                }
                stalled = contact > STALLED_SHARE * previous_step;
                const double h = certified_step(model, contact);
                previous_step = h;
                if (!(h > 0.0)) {
                    return undecided();
                }
                // t + h rounded down twice stays at or below the exact sum.
                const double next = next_below(next_below(t + h));
                if (!(next > t)) {
                    return undecided();
                }
                const double stepped = next - t;
                t = next;
                // The predicted contact lies a quarter eps past t now. Where the model's parabola moves its root by
                // less than that, or the simplex features' own contact (refined_time_to_contact) agrees with it, or
                // those features, moved to eps after t, have met (NEAR_ROOT), an overlap eps after t likely proves the
                // contact at once, without a distance at t (nothing touches before t: the model certified the step).
                // The bodies are placed at t first: the contacts' normals are oriented from there (from the step's
                // start, edges that turned in between could point the wrong way).
                probed = contact < remaining && contact - h <= 0.5 * options_.eps
                    && (model.sharp_root(contact, 0.25 * options_.eps)
                        || std::abs(features_contact_ - contact) <= 0.5 * options_.eps
                        || (model.sharp_root(contact, NEAR_ROOT * options_.eps)
                            && features_cross(n, stepped + options_.eps)));
                if (probed) {
                    a_.place(t);
                    b_.place(t);
                    if (auto found = probe(t, n)) {
                        return { std::move(found), stats_ };
                    }
                }
            }
            return undecided();
        }

    private:
        ConvexAnswer undecided() const { return { std::nullopt, stats_ }; }

        /// The interval of a hit (result_of's `found`).
        struct Hit {
            double lower;
            double upper;
        };
        RigidCcdResult miss() const
        {
            return result_of(
                std::optional<Hit>(), options_, stats_, [](const Hit&) { return std::vector<RigidContact>(); });
        }

        /// The time (fraction of the step) for the distance |offset| to close at the rate the closest points
        /// approach along n, where the bodies turn little until then (WITNESS_TURN), else at the rate of the GJK
        /// simplex's fastest vertex; infinite if they do not approach. A guess. The closest point of P - Q is the
        /// combination of the simplex's vertices with the weights that give `offset`: its rate is theirs so
        /// combined. (Near the contact the fastest vertex, a tilting face's far corner, guesses early, and the
        /// normal turned to that time falls short of the contact's: the steps then close in on it by a constant
        /// fraction only.)
        [[nodiscard]] double guessed_time_to_contact(const Eigen::Vector3d& offset, const Eigen::Vector3d& n) const
        {
            if (!a_.turns() && !b_.turns()) {
                return INFINITE; // (unused: without turning the closest direction is kept)
            }
            std::array<double, 4> rates {};
            double fastest = 0.0;
            for (std::size_t k = 0; k < static_cast<std::size_t>(simplex_.size); ++k) {
                const auto& [i, j] = simplex_.ids[k];
                rates[k] = b_.rate(n, j) - a_.rate(n, i);
                fastest = std::max(fastest, rates[k]);
            }
            const double distance = offset.norm();
            const double fastest_time = fastest > 0.0 ? distance / fastest : INFINITE;
            const double turn = a_.step_angle() + b_.step_angle();
            if (!(fastest_time * turn <= WITNESS_TURN)) {
                return fastest_time; // the closest points close no faster: their time turns the bodies too far too
            }
            const std::array<double, 4> weight = simplex_weights(offset);
            double closing = 0.0;
            for (std::size_t k = 0; k < static_cast<std::size_t>(simplex_.size); ++k) {
                closing += weight[k] * rates[k];
            }
            const double witness_time = closing > 0.0 ? distance / closing : INFINITE;
            return witness_time * turn <= WITNESS_TURN ? witness_time : fastest_time;
        }

        /// Weights (summing to 1) of the GJK simplex's vertices (points() of a less those of b) that combine to
        /// `offset`, a point of the simplex; equal weights where the simplex is degenerate (or a tetrahedron, which
        /// GJK leaves only where the hulls overlap and the search stops).
        [[nodiscard]] std::array<double, 4> simplex_weights(const Eigen::Vector3d& offset) const
        {
            const int size = simplex_.size;
            const double even = 1.0 / static_cast<double>(std::max(size, 1));
            std::array<double, 4> weight { even, even, even, even };
            if (size != 2 && size != 3) {
                return weight;
            }
            std::array<Eigen::Vector3d, 3> w;
            for (std::size_t k = 0; k < static_cast<std::size_t>(size); ++k) {
                const auto& [i, j] = simplex_.ids[k];
                w[k] = a_.points()[i] - b_.points()[j];
            }
            if (size == 2) {
                const Eigen::Vector3d e = w[1] - w[0];
                const double length_squared = e.squaredNorm();
                if (length_squared > 0.0) {
                    const double u = std::clamp((offset - w[0]).dot(e) / length_squared, 0.0, 1.0);
                    weight = { 1.0 - u, u, 0.0, 0.0 };
                }
            } else {
                const Eigen::Vector3d e1 = w[1] - w[0], e2 = w[2] - w[0], d = offset - w[0];
                const double a11 = e1.squaredNorm(), a22 = e2.squaredNorm(), a12 = e1.dot(e2);
                const double det = a11 * a22 - a12 * a12;
                if (det > 0.0) {
                    const double u = std::clamp((a22 * d.dot(e1) - a12 * d.dot(e2)) / det, 0.0, 1.0);
                    const double v = std::clamp((a11 * d.dot(e2) - a12 * d.dot(e1)) / det, 0.0, 1.0 - u);
                    weight = { 1.0 - u - v, u, v, 0.0 };
                }
            }
            return weight;
        }

        /// Where one body turns and the other is still, and GJK's simplex is a face of the turning body against a
        /// vertex of the still one, or an edge of each once the steps have `stalled` (STALLED_SHARE), the model along
        /// a direction that turns with the features: the face's normal (SeparationModel::update_in_frame) or the
        /// edges' common normal (update_along_edges), when it certifies the bodies apart now; then n is that
        /// direction at the placed time. False (the model untouched or to be replaced) otherwise. (The edges' normal
        /// only once stalled: seen from the turning body the still one's points lie farther from the centre and its
        /// travel turns, so its cubic remainders exceed the world-fixed model's where that one closes in well, as on
        /// the benchmark's screw motions.)
        bool along_turning_features(Eigen::Vector3d& n, bool stalled)
        {
            if (simplex_.size != 3) {
                return false;
            }
            const bool a_turns = a_.spins() && b_.still(), b_turns = b_.spins() && a_.still();
            if (!a_turns && !b_turns) {
                return false;
            }
            const auto& ids = simplex_.ids;
            // The distinct vertices of each body among the simplex's three.
            const auto distinct = [&ids](std::size_t side) {
                return ids[0][side] == ids[1][side]
                    ? (ids[1][side] == ids[2][side] ? 1 : 2)
                    : (ids[0][side] == ids[2][side] || ids[1][side] == ids[2][side] ? 2 : 3);
            };
            const int count_a = distinct(0), count_b = distinct(1);
            const ConvexSide& frame = a_turns ? a_ : b_;
            const ConvexSide& other = a_turns ? b_ : a_;
            const std::size_t frame_column = a_turns ? 0 : 1;
            const auto point
                = [&ids](const ConvexSide& side, std::size_t column, std::size_t k) -> const Eigen::Vector3d& {
                return side.points()[ids[k][column]];
            };
            if ((a_turns ? count_a : count_b) == 3 && (a_turns ? count_b : count_a) == 1) {
                // A face of the turning body against a vertex of the still one.
                const auto corner
                    = [&](std::size_t k) -> const Eigen::Vector3d& { return point(frame, frame_column, k); };
                Eigen::Vector3d m = (corner(1) - corner(0)).cross(corner(2) - corner(0));
                m *= facing_sign(m, n);
                const double length = m.norm();
                if (!(length > 0.0) || !std::isfinite(length)) {
                    return false;
                }
                const Eigen::Vector3d normal = m / length;
                model_.update_in_frame(frame, other, normal, a_turns);
                if (!model_.apart_for(0.0)) {
                    return false;
                }
                n = normal;
                return true;
            }
            if (!stalled || count_a != 2 || count_b != 2) {
                return false;
            }
            // An edge of each: the two simplex vertices that differ in a body are its edge's ends.
            const auto edge = [&](const ConvexSide& side, std::size_t column) {
                const std::size_t last = ids[0][column] != ids[1][column] ? 1 : 2;
                return Eigen::Vector3d(point(side, column, last) - point(side, column, 0));
            };
            const Eigen::Vector3d frame_edge = edge(frame, frame_column), other_edge = edge(other, 1 - frame_column);
            const auto normal = model_.update_along_edges(frame, other, frame_edge, other_edge, n, a_turns);
            if (!normal || !model_.apart_for(0.0)) {
                return false;
            }
            n = *normal;
            return true;
        }

        /// The guessed time to contact (guessed_time_to_contact), refined where the bodies turn little until then
        /// (REFINE_TURN) by secant steps on the gap of the GJK simplex's features moved ahead (features_at), from the
        /// distance now (their gap at 0). Where those features are the contact's, their gap closes at the contact
        /// and their normal there is the contact normal: the model along it then predicts the contact itself, not a
        /// time short of it (a normal taken at a guess off by dt tilts by about |w| dt and the separation along it
        /// closes early by that times the features' extent). Records the refined time in features_contact_. A
        /// guess.
        [[nodiscard]] double refined_time_to_contact(const Eigen::Vector3d& offset, const Eigen::Vector3d& n)
        {
            double h = guessed_time_to_contact(offset, n);
            if (!((a_.step_angle() + b_.step_angle()) * h <= REFINE_TURN)) {
                return h;
            }
            double previous = 0.0, previous_gap = offset.norm();
            for (int k = 0; k < REFINE_STEPS; ++k) {
                const auto at = features_at(n, h);
                if (!at || at->gap == previous_gap) {
                    return h;
                }
                const double next = h - at->gap * (h - previous) / (at->gap - previous_gap);
                if (!(next > 0.0 && next <= 1.0)) {
                    return h; // (the secant leaves the step, or is not finite: the guess stands)
                }
                previous = h;
                previous_gap = at->gap;
                h = next;
            }
            features_contact_ = h;
            return h;
        }

        /// The GJK simplex's features with both bodies moved a fraction h of the step ahead: their normal (of a face,
        /// of two edges; for a vertex against an edge, n made square to the edge), pointing as n does, and the gap
        /// along it (the bodies apart where positive); none where undefined, or where nothing turns (the normal stays
        /// n). At the contact it is the contact normal. A guess (rounding unbounded), never part of a bound.
        struct MovedFeatures {
            Eigen::Vector3d normal;
            double gap;
        };
        [[nodiscard]] std::optional<MovedFeatures> features_at(const Eigen::Vector3d& n, double h) const
        {
            const int size = simplex_.size;
            if (size < 2 || size > 3 || !std::isfinite(h) || (!a_.turns() && !b_.turns())) {
                return std::nullopt;
            }
            const Eigen::Matrix3d turn_a = a_.turn(h).toRotationMatrix(), turn_b = b_.turn(h).toRotationMatrix();
            // Each body's points moved once (the simplex repeats them: a face against a vertex, two edges).
            std::array<Eigen::Vector3d, 3> moved_a, moved_b, w;
            const auto& ids = simplex_.ids;
            // Vertex k of one side (`column` of the ids), moved, or the copy of an earlier vertex with the same id.
            const auto moved = [&](std::size_t k, const ConvexSide& side, std::size_t column,
                                   const Eigen::Matrix3d& turn, std::array<Eigen::Vector3d, 3>& out) {
                std::size_t same = 0;
                while (same < k && ids[same][column] != ids[k][column]) {
                    ++same;
                }
                out[k] = same < k ? out[same] : side.guessed_point(ids[k][column], h, turn);
                return out[k];
            };
            for (std::size_t k = 0; k < static_cast<std::size_t>(size); ++k) {
                w[k] = moved(k, a_, 0, turn_a, moved_a) - moved(k, b_, 1, turn_b, moved_b);
            }
            const Eigen::Vector3d e = w[1] - w[0];
            Eigen::Vector3d m = size == 3 ? Eigen::Vector3d(e.cross(w[2] - w[0]))
                                          : Eigen::Vector3d(n - (n.dot(e) / e.squaredNorm()) * e);
            m *= facing_sign(m, n);
            const double length = m.norm();
            if (!(length > 0.0) || !std::isfinite(length)) {
                return std::nullopt;
            }
            const Eigen::Vector3d normal = m / length;
            return MovedFeatures { normal, normal.dot(w[0]) };
        }
        /// Whether the GJK simplex's features, moved a fraction h of the step ahead (features_at), have met: a guess
        /// that the bodies touch by then.
        [[nodiscard]] bool features_cross(const Eigen::Vector3d& n, double h) const
        {
            const auto at = features_at(n, h);
            return at && at->gap <= 0.0;
        }
        /// The features' normal moved a fraction h ahead (features_at).
        [[nodiscard]] std::optional<Eigen::Vector3d> turned_direction(const Eigen::Vector3d& n, double h) const
        {
            const auto at = features_at(n, h);
            return at ? std::optional<Eigen::Vector3d>(at->normal) : std::nullopt;
        }

        /// The longest of a few steps aimed at just short of the predicted contact that the model certifies.
        double certified_step(const SeparationModel& model, double contact) const
        {
            // Aim a quarter of eps short of the contact, so the next time probes it; then fall back by halves.
            const double quarter = 0.25 * options_.eps;
            double h = contact > 2.0 * quarter ? contact - quarter : 0.5 * contact;
            for (int k = 0; k < MAX_HALVINGS; ++k, h *= 0.5) {
                if (model.apart_for(h)) {
                    return h;
                }
            }
            return 0.0;
        }

        /// A hit in [t, t + eps] when the hulls overlap at t + eps (t is certified: nothing touches before it;
        /// the bodies are placed at t).
        std::optional<RigidCcdResult> probe(double t, const Eigen::Vector3d& n)
        {
            ++stats_.intervals;
            double upper = std::min(t + options_.eps, options_.t_max);
            while (upper - t > options_.eps) {
                upper = next_below(upper); // the width stays within eps despite rounding
            }
            a_.place_probe(upper);
            b_.place_probe(upper);
            HullSimplex simplex = simplex_;
            if (convex_hull_offset(a_.probe_points(), b_.probe_points(), simplex, n).squaredNorm() != 0.0) {
                // Apart eps later: the next distance, at t, starts from this simplex (the bodies' closest
                // features near the contact, where the previous one may hold others).
                simplex_ = simplex;
                return std::nullopt;
            }
            return result_of(std::optional<Hit>({ t, upper }), options_, stats_, [&](const Hit& hit) {
                return contacts(hit.lower, hit.upper, n);
            });
        }

        /// Contacts at `upper` (probe_points(); points() at `lower`): every feature pair within the interval's
        /// slack of the closest, as the general search reports them.
        std::vector<RigidContact> contacts(double lower, double upper, const Eigen::Vector3d& n)
        {
            const auto side = [](const ConvexSide& s) {
                return ConvexContactSide { s.body().shape, s.points(), s.probe_points(), s.radius(),
                                           s.step_angle(), s.error(),  s.speed() };
            };
            return convex_contacts(side(a_), side(b_), lower, upper, n, stats_);
        }

        /// Memory for the members below (declared first: built before them, freed after).
        std::array<std::byte, ARENA_BYTES> buffer_;
        std::pmr::monotonic_buffer_resource arena_ { buffer_.data(), buffer_.size() };
        ConvexSide a_;
        ConvexSide b_;
        SeparationModel model_;
        HullSimplex simplex_;
        RigidCcdOptions options_;
        RigidCcdStats stats_;
        /// The simplex features' refined contact time from the latest placed time (refined_time_to_contact; NaN where
        /// not refined): where it agrees with the model's predicted contact, the step lands on the contact.
        double features_contact_ = std::numeric_limits<double>::quiet_NaN();
        /// GJK's relative tolerance. Without turns the model along the closest direction is exact (its step lands
        /// on the contact when the closest features are the contact's), so an exact direction saves steps; with
        /// turns the model's curvature term dominates the landing and 5% is enough.
        double distance_tolerance_ = a_.turns() || b_.turns() ? 0.05 : 1e-9;
    };

} // namespace

bool convex_pair(const RigidBody& a, const RigidBody& b)
{
    return a.shape.mesh_data().convex && b.shape.mesh_data().convex;
}

ConvexAnswer convex_time_of_contact(const RigidBody& a, const RigidBody& b, const RigidCcdOptions& options)
{
    return ConvexSearch(a, b, options).run();
}

} // namespace ccdkit::details
