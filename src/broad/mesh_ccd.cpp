// SPDX-License-Identifier: MIT
#include <ccdkit/broad/aabb.hpp>
#include <ccdkit/broad/mesh_ccd.hpp>
#include <ccdkit/broad/spatial_order.hpp>
#include <ccdkit/narrow/edge_edge_ccd.hpp>
#include <ccdkit/narrow/spacetime_ccd.hpp>
#include <ccdkit/narrow/vertex_face_ccd.hpp>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <span>
#include <stdexcept>
#include <string>

namespace ccdkit {

namespace {
    using Pair = std::pair<std::int32_t, std::int32_t>;
    using Clock = std::chrono::steady_clock;

    double elapsed_ms(Clock::time_point since)
    {
        return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
    }

    /// Boxes in spatial_order(), with the way back to the input numbering.
    struct SortedBoxes {
        explicit SortedBoxes(const std::vector<Aabb>& input)
            : order(spatial_order(input))
            , boxes(input.size())
        {
            for (std::size_t k = 0; k < order.size(); ++k) {
                boxes[k] = input[static_cast<std::size_t>(order[k])];
            }
        }
        [[nodiscard]] std::int32_t original(std::int32_t sorted) const
        {
            return order[static_cast<std::size_t>(sorted)];
        }

        std::vector<std::int32_t> order; ///< order[k]: input index of boxes[k]
        std::vector<Aabb> boxes;
    };

    /// Builds the broad phase on `built`, queries `queries` block by block, and hands each block's
    /// candidate pairs (query index, built index) to `narrow` before the next block.
    template <class Narrow>
    void for_each_candidate_block(
        const std::vector<Aabb>& built,
        const std::vector<Aabb>& queries,
        QueryScope scope,
        const MeshCcdOptions& options,
        MeshCcdResult& result,
        double progress_from,
        double progress_span,
        Narrow narrow)
    {
        auto start = Clock::now();
        const std::unique_ptr<BroadPhase> broad = make_broad_phase(options.broad_phase);
        broad->build(built);
        result.broad_phase_bytes = std::max(result.broad_phase_bytes, broad->memory_bytes());
        result.broad_phase_ms += elapsed_ms(start);
        const std::size_t block = std::max<std::size_t>(options.block_size, 1);
        for (std::size_t first = 0; first < queries.size(); first += block) {
            const std::size_t count = std::min(block, queries.size() - first);
            start = Clock::now();
            // Query sub-blocks in parallel; each thread collects into its own vector.
            tbb::enumerable_thread_specific<std::vector<Pair>> local;
            tbb::parallel_for(
                tbb::blocked_range<std::size_t>(first, first + count, 1024),
                [&](const tbb::blocked_range<std::size_t>& r) {
                    broad->query(
                        std::span<const Aabb>(queries).subspan(r.begin(), r.size()), r.begin(), local.local(), scope);
                });
            std::vector<Pair> candidates;
            for (auto& v : local) {
                candidates.insert(candidates.end(), v.begin(), v.end());
            }
            result.broad_phase_ms += elapsed_ms(start);
            start = Clock::now();
            narrow(candidates);
            result.narrow_phase_ms += elapsed_ms(start);
            if (options.progress) {
                options.progress(
                    progress_from
                    + progress_span * static_cast<double>(first + count) / static_cast<double>(queries.size()));
            }
        }
    }

    /// Runs `test(pair) -> optional<Hit>` over the pairs in parallel and appends the hits.
    template <class Hit, class Test>
    void narrow_phase(const std::vector<Pair>& pairs, std::vector<Hit>& hits, Test test)
    {
        tbb::enumerable_thread_specific<std::vector<Hit>> local;
        tbb::parallel_for(
            tbb::blocked_range<std::size_t>(0, pairs.size(), 256), [&](const tbb::blocked_range<std::size_t>& r) {
                auto& out = local.local();
                for (std::size_t i = r.begin(); i != r.end(); ++i) {
                    if (const auto hit = test(pairs[i])) {
                        out.push_back(*hit);
                    }
                }
            });
        for (auto& v : local) {
            hits.insert(hits.end(), v.begin(), v.end());
        }
    }
} // namespace

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
    const auto check_indices = [&](const auto& m, const char* what) {
        for (Eigen::Index r = 0; r < m.rows(); ++r) {
            for (Eigen::Index c = 0; c < m.cols(); ++c) {
                if (m(r, c) < 0 || m(r, c) >= v0.rows()) {
                    throw std::invalid_argument(
                        "mesh_ccd: " + std::string(what) + " " + std::to_string(r) + " has vertex index "
                        + std::to_string(m(r, c)) + " out of range (" + std::to_string(v0.rows()) + " vertices)");
                }
            }
        }
    };
    check_indices(edges, "edge");
    check_indices(faces, "face");
}

MeshCcdResult mesh_ccd(
    const Eigen::MatrixX3d& v0,
    const Eigen::MatrixX3d& v1,
    const Eigen::MatrixX2i& edges,
    const Eigen::MatrixX3i& faces,
    const MeshCcdOptions& options)
{
    check_mesh_motion(v0, v1, edges, faces);
    MeshCcdResult result;
    const double inflation = 0.0;
    auto start = Clock::now();
    // Primitives are handed to the broad phase in a spatial order, so that consecutive queries touch the
    // same parts of the structure; pairs are mapped back to the input numbering before the narrow phase.
    const SortedBoxes vertices_sorted(vertex_boxes(v0, v1, inflation));
    const SortedBoxes edges_sorted(edge_boxes(v0, v1, edges, inflation));
    const SortedBoxes faces_sorted(face_boxes(v0, v1, faces, inflation));
    result.broad_phase_ms += elapsed_ms(start);
    const auto p0 = [&](Eigen::Index i) -> Eigen::Vector3d { return v0.row(i).transpose(); };
    const auto p1 = [&](Eigen::Index i) -> Eigen::Vector3d { return v1.row(i).transpose(); };

    for_each_candidate_block(
        faces_sorted.boxes, vertices_sorted.boxes, QueryScope::ALL_PAIRS, options, result, 0.0, 0.5,
        [&](std::vector<Pair>& pairs) {
            for (Pair& p : pairs) {
                p = { vertices_sorted.original(p.first), faces_sorted.original(p.second) };
            }
            // A vertex is never tested against a face it belongs to.
            std::erase_if(pairs, [&](const Pair& p) {
                const auto f = faces.row(p.second);
                return f[0] == p.first || f[1] == p.first || f[2] == p.first;
            });
            result.vertex_face_candidates += pairs.size();
            narrow_phase(pairs, result.vertex_face, [&](const Pair& p) -> std::optional<VertexFaceHit> {
                const auto f = faces.row(p.second);
                const VertexFaceMotion motion { p0(p.first), p0(f[0]), p0(f[1]), p0(f[2]),
                                                p1(p.first), p1(f[0]), p1(f[1]), p1(f[2]) };
                // Space-time CCD splits swept quads by vertex id: the mesh's ids keep the splits consistent.
                const CcdResult r = options.narrow.method == CcdMethod::SPACETIME
                    ? spacetime_vertex_face_ccd(motion, { p.first, f[0], f[1], f[2] }, options.narrow)
                    : vertex_face_ccd(motion, options.narrow);
                if (!r.hit) {
                    return std::nullopt;
                }
                return VertexFaceHit { p.first, p.second, r.toi_lower, r.toi_upper };
            });
        });
    for_each_candidate_block(
        edges_sorted.boxes, edges_sorted.boxes, QueryScope::SELF_PAIRS, options, result, 0.5, 0.5,
        [&](std::vector<Pair>& pairs) {
            for (Pair& p : pairs) {
                p = std::minmax(edges_sorted.original(p.first), edges_sorted.original(p.second));
            }
            // Never two edges that share a vertex (the broad phase gives each unordered pair once).
            std::erase_if(pairs, [&](const Pair& p) {
                const auto a = edges.row(p.first), b = edges.row(p.second);
                return a[0] == b[0] || a[0] == b[1] || a[1] == b[0] || a[1] == b[1];
            });
            result.edge_edge_candidates += pairs.size();
            narrow_phase(pairs, result.edge_edge, [&](const Pair& p) -> std::optional<EdgeEdgeHit> {
                const auto a = edges.row(p.first), b = edges.row(p.second);
                const EdgeEdgeMotion motion { p0(a[0]), p0(a[1]), p0(b[0]), p0(b[1]),
                                              p1(a[0]), p1(a[1]), p1(b[0]), p1(b[1]) };
                const CcdResult r = options.narrow.method == CcdMethod::SPACETIME
                    ? spacetime_edge_edge_ccd(motion, { a[0], a[1], b[0], b[1] }, options.narrow)
                    : edge_edge_ccd(motion, options.narrow);
                if (!r.hit) {
                    return std::nullopt;
                }
                return EdgeEdgeHit { p.first, p.second, r.toi_lower, r.toi_upper };
            });
        });

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

} // namespace ccdkit
