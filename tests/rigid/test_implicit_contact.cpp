// SPDX-License-Identifier: MIT
#include <ccdkit/mesh/primitive_meshes.hpp>
#include <ccdkit/rigid/rigid_contact.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

namespace ccdkit {
namespace {

    RigidShape mesh_box(const Eigen::Vector3d& half_extents)
    {
        const TriangleMesh mesh = box_mesh(half_extents);
        return RigidShape::solid(mesh.vertices, mesh.faces);
    }

    RigidMotion moving(
        const Eigen::Vector3d& start,
        const Eigen::Vector3d& velocity,
        const Eigen::Vector3d& spin = Eigen::Vector3d::Zero())
    {
        return RigidMotion({ .translation = start }, velocity, spin);
    }

    RigidMotion still(const Eigen::Vector3d& at) { return moving(at, Eigen::Vector3d::Zero()); }

    RigidCcdOptions resolution(double r)
    {
        RigidCcdOptions options;
        options.surface_resolution = r;
        return options;
    }

    /// A hit that is never late and at most `early` before the analytic time.
    void expect_contact_near(const RigidCcdResult& r, double expected, double early)
    {
        ASSERT_TRUE(r.hit);
        EXPECT_LE(r.toi_lower, expected);
        EXPECT_GE(r.toi_lower, expected - early);
        EXPECT_LE(r.toi_upper - r.toi_lower, 1e-6);
        ASSERT_FALSE(r.contacts.empty());
    }

    TEST(ImplicitContact, SphereFallsOnAMeshBox)
    {
        // The sphere's bottom (z - 0.5) meets the box top (z = 0.5) when 2 - 3 s = 1: s = 1/3; speed 3.
        const RigidBody sphere { RigidShape::implicit(ImplicitShape::sphere(0.5)),
                                 moving({ 0.1, -0.2, 2.0 }, { 0, 0, -3 }) };
        const RigidBody box { mesh_box({ 1, 1, 0.5 }), still({ 0, 0, 0 }) };
        const double r = 1e-3;
        const RigidCcdResult hit = rigid_time_of_contact(sphere, box, resolution(r));
        expect_contact_near(hit, 1.0 / 3.0, 2.0 * r / 3.0);
        const RigidContact& c = hit.contacts.front();
        EXPECT_EQ(c.feature_a.kind, RigidFeatureKind::SURFACE);
        EXPECT_EQ(c.feature_b.kind, RigidFeatureKind::FACE);
        EXPECT_LT((c.normal - Eigen::Vector3d(0, 0, 1)).norm(), 0.1)
            << c.normal.transpose(); // box (b) towards sphere (a)
        EXPECT_NEAR(c.point.z(), 0.5, 3 * r);
        // The same bodies the other way round: the roles and the normal swap.
        const RigidCcdResult back = rigid_time_of_contact(box, sphere, resolution(r));
        expect_contact_near(back, 1.0 / 3.0, 2.0 * r / 3.0);
        EXPECT_EQ(back.contacts.front().feature_a.kind, RigidFeatureKind::FACE);
        EXPECT_LT((back.contacts.front().normal - Eigen::Vector3d(0, 0, -1)).norm(), 0.1);
    }

    TEST(ImplicitContact, TwoImplicitSpheresHeadOn)
    {
        // Centres 1 apart when -2 + 3 s = -1: s = 1/3.
        const RigidBody a { RigidShape::implicit(ImplicitShape::sphere(0.5)), moving({ -2, 0, 0 }, { 3, 0, 0 }) };
        const RigidBody b { RigidShape::implicit(ImplicitShape::sphere(0.5)), still({ 0, 0, 0 }) };
        const double r = 1e-3;
        const RigidCcdResult hit = rigid_time_of_contact(a, b, resolution(r));
        expect_contact_near(hit, 1.0 / 3.0, 3.0 * r / 3.0);
        EXPECT_LT((hit.contacts.front().normal - Eigen::Vector3d(-1, 0, 0)).norm(), 0.1);
        EXPECT_NEAR(hit.contacts.front().point.x(), -0.5, 3 * r);
    }

    TEST(ImplicitContact, SpinningCapsuleHitsAMeshWallAtTheAnalyticAngle)
    {
        // A capsule of half length 1 and radius 0.05, laid along x and spinning about z, meets the wall's face
        // y = 0.7 when its tip sphere (centre (cos, sin, 0) theta) does: sin(theta) + 0.05 = 0.7.
        const ImplicitShape capsule = ImplicitShape::capsule(0.05, 1.0).transformed(
            Eigen::Isometry3d(Eigen::AngleAxisd(std::numbers::pi / 2, Eigen::Vector3d::UnitY())));
        double lo = 0.0, hi = std::numbers::pi / 2;
        for (int k = 0; k < 200; ++k) {
            const double mid = 0.5 * (lo + hi);
            (std::sin(mid) + 0.05 < 0.7 ? lo : hi) = mid;
        }
        for (const double angle : { 1.5, 3.0 }) {
            const RigidBody rod { RigidShape::implicit(capsule),
                                  moving(Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), { 0, 0, angle }) };
            const RigidBody wall { mesh_box({ 1.0, 0.5, 0.5 }), still({ 1.0, 1.2, 0.0 }) };
            const RigidCcdResult hit = rigid_time_of_contact(rod, wall, resolution(1e-3));
            SCOPED_TRACE(angle);
            expect_contact_near(hit, lo / angle, 3e-3 / angle);
            EXPECT_LT((hit.contacts.front().normal - Eigen::Vector3d(0, -1, 0)).norm(), 0.1);
        }
    }

    TEST(ImplicitContact, RodThroughAHoleTouchesOnlyWhenTooThick)
    {
        // A plate with a square hole of half width 0.3; rods drop through its middle.
        const ImplicitShape plate = subtract(ImplicitShape::box({ 2, 2, 0.1 }), ImplicitShape::box({ 0.3, 0.3, 1 }));
        const RigidBody holed { RigidShape::implicit(plate), still({ 0, 0, 0 }) };
        for (const double half_width : { 0.25, 0.35 }) {
            const RigidBody rod { mesh_box({ half_width, half_width, 0.5 }), moving({ 0, 0, 2 }, { 0, 0, -4 }) };
            const RigidCcdResult r = rigid_time_of_contact(rod, holed, resolution(1e-2));
            SCOPED_TRACE(half_width);
            EXPECT_EQ(r.hit, half_width > 0.3);
            if (r.hit) {
                // The rod's bottom (z - 0.5) reaches the plate top (0.1) at 2 - 4 s = 0.6.
                EXPECT_LE(r.toi_lower, 0.35);
                EXPECT_GE(r.toi_lower, 0.35 - 2e-2 / 4);
            }
        }
    }

    TEST(ImplicitContact, NeverLateAgainstSampledDistances)
    {
        // Random screw motions of an implicit torus against a mesh box: at sampled times before toi_lower,
        // every vertex and face centre of the box stays outside the torus.
        std::mt19937_64 rng(3);
        const auto uniform
            = [&rng](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
        const ImplicitShape torus = ImplicitShape::torus(0.6, 0.2);
        const TriangleMesh box = box_mesh({ 0.3, 0.2, 0.25 });
        int hits = 0;
        for (int k = 0; k < 20; ++k) {
            const RigidBody a { RigidShape::implicit(torus),
                                moving(
                                    { -2, uniform(-0.5, 0.5), uniform(-0.5, 0.5) }, { 3, 0, 0 },
                                    { uniform(-3, 3), uniform(-3, 3), uniform(-3, 3) }) };
            const RigidBody b { RigidShape::solid(box.vertices, box.faces),
                                moving({ 0, 0, 0 }, { uniform(-0.5, 0.5), 0, 0 }, { 0, uniform(-1, 1), 0 }) };
            const RigidCcdResult r = rigid_time_of_contact(a, b, resolution(2e-3));
            hits += r.hit;
            SCOPED_TRACE(k);
            for (int i = 0; i <= 200; ++i) {
                const double s = r.toi_lower * i / 200.0;
                for (Eigen::Index v = 0; v < box.vertices.rows(); ++v) {
                    const Eigen::Vector3d world = b.motion.point_at(box.vertices.row(v).transpose(), s);
                    const RigidPose pose = a.motion.pose_at(s);
                    const Eigen::Vector3d local = pose.rotation.inverse() * (world - pose.translation);
                    ASSERT_GT(torus.signed_distance(local), 0.0) << "vertex " << v << " inside at s = " << s;
                }
            }
        }
        EXPECT_GT(hits, 5);
    }

    TEST(ImplicitContact, MeshBoxFallsOnASampledGridNeverLate)
    {
        // A level set sampled from a torus mesh (a grid of our own); a small box dropped and turned onto it. Before
        // toi_lower no box vertex is inside the grid's solid (the grid's own trilinear field), at toi_upper the box
        // is within about the resolution of it.
        const TriangleMesh ring = torus_mesh(1.0, 0.3, 24, 12);
        const ImplicitShape level_set
            = ImplicitShape::grid(SignedDistanceGrid::from_mesh(ring.vertices, ring.faces, 0.08, 0.2));
        const TriangleMesh box = box_mesh({ 0.2, 0.1, 0.1 });
        const RigidBody falling { RigidShape::solid(box.vertices, box.faces),
                                  moving({ 1.0, 0.05, 1.5 }, { 0, 0, -2.5 }, { 1.0, 2.0, 0.0 }) };
        const RigidBody grid { RigidShape::implicit(level_set), still({ 0, 0, 0 }) };
        const double r = 5e-3;
        const RigidCcdResult hit = rigid_time_of_contact(falling, grid, resolution(r));
        ASSERT_TRUE(hit.hit);
        for (int i = 0; i <= 400; ++i) {
            const double s = hit.toi_lower * i / 400.0;
            for (Eigen::Index v = 0; v < box.vertices.rows(); ++v) {
                ASSERT_GT(level_set.signed_distance(falling.motion.point_at(box.vertices.row(v).transpose(), s)), 0.0)
                    << s;
            }
        }
        double closest = std::numeric_limits<double>::infinity();
        for (Eigen::Index v = 0; v < box.vertices.rows(); ++v) {
            closest = std::min(
                closest,
                level_set.signed_distance(falling.motion.point_at(box.vertices.row(v).transpose(), hit.toi_upper)));
        }
        EXPECT_LT(closest, 0.3); // a corner or a face is near; the closest point may be inside a face
        EXPECT_LT(hit.contacts.front().gap, 2 * r);
    }

    TEST(ImplicitContact, StartingInsideTouchesAtOnce)
    {
        const RigidBody small { mesh_box({ 0.1, 0.1, 0.1 }), still({ 0, 0, 0 }) };
        const RigidBody ball { RigidShape::implicit(ImplicitShape::sphere(1.0)), moving({ 0, 0, 0 }, { 0.1, 0, 0 }) };
        const RigidCcdResult r = rigid_time_of_contact(small, ball);
        EXPECT_TRUE(r.hit);
        EXPECT_EQ(r.toi_upper, 0.0);
        EXPECT_TRUE(rigid_time_of_contact(ball, small).hit);
    }

    TEST(ImplicitContact, AnyPartOfAnImplicitSolidInsideAMeshSolidTouches)
    {
        // Review finding: a union whose first surface sample lies on a far part used to escape the check.
        const ImplicitShape parts = unite(
            unite(
                ImplicitShape::sphere(0.5).transformed(Eigen::Isometry3d(Eigen::Translation3d(10, 0, 0))),
                ImplicitShape::sphere(0.5).transformed(Eigen::Isometry3d(Eigen::Translation3d(-10, 0, 0)))),
            ImplicitShape::sphere(0.5));
        const RigidBody spheres { RigidShape::implicit(parts), still({ 0, 0, 0 }) };
        const RigidBody box { mesh_box({ 2, 2, 2 }), still({ 0, 0, 0 }) };
        EXPECT_TRUE(rigid_time_of_contact(box, spheres).hit);
        EXPECT_TRUE(rigid_time_of_contact(spheres, box).hit);
    }

    TEST(ImplicitContact, RejectsANegativeResolution)
    {
        const RigidBody ball { RigidShape::implicit(ImplicitShape::sphere(1.0)), still({ 0, 0, 0 }) };
        EXPECT_THROW((void)rigid_time_of_contact(ball, ball, resolution(-1.0)), std::invalid_argument);
        RigidCcdOptions none;
        none.max_surface_regions = 0;
        EXPECT_THROW((void)rigid_time_of_contact(ball, ball, none), std::invalid_argument);
        RigidCcdOptions no_tests;
        no_tests.max_surface_tests = 0;
        EXPECT_THROW((void)rigid_time_of_contact(ball, ball, no_tests), std::invalid_argument);
    }

    /// Review finding (nineteenth session): a ball sliding along a plate a couple of resolutions above it, never
    /// touching, costs about speed x size / resolution^2 region tests (95 s at a resolution of 1e-4). Past
    /// max_surface_tests the search starts over at twice the resolution, and says so in the statistics; whatever
    /// it then answers stays within the coarser resolution's promise (a contact only where the surfaces come within
    /// a few of it).
    TEST(ImplicitContact, ATestLimitBoundsASlideAlongASurface)
    {
        const double gap = 4e-3, r = 2e-3;
        const RigidBody plate { RigidShape::implicit(ImplicitShape::box({ 10, 10, 1 })), still({ 0, 0, 0 }) };
        const RigidBody ball { RigidShape::implicit(ImplicitShape::sphere(1)),
                               moving({ -0.5, 0, 2 + gap }, { 1, 0, 0 }) };
        const RigidCcdResult full = rigid_time_of_contact(ball, plate, resolution(r));
        EXPECT_FALSE(full.hit);
        EXPECT_EQ(full.stats.surface_restarts, 0);
        EXPECT_EQ(full.stats.surface_resolution, r);
        RigidCcdOptions limited = resolution(r);
        limited.max_surface_tests = 100'000;
        for (const bool swap : { false, true }) {
            SCOPED_TRACE(testing::Message() << "swapped " << swap);
            const RigidCcdResult coarse
                = swap ? rigid_time_of_contact(plate, ball, limited) : rigid_time_of_contact(ball, plate, limited);
            EXPECT_GE(coarse.stats.surface_restarts, 1);
            EXPECT_GE(coarse.stats.surface_resolution, 2 * r);
            EXPECT_LE(coarse.stats.pair_tests, (coarse.stats.surface_restarts + 1) * 100'001);
            if (coarse.hit) {
                EXPECT_LE(gap, 3 * coarse.stats.surface_resolution);
            }
        }
        // Limits below what the first regions alone take (a second review: they started over without end). Two balls
        // meeting at t = 0.5: every answer in time, never late.
        const RigidBody left { RigidShape::implicit(ImplicitShape::sphere(1)), moving({ -2.5, 0, 0 }, { 1, 0, 0 }) };
        const RigidBody right { RigidShape::implicit(ImplicitShape::sphere(1)), still({ 0, 0, 0 }) };
        for (const std::int64_t tests : { 1, 10, 1000 }) {
            RigidCcdOptions tight = resolution(1e-3);
            tight.max_surface_tests = tests;
            const RigidCcdResult head_on = rigid_time_of_contact(left, right, tight);
            ASSERT_TRUE(head_on.hit) << tests;
            EXPECT_LE(head_on.toi_lower, 0.5) << tests;
            EXPECT_GE(head_on.stats.surface_restarts, 1) << tests;
            EXPECT_LT(head_on.stats.pair_tests, 100'000) << tests;
        }
    }

    /// A resolution far finer than the bodies on a flat contact (1e-9 on unit blocks face to face: about 1e18
    /// regions) ran until memory ran out. Past max_surface_regions the search starts over at a coarser resolution:
    /// still never late, the contact reported somewhat earlier, the work bounded.
    TEST(ImplicitContact, ARegionLimitCoarsensAFlatContactAtAFarTooFineResolution)
    {
        const RigidBody base { RigidShape::implicit(ImplicitShape::box({ 0.5, 0.5, 0.5 })),
                               still(Eigen::Vector3d::Zero()) };
        for (const bool mesh : { false, true }) {
            for (const std::size_t limit : { std::size_t { 1 }, std::size_t { 20000 } }) {
                SCOPED_TRACE(testing::Message() << (mesh ? "mesh" : "implicit") << " block, limit " << limit);
                const RigidShape shape
                    = mesh ? mesh_box({ 0.5, 0.5, 0.5 }) : RigidShape::implicit(ImplicitShape::box({ 0.5, 0.5, 0.5 }));
                const RigidBody falling { shape, moving({ 0.1, -0.2, 1.5 }, { 0, 0, -1 }) };
                RigidCcdOptions options = resolution(1e-9);
                options.max_surface_regions = limit;
                const RigidCcdResult r = rigid_time_of_contact(falling, base, options);
                ASSERT_TRUE(r.hit);
                EXPECT_LE(r.toi_lower, 0.5);
                EXPECT_GE(r.toi_lower, limit == 1 ? 0.0 : 0.45);
                EXPECT_LT(r.stats.pair_tests, 5'000'000);
                EXPECT_GE(r.stats.surface_restarts, 1);
                EXPECT_GT(r.stats.surface_resolution, 1e-9);
                ASSERT_FALSE(r.contacts.empty());
                for (const RigidContact& c : r.contacts) {
                    EXPECT_LT((c.normal - Eigen::Vector3d(0, 0, 1)).norm(), 1e-6) << c.point.transpose();
                }
            }
        }
    }

    /// Review finding (nineteenth session): the start-inside check sampled an implicit body's surface at an eighth of
    /// its radius about its own origin, so a small shape placed far from that origin (a lens, two spheres
    /// intersected, moved to x = 50 inside a box of half size 100) had no sample and, nested without touching, was
    /// missed in one argument order. The spacing now follows the shape's bounds, finer where that gives none.
    TEST(ImplicitContact, SmallShapesPlacedFarFromTheirOriginAreFoundNested)
    {
        const auto at = [](double x) { return Eigen::Isometry3d(Eigen::Translation3d(x, 0, 0)); };
        const ImplicitShape lens = intersect(ImplicitShape::sphere(1), ImplicitShape::sphere(1).transformed(at(1.5)));
        const ImplicitShape ring = subtract(ImplicitShape::capsule(1, 0.05), ImplicitShape::capsule(0.98, 1));
        const RigidBody box { RigidShape::implicit(ImplicitShape::box({ 100, 100, 100 })), still({ 0, 0, 0 }) };
        // Likewise the default resolution (1% of the smaller body's size) had taken the radius about the body's
        // origin: a ball resting in a cavity 0.5 from its wall, both placed at x = 50, "touched" at t = 0.
        const ImplicitShape hollow = subtract(ImplicitShape::box({ 1, 1, 1 }), ImplicitShape::sphere(0.8));
        const RigidBody cavity { RigidShape::implicit(hollow.transformed(at(50))), still({ 0, 0, 0 }) };
        const RigidBody resting { RigidShape::implicit(ImplicitShape::sphere(0.3).transformed(at(50))),
                                  still({ 0, 0, 0 }) };
        EXPECT_FALSE(rigid_time_of_contact(cavity, resting).hit);
        EXPECT_FALSE(rigid_time_of_contact(resting, cavity).hit);
        for (const ImplicitShape& inner : { lens.transformed(at(50)), ring.transformed(at(50)) }) {
            const RigidBody nested { RigidShape::implicit(inner), still({ 0, 0, 0 }) };
            for (const bool swap : { false, true }) {
                SCOPED_TRACE(testing::Message() << "swapped " << swap);
                const RigidCcdResult r = swap ? rigid_time_of_contact(nested, box) : rigid_time_of_contact(box, nested);
                ASSERT_TRUE(r.hit);
                EXPECT_EQ(r.toi_lower, 0.0);
            }
        }
    }

    /// Review finding (eighteenth session): an empty implicit solid (two disjoint boxes intersected, a grid with no
    /// sample inside) touches nothing, in either role; its empty bounds had given the search a region centred at
    /// NaN that no clearance ruled out (a hit at t = 0 with a NaN contact, or an error from the start-inside check).
    TEST(ImplicitContact, EmptySolidsTouchNothing)
    {
        const ImplicitShape disjoint = intersect(
            ImplicitShape::box({ 1, 1, 1 }),
            ImplicitShape::box({ 1, 1, 1 }).transformed(Eigen::Isometry3d(Eigen::Translation3d(5, 0, 0))));
        const SignedDistanceGrid outside({ -1, -1, -1 }, 2.0, { 2, 2, 2 }, std::vector<double>(8, 1.0));
        const RigidBody box { RigidShape::implicit(ImplicitShape::box({ 1, 1, 1 })), still(Eigen::Vector3d::Zero()) };
        for (const ImplicitShape& empty : { disjoint, ImplicitShape::grid(outside) }) {
            const RigidBody coming { RigidShape::implicit(empty), moving({ 0, 3, 0 }, { 0, -6, 0 }) };
            for (const bool swap : { false, true }) {
                const RigidCcdResult r = swap ? rigid_time_of_contact(box, coming) : rigid_time_of_contact(coming, box);
                EXPECT_FALSE(r.hit) << swap;
                EXPECT_EQ(r.toi_lower, 1.0);
                EXPECT_TRUE(r.contacts.empty());
            }
        }
    }

    /// Review finding (eighteenth session): with a coarse eps or a fast motion, contacts came far more than the
    /// resolution early (the regions stopped splitting once smaller than their travel over an interval of eps): a
    /// ball spinning about its centre (so unchanged by the spin) falling at 1 per step onto a box reported 0.05 for
    /// 0.5 at eps 1e-2; spheres passing 0.1 apart at 1e6 per step "touched". The interval now narrows until the
    /// regions travel within the resolution in it.
    TEST(ImplicitContact, CoarseEpsAndFastMotionsAreEarlyByAboutTheResolution)
    {
        const RigidBody box { RigidShape::implicit(ImplicitShape::box({ 1, 1, 1 })), still(Eigen::Vector3d::Zero()) };
        const RigidBody ball { RigidShape::implicit(ImplicitShape::sphere(0.5)),
                               moving({ 0, 0, 2 }, { 0, 0, -1 }, { 100, 0, 0 }) };
        const double resolution = 0.01 * 0.5; // the default: 1% of the smaller body's radius
        for (const double eps : { 1e-2, 1e-3, 1e-6 }) {
            RigidCcdOptions options;
            options.eps = eps;
            for (const bool swap : { false, true }) {
                SCOPED_TRACE(testing::Message() << "eps " << eps << ", swapped " << swap);
                const RigidCcdResult r
                    = swap ? rigid_time_of_contact(box, ball, options) : rigid_time_of_contact(ball, box, options);
                ASSERT_TRUE(r.hit);
                EXPECT_LE(r.toi_lower, 0.5);
                EXPECT_GE(r.toi_upper, 0.5 - 3.0 * resolution); // (the regions' reach: about twice the resolution)
                EXPECT_LE(r.toi_upper - r.toi_lower, eps);
            }
        }
        const RigidBody passing { RigidShape::implicit(ImplicitShape::sphere(1.0)),
                                  moving({ -5e5, 1.2, 0 }, { 1e6, 0, 0 }) };
        const RigidBody small { RigidShape::implicit(ImplicitShape::sphere(0.1)), still(Eigen::Vector3d::Zero()) };
        EXPECT_FALSE(rigid_time_of_contact(passing, small).hit); // 0.1 apart at the closest
    }

    /// Two implicit boxes meeting face to face at a fine resolution: the contact face is about (1 / resolution)^2
    /// regions, and every halving of time keeps them all. The search held a copy of them per halving and compared
    /// each contact with every one kept before it: at a resolution of 1e-3 it ran out of memory, at 3e-3 it took 5 s
    /// and 0.8 GB (now 0.4 s and 90 MB; a region is held once, contacts merge through a hash grid). The contacts
    /// still cover the whole face, at least twice the resolution apart.
    TEST(ImplicitContact, FaceToFaceAtAFineResolutionCoversTheFace)
    {
        const double r = 4e-3;
        const RigidBody falling { RigidShape::implicit(ImplicitShape::box({ 0.5, 0.5, 0.5 })),
                                  moving({ 0, 0, 1.5 }, { 0, 0, -1 }) };
        const RigidBody base { RigidShape::implicit(ImplicitShape::box({ 0.5, 0.5, 0.5 })),
                               still(Eigen::Vector3d::Zero()) };
        const RigidCcdResult hit = rigid_time_of_contact(falling, base, resolution(r));
        expect_contact_near(hit, 0.5, 3.0 * r);
        const std::vector<RigidContact>& contacts = hit.contacts;
        for (const RigidContact& c : contacts) {
            ASSERT_LT((c.normal - Eigen::Vector3d(0, 0, 1)).norm(), 1e-6) << c.point.transpose();
            ASSERT_NEAR(c.point.z(), 0.5, 3.0 * r);
        }
        for (std::size_t i = 0; i < contacts.size(); ++i) {
            for (std::size_t j = i + 1; j < contacts.size(); ++j) {
                ASSERT_GT((contacts[i].point - contacts[j].point).norm(), 2.0 * r - 1e-12);
            }
        }
        // Every point of the face lies near a contact: within the merge distance of a kept region, plus a region's
        // radius and its travel.
        for (int i = 0; i <= 20; ++i) {
            for (int j = 0; j <= 20; ++j) {
                const Eigen::Vector3d p(-0.5 + i / 20.0, -0.5 + j / 20.0, 0.5);
                double nearest = std::numeric_limits<double>::infinity();
                for (const RigidContact& c : contacts) {
                    nearest = std::min(nearest, (c.point - p).norm());
                }
                EXPECT_LE(nearest, 5.0 * r) << p.transpose();
            }
        }
    }

    /// The normal at a contact is that of the surface flat there, or square to both edges where two edges meet: the
    /// solid's own normal at a region beside its corner or edge runs from there to the region, sideways (a cube's
    /// corner under a falling slab's face gave normals up to 40 degrees off; two implicit boxes turned at random, a
    /// median of 12 degrees, 56% over 10, now 0.01 and 2-4% over 10, nearly all edge on edge where the sampled normals
    /// do not show both edges). Both argument orders, a mesh slab too.
    TEST(ImplicitContact, NormalsAreTheFlatSurfacesOrSquareToBothEdges)
    {
        const RigidShape slab = RigidShape::implicit(ImplicitShape::box({ 0.6, 0.5, 0.3 }));
        const RigidShape cube = RigidShape::implicit(ImplicitShape::box({ 0.2, 0.2, 0.2 }));
        // The cube with a corner up (its diagonal turned onto z), and a box with an edge down along x (45 degrees about
        // x), one with an edge up along y.
        const Eigen::Quaterniond corner_up
            = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d(1, 1, 1).normalized(), Eigen::Vector3d::UnitZ());
        const Eigen::Quaterniond edge_along_x(Eigen::AngleAxisd(std::numbers::pi / 4.0, Eigen::Vector3d::UnitX()));
        const Eigen::Quaterniond edge_along_y(Eigen::AngleAxisd(std::numbers::pi / 4.0, Eigen::Vector3d::UnitY()));
        const RigidMotion cube_still({ .rotation = corner_up }, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
        const RigidMotion slab_falling({ .translation = { 0.05, -0.1, 1.5 } }, { 0, 0, -2 }, Eigen::Vector3d::Zero());
        const RigidMotion edge_x_falling(
            { .rotation = edge_along_x, .translation = { 0.03, 0.02, 1.5 } }, { 0, 0, -2 }, Eigen::Vector3d::Zero());
        const RigidMotion edge_y_still({ .rotation = edge_along_y }, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
        const auto expect_normal = [](const RigidBody& a, const RigidBody& b, const Eigen::Vector3d& expected) {
            const RigidCcdResult hit = rigid_time_of_contact(a, b);
            ASSERT_TRUE(hit.hit);
            ASSERT_FALSE(hit.contacts.empty());
            for (const RigidContact& c : hit.contacts) {
                EXPECT_LT((c.normal - expected).norm(), 0.02) << c.normal.transpose() << " at " << c.point.transpose();
            }
        };
        const Eigen::Vector3d up = Eigen::Vector3d::UnitZ();
        for (const RigidShape& falling : { slab, mesh_box({ 0.6, 0.5, 0.3 }) }) {
            SCOPED_TRACE(falling.is_implicit() ? "implicit slab" : "mesh slab");
            expect_normal({ falling, slab_falling }, { cube, cube_still }, up); // (b, the cube, towards a)
            expect_normal({ cube, cube_still }, { falling, slab_falling }, -up);
        }
        const RigidShape box = RigidShape::implicit(ImplicitShape::box({ 0.3, 0.3, 0.3 }));
        expect_normal({ box, edge_x_falling }, { box, edge_y_still }, up);
        expect_normal({ box, edge_y_still }, { box, edge_x_falling }, -up);
    }

} // namespace
} // namespace ccdkit
