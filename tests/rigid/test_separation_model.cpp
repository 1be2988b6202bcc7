// SPDX-License-Identifier: MIT
// The convex path's bound (separation_model.hpp) against the exact motion: wherever the model certifies two convex
// bodies apart over [t, t + h] along its direction (fixed in the world, turning with a body's frame, or the common
// normal of an edge of each), their vertex hulls' separation along that direction, evaluated in long double from
// RigidMotion's formula at many times and at t + h itself, is positive. The steps are taken as the search takes
// them (just short of the model's predicted contact), so that they end where the true separation is nearly gone and
// a term left out of the bound would show.

#include "box_solid.hpp"
#include "random_motions.hpp"
#include "rigid/details/convex_distance.hpp"
#include "rigid/details/convex_side.hpp"
#include "rigid/details/separation_model.hpp"

#include <ccdkit/rigid/rigid_contact.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory_resource>
#include <numbers>
#include <optional>
#include <vector>

namespace ccdkit {
namespace {

    using details::ConvexSide;
    using details::SeparationModel;

    using Real = long double;
    using Vec = Eigen::Matrix<Real, 3, 1>;

    /// exp([w]) x (Rodrigues' formula) in long double.
    Vec turned(const Vec& w, const Vec& x)
    {
        const Real angle = w.norm();
        if (angle == 0) {
            return x;
        }
        const Vec axis = w / angle;
        return x * std::cos(angle) + axis.cross(x) * std::sin(angle) + axis * axis.dot(x) * (1 - std::cos(angle));
    }

    /// A body's vertices at fraction s of the step in long double, by RigidMotion's formula:
    /// c0 + s T v + exp(s T [w]) R0 (u - m).
    class ExactBody {
    public:
        explicit ExactBody(const RigidBody& body)
        {
            const RigidMotion& motion = body.motion;
            const Eigen::Quaterniond& q = motion.start().rotation;
            const Eigen::Matrix<Real, 3, 3> rotation
                = Eigen::Quaternion<Real>(q.w(), q.x(), q.y(), q.z()).normalized().toRotationMatrix();
            const Vec center_of_mass = motion.center_of_mass().cast<Real>();
            center_ = rotation * center_of_mass + motion.start().translation.cast<Real>();
            travel_ = motion.linear_velocity().cast<Real>() * static_cast<Real>(motion.duration());
            spin_ = motion.angular_velocity().cast<Real>() * static_cast<Real>(motion.duration());
            const auto& vertices = body.shape.vertices();
            for (Eigen::Index v = 0; v < vertices.rows(); ++v) {
                arms_.push_back(rotation * (vertices.row(v).transpose().cast<Real>() - center_of_mass));
            }
        }
        [[nodiscard]] std::size_t size() const { return arms_.size(); }
        [[nodiscard]] Vec point(std::size_t k, Real s) const
        {
            return center_ + s * travel_ + turned(s * spin_, arms_[k]);
        }
        /// The turn from fraction t to fraction s applied to x.
        [[nodiscard]] Vec turn_between(Real t, Real s, const Vec& x) const { return turned((s - t) * spin_, x); }

    private:
        Vec center_;
        Vec travel_;
        Vec spin_;
        std::vector<Vec> arms_;
    };

    /// The separation of the vertex hulls along dir: a's lowest height less b's highest.
    Real separation_along(const ExactBody& a, const ExactBody& b, const Vec& dir, Real s)
    {
        Real low = 1e300L, high = -1e300L;
        for (std::size_t k = 0; k < a.size(); ++k) {
            low = std::min(low, dir.dot(a.point(k, s)));
        }
        for (std::size_t k = 0; k < b.size(); ++k) {
            high = std::max(high, dir.dot(b.point(k, s)));
        }
        return low - high;
    }

    /// A pair of boxes closing in over the step (a towards b), each turning by up to `max_angle_a` and `max_angle_b`
    /// and travelling (b only where `b_moves`); the step's duration `duration`.
    struct Pair {
        RigidBody a;
        RigidBody b;
    };
    Pair closing_pair(
        test_support::RandomMotions& random, double max_angle_a, double max_angle_b, bool b_moves, double duration)
    {
        const auto box = [&random]() {
            return test_support::box_solid(
                Eigen::Vector3d(random.uniform(0.1, 0.8), random.uniform(0.1, 0.8), random.uniform(0.1, 0.8)));
        };
        const Eigen::Vector3d start = -random.uniform(1.8, 2.6) * random.direction();
        // Towards b's centre, fast enough to meet within the step, off its line by a little.
        const Eigen::Vector3d velocity = (-start * random.uniform(0.8, 1.6) + random.vector(0.3)) / duration;
        const Eigen::Vector3d spin_a = random.direction() * random.uniform(0.0, max_angle_a) / duration;
        const Eigen::Vector3d spin_b = random.direction() * random.uniform(0.0, max_angle_b) / duration;
        const Eigen::Vector3d velocity_b
            = b_moves ? Eigen::Vector3d(random.vector(0.5) / duration) : Eigen::Vector3d::Zero();
        return { { box(), RigidMotion({ random.rotation(), start }, velocity, spin_a, duration) },
                 { box(), RigidMotion({ random.rotation(), Eigen::Vector3d::Zero() }, velocity_b, spin_b, duration) } };
    }

    /// Which direction the model is built along.
    enum class Direction { WORLD, FRAME, EDGES };

    /// What one run of checks saw.
    struct Tally {
        int certified = 0; ///< intervals the model certified (each checked against the exact separation)
        int tight = 0; ///< of those, ending where the exact separation had shrunk below 1e-3 of its start
    };

    /// Places the pair at a random time t, builds the model along the chosen direction (skipped where the bodies
    /// overlap at t, or the direction does not apply) and checks, for steps just short of its predicted contact and
    /// halvings of them and for a few plain fractions of the rest of the step, that every interval it certifies
    /// holds the bodies apart.
    void check_certified_intervals(test_support::RandomMotions& random, const Pair& pair, Direction kind, Tally& tally)
    {
        std::pmr::monotonic_buffer_resource arena;
        ConvexSide a(pair.a, &arena), b(pair.b, &arena);
        SeparationModel model(a.points().size(), b.points().size(), &arena);
        const double t = random.uniform(0.0, 0.6);
        a.place(t);
        b.place(t);
        details::HullSimplex simplex;
        const Eigen::Vector3d offset
            = details::convex_hull_offset(a.points(), b.points(), simplex, a.center() - b.center(), 1e-9);
        if (offset.squaredNorm() == 0.0) {
            return; // overlapping at t: no direction to certify
        }
        const Eigen::Vector3d n = offset.normalized();
        const ExactBody exact_a(pair.a), exact_b(pair.b);
        const bool a_frame = a.spins() && b.still();
        const ExactBody& frame = a_frame ? exact_a : exact_b;
        // The model's direction at fraction s (a's heights along it).
        std::function<Vec(Real)> direction_at;
        switch (kind) {
        case Direction::WORLD:
            model.update(a, b, n);
            direction_at = [n](Real) { return Vec(n.cast<Real>()); };
            break;
        case Direction::FRAME:
            model.update_in_frame(a_frame ? a : b, a_frame ? b : a, n, a_frame);
            direction_at = [n, t, &frame](Real s) { return frame.turn_between(t, s, n.cast<Real>()); };
            break;
        case Direction::EDGES: {
            // The frame's and the other's edges whose common normal lies nearest n.
            const ConvexSide& frame_side = a_frame ? a : b;
            const ConvexSide& other_side = a_frame ? b : a;
            const auto edge = [](const ConvexSide& side, const RigidShape& shape, Eigen::Index e) {
                const auto& edges = shape.edges();
                return Eigen::Vector3d(
                    side.points()[static_cast<std::size_t>(edges(e, 1))]
                    - side.points()[static_cast<std::size_t>(edges(e, 0))]);
            };
            const RigidShape& frame_shape = (a_frame ? pair.a : pair.b).shape;
            const RigidShape& other_shape = (a_frame ? pair.b : pair.a).shape;
            double best = -1.0;
            Eigen::Vector3d frame_edge, other_edge;
            for (Eigen::Index e = 0; e < frame_shape.edges().rows(); ++e) {
                for (Eigen::Index f = 0; f < other_shape.edges().rows(); ++f) {
                    const Eigen::Vector3d x = edge(frame_side, frame_shape, e), y = edge(other_side, other_shape, f);
                    const double alignment = std::abs(x.cross(y).normalized().dot(n));
                    if (alignment > best) {
                        best = alignment;
                        frame_edge = x;
                        other_edge = y;
                    }
                }
            }
            const std::optional<Eigen::Vector3d> start
                = model.update_along_edges(frame_side, other_side, frame_edge, other_edge, n, a_frame);
            if (!start) {
                return; // (edges too near parallel: the search keeps the world-fixed direction)
            }
            // mu(s) = Rot(s) e x f, scaled and signed as the model's direction at t.
            const Vec e = frame_edge.cast<Real>(), f = other_edge.cast<Real>();
            const Vec crossed = e.cross(f);
            const Real scale = start->cast<Real>().dot(crossed) / crossed.squaredNorm();
            direction_at
                = [e, f, t, scale, &frame](Real s) { return Vec(scale * frame.turn_between(t, s, e).cross(f)); };
            break;
        }
        }
        if (!model.apart_for(0.0)) {
            return; // (the search then takes another direction)
        }
        const double remaining = 1.0 - t;
        const double contact = model.predicted_contact(remaining, 1e-9);
        std::vector<double> steps;
        for (double h = contact - 1e-9; h > 1e-6 * contact; h *= 0.5) {
            steps.push_back(h);
        }
        for (const double share : { 0.25, 0.5, 0.75, 1.0 }) {
            steps.push_back(share * remaining);
        }
        const Real start = separation_along(exact_a, exact_b, direction_at(t), t);
        for (const double h : steps) {
            if (!(h > 0.0) || !model.apart_for(h)) {
                continue;
            }
            ++tally.certified;
            constexpr int SAMPLES = 64;
            for (int k = 0; k <= SAMPLES; ++k) {
                // (The last sample is t + h itself, where a bound that reaches too far fails first.)
                const Real s = t + static_cast<Real>(h) * k / SAMPLES;
                ASSERT_GT(separation_along(exact_a, exact_b, direction_at(s), s), 0)
                    << "direction " << static_cast<int>(kind) << ", t " << t << ", h " << h << ", sample " << k;
            }
            const Real end = t + static_cast<Real>(h);
            tally.tight += separation_along(exact_a, exact_b, direction_at(end), end) < 1e-3L * start ? 1 : 0;
        }
    }

    /// check_certified_intervals over `count` pairs, the q-th made by pair_of(random, q).
    template <class PairOf> Tally check_pairs(std::uint64_t seed, int count, Direction kind, PairOf pair_of)
    {
        test_support::RandomMotions random(seed);
        Tally tally;
        for (int q = 0; q < count && !testing::Test::HasFatalFailure(); ++q) {
            check_certified_intervals(random, pair_of(random, q), kind, tally);
        }
        return tally;
    }

    /// A pair of which one body turns by up to `angle` (a where `a_turns`, else b) and travels towards the other,
    /// which is still.
    Pair one_turning_pair(test_support::RandomMotions& random, double angle, bool a_turns)
    {
        const Pair pair = closing_pair(random, a_turns ? angle : 0.0, a_turns ? 0.0 : angle, false, 1.0);
        if (a_turns) {
            return pair;
        }
        // b turns and travels towards a still a: the same meeting seen from the other side.
        return { { pair.a.shape, RigidMotion(pair.a.motion.start(), Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()) },
                 { pair.b.shape,
                   RigidMotion(
                       pair.b.motion.start(), -pair.a.motion.linear_velocity(), pair.b.motion.angular_velocity()) } };
    }
    Pair one_turning_pair_of(test_support::RandomMotions& random, int q)
    {
        return one_turning_pair(random, std::array { 0.3, 1.0, 2.0, std::numbers::pi }[q % 4], q % 2 == 0);
    }

    // Each test also counts the steps that end next to the contact (where a term missing from the bound shows): a
    // bound that loses its sharpness certifies fewer of them.
    TEST(SeparationModel, WorldFixedDirectionCertifiesOnlyTrueSeparation)
    {
        const Tally tally = check_pairs(61, 400, Direction::WORLD, [](test_support::RandomMotions& random, int q) {
            // Both turning (up to a half turn each), one turning, neither; b travelling in half of them; steps of
            // two durations.
            const double angle_a = std::array { 0.0, 0.5, 1.5, std::numbers::pi }[q % 4];
            const double angle_b = std::array { 0.0, 0.5, 0.0, 1.5 }[(q / 4) % 4];
            return closing_pair(random, angle_a, angle_b, q % 2 == 0, q % 3 == 0 ? 0.01 : 1.0);
        });
        EXPECT_GT(tally.certified, 2000);
        EXPECT_GT(tally.tight, 200);
    }

    TEST(SeparationModel, DirectionTurningWithAFrameCertifiesOnlyTrueSeparation)
    {
        const Tally tally = check_pairs(62, 400, Direction::FRAME, one_turning_pair_of);
        EXPECT_GT(tally.certified, 1500);
        EXPECT_GT(tally.tight, 150);
    }

    TEST(SeparationModel, EdgesCommonNormalCertifiesOnlyTrueSeparation)
    {
        const Tally tally = check_pairs(63, 400, Direction::EDGES, one_turning_pair_of);
        EXPECT_GT(tally.certified, 1000);
        EXPECT_GT(tally.tight, 100);
    }

} // namespace
} // namespace ccdkit
