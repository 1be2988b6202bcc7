// SPDX-License-Identifier: MIT
#include "box_solid.hpp"
#include "pair_gaps.hpp"
#include "random_motions.hpp"
#include "rigid/details/contact_geometry.hpp"

#include <ccdkit/distance/closest_offset.hpp>
#include <ccdkit/rigid/rigid_contact.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>

namespace ccdkit {
namespace {

    /// Random vertex-triangle and edge-edge pairs at several scales, with slivers and nearly parallel edges among
    /// them: the cheap bound never exceeds the computed gap by more than its stated rounding (a pruning that
    /// trusted a larger bound would drop contacts), and it is not vacuous where the pair is well shaped.
    TEST(ContactGeometry, GapLowerBoundNeverExceedsTheGap)
    {
        std::mt19937_64 rng(3);
        std::uniform_real_distribution<double> u(-1, 1);
        const auto point = [&](double scale) -> Eigen::Vector3d {
            const double x = u(rng), y = u(rng), z = u(rng);
            return Eigen::Vector3d(x, y, z) * scale;
        };
        int useful = 0;
        for (const double scale : { 1e-3, 1.0, 1e5 }) {
            for (int k = 0; k < 20000; ++k) {
                details::PosedPair posed;
                posed.edges = k % 2 == 0;
                for (auto& x : posed.x) {
                    x = point(scale);
                }
                for (auto& y : posed.y) {
                    y = point(scale);
                }
                // Every fourth pair nearly degenerate: a sliver triangle, or nearly parallel edges.
                if (k % 4 < 2) {
                    const double squeeze = std::pow(10.0, -1.0 - (k / 4) % 12);
                    const Eigen::Vector3d along = posed.edges ? posed.x[1] - posed.x[0] : posed.y[1] - posed.y[0];
                    auto& moved = posed.edges ? posed.y[1] : posed.y[2];
                    moved = posed.y[0] + along * u(rng) + point(scale * squeeze);
                }
                const double bound = details::gap_lower_bound(posed);
                const double gap = details::closest_offset(posed).offset.norm();
                double magnitude = 0.0;
                for (const auto* side : { &posed.x, &posed.y }) {
                    for (const auto& x : *side) {
                        magnitude = std::max(magnitude, x.cwiseAbs().maxCoeff());
                    }
                }
                ASSERT_GE(bound, 0.0);
                ASSERT_LE(bound, gap + details::GAP_BOUND_ROUNDING * magnitude) << scale << " " << k;
                useful += bound > 0.5 * gap ? 1 : 0;
            }
        }
        EXPECT_GT(useful, 10000);
    }

    TEST(ContactGeometry, GapLowerBoundIsZeroWhereItCannotBeTrusted)
    {
        details::PosedPair parallel;
        parallel.edges = true;
        parallel.x = { Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 0, 0), Eigen::Vector3d::Zero() };
        parallel.y = { Eigen::Vector3d(0, 1, 0), Eigen::Vector3d(1, 1, 1e-9), Eigen::Vector3d::Zero() };
        EXPECT_EQ(details::gap_lower_bound(parallel), 0.0);
        details::PosedPair huge = parallel;
        huge.y[1] = Eigen::Vector3d(0, 1, 1);
        for (auto* side : { &huge.x, &huge.y }) {
            for (auto& x : *side) {
                x *= 1e150;
            }
        }
        EXPECT_EQ(details::gap_lower_bound(huge), 0.0); // squares overflow
        details::PosedPair tiny = parallel;
        tiny.y[1] = Eigen::Vector3d(0, 1, 1);
        for (auto* side : { &tiny.x, &tiny.y }) {
            for (auto& x : *side) {
                x *= 1e-140;
            }
        }
        EXPECT_EQ(details::gap_lower_bound(tiny), 0.0); // squares leave the normal range
    }

    /// Edges a (along x, ending at x = 1) and b (along y, crossing x = 1 + gap at height `lift`): the lines cross
    /// (lift = 0) or nearly cross beyond a's end, so the segments' closest points are a's end and a point of b,
    /// `gap` apart along x.
    details::PosedPair edges_past_an_end(double gap, double lift)
    {
        details::PosedPair posed;
        posed.edges = true;
        posed.x = { Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 0, 0), Eigen::Vector3d::Zero() };
        posed.y
            = { Eigen::Vector3d(1 + gap, -0.5, lift), Eigen::Vector3d(1 + gap, 0.5, lift), Eigen::Vector3d::Zero() };
        return posed;
    }

    TEST(ContactGeometry, EdgeNormalFollowsTheSegmentsNotTheirLines)
    {
        // Review finding: an edge-edge pair kept within the slack of the closest contact (a large eps leaves
        // gaps of 2e-4..4e-3) took the lines' common normal (here +-z, the lines cross or nearly so) oriented by
        // the lines' side, though the segments meet past a's end along x: the normal must point along the
        // segments' closest points, from b towards a (about -x here), with the lines crossing, nearly crossing above or
        // below.
        const details::FeaturePair pair { details::PairKind::EDGE_EDGE, 0, 0 };
        for (const double lift : { 0.0, 1e-9, -1e-9 }) {
            for (const double gap : { 2e-4, 1e-3, 4e-3 }) {
                SCOPED_TRACE(testing::Message() << "lift " << lift << " gap " << gap);
                const details::PosedPair before = edges_past_an_end(2.0 * gap, lift);
                const details::PosedPair at = edges_past_an_end(gap, lift);
                const RigidContact c = details::contact_of(pair, before, at);
                EXPECT_LT((c.normal - Eigen::Vector3d(-gap, 0, -lift).normalized()).norm(), 1e-12)
                    << c.normal.transpose();
                EXPECT_NEAR(c.gap, std::hypot(gap, lift), 1e-15);
            }
        }
    }

    TEST(ContactGeometry, EdgeNormalOfCrossingSegmentsIsTheirCommonNormal)
    {
        // Segments whose closest points are inside both keep the exact common normal (no rounding of closest
        // points in it), turned to the side a came from: a above b gives +z, below gives -z.
        const details::FeaturePair pair { details::PairKind::EDGE_EDGE, 0, 0 };
        for (const double side : { 1.0, -1.0 }) {
            details::PosedPair at;
            at.edges = true;
            at.x = { Eigen::Vector3d(-1, 0, side * 1e-3), Eigen::Vector3d(1, 0, side * 1e-3), Eigen::Vector3d::Zero() };
            at.y = { Eigen::Vector3d(0, -1, 0), Eigen::Vector3d(0, 1, 0), Eigen::Vector3d::Zero() };
            details::PosedPair before = at;
            before.x[0].z() *= 2.0;
            before.x[1].z() *= 2.0;
            const RigidContact c = details::contact_of(pair, before, at);
            EXPECT_EQ(c.normal, Eigen::Vector3d(0, 0, side));
            // Touching (gap 0): the side they came from decides.
            at.x[0].z() = at.x[1].z() = 0.0;
            EXPECT_EQ(details::contact_of(pair, before, at).normal, Eigen::Vector3d(0, 0, side));
        }
    }

    TEST(ContactGeometry, SolidsDecideTheSenseOfAFacesNormal)
    {
        // A vertex beside a face, behind its plane (x = 2, 0, -0.1 against the triangle in z = 0 over x, y in
        // [0, 1]), as a pair kept within the slack of a contact elsewhere can be: the side rule turns the face's
        // normal to -z, into the face's body; the solid's outward direction keeps +z, as it would any face's normal
        // of a solid.
        const details::FeaturePair pair { details::PairKind::VERTEX_FACE, 0, 0 };
        details::PosedPair at;
        at.x[0] = Eigen::Vector3d(2, 0, -0.1);
        at.y = { Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(0, 1, 0) };
        details::PosedPair before = at;
        before.x[0].z() = -0.2;
        EXPECT_EQ(details::contact_of(pair, before, at).normal, Eigen::Vector3d(0, 0, -1));
        EXPECT_EQ(
            details::contact_of(pair, before, at, details::closest_offset(at), { .of_b = Eigen::Vector3d(0, 0, 1) })
                .normal,
            Eigen::Vector3d(0, 0, 1));
        // a's face against b's vertex: the normal (b towards a) is the face's inward one, -(0, 0, 1) for a face of a
        // wound as above, whatever side b's vertex came from.
        const details::FeaturePair face_vertex { details::PairKind::FACE_VERTEX, 0, 0 };
        EXPECT_EQ(
            details::contact_of(
                face_vertex, before, at, details::closest_offset(at), { .of_a = Eigen::Vector3d(0, 0, 1) })
                .normal,
            Eigen::Vector3d(0, 0, -1));
        // An outward direction square to the normal (a flat edge's, across the face) leaves the side rule.
        EXPECT_EQ(
            details::contact_of(pair, before, at, details::closest_offset(at), { .of_b = Eigen::Vector3d(1, 0, 0) })
                .normal,
            Eigen::Vector3d(0, 0, -1));
    }

    /// Outward normal of face f of a shape in body coordinates, from its mesh (as wound).
    Eigen::Vector3d face_normal(const RigidShape& shape, Eigen::Index f)
    {
        const auto& v = shape.vertices();
        const auto& faces = shape.faces();
        const Eigen::Vector3d e1 = (v.row(faces(f, 1)) - v.row(faces(f, 0))).transpose();
        const Eigen::Vector3d e2 = (v.row(faces(f, 2)) - v.row(faces(f, 0))).transpose();
        return e1.cross(e2).normalized();
    }

    /// The unit bisector of the normals of the faces that hold edge e (body coordinates), found by its ends.
    Eigen::Vector3d edge_normal(const RigidShape& shape, Eigen::Index e)
    {
        Eigen::Vector3d sum = Eigen::Vector3d::Zero();
        const auto& faces = shape.faces();
        for (Eigen::Index f = 0; f < faces.rows(); ++f) {
            int shared = 0;
            for (Eigen::Index c = 0; c < 3; ++c) {
                shared += faces(f, c) == shape.edges()(e, 0) || faces(f, c) == shape.edges()(e, 1) ? 1 : 0;
            }
            sum += shared == 2 ? face_normal(shape, f) : Eigen::Vector3d::Zero();
        }
        return sum.normalized();
    }

    /// An edge-edge contact's directions (world, at the rotations given): the edges' unit common normal (a's edge
    /// cross b's) and each edge's unit outward direction.
    struct EdgePairDirections {
        Eigen::Vector3d common;
        Eigen::Vector3d out_of_a;
        Eigen::Vector3d out_of_b;
    };

    EdgePairDirections edge_pair_directions(
        const RigidBody& a,
        const RigidBody& b,
        const RigidContact& c,
        const Eigen::Matrix3d& rotation_a,
        const Eigen::Matrix3d& rotation_b)
    {
        const auto edge = [](const RigidShape& shape, const Eigen::Matrix3d& rotation, std::int32_t e) {
            const auto& v = shape.vertices();
            return Eigen::Vector3d(rotation * (v.row(shape.edges()(e, 1)) - v.row(shape.edges()(e, 0))).transpose());
        };
        return { edge(a.shape, rotation_a, c.feature_a.index)
                     .cross(edge(b.shape, rotation_b, c.feature_b.index))
                     .normalized(),
                 rotation_a * edge_normal(a.shape, c.feature_a.index),
                 rotation_b * edge_normal(b.shape, c.feature_b.index) };
    }

    /// How many contacts expect_normals_out_of_b checked, by kind.
    struct NormalsChecked {
        int faces = 0;
        int edges = 0;
        int contradicting = 0; ///< edge pairs whose outward directions contradict each other
        int far_side = 0; ///< edge pairs apart against both outward directions before contact
    };

    /// Every contact's normal between two solids points out of b and into a: a face's normal is its solid's outward
    /// one (b's, or less a's). Two edges' common normal agrees with their outward directions (the bisectors of their
    /// faces' normals: b's, and less a's) wherever both decide it alike. Where they contradict each other (the
    /// normal lies in neither edge's cone of outward normals, so no genuine contact of the boundaries), it takes the
    /// side the edges came from where their closest points at toi_lower lay inside both (their offset there, where
    /// that is not nearly square to it), else the outward directions' difference; so where they were
    /// apart there along it against both (from a thin body's far side; CONSERVATIVE, which takes the side at
    /// toi_lower). The direction between the closest points that edges apart past an end take never runs into b
    /// against those directions.
    void expect_normals_out_of_b(
        const RigidBody& a, const RigidBody& b, const RigidCcdResult& r, RigidCcdMethod method, NormalsChecked& checked)
    {
        const Eigen::Matrix3d rotation_a = a.motion.rotation_at(r.toi_upper);
        const Eigen::Matrix3d rotation_b = b.motion.rotation_at(r.toi_upper);
        for (const RigidContact& c : r.contacts) {
            SCOPED_TRACE(
                testing::Message() << "features " << static_cast<int>(c.feature_a.kind) << ":" << c.feature_a.index
                                   << " " << static_cast<int>(c.feature_b.kind) << ":" << c.feature_b.index
                                   << ", normal " << c.normal.transpose());
            if (c.feature_b.kind == RigidFeatureKind::FACE) {
                EXPECT_LT((c.normal - rotation_b * face_normal(b.shape, c.feature_b.index)).norm(), 1e-9);
                ++checked.faces;
            } else if (c.feature_a.kind == RigidFeatureKind::FACE) {
                EXPECT_LT((c.normal + rotation_a * face_normal(a.shape, c.feature_a.index)).norm(), 1e-9);
                ++checked.faces;
            } else {
                const auto [common, out_of_a, out_of_b] = edge_pair_directions(a, b, c, rotation_a, rotation_b);
                const Eigen::Vector3d outward = out_of_b - out_of_a;
                const double vote_b = common.dot(out_of_b);
                const double vote_a = -common.dot(out_of_a);
                // Where the edges came from: their closest points at toi_lower (the test's own posing).
                const auto end = [&r](const RigidBody& body, std::int32_t e, Eigen::Index k) {
                    const Eigen::Vector3d u = body.shape.vertices().row(body.shape.edges()(e, k)).transpose();
                    return body.motion.point_at(u, r.toi_lower);
                };
                const auto before = edge_edge_closest_pair<double, 3>(
                    end(a, c.feature_a.index, 0), end(a, c.feature_a.index, 1), end(b, c.feature_b.index, 0),
                    end(b, c.feature_b.index, 1));
                const Eigen::Vector3d came_from = before.offset;
                const bool inside_both = before.s > 0.0 && before.s < 1.0 && before.u > 0.0 && before.u < 1.0;
                const bool clear_side = std::abs(came_from.normalized().dot(common)) > 1e-2;
                const auto vote
                    = [](double along) { return std::abs(along) > details::SENSE_COSINE ? (along > 0.0 ? 1 : -1) : 0; };
                if (std::abs(c.normal.dot(common)) <= 1.0 - 1e-9) {
                    // The direction between their closest points (edges apart past an end): kept only where it does
                    // not run into b.
                    EXPECT_GE(c.normal.dot(outward), -1e-3 * outward.norm());
                    ++checked.edges;
                } else if (
                    std::abs(vote_b) > details::SENSE_COSINE && std::abs(vote_a) > details::SENSE_COSINE
                    && (vote_b > 0.0) != (vote_a > 0.0)) {
                    // The side they came from where their closest points lay inside both; else the unit outward
                    // directions' difference (an end's lines' side says little). (CHORD decides at the start of its
                    // chords' interval, before toi_lower: only CONSERVATIVE's choice is known here.)
                    if (method != RigidCcdMethod::CONSERVATIVE) {
                        continue;
                    }
                    if (inside_both && clear_side) {
                        EXPECT_GT(c.normal.dot(came_from), 0.0);
                        ++checked.contradicting;
                    } else if (!inside_both && std::abs(common.dot(outward)) > 1e-2 * outward.norm()) {
                        EXPECT_GT(c.normal.dot(outward), 0.0);
                        ++checked.edges;
                    }
                } else if (const int from_b = vote(came_from.normalized().dot(out_of_b)),
                           from_a = vote(-came_from.normalized().dot(out_of_a));
                           inside_both && clear_side && from_b <= 0 && from_a <= 0 && from_b + from_a < 0) {
                    // Apart along their common normal against the edges' outward directions: from the far side.
                    // (CHORD takes the side where its chords' interval began, before toi_lower, which it can report
                    // past the contact.)
                    if (method == RigidCcdMethod::CONSERVATIVE) {
                        EXPECT_GT(c.normal.dot(came_from), 0.0);
                        ++checked.far_side;
                    }
                } else if (std::abs(common.dot(outward)) > 1e-2 * outward.norm()) {
                    EXPECT_GT(c.normal.dot(outward), 0.0);
                    ++checked.edges;
                }
            }
        }
    }

    /// Review finding (eighteenth session): between solids, contacts kept within the slack of the first one (a coarse
    /// eps, fast turns) took normals into b: a vertex beside a face and behind its plane, edges on the far sides of
    /// each other's lines. Over random box pairs turning up to 20 rad per step (both methods: CONSERVATIVE takes the
    /// convex path, CHORD the general search), every contact's normal points out of b and into a.
    TEST(ContactGeometry, ContactNormalsBetweenSolidsPointOutOfBAndIntoA)
    {
        test_support::RandomMotions random(18);
        NormalsChecked checked;
        for (int q = 0; q < 1500; ++q) {
            SCOPED_TRACE(testing::Message() << "query " << q);
            const auto box = [&random]() {
                return test_support::box_solid(
                    Eigen::Vector3d(random.uniform(0.1, 0.6), random.uniform(0.1, 0.6), random.uniform(0.1, 0.6)));
            };
            const auto [a, b] = test_support::on_course(random, box, { -2.0, 0.7, 1.5, 20.0, 0.3, 5.0 });
            RigidCcdOptions options;
            options.eps = std::array { 1e-3, 1e-4, 1e-6 }[q % 3];
            options.method = q % 2 == 0 ? RigidCcdMethod::CONSERVATIVE : RigidCcdMethod::CHORD;
            const RigidCcdResult r = rigid_time_of_contact(a, b, options);
            if (r.hit
                && r.toi_lower > 0.0) { // (contacts at 0 take the solids' sides by their own rule, tested elsewhere)
                expect_normals_out_of_b(a, b, r, options.method, checked);
            }
        }
        EXPECT_GT(checked.faces, 600);
        EXPECT_GT(checked.edges, 800);
        EXPECT_GT(checked.contradicting, 5);
        EXPECT_GE(checked.far_side, 2);
    }

    /// Contacts at t = 0 (boxes overlapping at the start, both methods): the side before contact is rounding noise
    /// there, so two edges' common normal follows their unit outward directions' difference (b's less a's) wherever
    /// that decides it, also where the two edges' directions contradict each other.
    TEST(ContactGeometry, EdgeNormalsAtTheStartFollowTheSolids)
    {
        test_support::RandomMotions random(23);
        int checked = 0;
        int contradicting = 0;
        for (int q = 0; q < 600; ++q) {
            SCOPED_TRACE(testing::Message() << "query " << q);
            const auto box = [&random]() {
                return test_support::box_solid(
                    Eigen::Vector3d(random.uniform(0.1, 0.6), random.uniform(0.1, 0.6), random.uniform(0.1, 0.6)));
            };
            const RigidBody a { box(),
                                RigidMotion(
                                    { random.rotation(), random.direction() * random.uniform(0.2, 0.6) },
                                    random.vector(1.0), random.direction() * random.uniform(0.0, 5.0)) };
            const RigidBody b { box(),
                                RigidMotion(
                                    { random.rotation(), Eigen::Vector3d::Zero() }, random.vector(0.3),
                                    random.direction() * random.uniform(0.0, 5.0)) };
            RigidCcdOptions options;
            options.eps = std::array { 1e-3, 1e-6 }[q % 2];
            options.method = q % 4 < 2 ? RigidCcdMethod::CONSERVATIVE : RigidCcdMethod::CHORD;
            const RigidCcdResult r = rigid_time_of_contact(a, b, options);
            if (!r.hit || r.toi_lower != 0.0) {
                continue;
            }
            const Eigen::Matrix3d rotation_a = a.motion.rotation_at(r.toi_upper);
            const Eigen::Matrix3d rotation_b = b.motion.rotation_at(r.toi_upper);
            for (const RigidContact& c : r.contacts) {
                if (c.feature_a.kind != RigidFeatureKind::EDGE || c.feature_b.kind != RigidFeatureKind::EDGE) {
                    continue;
                }
                const auto [common, out_of_a, out_of_b] = edge_pair_directions(a, b, c, rotation_a, rotation_b);
                const Eigen::Vector3d outward = out_of_b - out_of_a;
                if (std::abs(c.normal.dot(common)) <= 1.0 - 1e-9
                    || !(std::abs(common.dot(outward)) > 1e-2 * outward.norm())) {
                    continue;
                }
                EXPECT_GT(c.normal.dot(outward), 0.0) << "edges " << c.feature_a.index << ", " << c.feature_b.index
                                                      << ": normal " << c.normal.transpose();
                ++checked;
                contradicting += (common.dot(out_of_b) > 0.0) != (common.dot(out_of_a) < 0.0) ? 1 : 0;
            }
        }
        EXPECT_GT(checked, 50);
        EXPECT_GT(contradicting, 5);
    }

    /// The review's two cases (b still): two unit cubes, a tumbling about 22 rad per step, eps 1e-3 (the closest pair
    /// at toi_upper, two edges, and a vertex behind the plane of a face beside it pointed into b); a 1.2 x 0.6 x 0.4
    /// box grazing a unit cube past one of its edges, eps 1e-6 (the closest pair, two edges, pointed into b).
    TEST(ContactGeometry, ReviewCasesOfNormalsIntoB)
    {
        struct Case {
            Eigen::Vector3d half_a;
            Eigen::Quaterniond rotation_a;
            Eigen::Vector3d start_a, velocity_a, spin_a;
            Eigen::Quaterniond rotation_b;
            double eps;
        };
        const std::array<Case, 2> cases { {
            { { 0.5, 0.5, 0.5 },
              { -0.76550490041248354, 0.45790316452647284, 0.29425843072602165, -0.34313104684329393 },
              { 1.5526990514918495, 1.2727954438281877, -1.513244054989469 },
              { -1.5426871891993137, -4.429229630824894, 2.1468674104821286 },
              { 12.21209527070201, 10.31707038584449, -16.054083454596707 },
              { -0.40387806350248973, -0.78411781064295849, -0.226668557036553, 0.41311394808810209 },
              1e-3 },
            { { 0.6, 0.3, 0.2 },
              { -0.19030548683652804, 0.90024490503918309, 0.095920899376936403, 0.37966052427612745 },
              { 1.2943507348097796, -0.38546088074494111, -0.12905838859432012 },
              { 1.7976137746327887, 0.49713920560617225, -1.6280399311751936 },
              { -2.1603505954320705, -2.0094046643132688, -3.4420144038325104 },
              { 0.55836569223518773, -0.7529503004515975, -0.20062191332098522, 0.28468306356366846 },
              1e-6 },
        } };
        for (const Case& k : cases) {
            const RigidBody a { test_support::box_solid(k.half_a),
                                RigidMotion({ k.rotation_a, k.start_a }, k.velocity_a, k.spin_a) };
            const RigidBody b {
                test_support::box_solid({ 0.5, 0.5, 0.5 }),
                RigidMotion({ k.rotation_b, Eigen::Vector3d::Zero() }, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero())
            };
            for (const RigidCcdMethod method : { RigidCcdMethod::CONSERVATIVE, RigidCcdMethod::CHORD }) {
                SCOPED_TRACE(testing::Message() << "eps " << k.eps << ", method " << static_cast<int>(method));
                RigidCcdOptions options;
                options.eps = k.eps;
                options.method = method;
                const RigidCcdResult r = rigid_time_of_contact(a, b, options);
                if (method == RigidCcdMethod::CHORD && !r.hit) {
                    continue; // (the chords miss the graze, as CHORD may)
                }
                ASSERT_TRUE(r.hit);
                ASSERT_GT(r.contacts.size(), 1U);
                NormalsChecked checked;
                expect_normals_out_of_b(a, b, r, method, checked);
                EXPECT_GT(checked.faces + checked.edges, 1);
            }
        }
    }

    /// Review finding (twenty-second session): a needle (a thin pyramid, 1.5e-6 across its base and 1 long) passing
    /// a wafer's rim (a tetrahedron 1.7e-4 high over a unit triangle) touched it with three long edges at once. The
    /// needle's edges decided the sense of the closest pair's normal against the rim's: the sum of the rim's two
    /// nearly opposite face normals is 1e-3 long, and it lost to the needle's. That normal pointed into b, against
    /// the two other contacts'. Each body's edge direction now counts alike, and every contact's normal runs along
    /// the direction from b's feature to a's before contact.
    TEST(ContactGeometry, NeedlePassingAWafersRim)
    {
        const auto pyramid = [](const Eigen::Matrix<double, 4, 3>& corners) {
            Eigen::MatrixX3i faces(4, 3);
            faces << 0, 2, 1, 0, 1, 3, 1, 2, 3, 0, 3, 2;
            return RigidShape::solid(corners, faces);
        };
        constexpr double THIN = 1.5097361891733144e-06;
        Eigen::Matrix<double, 4, 3> needle;
        needle << 0, 0, 0, 1, 0, 0, 1, THIN, 0, 1, 0, THIN;
        Eigen::Matrix<double, 4, 3> wafer;
        wafer << 0, 0, 0, 1, 0, 0, 0.5, 0.8, 0, 0.4, 0.3, 0.00016842346142694595;
        const RigidBody a {
            pyramid(needle),
            RigidMotion(
                { Eigen::Quaterniond(
                      0.82577180917865112, -2.0409183069194143, 0.70045508512968291, 0.90582360546055785),
                  { -0.98593784543224416, -1.0358073705959505, 0.69782372869717713 } },
                { 0.70169900876918978, 1.4294972471233462, -0.07085785027088054 },
                { -3.3586444536508928, -0.58339104634897421, -0.4984725063440803 }, 1.0, { 0.75, THIN / 4, THIN / 4 })
        };
        const RigidBody b {
            pyramid(wafer),
            RigidMotion(
                { Eigen::Quaterniond(
                      0.66681153991660735, -1.9267634238835145, 0.31611643348023488, 0.60340336798920191),
                  { -0.25920738502602947, 0.25265733550822617, 0.41258429942831715 } },
                Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero())
        };
        const auto end = [](const RigidBody& body, std::int32_t edge, Eigen::Index k, double t) {
            const Eigen::Vector3d u = body.shape.vertices().row(body.shape.edges()(edge, k)).transpose();
            return body.motion.point_at(u, t);
        };
        for (const RigidCcdMethod method : { RigidCcdMethod::CONSERVATIVE, RigidCcdMethod::CHORD }) {
            SCOPED_TRACE(testing::Message() << "method " << static_cast<int>(method));
            RigidCcdOptions options;
            options.eps = 1e-6;
            options.method = method;
            const RigidCcdResult r = rigid_time_of_contact(a, b, options);
            ASSERT_TRUE(r.hit);
            ASSERT_GT(r.toi_lower, 0.5);
            int edge_pairs = 0;
            for (const RigidContact& c : r.contacts) {
                if (c.feature_a.kind != RigidFeatureKind::EDGE || c.feature_b.kind != RigidFeatureKind::EDGE) {
                    continue;
                }
                const double t = r.toi_lower;
                const Eigen::Vector3d b_to_a = edge_edge_closest_offset<double, 3>(
                    end(a, c.feature_a.index, 0, t), end(a, c.feature_a.index, 1, t), end(b, c.feature_b.index, 0, t),
                    end(b, c.feature_b.index, 1, t));
                EXPECT_GT(c.normal.dot(b_to_a.normalized()), 0.99)
                    << "edges " << c.feature_a.index << ", " << c.feature_b.index << ": normal "
                    << c.normal.transpose();
                ++edge_pairs;
            }
            EXPECT_GE(edge_pairs, 2);
        }
    }

    /// Review finding (twenty-second session): a vertex that passes through a body thinner than it travels over the
    /// final interval (the slab here is 2e-7 to 2e-5 thick; the vertex falls 1e-5 in eps) lies beyond the slab's far
    /// face by toi_upper, and that face's pair can be the closest. Its outward normal pointed back the way the vertex
    /// came: the first contact's normal was 180 degrees off. A vertex that lay behind a face and over it before
    /// contact takes the side it came from: every contact's normal points up, out of the slab's top.
    TEST(ContactGeometry, VertexThroughASlabThinnerThanItsTravel)
    {
        Eigen::Matrix<double, 4, 3> corners;
        corners << 0, 0, 0, 0.3, 0, 0.4, 0, 0.3, 0.4, -0.3, -0.3, 0.4;
        Eigen::MatrixX3i faces(4, 3);
        faces << 0, 2, 1, 0, 1, 3, 1, 2, 3, 0, 3, 2;
        int far_faces = 0;
        const auto check = [&](double half_thickness, double spin, const Eigen::Vector3d& origin, double scale) {
            const Eigen::Matrix<double, 4, 3> scaled = scale * corners;
            const RigidBody tip { RigidShape::solid(scaled, faces),
                                  RigidMotion(
                                      { Eigen::Quaterniond::Identity(),
                                        origin + scale * Eigen::Vector3d(0.1, 0.05, 0.5) },
                                      { 0, 0, -10 * scale }, Eigen::Vector3d::Zero()) };
            const RigidBody slab {
                test_support::box_solid(scale * Eigen::Vector3d(1, 1, half_thickness)),
                RigidMotion({ Eigen::Quaterniond::Identity(), origin }, Eigen::Vector3d::Zero(), { spin, 0, 0 })
            };
            for (const RigidCcdMethod method : { RigidCcdMethod::CONSERVATIVE, RigidCcdMethod::CHORD }) {
                SCOPED_TRACE(
                    testing::Message() << "half thickness " << half_thickness << ", spin " << spin << ", origin "
                                       << origin.x() << ", scale " << scale << ", method " << static_cast<int>(method));
                RigidCcdOptions options;
                options.eps = 1e-6;
                options.method = method;
                const RigidCcdResult r = rigid_time_of_contact(tip, slab, options);
                ASSERT_TRUE(r.hit);
                ASSERT_FALSE(r.contacts.empty());
                const Eigen::Vector3d up = slab.motion.rotation_at(r.toi_upper).col(2);
                for (const RigidContact& c : r.contacts) {
                    EXPECT_GT(c.normal.dot(up), 1.0 - 1e-9) << "face " << c.feature_b.index;
                    // (the slab's bottom, as box_solid winds it, faces -z)
                    far_faces += face_normal(slab.shape, c.feature_b.index) == Eigen::Vector3d(0, 0, -1) ? 1 : 0;
                }
            }
        };
        for (const double half_thickness : { 1e-7, 1e-6, 1e-5 }) {
            // Still, and tilting about x: the faces' outward normals at toi_upper then differ from the faces as
            // they stood at toi_lower by 3e-6 rad, about the vertex's height over them across the face. Also 1e6 from
            // the origin, where the posed points' rounding is 1e-10 (a rounding allowance of 1e-9 of the magnitude
            // there, 1e-3, had left every offset under it undecided), and at a millionth of the size (where the
            // faces' unnormalized cross products, 1e-12 long, had fallen under the solids' vote threshold).
            for (const double spin : { 0.0, 3.0 }) {
                check(half_thickness, spin, Eigen::Vector3d::Zero(), 1.0);
            }
            check(half_thickness, 0.0, Eigen::Vector3d::Constant(1e6), 1.0);
            check(half_thickness, 0.0, Eigen::Vector3d::Zero(), 1e-6);
        }
        EXPECT_GE(far_faces, 16);
    }

} // namespace
} // namespace ccdkit
