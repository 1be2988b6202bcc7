// SPDX-License-Identifier: MIT
// Rigid bodies, implicit shapes and signed-distance grids under a caller's flush-to-zero / denormals-are-zero
// mode (every -ffast-math program runs in it): the same answers as in plain IEEE mode, bit for bit, including
// at tiny and subnormal scales, and the caller's mode back unchanged.
#include "support/flush_to_zero_mode.hpp"

#include <ccdkit/mesh/primitive_meshes.hpp>
#include <ccdkit/rigid/implicit_shape.hpp>
#include <ccdkit/rigid/rigid_contact.hpp>
#include <ccdkit/rigid/signed_distance_grid.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#if defined(__SSE2__)
namespace ccdkit {
namespace {
    using test::in_flush_to_zero_program;
    using test::with_flush_to_zero_caller;

    /// A result as comparable values: hit, times, and each contact's features, point and normal.
    using Contacts = std::vector<std::tuple<int, int, int, int, Eigen::Vector3d, Eigen::Vector3d>>;
    using Answer = std::tuple<bool, double, double, Contacts>;

    Answer answer_of(const RigidCcdResult& r)
    {
        Contacts contacts;
        for (const RigidContact& c : r.contacts) {
            contacts.emplace_back(
                static_cast<int>(c.feature_a.kind), c.feature_a.index, static_cast<int>(c.feature_b.kind),
                c.feature_b.index, c.point, c.normal);
        }
        return { r.hit, r.toi_lower, r.toi_upper, contacts };
    }

    RigidShape mesh_box(double half)
    {
        const TriangleMesh mesh = box_mesh(Eigen::Vector3d::Constant(half));
        return RigidShape::solid(mesh.vertices, mesh.faces);
    }

    /// Body a falls (and turns) onto body b at rest, everything scaled by `scale`.
    std::tuple<RigidBody, RigidBody> falling(RigidShape a, RigidShape b, double scale)
    {
        return { RigidBody { std::move(a),
                             RigidMotion(
                                 { .translation = Eigen::Vector3d(0.1, -0.2, 3.0) * scale },
                                 Eigen::Vector3d(0, 0, -3) * scale, Eigen::Vector3d(0.3, 0.2, 1.0)) },
                 RigidBody { std::move(b), RigidMotion() } };
    }

    TEST(RigidFlushToZero, TimeOfContactIsThatOfPlainArithmetic)
    {
        // Below about 1e-100 a mesh box encloses no volume in double (not a solid): tiny, not subnormal, scales.
        for (const double scale : { 1.0, 1e-60, 1e-100 }) {
            SCOPED_TRACE(scale);
            const ImplicitShape sphere = ImplicitShape::sphere(0.5 * scale);
            const std::vector<std::tuple<const char*, RigidShape, RigidShape>> pairs {
                { "mesh box onto mesh box", mesh_box(0.5 * scale), mesh_box(1.0 * scale) },
                { "implicit sphere onto mesh box", RigidShape::implicit(sphere), mesh_box(1.0 * scale) },
                { "mesh box onto implicit sphere", mesh_box(0.5 * scale), RigidShape::implicit(sphere) },
            };
            for (const auto& [name, a, b] : pairs) {
                SCOPED_TRACE(name);
                const auto [body_a, body_b] = falling(a, b, scale);
                RigidCcdOptions options;
                options.surface_resolution = 1e-3 * scale;
                const auto run = [&] { return answer_of(rigid_time_of_contact(body_a, body_b, options)); };
                const Answer plain = run();
                EXPECT_TRUE(std::get<0>(plain));
                EXPECT_EQ(in_flush_to_zero_program(run), plain);
                EXPECT_EQ(with_flush_to_zero_caller(run), plain);
            }
        }
    }

    TEST(RigidFlushToZero, ImplicitBoundsAndGridsAreThoseOfPlainArithmetic)
    {
        // Below about 1e-140 the shapes' bounds are mostly their absolute underflow slack (2^-500): a grid over
        // them would need too many samples.
        for (const double scale : { 1.0, 1e-60, 1e-120 }) {
            SCOPED_TRACE(scale);
            const ImplicitShape shape = unite(
                ImplicitShape::sphere(0.5 * scale),
                ImplicitShape::capsule(0.2 * scale, 0.6 * scale)
                    .transformed(Eigen::Isometry3d(Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()))));
            const auto run = [&] {
                std::vector<double> bounds;
                const SignedDistanceGrid grid = SignedDistanceGrid::sample(shape, 0.125 * scale, 0.25 * scale);
                const ImplicitShape sampled = ImplicitShape::grid(grid);
                for (int i = -8; i <= 8; ++i) {
                    const Eigen::Vector3d x = Eigen::Vector3d(0.11 * i, 0.07 * i - 0.3, 0.05 * i) * scale;
                    for (const ImplicitShape* s : { &shape, &sampled }) {
                        bounds.push_back(s->clearance(x));
                        bounds.push_back(s->depth(x));
                    }
                }
                bounds.push_back(grid.lipschitz_constant());
                bounds.insert(bounds.end(), grid.values().begin(), grid.values().end());
                return bounds;
            };
            const std::vector<double> plain = run();
            EXPECT_EQ(in_flush_to_zero_program(run), plain);
            EXPECT_EQ(with_flush_to_zero_caller(run), plain);
        }
    }

    TEST(RigidFlushToZero, GridQueriesCalledDirectlyAreThoseOfPlainArithmetic)
    {
        // A grid given its samples (a ball's distance) down to subnormal scales, queried through its own methods
        // rather than an ImplicitShape: under denormals-are-zero a subnormal sample or coordinate reads as zero.
        for (const double scale : { 1.0, 1e-300, 1e-310 }) {
            SCOPED_TRACE(scale);
            const Eigen::Vector3i dims(6, 6, 6);
            const Eigen::Vector3d origin = Eigen::Vector3d::Constant(-2.5 * scale);
            std::vector<double> values;
            for (int k = 0; k < dims.z(); ++k) {
                for (int j = 0; j < dims.y(); ++j) {
                    for (int i = 0; i < dims.x(); ++i) {
                        values.push_back((origin + Eigen::Vector3d(i, j, k) * scale).norm() - 1.3 * scale);
                    }
                }
            }
            const SignedDistanceGrid grid(origin, scale, dims, values);
            const auto run = [&] {
                std::vector<double> answers;
                for (int i = -6; i <= 6; ++i) {
                    const Eigen::Vector3d x = Eigen::Vector3d(0.41 * i, 0.23 * i - 0.3, 0.17 * i + 0.1) * scale;
                    answers.push_back(grid.clearance(x));
                    answers.push_back(grid.depth(x));
                    answers.push_back(grid.signed_distance(x));
                    answers.push_back(grid.interpolate(x));
                    const Eigen::Vector3d normal = grid.normal(x);
                    answers.insert(answers.end(), normal.data(), normal.data() + 3);
                }
                return answers;
            };
            const std::vector<double> plain = run();
            // (The subnormal grid still tells points apart: not all answers are zero.)
            EXPECT_TRUE(std::any_of(plain.begin(), plain.end(), [](double v) { return v != 0.0; }));
            EXPECT_EQ(in_flush_to_zero_program(run), plain);
            EXPECT_EQ(with_flush_to_zero_caller(run), plain);
        }
    }

} // namespace
} // namespace ccdkit
#endif
