// SPDX-License-Identifier: MIT
#include "reference_toc.hpp"

#include "exact_overlap.hpp"

#include <ccdkit/distance/closest_offset.hpp>

#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <span>

namespace ccdkit::bench {
namespace {
    struct Box {
        Eigen::Vector3d lo, hi;
    };

    /// A mesh placed in the world: its vertices and its tree's boxes in world coordinates.
    struct Posed {
        const Mesh* mesh = nullptr;
        const TriangleTree* tree = nullptr;
        Eigen::MatrixX3d vertices;
        std::vector<Box> boxes;

        Posed(const Mesh& m, const TriangleTree& t, const RigidPose& pose)
            : mesh(&m)
            , tree(&t)
        {
            const Eigen::Matrix3d rotation = pose.rotation.normalized().toRotationMatrix();
            vertices = (m.vertices * rotation.transpose()).rowwise() + pose.translation.transpose();
            const Eigen::Matrix3d magnitude = rotation.cwiseAbs();
            boxes.reserve(t.nodes().size());
            for (const TriangleTree::Node& node : t.nodes()) {
                const Eigen::Vector3d center = rotation * (0.5 * (node.lo + node.hi)) + pose.translation;
                const Eigen::Vector3d half = magnitude * (0.5 * (node.hi - node.lo));
                // Rounding of the posed vertices stays far inside this pad.
                const double pad = 1e-12 * (1.0 + center.cwiseAbs().maxCoeff() + half.maxCoeff());
                boxes.push_back({ center - half.array().matrix() - Eigen::Vector3d::Constant(pad),
                                  center + half + Eigen::Vector3d::Constant(pad) });
            }
        }
        [[nodiscard]] Eigen::Vector3d corner(std::int32_t face, int i) const
        {
            return vertices.row(mesh->faces(face, i)).transpose();
        }
        [[nodiscard]] bool leaf(std::int32_t node) const
        {
            return tree->nodes()[static_cast<std::size_t>(node)].left < 0;
        }
        [[nodiscard]] double extent(std::int32_t node) const
        {
            const Box& box = boxes[static_cast<std::size_t>(node)];
            return (box.hi - box.lo).squaredNorm();
        }
    };

    double box_distance(const Box& a, const Box& b)
    {
        const Eigen::Vector3d gap = (b.lo - a.hi).cwiseMax(a.lo - b.hi).cwiseMax(0.0);
        return gap.norm();
    }

    /// Closest point of triangle a - closest point of triangle b (double precision; meaningful when they do not meet).
    Eigen::Vector3d triangle_offset(const std::array<Eigen::Vector3d, 3>& a, const std::array<Eigen::Vector3d, 3>& b)
    {
        Eigen::Vector3d best = point_triangle_closest_offset<double>(a[0], b[0], b[1], b[2]);
        const auto keep = [&best](const Eigen::Vector3d& candidate) {
            if (candidate.squaredNorm() < best.squaredNorm()) {
                best = candidate;
            }
        };
        for (int i = 0; i < 3; ++i) {
            if (i > 0) {
                keep(point_triangle_closest_offset<double>(a[i], b[0], b[1], b[2]));
            }
            keep(-point_triangle_closest_offset<double>(b[i], a[0], a[1], a[2]));
            for (int j = 0; j < 3; ++j) {
                keep(edge_edge_closest_offset<double, 3>(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3]));
            }
        }
        return best;
    }

    /// Whether the bounding boxes of two triangles share a point (exact: min and max of doubles are).
    bool boxes_touch(const std::array<Eigen::Vector3d, 3>& a, const std::array<Eigen::Vector3d, 3>& b)
    {
        const Eigen::Vector3d a_lo = a[0].cwiseMin(a[1]).cwiseMin(a[2]), a_hi = a[0].cwiseMax(a[1]).cwiseMax(a[2]);
        const Eigen::Vector3d b_lo = b[0].cwiseMin(b[1]).cwiseMin(b[2]), b_hi = b[0].cwiseMax(b[1]).cwiseMax(b[2]);
        return (a_lo.array() <= b_hi.array()).all() && (b_lo.array() <= a_hi.array()).all();
    }

    std::array<Eigen::Vector3d, 3> triangle(const Posed& posed, std::int32_t face)
    {
        return { posed.corner(face, 0), posed.corner(face, 1), posed.corner(face, 2) };
    }

    /// Walks the pairs of tree nodes whose boxes pass `keep(box a, box b)`, calling `leaves(node a, node b)` on pairs
    /// of leaves (which returns true to stop). Nearer children first.
    template <class Keep, class Leaves> void traverse(const Posed& a, const Posed& b, Keep keep, Leaves leaves)
    {
        std::vector<std::pair<std::int32_t, std::int32_t>> stack { { 0, 0 } };
        while (!stack.empty()) {
            const auto [i, j] = stack.back();
            stack.pop_back();
            if (!keep(a.boxes[static_cast<std::size_t>(i)], b.boxes[static_cast<std::size_t>(j)])) {
                continue;
            }
            const bool leaf_i = a.leaf(i), leaf_j = b.leaf(j);
            if (leaf_i && leaf_j) {
                if (leaves(i, j)) {
                    return;
                }
                continue;
            }
            if (!leaf_i && (leaf_j || a.extent(i) >= b.extent(j))) {
                const std::int32_t c = a.tree->nodes()[static_cast<std::size_t>(i)].left;
                const bool first_nearer
                    = box_distance(a.boxes[static_cast<std::size_t>(c)], b.boxes[static_cast<std::size_t>(j)])
                    <= box_distance(a.boxes[static_cast<std::size_t>(c + 1)], b.boxes[static_cast<std::size_t>(j)]);
                stack.emplace_back(first_nearer ? c + 1 : c, j);
                stack.emplace_back(first_nearer ? c : c + 1, j);
            } else {
                const std::int32_t c = b.tree->nodes()[static_cast<std::size_t>(j)].left;
                const bool first_nearer
                    = box_distance(a.boxes[static_cast<std::size_t>(i)], b.boxes[static_cast<std::size_t>(c)])
                    <= box_distance(a.boxes[static_cast<std::size_t>(i)], b.boxes[static_cast<std::size_t>(c + 1)]);
                stack.emplace_back(i, first_nearer ? c + 1 : c);
                stack.emplace_back(i, first_nearer ? c : c + 1);
            }
        }
    }
} // namespace

TriangleTree::TriangleTree(const Mesh& mesh)
{
    const auto faces = static_cast<std::int32_t>(mesh.faces.rows());
    order_.resize(static_cast<std::size_t>(faces));
    std::iota(order_.begin(), order_.end(), 0);
    std::vector<Eigen::Vector3d> centroids;
    for (std::int32_t f = 0; f < faces; ++f) {
        centroids.push_back(
            (mesh.vertices.row(mesh.faces(f, 0)) + mesh.vertices.row(mesh.faces(f, 1))
             + mesh.vertices.row(mesh.faces(f, 2)))
                .transpose()
            / 3.0);
    }
    nodes_.emplace_back();
    build(mesh, centroids, 0, 0, faces);
}

void TriangleTree::build(
    const Mesh& mesh,
    const std::vector<Eigen::Vector3d>& centroids,
    std::int32_t node,
    std::int32_t first,
    std::int32_t count)
{
    Eigen::Vector3d lo = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
    Eigen::Vector3d centroid_lo = lo, centroid_hi = hi;
    for (std::int32_t k = first; k < first + count; ++k) {
        const std::int32_t f = order_[static_cast<std::size_t>(k)];
        for (int i = 0; i < 3; ++i) {
            lo = lo.cwiseMin(mesh.vertices.row(mesh.faces(f, i)).transpose());
            hi = hi.cwiseMax(mesh.vertices.row(mesh.faces(f, i)).transpose());
        }
        centroid_lo = centroid_lo.cwiseMin(centroids[static_cast<std::size_t>(f)]);
        centroid_hi = centroid_hi.cwiseMax(centroids[static_cast<std::size_t>(f)]);
    }
    nodes_[static_cast<std::size_t>(node)].lo = lo;
    nodes_[static_cast<std::size_t>(node)].hi = hi;
    nodes_[static_cast<std::size_t>(node)].first = first;
    nodes_[static_cast<std::size_t>(node)].count = count;
    if (count <= 4) {
        return;
    }
    int axis = 0;
    (centroid_hi - centroid_lo).maxCoeff(&axis);
    const std::int32_t half = count / 2;
    const auto begin = order_.begin() + first;
    std::nth_element(begin, begin + half, begin + count, [&](std::int32_t x, std::int32_t y) {
        return centroids[static_cast<std::size_t>(x)](axis) < centroids[static_cast<std::size_t>(y)](axis);
    });
    const auto left = static_cast<std::int32_t>(nodes_.size());
    nodes_[static_cast<std::size_t>(node)].left = left;
    nodes_.emplace_back();
    nodes_.emplace_back();
    build(mesh, centroids, left, first, half);
    build(mesh, centroids, left + 1, first + half, count - half);
}

ReferenceScene::ReferenceScene(const ShapePair& pair)
    : pair_(pair)
    , tree_a_(pair.a)
    , tree_b_(pair.b)
    , reach_a_(radius_about(pair.a, Eigen::Vector3d::Zero()))
    , reach_b_(radius_about(pair.b, Eigen::Vector3d::Zero()))
{
}

ReferenceScene::Separation
ReferenceScene::separation(const RigidPose& pose_a, const RigidPose& pose_b, bool want_distance) const
{
    const Posed a(pair_.a, tree_a_, pose_a), b(pair_.b, tree_b_, pose_b);
    Separation out;
    const auto leaf_faces = [](const Posed& posed, std::int32_t node) {
        const TriangleTree::Node& n = posed.tree->nodes()[static_cast<std::size_t>(node)];
        return std::span<const std::int32_t>(posed.tree->order())
            .subspan(static_cast<std::size_t>(n.first), static_cast<std::size_t>(n.count));
    };
    double best = std::numeric_limits<double>::infinity();
    // Leaf pairs: exact test where the triangles' boxes touch; then, if asked, the distance (the closest feature
    // pairs give it only for triangles that do not cross, which the exact test has ruled out).
    const auto leaves = [&](std::int32_t i, std::int32_t j) {
        for (const std::int32_t fa : leaf_faces(a, i)) {
            const auto ta = triangle(a, fa);
            for (const std::int32_t fb : leaf_faces(b, j)) {
                const auto tb = triangle(b, fb);
                if (boxes_touch(ta, tb) && triangles_meet(ta[0], ta[1], ta[2], tb[0], tb[1], tb[2])) {
                    out.overlap = true;
                    return true;
                }
                if (want_distance) {
                    const Eigen::Vector3d offset = triangle_offset(ta, tb);
                    if (offset.norm() < best) {
                        best = offset.norm();
                        out.offset = offset;
                    }
                }
            }
        }
        return false;
    };
    if (want_distance) {
        traverse(
            a, b, [&](const Box& x, const Box& y) { return box_distance(x, y) < best; }, leaves);
        out.distance = best;
    } else {
        traverse(
            a, b,
            [](const Box& x, const Box& y) {
                return (x.lo.array() <= y.hi.array()).all() && (y.lo.array() <= x.hi.array()).all();
            },
            leaves);
    }
    if (!out.overlap) {
        // Surfaces apart: the solids overlap only if one contains the other (then all its vertices).
        out.overlap = point_in_solid(a.vertices.row(0).transpose(), b.vertices, pair_.b.faces)
            || point_in_solid(b.vertices.row(0).transpose(), a.vertices, pair_.a.faces);
    }
    if (out.overlap) {
        out.distance = 0.0;
        out.offset.setZero();
    }
    return out;
}

ReferenceScene::Separation ReferenceScene::at(const Query& query, double s, bool want_distance) const
{
    return separation(pose_at(query.a_t0, query.a_t1, s), pose_at(query.b_t0, query.b_t1, s), want_distance);
}

double ReferenceScene::speed_bound(const Query& query) const
{
    return (query.a_t1.translation - query.a_t0.translation).norm() + step_angle(query.a_t0, query.a_t1) * reach_a_
        + (query.b_t1.translation - query.b_t0.translation).norm() + step_angle(query.b_t0, query.b_t1) * reach_b_;
}

ReferenceToc reference_time_of_contact(const ReferenceScene& scene, const Query& query, const ReferenceOptions& options)
{
    ReferenceToc out;
    const std::int64_t samples = options.samples;
    const double speed = scene.speed_bound(query);
    std::int64_t k = 0;
    while (k <= samples) {
        const double s = static_cast<double>(k) / static_cast<double>(samples);
        const ReferenceScene::Separation here = scene.at(query, s, true);
        ++out.overlap_tests;
        if (here.overlap) {
            out.hit = true;
            if (k == 0) {
                out.toi_lower = out.toi_upper = 0.0;
                return out;
            }
            // s_(k-1) is separated: tested, or skipped because separation was proven there.
            double lo = static_cast<double>(k - 1) / static_cast<double>(samples), hi = s;
            while (hi - lo > options.tolerance) {
                const double mid = 0.5 * (lo + hi);
                ++out.overlap_tests;
                (scene.at(query, mid, false).overlap ? hi : lo) = mid;
            }
            out.toi_lower = lo;
            out.toi_upper = hi;
            const ReferenceScene::Separation before = scene.at(query, lo, true);
            if (!before.overlap && before.distance > 0.0) {
                out.normal = before.offset / before.distance;
            }
            return out;
        }
        std::int64_t next = k + 1;
        if (speed > 0.0) {
            const double safe = s + 0.5 * here.distance / speed;
            next = std::max(
                next, static_cast<std::int64_t>(std::floor(std::min(safe, 2.0) * static_cast<double>(samples))));
        }
        k = next;
    }
    return out;
}

} // namespace ccdkit::bench
