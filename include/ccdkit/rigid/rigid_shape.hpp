// SPDX-License-Identifier: MIT
#pragma once

// A rigid body's geometry in body coordinates, prepared once for every time-of-contact query it takes part
// in (bounding hierarchies over its features are built here, not per query): a triangle mesh or an implicit
// solid.

#include <ccdkit/rigid/implicit_shape.hpp>

#include <Eigen/Core>

#include <memory>
#include <optional>

namespace ccdkit {

namespace details {
    struct MeshShapeData;
}

class RigidShape {
public:
    /// A triangle mesh: a closed solid or an open soup; faces may be non-manifold or degenerate (zero area)
    /// and the mesh need not be connected. Edges are the unique undirected edges of the faces, numbered by
    /// (max, min) vertex index as in the shared benchmark data. Vertices that no face uses (as mesh files often hold)
    /// play no part: the body's bounds and the rounding they allow are the faces' own. Every index the API gives
    /// back (vertices(), faces(), edges(), the contacts' features) is the mesh's as given.
    /// @throws std::invalid_argument for no faces, a non-finite coordinate, an index out of range, a face that
    ///         repeats a vertex index, a coordinate beyond 1e150 in magnitude or a mesh smaller than 1e-150 (the
    ///         largest side of its bounding box; the certified bounds' squares must stay in double's range)
    [[nodiscard]] static RigidShape mesh(const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces);

    /// A closed solid: as mesh(), and every edge is shared by exactly two faces with opposite orientation and
    /// the enclosed volume is positive (faces wound counter-clockwise seen from outside). A solid body that
    /// starts inside another solid counts as touching it at t = 0.
    /// @throws std::invalid_argument naming the first open or non-manifold edge, or a zero or negative volume
    [[nodiscard]] static RigidShape solid(const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces);

    /// An implicit solid (ImplicitShape: primitives, Boolean combinations, signed distance grids).
    [[nodiscard]] static RigidShape implicit(ImplicitShape shape);

    [[nodiscard]] bool is_implicit() const { return implicit_.has_value(); }
    /// The implicit solid. Precondition: is_implicit().
    [[nodiscard]] const ImplicitShape& implicit_shape() const { return *implicit_; }

    /// The mesh's vertices, faces and edges (empty for an implicit shape).
    [[nodiscard]] const Eigen::MatrixX3d& vertices() const;
    [[nodiscard]] const Eigen::MatrixX3i& faces() const;
    [[nodiscard]] const Eigen::MatrixX2i& edges() const;
    /// A closed solid mesh, or an implicit shape.
    [[nodiscard]] bool is_solid() const;
    /// A distance from `center` that every point of the shape is within.
    [[nodiscard]] double radius_about(const Eigen::Vector3d& center) const;

    /// Internal data of a mesh (for the time-of-contact code). Precondition: !is_implicit().
    [[nodiscard]] const details::MeshShapeData& mesh_data() const { return *mesh_; }

private:
    explicit RigidShape(std::shared_ptr<const details::MeshShapeData> mesh)
        : mesh_(std::move(mesh))
    {
    }
    explicit RigidShape(ImplicitShape shape)
        : implicit_(std::move(shape))
    {
    }
    std::shared_ptr<const details::MeshShapeData> mesh_; ///< null for an implicit shape
    std::optional<ImplicitShape> implicit_;
};

} // namespace ccdkit
