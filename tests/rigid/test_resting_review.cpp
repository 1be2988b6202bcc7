// SPDX-License-Identifier: MIT
// Adversarial review of bodies that start touching or overlapping (ContactSearch::surfaces_cross and
// starts_inside): resting stacks face to face, a box on a slab, nested bodies, bodies touching and moving apart,
// at scales 1e-6 to 1e6. The answer must be a contact at t = 0 whose pairs really touch (checked against the
// brute-force pair gaps), each pair once, with normals pointing from b towards a.

#include "box_solid.hpp"
#include "pair_gaps.hpp"
#include "random_motions.hpp"

#include <ccdkit/mesh/primitive_meshes.hpp>
#include <ccdkit/rigid/rigid_contact.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>
#include <vector>

namespace ccdkit {
namespace {

    using test_support::pair_gaps;
    using test_support::PairGap;
    using test_support::RandomMotions;

    using test_support::box_solid;

    RigidMotion placed(
        const Eigen::Vector3d& at,
        const Eigen::Quaterniond& rotation = Eigen::Quaterniond::Identity(),
        const Eigen::Vector3d& velocity = Eigen::Vector3d::Zero())
    {
        return RigidMotion({ rotation, at }, velocity, Eigen::Vector3d::Zero());
    }

    /// A contact from t = 0 (at 0 where the surfaces meet; where rounding of the poses left them a hair apart, the
    /// search's first interval, no wider than eps), no feature pair twice, every pair within `touch` of touching at
    /// toi_upper (brute force).
    void expect_start_contact(const RigidBody& a, const RigidBody& b, const RigidCcdResult& r, double touch)
    {
        ASSERT_TRUE(r.hit);
        EXPECT_EQ(r.toi_lower, 0.0);
        EXPECT_LE(r.toi_upper, 1e-6);
        ASSERT_FALSE(r.contacts.empty());
        const auto key = [](const RigidContact& c) {
            return std::tuple(c.feature_a.kind, c.feature_a.index, c.feature_b.kind, c.feature_b.index);
        };
        std::vector<RigidContact> sorted = r.contacts;
        std::sort(sorted.begin(), sorted.end(), [&](const auto& x, const auto& y) { return key(x) < key(y); });
        for (std::size_t k = 1; k < sorted.size(); ++k) {
            EXPECT_NE(key(sorted[k - 1]), key(sorted[k])) << "pair reported twice";
        }
        const std::vector<PairGap> gaps = pair_gaps(a, b, r.toi_upper);
        for (const RigidContact& c : r.contacts) {
            const auto it = std::find_if(gaps.begin(), gaps.end(), [&](const PairGap& g) {
                return g.a.kind == c.feature_a.kind && g.a.index == c.feature_a.index && g.b.kind == c.feature_b.kind
                    && g.b.index == c.feature_b.index;
            });
            ASSERT_NE(it, gaps.end());
            EXPECT_LE(it->gap, touch);
            EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12);
        }
    }

    TEST(RestingReview, BoxRestingOnABoxTouchesAtZeroWithNormalsOutOfTheLowerBox)
    {
        // Review finding: every feature pair was reported once per meeting face (26 contacts for 6 pairs), and
        // the edges crossing in the contact plane took the sense of their cross product (half pointed from a into
        // b). The small box rests on the cube's top face, turned about z or not, at rest or lifting off, at three
        // scales; with the roles exchanged the normal turns.
        for (const double scale : { 1e-6, 1.0, 1e6 }) {
            const RigidBody cube { box_solid(Eigen::Vector3d::Constant(0.5 * scale)), placed({ 0, 0, 0 }) };
            const RigidShape small = box_solid(Eigen::Vector3d::Constant(0.25 * scale));
            for (const double turn : { 0.0, 0.5 }) {
                for (const double lift : { 0.0, 1.0 }) {
                    SCOPED_TRACE(testing::Message() << "scale " << scale << " turn " << turn << " lift " << lift);
                    const RigidBody top { small,
                                          placed(
                                              Eigen::Vector3d(0.1, 0, 0.75) * scale,
                                              Eigen::Quaterniond(Eigen::AngleAxisd(turn, Eigen::Vector3d::UnitZ())),
                                              Eigen::Vector3d(0, 0, lift * scale)) };
                    // Lifting off, the gap at toi_upper grows by the lift speed times its width.
                    const double touch = (1e-15 + lift * 1e-6) * scale;
                    const RigidCcdResult r = rigid_time_of_contact(top, cube);
                    expect_start_contact(top, cube, r, touch);
                    for (const RigidContact& c : r.contacts) {
                        EXPECT_LT((c.normal - Eigen::Vector3d::UnitZ()).norm(), 1e-12) << c.normal.transpose();
                        EXPECT_NEAR(c.point.z(), 0.5 * scale, touch);
                    }
                    const RigidCcdResult swapped = rigid_time_of_contact(cube, top);
                    expect_start_contact(cube, top, swapped, touch);
                    for (const RigidContact& c : swapped.contacts) {
                        EXPECT_LT((c.normal + Eigen::Vector3d::UnitZ()).norm(), 1e-12) << c.normal.transpose();
                    }
                }
            }
        }
    }

    TEST(RestingReview, NestedBodyNormalPointsOutOfTheSolidItIsIn)
    {
        // Review finding: the inside vertex against the nearest face took the normal of the side it is on, i.e.
        // into the solid around it; the normal (from b towards a) must point out of b's nearest face when a is
        // inside b, and into a's nearest face when b is inside a.
        const RigidBody cube { box_solid({ 0.5, 0.5, 0.5 }), placed({ 0, 0, 0 }) };
        const RigidBody inner { box_solid({ 0.25, 0.25, 0.25 }), placed({ 0.2, 0, 0 }) };
        const RigidCcdResult a_inside = rigid_time_of_contact(inner, cube);
        ASSERT_TRUE(a_inside.hit);
        ASSERT_EQ(a_inside.contacts.size(), 1U);
        // Vertex 0 of the inner box (-0.05, -0.25, -0.25) is nearest the face y = -0.5, outward -y.
        EXPECT_LT((a_inside.contacts[0].normal - Eigen::Vector3d(0, -1, 0)).norm(), 1e-12)
            << a_inside.contacts[0].normal.transpose();
        const RigidCcdResult b_inside = rigid_time_of_contact(cube, inner);
        ASSERT_TRUE(b_inside.hit);
        ASSERT_EQ(b_inside.contacts.size(), 1U);
        EXPECT_LT((b_inside.contacts[0].normal - Eigen::Vector3d(0, 1, 0)).norm(), 1e-12)
            << b_inside.contacts[0].normal.transpose();
    }

    /// One contact at t = 0 between the features of the kinds given (a mesh face with its index), unit normal.
    void expect_one_start_contact(const RigidCcdResult& r, RigidFeatureKind kind_a, RigidFeatureKind kind_b)
    {
        ASSERT_TRUE(r.hit);
        EXPECT_EQ(r.toi_upper, 0.0);
        ASSERT_EQ(r.contacts.size(), 1U);
        const RigidContact& c = r.contacts[0];
        EXPECT_EQ(c.feature_a.kind, kind_a);
        EXPECT_EQ(c.feature_b.kind, kind_b);
        EXPECT_GE(std::max(c.feature_a.index, c.feature_b.index), 0);
        EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12);
    }

    TEST(RestingReview, BodyNestedInAnImplicitSolidReportsAContact)
    {
        // Review finding: a mesh nested in an implicit solid (or an implicit solid in a solid mesh) was a hit at
        // t = 0 with no contact at all. The contact is the inside point, on the mesh face nearest it, with the
        // implicit surface's normal (out of the implicit solid, from b towards a).
        const RigidBody ball { RigidShape::implicit(ImplicitShape::sphere(2.0)), placed({ 0, 0, 0 }) };
        const RigidBody small { box_solid({ 0.25, 0.25, 0.25 }), placed({ 0.2, 0, 0 }) };
        const RigidCcdResult box_in_ball = rigid_time_of_contact(small, ball);
        expect_one_start_contact(box_in_ball, RigidFeatureKind::FACE, RigidFeatureKind::SURFACE);
        for (const RigidContact& c : box_in_ball.contacts) {
            EXPECT_LT((c.normal - c.point.normalized()).norm(), 1e-9) << c.normal.transpose();
            EXPECT_EQ(c.gap, 0.0);
        }
        const RigidBody bead { RigidShape::implicit(ImplicitShape::sphere(0.1)), placed({ 0.1, 0, 0 }) };
        const RigidBody cube { box_solid({ 0.5, 0.5, 0.5 }), placed({ 0, 0, 0 }) };
        const RigidCcdResult bead_in_cube = rigid_time_of_contact(bead, cube);
        expect_one_start_contact(bead_in_cube, RigidFeatureKind::SURFACE, RigidFeatureKind::FACE);
        for (const RigidContact& c : bead_in_cube.contacts) {
            EXPECT_NEAR((c.point - Eigen::Vector3d(0.1, 0, 0)).norm(), 0.1, 1e-6);
        }
    }

    TEST(RestingReview, RandomRestingPairsTouchAtZeroAtEveryScale)
    {
        // A random box resting on another's top face (face to face, random offset and turn about the face's
        // normal), the pair then placed at a random pose: rounding of the poses leaves the faces a few ulps apart
        // or across, and either way the answer must be a contact at t = 0 whose pairs all touch within the
        // rounding, with normals no more than rounding off the lower box's top face normal.
        RandomMotions random(20261124);
        for (const double scale : { 1e-6, 1.0, 1e6 }) {
            for (int trial = 0; trial < 40; ++trial) {
                SCOPED_TRACE(testing::Message() << "scale " << scale << " trial " << trial);
                const Eigen::Vector3d lower_half = (random.vector(0.4).cwiseAbs().array() + 0.3).matrix() * scale;
                const Eigen::Vector3d upper_half = (random.vector(0.2).cwiseAbs().array() + 0.1).matrix() * scale;
                const Eigen::Quaterniond pose = random.rotation();
                const Eigen::Vector3d origin = random.vector(3.0 * scale);
                const Eigen::Quaterniond turn(Eigen::AngleAxisd(random.uniform(-3.0, 3.0), Eigen::Vector3d::UnitZ()));
                const Eigen::Vector3d offset(
                    random.uniform(-0.2, 0.2) * scale, random.uniform(-0.2, 0.2) * scale,
                    lower_half.z() + upper_half.z());
                const RigidBody lower { box_solid(lower_half), placed(origin, pose) };
                const RigidBody upper { box_solid(upper_half), placed(origin + pose * offset, pose * turn) };
                const RigidCcdResult r = rigid_time_of_contact(upper, lower);
                const double rounding = 1e-13 * scale;
                expect_start_contact(upper, lower, r, rounding);
                const Eigen::Vector3d up = pose * Eigen::Vector3d::UnitZ();
                for (const RigidContact& c : r.contacts) {
                    EXPECT_GT(c.normal.dot(up), 1.0 - 1e-9) << c.normal.transpose();
                }
            }
        }
    }

    TEST(RestingReview, AlignedStackRimPairsTakeTheStackNormal)
    {
        // Review finding: two equal cubes stacked exactly (rims coincide) touch at t = 0 along the whole shared
        // rim, and the pairs there (a vertex on a side face's boundary, edges meeting at a corner) carried their
        // own normals (+-x, +-y, -z for some face-vertex pairs) where the only direction that separates the
        // bodies is +z: the one face normal in both features' normal cones at the contact.
        const RigidShape cube = box_solid({ 0.5, 0.5, 0.5 });
        const RigidBody lower { cube, placed({ 0, 0, 0 }) };
        const RigidBody upper { cube, placed({ 0, 0, 1 }) };
        const RigidCcdResult r = rigid_time_of_contact(upper, lower);
        expect_start_contact(upper, lower, r, 0.0);
        for (const RigidContact& c : r.contacts) {
            EXPECT_LT((c.normal - Eigen::Vector3d::UnitZ()).norm(), 1e-12) << c.normal.transpose();
        }
    }

    TEST(RestingReview, StacksSharingRimsTakeTheStackNormalAtEveryScaleAndPose)
    {
        // The aligned stack shifted so that rims coincide along one or two sides only, or corner on corner, at
        // three scales, under random poses (rounding leaves the rims a few ulps apart or across), with the roles
        // exchanged: every contact's normal is the lower box's top normal (from b towards a), up to rounding. Corner
        // on corner any direction of the octant between the two corners separates them: the normal must lie in it.
        RandomMotions random(6101);
        for (const double scale : { 1e-6, 1.0, 1e6 }) {
            const RigidShape cube = box_solid(Eigen::Vector3d::Constant(0.5 * scale));
            for (const Eigen::Vector3d& shift : { Eigen::Vector3d(0, 0, 1), Eigen::Vector3d(0.5, 0, 1),
                                                  Eigen::Vector3d(0.5, 0.5, 1), Eigen::Vector3d(1, 1, 1) }) {
                for (int trial = 0; trial < 4; ++trial) {
                    SCOPED_TRACE(
                        testing::Message()
                        << "scale " << scale << " shift " << shift.transpose() << " trial " << trial);
                    const Eigen::Quaterniond pose = trial == 0 ? Eigen::Quaterniond::Identity() : random.rotation();
                    const Eigen::Vector3d origin = trial == 0 ? Eigen::Vector3d::Zero() : random.vector(3.0 * scale);
                    const RigidBody lower { cube, placed(origin, pose) };
                    const RigidBody upper { cube, placed(origin + pose * (shift * scale), pose) };
                    const double rounding = trial == 0 ? 0.0 : 1e-13 * scale;
                    const double tolerance = trial == 0 ? 1e-12 : 1e-9;
                    const Eigen::Vector3d up = pose * Eigen::Vector3d::UnitZ();
                    const RigidCcdResult r = rigid_time_of_contact(upper, lower);
                    expect_start_contact(upper, lower, r, rounding);
                    const bool corners = shift.x() == 1.0;
                    const auto expect_separating = [&](const Eigen::Vector3d& normal) {
                        if (corners) {
                            EXPECT_GT((pose.inverse() * normal).minCoeff(), -tolerance) << normal.transpose();
                        } else {
                            EXPECT_LT((normal - up).norm(), tolerance) << normal.transpose();
                        }
                    };
                    for (const RigidContact& c : r.contacts) {
                        expect_separating(c.normal);
                    }
                    const RigidCcdResult swapped = rigid_time_of_contact(lower, upper);
                    expect_start_contact(lower, upper, swapped, rounding);
                    for (const RigidContact& c : swapped.contacts) {
                        expect_separating(-c.normal);
                    }
                }
            }
        }
    }

    TEST(RestingReview, CrossingRidgesKeepTheirCommonNormal)
    {
        // A cube on edge (turned 45 degrees about x) resting across another's top ridge (turned about y): the
        // ridges cross at right angles and no face normal separates the bodies (the normal cones meet only in
        // +z), so the contact keeps the edges' common normal, +z from b towards a.
        const RigidShape cube = box_solid({ 0.5, 0.5, 0.5 });
        const double quarter = std::numbers::pi / 4;
        const RigidBody lower {
            cube, placed({ 0, 0, 0 }, Eigen::Quaterniond(Eigen::AngleAxisd(quarter, Eigen::Vector3d::UnitY())))
        };
        const RigidBody upper {
            cube,
            placed({ 0, 0, std::sqrt(2.0) }, Eigen::Quaterniond(Eigen::AngleAxisd(quarter, Eigen::Vector3d::UnitX())))
        };
        const RigidCcdResult r = rigid_time_of_contact(upper, lower);
        expect_start_contact(upper, lower, r, 1e-15);
        for (const RigidContact& c : r.contacts) {
            EXPECT_LT((c.normal - Eigen::Vector3d::UnitZ()).norm(), 1e-9) << c.normal.transpose();
        }
    }

    TEST(RestingReview, CrossingRidgesOfSmallBodiesFarFromTheOriginKeepTheirCommonNormal)
    {
        // Review finding (s16-rev6): the touching normal's rounding allowance was 1e-9 of the largest world
        // coordinate, so a millimetre body a thousand kilometres out (1e-3 at 1e6: still ten million ulps across)
        // got an allowance as large as itself, every face normal passed both normal cones and the crossing ridges
        // took a side face's normal (45 degrees off +z) that does not separate them. The same crossing ridges as
        // above, small and far out: the normal stays +z.
        const double quarter = std::numbers::pi / 4;
        for (const double size : { 1e-3, 1e-2 }) {
            for (const double distance : { 0.0, 1e4, 1e6 }) {
                SCOPED_TRACE(testing::Message() << "size " << size << " distance " << distance);
                const RigidShape cube = box_solid(Eigen::Vector3d::Constant(0.5 * size));
                const Eigen::Vector3d origin(distance, -0.5 * distance, 0.25 * distance);
                const RigidBody lower {
                    cube, placed(origin, Eigen::Quaterniond(Eigen::AngleAxisd(quarter, Eigen::Vector3d::UnitY())))
                };
                const RigidBody upper { cube,
                                        placed(
                                            origin + Eigen::Vector3d(0, 0, std::sqrt(2.0) * size),
                                            Eigen::Quaterniond(Eigen::AngleAxisd(quarter, Eigen::Vector3d::UnitX()))) };
                const RigidCcdResult r = rigid_time_of_contact(upper, lower);
                ASSERT_TRUE(r.hit);
                EXPECT_EQ(r.toi_lower, 0.0);
                ASSERT_FALSE(r.contacts.empty());
                for (const RigidContact& c : r.contacts) {
                    EXPECT_LT((c.normal - Eigen::Vector3d::UnitZ()).norm(), 1e-6) << c.normal.transpose();
                }
            }
        }
    }

    TEST(RestingReview, StacksOfSmallBodiesFarFromTheOriginTakeTheStackNormal)
    {
        // The rim-on-rim stacks above, a millimetre across and up to a thousand kilometres out under random poses:
        // the rounding of the poses there (ulps of 1e6, 1e-10) must still let the rims' faces hold the contact
        // point, so the normal is the stack's (the allowance for the posed points was narrowed for the test
        // above).
        RandomMotions random(6203);
        const double size = 1e-3;
        const RigidShape cube = box_solid(Eigen::Vector3d::Constant(0.5 * size));
        for (const double distance : { 1e3, 1e6 }) {
            for (int trial = 0; trial < 8; ++trial) {
                SCOPED_TRACE(testing::Message() << "distance " << distance << " trial " << trial);
                const Eigen::Quaterniond pose = random.rotation();
                const Eigen::Vector3d origin = random.vector(distance);
                const Eigen::Vector3d shift = trial % 2 == 0 ? Eigen::Vector3d(0, 0, 1) : Eigen::Vector3d(0.5, 0, 1);
                const RigidBody lower { cube, placed(origin, pose) };
                const RigidBody upper { cube, placed(origin + pose * (shift * size), pose) };
                const Eigen::Vector3d up = pose * Eigen::Vector3d::UnitZ();
                const RigidCcdResult r = rigid_time_of_contact(upper, lower);
                ASSERT_TRUE(r.hit);
                EXPECT_EQ(r.toi_lower, 0.0);
                ASSERT_FALSE(r.contacts.empty());
                for (const RigidContact& c : r.contacts) {
                    EXPECT_LT((c.normal - up).norm(), 1e-6) << c.normal.transpose();
                }
            }
        }
    }

} // namespace
} // namespace ccdkit
