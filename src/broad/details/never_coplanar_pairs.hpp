// SPDX-License-Identifier: MIT
#pragma once

// The narrow phase's never-coplanar certificate (narrow/details/coplanarity_prefilter.hpp) for the candidate
// pairs of one mesh, with what depends on one primitive computed once: an edge's direction, a face's normal
// as a quadratic in time. Most candidate pairs are settled here at a fraction of a narrow-phase query's cost
// (no query to assemble, one cross product instead of four for vertex-face pairs).

#include "narrow/details/coplanarity_prefilter.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace ccdkit::details {

class NeverCoplanarPairs {
public:
    /// Positions at t = 0 and t = 1 (finite), edges and faces as mesh_ccd() takes them (indices checked).
    NeverCoplanarPairs(
        const Eigen::MatrixX3d& v0,
        const Eigen::MatrixX3d& v1,
        const Eigen::MatrixX2i& edges,
        const Eigen::MatrixX3i& faces);

    /// True only if the vertex and the face's corners are never coplanar during the step (so never touch).
    [[nodiscard]] bool vertex_face(std::int32_t vertex, std::int32_t face) const
    {
        const Element<QuadraticVector>& f = faces_[static_cast<std::size_t>(face)];
        const Point& p = points_[static_cast<std::size_t>(vertex)];
        return apart(f.origin, p, f.largest, f.span);
    }

    /// True only if the two edges' end points are never coplanar during the step (so the edges never touch).
    [[nodiscard]] bool edge_edge(std::int32_t edge_a, std::int32_t edge_b) const
    {
        const Element<LinearVector>& a = edges_[static_cast<std::size_t>(edge_a)];
        const Element<LinearVector>& b = edges_[static_cast<std::size_t>(edge_b)];
        // det(a1 - a0, b0 - a0, b1 - a0) = det(a1 - a0, b0 - a0, b1 - b0): the cubic is (da x db) . (b0 - a0).
        return apart(a.origin, b.origin, std::max(a.largest, b.largest), cross(a.span, b.span));
    }

private:
    struct Point {
        Vec3 start {}, end {};
    };
    /// An edge (span: its direction) or a face (span: the normal (t1 - t0) x (t2 - t0), quadratic in time),
    /// from its first vertex; `largest` bounds the magnitudes of the differences the span was made from.
    template <class Span> struct Element {
        Point origin;
        Span span;
        double largest = 0.0;
    };

    /// The certificate for the cubic normal(t) . (p(t) - origin(t)), where `largest` bounds the differences
    /// the normal was made from (this widens it by those of p - origin).
    static bool apart(const Point& origin, const Point& p, double largest, const QuadraticVector& normal)
    {
        LinearVector w;
        for (int k = 0; k < 3; ++k) {
            w.start[k] = p.start[k] - origin.start[k];
            w.end[k] = p.end[k] - origin.end[k];
            largest = std::max({ largest, std::abs(w.start[k]), std::abs(w.end[k]) });
        }
        return never_zero(normal, w, largest);
    }

    std::vector<Point> points_;
    std::vector<Element<LinearVector>> edges_;
    std::vector<Element<QuadraticVector>> faces_;
};

} // namespace ccdkit::details
