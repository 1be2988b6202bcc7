// SPDX-License-Identifier: MIT
#pragma once

// The polynomials in t whose signs decide a vertex-face or edge-edge query under linear motion. They are
// written once, generic in the arithmetic (plain, filtered or exact) and in the basis (see Poly), and used by
// every stage: the Bernstein filters, the exact fallback and bsc-float.

#include <ccdkit/core/polynomial.hpp>

#include <array>
#include <cstddef>
#include <utility>

namespace ccdkit::details {

/// The four moving points of a query, each with degree-D polynomial coordinates.
/// Vertex-face: p, t0, t1, t2. Edge-edge: ea0, ea1, eb0, eb1.
template <class T, int D> using QueryPoints = std::array<PolyVec3<T, D>, 4>;

/// Point-on-segment test q in [x, y] as polynomials: it holds iff `collinear == 0` and `between <= 0`, where
/// side = (q-x) x (q-y), collinear = |side|^2 and between = (q-x).(q-y). Also right for x == y (then q must
/// equal x).
template <class T, int D> struct PointOnSegment {
    PolyVec3<T, 2 * D> side;
    Poly<T, 4 * D> collinear;
    Poly<T, 2 * D> between;
};

/// Signs of the inside terms at a root of the coplanarity polynomial as a floating-point stage certified them
/// (0 where it could not), for the exact stage to reuse. The inside terms are multiples of the normal (n or m
/// below), so one nonzero sign among them also proves the nondegenerate term positive.
struct CertifiedTermSigns {
    bool evaluated = false; ///< whether the stage got as far as evaluating the inside terms there
    std::array<int, 4> inside {}; ///< valid only with `evaluated`
};

template <class T, int D>
PointOnSegment<T, D> point_on_segment(const PolyVec3<T, D>& q, const PolyVec3<T, D>& x, const PolyVec3<T, D>& y)
{
    const PolyVec3<T, D> qx = q - x;
    const PolyVec3<T, D> qy = q - y;
    const auto side = cross(qx, qy);
    return { side, dot(side, side), dot(qx, qy) };
}

/// Every inside term of Terms, in order (Terms::visit_inside, not stopped).
template <class Terms, class T, int D>
std::array<Poly<T, 4 * D>, Terms::INSIDE_COUNT> all_terms(const QueryPoints<T, D>& x, const PolyVec3<T, 2 * D>& n)
{
    std::array<Poly<T, 4 * D>, Terms::INSIDE_COUNT> terms;
    std::size_t i = 0;
    Terms::visit_inside(x, n, [&](auto&& g) {
        terms[i++] = std::forward<decltype(g)>(g);
        return true;
    });
    return terms;
}

struct VertexFaceTerms {
    static constexpr int FIRST_PRIMITIVE_POINTS = 1; ///< the vertex; then the triangle's corners
    static constexpr int INSIDE_COUNT = 3;
    static constexpr int SEGMENT_COUNT = 3;

    /// n = (t1 - t0) x (t2 - t0), the triangle's normal times twice its area; every term below uses it.
    template <class T, int D> static PolyVec3<T, 2 * D> normal(const QueryPoints<T, D>& x)
    {
        return cross(x[2] - x[1], x[3] - x[1]);
    }

    /// det[t1 - t0, t2 - t0, p - t0] = n.(p - t0): zero iff the four points are coplanar.
    template <class T, int D> static Poly<T, 3 * D> coplanarity(const QueryPoints<T, D>& x, const PolyVec3<T, 2 * D>& n)
    {
        return dot(n, x[0] - x[1]);
    }

    /// At a coplanar time, all three positive iff p is strictly inside the triangle. Each is a barycentric
    /// weight times |n|^2; they are all zero for a collapsed triangle.
    template <class T, int D>
    static std::array<Poly<T, 4 * D>, INSIDE_COUNT> inside(const QueryPoints<T, D>& x, const PolyVec3<T, 2 * D>& n)
    {
        return all_terms<VertexFaceTerms, T, D>(x, n);
    }

    /// The inside terms one by one, in the order of `inside`, while `visit(term)` returns true: a caller that
    /// stops at the first negative one computes no more.
    template <class T, int D, class Visit>
    static void visit_inside(const QueryPoints<T, D>& x, const PolyVec3<T, 2 * D>& n, Visit visit)
    {
        const auto& p = x[0];
        for (int i = 0; i < INSIDE_COUNT; ++i) {
            const auto& a = x[1 + i];
            const auto& b = x[1 + (i + 1) % INSIDE_COUNT];
            if (!visit(dot(cross(b - a, p - a), n))) {
                return;
            }
        }
    }

    /// |n|^2: positive iff the triangle is not collapsed.
    template <class T, int E> static Poly<T, 2 * E> nondegenerate(const PolyVec3<T, E>& n) { return dot(n, n); }

    /// A collapsed triangle is the union of its three sides: p on one of them.
    template <class T, int D>
    static std::array<PointOnSegment<T, D>, SEGMENT_COUNT> on_segments(const QueryPoints<T, D>& x)
    {
        return { point_on_segment(x[0], x[1], x[2]), point_on_segment(x[0], x[2], x[3]),
                 point_on_segment(x[0], x[3], x[1]) };
    }
};

struct EdgeEdgeTerms {
    static constexpr int FIRST_PRIMITIVE_POINTS = 2; ///< edge a's ends; then edge b's
    static constexpr int INSIDE_COUNT = 4;
    static constexpr int SEGMENT_COUNT = 4;

    /// m = da x db, da = ea1 - ea0, db = eb1 - eb0; every term below uses it.
    template <class T, int D> static PolyVec3<T, 2 * D> normal(const QueryPoints<T, D>& x)
    {
        return cross(x[1] - x[0], x[3] - x[2]);
    }

    /// det[da, db, eb0 - ea0] = m.(eb0 - ea0): zero iff the four points are coplanar.
    template <class T, int D> static Poly<T, 3 * D> coplanarity(const QueryPoints<T, D>& x, const PolyVec3<T, 2 * D>& m)
    {
        return dot(m, x[2] - x[0]);
    }

    /// At a coplanar time with m != 0, the lines meet at ea0 + s da = eb0 + u db with
    /// s |m|^2 = ((eb0 - ea0) x db).m and u |m|^2 = ((eb0 - ea0) x da).m. All four positive iff 0 < s, u < 1.
    template <class T, int D>
    static std::array<Poly<T, 4 * D>, INSIDE_COUNT> inside(const QueryPoints<T, D>& x, const PolyVec3<T, 2 * D>& m)
    {
        return all_terms<EdgeEdgeTerms, T, D>(x, m);
    }

    /// The inside terms one by one, in the order of `inside`, while `visit(term)` returns true: a caller that
    /// stops at a negative s or 1 - s computes no u.
    template <class T, int D, class Visit>
    static void visit_inside(const QueryPoints<T, D>& x, const PolyVec3<T, 2 * D>& m, Visit visit)
    {
        const auto w = x[2] - x[0];
        const auto mm = dot(m, m);
        const auto s = dot(cross(w, x[3] - x[2]), m);
        if (!visit(s) || !visit(mm - s)) {
            return;
        }
        const auto u = dot(cross(w, x[1] - x[0]), m);
        if (visit(u)) {
            visit(mm - u);
        }
    }

    /// |m|^2: positive iff the edges are neither parallel nor of zero length.
    template <class T, int E> static Poly<T, 2 * E> nondegenerate(const PolyVec3<T, E>& m) { return dot(m, m); }

    /// Parallel or zero-length edges touch iff an endpoint of one lies on the other.
    template <class T, int D>
    static std::array<PointOnSegment<T, D>, SEGMENT_COUNT> on_segments(const QueryPoints<T, D>& x)
    {
        return { point_on_segment(x[0], x[2], x[3]), point_on_segment(x[1], x[2], x[3]),
                 point_on_segment(x[2], x[0], x[1]), point_on_segment(x[3], x[0], x[1]) };
    }
};

/// The terms that need only the points, for callers that use one of them.
template <class Terms, class T, int D> Poly<T, 3 * D> coplanarity(const QueryPoints<T, D>& x)
{
    return Terms::coplanarity(x, Terms::normal(x));
}
template <class Terms, class T, int D> auto inside(const QueryPoints<T, D>& x)
{
    return Terms::inside(x, Terms::normal(x));
}

} // namespace ccdkit::details
