// SPDX-License-Identifier: MIT
#include <ccdkit/broad/mesh_ccd.hpp>
#include <ccdkit/mesh/triangle_mesh.hpp>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace ccdkit {

namespace {
    /// Where each mesh's rows start in the joined numbering, with the way back.
    class Offsets {
    public:
        void add(Eigen::Index rows, const char* what)
        {
            if (rows > std::numeric_limits<std::int32_t>::max() - total_) {
                throw std::invalid_argument(std::string("multi_mesh_ccd: more than 2^31 ") + what + " in all");
            }
            starts_.push_back(total_);
            total_ += static_cast<std::int32_t>(rows);
        }
        [[nodiscard]] std::int32_t start(std::size_t mesh) const { return starts_[mesh]; }
        [[nodiscard]] std::int32_t total() const { return total_; }
        [[nodiscard]] MeshPrimitive primitive(std::int32_t joined) const
        {
            // The last mesh starting at or before `joined` (empty meshes share their start with the next).
            const auto it = std::upper_bound(starts_.begin(), starts_.end(), joined) - 1;
            return { static_cast<std::int32_t>(it - starts_.begin()), joined - *it };
        }

    private:
        std::vector<std::int32_t> starts_;
        std::int32_t total_ = 0;
    };
} // namespace

MultiMeshCcdResult
multi_mesh_ccd(std::span<const MeshMotion> meshes, bool self_collisions, const MeshCcdOptions& options)
{
    std::vector<Eigen::MatrixX2i> edges(meshes.size());
    Offsets vertex, edge, face;
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const MeshMotion& mesh = meshes[m];
        try {
            edges[m] = mesh.edges.rows() > 0 ? mesh.edges : edges_from_faces(mesh.faces);
            check_mesh_motion(mesh.v0, mesh.v1, edges[m], mesh.faces);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("multi_mesh_ccd: mesh " + std::to_string(m) + ": " + e.what());
        }
        vertex.add(mesh.v0.rows(), "vertices");
        edge.add(edges[m].rows(), "edges");
        face.add(mesh.faces.rows(), "faces");
    }
    Eigen::MatrixX3d v0(vertex.total(), 3), v1(vertex.total(), 3);
    Eigen::MatrixX2i joined_edges(edge.total(), 2);
    Eigen::MatrixX3i joined_faces(face.total(), 3);
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const MeshMotion& mesh = meshes[m];
        const std::int32_t first = vertex.start(m);
        v0.middleRows(first, mesh.v0.rows()) = mesh.v0;
        v1.middleRows(first, mesh.v1.rows()) = mesh.v1;
        joined_edges.middleRows(edge.start(m), edges[m].rows()) = edges[m].array() + first;
        joined_faces.middleRows(face.start(m), mesh.faces.rows()) = mesh.faces.array() + first;
    }

    const MeshCcdResult joined = mesh_ccd(v0, v1, joined_edges, joined_faces, options);
    MultiMeshCcdResult result;
    result.vertex_face_candidates = joined.vertex_face_candidates;
    result.edge_edge_candidates = joined.edge_edge_candidates;
    result.broad_phase_ms = joined.broad_phase_ms;
    result.broad_phase_build_ms = joined.broad_phase_build_ms;
    result.narrow_phase_ms = joined.narrow_phase_ms;
    result.broad_phase_bytes = joined.broad_phase_bytes;
    const auto earliest = [&](double lower, double upper) {
        result.earliest_toi_lower = std::min(result.earliest_toi_lower.value_or(lower), lower);
        result.earliest_toi_upper = std::min(result.earliest_toi_upper.value_or(upper), upper);
    };
    // Pairs within one mesh are dropped here when not wanted (the joined run tests them anyway).
    for (const VertexFaceHit& h : joined.vertex_face) {
        const MultiMeshVertexFaceHit hit { vertex.primitive(h.vertex), face.primitive(h.face), h.toi_lower,
                                           h.toi_upper };
        if (self_collisions || hit.vertex.mesh != hit.face.mesh) {
            result.vertex_face.push_back(hit);
            earliest(h.toi_lower, h.toi_upper);
        }
    }
    for (const EdgeEdgeHit& h : joined.edge_edge) {
        const MultiMeshEdgeEdgeHit hit { edge.primitive(h.edge_a), edge.primitive(h.edge_b), h.toi_lower, h.toi_upper };
        if (self_collisions || hit.edge_a.mesh != hit.edge_b.mesh) {
            result.edge_edge.push_back(hit);
            earliest(h.toi_lower, h.toi_upper);
        }
    }
    // Joined numbering is mesh-major, so the joined sort order is already (mesh, index) order.
    return result;
}

} // namespace ccdkit
