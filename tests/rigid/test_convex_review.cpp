// SPDX-License-Identifier: MIT
// Adversarial review of the convex rigid time-of-contact path (CONSERVATIVE): grazing contacts, edge-edge and
// face-face first contacts, large angles (several turns per step), tiny and huge scales, bodies touching at 0 or
// meeting at 1, thin slabs, long rods and hulls of random point clouds, either or both bodies moving. Every answer
// is checked against the test's own reference, independent of the library: the bodies posed in long double from
// the motion's formula, their separation by the separating-axis theorem (face normals and edge cross products of
// the two convex polytopes), and conservative advancement with a global speed bound on it.
//
// Environment (exploration only; the defaults keep the test to a few seconds): CCDKIT_REVIEW_SCALE multiplies the
// random families' counts; CCDKIT_REVIEW_DUMP=1 prints every query's answer (%.17g) for comparing two builds.

#include "box_solid.hpp"
#include "hull_solid.hpp"
#include "pair_gaps.hpp"
#include "random_motions.hpp"
#include "rigid/details/contact_searches.hpp"
#include "rigid/details/mesh_shape_data.hpp"

#include <ccdkit/distance/closest_offset.hpp>
#include <ccdkit/mesh/primitive_meshes.hpp>
#include <ccdkit/rigid/rigid_contact.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace ccdkit {
namespace {

    using test_support::feature_side;
    using test_support::least_gap;
    using test_support::pair_gaps;
    using test_support::PairGap;
    using test_support::posed;

    using Real = long double;
    using Vec = Eigen::Matrix<Real, 3, 1>;

    int scale_count(int count)
    {
        const char* value = std::getenv("CCDKIT_REVIEW_SCALE");
        return value != nullptr ? count * std::max(1, std::atoi(value)) : count;
    }
    bool dumping() { return std::getenv("CCDKIT_REVIEW_DUMP") != nullptr; }

    using test_support::box_solid;

    /// Exact rotation exp([w] angle) in long double (Rodrigues), for the reference's own posing.
    Eigen::Matrix<Real, 3, 3> rodrigues(const Vec& axis, Real angle)
    {
        Eigen::Matrix<Real, 3, 3> k;
        k << 0, -axis.z(), axis.y(), axis.z(), 0, -axis.x(), -axis.y(), axis.x(), 0;
        return Eigen::Matrix<Real, 3, 3>::Identity() + std::sin(angle) * k + (1 - std::cos(angle)) * (k * k);
    }

    /// A body posed at time s by the motion's formula p(s, u) = c0 + s T v + exp(s T [w]) R0 (u - m), in long
    /// double, with its face normals (outward) and edge directions.
    struct PosedBody {
        std::vector<Vec> vertices;
        std::vector<Vec> normals;
        std::vector<Vec> edges;
    };

    PosedBody pose(const RigidBody& body, Real s)
    {
        const RigidMotion& m = body.motion;
        const Eigen::Quaterniond q = m.start().rotation.normalized();
        const Eigen::Matrix<Real, 3, 3> r0 = q.toRotationMatrix().cast<Real>();
        const Vec com = m.center_of_mass().cast<Real>();
        const Vec c0 = r0 * com + m.start().translation.cast<Real>();
        const Real duration = m.duration();
        const Vec w = m.angular_velocity().cast<Real>();
        const Real speed = w.norm();
        Eigen::Matrix<Real, 3, 3> turn = Eigen::Matrix<Real, 3, 3>::Identity();
        if (speed > 0) {
            turn = rodrigues(w / speed, s * duration * speed);
        }
        const Vec center = c0 + s * duration * m.linear_velocity().cast<Real>();
        PosedBody out;
        const auto& v = body.shape.vertices();
        for (Eigen::Index k = 0; k < v.rows(); ++k) {
            const Vec u = v.row(k).transpose().cast<Real>();
            out.vertices.push_back(center + turn * (r0 * (u - com)));
        }
        const auto& f = body.shape.faces();
        for (Eigen::Index k = 0; k < f.rows(); ++k) {
            const Vec& a = out.vertices[static_cast<std::size_t>(f(k, 0))];
            const Vec& b = out.vertices[static_cast<std::size_t>(f(k, 1))];
            const Vec& c = out.vertices[static_cast<std::size_t>(f(k, 2))];
            const Vec n = (b - a).cross(c - a);
            if (n.norm() > 0) {
                out.normals.push_back(n / n.norm());
            }
        }
        const auto& e = body.shape.edges();
        for (Eigen::Index k = 0; k < e.rows(); ++k) {
            out.edges.push_back(
                out.vertices[static_cast<std::size_t>(e(k, 1))] - out.vertices[static_cast<std::size_t>(e(k, 0))]);
        }
        return out;
    }

    /// min over a of d.a minus max over b of d.b: how far a lies beyond b along d.
    Real beyond(const PosedBody& a, const PosedBody& b, const Vec& d)
    {
        Real low = std::numeric_limits<Real>::infinity(), high = -low;
        for (const Vec& x : a.vertices) {
            low = std::min(low, d.dot(x));
        }
        for (const Vec& x : b.vertices) {
            high = std::max(high, d.dot(x));
        }
        return low - high;
    }

    /// Signed separation of two convex polytopes by the separating-axis theorem: positive (a lower bound of their
    /// distance) when apart, <= 0 when they meet (minus the least overlap over the axes tried).
    Real separation(const PosedBody& a, const PosedBody& b)
    {
        Real best = -std::numeric_limits<Real>::infinity();
        for (const Vec& n : a.normals) {
            best = std::max(best, beyond(b, a, n));
        }
        for (const Vec& n : b.normals) {
            best = std::max(best, beyond(a, b, n));
        }
        for (const Vec& ea : a.edges) {
            for (const Vec& eb : b.edges) {
                const Vec d = ea.cross(eb);
                const Real length = d.norm();
                if (!(length > 1e-12L * ea.norm() * eb.norm())) {
                    continue;
                }
                const Vec u = d / length;
                best = std::max(best, std::max(beyond(a, b, u), beyond(b, a, u)));
            }
        }
        return best;
    }

    Real separation_at(const RigidBody& a, const RigidBody& b, Real s) { return separation(pose(a, s), pose(b, s)); }

    /// Largest |coordinate| of either body over the step (sampled at the ends and the middle), and the bound on
    /// how fast their distance can shrink (per unit s).
    struct Scales {
        Real magnitude = 0;
        Real closing = 0;
    };
    Scales scales(const RigidBody& a, const RigidBody& b)
    {
        Scales out;
        for (const Real s : { 0.0L, 0.5L, 1.0L }) {
            for (const RigidBody* body : { &a, &b }) {
                for (const Vec& x : pose(*body, s).vertices) {
                    out.magnitude = std::max(out.magnitude, x.cwiseAbs().maxCoeff());
                }
            }
        }
        for (const RigidBody* body : { &a, &b }) {
            const RigidMotion& m = body->motion;
            Real radius = 0;
            for (Eigen::Index k = 0; k < body->shape.vertices().rows(); ++k) {
                radius = std::max(
                    radius, static_cast<Real>((body->shape.vertices().row(k).transpose() - m.center_of_mass()).norm()));
            }
            out.closing += m.duration() * (m.linear_velocity().norm() + m.angular_velocity().norm() * radius);
        }
        out.closing *= 1.0001L;
        return out;
    }

    /// Conservative advancement on the reference separation over [from, to]: the first time found where the bodies
    /// overlap deeper than `depth`, or a negative number if none. Steps are sep / closing (certified: nothing
    /// touches within), at least `least` (so a graze slower than that can be stepped over; kept small).
    struct Advance {
        Real overlap_at = -1; ///< first time with separation < -depth, or -1
        Real closest = std::numeric_limits<Real>::infinity(); ///< least separation seen
        long steps = 0;
        bool gave_up = false;
    };
    Advance advance(const RigidBody& a, const RigidBody& b, Real from, Real to, Real depth, Real least, bool inclusive)
    {
        const Scales sc = scales(a, b);
        Advance out;
        Real s = from;
        constexpr long MAX_STEPS = 400000;
        while (s < to || (inclusive && s == to)) {
            const Real sep = separation_at(a, b, s);
            out.closest = std::min(out.closest, sep);
            if (sep < -depth) {
                out.overlap_at = s;
                return out;
            }
            if (++out.steps > MAX_STEPS) {
                out.gave_up = true;
                return out;
            }
            const Real step = sc.closing > 0 ? std::max(sep / sc.closing, least) : to - from + 1;
            if (s == to) {
                break;
            }
            s = std::min(to, s + step);
        }
        return out;
    }

    /// A query and what is known of it beforehand.
    struct Query {
        std::string name;
        RigidBody a;
        RigidBody b;
        RigidCcdOptions options;
        double least = 0.0; ///< the reference's least step (0: 1e-4 eps)
    };

    struct Tally {
        int queries = 0;
        int hits = 0;
        int convex = 0; ///< answered by the convex path

        /// The family's line of counts (printed with every run: how many queries reached the convex path).
        void print(const char* family) const
        {
            std::printf("%s: %d queries, %d hits, %d by the convex path\n", family, queries, hits, convex);
        }
    };

    /// Runs the query and checks it against the reference: no overlap (beyond rounding) before toi_lower, none at
    /// all without a hit; with a hit the interval within eps, the bodies (nearly) touching at toi_upper, contacts
    /// with unit normals, the closest one's normal separating the bodies before the contact.
    RigidCcdResult check(const Query& q, Tally& tally, bool skip_start_overlap = true)
    {
        SCOPED_TRACE(q.name);
        if (skip_start_overlap && separation_at(q.a, q.b, 0) < 0) {
            // Overlapping at t = 0 (the random families' draws): a separate case (see StartingOverlap).
            return {};
        }
        const RigidCcdResult r = rigid_time_of_contact(q.a, q.b, q.options);
        // Whether the convex path decided (it promises every pair within its slack of the closest gap).
        const bool convex
            = details::convex_pair(q.a, q.b) && details::convex_time_of_contact(q.a, q.b, q.options).result;
        ++tally.queries;
        tally.convex += convex ? 1 : 0;
        tally.hits += r.hit ? 1 : 0;
        if (dumping()) {
            std::printf(
                "REVIEW %s convex=%d hit=%d lower=%.17g upper=%.17g contacts=%zu", q.name.c_str(), convex ? 1 : 0,
                r.hit ? 1 : 0, r.toi_lower, r.toi_upper, r.contacts.size());
            if (!r.contacts.empty()) {
                const RigidContact& c = r.contacts.front();
                std::printf(
                    " gap=%.3g n=(%.6f %.6f %.6f) f=(%d:%d %d:%d)", c.gap, c.normal.x(), c.normal.y(), c.normal.z(),
                    static_cast<int>(c.feature_a.kind), c.feature_a.index, static_cast<int>(c.feature_b.kind),
                    c.feature_b.index);
            }
            std::printf(
                " intervals=%lld pairs=%lld\n", static_cast<long long>(r.stats.intervals),
                static_cast<long long>(r.stats.pair_tests));
        }
        const Scales sc = scales(q.a, q.b);
        // The reference's own rounding (long double posing and projections of coordinates up to `magnitude`).
        const Real depth = 1e-13L * std::max<Real>(sc.magnitude, 1e-300L);
        const Real least = q.least > 0 ? q.least : 1e-4L * q.options.eps;
        const Real end = r.hit ? static_cast<Real>(r.toi_lower) : static_cast<Real>(q.options.t_max);
        const Advance before = advance(q.a, q.b, 0, end, depth, least, !r.hit);
        EXPECT_FALSE(before.gave_up) << "reference gave up";
        EXPECT_LT(before.overlap_at, 0.0L)
            << (r.hit ? "late: overlap at " : "missed: overlap at ") << static_cast<double>(before.overlap_at)
            << " before " << r.toi_lower << " (depth "
            << static_cast<double>(-separation_at(q.a, q.b, before.overlap_at)) << ")";
        if (!r.hit) {
            EXPECT_EQ(r.toi_lower, q.options.t_max);
            return r;
        }
        EXPECT_LE(r.toi_lower, r.toi_upper);
        EXPECT_LE(r.toi_upper - r.toi_lower, q.options.eps);
        EXPECT_LE(r.toi_upper, q.options.t_max);
        // Within the interval's travel of touching at toi_upper.
        const Real width = static_cast<Real>(r.toi_upper - r.toi_lower);
        const Real at_upper = separation_at(q.a, q.b, r.toi_upper);
        EXPECT_LE(at_upper, 2 * width * sc.closing + 1e3L * depth) << "not touching at toi_upper";
        EXPECT_FALSE(r.contacts.empty()) << "a hit without contacts";
        // Every pair within half the interval's travel of the closest gap at toi_upper (well inside the slack the
        // contacts are kept within: the interval's travel and more) is reported, with the closest gap.
        if (convex && !r.contacts.empty()) {
            const std::vector<PairGap> gaps = pair_gaps(q.a, q.b, r.toi_upper);
            double closest = std::numeric_limits<double>::infinity();
            for (const PairGap& g : gaps) {
                closest = std::min(closest, g.gap);
            }
            // The closest gap is reported, first unless after a pair that passed through (a contact for certain).
            const double tolerance = 1e-12 * static_cast<double>(sc.magnitude) + 1e-300;
            EXPECT_NEAR(least_gap(r.contacts), closest, tolerance);
            const RigidContact& first = r.contacts.front();
            if (first.gap > closest + tolerance) {
                EXPECT_LT(feature_side(q.a, q.b, first, r.toi_lower) * feature_side(q.a, q.b, first, r.toi_upper), 0.0)
                    << "the first contact, at gap " << first.gap << " (closest " << closest << "), passed through";
            }
            const double within = 0.5 * static_cast<double>(width * sc.closing);
            for (const PairGap& g : gaps) {
                if (g.gap > closest + within) {
                    continue;
                }
                const bool reported = std::any_of(r.contacts.begin(), r.contacts.end(), [&g](const RigidContact& c) {
                    return c.feature_a.kind == g.a.kind && c.feature_a.index == g.a.index
                        && c.feature_b.kind == g.b.kind && c.feature_b.index == g.b.index;
                });
                EXPECT_TRUE(reported) << "pair (" << static_cast<int>(g.a.kind) << " " << g.a.index << ", "
                                      << static_cast<int>(g.b.kind) << " " << g.b.index << ") at gap " << g.gap
                                      << " (closest " << closest << ", within " << within << ") not reported";
            }
        }
        bool separating = false;
        const PosedBody pa = pose(q.a, r.toi_lower), pb = pose(q.b, r.toi_lower);
        const Real allowance = 4 * width * sc.closing + 1e4L * depth;
        const double least_reported = least_gap(r.contacts);
        for (const RigidContact& c : r.contacts) {
            EXPECT_NEAR(c.normal.norm(), 1.0, 1e-9);
            EXPECT_TRUE(c.point.allFinite());
            EXPECT_GE(c.gap, 0.0);
            if (c.gap <= least_reported + static_cast<double>(allowance)) {
                // The normal of a pair that touches first separates the bodies (b below, a above) up to the
                // motion within the interval.
                separating = separating || beyond(pa, pb, c.normal.cast<Real>()) >= -allowance;
            }
        }
        if (separation(pa, pb) >= 0) {
            EXPECT_TRUE(separating) << "no contact normal separates the bodies at toi_lower";
        }
        return r;
    }

    RigidMotion still(const Eigen::Vector3d& at, const Eigen::Quaterniond& rotation = Eigen::Quaterniond::Identity())
    {
        return RigidMotion({ rotation, at }, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
    }

    RigidCcdOptions options(double eps = 1e-6, double t_max = 1.0)
    {
        RigidCcdOptions o;
        o.eps = eps;
        o.t_max = t_max;
        return o;
    }

    std::string named(const char* family, int k) { return std::string(family) + "#" + std::to_string(k); }

    using test_support::hull_solid;

    using Random = test_support::RandomMotions;

    /// A hull of `count` points on an ellipsoid with semi-axes in [least, 2 least].
    RigidShape random_hull(Random& random, int count, double least)
    {
        const Eigen::Vector3d axes = Eigen::Vector3d::Constant(least) + random.vector(least).cwiseAbs();
        std::vector<Eigen::Vector3d> points;
        for (int k = 0; k < count; ++k) {
            points.push_back(random.direction().cwiseProduct(axes));
        }
        return hull_solid(points);
    }

    // ---------------------------------------------------------------------------------------------------------

    /// Bodies that just touch and separate again, or pass within 1e-9: a translating box sliding past a corner, a
    /// spinning rod whose tip dips into a block, at several depths; a dip must be reported.
    TEST(ConvexReview, GrazingContacts)
    {
        Tally tally;
        int k = 0;
        const bool full = scale_count(1) > 1;
        for (const double depth : { 1e-9, 1e-7, 1e-4, -1e-9 }) {
            if (!full && depth == 1e-7) {
                continue;
            }
            // Translation: a cube sliding along x past another whose top is `depth` above its bottom.
            for (const double tilt : { 0.0, 0.3 }) {
                const Eigen::Quaterniond q(Eigen::AngleAxisd(tilt, Eigen::Vector3d::UnitX()));
                // The tilted cubes' half height is 0.5 (cos + sin); a's lowest edge lies (cos - sin) / 2 to one side
                // of the middle, b's highest as far to the other.
                const double lift = std::cos(tilt) + std::sin(tilt) - depth;
                const double shift = tilt > 0.0 ? std::cos(tilt) - std::sin(tilt) : 0.0;
                const RigidBody a { box_solid({ 0.5, 0.5, 0.5 }),
                                    RigidMotion({ q, { -3, shift, lift } }, { 6, 0, 0 }, { 0, 0, 0 }) };
                const RigidBody b { box_solid({ 0.5, 0.5, 0.5 }), still({ 0, 0, 0 }, q) };
                const RigidCcdResult r
                    = check({ named("graze-slide", k++), a, b, options(), depth > 0 ? 1e-6 : 1e-3 }, tally);
                if (depth > 0) {
                    EXPECT_TRUE(r.hit) << "a dip of " << depth << " missed";
                }
            }
            // Rotation: a rod of half length 1 turning about its end, its tip dipping into a block.
            for (const double rate : { 4.0, 6.0, 60.0 }) {
                if (!full && rate == 4.0) {
                    continue;
                }
                // (The reference's least step: a near miss holds no overlap to find.)
                const double least = depth > 0 ? 1e-9 : 1e-7;
                const double reach = std::hypot(2.0, 0.01) - depth;
                const RigidBody rod { box_solid({ 1.0, 0.01, 0.01 }),
                                      RigidMotion(
                                          { .translation = { 1, 0, 0 } }, Eigen::Vector3d::Zero(), { 0, 0, rate }, 1.0,
                                          { -1, 0, 0 }) };
                const RigidBody block { box_solid({ 0.2, 0.2, 0.2 }), still({ -reach - 0.2, 0.0, 0.0 }) };
                const RigidCcdResult r = check({ named("graze-rod", k++), rod, block, options(), least }, tally);
                if (depth > 0) {
                    EXPECT_TRUE(r.hit) << "a dip of " << depth << " missed at rate " << rate;
                }
                // The same with the block moving and the rod still (b moving): swap roles.
                const RigidCcdResult swapped
                    = check({ named("graze-rod-swapped", k++), block, rod, options(), least }, tally);
                if (depth > 0) {
                    EXPECT_TRUE(swapped.hit);
                }
            }
        }
        tally.print("GrazingContacts");
    }

    /// Edge-to-edge first contacts (cubes turned 45 degrees about crossing axes) under translation, rotation and
    /// screw motions, either body moving.
    TEST(ConvexReview, EdgeEdgeFirstContacts)
    {
        Tally tally;
        Random random(101);
        const Eigen::Quaterniond qa(Eigen::AngleAxisd(std::numbers::pi / 4, Eigen::Vector3d::UnitZ()));
        const Eigen::Quaterniond qb(Eigen::AngleAxisd(std::numbers::pi / 4, Eigen::Vector3d::UnitY()));
        const int count = scale_count(24);
        for (int k = 0; k < count; ++k) {
            const Eigen::Vector3d spin_a = k % 3 == 0 ? Eigen::Vector3d::Zero() : random.vector(k % 3 == 1 ? 0.5 : 4.0);
            const Eigen::Vector3d spin_b = k % 4 == 0 ? random.vector(2.0) : Eigen::Vector3d::Zero();
            const double y = random.uniform(-0.1, 0.1);
            RigidBody a { box_solid({ 0.5, 0.5, 0.5 }), RigidMotion({ qa, { -2.5, y, 0 } }, { 3, 0, 0 }, spin_a) };
            RigidBody b { box_solid({ 0.5, 0.5, 0.5 }), RigidMotion({ qb, { 0, 0, 0 } }, random.vector(0.3), spin_b) };
            const bool swap = k % 2 == 1;
            check({ named("edge-edge", k), swap ? b : a, swap ? a : b, options() }, tally);
        }
        tally.print("EdgeEdgeFirstContacts");
    }

    /// Aligned boxes meeting face to face (manifolds), translating, spinning about the normal, both moving.
    TEST(ConvexReview, FaceFaceManifolds)
    {
        Tally tally;
        Random random(202);
        const int count = scale_count(24);
        for (int k = 0; k < count; ++k) {
            const Eigen::Vector3d spin
                = k % 3 == 0 ? Eigen::Vector3d::Zero() : Eigen::Vector3d(random.uniform(-3, 3), 0, 0);
            const RigidBody a {
                box_solid(Eigen::Vector3d(0.3, 0.5, 0.5) + random.vector(0.2).cwiseAbs()),
                RigidMotion({ .translation = Eigen::Vector3d(-2, 0, 0) + random.vector(0.2) }, { 3, 0, 0 }, spin)
            };
            const RigidBody b { box_solid(Eigen::Vector3d(0.3, 0.5, 0.5) + random.vector(0.2).cwiseAbs()),
                                RigidMotion(
                                    { .translation = random.vector(0.2) },
                                    k % 2 == 0 ? Eigen::Vector3d::Zero() : Eigen::Vector3d(-1, 0, 0),
                                    k % 4 == 1 ? Eigen::Vector3d(-spin.x(), 0, 0) : Eigen::Vector3d::Zero()) };
            const RigidCcdResult r = check({ named("face-face", k), a, b, options() }, tally);
            if (r.hit && spin.isZero()) {
                EXPECT_GE(r.contacts.size(), 4U);
                for (const RigidContact& c : r.contacts) {
                    EXPECT_LT((c.normal - Eigen::Vector3d(-1, 0, 0)).norm(), 1e-6) << named("face-face", k);
                }
            }
        }
        tally.print("FaceFaceManifolds");
    }

    /// Turns of 90 to 180 degrees and several whole turns per step, either or both bodies turning.
    TEST(ConvexReview, LargeAnglesAndSeveralTurns)
    {
        Tally tally;
        Random random(303);
        const int count = scale_count(40);
        for (int k = 0; k < count; ++k) {
            const double angle = k % 4 == 0 ? random.uniform(1.5, 3.2) : random.uniform(3.2, 8.0 * std::numbers::pi);
            const RigidShape sa = box_solid(Eigen::Vector3d(0.05, 0.05, 0.05) + random.vector(0.5).cwiseAbs());
            const RigidShape sb = box_solid(Eigen::Vector3d(0.05, 0.05, 0.05) + random.vector(0.5).cwiseAbs());
            const int who = k % 3; // 0: a turns, 1: b turns, 2: both
            const RigidBody a { sa,
                                RigidMotion(
                                    { random.rotation(), Eigen::Vector3d(-1.5, 0, 0) + random.vector(0.3) },
                                    who == 1 ? Eigen::Vector3d::Zero()
                                             : Eigen::Vector3d(Eigen::Vector3d(1.5, 0, 0) + random.vector(0.3)),
                                    who == 1 ? Eigen::Vector3d::Zero() : Eigen::Vector3d(random.direction() * angle)) };
            const RigidBody b { sb,
                                RigidMotion(
                                    { random.rotation(), random.vector(0.3) },
                                    who == 0 ? Eigen::Vector3d::Zero()
                                             : Eigen::Vector3d(Eigen::Vector3d(-1.0, 0, 0) + random.vector(0.3)),
                                    who == 0 ? Eigen::Vector3d::Zero() : Eigen::Vector3d(random.direction() * angle)) };
            check({ named("large-angle", k), a, b, options() }, tally);
        }
        tally.print("LargeAnglesAndSeveralTurns");
    }

    /// The same random screw motions at tiny and huge scales and far from the origin.
    TEST(ConvexReview, TinyAndHugeScales)
    {
        Tally tally;
        for (const double scale : { 1e-5, 1e5 }) {
            for (const double away : { 0.0, 1e3 }) {
                Random random(404);
                for (int k = 0; k < scale_count(8); ++k) {
                    const Eigen::Vector3d offset = Eigen::Vector3d(away, -away, 0.5 * away) * scale;
                    const RigidBody a {
                        box_solid((Eigen::Vector3d(0.1, 0.1, 0.1) + random.vector(0.4).cwiseAbs()) * scale),
                        RigidMotion(
                            { random.rotation(), (Eigen::Vector3d(-1.5, 0, 0) + random.vector(0.3)) * scale + offset },
                            (Eigen::Vector3d(2.5, 0, 0) + random.vector(0.3)) * scale, random.vector(3.0))
                    };
                    const RigidBody b { box_solid(
                                            (Eigen::Vector3d(0.1, 0.1, 0.1) + random.vector(0.4).cwiseAbs()) * scale),
                                        RigidMotion(
                                            { random.rotation(), random.vector(0.3) * scale + offset },
                                            random.vector(0.3) * scale, random.vector(2.0)) };
                    check(
                        { named(("scale" + std::to_string(scale) + "-" + std::to_string(away)).c_str(), k), a, b,
                          options() },
                        tally);
                }
            }
        }
        tally.print("TinyAndHugeScales");
    }

    /// Bodies touching at t = 0 (approaching, leaving, sliding), contacts exactly at t = 1 and at t_max.
    TEST(ConvexReview, TouchingAtStartAndContactAtTheEnd)
    {
        Tally tally;
        int k = 0;
        const RigidShape cube = box_solid({ 0.5, 0.5, 0.5 });
        for (const Eigen::Vector3d& v :
             { Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(-1, 0, 0), Eigen::Vector3d(0, 1, 0) }) {
            for (const Eigen::Vector3d& w :
                 { Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(0, 0, 2), Eigen::Vector3d(1, 0, 0) }) {
                const RigidBody a { cube, RigidMotion({ .translation = { -1, 0.2, 0 } }, v, w) };
                const RigidBody b { cube, still({ 0, 0, 0 }) };
                const RigidCcdResult r = check({ named("touch-at-0", k++), a, b, options() }, tally, false);
                EXPECT_TRUE(r.hit);
                EXPECT_EQ(r.toi_lower, 0.0);
            }
        }
        // Meeting exactly at t = 1 (and at t_max = 0.5 with twice the speed), and 1e-12 short of it.
        for (const double t_max : { 1.0, 0.5 }) {
            for (const double shortfall : { 0.0, 1e-12, -1e-12 }) {
                const RigidBody a {
                    cube,
                    RigidMotion({ .translation = { -3, 0.3, 0 } }, { 2.0 / t_max * (1 - shortfall), 0, 0 }, { 0, 0, 0 })
                };
                const RigidBody b { cube, still({ 0, 0, 0 }) };
                const RigidCcdResult r = check({ named("contact-at-end", k++), a, b, options(1e-6, t_max) }, tally);
                if (shortfall <= 0.0) {
                    EXPECT_TRUE(r.hit);
                }
            }
        }
        tally.print("TouchingAtStartAndContactAtTheEnd");
    }

    /// Thin slabs and long rods (100 x 0.01) spinning into boxes and slabs, either moving.
    TEST(ConvexReview, ThinSlabsAndLongRods)
    {
        Tally tally;
        Random random(505);
        const RigidShape slab = box_solid({ 1.0, 1.0, 1e-4 });
        const RigidShape rod = box_solid({ 50.0, 0.005, 0.005 });
        const RigidShape block = box_solid({ 0.5, 0.5, 0.5 });
        for (int k = 0; k < scale_count(24); ++k) {
            if (k % 2 == 0) {
                const RigidBody a { slab,
                                    RigidMotion(
                                        { random.rotation(), Eigen::Vector3d(0, 0, 2) + random.vector(0.3) },
                                        { 0, 0, -3 }, random.vector(k % 4 == 0 ? 0.0 : 3.0)) };
                const RigidBody b {
                    slab, RigidMotion({ random.rotation(), random.vector(0.3) }, random.vector(0.5), random.vector(1.0))
                };
                check({ named("slab", k), a, b, options() }, tally);
            } else {
                // The rod turns about its centre; its end sweeps 50 * angle.
                const double angle = random.uniform(0.5, 7.0);
                const RigidBody a { rod,
                                    RigidMotion(
                                        { random.rotation(), random.vector(1.0) }, random.vector(1.0),
                                        random.direction() * angle) };
                const Eigen::Vector3d where = random.direction() * random.uniform(10.0, 49.0);
                const RigidBody b { k % 4 == 1 ? block : slab,
                                    RigidMotion({ random.rotation(), where }, random.vector(0.5), random.vector(0.5)) };
                check({ named("rod", k), k % 3 == 0 ? b : a, k % 3 == 0 ? a : b, options() }, tally);
            }
        }
        tally.print("ThinSlabsAndLongRods");
    }

    /// Hulls of random point clouds (up to 256 vertices: the convex path's limit) against boxes and each other.
    TEST(ConvexReview, HullsOfPointClouds)
    {
        Tally tally;
        Random random(606);
        for (int k = 0; k < scale_count(6); ++k) {
            const int count_a = std::array<int, 4> { 8, 20, 48, 256 }[static_cast<std::size_t>(k % 4)];
            const RigidShape sa = random_hull(random, count_a, 0.3);
            ASSERT_TRUE(sa.mesh_data().convex) << count_a;
            const bool box = k % 4 == 3 || k % 3 == 0;
            const RigidShape sb = box ? box_solid(Eigen::Vector3d(0.2, 0.3, 0.4)) : random_hull(random, 12 + k, 0.3);
            ASSERT_TRUE(sb.mesh_data().convex);
            const RigidBody a { sa,
                                RigidMotion(
                                    { random.rotation(), Eigen::Vector3d(-2, 0, 0) + random.vector(0.4) },
                                    Eigen::Vector3d(2.5, 0, 0) + random.vector(0.3),
                                    random.vector(k % 2 == 0 ? 1.0 : 6.0)) };
            const RigidBody b {
                sb, RigidMotion({ random.rotation(), random.vector(0.3) }, random.vector(0.3), random.vector(2.0))
            };
            check({ named("hull", k), a, b, options() }, tally);
        }
        tally.print("HullsOfPointClouds");
    }

    /// Manifolds of many tied pairs where the contacts' pruning (slab-clipped boxes, the cheap gap bound) must keep
    /// them all: a long rod landing flat (or tilted by 1e-9, 1e-6) on a slab and on a box, a box landing face down
    /// on the flat top of a point cloud's hull, each also spinning about the contact normal, either body moving.
    TEST(ConvexReview, FlatManifoldsKeepEveryPair)
    {
        Tally tally;
        Random random(707);
        int k = 0;
        const RigidShape rod = box_solid({ 50.0, 0.005, 0.005 });
        const RigidShape slab = box_solid({ 60.0, 2.0, 1e-4 });
        const RigidShape block = box_solid({ 0.5, 0.5, 0.5 });
        for (const double tilt : { 0.0, 1e-9, 1e-6 }) {
            for (const double spin : { 0.0, 0.7 }) {
                const Eigen::Quaterniond q(Eigen::AngleAxisd(tilt, Eigen::Vector3d::UnitY()));
                const RigidBody a { rod, RigidMotion({ q, { 0.3, 0.1, 1.0 } }, { 0, 0, -2 }, { 0, 0, spin }) };
                const RigidBody b { slab, still({ 0, 0, 0 }) };
                const RigidCcdResult r = check({ named("rod-flat", k++), a, b, options() }, tally);
                EXPECT_TRUE(r.hit);
                const RigidBody moving_b {
                    block, RigidMotion({ .translation = { 20, 0, -1 } }, { 0, 0, 1.5 }, { 0, 0, -spin })
                };
                check(
                    { named("block-under-rod", k++), RigidBody { rod, still({ 20.2, 0.1, 0.0 }, q) }, moving_b,
                      options() },
                    tally);
            }
        }
        // A hull with a flat square top (z = 0.3) and random points below.
        std::vector<Eigen::Vector3d> points {
            { 0.4, 0.4, 0.3 }, { -0.4, 0.4, 0.3 }, { -0.4, -0.4, 0.3 }, { 0.4, -0.4, 0.3 }
        };
        for (int p = 0; p < 60; ++p) {
            points.push_back(
                Eigen::Vector3d(random.uniform(-0.5, 0.5), random.uniform(-0.5, 0.5), random.uniform(-0.5, 0.25)));
        }
        const RigidShape hull = hull_solid(points);
        ASSERT_TRUE(hull.mesh_data().convex);
        for (int j = 0; j < 6; ++j) {
            const double turn = j < 3 ? 0.0 : random.uniform(-2, 2);
            const Eigen::Quaterniond q(Eigen::AngleAxisd(random.uniform(0, 1), Eigen::Vector3d::UnitZ()));
            const RigidBody a { box_solid({ 0.2, 0.15, 0.1 }),
                                RigidMotion(
                                    { q, { random.uniform(-0.1, 0.1), random.uniform(-0.1, 0.1), 1.0 } },
                                    { 0, 0, -1.5 }, { 0, 0, turn }) };
            const RigidBody b {
                hull, RigidMotion({ .translation = { 0, 0, 0 } }, { 0, 0, j % 2 == 0 ? 0.0 : 0.5 }, { 0, 0, -turn })
            };
            const RigidCcdResult r = check({ named("box-on-hull", j), a, b, options() }, tally);
            EXPECT_TRUE(r.hit);
            // a lands on b's top: no contact normal (b towards a) points down.
            for (const RigidContact& c : r.contacts) {
                EXPECT_GT(c.normal.z(), -1e-6)
                    << named("box-on-hull", j) << ": normal " << c.normal.transpose() << " of features "
                    << static_cast<int>(c.feature_a.kind) << ":" << c.feature_a.index << " "
                    << static_cast<int>(c.feature_b.kind) << ":" << c.feature_b.index;
            }
            if (r.hit && j < 3) {
                EXPECT_GE(r.contacts.size(), 4U);
                for (const RigidContact& c : r.contacts) {
                    EXPECT_LT((c.normal - Eigen::Vector3d::UnitZ()).norm(), 1e-6) << named("box-on-hull", j);
                }
            }
        }
        tally.print("FlatManifoldsKeepEveryPair");
    }

    /// Every contact within `within` of the closest gap has a normal (b towards a) with z above `least_z`: a lands
    /// on b from above.
    void expect_normals_up(const RigidCcdResult& r, const std::string& name, double within, double least_z)
    {
        const double least = least_gap(r.contacts);
        for (const RigidContact& c : r.contacts) {
            if (c.gap > least + within) {
                continue;
            }
            EXPECT_GT(c.normal.z(), least_z)
                << name << ": normal " << c.normal.transpose() << " of features " << static_cast<int>(c.feature_a.kind)
                << ":" << c.feature_a.index << " " << static_cast<int>(c.feature_b.kind) << ":" << c.feature_b.index
                << " at gap " << c.gap;
        }
    }

    /// A box landing flat across the top edge of a larger one while turning about the contact normal, so that
    /// edges of its bottom face pass through parallel with the larger box's top edges on the way down: every
    /// contact's normal (b towards a) must point up. The edge-edge normal's sign is taken from the pair's side at
    /// an earlier time, which is only sound while the edges' cross product keeps its sense: since 482da62 (probe
    /// right after a long certified step) that time can be the step's start, and normals come out reversed.
    /// (Edges exactly parallel at the contact, start -0.6 at rate 1.5: ParallelEdgesAtTheContact.)
    TEST(ConvexReview, EdgeNormalsOfATurningLanding)
    {
        Tally tally;
        int k = 0;
        const RigidShape base = box_solid({ 0.5, 0.5, 0.5 });
        for (const double start_angle : { -0.3, -0.1, -0.45 }) {
            for (const double rate : { 1.5, 0.5 }) {
                const Eigen::Quaterniond q(Eigen::AngleAxisd(start_angle, Eigen::Vector3d::UnitZ()));
                const RigidBody a { box_solid({ 0.3, 0.3, 0.1 }),
                                    RigidMotion(
                                        { q, { 0.2, 0.05, 0.5 + 0.1 + 0.6 } }, { 0, 0, -1.5 }, { 0, 0, rate }) };
                const RigidBody b { base, still({ 0, 0, 0 }) };
                const RigidCcdResult r = check({ named("turning-landing", k++), a, b, options() }, tally);
                ASSERT_TRUE(r.hit);
                expect_normals_up(r, named("turning-landing", k - 1), INFINITY, -1e-6);
            }
        }
        tally.print("EdgeNormalsOfATurningLanding");
    }

    /// EdgeNormalsOfATurningLanding drawn at random: a flat box falling onto a larger box's top (landing flat or
    /// across its edges, up to a small tilt) while turning about the vertical at up to 3 rad per step, at several
    /// eps and t_max, so that steps land a quarter eps short of contacts whose edges pass through parallel on the
    /// way (the probe right after such a step, 805a1c7). a stays above b's top until the contact: no normal (b
    /// towards a) of a contact that touches (within 1e-6 of the closest gap) may point down (a flipped edge-edge
    /// normal points steeply down; a's side edges and faces meeting b's top edge give a horizontal one, down by
    /// at most a's tilt).
    TEST(ConvexReview, TurningLandingsAtRandom)
    {
        Tally tally;
        Random random(808);
        const RigidShape base = box_solid({ 0.5, 0.5, 0.5 });
        for (int k = 0; k < scale_count(40); ++k) {
            const Eigen::Quaterniond q = Eigen::AngleAxisd(random.uniform(-0.8, 0.8), Eigen::Vector3d::UnitZ())
                * Eigen::AngleAxisd(k % 3 == 0 ? 0.0 : random.uniform(-1e-3, 1e-3), Eigen::Vector3d::UnitX());
            const double fall = random.uniform(0.5, 3.0);
            const double t_max = k % 5 == 4 ? random.uniform(0.3, 1.0) : 1.0;
            const double eps = std::array<double, 3> { 1e-6, 1e-4, 1e-3 }[static_cast<std::size_t>(k % 3)];
            const RigidBody a { box_solid({ 0.3, 0.3, 0.1 }),
                                RigidMotion(
                                    { q,
                                      { random.uniform(-0.6, 0.6), random.uniform(-0.6, 0.6),
                                        0.5 + 0.11 + random.uniform(0.05, 0.9) * fall * t_max } },
                                    { 0, 0, -fall }, { 0, 0, random.uniform(-3.0, 3.0) }) };
            const RigidBody b { base, still({ 0, 0, 0 }) };
            const RigidCcdResult r = check({ named("random-landing", k), a, b, options(eps, t_max) }, tally);
            // (Pairs kept farther away, within the slack of eps = 1e-3, are not held to it.)
            expect_normals_up(r, named("random-landing", k), 1e-6, -2e-3);
        }
        tally.print("TurningLandingsAtRandom");
    }

    /// A box at a random attitude 1.2 left of another, heading right at 0.9 to 1.8 per step turning by `spin`, the
    /// other still (the benchmark's box-box sets).
    std::pair<RigidBody, RigidBody> boxes_from_afar(
        Random& random, const Eigen::Vector3d& spin, const Eigen::Vector3d& other_spin = Eigen::Vector3d::Zero())
    {
        const RigidShape box = box_solid({ 0.5, 0.3, 0.2 });
        RigidBody a { box,
                      RigidMotion(
                          { random.rotation(), { -1.2, random.uniform(-0.2, 0.2), random.uniform(-0.2, 0.2) } },
                          { random.uniform(0.9, 1.8), 0, 0 }, spin) };
        RigidBody b {
            box, RigidMotion({ random.rotation(), Eigen::Vector3d::Zero() }, Eigen::Vector3d::Zero(), other_spin)
        };
        return { std::move(a), std::move(b) };
    }

    /// Boxes at random attitudes meeting from afar, translating (some turning slowly): the features closest at the
    /// start are often not the contact's, so the probe after the first step finds the bodies still apart and the
    /// next distance starts from the probe's simplex. Some queries must take that path (more than one probe).
    TEST(ConvexReview, ProbesThatFindTheBodiesApart)
    {
        Tally tally;
        Random random(909);
        int reprobed = 0;
        for (int k = 0; k < scale_count(60); ++k) {
            const Eigen::Vector3d spin = k % 4 == 3 ? random.vector(0.05) : Eigen::Vector3d::Zero();
            const double eps = std::array<double, 3> { 1e-6, 1e-4, 1e-3 }[static_cast<std::size_t>(k % 3)];
            const auto [a, b] = boxes_from_afar(random, spin);
            const RigidCcdResult r = check({ named("reprobe", k), a, b, options(eps) }, tally);
            reprobed += r.stats.intervals >= 4 ? 1 : 0;
        }
        EXPECT_GT(reprobed, 0) << "no query probed twice: the path is not exercised";
        std::printf(
            "ProbesThatFindTheBodiesApart: %d queries, %d hits, %d by the convex path, %d probed more than once\n",
            tally.queries, tally.hits, tally.convex, reprobed);
    }

    /// Boxes turning 90 to 180 degrees per step (as the benchmark's large-angle set) that approach slowly, the other
    /// box turning a little too: some close in on a graze or a tangential contact by a fraction of the gap per step
    /// and need more than 32 steps (the convex path's former limit) before it decides. Some queries must take that
    /// many. (With the other box still, the edges' common normal now lands those in a few steps: none takes 32.)
    TEST(ConvexReview, SlowApproachesAtLargeAngles)
    {
        Tally tally;
        Random random(1001);
        int slow = 0;
        for (int k = 0; k < scale_count(400); ++k) {
            const Eigen::Vector3d spin = random.direction() * random.uniform(std::numbers::pi / 2, std::numbers::pi);
            const auto [a, b] = boxes_from_afar(random, spin, random.direction() * 0.2);
            check({ named("slow-large-angle", k), a, b, options() }, tally);
            const details::ConvexAnswer answer = details::convex_time_of_contact(a, b, options());
            slow += answer.result && answer.stats.intervals > 32 ? 1 : 0;
        }
        EXPECT_GT(slow, 0) << "the convex path decided no query after more than 32 intervals: not exercised";
        std::printf(
            "SlowApproachesAtLargeAngles: %d queries, %d hits, %d by the convex path (%d after over 32 intervals)\n",
            tally.queries, tally.hits, tally.convex, slow);
    }

    /// The closest points' closing rate (90c0c84's guess) at its edge cases: a box turning about its own lowest
    /// corner (the closest point to the box below: it does not move, the rest swings down), by turns around
    /// WITNESS_TURN (0.03 rad) and far beyond, with no relative velocity or a slow fall, both bodies sharing a
    /// drift, gaps from 0 (touching at t = 0) up, at scales 1e-6, 1 and 1e6.
    TEST(ConvexReview, TurnsAboutTheClosestPoint)
    {
        Tally tally;
        Random random(909);
        const std::array<double, 7> turns { 0.0, 0.01, 0.0299, 0.03, 0.0301, 0.5, 3.0 };
        for (int k = 0; k < scale_count(21); ++k) {
            const double scale = std::array<double, 3> { 1e-6, 1.0, 1e6 }[static_cast<std::size_t>(k % 3)];
            const double turn = turns[static_cast<std::size_t>(k % 7)];
            const double gap = k % 5 == 0 ? 0.0 : std::pow(10.0, random.uniform(-6.0, -1.0)) * scale;
            const Eigen::Vector3d half = (Eigen::Vector3d(0.1, 0.1, 0.1) + random.vector(0.3).cwiseAbs()) * scale;
            const Eigen::Quaterniond q = random.rotation();
            // a's lowest corner (body coordinates) is its centre of mass: the point it turns about.
            Eigen::Vector3d pivot = Eigen::Vector3d::Zero();
            double lowest = INFINITY;
            for (int c = 0; c < 8; ++c) {
                const Eigen::Vector3d u(
                    (c & 1) != 0 ? half.x() : -half.x(), (c & 2) != 0 ? half.y() : -half.y(),
                    (c & 4) != 0 ? half.z() : -half.z());
                if ((q * u).z() < lowest) {
                    lowest = (q * u).z();
                    pivot = u;
                }
            }
            const Eigen::Vector3d corner(
                random.uniform(-0.4, 0.4) * scale, random.uniform(-0.4, 0.4) * scale, 0.5 * scale + gap);
            const Eigen::Vector3d drift
                = k % 4 == 0 ? Eigen::Vector3d::Zero() : Eigen::Vector3d(random.vector(0.1 * scale));
            const Eigen::Vector3d fall = k % 2 == 0 ? Eigen::Vector3d::Zero() : Eigen::Vector3d(0, 0, -2.0 * gap);
            const RigidBody a { box_solid(half),
                                RigidMotion(
                                    { q, corner - q * pivot }, drift + fall, random.direction() * turn, 1.0, pivot) };
            const RigidBody b { box_solid(Eigen::Vector3d::Constant(0.5 * scale)),
                                RigidMotion(
                                    { .translation = Eigen::Vector3d::Zero() }, drift, Eigen::Vector3d::Zero()) };
            // (The reference's least step: its global speed bound counts the shared drift, and gaps start tiny.)
            check(
                { named("turn-about-closest", k), k % 6 == 5 ? b : a, k % 6 == 5 ? a : b, options(), 1e-4 }, tally,
                false);
        }
        tally.print("TurnsAboutTheClosestPoint");
    }

    /// Edges parallel at the contact up to rounding: their cross product is rounding noise of either sense, so the
    /// normal must come from the direction between the features (it used to fall back only for an exact zero, and
    /// edges 3 and 16 reported (0, 0, -1)). a's side is flush with b's, so a's vertical edges also meet b's top
    /// edge end-on: their cross product (horizontal, z about -3e-6 from the turned pose's rounding) is a valid
    /// normal too, hence the looser bound on z.
    TEST(ConvexReview, ParallelEdgesAtTheContact)
    {
        Tally tally;
        const Eigen::Quaterniond q(Eigen::AngleAxisd(-0.6, Eigen::Vector3d::UnitZ()));
        const RigidBody a { box_solid({ 0.3, 0.3, 0.1 }),
                            RigidMotion({ q, { 0.2, 0.05, 0.5 + 0.1 + 0.6 } }, { 0, 0, -1.5 }, { 0, 0, 1.5 }) };
        const RigidBody b { box_solid({ 0.5, 0.5, 0.5 }), still({ 0, 0, 0 }) };
        const RigidCcdResult r = check({ "parallel-edges", a, b, options() }, tally);
        ASSERT_TRUE(r.hit);
        for (const RigidContact& c : r.contacts) {
            EXPECT_GT(c.normal.z(), -1e-4)
                << "normal " << c.normal.transpose() << " of features " << static_cast<int>(c.feature_a.kind) << ":"
                << c.feature_a.index << " " << static_cast<int>(c.feature_b.kind) << ":" << c.feature_b.index;
        }
    }

    /// Was pre-existing (main 23772a3 answered the same): two cubes whose surfaces cross at t = 0 with neither
    /// body's representative vertex inside the other (ContactSearch::starts_inside tests one vertex per component)
    /// were reported touching only when a vertex-face or edge-edge pair next met, not at t = 0. Fixed by testing
    /// the faces that overlap at t = 0 for crossing (ContactSearch::surfaces_cross).
    TEST(ConvexReview, StartingOverlapIsAContactAtZero)
    {
        Tally tally;
        // ConvexReview.LargeAnglesAndSeveralTurns' draw 22 (a vertex of each box inside the other at t = 0).
        const RigidBody a { box_solid({ 0.42503213269374934, 0.41694868961695419, 0.36879999559410809 }),
                            still(
                                { -1.2040916026063944, 0.25372261839374849, 0.22682922619668344 },
                                Eigen::Quaterniond(
                                    -0.30317363052534674, 0.37048462829342327, -0.16180486199236263,
                                    0.86292877839830862)) };
        const RigidBody b {
            box_solid({ 0.16963872336086516, 0.43130987467988208, 0.41605483041562014 }),
            RigidMotion(
                { Eigen::Quaterniond(
                      0.37141789497624522, 0.73856439764440351, -0.50587544378031857, -0.24629537795833692),
                  { -0.20016405199799581, 0.15202216368315782, 0.16116493494787199 } },
                { -0.70772638003372967, -0.22248343350826774, 0.27367957088425848 },
                { 2.6531794277763576, 14.438508411543403, 9.0526433359767928 })
        };
        ASSERT_LT(separation_at(a, b, 0), -0.05L);
        const RigidCcdResult r = check({ "start-overlap", a, b, options() }, tally, false);
        EXPECT_TRUE(r.hit);
        EXPECT_EQ(r.toi_lower, 0.0); // reported 0.0072372667396112863 before the t = 0 surface crossing test
        // With b at rest too.
        const RigidBody b_still { b.shape, still(b.motion.start().translation, b.motion.start().rotation) };
        const RigidCcdResult r_still = check({ "start-overlap-still", a, b_still, options() }, tally, false);
        EXPECT_TRUE(r_still.hit);
        EXPECT_EQ(r_still.toi_lower, 0.0);
    }

    /// A unit axis `tilt` radians off z (towards a random side).
    Eigen::Vector3d tilted_z(Random& random, double tilt)
    {
        const double side = random.uniform(0.0, 2.0 * std::numbers::pi);
        return { std::sin(tilt) * std::cos(side), std::sin(tilt) * std::sin(side), std::cos(tilt) };
    }

    /// The per-vertex turning bound (turning_height_bound.hpp) at its edges: rods (half length 1, half thickness
    /// 1e-3, times `scale`, `away` scales from the origin) turning about their centres by 0.3 to 20 rad per step,
    /// about axes 0 to 0.1 rad off the normal of the block their corners graze (perpendicular to the contact
    /// normal), dipping 1e-9 to 1e-3 of their length into it (or missing it by 1e-9) about a chosen time from 1e-9
    /// to 1; one body at rest or both moving (the block drifting, turning slowly), either order.
    TEST(ConvexReview, TurningRodCornersGrazeABlock)
    {
        Tally tally;
        const std::array<double, 5> whens { 1e-9, 1e-4, 0.5, 1.0 - 1e-6, 1.0 };
        const std::array<double, 5> depths { 1e-9, 1e-6, 1e-3, -1e-9, 1e-7 };
        for (const double scale : { 1e-6, 1.0, 1e6 }) {
            for (const double away : { 0.0, 1e6 }) {
                Random random(1101);
                for (int k = 0; k < scale_count(12); ++k) {
                    const double length = scale, thick = 1e-3 * scale;
                    const double rate = k % 3 == 0 ? random.uniform(0.3, 1.4) : random.uniform(1.4, 20.0);
                    const double when = k % 5 == 2 ? random.uniform(0.0, 1.0) : whens[static_cast<std::size_t>(k % 5)];
                    const double depth = depths[static_cast<std::size_t>(k % 5)] * length;
                    const double tilt = std::array<double, 4> { 0.0, 1e-6, 1e-3, 0.1 }[static_cast<std::size_t>(k % 4)];
                    const Eigen::Vector3d axis = tilted_z(random, tilt);
                    // The corner (length, -thick) lies alpha below the rod's axis: it points along x at the time
                    // `when` (first contact about then, several turns per step aside).
                    const double alpha = std::atan2(thick, length);
                    const double start = alpha - rate * when;
                    const Eigen::Vector3d offset = Eigen::Vector3d(away, -0.5 * away, 0.25 * away) * scale;
                    const RigidBody rod { box_solid({ length, thick, thick }),
                                          RigidMotion(
                                              { Eigen::Quaterniond(Eigen::AngleAxisd(start, axis)), offset },
                                              Eigen::Vector3d::Zero(), axis * rate) };
                    const double reach = std::hypot(length, thick) - depth;
                    const bool drifting = k % 2 == 1;
                    const RigidBody block {
                        box_solid(Eigen::Vector3d(0.2, 0.5, 0.5) * scale),
                        RigidMotion(
                            { .translation = offset + Eigen::Vector3d(reach + 0.2 * scale, 0, 0) },
                            drifting ? Eigen::Vector3d(random.vector(1e-3 * scale)) : Eigen::Vector3d::Zero(),
                            drifting ? Eigen::Vector3d(random.vector(1e-3)) : Eigen::Vector3d::Zero())
                    };
                    const bool swap = k % 4 >= 2;
                    check(
                        { named(("rod-graze-" + std::to_string(scale) + "-" + std::to_string(away)).c_str(), k),
                          swap ? block : rod, swap ? rod : block, options(), 1e-7 },
                        tally);
                }
            }
        }
        tally.print("TurningRodCornersGrazeABlock");
    }

    /// Two rods (half length 1, long and thin or stubby) turning in opposite senses about parallel axes, mirror
    /// images of each other (up to a perturbation), so that their tips meet head on at a chosen time: the contact
    /// normal is perpendicular to both axes and both sides' bends, twists and lifts count.
    TEST(ConvexReview, RodsTurningInOppositeSenses)
    {
        Tally tally;
        Random random(1202);
        for (int k = 0; k < scale_count(32); ++k) {
            const double thick = k % 2 == 0 ? 1e-3 : 0.2;
            const double rate = random.uniform(0.3, 20.0);
            const double when = k % 4 == 0 ? 1.0 - 1e-9 : random.uniform(0.0, 1.0);
            const double depth = (k % 3 == 0 ? -1e-9 : std::pow(10.0, random.uniform(-9.0, -3.0)));
            const double alpha = std::atan2(thick, 1.0);
            const double gap = 2.0 * std::hypot(1.0, thick) - depth; // between the centres
            const double wobble = k % 5 == 0 ? 0.0 : 1e-4;
            const RigidShape rod = box_solid({ 1.0, thick, thick });
            const RigidBody a {
                rod,
                RigidMotion(
                    { Eigen::Quaterniond(Eigen::AngleAxisd(alpha - rate * when, Eigen::Vector3d::UnitZ())),
                      Eigen::Vector3d::Zero() },
                    Eigen::Vector3d::Zero(), Eigen::Vector3d(0, 0, rate))
            };
            const RigidBody b {
                rod,
                RigidMotion(
                    { Eigen::Quaterniond(Eigen::AngleAxisd(rate * when - alpha, Eigen::Vector3d::UnitZ())),
                      Eigen::Vector3d(gap, 0, 0) },
                    random.vector(wobble), Eigen::Vector3d(random.vector(wobble)) - Eigen::Vector3d(0, 0, rate))
            };
            check({ named("opposite-senses", k), k % 2 == 0 ? a : b, k % 2 == 0 ? b : a, options(), 1e-7 }, tally);
        }
        tally.print("RodsTurningInOppositeSenses");
    }

    /// Boxes spinning fast (0.5 to 20 rad per step) about an axis 0 to 0.1 rad off the contact normal, falling onto
    /// a plate (its lowest point wobbles with the tilt): A and B of each vertex nearly zero along the axis, the
    /// lifts' and bends' terms at their smallest; with a slow approach (0.01 per step: spin dominates) or a fast one.
    TEST(ConvexReview, SpinsAboutTheContactNormal)
    {
        Tally tally;
        Random random(1303);
        for (int k = 0; k < scale_count(40); ++k) {
            const double tilt = std::array<double, 5> { 0.0, 1e-9, 1e-6, 1e-3, 0.1 }[static_cast<std::size_t>(k % 5)];
            const double rate = random.uniform(0.5, 20.0);
            const Eigen::Vector3d axis = tilted_z(random, tilt);
            const Eigen::Vector3d half = Eigen::Vector3d(0.1, 0.1, 0.1) + random.vector(0.4).cwiseAbs();
            // Upright or at a random attitude; the lowest point at t = 0 is -lowest below the centre.
            const Eigen::Quaterniond q = k % 2 == 0 ? Eigen::Quaterniond::Identity() : random.rotation();
            double lowest = 0.0;
            for (int c = 0; c < 8; ++c) {
                const Eigen::Vector3d u(
                    (c & 1) != 0 ? half.x() : -half.x(), (c & 2) != 0 ? half.y() : -half.y(),
                    (c & 4) != 0 ? half.z() : -half.z());
                lowest = std::min(lowest, (q * u).z());
            }
            const double fall = k % 3 == 0 ? 0.01 : random.uniform(0.1, 2.0);
            const double gap = fall * random.uniform(0.0, 1.2);
            const RigidBody a { box_solid(half),
                                RigidMotion({ q, Eigen::Vector3d::Zero() }, { 0, 0, -fall }, axis * rate) };
            const RigidBody plate { box_solid({ 2.0, 2.0, 0.1 }), still({ 0, 0, lowest - gap - 0.1 }) };
            check(
                { named("spin-about-normal", k), k % 4 == 3 ? plate : a, k % 4 == 3 ? a : plate, options(), 1e-7 },
                tally);
        }
        tally.print("SpinsAboutTheContactNormal");
    }

    /// A turning, travelling box or rod meeting a still box or thin block (either as body a or as body b) at tiny and
    /// huge scales and far from the origin, turns from half a radian to several turns: where GJK's features are a face
    /// of the turning body against a corner of the still one, the bound runs along that face's normal turning with it
    /// (update_in_frame); where they are an edge of each and the steps stall, along the edges' common normal
    /// (update_along_edges). Their rounding terms scale with the frame's centre's distance to the still body (and
    /// the edges' angle).
    TEST(ConvexReview, TurningBodiesMeetStillOnesAtAnyScale)
    {
        Tally tally;
        Random random(1404);
        int k = 0;
        for (const double scale : { 1e-5, 1.0, 1e5 }) {
            for (const double away : { 0.0, 1e3 }) {
                for (int q = 0; q < scale_count(20); ++q, ++k) {
                    const Eigen::Vector3d offset = Eigen::Vector3d(away, -away, 0.5 * away) * scale;
                    const double angle = q % 4 == 0 ? random.uniform(3.2, 20.0) : random.uniform(0.5, 3.2);
                    // Every third pair a rod and a thin block: long edges, whose contacts are mostly edge on edge.
                    const bool rods = q % 3 == 2;
                    const auto half_extents = [&](const Eigen::Vector3d& rod) -> Eigen::Vector3d {
                        return (rods ? rod : Eigen::Vector3d(0.1, 0.1, 0.1) + random.vector(0.4).cwiseAbs()) * scale;
                    };
                    const RigidBody mover {
                        box_solid(half_extents({ random.uniform(0.4, 0.8), 0.04, 0.04 })),
                        RigidMotion(
                            { random.rotation(), (Eigen::Vector3d(-1.5, 0, 0) + random.vector(0.3)) * scale + offset },
                            (Eigen::Vector3d(2.0, 0, 0) + random.vector(0.5)) * scale, random.direction() * angle)
                    };
                    const RigidBody block { box_solid(half_extents({ 0.5, 0.5, 0.06 })),
                                            still(random.vector(0.3) * scale + offset, random.rotation()) };
                    check(
                        { named("turning-still", k), q % 2 == 0 ? mover : block, q % 2 == 0 ? block : mover,
                          options() },
                        tally);
                }
            }
        }
        tally.print("TurningBodiesMeetStillOnesAtAnyScale");
    }

} // namespace
} // namespace ccdkit
