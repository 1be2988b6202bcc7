// SPDX-License-Identifier: MIT
#pragma once
// What every part of the rigid-body comparison benchmark shares: triangle meshes, the shape pairs, one query
// (the two bodies' poses at the start and the end of the step) and the motion model between the two poses.
//
// Motion model (the one ccdkit's RigidMotion::between, FCL's InterpMotion and Bullet's btTransformUtil all
// implement when the rotation centre is the body origin): the body origin moves on a straight line at constant
// speed and the body turns at constant angular velocity about its origin by the smaller angle between the two
// rotations (every query turns by less than pi, so the sense is never ambiguous).

#include <ccdkit/mesh/triangle_mesh.hpp>
#include <ccdkit/rigid/rigid_motion.hpp>

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace ccdkit::bench {

/// Vertices and faces, counter-clockwise seen from outside (ccdkit's primitive meshes are).
using Mesh = TriangleMesh;

[[nodiscard]] Mesh translated(Mesh mesh, const Eigen::Vector3d& offset);
/// Largest distance from `center` to a vertex.
[[nodiscard]] double radius_about(const Mesh& mesh, const Eigen::Vector3d& center);

enum class PairKind : std::uint8_t {
    BOX_BOX, ///< two convex boxes
    CONVEX_MESH, ///< a convex polyhedron against a static non-convex mesh
    MESH_MESH, ///< two non-convex meshes
};

/// Two bodies. Body a turns about its origin, which lies `lever` away from its shape's centre (so that turning
/// sweeps it through space); body b's shape is centred on its origin. Both are closed solids.
struct ShapePair {
    std::string name;
    PairKind kind = PairKind::BOX_BOX;
    Mesh a; ///< body coordinates
    Mesh b; ///< body coordinates
    Eigen::Vector3d a_center = Eigen::Vector3d::Zero(); ///< centre of a's shape, body coordinates (the lever)
    double a_radius = 0.0; ///< of a's shape about a_center
    double b_radius = 0.0; ///< of b's shape about its origin
    bool b_moves = false; ///< whether queries may move body b too
};

/// box-box, convex-mesh (icosphere against a torus), mesh-mesh (torus against torus).
[[nodiscard]] std::vector<ShapePair> make_shape_pairs();

enum class Aim : std::uint8_t { HIT, GRAZE, MISS };

/// One query: each body's pose at the start (s = 0) and at the end (s = 1) of the step.
struct Query {
    RigidPose a_t0, a_t1, b_t0, b_t1;
    Aim aim = Aim::HIT; ///< what the generator aimed at (the reference decides what happens)
};

/// Pose at fraction s of the step under the motion model of the file comment.
[[nodiscard]] RigidPose pose_at(const RigidPose& t0, const RigidPose& t1, double s);
/// Angle turned over the step (radians, in [0, pi]).
[[nodiscard]] double step_angle(const RigidPose& t0, const RigidPose& t1);

} // namespace ccdkit::bench
