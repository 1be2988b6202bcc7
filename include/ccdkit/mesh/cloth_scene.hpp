// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/mesh/triangle_mesh.hpp>

#include <cstdint>

namespace ccdkit {

/// A generated time step of a crumpling cloth: one topology, positions at the step's start and end.
struct ClothScene {
    TriangleMesh start; ///< positions at t = 0 (and the faces)
    Eigen::MatrixX3d end; ///< positions at t = 1, same rows as start.vertices
};

/// A square sheet of `resolution` x `resolution` vertices (2 (resolution - 1)^2 triangles) folded into
/// waves, whose step compresses it sideways and deepens the folds (moving each vertex up to about half an
/// edge length, at any resolution) and shakes every vertex by a random displacement of about `shake` edge
/// lengths: neighbouring triangles run into each other, as in a cloth crumpling under contact.
/// Deterministic for a given seed. resolution >= 2.
[[nodiscard]] ClothScene crumpling_cloth(int resolution, double shake = 0.6, std::uint64_t seed = 1);

} // namespace ccdkit
