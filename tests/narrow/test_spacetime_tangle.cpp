// SPDX-License-Identifier: MIT
// Tangle-free property of space-time CCD: when a triangle mesh that is intersection-free at t = 0 moves over a
// step and no vertex-face or edge-edge query between two triangles reports a collision, those triangles do not
// intersect at t = 1. This holds exactly for the space-time model, because the edge triangles of the edge-edge
// queries are the side faces of the prisms' tetrahedra (the space-time mesh has no cracks), whereas a
// conservative-in-time method with cracks between primitives could let a crossing slip through.
//
// Meshes: a few jittered height-field sheets stacked at different heights, randomly placed separate
// triangles, and coarse-grid versions of both (coordinates on multiples of 1/8, rich in exact coincidences).
// Each is checked intersection-free at t = 0 with the exact oracle, then moved by random displacements (small,
// large, sheets passing through each other). Every vertex-face and edge-edge pair that shares no vertex and
// whose swept boxes overlap is queried with the mesh's vertex ids; then every pair of triangles without a
// shared vertex whose queries all report no collision is checked exactly at t = 1.

#include "oracle/convex_hull_oracle.hpp"

#include <ccdkit/narrow/spacetime_ccd.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace ccdkit;
using Vec3 = Eigen::Vector3d;

namespace {

struct Mesh {
    std::vector<Vec3> x0, x1; ///< positions at t = 0 and t = 1
    std::vector<std::array<int, 3>> faces;
    std::vector<std::array<int, 2>> edges;
    std::vector<std::int64_t> ids;
};

enum class MeshKind { SHEETS, TRIANGLES, COARSE };

const char* mesh_kind_name(MeshKind kind)
{
    switch (kind) {
    case MeshKind::SHEETS:
        return "Sheets";
    case MeshKind::TRIANGLES:
        return "Triangles";
    default:
        return "Coarse";
    }
}

void PrintTo(MeshKind kind, std::ostream* out) { *out << mesh_kind_name(kind); }

/// Exact axis-aligned box of a few points (comparisons of doubles are exact).
struct Box {
    Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
    void add(const Vec3& p)
    {
        lo = lo.cwiseMin(p);
        hi = hi.cwiseMax(p);
    }
    bool overlaps(const Box& o) const
    {
        return (lo.array() <= o.hi.array()).all() && (o.lo.array() <= hi.array()).all();
    }
};

oracle::RationalPoints triangle_at(const Mesh& m, const std::vector<Vec3>& x, int f)
{
    oracle::RationalPoints out;
    for (const int v : m.faces[f]) {
        out.push_back({ oracle::to_rational(x[v][0]), oracle::to_rational(x[v][1]), oracle::to_rational(x[v][2]) });
    }
    return out;
}

bool share_vertex(const std::array<int, 3>& f, const std::array<int, 3>& g)
{
    for (const int a : f) {
        for (const int b : g) {
            if (a == b) {
                return true;
            }
        }
    }
    return false;
}

void collect_edges(Mesh& m)
{
    for (const auto& f : m.faces) {
        for (int k = 0; k < 3; ++k) {
            std::array<int, 2> e = { f[k], f[(k + 1) % 3] };
            if (e[0] > e[1]) {
                std::swap(e[0], e[1]);
            }
            m.edges.push_back(e);
        }
    }
    std::sort(m.edges.begin(), m.edges.end());
    m.edges.erase(std::unique(m.edges.begin(), m.edges.end()), m.edges.end());
}

/// Whether two triangles without a shared vertex intersect at the positions x (exact, after a box test).
bool triangles_intersect(const Mesh& m, const std::vector<Vec3>& x, int f, int g)
{
    Box a, b;
    for (const int v : m.faces[f]) {
        a.add(x[v]);
    }
    for (const int v : m.faces[g]) {
        b.add(x[v]);
    }
    return a.overlaps(b) && oracle::convex_hulls_intersect(triangle_at(m, x, f), triangle_at(m, x, g));
}

bool intersection_free(const Mesh& m, const std::vector<Vec3>& x)
{
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
        for (std::size_t g = f + 1; g < m.faces.size(); ++g) {
            if (!share_vertex(m.faces[f], m.faces[g])
                && triangles_intersect(m, x, static_cast<int>(f), static_cast<int>(g))) {
                return false;
            }
        }
    }
    return true;
}

class MeshGenerator {
public:
    explicit MeshGenerator(std::uint64_t seed)
        : rng_(seed)
    {
    }

    /// A mesh that is intersection-free at t = 0 (checked exactly; generation repeats until it is), moved.
    Mesh next(MeshKind kind, int& rejected)
    {
        for (;;) {
            Mesh m;
            if (kind == MeshKind::TRIANGLES || (kind == MeshKind::COARSE && pick(2) == 0)) {
                separate_triangles(m, kind == MeshKind::COARSE);
            } else {
                sheets(m);
            }
            if (kind == MeshKind::COARSE) {
                snap(m.x0);
            }
            collect_edges(m);
            if (!intersection_free(m, m.x0)) {
                ++rejected;
                continue;
            }
            move(m, kind == MeshKind::COARSE);
            assign_ids(m);
            return m;
        }
    }

private:
    std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
    double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
    Vec3 random_vector(double r) { return { uniform(-r, r), uniform(-r, r), uniform(-r, r) }; }

    static constexpr double GAP = 0.2; ///< height between sheets

    /// Two or three jittered height-field grids over the unit square, GAP apart: intersection-free as long as the
    /// jitter keeps the planar triangulation valid (checked anyway).
    void sheets(Mesh& m)
    {
        const int count = 2 + static_cast<int>(pick(2));
        const int n = 3 + static_cast<int>(pick(5)); // vertices per side
        const double h = 1.0 / (n - 1);
        for (int s = 0; s < count; ++s) {
            const int base = static_cast<int>(m.x0.size());
            for (int j = 0; j < n; ++j) {
                for (int i = 0; i < n; ++i) {
                    m.x0.emplace_back(
                        i * h + uniform(-0.2, 0.2) * h, j * h + uniform(-0.2, 0.2) * h,
                        s * GAP + uniform(-0.3, 0.3) * GAP);
                }
            }
            for (int j = 0; j + 1 < n; ++j) {
                for (int i = 0; i + 1 < n; ++i) {
                    const int a = base + j * n + i, b = a + 1, c = a + n, d = c + 1;
                    if (pick(2)) {
                        m.faces.push_back({ a, b, d });
                        m.faces.push_back({ a, d, c });
                    } else {
                        m.faces.push_back({ a, b, c });
                        m.faces.push_back({ b, d, c });
                    }
                }
            }
        }
    }

    /// Small triangles scattered in a box; one that meets an earlier one is dropped.
    void separate_triangles(Mesh& m, bool coarse)
    {
        const int count = 20 + static_cast<int>(pick(40));
        for (int attempt = 0; attempt < 4 * count && static_cast<int>(m.faces.size()) < count; ++attempt) {
            const Vec3 centre(uniform(0, 1), uniform(0, 1), uniform(0, 0.5));
            const double size = coarse ? uniform(0.15, 0.4) : uniform(0.05, 0.3);
            const int base = static_cast<int>(m.x0.size());
            for (int k = 0; k < 3; ++k) {
                m.x0.push_back(centre + random_vector(size));
            }
            if (coarse) {
                snap(m.x0);
            }
            m.faces.push_back({ base, base + 1, base + 2 });
            const int f = static_cast<int>(m.faces.size()) - 1;
            bool clear = true;
            for (int g = 0; g < f && clear; ++g) {
                clear = !triangles_intersect(m, m.x0, f, g);
            }
            if (!clear) {
                m.faces.pop_back();
                m.x0.resize(static_cast<std::size_t>(base));
            }
        }
    }

    /// Coordinates to multiples of 1/8 (exact coincidences: coplanar, collinear, touching).
    static void snap(std::vector<Vec3>& x)
    {
        for (auto& p : x) {
            p = (p * 8.0).array().round() / 8.0;
        }
    }

    void move(Mesh& m, bool coarse)
    {
        m.x1 = m.x0;
        // A per-component translation (sheets or triangles lumped by index), then per-vertex noise.
        const std::size_t mode = pick(4);
        const double noise = mode == 0 ? 0.01 : mode == 1 ? 0.05 : mode == 2 ? 0.15 : 0.5;
        const double drift = mode == 0 ? 0.0 : mode == 3 ? 0.3 : 1.5 * GAP;
        const std::size_t groups = 1 + pick(4);
        std::vector<Vec3> group_shift(groups);
        for (auto& s : group_shift) {
            s = Vec3(uniform(-0.3, 0.3) * drift, uniform(-0.3, 0.3) * drift, uniform(-1, 1) * drift);
        }
        for (std::size_t v = 0; v < m.x1.size(); ++v) {
            m.x1[v] += group_shift[(v * groups) / m.x1.size()] + random_vector(noise);
        }
        if (coarse) {
            snap(m.x1);
        }
    }

    void assign_ids(Mesh& m)
    {
        std::vector<std::int64_t> order;
        for (std::size_t v = 0; v < m.x0.size(); ++v) {
            order.push_back(static_cast<std::int64_t>(v));
        }
        std::shuffle(order.begin(), order.end(), rng_);
        m.ids = std::move(order);
        if (pick(2)) { // spread over the whole int64 range, order kept
            std::vector<std::int64_t> values(m.ids.size());
            for (auto& v : values) {
                v = static_cast<std::int64_t>(rng_());
            }
            std::sort(values.begin(), values.end());
            if (std::adjacent_find(values.begin(), values.end()) == values.end()) {
                for (auto& id : m.ids) {
                    id = values[static_cast<std::size_t>(id)];
                }
            }
        }
    }

    std::mt19937_64 rng_;
};

std::string hex(const Vec3& p)
{
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "{ %a, %a, %a }", p[0], p[1], p[2]);
    return buffer;
}

std::string describe_pair(const Mesh& m, int f, int g)
{
    std::string out = "triangles " + std::to_string(f) + " and " + std::to_string(g) + " intersect at t = 1:\n";
    for (const int face : { f, g }) {
        for (const int v : m.faces[face]) {
            out += "  vertex " + std::to_string(v) + " id " + std::to_string(m.ids[v]) + ": " + hex(m.x0[v]) + " -> "
                + hex(m.x1[v]) + "\n";
        }
    }
    return out;
}

struct Counts {
    int meshes = 0, rejected = 0, collision_free_meshes = 0;
    long queries = 0, hits = 0;
    long pairs = 0, intersecting_at_end = 0, collision_free_close_pairs = 0, failures = 0;
};

/// Runs the queries of one moved mesh and checks every triangle pair; returns the counts it adds.
void check_mesh(const Mesh& m, Counts& counts)
{
    const int V = static_cast<int>(m.x0.size()), F = static_cast<int>(m.faces.size()),
              E = static_cast<int>(m.edges.size());
    std::vector<Box> vertex_box(V), face_box(F), edge_box(E);
    for (int v = 0; v < V; ++v) {
        vertex_box[v].add(m.x0[v]);
        vertex_box[v].add(m.x1[v]);
    }
    for (int f = 0; f < F; ++f) {
        for (const int v : m.faces[f]) {
            face_box[f].add(m.x0[v]);
            face_box[f].add(m.x1[v]);
        }
    }
    for (int e = 0; e < E; ++e) {
        for (const int v : m.edges[e]) {
            edge_box[e].add(m.x0[v]);
            edge_box[e].add(m.x1[v]);
        }
    }
    // Queries whose swept boxes are disjoint cannot hit (every space-time simplex lies in its points' hull).
    std::vector<char> vf_hit(static_cast<std::size_t>(V) * F, 0), ee_hit(static_cast<std::size_t>(E) * E, 0);
    bool any_hit = false;
    for (int f = 0; f < F; ++f) {
        const auto& t = m.faces[f];
        for (int v = 0; v < V; ++v) {
            if (v == t[0] || v == t[1] || v == t[2] || !vertex_box[v].overlaps(face_box[f])) {
                continue;
            }
            const VertexFaceMotion motion { m.x0[v], m.x0[t[0]], m.x0[t[1]], m.x0[t[2]],
                                            m.x1[v], m.x1[t[0]], m.x1[t[1]], m.x1[t[2]] };
            const CcdResult r = spacetime_vertex_face_ccd(motion, { m.ids[v], m.ids[t[0]], m.ids[t[1]], m.ids[t[2]] });
            ASSERT_NE(r.status, CcdStatus::INVALID_INPUT);
            ++counts.queries;
            vf_hit[static_cast<std::size_t>(v) * F + f] = r.hit;
            any_hit |= r.hit;
        }
    }
    for (int a = 0; a < E; ++a) {
        for (int b = a + 1; b < E; ++b) {
            const auto& ea = m.edges[a];
            const auto& eb = m.edges[b];
            if (ea[0] == eb[0] || ea[0] == eb[1] || ea[1] == eb[0] || ea[1] == eb[1]
                || !edge_box[a].overlaps(edge_box[b])) {
                continue;
            }
            const EdgeEdgeMotion motion { m.x0[ea[0]], m.x0[ea[1]], m.x0[eb[0]], m.x0[eb[1]],
                                          m.x1[ea[0]], m.x1[ea[1]], m.x1[eb[0]], m.x1[eb[1]] };
            const CcdResult r
                = spacetime_edge_edge_ccd(motion, { m.ids[ea[0]], m.ids[ea[1]], m.ids[eb[0]], m.ids[eb[1]] });
            ASSERT_NE(r.status, CcdStatus::INVALID_INPUT);
            ++counts.queries;
            ee_hit[static_cast<std::size_t>(a) * E + b] = ee_hit[static_cast<std::size_t>(b) * E + a] = r.hit;
            any_hit |= r.hit;
        }
    }
    const auto edge_index = [&m](int u, int w) {
        const std::array<int, 2> e = { std::min(u, w), std::max(u, w) };
        return static_cast<std::size_t>(std::lower_bound(m.edges.begin(), m.edges.end(), e) - m.edges.begin());
    };
    for (int f = 0; f < F; ++f) {
        for (int g = f + 1; g < F; ++g) {
            const auto& tf = m.faces[f];
            const auto& tg = m.faces[g];
            if (share_vertex(tf, tg)) {
                continue;
            }
            ++counts.pairs;
            bool reported = false;
            for (int k = 0; k < 3 && !reported; ++k) {
                reported = vf_hit[static_cast<std::size_t>(tf[k]) * F + g]
                    || vf_hit[static_cast<std::size_t>(tg[k]) * F + f];
                for (int l = 0; l < 3 && !reported; ++l) {
                    reported = ee_hit[edge_index(tf[k], tf[(k + 1) % 3]) * E + edge_index(tg[l], tg[(l + 1) % 3])];
                }
            }
            Box end_f, end_g;
            for (int k = 0; k < 3; ++k) {
                end_f.add(m.x1[tf[k]]);
                end_g.add(m.x1[tg[k]]);
            }
            if (!end_f.overlaps(end_g)) {
                continue;
            }
            const bool intersect = triangles_intersect(m, m.x1, f, g);
            counts.intersecting_at_end += intersect;
            if (!reported) {
                ++counts.collision_free_close_pairs;
                if (intersect) {
                    ++counts.failures;
                    ADD_FAILURE() << "no collision reported, yet " << describe_pair(m, f, g);
                }
            }
        }
    }
    counts.hits += any_hit;
    counts.collision_free_meshes += !any_hit;
}

class SpacetimeTangle : public ::testing::TestWithParam<MeshKind> { };

} // namespace

TEST_P(SpacetimeTangle, NoReportedCollisionMeansNoIntersection)
{
    const MeshKind kind = GetParam();
    MeshGenerator generator(0x7a9c1e00U + static_cast<std::uint64_t>(kind));
    Counts counts;
    const int meshes = 300;
    for (int i = 0; i < meshes && counts.failures < 5; ++i) {
        const Mesh m = generator.next(kind, counts.rejected);
        ++counts.meshes;
        check_mesh(m, counts);
    }
    std::printf(
        "%d meshes (%d rejected as intersecting at t = 0), %d without any reported collision; %ld queries; "
        "%ld triangle pairs without a shared vertex: %ld intersecting at t = 1 (all reported), %ld close at t = 1 "
        "with no collision reported (all checked apart)\n",
        counts.meshes, counts.rejected, counts.collision_free_meshes, counts.queries, counts.pairs,
        counts.intersecting_at_end, counts.collision_free_close_pairs);
    EXPECT_EQ(counts.failures, 0);
    // Not vacuous: many pairs end up intersecting (each must have been reported), many close pairs report no
    // collision (each was checked), and some whole meshes report none.
    EXPECT_GE(counts.intersecting_at_end, 200);
    EXPECT_GE(counts.collision_free_close_pairs, 1000);
    EXPECT_GE(counts.collision_free_meshes, 5);
}

INSTANTIATE_TEST_SUITE_P(
    Meshes,
    SpacetimeTangle,
    ::testing::Values(MeshKind::SHEETS, MeshKind::TRIANGLES, MeshKind::COARSE),
    [](const auto& param_info) { return std::string(mesh_kind_name(param_info.param)); });
