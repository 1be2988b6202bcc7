// SPDX-License-Identifier: MIT
// Many bodies at once (rigid_pairs.hpp): the swept boxes hold every body at every time, and the pairs answered
// are exactly those a query of every pair finds touching, with the same answers.
#include "box_solid.hpp"
#include "expect_invalid_argument.hpp"
#include "random_motions.hpp"

#include <ccdkit/mesh/primitive_meshes.hpp>
#include <ccdkit/rigid/rigid_pairs.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

namespace ccdkit {
namespace {

    using test_support::box_solid;
    using test_support::RandomMotions;

    RigidShape icosphere_solid(double radius)
    {
        const TriangleMesh mesh = icosphere_mesh(radius, 2);
        return RigidShape::solid(mesh.vertices, mesh.faces);
    }

    /// `count` bodies (boxes, spheres as meshes and an implicit torus) at random in a cube of side `side`,
    /// moving and turning fast: in a small cube most pairs' boxes meet and many pairs touch.
    std::vector<RigidBody> random_bodies(int count, double side, std::uint64_t seed)
    {
        RandomMotions random(seed);
        const RigidShape box = box_solid({ 0.5, 0.3, 0.2 });
        const RigidShape ball = icosphere_solid(0.4);
        const RigidShape ring = RigidShape::implicit(ImplicitShape::torus(0.5, 0.15));
        std::vector<RigidBody> bodies;
        for (int k = 0; k < count; ++k) {
            const RigidShape& shape = k % 5 == 4 ? ring : (k % 2 == 0 ? box : ball);
            const RigidPose start { random.rotation(), random.vector(0.5 * side) };
            bodies.push_back({ shape, RigidMotion(start, random.vector(2.0), random.vector(4.0)) });
        }
        return bodies;
    }

    TEST(RigidPairs, SweptBoxHoldsTheBodyAtEveryTime)
    {
        RandomMotions random(11);
        const RigidShape box = box_solid({ 0.5, 0.3, 0.2 });
        for (int trial = 0; trial < 200; ++trial) {
            const double scale = trial % 3 == 0 ? 1e6 : (trial % 3 == 1 ? 1.0 : 1e-6);
            const RigidPose start { random.rotation(), random.vector(3.0 * scale) };
            const Eigen::Vector3d center_of_mass = random.vector(0.2);
            const RigidBody body {
                box, RigidMotion(start, random.vector(2.0 * scale), random.vector(20.0), 1.0, center_of_mass)
            };
            const double t_max = trial % 2 == 0 ? 1.0 : random.uniform(0.1, 1.0);
            const Aabb swept = rigid_swept_box(body, t_max);
            for (int k = 0; k <= 64; ++k) {
                const double s = t_max * k / 64.0;
                for (Eigen::Index v = 0; v < box.vertices().rows(); ++v) {
                    const Eigen::Array3d p = body.motion.point_at(box.vertices().row(v).transpose(), s).array();
                    ASSERT_TRUE((p >= swept.min).all() && (p <= swept.max).all())
                        << "trial " << trial << ", s " << s << ", vertex " << v;
                }
            }
        }
    }

    TEST(RigidPairs, AnswersExactlyThePairsThatTouch)
    {
        for (const double t_max : { 1.0, 0.4 }) {
            RigidCcdOptions options;
            options.t_max = t_max;
            const std::vector<RigidBody> bodies = random_bodies(30, 4.0, 7);
            const std::vector<RigidPairContact> answered = rigid_pairs_time_of_contact(bodies, options);
            ASSERT_TRUE(std::is_sorted(answered.begin(), answered.end(), [](const auto& x, const auto& y) {
                return std::pair(x.a, x.b) < std::pair(y.a, y.b);
            }));
            std::size_t next = 0, hits = 0, skipped = 0;
            for (int i = 0; i < static_cast<int>(bodies.size()); ++i) {
                for (int j = i + 1; j < static_cast<int>(bodies.size()); ++j) {
                    const RigidCcdResult alone = rigid_time_of_contact(bodies[i], bodies[j], options);
                    hits += alone.hit ? 1 : 0;
                    if (next < answered.size() && answered[next].a == i && answered[next].b == j) {
                        const RigidCcdResult& r = answered[next++].result;
                        EXPECT_EQ(r.hit, alone.hit) << i << " " << j;
                        EXPECT_EQ(r.toi_lower, alone.toi_lower) << i << " " << j;
                        EXPECT_EQ(r.toi_upper, alone.toi_upper) << i << " " << j;
                        EXPECT_EQ(r.contacts.size(), alone.contacts.size()) << i << " " << j;
                    } else {
                        ++skipped;
                        EXPECT_FALSE(alone.hit) << "pair " << i << " " << j << " touches but was left out";
                    }
                }
            }
            EXPECT_EQ(next, answered.size()) << "every answered pair is a pair of distinct bodies, once";
            // The scene is dense enough to test both sides: pairs that touch, and pairs left out.
            EXPECT_GT(hits, 10u);
            EXPECT_GT(skipped, 100u);
        }
    }

    TEST(RigidPairs, ReportsProgressAndEndsWithEveryPair)
    {
        const std::vector<RigidBody> bodies = random_bodies(40, 8.0, 3);
        std::vector<std::pair<std::size_t, std::size_t>> calls;
        const auto answered = rigid_pairs_time_of_contact(
            bodies, {}, [&calls](std::size_t done, std::size_t total) { calls.emplace_back(done, total); });
        ASSERT_FALSE(calls.empty());
        EXPECT_EQ(calls.back(), std::pair(answered.size(), answered.size()));
        for (const auto& [done, total] : calls) {
            EXPECT_LE(done, total);
            EXPECT_EQ(total, answered.size());
        }
    }

    TEST(RigidPairs, FewBodies)
    {
        EXPECT_TRUE(rigid_pairs_time_of_contact({}).empty());
        const std::vector<RigidBody> one = random_bodies(1, 1.0, 1);
        EXPECT_TRUE(rigid_pairs_time_of_contact(one).empty());
        // Two bodies overlapping at the start: one pair, touching at 0.
        const RigidShape box = box_solid({ 0.5, 0.5, 0.5 });
        const std::vector<RigidBody> two {
            { box, RigidMotion() },
            { box, RigidMotion({ .translation = { 0.5, 0, 0 } }, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()) }
        };
        const auto answered = rigid_pairs_time_of_contact(two);
        ASSERT_EQ(answered.size(), 1u);
        EXPECT_TRUE(answered[0].result.hit);
        EXPECT_EQ(answered[0].result.toi_lower, 0.0);
    }

    TEST(RigidPairs, RejectsBadInput)
    {
        const RigidShape box = box_solid({ 0.5, 0.5, 0.5 });
        const std::vector<RigidBody> steps {
            { box, RigidMotion() },
            { box, RigidMotion() },
            { box, RigidMotion({}, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), 2.0) }
        };
        testing::expect_throw_naming([&] { return rigid_pairs_time_of_contact(steps); }, "body 2");
        RigidCcdOptions options;
        options.eps = 0.0;
        testing::expect_throw_naming(
            [&] { return rigid_pairs_time_of_contact(std::span(steps).first(2), options); }, "eps");
        // (fuzzing review, twenty-eighth session: a NaN t_max gave the box of the start alone)
        for (const double t_max : { std::numeric_limits<double>::quiet_NaN(), 0.0, 1.5 }) {
            testing::expect_throw_naming([&] { return rigid_swept_box(steps[0], t_max); }, "t_max must be in (0, 1]");
        }
    }

} // namespace
} // namespace ccdkit
