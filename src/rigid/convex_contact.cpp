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
#include "rigid/details/certain_overlap.hpp"
#include "rigid/details/contact_searches.hpp"
#include "rigid/details/convex_contacts.hpp"
#include "rigid/details/convex_distance.hpp"
#include "rigid/details/convex_side.hpp"
#include "rigid/details/mesh_shape_data.hpp"
#include "rigid/details/rounding.hpp"
#include "rigid/details/separation_model.hpp"

#include <ccdkit/core/filtered_double_double.hpp>
#include <ccdkit/rigid/rigid_contact.hpp>

#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory_resource>
#include <optional>
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
    /// Where a step lands on its model's root and the model's remainders move that root by at most this many eps
    /// (SeparationModel::sharp_root), but not by the quarter eps that proves the landing on their own, the simplex
    /// features moved to eps past the landing decide the probe (features_cross): beyond, the features rarely meet
    /// there and moving them costs more than the probes it starts (16 to 256 do about as well on the benchmark's
    /// box pairs).
    constexpr double NEAR_ROOT = 64.0;

    /// Scratch memory of one query: its vectors come from a buffer on the stack (enough for two boxes' search; the
    /// heap beyond; the contacts have their own, convex_contacts.cpp), so a query allocates nothing but its result.
    constexpr std::size_t ARENA_BYTES = 16384;

    /// How much nearer the origin the bodies' start translations must come for near_origin to move them.
    constexpr double NEAR_SHARE = 1.0 / 64.0;
    /// Share of eps times the bodies' speed (per step) beyond which the rounding of their coordinates counts: the
    /// search slows down from about a tenth (boxes 1e7 out), and answers early by about the rounding over the speed.
    constexpr double ROUNDING_SHARE = 1.0 / 128.0;

    /// A bound on the distance of the body's points from its centre of mass (a mesh's).
    double reach_of(const RigidBody& body)
    {
        return rounded_up(body.shape.mesh_data().origin_radius + body.motion.center_of_mass().norm());
    }

    /// Where the bodies lie so far out that the rounding of their coordinates (a few dozen ulps of the largest) counts
    /// against eps times their speed (ROUNDING_SHARE), side by side: a point from which each start translation differs
    /// exactly (per coordinate b's, where a's less it is exact, else 0), when that brings them NEAR_SHARE as near the
    /// origin or nearer. The question moved there is the same, exactly, and its rounding that of bodies near the
    /// origin. None otherwise (bodies at rest included: their speed is 0).
    std::optional<Eigen::Vector3d> near_origin(const RigidBody& a, const RigidBody& b, double eps)
    {
        const Eigen::Vector3d& from_a = a.motion.start().translation;
        const Eigen::Vector3d& from_b = b.motion.start().translation;
        const double far = std::max(from_a.cwiseAbs().maxCoeff(), from_b.cwiseAbs().maxCoeff());
        const double speed = a.motion.step_travel() + b.motion.step_travel() + a.motion.step_angle() * reach_of(a)
            + b.motion.step_angle() * reach_of(b);
        if (!(64.0 * UNIT_ROUNDOFF * far > ROUNDING_SHARE * eps * speed) || !(speed > 0.0)) {
            return std::nullopt;
        }
        Eigen::Vector3d origin = Eigen::Vector3d::Zero();
        for (Eigen::Index k = 0; k < 3; ++k) {
            double difference = 0.0, error = 0.0;
            dd::two_sum(from_a[k], -from_b[k], difference, error); // (the difference's rounding error, exactly)
            origin[k] = error == 0.0 ? from_b[k] : 0.0;
        }
        const double near = std::max((from_a - origin).cwiseAbs().maxCoeff(), (from_b - origin).cwiseAbs().maxCoeff());
        return near <= NEAR_SHARE * far ? std::optional<Eigen::Vector3d>(origin) : std::nullopt;
    }

    class ConvexSearch {
    public:
        /// `start_allowance`: a distance at the start within which the bodies count as touching (their coordinates'
        /// rounding where they were moved to a frame near them: near_origin), and the general search decides.
        ConvexSearch(const RigidBody& a, const RigidBody& b, const RigidCcdOptions& options, double start_allowance)
            : a_(a, &arena_)
            , b_(b, &arena_)
            , model_(a_.points().size(), b_.points().size(), &arena_)
            , options_(options)
            , start_allowance_(start_allowance)
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
                if (offset.squaredNorm() == 0.0 || (t == 0.0 && offset.norm() <= start_allowance_)) {
                    return undecided(); // (nearly) touching at t: the general search decides
                }
                // Along the closest direction the separation closes early where the contact's features turn;
                // along their normal moved to the (guessed) contact it closes nearly at the contact. Any direction
                // apart at t gives a certified model; the closest one always is.
                Eigen::Vector3d n = offset.normalized();
                features_contact_ = std::numeric_limits<double>::quiet_NaN();
                if (!along_turning_features(n, stalled)) {
                    const double refined = refined_time_to_contact(offset, n);
                    const auto turned = std::isnan(features_contact_) ? turned_direction(n, refined)
                                                                      : std::optional<Eigen::Vector3d>(refined_normal_);
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
                    if (auto answer = probe(t, n)) {
                        return std::move(*answer);
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
                // (The bodies stay placed at the step's start: the contacts place them at t, where their normals are
                // oriented from, and so does the next step where the probe finds them apart.)
                probed = contact < remaining && contact - h <= 0.5 * options_.eps
                    && (model.sharp_root(contact, 0.25 * options_.eps)
                        || std::abs(features_contact_ - contact) <= 0.5 * options_.eps
                        || (model.sharp_root(contact, NEAR_ROOT * options_.eps)
                            && features_cross(n, stepped + options_.eps)));
                if (probed) {
                    if (auto answer = probe(t, n)) {
                        return std::move(*answer);
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
        /// closes early by that times the features' extent). Records the refined time in features_contact_ and the
        /// features' normal there in refined_normal_. A guess.
        [[nodiscard]] double refined_time_to_contact(const Eigen::Vector3d& offset, const Eigen::Vector3d& n)
        {
            double h = guessed_time_to_contact(offset, n);
            if (!((a_.step_angle() + b_.step_angle()) * h <= REFINE_TURN)) {
                return h;
            }
            static_assert(REFINE_STEPS >= 2, "the normal is extrapolated from the last two secant points");
            double previous = 0.0, previous_gap = offset.norm();
            std::array<Eigen::Vector3d, REFINE_STEPS> normals;
            std::array<double, REFINE_STEPS> times {};
            for (int k = 0; k < REFINE_STEPS; ++k) {
                const auto at = features_at(n, h);
                if (!at || at->gap == previous_gap) {
                    return h;
                }
                const double next = h - at->gap * (h - previous) / (at->gap - previous_gap);
                if (!(next > 0.0 && next <= 1.0)) {
                    return h; // (the secant leaves the step, or is not finite: the guess stands)
                }
                normals[static_cast<std::size_t>(k)] = at->normal;
                times[static_cast<std::size_t>(k)] = h;
                previous = h;
                previous_gap = at->gap;
                h = next;
            }
            // The features' normal at h, from their normals at the last two secant points (turned_direction would move
            // them once more).
            const std::size_t last = REFINE_STEPS - 1;
            const double span = times[last] - times[last - 1];
            const Eigen::Vector3d normal
                = normals[last] + ((h - times[last]) / span) * (normals[last] - normals[last - 1]);
            const double length = normal.norm();
            if (!(length > 0.0) || !std::isfinite(length)) {
                return h; // (not refined: the features are moved to h)
            }
            refined_normal_ = normal / length;
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

        /// A hit in [t, t + eps] when the hulls certainly overlap at t + eps (t is certified: nothing touches before
        /// it); undecided where GJK finds them overlapping but that is not certain
        /// (certainly_inside_difference); none (go on) where they are apart.
        std::optional<ConvexAnswer> probe(double t, const Eigen::Vector3d& n)
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
            // GJK's own side tests settle nearly every overlap; the exact differences decide the rest.
            if (simplex.size != 4
                || !(
                    simplex.certainly_inside
                    || certainly_inside_difference(a_.probe_points(), b_.probe_points(), simplex.ids))) {
                return undecided();
            }
            return ConvexAnswer { result_of(
                                      std::optional<Hit>({ t, upper }), options_, stats_,
                                      [&](const Hit& hit) { return contacts(hit.lower, hit.upper, n); }),
                                  stats_ };
        }

        /// Contacts at `upper` (probe_points(); points() at `lower`): every feature pair within the interval's
        /// slack of the closest, as the general search reports them.
        std::vector<RigidContact> contacts(double lower, double upper, const Eigen::Vector3d& n)
        {
            // Placed at `lower` here, not before the probe: the times alone (RigidCcdOptions::contacts false) never
            // read those points. Edges that turned since the step's start could point the wrong way from there.
            a_.place(lower);
            b_.place(lower);
            const auto side = [](const ConvexSide& s) {
                return ConvexContactSide { s.body().shape,   s.body().motion,    s.points(),
                                           s.probe_points(), s.probe_rotation(), s.radius(),
                                           s.step_angle(),   s.error(),          s.speed() };
            };
            return convex_contacts(side(a_), side(b_), lower, upper, n, stats_);
        }

        /// Memory for the members below (declared first: built before them, freed after). Aligned to a cache line, so
        /// that the arrays carved from it sit on the lines alike in every process: left to the stack's alignment, the
        /// same build ran 2-3% faster or slower from one process to the next (the environment's size moves the stack;
        /// box pairs, 2026-11-29).
        alignas(64) std::array<std::byte, ARENA_BYTES> buffer_;
        std::pmr::monotonic_buffer_resource arena_ { buffer_.data(), buffer_.size() };
        ConvexSide a_;
        ConvexSide b_;
        SeparationModel model_;
        HullSimplex simplex_;
        RigidCcdOptions options_;
        double start_allowance_;
        RigidCcdStats stats_;
        /// The simplex features' refined contact time from the latest placed time (refined_time_to_contact; NaN where
        /// not refined): where it agrees with the model's predicted contact, the step lands on the contact.
        double features_contact_ = std::numeric_limits<double>::quiet_NaN();
        /// The simplex features' normal at features_contact_ (where that is a number), extrapolated from the secant
        /// steps': moving the features once more to the refined time (turned_direction: one chain of products, a square
        /// root and a division) landed the steps no better, and leaving it out made the box pairs' rotation and large
        /// angle queries 4.5-5% faster (intervals per query 3.18 and 3.59 against 3.18 and 3.57).
        Eigen::Vector3d refined_normal_ = Eigen::Vector3d::UnitX();
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
    // Far out, the bodies meet in a frame near them: boxes 4e7 out had taken 30 intervals where 3 do near the origin
    // and answered 3e-6 early (eps 1e-6). Where they touch at the start within their coordinates' rounding, the bodies
    // as placed decide, as before (a box resting far out on another touches at the start, sliding or pressed, where
    // its rounded pose leaves a hair between them).
    if (const auto origin = near_origin(a, b, options.eps)) {
        const RigidBody near_a { a.shape, a.motion.translated(-*origin) };
        const RigidBody near_b { b.shape, b.motion.translated(-*origin) };
        const double rounding = a.motion.point_error_bound(reach_of(a)) + b.motion.point_error_bound(reach_of(b));
        ConvexAnswer answer = ConvexSearch(near_a, near_b, options, rounded_up(4.0 * rounding)).run();
        if (answer.result) {
            for (RigidContact& contact : answer.result->contacts) {
                contact.point += *origin;
            }
        }
        return answer;
    }
    return ConvexSearch(a, b, options, 0.0).run();
}

} // namespace ccdkit::details
