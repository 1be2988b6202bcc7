// SPDX-License-Identifier: MIT
#include "rigid/details/mesh_shape_data.hpp"

#include <ccdkit/broad/aabb.hpp>
#include <ccdkit/mesh/triangle_mesh.hpp>
#include <ccdkit/rigid/rigid_shape.hpp>

#include <Eigen/Geometry>

#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace ccdkit {

namespace {

    std::shared_ptr<details::MeshShapeData> prepare(const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces)
    {
        if (faces.rows() == 0) {
            throw std::invalid_argument("rigid shape: the mesh has no faces");
        }
        validate(TriangleMesh { vertices, faces });
        auto data = std::make_shared<details::MeshShapeData>();
        data->vertices = vertices;
        data->faces = faces;
        data->edges = edges_from_faces(faces);
        // Boxes of a static mesh: the swept boxes of a motion from the vertices to themselves.
        data->face_tree.build(face_boxes(vertices, vertices, faces));
        data->edge_tree.build(edge_boxes(vertices, vertices, data->edges));
        return data;
    }

    /// Every directed edge of the faces appears once and its reverse once: a closed, edge-manifold surface with
    /// consistent orientation.
    void check_closed_and_oriented(const Eigen::MatrixX3i& faces)
    {
        std::map<std::pair<int, int>, int> uses;
        for (Eigen::Index f = 0; f < faces.rows(); ++f) {
            for (int k = 0; k < 3; ++k) {
                ++uses[{ faces(f, k), faces(f, (k + 1) % 3) }];
            }
        }
        for (const auto& [edge, count] : uses) {
            const auto reverse = uses.find({ edge.second, edge.first });
            const int reverse_count = reverse == uses.end() ? 0 : reverse->second;
            if (count != 1 || reverse_count != 1) {
                const std::string name
                    = "edge (" + std::to_string(edge.first) + ", " + std::to_string(edge.second) + ")";
                throw std::invalid_argument(
                    "rigid shape: not a closed solid: " + name
                    + (reverse_count == 0 ? " borders only one face (the mesh is open)"
                                          : " is not shared by exactly two consistently oriented faces"));
            }
        }
    }

    double signed_volume(const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces)
    {
        double six_volume = 0.0;
        for (Eigen::Index f = 0; f < faces.rows(); ++f) {
            const Eigen::Vector3d a = vertices.row(faces(f, 0));
            const Eigen::Vector3d b = vertices.row(faces(f, 1));
            const Eigen::Vector3d c = vertices.row(faces(f, 2));
            six_volume += a.dot(b.cross(c));
        }
        return six_volume / 6.0;
    }

} // namespace

RigidShape RigidShape::mesh(const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces)
{
    return RigidShape(prepare(vertices, faces));
}

RigidShape RigidShape::solid(const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces)
{
    auto data = prepare(vertices, faces);
    check_closed_and_oriented(faces);
    const double volume = signed_volume(vertices, faces);
    if (!(volume > 0.0)) {
        throw std::invalid_argument(
            "rigid shape: not a solid: the enclosed volume is " + std::to_string(volume)
            + (volume < 0.0 ? " (faces wound inwards?)" : " (zero)"));
    }
    data->solid = true;
    return RigidShape(std::move(data));
}

const Eigen::MatrixX3d& RigidShape::vertices() const { return mesh_->vertices; }
const Eigen::MatrixX3i& RigidShape::faces() const { return mesh_->faces; }
const Eigen::MatrixX2i& RigidShape::edges() const { return mesh_->edges; }
bool RigidShape::is_solid() const { return mesh_->solid; }

double RigidShape::radius_about(const Eigen::Vector3d& center) const
{
    return (mesh_->vertices.rowwise() - center.transpose()).rowwise().norm().maxCoeff();
}

} // namespace ccdkit
