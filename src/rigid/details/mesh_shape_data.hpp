// SPDX-License-Identifier: MIT
#pragma once

#include "rigid/details/face_tree.hpp"
#include "rigid/details/vertex_incidence.hpp"
#include "rigid/details/wide_range_length.hpp"

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace ccdkit::details {

/// Convex solids up to this many vertices take the convex path (convexity is checked in time faces x vertices).
inline constexpr Eigen::Index MAX_CONVEX_VERTICES = 256;
/// How far (relative to the body's size) a vertex may lie outside a face's plane in a convex solid: 64 ulps, far
/// below the motions' rounding bounds, and above the rounding of coplanar faces (a box split into triangles).
inline constexpr double CONVEX_TOLERANCE = 64.0 * 0x1p-52;
/// Farthest from the origin, in sizes, that a mesh's coordinates' rounding widens CONVEX_TOLERANCE (to that much of
/// its largest coordinate) in the convexity check: a dent of at most 1.5e-8 of the size passes as rounding. (A body
/// much farther from the origin than this is also placed with rounding that slows the convex path down.)
inline constexpr double TOLERATED_SPREAD = 0x1p20;

/// A rigid mesh with its edges and bounding hierarchies, all in body coordinates (built once). Its vertices are those
/// some face uses: one that none does would only widen the body's bounds and the rounding they allow (a vertex 1e15
/// from a unit triangle had a contact reported at once, 1.5 apart; one 1e9 from a box made it read as wound inwards).
struct MeshShapeData {
    Eigen::MatrixX3d vertices;
    Eigen::MatrixX3i faces;
    Eigen::MatrixX2i edges;
    /// Where some vertices of the mesh given were used by no face (left out): per vertex of `vertices`, its row in the
    /// mesh given (an increasing map: faces keep their order and edges their numbering), and that mesh's vertices,
    /// faces and edges, which the public API speaks of (RigidShape's accessors, the contacts' vertex features). All
    /// empty where every vertex is used.
    std::vector<std::int32_t> input_rows;
    Eigen::MatrixX3d given_vertices;
    Eigen::MatrixX3i given_faces;
    Eigen::MatrixX2i given_edges;
    /// Row `v` of `vertices` as the mesh given numbers it.
    [[nodiscard]] std::int32_t input_row(std::int32_t v) const
    {
        return input_rows.empty() ? v : input_rows[static_cast<std::size_t>(v)];
    }
    bool solid = false;
    double origin_radius = 0.0; ///< the largest distance of a vertex from the body's origin (rounded up)
    /// A solid of at most MAX_CONVEX_VERTICES vertices, each within CONVEX_TOLERANCE of its size (or of its largest
    /// coordinate, up to TOLERATED_SPREAD sizes) below every face's plane: the solid is the hull of its vertices (up
    /// to that hair).
    bool convex = false;
    Eigen::MatrixX3i face_edges; ///< row f: the edges (rows of `edges`) of face f's sides, in order
    VertexIncidence vertex_edges; ///< per vertex, the edges that end at it
    VertexIncidence vertex_faces; ///< per vertex, the faces that have it as a corner
    /// Per face, bit c set when the face is the first (lowest index) to hold its corner c (vertex) or its side
    /// c (edge): pairs of faces then give each vertex and edge pair once.
    std::vector<std::uint8_t> owned_vertices, owned_edges;
    FaceTree tree; ///< over the faces
    /// One vertex of each connected component of the faces (unused vertices belong to none): a body that
    /// starts inside a solid without touching its surface has every component wholly inside or outside.
    std::vector<std::int32_t> component_vertices;
    double mean_edge_length = 0.0;
    /// Per face, its unit normal as wound (unit_face_normal), computed once: resting contacts ask for the normals
    /// of the faces around each contact point.
    std::vector<Eigen::Vector3d> face_normals;
    /// Per edge, the unit bisector of its faces' normals (body coordinates; zero where they are opposite): on a solid
    /// it points out of the body at the edge, which orients the normals of contacts between solids (solid_outward in
    /// contact_geometry.hpp).
    std::vector<Eigen::Vector3d> edge_normals;
    /// Per edge, 1 where it is flat: exactly two faces hold it, in one plane (within CONVEX_TOLERANCE of the size or
    /// the largest coordinate, however far out) on either side of it, as the diagonal of a box's face. A flat edge is
    /// no feature of the surface, and a pair that holds one has a normal square to it, along the faces: contacts at t =
    /// 0, where surfaces that cross offer no side to turn it by, leave such pairs out (mesh_contact.cpp). The search
    /// tests them.
    std::vector<std::uint8_t> flat_edges;
};

/// Unit normal of face f as wound, in body coordinates (zero for a collapsed face). The sides are scaled by a power
/// of two to a length near 1 first (exact; the same normal): the cross product's squares would leave double's
/// range for faces smaller than about 1e-77 or larger than 1e77.
[[nodiscard]] inline Eigen::Vector3d
unit_face_normal(const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces, Eigen::Index f)
{
    const Eigen::Vector3d u = (vertices.row(faces(f, 1)) - vertices.row(faces(f, 0))).transpose();
    const Eigen::Vector3d v = (vertices.row(faces(f, 2)) - vertices.row(faces(f, 0))).transpose();
    const double extent = std::max(u.cwiseAbs().maxCoeff(), v.cwiseAbs().maxCoeff());
    if (!(extent > 0.0) || !std::isfinite(extent)) {
        return Eigen::Vector3d::Zero();
    }
    const int exponent = std::ilogb(extent);
    const Eigen::Vector3d n = scaled_by_power_of_two(u, -exponent).cross(scaled_by_power_of_two(v, -exponent));
    return n.norm() > 0.0 ? Eigen::Vector3d(n.normalized()) : Eigen::Vector3d::Zero();
}

} // namespace ccdkit::details
