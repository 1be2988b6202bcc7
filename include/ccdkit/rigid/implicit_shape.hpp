// SPDX-License-Identifier: MIT
#pragma once

// Solids given implicitly, for the curved-trajectory CCD of rigid bodies: that method bounds the arc of
// every point of a body over a time interval by a ball and needs, for the other body, a *certified
// clearance*: a lower bound on the distance from a point to the solid that stays a bound in floating point.
//
// A shape is an immutable tree (primitives, Boolean combinations, rigid placements, sampled grids) shared by
// std::shared_ptr, so copies are cheap and shapes can be reused in several trees and threads.
//
// The solid of a shape is the closed set {f <= 0} of a 1-Lipschitz function f that is the exact signed
// distance for the primitives and the min / max combination for Boolean shapes (where it is only a bound
// on the distance: e.g. at a point beside the edge of an intersection). For every x outside the solid,
// f(x) <= dist(x, solid): take a nearest solid point y, f(y) <= 0 and f(x) <= f(y) + |x - y|. clearance()
// is that value minus a forward error bound of its evaluation.

#include <ccdkit/broad/aabb.hpp>
#include <ccdkit/rigid/signed_distance_grid.hpp>
#include <ccdkit/rigid/surface_sample.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <memory>
#include <vector>

namespace ccdkit {

namespace details {
    class ImplicitNode;
} // namespace details

/// A solid given by a signed distance. Query points must be finite with coordinates below about 1e150 in
/// magnitude (the error bounds assume squares do not overflow; underflow is accounted for); the factories
/// throw std::invalid_argument naming the problem for bad parameters.
class ImplicitShape {
public:
    /// The deepest a shape may nest Boolean combinations and placements (evaluating and releasing it recurse that
    /// deep: a chain of 300,000 unions overflowed the stack). Many parts combine within it as a balanced tree.
    static constexpr int MAX_DEPTH = 1000;

    /// Ball of `radius` (finite, > 0) about the origin.
    [[nodiscard]] static ImplicitShape sphere(double radius);
    /// Box [-h, h] with h = half_extents (finite, > 0 each).
    [[nodiscard]] static ImplicitShape box(const Eigen::Vector3d& half_extents);
    /// Points within `radius` (finite, > 0) of the segment from (0, 0, -half_length) to (0, 0, half_length);
    /// half_length finite and >= 0 (0 gives a sphere).
    [[nodiscard]] static ImplicitShape capsule(double radius, double half_length);
    /// Ring torus around the z axis: points within minor_radius of the circle of major_radius in the xy
    /// plane. Requires 0 < minor_radius < major_radius, both finite: a spindle or horn torus (minor >=
    /// major) has a self-intersecting parametric surface, which sample_surface() could not cover honestly.
    [[nodiscard]] static ImplicitShape torus(double major_radius, double minor_radius);
    /// The solid of a sampled grid (see SignedDistanceGrid).
    [[nodiscard]] static ImplicitShape grid(SignedDistanceGrid grid);

    /// This solid placed by a rigid motion: {R s + t : s in the solid}. R must be a rotation up to rounding
    /// (|R^T R - I| <= 1e-9 entrywise, det R > 0); the tiny departure of a stored rotation from an exact one
    /// is accounted in the clearance.
    /// @throws std::invalid_argument for a non-finite entry, a translation beyond 1e150 in magnitude, a scale or
    /// shear, a reflection, or a shape nested deeper than MAX_DEPTH.
    [[nodiscard]] ImplicitShape transformed(const Eigen::Isometry3d& placement) const;

    /// The signed distance f(x) (negative inside; exact for primitives up to rounding; for Boolean shapes the
    /// min / max combination, a 1-Lipschitz bound on the distance with the right sign). For a grid, the grid's
    /// own estimate (SignedDistanceGrid::signed_distance).
    [[nodiscard]] double signed_distance(const Eigen::Vector3d& x) const;

    /// Certified lower bound on the Euclidean distance from x to the solid: if it returns c > 0, the open
    /// ball of radius c about x holds no point of the solid, whatever the rounding. It returns <= 0 when x
    /// may be inside or on the surface. Primitives: f(x) minus a forward error bound of its evaluation;
    /// union: the min of the children's; intersection: the max (A n B lies in both); difference A \ B: the
    /// max of A's clearance and B's depth(); placement: the child's at the mapped point, less the rounding
    /// of mapping it; grid: SignedDistanceGrid::clearance.
    [[nodiscard]] double clearance(const Eigen::Vector3d& x) const;
    /// Certified lower bound on the distance from x to the closure of the solid's complement (how deep x is
    /// inside): <= 0 when x may be outside or on the surface. The dual of clearance (union: max, intersection:
    /// min, A \ B: min of A's depth and B's clearance); it is what makes clearance() of a difference possible.
    [[nodiscard]] double depth(const Eigen::Vector3d& x) const;

    /// Unit outward normal: the analytic gradient of f (of the active child for Boolean shapes, negated for the
    /// subtracted one), central differences for grids. Meaningful near the surface; a fixed unit vector where
    /// the gradient is undefined (the centre of a sphere, the axis of a torus).
    [[nodiscard]] Eigen::Vector3d normal(const Eigen::Vector3d& x) const;

    /// A box holding the solid, rounded outward; empty (min > max) when the solid is known to be empty, e.g.
    /// the intersection of disjoint boxes.
    [[nodiscard]] Aabb bounds() const;
    /// Radius of a ball about the origin holding the solid, rounded up.
    [[nodiscard]] double bounding_radius() const;

    /// Points on the surface (up to rounding) with their outward normals. For primitives and placed
    /// primitives, every surface point is within `spacing` of a sample (box: a lattice on each face; sphere and
    /// capsule: the box lattice of their bounding box projected onto the surface, which is 1-Lipschitz and onto
    /// for a convex solid; torus: a lattice in the two angles). Boolean shapes keep the children's samples that
    /// lie on the combined surface: the covering then holds away from the seams where the children's surfaces
    /// meet. Grids: SignedDistanceGrid::sample_surface.
    /// @throws std::invalid_argument for spacing <= 0 or non-finite.
    [[nodiscard]] std::vector<SurfaceSample> sample_surface(double spacing) const;

    /// Boolean combinations, as named free functions rather than operators (a - b on shapes would read as
    /// arithmetic on their distances).
    friend ImplicitShape unite(const ImplicitShape& a, const ImplicitShape& b);
    friend ImplicitShape intersect(const ImplicitShape& a, const ImplicitShape& b);
    friend ImplicitShape subtract(const ImplicitShape& a, const ImplicitShape& b);

private:
    explicit ImplicitShape(std::shared_ptr<const details::ImplicitNode> node);
    std::shared_ptr<const details::ImplicitNode> node_;
};

/// A u B: f = min(f_a, f_b). (These three throw std::invalid_argument for a shape nested deeper than MAX_DEPTH.)
[[nodiscard]] ImplicitShape unite(const ImplicitShape& a, const ImplicitShape& b);
/// A n B: f = max(f_a, f_b).
[[nodiscard]] ImplicitShape intersect(const ImplicitShape& a, const ImplicitShape& b);
/// A \ B, closed: the points of A not in the interior of B; f = max(f_a, -f_b).
[[nodiscard]] ImplicitShape subtract(const ImplicitShape& a, const ImplicitShape& b);

} // namespace ccdkit
