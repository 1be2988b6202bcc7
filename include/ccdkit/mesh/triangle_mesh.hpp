// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/broad/aabb.hpp>

#include <Eigen/Core>

namespace ccdkit {

/// An indexed triangle mesh.
struct TriangleMesh {
    Eigen::MatrixX3d vertices; ///< one row per vertex: x, y, z
    Eigen::MatrixX3i faces; ///< one row per triangle: three 0-based rows of `vertices`
};

/// The unique undirected edges of a set of triangles, as rows (i, j) with i < j, ordered by j, then by i.
/// This is the edge numbering of the shared Belgrod data: with V vertices, edge row e has global id V + e.
/// A pair of equal indices in a degenerate face is not an edge and is left out.
/// @param[in] faces triangles with non-negative vertex indices (validate() checks them against a mesh).
/// @throws std::invalid_argument for a negative index.
[[nodiscard]] Eigen::MatrixX2i edges_from_faces(const Eigen::MatrixX3i& faces);

/// Checks a mesh before it is used: every face index names a vertex, no face repeats a vertex index, and
/// every coordinate is finite.
/// @throws std::invalid_argument naming the first offending face or vertex.
void validate(const TriangleMesh& mesh);

/// The box around the vertices that some face uses: a vertex that none does (as mesh files often hold) bounds no
/// surface. Precondition: at least one face, every index naming a vertex (validate()).
[[nodiscard]] Aabb faces_bounds(const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces);

} // namespace ccdkit
