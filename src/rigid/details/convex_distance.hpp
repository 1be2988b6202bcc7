// SPDX-License-Identifier: MIT
#pragma once

// The distance between the convex hulls of two point sets by GJK (Gilbert, Johnson & Keerthi 1988), in plain
// double. Callers use its direction, where any unit direction n gives the certified bound
// dist(hull P, hull Q) >= min_P n.p - max_Q n.q (evaluated with an error bound elsewhere), and its overlap
// verdict only once certain_overlap.hpp has proved it: rounding here costs speed, never correctness.

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>

namespace ccdkit::details {

/// The simplex GJK ended with, as indices of its points in P and Q: called again on the same sets moved a little,
/// GJK starts from it and usually stops after one support query (warm start).
struct HullSimplex {
    std::array<std::array<std::uint32_t, 2>, 4> ids {}; ///< (index in P, index in Q) per vertex
    int size = 0; ///< 0: no simplex yet
    /// Set by a call that ends with the origin inside the tetrahedron (size 4) when every side test there cleared
    /// its rounding (inside_margin_clears): the hulls certainly overlap. False otherwise, whatever the verdict.
    bool certainly_inside = false;
};

/// Whether side tests of the origin against a tetrahedron of Minkowski-difference points, computed in double as
/// convex_hull_offset computes them, are certain: each is n.x with n = (b - a) x (c - a) and x = -a or d - a, of
/// points whose coordinates are at most `largest` in magnitude (each the rounded difference p - q of two inputs,
/// within one rounding of the exact one). Its terms are bounded by 48 largest^3; the evaluation's six roundings
/// and the points' own (relative u each, three factors) move it by at most (6 + 3) u 48 largest^3 < 2^-44
/// largest^3, which `margin` (the least |side|) must exceed. Far from 1 in size (underflow, overflow), none are.
[[nodiscard]] inline bool inside_margin_clears(double margin, double largest)
{
    return largest >= 0x1p-300 && largest <= 0x1p300 && margin > 0x1p-44 * (largest * largest * largest);
}

/// Point of the Minkowski difference P - Q closest to the origin (approximately); zero when the hulls (may)
/// overlap: `simplex` then holds the tetrahedron found around the origin (size 4; as computed in double, which
/// proves nothing: certain_overlap.hpp), or the simplex whose closest point rounded to zero. GJK starts from `simplex`
/// when it holds one (the previous call's, on the sets moved since), else from the first guess `start` of that point
/// (the previous answer works well); `simplex` holds the final one after. It stops once the separation along the answer
/// v is within `relative_progress` of |v| (>= the distance): the default 5% lets advancement step at least 95% as far
/// as the exact distance would.
[[nodiscard]] inline Eigen::Vector3d convex_hull_offset(
    std::span<const Eigen::Vector3d> p,
    std::span<const Eigen::Vector3d> q,
    HullSimplex& simplex,
    const Eigen::Vector3d& start = Eigen::Vector3d::Zero(),
    double relative_progress = 0.05)
{
    using Ids = std::array<std::uint32_t, 2>;
    const auto support = [&](const Eigen::Vector3d& d) -> Ids {
        // argmax over P of d.p and argmin over Q of d.q: the farthest point of P - Q along d.
        std::uint32_t best_p = 0, best_q = 0;
        double high = d.dot(p[0]), low = d.dot(q[0]);
        for (std::uint32_t k = 1; k < p.size(); ++k) {
            const double v = d.dot(p[k]);
            if (v > high) {
                high = v;
                best_p = k;
            }
        }
        for (std::uint32_t k = 1; k < q.size(); ++k) {
            const double v = d.dot(q[k]);
            if (v < low) {
                low = v;
                best_q = k;
            }
        }
        return { best_p, best_q };
    };

    auto& ids = simplex.ids;
    int& size = simplex.size;
    simplex.certainly_inside = false;
    std::array<Eigen::Vector3d, 4> points;
    const auto point_of = [&](const Ids& id) -> Eigen::Vector3d { return p[id[0]] - q[id[1]]; };
    // Closest point of the simplex to the origin, keeping only the vertices that support it (Voronoi regions).
    // `newest` is the vertex just added (the closest point of a tetrahedron involves it), or -1 for a warm start.
    // Returns false when the origin lies inside the tetrahedron.
    // Zero ("may overlap", the conservative answer) until a closest point is found: a face whose closest point's
    // squared norm is not below infinity (overflow, NaN) sets none.
    Eigen::Vector3d v = Eigen::Vector3d::Zero();
    const auto reduce = [&](int newest) -> bool {
        std::array<double, 4> weight {};
        const auto segment = [&](int i, int j) {
            const Eigen::Vector3d& a = points[static_cast<std::size_t>(i)];
            const Eigen::Vector3d ab = points[static_cast<std::size_t>(j)] - a;
            const double denominator = ab.squaredNorm();
            const double t = denominator > 0.0 ? std::clamp(-a.dot(ab) / denominator, 0.0, 1.0) : 0.0;
            return std::pair<Eigen::Vector3d, double>(a + t * ab, t);
        };
        if (size == 1) {
            v = points[0];
            return true;
        }
        if (size == 2) {
            const auto [point, t] = segment(0, 1);
            v = point;
            weight = { 1.0 - t, t, 0.0, 0.0 };
        } else {
            // Triangle (or each face of a tetrahedron): the closest point among the faces, or the origin when it
            // lies inside the tetrahedron.
            double best = std::numeric_limits<double>::infinity();
            const auto try_triangle = [&](int i, int j, int k) {
                const Eigen::Vector3d& a = points[static_cast<std::size_t>(i)];
                const Eigen::Vector3d ab = points[static_cast<std::size_t>(j)] - a;
                const Eigen::Vector3d ac = points[static_cast<std::size_t>(k)] - a;
                const double d1 = -ab.dot(a), d2 = -ac.dot(a);
                const double aa = ab.squaredNorm(), bb = ac.squaredNorm(), ab_ac = ab.dot(ac);
                const double det = aa * bb - ab_ac * ab_ac;
                std::array<double, 4> w_local {};
                Eigen::Vector3d point = Eigen::Vector3d::Zero();
                // The barycentric test on the numerators (det > 0): the divisions only for a point inside.
                const double s_det = bb * d1 - ab_ac * d2, t_det = aa * d2 - ab_ac * d1;
                if (det > 0.0 && s_det >= 0.0 && t_det >= 0.0 && s_det + t_det <= det) {
                    const double s = s_det / det, t = t_det / det;
                    point = a + s * ab + t * ac;
                    w_local[static_cast<std::size_t>(i)] = 1.0 - s - t;
                    w_local[static_cast<std::size_t>(j)] = s;
                    w_local[static_cast<std::size_t>(k)] = t;
                } else {
                    // On a side: the closest of the three.
                    double side_best = std::numeric_limits<double>::infinity();
                    for (const auto& [x, y] : { std::pair { i, j }, std::pair { j, k }, std::pair { k, i } }) {
                        const auto [candidate, u] = segment(x, y);
                        if (candidate.squaredNorm() < side_best) {
                            side_best = candidate.squaredNorm();
                            point = candidate;
                            w_local = {};
                            w_local[static_cast<std::size_t>(x)] = 1.0 - u;
                            w_local[static_cast<std::size_t>(y)] = u;
                        }
                    }
                }
                if (point.squaredNorm() < best) {
                    best = point.squaredNorm();
                    v = point;
                    weight = w_local;
                }
            };
            if (size == 3) {
                try_triangle(0, 1, 2);
            } else {
                const Eigen::Vector3d& a = points[0];
                const double volume = (points[1] - a).dot((points[2] - a).cross(points[3] - a));
                // Per face (i, j, k; l the vertex opposite): the heights of the origin and of l over its plane.
                struct Sides {
                    double origin;
                    double opposite;
                };
                const auto sides_of = [&](int i, int j, int k, int l) {
                    const Eigen::Vector3d& o = points[static_cast<std::size_t>(i)];
                    const Eigen::Vector3d n
                        = (points[static_cast<std::size_t>(j)] - o).cross(points[static_cast<std::size_t>(k)] - o);
                    return Sides { n.dot(-o), n.dot(points[static_cast<std::size_t>(l)] - o) };
                };
                constexpr std::array<std::array<int, 4>, 4> FACES {
                    { { 0, 1, 2, 3 }, { 0, 1, 3, 2 }, { 0, 2, 3, 1 }, { 1, 2, 3, 0 } }
                };
                // Flat where a vertex lies on its opposite face's plane as computed: a repeated vertex (a stale
                // simplex's) zeroes two faces' normals while rounding leaves the volume nonzero, and the other two
                // faces (one triangle, both senses) then agree with any origin.
                std::array<Sides, 4> sides;
                bool flat = volume == 0.0;
                for (std::size_t f = 0; f < FACES.size(); ++f) {
                    sides[f] = sides_of(FACES[f][0], FACES[f][1], FACES[f][2], FACES[f][3]);
                    flat = flat || sides[f].opposite == 0.0;
                }
                const bool inside = !flat && std::all_of(sides.begin(), sides.end(), [](const Sides& s) {
                    return (s.origin >= 0.0) == (s.opposite >= 0.0);
                });
                if (inside) {
                    double margin = std::numeric_limits<double>::infinity(), largest = 0.0;
                    for (const Sides& side : sides) {
                        margin = std::min({ margin, std::abs(side.origin), std::abs(side.opposite) });
                    }
                    for (const Eigen::Vector3d& point : points) {
                        largest = std::max(largest, point.cwiseAbs().maxCoeff());
                    }
                    simplex.certainly_inside = inside_margin_clears(margin, largest);
                    return false; // the origin is inside: the hulls (may) overlap
                }
                // The closest point lies on a face with the origin strictly outside its plane (the normal cone there
                // holds that face's outward normal towards the origin), so faces with the origin strictly inside
                // are skipped; a flat tetrahedron tells no sides and tries them all. The origin lay beyond the old
                // face (0, 1, 2) along -v: the closest point involves the newest vertex (3).
                for (std::size_t f = newest < 0 ? 0 : 1; f < FACES.size(); ++f) {
                    // (Bitwise: the signs follow no pattern, and each short-circuit would be a branch.)
                    const bool origin_inside = ((sides[f].origin > 0.0) & (sides[f].opposite > 0.0))
                        | ((sides[f].origin < 0.0) & (sides[f].opposite < 0.0));
                    if (flat || !origin_inside) {
                        try_triangle(FACES[f][0], FACES[f][1], FACES[f][2]);
                    }
                }
            }
        }
        // Keep the supporting vertices only: each is copied down and kept by counting it (which are kept follows no
        // pattern, so no branch decides it).
        int kept = 0;
        for (int k = 0; k < size; ++k) {
            ids[static_cast<std::size_t>(kept)] = ids[static_cast<std::size_t>(k)];
            points[static_cast<std::size_t>(kept)] = points[static_cast<std::size_t>(k)];
            kept += weight[static_cast<std::size_t>(k)] > 0.0 ? 1 : 0;
        }
        size = std::max(kept, 1);
        return true;
    };

    if (size > 0) {
        for (int k = 0; k < size; ++k) {
            points[static_cast<std::size_t>(k)] = point_of(ids[static_cast<std::size_t>(k)]);
        }
        if (!reduce(-1)) {
            return Eigen::Vector3d::Zero(); // (the origin inside the tetrahedron held)
        }
    } else {
        const Eigen::Vector3d first = start.squaredNorm() > 0.0 ? start : Eigen::Vector3d(p[0] - q[0]);
        ids[0] = support(-first);
        points[0] = point_of(ids[0]);
        size = 1;
        v = points[0];
    }
    constexpr int MAX_ITERATIONS = 24;
    for (int iteration = 0; iteration < MAX_ITERATIONS; ++iteration) {
        const double length_squared = v.squaredNorm();
        if (length_squared == 0.0) {
            return v;
        }
        const Ids next = support(-v);
        const Eigen::Vector3d w = point_of(next);
        if (length_squared - v.dot(w) <= relative_progress * length_squared) {
            return v; // w is no closer along v: v is (nearly) the closest point
        }
        for (int k = 0; k < size; ++k) {
            if (points[static_cast<std::size_t>(k)] == w) {
                return v; // a support point already held: rounding makes GJK cycle near contact
            }
        }
        ids[static_cast<std::size_t>(size)] = next;
        points[static_cast<std::size_t>(size++)] = w;
        if (!reduce(size - 1)) {
            return Eigen::Vector3d::Zero(); // (the origin inside the tetrahedron held)
        }
    }
    return v;
}

/// GJK from a first guess `start` of the closest point (see above), without a simplex kept.
[[nodiscard]] inline Eigen::Vector3d
convex_hull_offset(std::span<const Eigen::Vector3d> p, std::span<const Eigen::Vector3d> q, const Eigen::Vector3d& start)
{
    HullSimplex simplex;
    return convex_hull_offset(p, q, simplex, start);
}

} // namespace ccdkit::details
