// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/rigid/rigid_shape.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <array>
#include <cstddef>
#include <utility>
#include <vector>

namespace ccdkit::test_support {

/// Convex hull of points in general position (incremental; faces counter-clockwise from outside), unused
/// points dropped.
[[nodiscard]] inline RigidShape hull_solid(const std::vector<Eigen::Vector3d>& points)
{
    using Vector = Eigen::Matrix<long double, 3, 1>;
    std::vector<std::array<int, 3>> faces;
    const auto orient = [&points](int a, int b, int c, const Eigen::Vector3d& p) {
        const Vector x = points[static_cast<std::size_t>(a)].cast<long double>();
        const Vector n = (points[static_cast<std::size_t>(b)].cast<long double>() - x)
                             .cross(points[static_cast<std::size_t>(c)].cast<long double>() - x);
        return n.dot(p.cast<long double>() - x);
    };
    // A first tetrahedron from points 0..3 (general position assumed), oriented outwards.
    if (orient(0, 1, 2, points[3]) > 0) {
        faces = { { 0, 2, 1 }, { 0, 1, 3 }, { 1, 2, 3 }, { 2, 0, 3 } };
    } else {
        faces = { { 0, 1, 2 }, { 0, 3, 1 }, { 1, 3, 2 }, { 2, 3, 0 } };
    }
    for (std::size_t p = 4; p < points.size(); ++p) {
        std::vector<char> visible(faces.size(), 0);
        bool any = false;
        for (std::size_t f = 0; f < faces.size(); ++f) {
            visible[f] = orient(faces[f][0], faces[f][1], faces[f][2], points[p]) > 1e-15L;
            any = any || visible[f];
        }
        if (!any) {
            continue;
        }
        // Horizon: directed sides of visible faces whose reverse belongs to a hidden face.
        std::vector<std::array<int, 2>> sides;
        for (std::size_t f = 0; f < faces.size(); ++f) {
            if (!visible[f]) {
                continue;
            }
            for (int c = 0; c < 3; ++c) {
                const int u = faces[f][static_cast<std::size_t>(c)];
                const int v = faces[f][static_cast<std::size_t>((c + 1) % 3)];
                bool hidden = false;
                for (std::size_t g = 0; g < faces.size() && !hidden; ++g) {
                    if (visible[g]) {
                        continue;
                    }
                    for (int d = 0; d < 3; ++d) {
                        if (faces[g][static_cast<std::size_t>(d)] == v
                            && faces[g][static_cast<std::size_t>((d + 1) % 3)] == u) {
                            hidden = true;
                        }
                    }
                }
                if (hidden) {
                    sides.push_back({ u, v });
                }
            }
        }
        std::vector<std::array<int, 3>> kept;
        for (std::size_t f = 0; f < faces.size(); ++f) {
            if (!visible[f]) {
                kept.push_back(faces[f]);
            }
        }
        for (const auto& [u, v] : sides) {
            kept.push_back({ u, v, static_cast<int>(p) });
        }
        faces = std::move(kept);
    }
    std::vector<int> index(points.size(), -1);
    std::vector<Eigen::Vector3d> used;
    for (auto& f : faces) {
        for (int& c : f) {
            if (index[static_cast<std::size_t>(c)] < 0) {
                index[static_cast<std::size_t>(c)] = static_cast<int>(used.size());
                used.push_back(points[static_cast<std::size_t>(c)]);
            }
            c = index[static_cast<std::size_t>(c)];
        }
    }
    Eigen::MatrixX3d v(static_cast<Eigen::Index>(used.size()), 3);
    for (std::size_t k = 0; k < used.size(); ++k) {
        v.row(static_cast<Eigen::Index>(k)) = used[k].transpose();
    }
    Eigen::MatrixX3i f(static_cast<Eigen::Index>(faces.size()), 3);
    for (std::size_t k = 0; k < faces.size(); ++k) {
        f.row(static_cast<Eigen::Index>(k)) << faces[k][0], faces[k][1], faces[k][2];
    }
    return RigidShape::solid(v, f);
}

} // namespace ccdkit::test_support
