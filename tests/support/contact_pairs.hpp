// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/broad/mesh_ccd.hpp>

#include <set>
#include <utility>

namespace ccdkit::test {

/// The colliding (vertex, face) pairs of a whole-mesh result, without their times.
inline std::set<std::pair<int, int>> vertex_face_pairs(const MeshCcdResult& r)
{
    std::set<std::pair<int, int>> s;
    for (const auto& h : r.vertex_face) {
        s.insert({ h.vertex, h.face });
    }
    return s;
}

/// The colliding (edge_a, edge_b) pairs of a whole-mesh result, without their times.
inline std::set<std::pair<int, int>> edge_edge_pairs(const MeshCcdResult& r)
{
    std::set<std::pair<int, int>> s;
    for (const auto& h : r.edge_edge) {
        s.insert({ h.edge_a, h.edge_b });
    }
    return s;
}

} // namespace ccdkit::test
