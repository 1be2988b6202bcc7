// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/broad/bvh.hpp>

#include <Eigen/Core>

namespace ccdkit::details {

/// A rigid mesh with its edges and bounding hierarchies, all in body coordinates (built once).
struct MeshShapeData {
    Eigen::MatrixX3d vertices;
    Eigen::MatrixX3i faces;
    Eigen::MatrixX2i edges;
    bool solid = false;
    Bvh face_tree; ///< over the faces' boxes
    Bvh edge_tree; ///< over the edges' boxes
};

} // namespace ccdkit::details
