// SPDX-License-Identifier: MIT
#include <ccdkit/mesh/primitive_meshes.hpp>

#include <cmath>
#include <cstdint>
#include <map>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ccdkit {

namespace {

    bool positive_finite(double x) { return std::isfinite(x) && x > 0.0; }

    TriangleMesh from_lists(const std::vector<Eigen::Vector3d>& vertices, const std::vector<Eigen::Vector3i>& faces)
    {
        TriangleMesh mesh;
        mesh.vertices.resize(static_cast<Eigen::Index>(vertices.size()), 3);
        mesh.faces.resize(static_cast<Eigen::Index>(faces.size()), 3);
        for (std::size_t k = 0; k < vertices.size(); ++k) {
            mesh.vertices.row(static_cast<Eigen::Index>(k)) = vertices[k].transpose();
        }
        for (std::size_t k = 0; k < faces.size(); ++k) {
            mesh.faces.row(static_cast<Eigen::Index>(k)) = faces[k].transpose();
        }
        return mesh;
    }

} // namespace

TriangleMesh box_mesh(const Eigen::Vector3d& half_extents)
{
    if (!positive_finite(half_extents.x()) || !positive_finite(half_extents.y())
        || !positive_finite(half_extents.z())) {
        throw std::invalid_argument("box mesh: every half extent must be finite and > 0");
    }
    std::vector<Eigen::Vector3d> vertices;
    for (int k = 0; k < 8; ++k) {
        // Vertex k has x from bit 0, y from bit 1, z from bit 2.
        vertices.emplace_back(
            (k & 1 ? 1.0 : -1.0) * half_extents.x(), (k & 2 ? 1.0 : -1.0) * half_extents.y(),
            (k & 4 ? 1.0 : -1.0) * half_extents.z());
    }
    const std::vector<Eigen::Vector3i> faces {
        { 0, 4, 6 }, { 0, 6, 2 }, // x = -h
        { 1, 3, 7 }, { 1, 7, 5 }, // x = +h
        { 0, 1, 5 }, { 0, 5, 4 }, // y = -h
        { 2, 6, 7 }, { 2, 7, 3 }, // y = +h
        { 0, 2, 3 }, { 0, 3, 1 }, // z = -h
        { 4, 5, 7 }, { 4, 7, 6 }, // z = +h
    };
    return from_lists(vertices, faces);
}

TriangleMesh icosphere_mesh(double radius, int subdivisions)
{
    if (!positive_finite(radius) || subdivisions < 0 || subdivisions > 8) {
        throw std::invalid_argument("icosphere mesh: radius must be finite and > 0, subdivisions in [0, 8]");
    }
    const double g = std::numbers::phi;
    std::vector<Eigen::Vector3d> vertices {
        { -1, g, 0 },  { 1, g, 0 },  { -1, -g, 0 }, { 1, -g, 0 }, { 0, -1, g },  { 0, 1, g },
        { 0, -1, -g }, { 0, 1, -g }, { g, 0, -1 },  { g, 0, 1 },  { -g, 0, -1 }, { -g, 0, 1 },
    };
    std::vector<Eigen::Vector3i> faces {
        { 0, 11, 5 },  { 0, 5, 1 },  { 0, 1, 7 },  { 0, 7, 10 }, { 0, 10, 11 }, { 1, 5, 9 }, { 5, 11, 4 },
        { 11, 10, 2 }, { 10, 7, 6 }, { 7, 1, 8 },  { 3, 9, 4 },  { 3, 4, 2 },   { 3, 2, 6 }, { 3, 6, 8 },
        { 3, 8, 9 },   { 4, 9, 5 },  { 2, 4, 11 }, { 6, 2, 10 }, { 8, 6, 7 },   { 9, 8, 1 },
    };
    for (auto& v : vertices) {
        v.normalize();
    }
    for (int level = 0; level < subdivisions; ++level) {
        std::map<std::pair<int, int>, int> midpoint_of;
        const auto midpoint = [&](int i, int j) {
            const auto key = std::minmax(i, j);
            const auto [it, added] = midpoint_of.try_emplace(key, static_cast<int>(vertices.size()));
            if (added) {
                vertices.push_back(
                    (vertices[static_cast<std::size_t>(i)] + vertices[static_cast<std::size_t>(j)]).normalized());
            }
            return it->second;
        };
        std::vector<Eigen::Vector3i> finer;
        finer.reserve(faces.size() * 4);
        for (const auto& f : faces) {
            const int ab = midpoint(f[0], f[1]), bc = midpoint(f[1], f[2]), ca = midpoint(f[2], f[0]);
            finer.emplace_back(f[0], ab, ca);
            finer.emplace_back(f[1], bc, ab);
            finer.emplace_back(f[2], ca, bc);
            finer.emplace_back(ab, bc, ca);
        }
        faces = std::move(finer);
    }
    for (auto& v : vertices) {
        v *= radius;
    }
    return from_lists(vertices, faces);
}

TriangleMesh torus_mesh(double major_radius, double minor_radius, int rings, int sides)
{
    if (!positive_finite(minor_radius) || !positive_finite(major_radius) || !(minor_radius < major_radius) || rings < 3
        || sides < 3) {
        throw std::invalid_argument(
            "torus mesh: need 0 < minor radius < major radius (finite) and at least 3 rings and 3 sides");
    }
    if (std::int64_t { rings } * sides > MAX_TORUS_VERTICES) { // (the product would overflow int first)
        throw std::invalid_argument(
            "torus mesh: rings x sides must be at most " + std::to_string(MAX_TORUS_VERTICES) + ", got "
            + std::to_string(rings) + " x " + std::to_string(sides));
    }
    std::vector<Eigen::Vector3d> vertices;
    std::vector<Eigen::Vector3i> faces;
    const double tau = 2.0 * std::numbers::pi;
    for (int i = 0; i < rings; ++i) {
        const double u = tau * i / rings;
        for (int j = 0; j < sides; ++j) {
            const double v = tau * j / sides;
            const double r = major_radius + minor_radius * std::cos(v);
            vertices.emplace_back(r * std::cos(u), r * std::sin(u), minor_radius * std::sin(v));
        }
    }
    const auto id = [&](int i, int j) { return (i % rings) * sides + (j % sides); };
    for (int i = 0; i < rings; ++i) {
        for (int j = 0; j < sides; ++j) {
            faces.emplace_back(id(i, j), id(i + 1, j), id(i + 1, j + 1));
            faces.emplace_back(id(i, j), id(i + 1, j + 1), id(i, j + 1));
        }
    }
    return from_lists(vertices, faces);
}

} // namespace ccdkit
