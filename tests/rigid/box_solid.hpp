// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/mesh/primitive_meshes.hpp>
#include <ccdkit/rigid/rigid_shape.hpp>

namespace ccdkit::test_support {

/// An axis-aligned box about the origin as a closed solid (the rigid tests' most common body).
[[nodiscard]] inline RigidShape box_solid(const Eigen::Vector3d& half_extents)
{
    const TriangleMesh mesh = box_mesh(half_extents);
    return RigidShape::solid(mesh.vertices, mesh.faces);
}

} // namespace ccdkit::test_support
