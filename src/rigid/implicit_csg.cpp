// SPDX-License-Identifier: MIT
// Boolean combinations of implicit shapes. Union and intersection are duals: union takes the min of f and of
// the certified distances to the solids (the distance to A u B is the smaller one) and the max of the
// certified distances to the complements (the complement of A u B lies in each child's); intersection the
// other way round (A n B lies in each child, so either child's distance is a lower bound). A \ B is
// A n complement(B), where the complement node swaps the two certified distances.
#include "rigid/details/certified_rounding.hpp"
#include "rigid/details/implicit_node.hpp"

#include <algorithm>
#include <utility>

namespace ccdkit::details {

namespace {
    using Eigen::Vector3d;

    /// How far from zero f may be at a sample that is on the surface: samples carry the rounding of their
    /// construction (a few ulps of their coordinates) and f that of its evaluation; 1e-12 of the scale is
    /// thousands of ulps above both and far below any sampling spacing.
    constexpr double SURFACE_TOLERANCE = 1e-12;

    class BooleanNode final : public ImplicitNode {
    public:
        BooleanNode(BooleanKind kind, NodePtr a, NodePtr b)
            : ImplicitNode(1 + std::max(a->depth(), b->depth()))
            , kind_(kind)
            , a_(std::move(a))
            , b_(std::move(b))
        {
        }

        [[nodiscard]] double signed_distance(const Vector3d& x) const override
        {
            return pick(a_->signed_distance(x), b_->signed_distance(x));
        }
        [[nodiscard]] CertifiedDistances certified_distances(const Vector3d& x) const override
        {
            const CertifiedDistances a = a_->certified_distances(x), b = b_->certified_distances(x);
            // The distance to the solid follows f (pick); the distance to the complement goes the other way.
            return { pick(a.to_solid, b.to_solid), dual(a.to_complement, b.to_complement) };
        }
        /// The normal of the child that decides f.
        [[nodiscard]] Vector3d normal(const Vector3d& x) const override
        {
            const double fa = a_->signed_distance(x), fb = b_->signed_distance(x);
            return pick(fa, fb) == fa ? a_->normal(x) : b_->normal(x);
        }
        [[nodiscard]] Aabb bounds() const override
        {
            const Aabb a = a_->bounds(), b = b_->bounds();
            if (is_union()) {
                return a.merged(b);
            }
            const Aabb common { a.min.max(b.min), a.max.min(b.max) };
            return is_empty(common) ? empty_box() : common;
        }
        [[nodiscard]] double bounding_radius() const override
        {
            return dual(a_->bounding_radius(), b_->bounding_radius());
        }
        /// The children's samples that lie on the combined surface.
        void sample_surface(double spacing, std::vector<SurfaceSample>& out) const override
        {
            std::vector<SurfaceSample> candidates;
            a_->sample_surface(spacing, candidates);
            b_->sample_surface(spacing, candidates);
            std::copy_if(candidates.begin(), candidates.end(), std::back_inserter(out), [this](const SurfaceSample& s) {
                return on_surface(*this, s.point);
            });
        }

    private:
        [[nodiscard]] bool is_union() const { return kind_ == BooleanKind::UNION; }
        /// min for a union, max for an intersection: f, and the distance to the solid.
        [[nodiscard]] double pick(double a, double b) const { return is_union() ? std::min(a, b) : std::max(a, b); }
        /// The other one: the distance to the complement, the bounding radius.
        [[nodiscard]] double dual(double a, double b) const { return is_union() ? std::max(a, b) : std::min(a, b); }

        BooleanKind kind_;
        NodePtr a_;
        NodePtr b_;
    };

    class ComplementNode final : public ImplicitNode {
    public:
        explicit ComplementNode(NodePtr child)
            : ImplicitNode(1 + child->depth())
            , child_(std::move(child))
        {
        }
        [[nodiscard]] double signed_distance(const Vector3d& x) const override { return -child_->signed_distance(x); }
        [[nodiscard]] CertifiedDistances certified_distances(const Vector3d& x) const override
        {
            const CertifiedDistances c = child_->certified_distances(x);
            return { c.to_complement, c.to_solid };
        }
        [[nodiscard]] Vector3d normal(const Vector3d& x) const override { return -child_->normal(x); }
        [[nodiscard]] Aabb bounds() const override
        {
            return { Eigen::Array3d::Constant(-INF), Eigen::Array3d::Constant(INF) };
        }
        [[nodiscard]] double bounding_radius() const override { return INF; }
        void sample_surface(double spacing, std::vector<SurfaceSample>& out) const override
        {
            const std::size_t first = out.size();
            child_->sample_surface(spacing, out);
            for (std::size_t k = first; k < out.size(); ++k) {
                out[k].normal = -out[k].normal;
            }
        }

    private:
        NodePtr child_;
    };
} // namespace

bool on_surface(const ImplicitNode& node, const Eigen::Vector3d& p)
{
    const double scale = p.cwiseAbs().maxCoeff() + node.bounding_radius();
    return std::abs(node.signed_distance(p)) <= SURFACE_TOLERANCE * scale;
}

NodePtr make_boolean_node(BooleanKind kind, NodePtr a, NodePtr b)
{
    return std::make_shared<BooleanNode>(kind, std::move(a), std::move(b));
}

NodePtr make_complement_node(NodePtr child) { return std::make_shared<ComplementNode>(std::move(child)); }

} // namespace ccdkit::details
