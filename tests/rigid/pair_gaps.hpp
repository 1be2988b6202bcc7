// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/distance/closest_offset.hpp>
#include <ccdkit/rigid/rigid_contact.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace ccdkit::test_support {

/// The body's vertices at time s, posed by its motion's point_at (the tests' own posing).
inline Eigen::MatrixX3d posed(const RigidBody& body, double s)
{
    Eigen::MatrixX3d out(body.shape.vertices().rows(), 3);
    for (Eigen::Index v = 0; v < out.rows(); ++v) {
        out.row(v) = body.motion.point_at(body.shape.vertices().row(v).transpose(), s).transpose();
    }
    return out;
}

/// One feature pair's gap, its features named as RigidContact names them.
struct PairGap {
    RigidFeature a;
    RigidFeature b;
    double gap;
};

/// Every vertex-face, face-vertex and edge-edge pair's gap between the two bodies at time s, by brute force.
inline std::vector<PairGap> pair_gaps(const RigidBody& a, const RigidBody& b, double s)
{
    const Eigen::MatrixX3d va = posed(a, s), vb = posed(b, s);
    std::vector<PairGap> out;
    // Vertices of one body against faces of the other; `vertex_of_a` says which body holds the vertices.
    const auto vertex_faces = [&out](
                                  const Eigen::MatrixX3d& points, const Eigen::MatrixX3d& v,
                                  const Eigen::MatrixX3i& faces, bool vertex_of_a) {
        for (Eigen::Index p = 0; p < points.rows(); ++p) {
            for (Eigen::Index f = 0; f < faces.rows(); ++f) {
                const double gap = point_triangle_closest_offset<double>(
                                       points.row(p).transpose(), v.row(faces(f, 0)).transpose(),
                                       v.row(faces(f, 1)).transpose(), v.row(faces(f, 2)).transpose())
                                       .norm();
                const RigidFeature vertex { RigidFeatureKind::VERTEX, static_cast<std::int32_t>(p) };
                const RigidFeature face { RigidFeatureKind::FACE, static_cast<std::int32_t>(f) };
                out.push_back(vertex_of_a ? PairGap { vertex, face, gap } : PairGap { face, vertex, gap });
            }
        }
    };
    vertex_faces(va, vb, b.shape.faces(), true);
    vertex_faces(vb, va, a.shape.faces(), false);
    const auto& ea = a.shape.edges();
    const auto& eb = b.shape.edges();
    for (Eigen::Index i = 0; i < ea.rows(); ++i) {
        for (Eigen::Index j = 0; j < eb.rows(); ++j) {
            const double gap = edge_edge_closest_offset<double, 3>(
                                   va.row(ea(i, 0)).transpose(), va.row(ea(i, 1)).transpose(),
                                   vb.row(eb(j, 0)).transpose(), vb.row(eb(j, 1)).transpose())
                                   .norm();
            out.push_back({ { RigidFeatureKind::EDGE, static_cast<std::int32_t>(i) },
                            { RigidFeatureKind::EDGE, static_cast<std::int32_t>(j) },
                            gap });
        }
    }
    return out;
}

/// The offset from body b's closest point to body a's at time s (its length is the bodies' distance), by brute force
/// over every pair of pair_gaps.
inline Eigen::Vector3d closest_offset_between(const RigidBody& a, const RigidBody& b, double s)
{
    const Eigen::MatrixX3d va = posed(a, s), vb = posed(b, s);
    Eigen::Vector3d best = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
    const auto keep = [&best](const Eigen::Vector3d& offset) {
        if (offset.norm() < best.norm()) {
            best = offset;
        }
    };
    const auto corner = [](const Eigen::MatrixX3d& v, const Eigen::MatrixX3i& faces, Eigen::Index f, Eigen::Index k) {
        return Eigen::Vector3d(v.row(faces(f, k)).transpose());
    };
    const auto& fa = a.shape.faces();
    const auto& fb = b.shape.faces();
    for (Eigen::Index p = 0; p < va.rows(); ++p) {
        for (Eigen::Index f = 0; f < fb.rows(); ++f) {
            keep(point_triangle_closest_offset<double>(
                va.row(p).transpose(), corner(vb, fb, f, 0), corner(vb, fb, f, 1), corner(vb, fb, f, 2)));
        }
    }
    for (Eigen::Index p = 0; p < vb.rows(); ++p) {
        for (Eigen::Index f = 0; f < fa.rows(); ++f) {
            keep(-point_triangle_closest_offset<double>(
                vb.row(p).transpose(), corner(va, fa, f, 0), corner(va, fa, f, 1), corner(va, fa, f, 2)));
        }
    }
    const auto& ea = a.shape.edges();
    const auto& eb = b.shape.edges();
    for (Eigen::Index i = 0; i < ea.rows(); ++i) {
        for (Eigen::Index j = 0; j < eb.rows(); ++j) {
            keep(edge_edge_closest_offset<double, 3>(
                va.row(ea(i, 0)).transpose(), va.row(ea(i, 1)).transpose(), vb.row(eb(j, 0)).transpose(),
                vb.row(eb(j, 1)).transpose()));
        }
    }
    return best;
}

/// The least gap among the contacts (they list a pair that passed through first, whatever its gap).
inline double least_gap(const std::vector<RigidContact>& contacts)
{
    double least = std::numeric_limits<double>::infinity();
    for (const RigidContact& c : contacts) {
        least = std::min(least, c.gap);
    }
    return least;
}

/// Which side of the other feature a contact's feature of body a lies on at time s, along the pair's own normal
/// (the face's, or the edges' cross product); the sign changes where the features passed through each other.
inline double feature_side(const RigidBody& a, const RigidBody& b, const RigidContact& c, double s)
{
    const Eigen::MatrixX3d va = posed(a, s), vb = posed(b, s);
    const auto corner = [](const Eigen::MatrixX3d& v, const Eigen::MatrixX3i& faces, std::int32_t f, int k) {
        return Eigen::Vector3d(v.row(faces(f, k)).transpose());
    };
    const auto end = [](const Eigen::MatrixX3d& v, const Eigen::MatrixX2i& edges, std::int32_t e, int k) {
        return Eigen::Vector3d(v.row(edges(e, k)).transpose());
    };
    const auto face_side
        = [&corner](const Eigen::Vector3d& x, const Eigen::MatrixX3d& v, const Eigen::MatrixX3i& f, std::int32_t face) {
              const Eigen::Vector3d p = corner(v, f, face, 0);
              return (x - p).dot((corner(v, f, face, 1) - p).cross(corner(v, f, face, 2) - p));
          };
    switch (c.feature_a.kind) {
    case RigidFeatureKind::VERTEX:
        return face_side(va.row(c.feature_a.index).transpose(), vb, b.shape.faces(), c.feature_b.index);
    case RigidFeatureKind::FACE:
        return -face_side(vb.row(c.feature_b.index).transpose(), va, a.shape.faces(), c.feature_a.index);
    default: {
        const auto& ea = a.shape.edges();
        const auto& eb = b.shape.edges();
        const Eigen::Vector3d a0 = end(va, ea, c.feature_a.index, 0), b0 = end(vb, eb, c.feature_b.index, 0);
        return (a0 - b0).dot((end(va, ea, c.feature_a.index, 1) - a0).cross(end(vb, eb, c.feature_b.index, 1) - b0));
    }
    }
}

/// The distance between a contact's two features at time s (the tests' own posing).
inline double feature_distance(const RigidBody& a, const RigidBody& b, const RigidContact& c, double s)
{
    const Eigen::MatrixX3d va = posed(a, s), vb = posed(b, s);
    const auto point = [](const Eigen::MatrixX3d& v, Eigen::Index i) { return Eigen::Vector3d(v.row(i).transpose()); };
    const auto vertex_face
        = [&point](const Eigen::Vector3d& x, const Eigen::MatrixX3d& v, const Eigen::RowVector3i& f) {
              return point_triangle_closest_offset<double>(x, point(v, f(0)), point(v, f(1)), point(v, f(2))).norm();
          };
    switch (c.feature_a.kind) {
    case RigidFeatureKind::VERTEX:
        return vertex_face(point(va, c.feature_a.index), vb, b.shape.faces().row(c.feature_b.index));
    case RigidFeatureKind::FACE:
        return vertex_face(point(vb, c.feature_b.index), va, a.shape.faces().row(c.feature_a.index));
    default: {
        const auto& ea = a.shape.edges();
        const auto& eb = b.shape.edges();
        return edge_edge_closest_offset<double, 3>(
                   point(va, ea(c.feature_a.index, 0)), point(va, ea(c.feature_a.index, 1)),
                   point(vb, eb(c.feature_b.index, 0)), point(vb, eb(c.feature_b.index, 1)))
            .norm();
    }
    }
}

/// The least distance between a contact's features over [from, to]: sampled at 2,000 times, then refined around the
/// least sample by ternary search.
inline double
least_feature_distance(const RigidBody& a, const RigidBody& b, const RigidContact& c, double from, double to)
{
    constexpr int SAMPLES = 2000;
    const auto at = [&](double s) { return feature_distance(a, b, c, s); };
    int best = 0;
    double least = at(from);
    for (int k = 1; k <= SAMPLES; ++k) {
        const double d = at(from + (to - from) * k / SAMPLES);
        if (d < least) {
            least = d;
            best = k;
        }
    }
    double low = from + (to - from) * std::max(0, best - 1) / SAMPLES;
    double high = from + (to - from) * std::min(SAMPLES, best + 1) / SAMPLES;
    for (int step = 0; step < 100; ++step) {
        const double m1 = low + (high - low) / 3, m2 = high - (high - low) / 3;
        if (at(m1) < at(m2)) {
            high = m2;
        } else {
            low = m1;
        }
    }
    return std::min(least, at(0.5 * (low + high)));
}

} // namespace ccdkit::test_support
