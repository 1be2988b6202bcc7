// SPDX-License-Identifier: MIT
#pragma once

#include "rigid/details/mesh_shape_data.hpp"
#include "rigid/details/moving_side.hpp"

#include <ccdkit/narrow/ccd_types.hpp>

#include <cstddef>
#include <cstdint>

namespace ccdkit::details {

enum class PairKind : std::uint8_t {
    VERTEX_FACE, ///< a vertex of body a against a face of body b
    FACE_VERTEX, ///< a face of body a against a vertex of body b
    EDGE_EDGE, ///< an edge of body a against an edge of body b
};

/// A pair of features, one of each body: `a` indexes body a's vertices, faces or edges as `kind` says, `b`
/// body b's.
struct FeaturePair {
    PairKind kind = PairKind::VERTEX_FACE;
    std::int32_t a = 0;
    std::int32_t b = 0;
};

/// Whether the pair holds a flat edge of either body (MeshShapeData::flat_edges): contacts at t = 0 leave such pairs
/// out.
[[nodiscard]] inline bool holds_flat_edge(const FeaturePair& pair, const MeshShapeData& a, const MeshShapeData& b)
{
    return pair.kind == PairKind::EDGE_EDGE
        && (a.flat_edges[static_cast<std::size_t>(pair.a)] != 0 || b.flat_edges[static_cast<std::size_t>(pair.b)] != 0);
}

/// The linear motion, over the side's interval, of its moving vertex against a face of the fixed body.
[[nodiscard]] inline VertexFaceMotion vertex_face_motion(MovingSide& side, std::int32_t vertex, std::int32_t face)
{
    const auto& fixed = side.fixed();
    const Eigen::Vector3d t0 = fixed.vertices.row(fixed.faces(face, 0));
    const Eigen::Vector3d t1 = fixed.vertices.row(fixed.faces(face, 1));
    const Eigen::Vector3d t2 = fixed.vertices.row(fixed.faces(face, 2));
    return { side.start(vertex), t0, t1, t2, side.end(vertex), t0, t1, t2 };
}

/// The linear motion, over the side's interval, of a moving edge against an edge of the fixed body.
[[nodiscard]] inline EdgeEdgeMotion edge_edge_motion(MovingSide& side, std::int32_t edge, std::int32_t fixed_edge)
{
    const auto& moving = side.shape();
    const auto& fixed = side.fixed();
    const Eigen::Vector3d eb0 = fixed.vertices.row(fixed.edges(fixed_edge, 0));
    const Eigen::Vector3d eb1 = fixed.vertices.row(fixed.edges(fixed_edge, 1));
    const std::int32_t ea0 = moving.edges(edge, 0), ea1 = moving.edges(edge, 1);
    return { side.start(ea0), side.start(ea1), eb0, eb1, side.end(ea0), side.end(ea1), eb0, eb1 };
}

/// Whether the box of the moving vertex's chord, inflated by the side's separation and `reach`, meets the face's box.
[[nodiscard]] inline bool
vertex_face_boxes_overlap(MovingSide& side, std::int32_t vertex, std::int32_t face, double reach = 0.0)
{
    const auto& fixed = side.fixed();
    const Eigen::Array3d p0 = side.start(vertex).array(), p1 = side.end(vertex).array();
    Eigen::Array3d lo = fixed.vertices.row(fixed.faces(face, 0)).transpose().array(), hi = lo;
    for (int k = 1; k < 3; ++k) {
        lo = lo.min(fixed.vertices.row(fixed.faces(face, k)).transpose().array());
        hi = hi.max(fixed.vertices.row(fixed.faces(face, k)).transpose().array());
    }
    const double r = side.separation() + reach;
    return (p0.min(p1) - r <= hi).all() && (p0.max(p1) + r >= lo).all();
}

/// Whether the box of the moving edge's chords, inflated by the side's separation and `reach`, meets the fixed edge's
/// box.
[[nodiscard]] inline bool
edge_edge_boxes_overlap(MovingSide& side, std::int32_t edge, std::int32_t fixed_edge, double reach = 0.0)
{
    const auto& moving = side.shape();
    const auto& fixed = side.fixed();
    const std::int32_t ea0 = moving.edges(edge, 0), ea1 = moving.edges(edge, 1);
    const Eigen::Array3d a = side.start(ea0).array(), b = side.end(ea0).array();
    const Eigen::Array3d c = side.start(ea1).array(), d = side.end(ea1).array();
    const Eigen::Array3d e = fixed.vertices.row(fixed.edges(fixed_edge, 0)).transpose().array();
    const Eigen::Array3d f = fixed.vertices.row(fixed.edges(fixed_edge, 1)).transpose().array();
    const double r = side.separation() + reach;
    return (a.min(b).min(c.min(d)) - r <= e.max(f)).all() && (a.max(b).max(c.max(d)) + r >= e.min(f)).all();
}

} // namespace ccdkit::details
