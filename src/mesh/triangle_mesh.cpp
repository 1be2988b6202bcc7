// SPDX-License-Identifier: MIT
#include "ccdkit/mesh/triangle_mesh.hpp"

#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ccdkit {

Eigen::MatrixX2i edges_from_faces(const Eigen::MatrixX3i& faces)
{
    const Eigen::Index face_count = faces.rows();
    int max_index = -1;
    for (Eigen::Index f = 0; f < face_count; ++f) {
        for (int c = 0; c < 3; ++c) {
            const int index = faces(f, c);
            if (index < 0) {
                throw std::invalid_argument(
                    "edges_from_faces: face " + std::to_string(f) + " has negative vertex index "
                    + std::to_string(index));
            }
            max_index = std::max(max_index, index);
        }
    }

    // Bucket every half-edge by its larger index (a counting sort), so only the short buckets need sorting:
    // this keeps the whole pass linear in the number of faces.
    const std::size_t bucket_count = static_cast<std::size_t>(max_index) + 1;
    std::vector<std::size_t> bucket_start(bucket_count + 1, 0);
    const auto for_each_edge = [&](auto&& visit) {
        for (Eigen::Index f = 0; f < face_count; ++f) {
            for (int c = 0; c < 3; ++c) {
                const int a = faces(f, c);
                const int b = faces(f, (c + 1) % 3);
                if (a != b) {
                    visit(std::min(a, b), std::max(a, b));
                }
            }
        }
    };
    for_each_edge([&](int, int j) { ++bucket_start[static_cast<std::size_t>(j) + 1]; });
    for (std::size_t j = 0; j < bucket_count; ++j) {
        bucket_start[j + 1] += bucket_start[j];
    }
    std::vector<int> smaller(bucket_start.back());
    std::vector<std::size_t> fill(bucket_start.begin(), bucket_start.end() - 1);
    for_each_edge([&](int i, int j) { smaller[fill[static_cast<std::size_t>(j)]++] = i; });

    std::vector<int> unique_pairs; // (i, j) interleaved
    unique_pairs.reserve(smaller.size());
    for (std::size_t j = 0; j < bucket_count; ++j) {
        const auto first = smaller.begin() + static_cast<std::ptrdiff_t>(bucket_start[j]);
        const auto last = smaller.begin() + static_cast<std::ptrdiff_t>(bucket_start[j + 1]);
        std::sort(first, last);
        const auto end = std::unique(first, last);
        for (auto it = first; it != end; ++it) {
            unique_pairs.push_back(*it);
            unique_pairs.push_back(static_cast<int>(j));
        }
    }

    const Eigen::Index edge_count = static_cast<Eigen::Index>(unique_pairs.size() / 2);
    Eigen::MatrixX2i edges(edge_count, 2);
    for (Eigen::Index e = 0; e < edge_count; ++e) {
        edges(e, 0) = unique_pairs[static_cast<std::size_t>(2 * e)];
        edges(e, 1) = unique_pairs[static_cast<std::size_t>(2 * e + 1)];
    }
    return edges;
}

void validate(const TriangleMesh& mesh)
{
    const Eigen::Index vertex_count = mesh.vertices.rows();
    for (Eigen::Index v = 0; v < vertex_count; ++v) {
        if (!mesh.vertices.row(v).allFinite()) {
            std::ostringstream message;
            message.precision(17);
            message << "vertex " << v << " has a non-finite coordinate (" << mesh.vertices(v, 0) << ", "
                    << mesh.vertices(v, 1) << ", " << mesh.vertices(v, 2) << ")";
            throw std::invalid_argument(message.str());
        }
    }
    // Messages are built only on failure: this runs over every face of large meshes.
    const auto face_name = [&](Eigen::Index f) {
        return "face " + std::to_string(f) + " (" + std::to_string(mesh.faces(f, 0)) + ", "
            + std::to_string(mesh.faces(f, 1)) + ", " + std::to_string(mesh.faces(f, 2)) + ")";
    };
    for (Eigen::Index f = 0; f < mesh.faces.rows(); ++f) {
        const int a = mesh.faces(f, 0);
        const int b = mesh.faces(f, 1);
        const int c = mesh.faces(f, 2);
        for (const int index : { a, b, c }) {
            if (index < 0 || index >= vertex_count) {
                throw std::invalid_argument(
                    face_name(f) + ": vertex index " + std::to_string(index) + " out of range ("
                    + std::to_string(vertex_count) + " vertices)");
            }
        }
        if (a == b || b == c || c == a) {
            throw std::invalid_argument(
                face_name(f) + " is degenerate: vertex index " + std::to_string(a == b || a == c ? a : b)
                + " repeated");
        }
    }
}

Aabb faces_bounds(const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces)
{
    Aabb box { Eigen::Array3d::Constant(std::numeric_limits<double>::infinity()),
               Eigen::Array3d::Constant(-std::numeric_limits<double>::infinity()) };
    for (Eigen::Index f = 0; f < faces.rows(); ++f) {
        for (Eigen::Index c = 0; c < 3; ++c) {
            const Eigen::Array3d p = vertices.row(faces(f, c)).transpose().array();
            box.min = box.min.min(p);
            box.max = box.max.max(p);
        }
    }
    return box;
}

} // namespace ccdkit
