// SPDX-License-Identifier: MIT
#pragma once

// The node tree behind ImplicitShape: one interface, and factories for the kinds of node, each kind in its
// own source file (primitives, Boolean combinations, placement, grid).

#include <ccdkit/broad/aabb.hpp>
#include <ccdkit/rigid/signed_distance_grid.hpp>
#include <ccdkit/rigid/surface_sample.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <memory>
#include <vector>

namespace ccdkit::details {

/// Certified lower bounds of two distances from a point: to the solid, and to the closure of its complement.
/// At most one is positive; a value <= 0 says nothing.
struct CertifiedDistances {
    double to_solid;
    double to_complement;
};

class ImplicitNode {
public:
    /// @param depth 1 for a leaf, one more than its deepest child's for a node built on others
    explicit ImplicitNode(int depth = 1)
        : depth_(depth)
    {
    }
    ImplicitNode(const ImplicitNode&) = delete;
    ImplicitNode& operator=(const ImplicitNode&) = delete;
    virtual ~ImplicitNode() = default;

    [[nodiscard]] virtual double signed_distance(const Eigen::Vector3d& x) const = 0;
    [[nodiscard]] virtual CertifiedDistances certified_distances(const Eigen::Vector3d& x) const = 0;
    [[nodiscard]] virtual Eigen::Vector3d normal(const Eigen::Vector3d& x) const = 0;
    [[nodiscard]] virtual Aabb bounds() const = 0;
    [[nodiscard]] virtual double bounding_radius() const = 0;
    /// Appends the samples (see ImplicitShape::sample_surface); spacing is valid.
    virtual void sample_surface(double spacing, std::vector<SurfaceSample>& out) const = 0;
    /// How many nodes the longest path down from this one holds (evaluation and release recurse that deep).
    [[nodiscard]] int depth() const { return depth_; }

private:
    int depth_;
};

using NodePtr = std::shared_ptr<const ImplicitNode>;

// Parameters are validated by ImplicitShape before these are called.
[[nodiscard]] NodePtr make_sphere_node(double radius);
[[nodiscard]] NodePtr make_box_node(const Eigen::Vector3d& half_extents);
[[nodiscard]] NodePtr make_capsule_node(double radius, double half_length);
[[nodiscard]] NodePtr make_torus_node(double major_radius, double minor_radius);
[[nodiscard]] NodePtr make_grid_node(SignedDistanceGrid grid);
/// Union (min of f) or intersection (max of f).
enum class BooleanKind { UNION, INTERSECTION };
[[nodiscard]] NodePtr make_boolean_node(BooleanKind kind, NodePtr a, NodePtr b);
/// The closure of the complement, {f >= 0} (f negated): A \ B is A n complement(B). Unbounded, so only ever
/// used inside an intersection.
[[nodiscard]] NodePtr make_complement_node(NodePtr child);
/// {R s + t}; `rotation_defect` bounds the spectral norm of R^T R - I (see implicit_placement.cpp).
[[nodiscard]] NodePtr make_placed_node(NodePtr child, const Eigen::Isometry3d& placement, double rotation_defect);

/// Whether a point lies on the surface of `node` up to the rounding of sampling (used to keep the
/// children's samples that lie on a combined surface).
[[nodiscard]] bool on_surface(const ImplicitNode& node, const Eigen::Vector3d& p);

} // namespace ccdkit::details
