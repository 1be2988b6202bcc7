// SPDX-License-Identifier: MIT
#include "broad/details/candidate_blocks.hpp"
#include "broad/details/diagonal_bounds.hpp"
#include "broad/details/never_coplanar_pairs.hpp"
#include "broad/details/swept_boxes.hpp"
#include "core/details/ieee_arithmetic_tasks.hpp"
#include "mesh/details/index_check.hpp"

#include <ccdkit/broad/aabb.hpp>
#include <ccdkit/broad/mesh_ccd.hpp>
#include <ccdkit/narrow/edge_edge_ccd.hpp>
#include <ccdkit/narrow/spacetime_ccd.hpp>
#include <ccdkit/narrow/vertex_face_ccd.hpp>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace ccdkit {

namespace {
    using details::Pair;

    /// A thread's hits and candidate count (hundreds of thousands of hits at 10^6 triangles: in huge pages).
    template <class Hit> struct LocalHits {
        HugePageVector<Hit> hits;
        std::size_t candidates = 0;
    };
    template <class Hit> using HitBuffers = tbb::enumerable_thread_specific<LocalHits<Hit>>;

    /// Streams the candidate pairs of `built` and `queries` (stream_candidates) through the narrow phase:
    /// `candidate(pair)` gives the pair to test (input rows) unless it is adjacent, `test(candidate)` its
    /// CcdResult, or nothing when a filter settled it. Appends the hits (sorted later) and adds up the candidates; per
    /// thread until the end.
    template <class Hit, class Candidate, class Test>
    void collect_hits(
        details::CandidateStream& stream,
        HitBuffers<Hit>& locals,
        std::span<const Aabb> built,
        std::span<const Aabb> queries,
        QueryScope scope,
        const details::CandidateBlockSettings& settings,
        details::PhaseCosts& costs,
        Candidate candidate,
        Test test,
        std::vector<Hit>& hits,
        std::size_t& candidates)
    {
        for (LocalHits<Hit>& local : locals) {
            local.hits.clear();
            local.candidates = 0;
        }
        details::stream_candidates(stream, built, queries, scope, settings, costs, [&](std::span<const Pair> pairs) {
            LocalHits<Hit>& local = locals.local();
            for (const Pair& p : pairs) {
                if (const std::optional<Pair> c = candidate(p)) {
                    ++local.candidates;
                    if (const std::optional<CcdResult> r = test(*c); r && r->hit) {
                        local.hits.push_back(Hit { c->first, c->second, r->toi_lower, r->toi_upper });
                    }
                }
            }
        });
        std::size_t total = hits.size();
        for (const LocalHits<Hit>& local : locals) {
            total += local.hits.size();
        }
        hits.reserve(total);
        for (LocalHits<Hit>& local : locals) {
            hits.insert(hits.end(), local.hits.begin(), local.hits.end());
            candidates += local.candidates;
        }
    }

    /// The rows of `v` as contiguous points, into `points` (resized).
    void points_of(const Eigen::MatrixX3d& v, HugePageVector<Eigen::Vector3d>& points)
    {
        points.resize(static_cast<std::size_t>(v.rows()));
        for (Eigen::Index i = 0; i < v.rows(); ++i) {
            points[static_cast<std::size_t>(i)] = v.row(i).transpose();
        }
    }
} // namespace

struct MeshCcdWorkspace::Buffers {
    details::SortedBoxes vertices, edges;
    // Large buffers filled afresh at every step: in huge pages, where fresh memory faults in cheaply.
    HugePageVector<Aabb> faces;
    HugePageVector<Eigen::Vector3d> x0, x1;
    HugePageVector<details::DiagonalBounds> vertex_diagonals;
    HugePageVector<std::array<std::int32_t, 2>> sorted_edge_vertices;
    /// One stream, so one broad phase, for both passes: the edge-edge pass rebuilds the tree of the vertex-face
    /// pass in its memory (the largest fresh buffers of a step) instead of building a second one beside it.
    details::CandidateStream stream;
    HitBuffers<VertexFaceHit> vertex_face_hits;
    HitBuffers<EdgeEdgeHit> edge_edge_hits;
};

MeshCcdWorkspace::MeshCcdWorkspace()
    : buffers_(std::make_unique<Buffers>())
{
}
MeshCcdWorkspace::~MeshCcdWorkspace() = default;
MeshCcdWorkspace::MeshCcdWorkspace(MeshCcdWorkspace&&) noexcept = default;
MeshCcdWorkspace& MeshCcdWorkspace::operator=(MeshCcdWorkspace&&) noexcept = default;

void check_mesh_motion(
    const Eigen::MatrixX3d& v0,
    const Eigen::MatrixX3d& v1,
    const Eigen::MatrixX2i& edges,
    const Eigen::MatrixX3i& faces)
{
    if (v0.rows() != v1.rows()) {
        throw std::invalid_argument(
            "mesh_ccd: " + std::to_string(v0.rows()) + " vertices at t0 but " + std::to_string(v1.rows()) + " at t1");
    }
    for (const auto* v : { &v0, &v1 }) {
        for (Eigen::Index i = 0; i < v->rows(); ++i) {
            if (!v->row(i).allFinite()) {
                throw std::invalid_argument(
                    "mesh_ccd: vertex " + std::to_string(i) + " at " + (v == &v0 ? "t0" : "t1")
                    + " has a non-finite coordinate");
            }
        }
    }
    details::check_vertex_indices(edges, v0.rows(), "mesh_ccd", "edge");
    details::check_vertex_indices(faces, v0.rows(), "mesh_ccd", "face");
}

MeshCcdResult mesh_ccd(
    const Eigen::MatrixX3d& v0,
    const Eigen::MatrixX3d& v1,
    const Eigen::MatrixX2i& edges,
    const Eigen::MatrixX3i& faces,
    const MeshCcdOptions& options)
{
    MeshCcdWorkspace workspace;
    return mesh_ccd(v0, v1, edges, faces, options, workspace);
}

/// mesh_ccd() in plain IEEE arithmetic, in a workspace's buffers (a template: their type is the workspace's own).
template <class Buffers>
static MeshCcdResult contacts_in_ieee_arithmetic(
    const Eigen::MatrixX3d& v0,
    const Eigen::MatrixX3d& v1,
    const Eigen::MatrixX2i& edges,
    const Eigen::MatrixX3i& faces,
    const MeshCcdOptions& options,
    Buffers& buffers)
{
    MeshCcdResult result;
    const double inflation = 0.0;
    const auto start = details::Clock::now();
    // Primitives are handed to the broad phase in a spatial order, so that consecutive queries touch the
    // same parts of the structure; pairs are mapped back to the input numbering before the narrow phase.
    details::SortedBoxes& vertices_sorted = buffers.vertices;
    vertices_sorted.boxes.resize(static_cast<std::size_t>(v0.rows()));
    details::vertex_swept_boxes(v0, v1, inflation, vertices_sorted.boxes);
    vertices_sorted.sort();
    details::SortedBoxes& edges_sorted = buffers.edges;
    edges_sorted.boxes.resize(static_cast<std::size_t>(edges.rows()));
    details::swept_boxes(v0, v1, edges, inflation, edges_sorted.boxes);
    edges_sorted.sort();
    // Each sorted edge's vertices side by side: the adjacency test of a candidate pair then reads two nearby
    // entries (neighbours in space are neighbours in the order) instead of the edge matrix's scattered rows.
    HugePageVector<std::array<std::int32_t, 2>>& sorted_edge_vertices = buffers.sorted_edge_vertices;
    sorted_edge_vertices.resize(edges_sorted.order.size());
    for (std::size_t k = 0; k < sorted_edge_vertices.size(); ++k) {
        const auto e = edges.row(edges_sorted.order[k]);
        sorted_edge_vertices[k] = { e[0], e[1] };
    }
    // Faces are only built into the broad phase, which orders them itself: they keep the input numbering.
    buffers.faces.resize(static_cast<std::size_t>(faces.rows()));
    details::swept_boxes(v0, v1, faces, inflation, buffers.faces);
    details::PhaseCosts costs;
    costs.broad_phase_ms = costs.broad_phase_build_ms = details::elapsed_ms(start);
    // Vertex-face pairs are the first half of the progress, edge-edge pairs the second.
    const auto settings = [&](double from) {
        details::CandidateBlockSettings s {
            options.broad_phase, options.block_size, static_cast<std::size_t>(std::max(faces.rows(), edges.rows())), {}
        };
        if (options.progress) {
            s.progress = [&options, from](double done) { options.progress(from + 0.5 * done); };
        }
        return s;
    };
    // Positions as contiguous points: a candidate then reads one cache line per vertex, not three columns.
    points_of(v0, buffers.x0);
    points_of(v1, buffers.x1);
    const HugePageVector<Eigen::Vector3d>&x0 = buffers.x0, &x1 = buffers.x1;
    const auto p0 = [&](Eigen::Index i) -> const Eigen::Vector3d& { return x0[static_cast<std::size_t>(i)]; };
    const auto p1 = [&](Eigen::Index i) -> const Eigen::Vector3d& { return x1[static_cast<std::size_t>(i)]; };
    // Boxes overlap for most candidate pairs that are far apart along a diagonal: those go first, at a few
    // comparisons each (a primitive stays in the hull of its start and end vertices, whatever the method).
    buffers.vertex_diagonals.resize(static_cast<std::size_t>(v0.rows()));
    details::vertex_diagonal_bounds(v0, v1, buffers.vertex_diagonals);
    const std::span<const details::DiagonalBounds> vertex_diagonals = buffers.vertex_diagonals;
    const auto diagonals
        = [&](const auto&... vertices) { return details::merged(vertex_diagonals, std::array { vertices... }); };
    // Most of the rest are never coplanar; the linear-model methods would certify that first thing, here it is
    // cheaper. Space-time CCD decides a different model, so it sees every candidate.
    std::optional<details::NeverCoplanarPairs> never_coplanar;
    if (options.narrow.method != CcdMethod::SPACETIME) {
        never_coplanar.emplace(x0, x1, edges, faces);
    }

    // Candidates settled before the narrow phase are misses: no result is made for them.
    const auto vertex_face_test = [&](const Pair& p) -> std::optional<CcdResult> {
        const auto f = faces.row(p.second);
        if (details::apart(diagonals(p.first), diagonals(f[0], f[1], f[2]))
            || (never_coplanar && never_coplanar->vertex_face(p.first, p.second))) {
            return std::nullopt;
        }
        const VertexFaceMotion motion { p0(p.first), p0(f[0]), p0(f[1]), p0(f[2]),
                                        p1(p.first), p1(f[0]), p1(f[1]), p1(f[2]) };
        // Space-time CCD splits swept quads by vertex id: the mesh's ids keep the splits consistent.
        return options.narrow.method == CcdMethod::SPACETIME
            ? spacetime_vertex_face_ccd(motion, { p.first, f[0], f[1], f[2] }, options.narrow)
            : vertex_face_ccd(motion, options.narrow);
    };
    const auto vertex_face_candidate = [&](const Pair& sorted) -> std::optional<Pair> {
        const Pair p { vertices_sorted.original(sorted.first), sorted.second };
        return details::has_corner(faces.row(p.second), p.first) ? std::nullopt : std::optional(p);
    };
    collect_hits(
        buffers.stream, buffers.vertex_face_hits, buffers.faces, vertices_sorted.boxes, QueryScope::ALL_PAIRS,
        settings(0.0), costs, vertex_face_candidate, vertex_face_test, result.vertex_face,
        result.vertex_face_candidates);

    const auto edge_edge_test = [&](const Pair& p) -> std::optional<CcdResult> {
        const auto a = edges.row(p.first), b = edges.row(p.second);
        if (details::apart(diagonals(a[0], a[1]), diagonals(b[0], b[1]))
            || (never_coplanar && never_coplanar->edge_edge(p.first, p.second))) {
            return std::nullopt;
        }
        const EdgeEdgeMotion motion { p0(a[0]), p0(a[1]), p0(b[0]), p0(b[1]), p1(a[0]), p1(a[1]), p1(b[0]), p1(b[1]) };
        return options.narrow.method == CcdMethod::SPACETIME
            ? spacetime_edge_edge_ccd(motion, { a[0], a[1], b[0], b[1] }, options.narrow)
            : edge_edge_ccd(motion, options.narrow);
    };
    const auto edge_edge_candidate = [&](const Pair& sorted) -> std::optional<Pair> {
        const auto& a = sorted_edge_vertices[static_cast<std::size_t>(sorted.first)];
        const auto& b = sorted_edge_vertices[static_cast<std::size_t>(sorted.second)];
        if (a[0] == b[0] || a[0] == b[1] || a[1] == b[0] || a[1] == b[1]) {
            return std::nullopt;
        }
        return std::minmax(edges_sorted.original(sorted.first), edges_sorted.original(sorted.second));
    };
    collect_hits(
        buffers.stream, buffers.edge_edge_hits, edges_sorted.boxes, edges_sorted.boxes, QueryScope::SELF_PAIRS,
        settings(0.5), costs, edge_edge_candidate, edge_edge_test, result.edge_edge, result.edge_edge_candidates);

    result.broad_phase_ms = costs.broad_phase_ms;
    result.broad_phase_build_ms = costs.broad_phase_build_ms;
    result.narrow_phase_ms = costs.narrow_phase_ms;
    result.broad_phase_bytes = costs.broad_phase_bytes;
    std::sort(result.vertex_face.begin(), result.vertex_face.end(), [](const auto& a, const auto& b) {
        return std::pair(a.vertex, a.face) < std::pair(b.vertex, b.face);
    });
    std::sort(result.edge_edge.begin(), result.edge_edge.end(), [](const auto& a, const auto& b) {
        return std::pair(a.edge_a, a.edge_b) < std::pair(b.edge_a, b.edge_b);
    });
    const auto earliest = [&](double lower, double upper) {
        result.earliest_toi_lower = std::min(result.earliest_toi_lower.value_or(lower), lower);
        result.earliest_toi_upper = std::min(result.earliest_toi_upper.value_or(upper), upper);
    };
    for (const auto& h : result.vertex_face) {
        earliest(h.toi_lower, h.toi_upper);
    }
    for (const auto& h : result.edge_edge) {
        earliest(h.toi_lower, h.toi_upper);
    }
    return result;
}

MeshCcdResult mesh_ccd(
    const Eigen::MatrixX3d& v0,
    const Eigen::MatrixX3d& v1,
    const Eigen::MatrixX2i& edges,
    const Eigen::MatrixX3i& faces,
    const MeshCcdOptions& options,
    MeshCcdWorkspace& workspace)
{
    check_mesh_motion(v0, v1, edges, faces);
    // The swept boxes' outward rounding, the never-coplanar certificate and the broad phase's sort and sweep
    // assume gradual underflow, on every oneTBB task (a caller's flush-to-zero mode made it miss contacts).
    return details::with_ieee_arithmetic(
        [&] { return contacts_in_ieee_arithmetic(v0, v1, edges, faces, options, *workspace.buffers_); });
}

} // namespace ccdkit
