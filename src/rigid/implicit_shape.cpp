// SPDX-License-Identifier: MIT
#include "core/details/ieee_arithmetic_scope.hpp"
#include "rigid/details/certified_rounding.hpp"
#include "rigid/details/implicit_node.hpp"
#include "rigid/details/rounding.hpp"

#include <ccdkit/rigid/implicit_shape.hpp>

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace ccdkit {

namespace {
    /// How far a stored rotation may be from orthonormal (entries of R^T R - I): rotations built from
    /// quaternions or angle-axis are within a few 1e-16; anything beyond this is a scale or a shear.
    constexpr double ROTATION_TOLERANCE = 1e-9;

    /// Sizes a shape may have: as meshes', at most details::MAX_COORDINATE and at least details::MIN_SIZE, so that the
    /// sizes' squares and the surface samples' spacing stay normal numbers.
    using details::MIN_SIZE;

    double require_positive(double value, const char* factory, const char* name)
    {
        if (!(std::isfinite(value) && value > 0)) {
            throw std::invalid_argument(
                std::string("ImplicitShape::") + factory + ": " + name + " must be finite and > 0, got "
                + std::to_string(value));
        }
        if (!(value >= MIN_SIZE && value <= details::MAX_COORDINATE)) {
            std::ostringstream message;
            message << "ImplicitShape::" << factory << ": " << name << " must be within 1e-150..1e150, got " << value;
            throw std::invalid_argument(message.str());
        }
        return value;
    }

    /// The node, where it nests no deeper than ImplicitShape::MAX_DEPTH.
    details::NodePtr within_depth(details::NodePtr node, const char* who)
    {
        if (node->depth() > ImplicitShape::MAX_DEPTH) {
            throw std::invalid_argument(
                std::string("ImplicitShape ") + who + ": the shape would nest more than "
                + std::to_string(ImplicitShape::MAX_DEPTH)
                + " deep (Boolean combinations and placements); combine many parts as a balanced tree");
        }
        return node;
    }
} // namespace

ImplicitShape::ImplicitShape(std::shared_ptr<const details::ImplicitNode> node)
    : node_(std::move(node))
{
}

ImplicitShape ImplicitShape::sphere(double radius)
{
    return ImplicitShape(details::make_sphere_node(require_positive(radius, "sphere", "radius")));
}

ImplicitShape ImplicitShape::box(const Eigen::Vector3d& half_extents)
{
    for (int axis = 0; axis < 3; ++axis) {
        require_positive(half_extents[axis], "box", "every half extent");
    }
    return ImplicitShape(details::make_box_node(half_extents));
}

ImplicitShape ImplicitShape::capsule(double radius, double half_length)
{
    require_positive(radius, "capsule", "radius");
    if (!(std::isfinite(half_length) && half_length >= 0 && half_length <= details::MAX_COORDINATE)) {
        throw std::invalid_argument(
            "ImplicitShape::capsule: half_length must be finite, >= 0 and at most 1e150, got "
            + std::to_string(half_length));
    }
    return ImplicitShape(details::make_capsule_node(radius, half_length));
}

ImplicitShape ImplicitShape::torus(double major_radius, double minor_radius)
{
    require_positive(major_radius, "torus", "major_radius");
    require_positive(minor_radius, "torus", "minor_radius");
    if (!(minor_radius < major_radius)) {
        throw std::invalid_argument(
            "ImplicitShape::torus: minor_radius " + std::to_string(minor_radius) + " must be below major_radius "
            + std::to_string(major_radius) + " (only ring tori are supported)");
    }
    return ImplicitShape(details::make_torus_node(major_radius, minor_radius));
}

ImplicitShape ImplicitShape::grid(SignedDistanceGrid grid)
{
    return ImplicitShape(details::make_grid_node(std::move(grid)));
}

ImplicitShape ImplicitShape::transformed(const Eigen::Isometry3d& placement) const
{
    if (!placement.matrix().allFinite()) {
        throw std::invalid_argument("ImplicitShape::transformed: the placement has a non-finite entry");
    }
    const Eigen::Matrix3d rotation = placement.linear();
    const details::IeeeArithmeticScope ieee; // the defect below is a certified bound
    const double departure = (rotation.transpose() * rotation - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff();
    if (!(departure <= ROTATION_TOLERANCE)) {
        throw std::invalid_argument(
            "ImplicitShape::transformed: the placement is not rigid (R^T R - I has an entry of "
            + std::to_string(departure) + "; scales and shears are not supported)");
    }
    if (!(rotation.determinant() > 0)) {
        throw std::invalid_argument("ImplicitShape::transformed: the placement is a reflection");
    }
    if (!(placement.translation().cwiseAbs().maxCoeff() <= details::MAX_COORDINATE)) {
        // (Its distances' bounds would overflow: a clearance of NaN had let a ball 1e160 away touch at once.)
        throw std::invalid_argument("ImplicitShape::transformed: the translation exceeds 1e150 in magnitude");
    }
    // Spectral norm <= Frobenius norm <= 3 * largest entry; the computed entries of R^T R are off by at most
    // gamma_3 (1 + departure)^2 < 4 u.
    const double defect = details::round_up(3 * (departure + 4 * details::ROUNDOFF));
    return ImplicitShape(within_depth(details::make_placed_node(node_, placement, defect), "transformed"));
}

double ImplicitShape::signed_distance(const Eigen::Vector3d& x) const { return node_->signed_distance(x); }

// The certified bounds assume gradual underflow: a caller's flush-to-zero mode is set aside.
double ImplicitShape::clearance(const Eigen::Vector3d& x) const
{
    const details::IeeeArithmeticScope ieee;
    return node_->certified_distances(x).to_solid;
}

double ImplicitShape::depth(const Eigen::Vector3d& x) const
{
    const details::IeeeArithmeticScope ieee;
    return node_->certified_distances(x).to_complement;
}

Eigen::Vector3d ImplicitShape::normal(const Eigen::Vector3d& x) const { return node_->normal(x); }

Aabb ImplicitShape::bounds() const { return node_->bounds(); }

double ImplicitShape::bounding_radius() const { return node_->bounding_radius(); }

std::vector<SurfaceSample> ImplicitShape::sample_surface(double spacing) const
{
    if (!(std::isfinite(spacing) && spacing > 0)) {
        throw std::invalid_argument(
            "ImplicitShape::sample_surface: spacing must be finite and > 0, got " + std::to_string(spacing));
    }
    std::vector<SurfaceSample> samples;
    node_->sample_surface(spacing, samples);
    return samples;
}

ImplicitShape unite(const ImplicitShape& a, const ImplicitShape& b)
{
    return ImplicitShape(
        within_depth(details::make_boolean_node(details::BooleanKind::UNION, a.node_, b.node_), "unite"));
}

ImplicitShape intersect(const ImplicitShape& a, const ImplicitShape& b)
{
    return ImplicitShape(
        within_depth(details::make_boolean_node(details::BooleanKind::INTERSECTION, a.node_, b.node_), "intersect"));
}

ImplicitShape subtract(const ImplicitShape& a, const ImplicitShape& b)
{
    return ImplicitShape(within_depth(
        details::make_boolean_node(details::BooleanKind::INTERSECTION, a.node_, details::make_complement_node(b.node_)),
        "subtract"));
}

} // namespace ccdkit
