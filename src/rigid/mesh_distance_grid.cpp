// SPDX-License-Identifier: MIT
// SignedDistanceGrid::from_mesh: the distance to the nearest triangle at every lattice point, signed by the
// generalized winding number (Jacobson et al. 2013): the sum of the solid angles of the triangles seen from
// the point, over 4 pi, is +-1 inside a closed consistently oriented mesh and 0 outside, and it degrades
// gracefully near the surface, where the distance is small anyway.
#include "rigid/details/grid_lattice.hpp"
#include "rigid/details/solid_containment.hpp"
#include "rigid/details/wide_range_length.hpp"

#include <ccdkit/distance/closest_offset.hpp>
#include <ccdkit/mesh/triangle_mesh.hpp>
#include <ccdkit/rigid/signed_distance_grid.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace ccdkit {

namespace {
    using Eigen::Vector3d;

    std::string edge_name(std::int64_t a, std::int64_t b)
    {
        return "edge (" + std::to_string(a) + ", " + std::to_string(b) + ")";
    }

    /// Every directed edge of a closed, edge-manifold, consistently oriented mesh appears in exactly one face
    /// and its reverse in exactly one other.
    void require_closed_manifold(const Eigen::MatrixX3i& faces)
    {
        std::vector<std::int64_t> directed;
        directed.reserve(static_cast<std::size_t>(3 * faces.rows()));
        for (Eigen::Index f = 0; f < faces.rows(); ++f) {
            for (int c = 0; c < 3; ++c) {
                directed.push_back((std::int64_t { faces(f, c) } << 32) | faces(f, (c + 1) % 3));
            }
        }
        std::sort(directed.begin(), directed.end());
        constexpr const char* WHO = "SignedDistanceGrid::from_mesh: ";
        const auto adjacent = std::adjacent_find(directed.begin(), directed.end());
        if (adjacent != directed.end()) {
            throw std::invalid_argument(
                WHO + edge_name(*adjacent >> 32, *adjacent & 0xffffffff)
                + " is used twice in the same direction (faces not consistently oriented, or more than two faces "
                  "at the edge)");
        }
        for (const std::int64_t edge : directed) {
            const std::int64_t a = edge >> 32, b = edge & 0xffffffff;
            if (!std::binary_search(directed.begin(), directed.end(), (b << 32) | a)) {
                throw std::invalid_argument(
                    WHO + edge_name(a, b) + " belongs to one face only: the mesh is not closed");
            }
        }
    }

} // namespace

SignedDistanceGrid SignedDistanceGrid::from_mesh(
    const Eigen::MatrixX3d& vertices,
    const Eigen::MatrixX3i& faces,
    double cell_size,
    double padding,
    MeshDistanceSign sign)
{
    if (faces.rows() == 0) {
        throw std::invalid_argument("SignedDistanceGrid::from_mesh: the mesh has no faces");
    }
    validate(TriangleMesh { vertices, faces });
    const bool is_signed = sign == MeshDistanceSign::SIGNED;
    if (is_signed) {
        require_closed_manifold(faces);
    }
    const Aabb box = faces_bounds(vertices, faces); // (vertices that no face uses are no surface)
    // Measured on the mesh and the lattice point scaled by a power of two near the largest coordinate (exact; the
    // distance scales back): the closest points multiply coordinates, and a cube of 1e100 read 0 at its centre.
    const double largest = std::max(box.min.abs().maxCoeff(), box.max.abs().maxCoeff());
    const int exponent = largest > 0.0 ? std::ilogb(largest) : 0;
    const Eigen::MatrixX3d unit = vertices.unaryExpr([exponent](double v) { return std::scalbn(v, -exponent); });
    const auto corner = [&](Eigen::Index f, int c) -> Vector3d { return unit.row(faces(f, c)).transpose(); };
    const auto field = [&](const Vector3d& point) {
        const Vector3d x = details::scaled_by_power_of_two(point, -exponent);
        double nearest = std::numeric_limits<double>::infinity();
        double angle = 0;
        for (Eigen::Index f = 0; f < faces.rows(); ++f) {
            const Vector3d t0 = corner(f, 0), t1 = corner(f, 1), t2 = corner(f, 2);
            nearest = std::min(nearest, point_triangle_closest_offset<double>(x, t0, t1, t2).squaredNorm());
            if (is_signed) {
                angle += details::triangle_solid_angle(t0 - x, t1 - x, t2 - x);
            }
        }
        const double distance = std::scalbn(std::sqrt(nearest), exponent);
        const double winding = angle / (4 * std::numbers::pi);
        return std::abs(winding) >= 0.5 ? -distance : distance;
    };
    return details::sample_on_lattice(box, cell_size, padding, "SignedDistanceGrid::from_mesh", field);
}

} // namespace ccdkit
