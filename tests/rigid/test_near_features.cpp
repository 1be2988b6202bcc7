// SPDX-License-Identifier: MIT
// The features of a convex body near a slab, found through the vertices' incidence (near_features), against
// clipping every edge and face (the definition), bit for bit, on boxes, icospheres and hulls of random point clouds
// cut at random heights along random directions; and the incidence itself.
#include "box_solid.hpp"
#include "hull_solid.hpp"
#include "random_motions.hpp"
#include "rigid/details/mesh_shape_data.hpp"
#include "rigid/details/near_features.hpp"

#include <ccdkit/mesh/primitive_meshes.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <memory_resource>
#include <span>
#include <string>
#include <vector>

namespace ccdkit {
namespace {

    using details::ClippedFeature;
    using details::FeatureSlab;
    using details::MeshShapeData;

    /// Every vertex at or below the limit, every edge that FeatureSlab::clip keeps, then every face with a kept side
    /// as the union of its kept sides' boxes: the features near the slab by visiting them all.
    std::vector<ClippedFeature> clipped_features(const FeatureSlab& slab, const MeshShapeData& mesh)
    {
        std::vector<ClippedFeature> out;
        for (std::size_t v = 0; v < slab.points.size(); ++v) {
            if (slab.heights[v] <= slab.limit) {
                out.push_back({ static_cast<std::int32_t>(v), slab.points[v].array(), slab.points[v].array() });
            }
        }
        std::vector<ClippedFeature> edges(static_cast<std::size_t>(mesh.edges.rows()));
        std::vector<bool> kept(edges.size(), false);
        for (Eigen::Index e = 0; e < mesh.edges.rows(); ++e) {
            kept[static_cast<std::size_t>(e)] = slab.clip(mesh.edges, e, edges[static_cast<std::size_t>(e)]);
            if (kept[static_cast<std::size_t>(e)]) {
                out.push_back(edges[static_cast<std::size_t>(e)]);
            }
        }
        for (Eigen::Index f = 0; f < mesh.faces.rows(); ++f) {
            ClippedFeature face { -1, {}, {} };
            for (Eigen::Index c = 0; c < 3; ++c) {
                const auto e = static_cast<std::size_t>(mesh.face_edges(f, c));
                if (!kept[e]) {
                    continue;
                }
                if (face.index < 0) {
                    face = { static_cast<std::int32_t>(f), edges[e].min, edges[e].max };
                } else {
                    face.min = face.min.min(edges[e].min);
                    face.max = face.max.max(edges[e].max);
                }
            }
            if (face.index >= 0) {
                out.push_back(face);
            }
        }
        return out;
    }

    bool same_bits(const Eigen::Array3d& x, const Eigen::Array3d& y)
    {
        return std::equal(x.data(), x.data() + 3, y.data(), [](double p, double q) {
            return std::bit_cast<std::uint64_t>(p) == std::bit_cast<std::uint64_t>(q);
        });
    }

    std::vector<RigidShape> convex_shapes()
    {
        test_support::RandomMotions random(23);
        std::vector<RigidShape> shapes { test_support::box_solid({ 0.5, 0.3, 0.2 }) };
        const TriangleMesh sphere = icosphere_mesh(0.7, 2);
        shapes.push_back(RigidShape::solid(sphere.vertices, sphere.faces));
        // Hulls of 5 to 250 points on an ellipsoid: more than 64 edges and faces (several words of the bit sets).
        for (const int count : { 5, 9, 30, 70, 130, 250 }) {
            const Eigen::Vector3d axes = Eigen::Vector3d::Constant(0.3) + random.vector(0.3).cwiseAbs();
            std::vector<Eigen::Vector3d> points;
            for (int k = 0; k < count; ++k) {
                points.push_back(random.direction().cwiseProduct(axes));
            }
            shapes.push_back(test_support::hull_solid(points));
        }
        return shapes;
    }

    TEST(NearFeatures, EqualClippingEveryFeature)
    {
        test_support::RandomMotions random(29);
        int compared = 0;
        for (const RigidShape& shape : convex_shapes()) {
            const MeshShapeData& mesh = shape.mesh_data();
            ASSERT_TRUE(mesh.convex);
            for (int k = 0; k < 200; ++k) {
                // Posed at a random place and scale; heights along a random direction; a limit from below the
                // lowest vertex (nothing kept) to above the highest (everything kept), mostly near the bottom.
                const double scale = k % 3 == 0 ? 1e-3 : (k % 3 == 1 ? 1.0 : 1e3);
                const Eigen::Matrix3d turn = random.rotation().toRotationMatrix();
                const Eigen::Vector3d shift = random.vector(scale);
                std::vector<Eigen::Vector3d> points;
                std::vector<double> heights;
                const Eigen::Vector3d n = random.direction();
                double low = std::numeric_limits<double>::infinity(), high = -low, magnitude = 0.0;
                for (Eigen::Index v = 0; v < mesh.vertices.rows(); ++v) {
                    points.push_back(scale * (turn * mesh.vertices.row(v).transpose()) + shift);
                    heights.push_back(n.dot(points.back()));
                    low = std::min(low, heights.back());
                    high = std::max(high, heights.back());
                    magnitude = std::max(magnitude, points.back().cwiseAbs().maxCoeff());
                }
                const double u = random.uniform(-0.1, 1.1);
                const double limit = k % 10 == 0 ? heights[static_cast<std::size_t>(k) % heights.size()]
                                                 : low + u * u * u * (high - low);
                const FeatureSlab slab { points, heights, limit, magnitude };
                const std::vector<ClippedFeature> expected = clipped_features(slab, mesh);
                std::pmr::monotonic_buffer_resource arena;
                details::NearFeatures found = details::near_features(slab, mesh, &arena);
                const std::size_t before_faces = found.all.size();
                found.gather_faces();
                EXPECT_EQ(before_faces, found.faces_begin); // (the vertices and edges first, the faces on demand)
                const std::string where = std::to_string(mesh.vertices.rows()) + " vertices, case " + std::to_string(k);
                ASSERT_EQ(found.all.size(), expected.size()) << where;
                const std::size_t vertices = found.vertices().size(), edges = found.edges().size();
                for (std::size_t i = 0; i < expected.size(); ++i) {
                    const ClippedFeature& x = found.all[i];
                    const ClippedFeature& y = expected[i];
                    ASSERT_EQ(x.index, y.index) << where << ", feature " << i;
                    EXPECT_TRUE(same_bits(x.min, y.min) && same_bits(x.max, y.max)) << where << ", feature " << i;
                }
                // The kinds split where the definition's do.
                EXPECT_EQ(
                    vertices, static_cast<std::size_t>(std::count_if(heights.begin(), heights.end(), [&](double h) {
                        return h <= limit;
                    })));
                EXPECT_LE(vertices + edges, expected.size());
                // The vertices and edges enclose the faces too (the contact search bounds a body's near features by
                // them alone): the same box, bit for bit, as all the features'.
                const ClippedFeature box = details::enclosing_box(found.all, 0.0);
                const ClippedFeature from_vertices_and_edges = details::enclosing_box(found.vertices_and_edges(), 0.0);
                EXPECT_TRUE(
                    same_bits(box.min, from_vertices_and_edges.min) && same_bits(box.max, from_vertices_and_edges.max))
                    << where;
                ++compared;
            }
        }
        EXPECT_EQ(compared, 1600);
    }

    /// features_meeting takes, in order, exactly the features whose boxes widened by reach meet the box; and with the
    /// boxes that the contact search uses (enclosing_box of the other side's features, widened by reach for b's), it
    /// takes both features of every pair that the search's pair test finds meeting: the pairs tested after it are
    /// all the pairs that meet.
    TEST(NearFeatures, FeaturesMeetingTakesEveryFeatureThatMeetsAnother)
    {
        test_support::RandomMotions random(31);
        const auto random_features = [&random](std::size_t count, double spread) {
            std::vector<ClippedFeature> out;
            for (std::size_t k = 0; k < count; ++k) {
                const Eigen::Array3d corner = random.vector(spread).array();
                const Eigen::Array3d size = random.vector(0.1 * spread).array().abs();
                out.push_back({ static_cast<std::int32_t>(k), corner, corner + size });
            }
            return out;
        };
        const auto indices = [](const details::FeatureSelection& selection) {
            std::vector<std::int32_t> out;
            for (const std::uint32_t k : selection.taken) {
                out.push_back(selection.run[k].index);
            }
            return out;
        };
        int kept_some = 0, dropped_some = 0;
        for (int k = 0; k < 500; ++k) {
            const double spread = k % 2 == 0 ? 1.0 : 1e-4;
            const std::vector<ClippedFeature> a = random_features(1 + static_cast<std::size_t>(k % 13), spread);
            const std::vector<ClippedFeature> b = random_features(static_cast<std::size_t>(k % 7), spread);
            const double reach = random.uniform(0.0, 0.2) * spread;
            // The enclosing box of b: each bound attained (inverted where b is empty).
            const ClippedFeature box_b = details::enclosing_box(b, 0.0);
            for (Eigen::Index d = 0; d < 3; ++d) {
                double low = std::numeric_limits<double>::infinity(), high = -low;
                for (const ClippedFeature& y : b) {
                    low = std::min(low, y.min[d]);
                    high = std::max(high, y.max[d]);
                }
                EXPECT_EQ(box_b.min[d], low);
                EXPECT_EQ(box_b.max[d], high);
            }
            std::vector<std::uint32_t> positions_a(a.size()), positions_b(b.size());
            const auto kept_a = indices(details::features_meeting(a, box_b, reach, positions_a.data()));
            const auto kept_b
                = indices(details::features_meeting(b, details::enclosing_box(a, reach), 0.0, positions_b.data()));
            const ClippedFeature box_a = details::enclosing_box(a, reach);
            std::vector<std::int32_t> expected_a, expected_b;
            for (const ClippedFeature& y : b) {
                if ((y.min <= box_a.max).all() && (box_a.min <= y.max).all()) {
                    expected_b.push_back(y.index);
                }
            }
            for (const ClippedFeature& x : a) {
                const Eigen::Array3d low = x.min - reach, high = x.max + reach;
                if ((low <= box_b.max).all() && (box_b.min <= high).all()) {
                    expected_a.push_back(x.index);
                }
                for (const ClippedFeature& y : b) {
                    if (details::box_meets(low, high, y)) {
                        EXPECT_NE(std::find(kept_a.begin(), kept_a.end(), x.index), kept_a.end()) << "case " << k;
                        EXPECT_NE(std::find(kept_b.begin(), kept_b.end(), y.index), kept_b.end()) << "case " << k;
                    }
                }
            }
            EXPECT_EQ(kept_a, expected_a) << "case " << k;
            EXPECT_EQ(kept_b, expected_b) << "case " << k;
            kept_some += expected_a.empty() ? 0 : 1;
            dropped_some += expected_a.size() < a.size() ? 1 : 0;
        }
        // Both outcomes occur (the cases test something).
        EXPECT_GT(kept_some, 50);
        EXPECT_GT(dropped_some, 50);
    }

    /// Each element appears under each of its corners once, in increasing order, and nowhere else; the bit rows agree.
    TEST(NearFeatures, VertexIncidenceListsEachElementUnderItsCorners)
    {
        for (const RigidShape& shape : convex_shapes()) {
            const MeshShapeData& mesh = shape.mesh_data();
            const auto check = [&](const details::VertexIncidence& incidence, const auto& elements) {
                ASSERT_EQ(incidence.offsets.size(), static_cast<std::size_t>(mesh.vertices.rows()) + 1);
                std::size_t total = 0;
                for (std::size_t v = 0; v + 1 < incidence.offsets.size(); ++v) {
                    const auto list = incidence.at(v);
                    EXPECT_TRUE(std::is_sorted(list.begin(), list.end()));
                    for (const std::int32_t e : list) {
                        int corners = 0;
                        for (Eigen::Index c = 0; c < elements.cols(); ++c) {
                            corners += elements(e, c) == static_cast<int>(v) ? 1 : 0;
                        }
                        EXPECT_EQ(corners, 1);
                    }
                    // The bit rows hold the same elements.
                    std::vector<std::int32_t> from_bits;
                    const auto bits = incidence.bits_at(v);
                    for (std::size_t w = 0; w < bits.size(); ++w) {
                        for (std::size_t b = 0; b < 64; ++b) {
                            if (((bits[w] >> b) & 1U) != 0) {
                                from_bits.push_back(static_cast<std::int32_t>(64 * w + b));
                            }
                        }
                    }
                    EXPECT_TRUE(std::equal(list.begin(), list.end(), from_bits.begin(), from_bits.end()));
                    total += list.size();
                }
                EXPECT_EQ(total, static_cast<std::size_t>(elements.size()));
            };
            check(mesh.vertex_edges, mesh.edges);
            check(mesh.vertex_faces, mesh.faces);
        }
    }

} // namespace
} // namespace ccdkit
