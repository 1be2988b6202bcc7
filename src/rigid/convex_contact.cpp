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
// next to it (quadratically closer each step) where a global speed bound creeps up geometrically.
//
// Upper bound. Once the lower bound is within eps of the predicted contact, the hulls are tested at t + eps: if
// GJK finds them overlapping, the bodies (convex, so their hulls up to CONVEX_TOLERANCE) touched in between.
//
// Anything else (bodies overlapping at the start, a graze that the probe misses, no certified step) is left to
// the general search, which is correct for any mesh.

#include "rigid/details/contact_searches.hpp"
#include "rigid/details/convex_contacts.hpp"
#include "rigid/details/convex_distance.hpp"
#include "rigid/details/mesh_shape_data.hpp"
#include "rigid/details/rounding.hpp"

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

    /// Scratch memory of one query: its vectors come from a buffer on the stack (enough for two boxes' search; the
    /// heap beyond; the contacts have their own, convex_contacts.cpp), so a query allocates nothing but its result.
    constexpr std::size_t ARENA_BYTES = 16384;
    template <class T> using ScratchVector = std::pmr::vector<T>;

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
                local_[k] = vertices.row(static_cast<Eigen::Index>(k)).transpose() - center;
                radius_squared = std::max(radius_squared, local_[k].squaredNorm());
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
            magnitude_ = 0.0;
            for (std::size_t k = 0; k < local_.size(); ++k) {
                arms_[k] = placement.rotation * local_[k];
                points_[k] = arms_[k] + placement.translation;
                magnitude_ = std::max(magnitude_, points_[k].cwiseAbs().sum());
            }
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

        /// Bound on |n.x''| for every body point x and a direction |n| <= 1 + 4 ulps: |n x w| |w| radius (the
        /// cross product's cancellation covered by a few ulps of |w| |n|).
        [[nodiscard]] double curvature(const Eigen::Vector3d& n) const
        {
            const double across = n.cross(spin_).norm() + 8.0 * UNIT_ROUNDOFF * spin_norm_;
            return rounded_up(across * spin_norm_ * radius_);
        }
        /// n.x' at the placed time for vertex k.
        [[nodiscard]] double rate(const Eigen::Vector3d& n, std::size_t k) const
        {
            return n.dot(travel_ + spin_.cross(arms_[k]));
        }
        /// Every vertex's height n.x and rate n.x' = n.d + n.(w x arm) = n.d + (n x w).arm at the placed time, into
        /// `heights` and `rates`, in one pass over the vertices (the triple product's rearrangement costs one cross
        /// product per direction, not per vertex; its rounding, a few ulps of |d| + |w| |arm|, is within
        /// rate_error()). Returns the largest |rate|.
        double
        heights_and_rates_along(const Eigen::Vector3d& n, std::span<double> heights, std::span<double> rates) const
        {
            const double along = n.dot(travel_);
            const Eigen::Vector3d across = n.cross(spin_);
            const std::size_t count = points_.size();
            const Eigen::Vector3d* points = points_.data();
            const Eigen::Vector3d* arms = arms_.data();
            double* height = heights.data();
            double* rate = rates.data();
            double largest = 0.0;
            for (std::size_t k = 0; k < count; ++k) {
                height[k] = n.dot(points[k]);
                rate[k] = along + across.dot(arms[k]);
                largest = std::max(largest, std::abs(rate[k]));
            }
            return largest;
        }

        /// The turn over a fraction h of the step.
        [[nodiscard]] Eigen::Quaterniond turn(double h) const
        {
            if (spin_norm_ == 0.0) {
                return Eigen::Quaterniond::Identity();
            }
            return Eigen::Quaterniond(Eigen::AngleAxisd(h * spin_length_, spin_axis_));
        }
        /// Where vertex k will be a fraction h of the step after the placed time, `turn` = turn(h): a guess for
        /// choosing directions (rounding unbounded), never part of a bound.
        [[nodiscard]] Eigen::Vector3d guessed_point(std::size_t k, double h, const Eigen::Quaterniond& turn) const
        {
            return points_[k] + h * travel_ + (turn * arms_[k] - arms_[k]);
        }

        [[nodiscard]] std::span<const Eigen::Vector3d> points() const { return points_; }
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
        [[nodiscard]] bool turns() const { return body_.motion.step_angle() != 0.0; }

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
        /// No turn (as rotation_at tests it) and no velocity at all: every placement is the same.
        bool still_ = body_.motion.step_angle() == 0.0 && (body_.motion.linear_velocity().array() == 0.0).all();
        bool placed_ = false;
        double placed_at_ = 0.0; ///< the fraction of the step the points are placed at (once placed_)
    };

    /// Every vertex's height along n and its rate at one time, for both bodies (a above, b below).
    class SeparationModel {
    public:
        SeparationModel(std::size_t count_a, std::size_t count_b, std::pmr::memory_resource* arena)
            : storage_(2 * (count_a + count_b), arena)
            , heights_a_(storage_.data(), count_a)
            , rates_a_(heights_a_.data() + count_a, count_a)
            , heights_b_(rates_a_.data() + count_a, count_b)
            , rates_b_(heights_b_.data() + count_b, count_b)
        {
        }

        /// Not copied: the arrays are views of storage_.
        SeparationModel(const SeparationModel&) = delete;
        SeparationModel& operator=(const SeparationModel&) = delete;

        /// The heights and rates along n of the bodies as placed now.
        void update(const ConvexSide& a, const ConvexSide& b, const Eigen::Vector3d& n)
        {
            const double rate_magnitude = std::max(
                a.heights_and_rates_along(n, heights_a_, rates_a_), b.heights_and_rates_along(n, heights_b_, rates_b_));
            curvature_ = 0.5 * (a.curvature(n) + b.curvature(n));
            // Heights: each dot product within 3 ulps of sum |n_k x_k| <= |x|_1 (|n_k| <= 1 + 4 ulps), plus the
            // points' own rounding (times |n| <= 1 + 4 ulps, inside rounded_up). The sums height + h rate and
            // the differences below add a few ulps of the magnitudes; 8 ulps of each covers all of them.
            const double magnitude = std::max(a.magnitude(), b.magnitude());
            constant_error_ = rounded_up(a.error() + b.error() + 8.0 * UNIT_ROUNDOFF * magnitude) + ABSOLUTE_SLACK;
            rate_error_ = rounded_up(a.rate_error() + b.rate_error() + 8.0 * UNIT_ROUNDOFF * rate_magnitude);
        }

        /// Whether the bodies are certainly apart throughout [t, t + h] (F(h) > 0; with F(0) > 0 and
        /// concavity, F > 0 on the whole interval).
        [[nodiscard]] bool apart_for(double h) const
        {
            double low = INFINITE, high = -INFINITE;
            for (std::size_t k = 0; k < heights_a_.size(); ++k) {
                low = std::min(low, heights_a_[k] + h * rates_a_[k]);
            }
            for (std::size_t k = 0; k < heights_b_.size(); ++k) {
                high = std::max(high, heights_b_[k] + h * rates_b_[k]);
            }
            const double bend = rounded_up(curvature_ * h * h);
            // The subtractions' own rounding: one ulp each of the terms, inside 2 ulps of the sum below.
            const double error = rounded_up(constant_error_ + h * rate_error_)
                + 2.0 * UNIT_ROUNDOFF * (std::abs(low) + std::abs(high) + bend);
            return low - high - bend > error;
        }

        /// A guess of the contact: where the model (heights and rates less the parabola, no rounding terms) first
        /// reaches zero in [0, limit], or `limit` if it stays positive there. The model is the least over pairs
        /// (vertex i of a, vertex j of b) of the parabolas f_ij(h) = height_i - height_j + h (rate_i - rate_j) -
        /// curvature h^2, each positive at 0 and concave, so its first root is the least of theirs: the root of the
        /// pair active at h is at or after it, and jumping there moves h down until the active pair's root is the
        /// model's (usually at once: near a contact the active pair stays). apart_for() certifies the steps taken.
        [[nodiscard]] double predicted_contact(double limit) const
        {
            // The pair active at 0 (the lowest of a, the highest of b) bounds the root first.
            const std::size_t i0
                = static_cast<std::size_t>(std::min_element(heights_a_.begin(), heights_a_.end()) - heights_a_.begin());
            const std::size_t j0
                = static_cast<std::size_t>(std::max_element(heights_b_.begin(), heights_b_.end()) - heights_b_.begin());
            double h = std::min(limit, parabola_root(heights_a_[i0] - heights_b_[j0], rates_a_[i0] - rates_b_[j0]));
            constexpr int MAX_JUMPS = 16;
            for (int k = 0; k < MAX_JUMPS; ++k) {
                const auto [i, j] = active_pair(h);
                const double value
                    = heights_a_[i] - heights_b_[j] + h * (rates_a_[i] - rates_b_[j]) - curvature_ * h * h;
                if (value >= 0.0) {
                    return h;
                }
                const double next = parabola_root(heights_a_[i] - heights_b_[j], rates_a_[i] - rates_b_[j]);
                if (!(next < h) || !(next >= 0.0)) {
                    return h;
                }
                h = next;
            }
            return h;
        }

        /// Whether the parabola's share of the model moves a root near h by at most `tolerance` (as a time): its
        /// bend curvature h^2 over the mean closing rate (the separation at 0 over h).
        [[nodiscard]] bool sharp_root(double h, double tolerance) const
        {
            const double gap = *std::min_element(heights_a_.begin(), heights_a_.end())
                - *std::max_element(heights_b_.begin(), heights_b_.end());
            return curvature_ * h * h * h <= tolerance * gap;
        }

    private:
        /// The vertices (of a, of b) whose lines are lowest and highest at h.
        [[nodiscard]] std::pair<std::size_t, std::size_t> active_pair(double h) const
        {
            std::size_t i = 0, j = 0;
            double low = INFINITE, high = -INFINITE;
            for (std::size_t k = 0; k < heights_a_.size(); ++k) {
                const double x = heights_a_[k] + h * rates_a_[k];
                if (x < low) {
                    low = x;
                    i = k;
                }
            }
            for (std::size_t k = 0; k < heights_b_.size(); ++k) {
                const double x = heights_b_[k] + h * rates_b_[k];
                if (x > high) {
                    high = x;
                    j = k;
                }
            }
            return { i, j };
        }

        /// The positive root of gap + h rate - curvature h^2 (gap > 0), infinite if there is none; each form
        /// avoids the cancellation of the other.
        [[nodiscard]] double parabola_root(double gap, double rate) const
        {
            if (curvature_ == 0.0) {
                return rate < 0.0 ? gap / -rate : INFINITE;
            }
            const double root = std::sqrt(rate * rate + 4.0 * curvature_ * gap);
            return rate < 0.0 ? 2.0 * gap / (root - rate) : (rate + root) / (2.0 * curvature_);
        }

        /// The four arrays below in one allocation.
        ScratchVector<double> storage_;
        std::span<double> heights_a_, rates_a_, heights_b_, rates_b_;
        double curvature_ = 0.0;
        double constant_error_ = 0.0;
        double rate_error_ = 0.0;
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
            for (int step = 0; step < MAX_STEPS; ++step) {
                ++stats_.intervals;
                a_.place(t);
                b_.place(t);
                // GJK starts from the simplex of the previous time (the same vertices, moved a little).
                const Eigen::Vector3d offset = convex_hull_offset(
                    a_.points(), b_.points(), simplex_, Eigen::Vector3d::Zero(), distance_tolerance_);
                if (offset.squaredNorm() == 0.0) {
                    return undecided(); // (nearly) touching at t: the general search decides
                }
                // Along the closest direction the separation closes early where the contact's features turn;
                // along their normal moved to the (guessed) contact it closes nearly at the contact. Any direction
                // apart at t gives a certified model; the closest one always is.
                Eigen::Vector3d n = offset.normalized();
                const auto turned = turned_direction(n, guessed_time_to_contact(offset, n));
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
                const SeparationModel& model = model_;
                const double remaining = options_.t_max - t;
                const double contact = std::min(model.predicted_contact(remaining), remaining);
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
                const double h = certified_step(model, contact);
                if (!(h > 0.0)) {
                    return undecided();
                }
                // t + h rounded down twice stays at or below the exact sum.
                const double next = next_below(next_below(t + h));
                if (!(next > t)) {
                    return undecided();
                }
                t = next;
                // The predicted contact lies a quarter eps past t now. Where the model's parabola moves its root by
                // less than that, an overlap eps after t likely proves the contact at once, without a distance at t
                // (nothing touches before t: the model certified the step). The bodies are placed at t first: the
                // contacts' normals are oriented from there (from the step's start, edges that turned in between
                // could point the wrong way).
                probed = contact < remaining && contact - h <= 0.5 * options_.eps
                    && model.sharp_root(contact, 0.25 * options_.eps);
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

        RigidCcdResult miss() const
        {
            RigidCcdResult result;
            result.toi_lower = result.toi_upper = options_.t_max;
            result.stats = stats_;
            return result;
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

        /// The normal of the GJK simplex's features (a face, two edges; for a vertex against an edge, n made
        /// square to the edge) with both bodies moved a fraction h of the step ahead, pointing as n does; none
        /// where undefined, or where nothing turns (the normal stays n). At the contact it is the contact normal.
        [[nodiscard]] std::optional<Eigen::Vector3d> turned_direction(const Eigen::Vector3d& n, double h) const
        {
            const int size = simplex_.size;
            if (size < 2 || size > 3 || !std::isfinite(h) || (!a_.turns() && !b_.turns())) {
                return std::nullopt;
            }
            const Eigen::Quaterniond turn_a = a_.turn(h), turn_b = b_.turn(h);
            std::array<Eigen::Vector3d, 3> w;
            for (std::size_t k = 0; k < static_cast<std::size_t>(size); ++k) {
                const auto& [i, j] = simplex_.ids[k];
                w[k] = a_.guessed_point(i, h, turn_a) - b_.guessed_point(j, h, turn_b);
            }
            const Eigen::Vector3d e = w[1] - w[0];
            Eigen::Vector3d m = size == 3 ? Eigen::Vector3d(e.cross(w[2] - w[0]))
                                          : Eigen::Vector3d(n - (n.dot(e) / e.squaredNorm()) * e);
            if (m.dot(n) < 0.0) {
                m = -m;
            }
            const double length = m.norm();
            if (!(length > 0.0) || !std::isfinite(length)) {
                return std::nullopt;
            }
            return Eigen::Vector3d(m / length);
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
            RigidCcdResult result;
            result.hit = true;
            result.toi_lower = t;
            result.toi_upper = upper;
            result.contacts = contacts(t, upper, n);
            result.stats = stats_;
            return result;
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
