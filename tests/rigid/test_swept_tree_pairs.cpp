// SPDX-License-Identifier: MIT
// The rigid broad phase (SweptTreePairs): over an interval, every feature pair whose features come within `reach`
// of each other at some time of it is among the pairs found, checked by brute force (pair_gaps) at many times of the
// interval on bodies turning up to 3 rad per step, over short and long intervals, at several scales.
#include "pair_gaps.hpp"
#include "random_motions.hpp"
#include "rigid/details/feature_pair.hpp"
#include "rigid/details/mesh_shape_data.hpp"
#include "rigid/details/moving_side.hpp"
#include "rigid/details/swept_tree_pairs.hpp"

#include <ccdkit/mesh/primitive_meshes.hpp>
#include <ccdkit/rigid/relative_motion.hpp>
#include <ccdkit/rigid/rigid_contact.hpp>
#include <ccdkit/rigid/rigid_shape.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <numbers>
#include <tuple>
#include <vector>

namespace ccdkit {
namespace {

    using details::FeaturePair;
    using details::PairKind;
    using test_support::RandomMotions;

    auto key(const FeaturePair& p) { return std::tuple(p.kind, p.a, p.b); }

    /// The pairs of pair_gaps (every vertex-face, face-vertex and edge-edge pair's gap at time s, the bodies posed by
    /// their own motions) within `reach`, named as the broad phase names them.
    std::vector<FeaturePair> pairs_within(const RigidBody& a, const RigidBody& b, double s, double reach)
    {
        std::vector<FeaturePair> out;
        for (const test_support::PairGap& g : test_support::pair_gaps(a, b, s)) {
            if (g.gap <= reach) {
                const PairKind kind = g.a.kind == RigidFeatureKind::VERTEX ? PairKind::VERTEX_FACE
                    : g.a.kind == RigidFeatureKind::FACE                   ? PairKind::FACE_VERTEX
                                                                           : PairKind::EDGE_EDGE;
                out.push_back({ kind, g.a.index, g.b.index });
            }
        }
        return out;
    }

    double radius(const TriangleMesh& mesh) { return mesh.vertices.rowwise().norm().maxCoeff(); }

    /// A body turning up to 3 rad per step past another turning less: overlapping it, passing near, or staying apart
    /// within reach; intervals from a thousandth of the step to all of it; reach a millionth, a fiftieth and (apart)
    /// three tenths of the size; scales 1e-3..1e3. The node sweeps were the boxes around a sphere about each node's
    /// centre (loose: a third of the general search's time went to the pairs they let through) and are now the boxes
    /// around each node's turned box at the interval's ends: no pair near at a sampled time may be missing (the
    /// centres' chords alone, or the nodes' sweeps not grown by the reach, lose some).
    TEST(SweptTreePairs, FindEveryPairThatComesWithinReach)
    {
        RandomMotions random(23);
        const TriangleMesh sphere = icosphere_mesh(0.5, 1);
        const TriangleMesh torus = torus_mesh(0.6, 0.2, 12, 6);
        const TriangleMesh slab = box_mesh({ 0.6, 0.4, 0.02 });
        const TriangleMesh* const meshes[] = { &sphere, &torus, &slab };
        std::size_t required = 0;
        for (int k = 0; k < 96; ++k) {
            const double scale = (k / 9) % 3 == 0 ? 1e-3 : (k / 9) % 3 == 1 ? 1.0 : 1e3;
            const TriangleMesh& mesh_a = *meshes[k % 3];
            const TriangleMesh& mesh_b = *meshes[(k / 3) % 3];
            const RigidShape a = RigidShape::solid(mesh_a.vertices * scale, mesh_a.faces);
            const RigidShape b = RigidShape::solid(mesh_b.vertices * scale, mesh_b.faces);
            const double width = k % 4 == 0 ? 1.0 : k % 4 == 1 ? 0.3 : k % 4 == 2 ? 0.02 : 1e-3;
            const double sa = random.uniform(0.0, 1.0 - width), sb = sa + width;
            // Of the first 72, half the bodies overlap over much of the interval, and in the other half the centres
            // pass, mid-interval, 0.6-1 times the sum of the radii apart (near misses and grazes, where a sweep cut too
            // close loses pairs). The last 24 stay apart, their bounding spheres 0.05 apart, slowly, with a reach of
            // 0.3: those pairs come within reach only through the growth by it, of the nodes' sweeps and the faces'.
            const bool apart = k >= 72;
            const double mid = 0.5 * (sa + sb);
            const Eigen::Vector3d velocity = random.vector((apart ? 0.01 : 1.0) * scale);
            const Eigen::Vector3d start = apart
                ? Eigen::Vector3d(
                    random.direction() * (radius(mesh_a) + radius(mesh_b) + 0.05) * scale - mid * velocity)
                : k % 2 == 0
                ? Eigen::Vector3d(random.vector(0.8 * scale))
                : Eigen::Vector3d(
                    random.direction() * random.uniform(0.6, 1.0) * (radius(mesh_a) + radius(mesh_b)) * scale
                    - mid * velocity);
            const RigidMotion moving(
                { random.rotation(), start }, velocity, random.direction() * random.uniform(0.0, 3.0));
            const RigidMotion frame(
                { random.rotation(), Eigen::Vector3d::Zero() }, Eigen::Vector3d::Zero(),
                random.direction() * random.uniform(0.0, 0.5));
            const RelativeMotion motion(moving, frame);
            details::MovingSide side(a.mesh_data(), b.mesh_data(), motion);
            details::SweptTreePairs tree_pairs(side);
            const double reach = (apart ? 0.3 : (k / 2) % 2 == 0 ? 1e-6 : 0.02) * scale;
            side.set_interval(sa, sb);
            std::vector<FeaturePair> found = *tree_pairs.find(side, std::numeric_limits<std::size_t>::max(), reach);
            const auto before = [](const FeaturePair& x, const FeaturePair& y) { return key(x) < key(y); };
            std::sort(found.begin(), found.end(), before);
            constexpr int TIMES = 33;
            for (int i = 0; i < TIMES; ++i) {
                const double s = sa + (sb - sa) * i / (TIMES - 1);
                for (const FeaturePair& p : pairs_within({ a, moving }, { b, frame }, s, reach)) {
                    ++required;
                    ASSERT_TRUE(std::binary_search(found.begin(), found.end(), p, before))
                        << "query " << k << ": pair kind " << static_cast<int>(p.kind) << " (" << p.a << ", " << p.b
                        << ") within " << reach << " at s = " << s << " in [" << sa << ", " << sb << "]";
                }
            }
        }
        EXPECT_GT(required, 3000U); // (pairs near at some sampled time, over all queries)
    }

    /// A rod (2 long, through the origin) turning a quarter turn about z over the interval, its end sweeping past a
    /// small box that it reaches only late in the interval: the node sweeps must take each end's own rotation (with the
    /// start's at both ends, the rod's box at the end lies along x, and the box beside its end along y is never
    /// visited).
    TEST(SweptTreePairs, FindPairsThatATurnBringsNearOnlyAtItsEnd)
    {
        const TriangleMesh rod_mesh = box_mesh({ 1.0, 0.025, 0.025 });
        const TriangleMesh cube_mesh = box_mesh({ 0.05, 0.05, 0.05 });
        std::size_t required = 0;
        for (const double scale : { 1e-3, 1.0, 1e3 }) {
            const RigidShape rod = RigidShape::solid(rod_mesh.vertices * scale, rod_mesh.faces);
            const RigidShape cube = RigidShape::solid(cube_mesh.vertices * scale, cube_mesh.faces);
            // The rod turns pi/2 over [0, 1]; its far end (1, 0, 0) comes to (0, 1, 0) at s = 1, just short of the
            // cube there.
            const RigidMotion turning(
                { Eigen::Quaterniond::Identity(), Eigen::Vector3d::Zero() }, Eigen::Vector3d::Zero(),
                Eigen::Vector3d(0.0, 0.0, 0.5 * std::numbers::pi));
            const RigidMotion still(
                { Eigen::Quaterniond::Identity(), Eigen::Vector3d(0.0, 1.06, 0.0) * scale }, Eigen::Vector3d::Zero(),
                Eigen::Vector3d::Zero());
            const RelativeMotion motion(turning, still);
            details::MovingSide side(rod.mesh_data(), cube.mesh_data(), motion);
            details::SweptTreePairs tree_pairs(side);
            for (const double sa : { 0.0, 0.5, 0.9 }) {
                const double reach = 0.02 * scale;
                side.set_interval(sa, 1.0);
                std::vector<FeaturePair> found = *tree_pairs.find(side, std::numeric_limits<std::size_t>::max(), reach);
                const auto before = [](const FeaturePair& x, const FeaturePair& y) { return key(x) < key(y); };
                std::sort(found.begin(), found.end(), before);
                for (const double s : { 0.98, 0.99, 1.0 }) {
                    for (const FeaturePair& p : pairs_within({ rod, turning }, { cube, still }, s, reach)) {
                        ++required;
                        EXPECT_TRUE(std::binary_search(found.begin(), found.end(), p, before))
                            << "scale " << scale << ": pair kind " << static_cast<int>(p.kind) << " (" << p.a << ", "
                            << p.b << ") within " << reach << " at s = " << s << " in [" << sa << ", 1]";
                    }
                }
            }
        }
        EXPECT_GT(required, 9U); // (the rod's end face near the cube's face, at each scale and interval)
    }

} // namespace
} // namespace ccdkit
