// SPDX-License-Identifier: MIT
#pragma once

#include "rigid/details/face_tree.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace ccdkit::details {

/// A rigid mesh with its edges and bounding hierarchies, all in body coordinates (built once).
struct MeshShapeData {
    Eigen::MatrixX3d vertices;
    Eigen::MatrixX3i faces;
    Eigen::MatrixX2i edges;
    bool solid = false;
    Eigen::MatrixX3i face_edges; ///< row f: the edges (rows of `edges`) of face f's sides, in order
    /// Per face, bit c set when the face is the first (lowest index) to hold its corner c (vertex) or its side
    /// c (edge): pairs of faces then give each vertex and edge pair once.
    std::vector<std::uint8_t> owned_vertices, owned_edges;
    FaceTree tree; ///< over the faces
    /// One vertex of each connected component of the faces (unused vertices belong to none): a body that
    /// starts inside a solid without touching its surface has every component wholly inside or outside.
    std::vector<std::int32_t> component_vertices;
    double mean_edge_length = 0.0;
};

} // namespace ccdkit::details
