// SPDX-License-Identifier: MIT
#pragma once

// The normal of two solids that touch at a point, from the faces around it on both sides (normal cones).
//
// A feature pair that touches at t = 0 (bodies at rest on each other) may meet at a point on the boundary of
// either feature (a vertex on a face's rim, edges meeting at a corner of a stack), where the pair's own normal
// (face normal, edges' cross product) need not separate the bodies. Locally each solid is the cone its faces
// holding the point span; a direction d (from b towards a) separates them there iff d lies in b's normal cone at
// the point and -d in a's. For a convex corner, edge or face the normal cone is the polar of the tangent cone:
// the d with d . (w - p) <= 0 for every vertex w of the faces holding p. The candidates are those faces' own
// normals (b's, and a's reversed): the answer is a face normal wherever one lies in both cones, as in a stack.

#include "rigid/details/feature_pair.hpp"
#include "rigid/details/mesh_shape_data.hpp"
#include "rigid/details/vertex_incidence.hpp"

#include <ccdkit/distance/closest_offset.hpp>
#include <ccdkit/rigid/rigid_contact.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace ccdkit::details {

/// Unit normal of a mesh shape's face as wound, in body coordinates (zero for a collapsed face).
[[nodiscard]] inline const Eigen::Vector3d& body_face_normal(const RigidShape& shape, std::int32_t f)
{
    return shape.mesh_data().face_normals[static_cast<std::size_t>(f)];
}

/// Per vertex, the faces that hold it (compressed rows; built once per body when needed).
class VertexFaces {
public:
    explicit VertexFaces(const RigidShape& shape)
        : faces_(VertexIncidence::of(shape.mesh_data().faces, shape.mesh_data().vertices.rows()))
    {
    }

    [[nodiscard]] std::span<const std::int32_t> of(std::int32_t v) const
    {
        return faces_.at(static_cast<std::size_t>(v));
    }

private:
    VertexIncidence faces_;
};

/// The vertices of one body's feature in a pair (1 to 3; unused entries -1).
[[nodiscard]] inline std::array<std::int32_t, 3>
feature_vertices(const RigidShape& shape, RigidFeatureKind kind, std::int32_t index)
{
    switch (kind) {
    case RigidFeatureKind::VERTEX:
        return { index, -1, -1 };
    case RigidFeatureKind::EDGE:
        return { shape.mesh_data().edges(index, 0), shape.mesh_data().edges(index, 1), -1 };
    case RigidFeatureKind::FACE:
        return { shape.mesh_data().faces(index, 0), shape.mesh_data().faces(index, 1),
                 shape.mesh_data().faces(index, 2) };
    default:
        return { -1, -1, -1 };
    }
}

/// One solid's faces that hold a point, in its body coordinates (tests there need no posing of vertices).
struct FacesAtPoint {
    Eigen::Matrix3d rotation; ///< body to world
    Eigen::Vector3d point; ///< the point, in body coordinates
    double rounding = 0.0; ///< allowance for the rounding of positions
    std::vector<std::int32_t> faces; ///< the faces tested
    std::vector<Eigen::Vector3d> normals; ///< outward unit normals of those that hold the point
    std::vector<Eigen::Vector3d> corners; ///< their vertices
};

/// Relative allowance for rounding of angles (directions against a face's extent): far above the rounding of a
/// pose's rotation and far below any real angle of a mesh.
inline constexpr double TOUCHING_ROUNDING = 1e-9;
/// Allowance for rounding of the posed points, relative to the largest coordinate: far above a pose's rounding (a
/// few ulps of the coordinates) yet far below a small body far out (1e-9 of 1e6 is a millimetre, as large as the
/// body itself there, and let every face normal pass the cones).
inline constexpr double TOUCHING_POSITION_ROUNDING = 1e-12;

/// Fills `out` with the faces around the vertices of `feature` (a feature of `body`, placed by `at`, which holds
/// the world point p up to rounding) that hold p up to rounding: the faces of the smallest feature that holds p.
/// (`out` keeps its memory between calls.)
inline void faces_at_point(
    const RigidBody& body,
    const RigidPlacement& at,
    const VertexFaces& around,
    const std::array<std::int32_t, 3>& feature,
    const Eigen::Vector3d& p,
    FacesAtPoint& out)
{
    out.rotation = at.rotation;
    out.point = at.rotation.transpose() * (p - at.translation) + at.center;
    out.rounding = TOUCHING_POSITION_ROUNDING * std::max(p.cwiseAbs().maxCoeff(), out.point.cwiseAbs().maxCoeff());
    out.faces.clear();
    out.normals.clear();
    out.corners.clear();
    const auto& faces = body.shape.mesh_data().faces;
    const auto& vertices = body.shape.mesh_data().vertices;
    for (const std::int32_t v : feature) {
        if (v < 0) {
            continue;
        }
        for (const std::int32_t f : around.of(v)) {
            if (std::find(out.faces.begin(), out.faces.end(), f) != out.faces.end()) {
                continue;
            }
            out.faces.push_back(f);
            const Eigen::Vector3d c0 = vertices.row(faces(f, 0)).transpose();
            const Eigen::Vector3d normal = body_face_normal(body.shape, f);
            // Most faces around are off the point's plane: a dot product rejects them.
            if (!(std::abs(normal.dot(out.point - c0)) <= out.rounding)) {
                continue;
            }
            const Eigen::Vector3d c1 = vertices.row(faces(f, 1)).transpose();
            const Eigen::Vector3d c2 = vertices.row(faces(f, 2)).transpose();
            if (!(point_triangle_closest_offset<double>(out.point, c0, c1, c2).norm() <= out.rounding)) {
                continue;
            }
            out.normals.push_back(normal);
            out.corners.insert(out.corners.end(), { c0, c1, c2 });
        }
    }
}

/// Whether the world direction d lies in the normal cone at the point of the solid whose faces there are `faces`
/// (up to rounding).
[[nodiscard]] inline bool in_normal_cone(const FacesAtPoint& faces, const Eigen::Vector3d& d)
{
    const Eigen::Vector3d local = faces.rotation.transpose() * d;
    return std::all_of(faces.corners.begin(), faces.corners.end(), [&](const Eigen::Vector3d& w) {
        const Eigen::Vector3d along = w - faces.point;
        return local.dot(along) <= TOUCHING_ROUNDING * along.norm() + faces.rounding;
    });
}

/// The face normal (b's, or a's reversed) that separates solids a and b touching at p (in b's normal cone, its
/// reverse in a's), the one nearest `preferred` where several do; none where no face normal does (faces missing
/// at p, crossing ridges, a reflex corner).
[[nodiscard]] inline std::optional<Eigen::Vector3d>
separating_face_normal(const FacesAtPoint& a, const FacesAtPoint& b, const Eigen::Vector3d& preferred)
{
    std::optional<Eigen::Vector3d> best;
    if (a.normals.empty() || b.normals.empty()) {
        return best; // p is not on both surfaces (a nested body's vertex)
    }
    const auto consider = [&](const Eigen::Vector3d& d) {
        // A candidate no nearer `preferred` than the best so far (the same normal of a coplanar face, say)
        // needs no cone test.
        if (d.isZero() || (best && !(d.dot(preferred) > best->dot(preferred)))) {
            return;
        }
        if (in_normal_cone(b, d) && in_normal_cone(a, -d)) {
            best = d;
        }
    };
    for (const Eigen::Vector3d& n : b.normals) {
        consider(b.rotation * n);
    }
    for (const Eigen::Vector3d& n : a.normals) {
        consider(-(a.rotation * n));
    }
    return best;
}

} // namespace ccdkit::details
