// SPDX-License-Identifier: MIT
#pragma once

// Closed triangle meshes of simple solids, centred at the origin and wound counter-clockwise seen from
// outside: for examples, tests and benchmarks.

#include <ccdkit/mesh/triangle_mesh.hpp>

#include <Eigen/Core>

#include <cstdint>

namespace ccdkit {

/// A box with the given half extents (8 vertices, 12 faces).
/// @throws std::invalid_argument unless every half extent is finite and > 0
[[nodiscard]] TriangleMesh box_mesh(const Eigen::Vector3d& half_extents);

/// A sphere: an icosahedron subdivided `subdivisions` times (20 * 4^subdivisions faces), vertices on the
/// sphere.
/// @throws std::invalid_argument for a radius not finite and > 0 or subdivisions outside [0, 8]
[[nodiscard]] TriangleMesh icosphere_mesh(double radius, int subdivisions);

/// The most vertices (rings x sides) torus_mesh makes: about 8 million faces.
inline constexpr std::int64_t MAX_TORUS_VERTICES = std::int64_t { 1 } << 22;

/// A torus around the z axis: `rings` segments around the axis, `sides` around the tube (2 rings sides faces).
/// @throws std::invalid_argument unless 0 < minor_radius < major_radius (finite), rings, sides >= 3 and
///         rings x sides <= MAX_TORUS_VERTICES
[[nodiscard]] TriangleMesh torus_mesh(double major_radius, double minor_radius, int rings, int sides);

} // namespace ccdkit
