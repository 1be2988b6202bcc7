// SPDX-License-Identifier: MIT
#pragma once

// Distances between static primitives (points, segments, triangles), as the vector between their closest
// points: `closest point of the first primitive - closest point of the second`; its norm is the distance.
// Templates on the scalar so that tests can evaluate the same definitions in higher precision.
//
// Every function picks its answer among genuine pairs of points of the two primitives, so in floating point
// the result is never much shorter than the true distance; near-degenerate primitives (slivers, nearly
// parallel segments) may make it slightly longer. Callers that need a certified bound (additive CCD) derive
// one from the direction (narrow/additive_ccd.cpp), not from the length.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>

namespace ccdkit {

template <class Scalar, int Dim> using PointOf = Eigen::Matrix<Scalar, Dim, 1>;

/// The closest parameter of a segment e0 + s e from (p - e0).e and |e|^2: s in [0, 1]; 0 for a zero-length
/// segment. For callers that have both products at hand already.
template <class Scalar>
[[nodiscard]] Scalar segment_closest_parameter(const Scalar& projection, const Scalar& length_squared)
{
    if (!(length_squared > Scalar(0))) {
        return Scalar(0);
    }
    return std::clamp(projection / length_squared, Scalar(0), Scalar(1));
}

/// Parameter s in [0, 1] of the point e0 + s (e1 - e0) of a segment closest to `p`; 0 for a zero-length
/// segment.
template <class Scalar, int Dim>
[[nodiscard]] Scalar point_edge_closest_parameter(
    const PointOf<Scalar, Dim>& p, const PointOf<Scalar, Dim>& e0, const PointOf<Scalar, Dim>& e1)
{
    const PointOf<Scalar, Dim> e = e1 - e0;
    return segment_closest_parameter<Scalar>((p - e0).dot(e), e.squaredNorm());
}

/// p - (closest point of the segment e0 e1). Always inlined: additive CCD calls it up to five times per bound, and
/// as a call it cost 4-5% of a pair (callgrind).
template <class Scalar, int Dim>
[[nodiscard, gnu::always_inline]] inline PointOf<Scalar, Dim>
point_edge_closest_offset(const PointOf<Scalar, Dim>& p, const PointOf<Scalar, Dim>& e0, const PointOf<Scalar, Dim>& e1)
{
    const Scalar s = point_edge_closest_parameter(p, e0, e1);
    return p - (e0 + s * (e1 - e0));
}

/// p - (closest point of the triangle t0 t1 t2), in 3D. The squared distance is convex over the triangle:
/// its minimum is the projection onto the plane when that lies inside, else on one of the three sides. The
/// sides are always tried too and the shortest kept: for a nearly collapsed triangle the computed projection
/// can land "inside" while far from the true closest point. The projection runs along the sides' cross product
/// and is inside where it lies on the inner side of each side (cross products again), not by barycentric
/// coordinates from the sides' Gram determinant: on a sliver (a needle's face, 1e-5 across and 1 long) that
/// determinant loses most of its digits to cancellation, and a point over the face near a long side was put
/// outside, its distance taken to the side (twice the true one, 2.8e-7 for 1.4e-7).
template <class Scalar>
[[nodiscard]] PointOf<Scalar, 3> point_triangle_closest_offset(
    const PointOf<Scalar, 3>& p,
    const PointOf<Scalar, 3>& t0,
    const PointOf<Scalar, 3>& t1,
    const PointOf<Scalar, 3>& t2)
{
    PointOf<Scalar, 3> best = point_edge_closest_offset(p, t0, t1);
    const auto keep = [&best](const PointOf<Scalar, 3>& candidate) {
        if (candidate.squaredNorm() < best.squaredNorm()) {
            best = candidate;
        }
    };
    keep(point_edge_closest_offset(p, t1, t2));
    keep(point_edge_closest_offset(p, t2, t0));
    const PointOf<Scalar, 3> e1 = t1 - t0, e2 = t2 - t0, r = p - t0;
    const PointOf<Scalar, 3> normal = e1.cross(e2);
    const Scalar length_squared = normal.squaredNorm();
    if (length_squared > Scalar(0)) {
        const PointOf<Scalar, 3> along = (r.dot(normal) / length_squared) * normal;
        const PointOf<Scalar, 3> q = r - along; // the projection, from t0
        if (e1.cross(q).dot(normal) >= Scalar(0) && (e2 - e1).cross(q - e1).dot(normal) >= Scalar(0)
            && q.cross(e2).dot(normal) >= Scalar(0)) {
            keep(along);
        }
    }
    return best;
}

/// The closest pair of points of two segments: ea0 + s (ea1 - ea0) and eb0 + u (eb1 - eb0), and their
/// difference (a minus b).
template <class Scalar, int Dim> struct SegmentClosestPair {
    Scalar s = Scalar(0);
    Scalar u = Scalar(0);
    PointOf<Scalar, Dim> offset;
};

/// The closest pair of points of segments ea and eb, in any dimension. The squared distance is convex over the
/// square of segment parameters: its minimum is the lines' closest pair when that lies in the square, else on
/// the square's boundary, i.e. an endpoint against the other segment. Every candidate is computed and the
/// shortest kept, which keeps nearly parallel segments accurate.
template <class Scalar, int Dim>
[[nodiscard]] SegmentClosestPair<Scalar, Dim> edge_edge_closest_pair(
    const PointOf<Scalar, Dim>& ea0,
    const PointOf<Scalar, Dim>& ea1,
    const PointOf<Scalar, Dim>& eb0,
    const PointOf<Scalar, Dim>& eb1)
{
    const auto endpoint_of_a = [&](const PointOf<Scalar, Dim>& p, Scalar s) {
        const Scalar u = point_edge_closest_parameter(p, eb0, eb1);
        return SegmentClosestPair<Scalar, Dim> { s, u, p - (eb0 + u * (eb1 - eb0)) };
    };
    const auto endpoint_of_b = [&](const PointOf<Scalar, Dim>& p, Scalar u) {
        const Scalar s = point_edge_closest_parameter(p, ea0, ea1);
        return SegmentClosestPair<Scalar, Dim> { s, u, -(p - (ea0 + s * (ea1 - ea0))) };
    };
    SegmentClosestPair<Scalar, Dim> best = endpoint_of_a(ea0, Scalar(0));
    const auto keep = [&best](const SegmentClosestPair<Scalar, Dim>& candidate) {
        if (candidate.offset.squaredNorm() < best.offset.squaredNorm()) {
            best = candidate;
        }
    };
    keep(endpoint_of_a(ea1, Scalar(1)));
    keep(endpoint_of_b(eb0, Scalar(0)));
    keep(endpoint_of_b(eb1, Scalar(1)));
    const PointOf<Scalar, Dim> da = ea1 - ea0, db = eb1 - eb0, r = ea0 - eb0;
    const Scalar a = da.dot(da), b = da.dot(db), c = db.dot(db), d = da.dot(r), e = db.dot(r);
    const Scalar det = a * c - b * b;
    if (det > Scalar(0)) {
        const Scalar s = (b * e - c * d) / det, u = (a * e - b * d) / det;
        if (s >= Scalar(0) && s <= Scalar(1) && u >= Scalar(0) && u <= Scalar(1)) {
            keep({ s, u, r + s * da - u * db });
        }
    }
    return best;
}

/// (closest point of segment ea) - (closest point of segment eb): edge_edge_closest_pair's offset.
template <class Scalar, int Dim>
[[nodiscard]] PointOf<Scalar, Dim> edge_edge_closest_offset(
    const PointOf<Scalar, Dim>& ea0,
    const PointOf<Scalar, Dim>& ea1,
    const PointOf<Scalar, Dim>& eb0,
    const PointOf<Scalar, Dim>& eb1)
{
    return edge_edge_closest_pair(ea0, ea1, eb0, eb1).offset;
}

} // namespace ccdkit
