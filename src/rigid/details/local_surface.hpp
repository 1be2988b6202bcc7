// SPDX-License-Identifier: MIT
#pragma once

// The shape of a surface near a contact with an implicit solid, and the contact normal it gives (surface_contact.cpp).
// The solid's normal at a region's centre runs from the solid's nearest point to it: beside the solid's corner or edge
// it runs sideways, by up to the region's size over the gap. Of two surfaces touching at a point the normal is that of
// the one flat there, and where both turn along an edge, square to both edges.

#include "rigid/details/mesh_shape_data.hpp"

#include <ccdkit/distance/closest_offset.hpp>
#include <ccdkit/rigid/implicit_shape.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <optional>

namespace ccdkit::details {

/// An edge of a surface: the unit outward normals of its two sides, and its unit direction (their cross product).
struct SurfaceEdge {
    std::array<Eigen::Vector3d, 2> sides;
    Eigen::Vector3d direction;

    /// Whether the unit vector n lies between the sides' normals, where the edge's outward normals are (within
    /// `slack`).
    [[nodiscard]] bool holds_normal(const Eigen::Vector3d& n, double slack) const
    {
        return sides[0].cross(n).dot(direction) >= -slack && n.cross(sides[1]).dot(direction) >= -slack
            && n.dot(sides[0] + sides[1]) > 0.0;
    }
};

/// A surface near a point: its unit outward normal there, how far that normal turns within the region about the point
/// (0 where flat, up to 2), and where it turns about one line only, that edge.
struct LocalSurface {
    Eigen::Vector3d normal;
    double turn = 0.0;
    std::optional<SurfaceEdge> edge;

    /// The same surface turned (into another body's coordinates).
    [[nodiscard]] LocalSurface turned(const Eigen::Matrix3d& rotation) const
    {
        LocalSurface out { rotation * normal, turn, std::nullopt };
        if (edge) {
            out.edge
                = SurfaceEdge { { rotation * edge->sides[0], rotation * edge->sides[1] }, rotation * edge->direction };
        }
        return out;
    }
};

/// Normals that differ by less than this (a chord of the unit sphere, about 17 degrees) turn too little for an edge.
inline constexpr double EDGE_TURN = 0.3;
/// Normals about an edge are square to it: within this (the cosine) of square, or it is a corner.
inline constexpr double SQUARE_TO_EDGE = 0.1;
/// How far (a sine) outside its sides' normals a normal of an edge may lie (the sampled sides of an implicit edge are
/// its faces' normals only up to the rounding of the edge's Voronoi region).
inline constexpr double EDGE_SLACK = 0.3;

/// An implicit surface near p: its normals at p and at eight points around p, twice `radius` away square to its normal.
/// The edge, where the two most different of them turn by at least EDGE_TURN and every one is square to their cross
/// product.
[[nodiscard]] inline LocalSurface
implicit_surface_near(const ImplicitShape& shape, const Eigen::Vector3d& p, double radius)
{
    constexpr int AROUND = 8;
    std::array<Eigen::Vector3d, AROUND + 1> normals;
    normals[0] = shape.normal(p);
    const Eigen::Vector3d side = normals[0].unitOrthogonal(), other_side = normals[0].cross(side);
    for (int k = 0; k < AROUND; ++k) {
        const double angle = k * 2.0 * std::numbers::pi / AROUND;
        normals[static_cast<std::size_t>(k + 1)]
            = shape.normal(p + 2.0 * radius * (std::cos(angle) * side + std::sin(angle) * other_side));
    }
    LocalSurface out { normals[0], 0.0, std::nullopt };
    std::size_t first = 0, second = 0;
    double widest = 0.0;
    for (std::size_t i = 0; i < normals.size(); ++i) {
        out.turn = std::max(out.turn, (normals[i] - normals[0]).norm());
        for (std::size_t j = i + 1; j < normals.size(); ++j) {
            if (const double apart = (normals[i] - normals[j]).norm(); apart > widest) {
                widest = apart;
                first = i;
                second = j;
            }
        }
    }
    if (widest < EDGE_TURN) {
        return out;
    }
    const Eigen::Vector3d edge = normals[first].cross(normals[second]);
    if (!(edge.norm() > 0.0)) {
        return out; // (opposite normals: a knife edge's sides, whose line they do not give)
    }
    const Eigen::Vector3d direction = edge.normalized();
    for (const Eigen::Vector3d& n : normals) {
        if (std::abs(n.dot(direction)) > SQUARE_TO_EDGE) {
            return out; // a corner
        }
    }
    out.edge = SurfaceEdge { { normals[first], normals[second] }, direction };
    return out;
}

/// A piece of a mesh's face about `center` (the mesh's coordinates): its face's normal; flat where no edge of the face
/// but flat ones (MeshShapeData::flat_edges: between two faces in one plane) comes within twice `radius`, else turning
/// by 2 (an edge or a rim turns the surface by an angle not looked for), about that edge where it is the only one and
/// it has a second face (its other side's normal is the face's mirrored about the edge's bisector, `edge_normals`).
[[nodiscard]] inline LocalSurface
face_surface_near(const MeshShapeData& mesh, std::int32_t face, const Eigen::Vector3d& center, double radius)
{
    LocalSurface out { mesh.face_normals[static_cast<std::size_t>(face)], 0.0, std::nullopt };
    int near = 0;
    for (Eigen::Index c = 0; c < 3; ++c) {
        const std::int32_t e = mesh.face_edges(face, c);
        if (mesh.flat_edges[static_cast<std::size_t>(e)] != 0) {
            continue;
        }
        const Eigen::Vector3d p = mesh.vertices.row(mesh.edges(e, 0)).transpose();
        const Eigen::Vector3d q = mesh.vertices.row(mesh.edges(e, 1)).transpose();
        if (point_edge_closest_offset<double, 3>(center, p, q).norm() <= 2.0 * radius) {
            out.turn = 2.0;
            ++near;
            const Eigen::Vector3d& bisector = mesh.edge_normals[static_cast<std::size_t>(e)];
            const Eigen::Vector3d other = 2.0 * out.normal.dot(bisector) * bisector - out.normal;
            const Eigen::Vector3d direction = out.normal.cross(other);
            if (direction.norm() > SQUARE_TO_EDGE) { // (not a rim, whose bisector is the face's own normal)
                out.edge = SurfaceEdge { { out.normal, other }, direction.normalized() };
            }
        }
    }
    if (near > 1) {
        out.edge.reset(); // a corner
    }
    return out;
}

/// The contact normal out of the solid, given both surfaces at the contact in one frame (`surface`'s normal points out
/// of the surface body, into the solid; a soup's face may be wound either way): square to both edges where both turn
/// about one (the edges not nearly parallel, and that normal between each edge's sides), else the flatter surface's
/// normal, the solid's where they tie or where the surface's points away from it (the surfaces cross there).
[[nodiscard]] inline Eigen::Vector3d
contact_normal_between(const LocalSurface& solid, const LocalSurface& surface, bool surface_is_solid)
{
    Eigen::Vector3d from_surface = -surface.normal;
    if (!surface_is_solid && from_surface.dot(solid.normal) < 0.0) {
        from_surface = -from_surface;
    }
    if (!(std::abs(from_surface.squaredNorm() - 1.0) <= 1e-6 && from_surface.dot(solid.normal) > 0.0)) {
        return solid.normal;
    }
    if (solid.edge && surface.edge) {
        // Square to both edges, where that is an outward normal of both (a vertex on a face beside an edge: neither).
        const Eigen::Vector3d across = solid.edge->direction.cross(surface.edge->direction);
        if (across.norm() > SQUARE_TO_EDGE) {
            Eigen::Vector3d n = across.normalized();
            n = n.dot(solid.normal + from_surface) >= 0.0 ? n : Eigen::Vector3d(-n);
            if (solid.edge->holds_normal(n, EDGE_SLACK) && surface.edge->holds_normal(-n, EDGE_SLACK)) {
                return n;
            }
        }
    }
    return surface.turn < solid.turn ? from_surface : solid.normal;
}

} // namespace ccdkit::details
