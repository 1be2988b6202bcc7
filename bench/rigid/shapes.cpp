// SPDX-License-Identifier: MIT
#include "scene.hpp"

#include <ccdkit/mesh/primitive_meshes.hpp>

#include <Eigen/Geometry>

#include <utility>

namespace ccdkit::bench {

Mesh translated(Mesh mesh, const Eigen::Vector3d& offset)
{
    mesh.vertices.rowwise() += offset.transpose();
    return mesh;
}

double radius_about(const Mesh& mesh, const Eigen::Vector3d& center)
{
    return (mesh.vertices.rowwise() - center.transpose()).rowwise().norm().maxCoeff();
}

std::vector<ShapePair> make_shape_pairs()
{
    const auto make = [](std::string name, PairKind kind, const Mesh& a_shape, Mesh b, bool b_moves) {
        ShapePair pair;
        pair.name = std::move(name);
        pair.kind = kind;
        pair.a_radius = radius_about(a_shape, Eigen::Vector3d::Zero());
        pair.b_radius = radius_about(b, Eigen::Vector3d::Zero());
        // Lever: a turns about a point 1.5 (r_a + r_b) from its shape's centre, so a turn of a few tens of degrees
        // carries it across b.
        pair.a_center = Eigen::Vector3d(1.5 * (pair.a_radius + pair.b_radius), 0.0, 0.0);
        pair.a = translated(a_shape, pair.a_center);
        pair.b = std::move(b);
        pair.b_moves = b_moves;
        return pair;
    };
    std::vector<ShapePair> pairs;
    pairs.push_back(make(
        "box-box", PairKind::BOX_BOX, box_mesh(Eigen::Vector3d(0.5, 0.35, 0.25)),
        box_mesh(Eigen::Vector3d(0.6, 0.6, 0.6)), true));
    pairs.push_back(
        make("convex-mesh", PairKind::CONVEX_MESH, icosphere_mesh(0.35, 2), torus_mesh(1.0, 0.3, 24, 12), false));
    pairs.push_back(
        make("mesh-mesh", PairKind::MESH_MESH, torus_mesh(0.5, 0.15, 20, 10), torus_mesh(1.0, 0.3, 24, 12), true));
    return pairs;
}

RigidPose pose_at(const RigidPose& t0, const RigidPose& t1, double s)
{
    const Eigen::Quaterniond q0 = t0.rotation.normalized(), q1 = t1.rotation.normalized();
    Eigen::Quaterniond delta = q1 * q0.conjugate();
    if (delta.w() < 0.0) {
        delta.coeffs() *= -1.0;
    }
    const Eigen::AngleAxisd turn(delta);
    RigidPose pose;
    pose.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(s * turn.angle(), turn.axis())) * q0;
    pose.translation = (1.0 - s) * t0.translation + s * t1.translation;
    return pose;
}

double step_angle(const RigidPose& t0, const RigidPose& t1)
{
    return t0.rotation.normalized().angularDistance(t1.rotation.normalized());
}

} // namespace ccdkit::bench
