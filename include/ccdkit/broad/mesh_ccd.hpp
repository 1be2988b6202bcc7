// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/broad/broad_phase.hpp>
#include <ccdkit/narrow/ccd_types.hpp>

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace ccdkit {

struct MeshCcdOptions {
    CcdOptions narrow; ///< narrow-phase method, t_max, toi tolerance
    BroadPhaseMethod broad_phase = BroadPhaseMethod::BVH;
    /// Primitives are queried against the built structure in blocks of this many, with progress reported
    /// between blocks. Candidate pairs never accumulate: each thread passes the pairs of a few queries at a
    /// time straight to the narrow phase, so memory stays bounded however many pairs the scene has.
    std::size_t block_size = 1 << 15;
    /// Called from the calling thread with the fraction of the work done, now and then.
    std::function<void(double)> progress;
};

/// A primitive of one of several meshes (multi_mesh_ccd): the mesh's position in the list, and the row in
/// that mesh.
struct MeshPrimitive {
    std::int32_t mesh = 0, index = 0;
    auto operator<=>(const MeshPrimitive&) const = default;
};

/// Primitives are rows (std::int32_t) for one mesh, MeshPrimitive for several.
template <class Primitive> struct VertexFaceContact {
    Primitive vertex {}, face {};
    double toi_lower = 0.0, toi_upper = 0.0;
};

template <class Primitive> struct EdgeEdgeContact {
    Primitive edge_a {}, edge_b {}; ///< edge_a < edge_b
    double toi_lower = 0.0, toi_upper = 0.0;
};

template <class Primitive> struct MeshContacts {
    std::vector<VertexFaceContact<Primitive>> vertex_face; ///< sorted by (vertex, face)
    std::vector<EdgeEdgeContact<Primitive>> edge_edge; ///< sorted by (edge_a, edge_b)
    /// Earliest contact over the whole mesh: no contact before `earliest_toi_lower`; some contact at or
    /// before `earliest_toi_upper`. Empty when nothing collides.
    std::optional<double> earliest_toi_lower, earliest_toi_upper;
    std::size_t vertex_face_candidates = 0, edge_edge_candidates = 0;
    double broad_phase_ms = 0.0, narrow_phase_ms = 0.0;
    /// The part of broad_phase_ms spent before any query (swept boxes, spatial orders, building the BVH or the
    /// sorted axis), over both passes.
    double broad_phase_build_ms = 0.0;
    std::size_t broad_phase_bytes = 0; ///< largest memory of the built structure
};

using VertexFaceHit = VertexFaceContact<std::int32_t>;
using EdgeEdgeHit = EdgeEdgeContact<std::int32_t>; ///< edges are rows of the edge matrix
using MeshCcdResult = MeshContacts<std::int32_t>;

/// Continuous collision detection of a whole mesh moving linearly from `v0` to `v1` over [0, t_max]:
/// every vertex-face and edge-edge pair that touches (self-collision; a vertex is never tested against a
/// face that contains it, nor an edge against one it shares a vertex with). Put several objects into one
/// mesh (offset their indices) to test them against each other too. Runs in parallel with oneTBB.
/// @param[in] edges rows (i, j); use edges_from_faces(faces) for the usual numbering
/// @throws std::invalid_argument for mismatched sizes, non-finite coordinates or indices out of range.
[[nodiscard]] MeshCcdResult mesh_ccd(
    const Eigen::MatrixX3d& v0,
    const Eigen::MatrixX3d& v1,
    const Eigen::MatrixX2i& edges,
    const Eigen::MatrixX3i& faces,
    const MeshCcdOptions& options = {});

/// Memory that mesh_ccd() keeps between calls: swept boxes, broad-phase structures, per-vertex bounds and
/// per-thread buffers. A simulator that checks every step passes the same workspace each time, so that this
/// memory is reused instead of allocated afresh (where first touching a page is slow, that is a large part of
/// a step). Results never depend on what the workspace held before. One call at a time per workspace.
class MeshCcdWorkspace {
public:
    MeshCcdWorkspace();
    ~MeshCcdWorkspace();
    MeshCcdWorkspace(MeshCcdWorkspace&&) noexcept;
    MeshCcdWorkspace& operator=(MeshCcdWorkspace&&) noexcept;
    MeshCcdWorkspace(const MeshCcdWorkspace&) = delete;
    MeshCcdWorkspace& operator=(const MeshCcdWorkspace&) = delete;

private:
    friend MeshCcdResult mesh_ccd(
        const Eigen::MatrixX3d&,
        const Eigen::MatrixX3d&,
        const Eigen::MatrixX2i&,
        const Eigen::MatrixX3i&,
        const MeshCcdOptions&,
        MeshCcdWorkspace&);
    struct Buffers;
    std::unique_ptr<Buffers> buffers_;
};

/// mesh_ccd() with the memory of `workspace`, reused from call to call (the same result as without).
[[nodiscard]] MeshCcdResult mesh_ccd(
    const Eigen::MatrixX3d& v0,
    const Eigen::MatrixX3d& v1,
    const Eigen::MatrixX2i& edges,
    const Eigen::MatrixX3i& faces,
    const MeshCcdOptions& options,
    MeshCcdWorkspace& workspace);

/// The input checks of mesh_ccd(): v0 and v1 have the same number of rows, every coordinate is finite, every
/// index names a vertex.
/// @throws std::invalid_argument naming the first problem.
void check_mesh_motion(
    const Eigen::MatrixX3d& v0,
    const Eigen::MatrixX3d& v1,
    const Eigen::MatrixX2i& edges,
    const Eigen::MatrixX3i& faces);

/// One object of a multi-object step: its own vertices at both ends, faces and edges.
struct MeshMotion {
    Eigen::MatrixX3d v0, v1;
    Eigen::MatrixX3i faces;
    Eigen::MatrixX2i edges; ///< empty: edges_from_faces(faces)
};

using MultiMeshVertexFaceHit = VertexFaceContact<MeshPrimitive>;
using MultiMeshEdgeEdgeHit = EdgeEdgeContact<MeshPrimitive>;
using MultiMeshCcdResult = MeshContacts<MeshPrimitive>;

/// Continuous collision detection between several meshes, each with its own topology: every colliding
/// vertex-face and edge-edge pair between two meshes, and within each mesh too when `self_collisions`.
/// Pairs are numbered per mesh (MeshPrimitive); otherwise as mesh_ccd(), which runs on the meshes joined.
/// @throws std::invalid_argument naming the mesh, as mesh_ccd() does.
[[nodiscard]] MultiMeshCcdResult
multi_mesh_ccd(std::span<const MeshMotion> meshes, bool self_collisions = true, const MeshCcdOptions& options = {});

} // namespace ccdkit
