// SPDX-License-Identifier: MIT
// A shape placed by a rigid motion: P = {R s + t : s in S}, with R the stored matrix, which is a rotation
// only up to rounding. Let E = R^T R - I with spectral norm <= e (`rotation_defect`, e < 1e-8). Then R's
// singular values lie in [sqrt(1 - e), sqrt(1 + e)], so |R v| >= (1 - e) |v|, |R v| <= (1 + e) |v|, and
// R^-1 = (I + E)^-1 R^T differs from R^T by at most 1.02 e in norm.
//
// Clearance at x: the exact preimage y = R^-1 (x - t) is computed as y' = fl(R^T fl(x - t)), and
//   |y' - y| <= sqrt(3) gamma_3 (1 + e) |x - t|_1  (the dot products)  +  (1 + e) u |x - t|  (the subtraction)
//             +  1.02 e |x - t|  (R^T for R^-1)   <=  (16 u + 2 e) (|x|_1 + |t|_1).
// Distances to the child's solid (and complement) are 1-Lipschitz in the point, so a child's bound at y'
// minus that error bounds them at y; and |x - (R s + t)| = |R (y - s)| >= (1 - e) |y - s| carries a
// positive bound over to P (R maps the complement of S onto the complement of P as well).
#include "rigid/details/certified_rounding.hpp"
#include "rigid/details/implicit_node.hpp"

#include <utility>

namespace ccdkit::details {

namespace {
    using Eigen::Vector3d;

    class PlacedNode final : public ImplicitNode {
    public:
        PlacedNode(NodePtr child, const Eigen::Isometry3d& placement, double rotation_defect)
            : ImplicitNode(1 + child->depth())
            , child_(std::move(child))
            , rotation_(placement.linear())
            , translation_(placement.translation())
            , defect_(rotation_defect)
            , shrink_(round_down(1 - rotation_defect))
        {
        }

        [[nodiscard]] double signed_distance(const Vector3d& x) const override
        {
            return child_->signed_distance(local(x));
        }
        [[nodiscard]] CertifiedDistances certified_distances(const Vector3d& x) const override
        {
            const CertifiedDistances c = child_->certified_distances(local(x));
            const double mapping_error
                = (16 * ROUNDOFF + 2 * defect_) * (x.lpNorm<1>() + translation_.lpNorm<1>()) + UNDERFLOW_SLACK;
            return { carry_over(c.to_solid, mapping_error), carry_over(c.to_complement, mapping_error) };
        }
        [[nodiscard]] Vector3d normal(const Vector3d& x) const override
        {
            return (rotation_ * child_->normal(local(x))).normalized();
        }
        /// The placed corners of the child's box hold R B + t, which holds P; each corner is off by at most
        /// 5 u (|c|_1 + |t|_inf) per coordinate, and the box is grown by more than that.
        [[nodiscard]] Aabb bounds() const override
        {
            const Aabb child = child_->bounds();
            if (is_empty(child)) {
                return child;
            }
            Aabb box = empty_box();
            double largest = 0;
            for (int corner = 0; corner < 8; ++corner) {
                const Vector3d c(
                    (corner & 1) != 0 ? child.max.x() : child.min.x(),
                    (corner & 2) != 0 ? child.max.y() : child.min.y(),
                    (corner & 4) != 0 ? child.max.z() : child.min.z());
                const Eigen::Array3d placed = (rotation_ * c + translation_).array();
                box = box.merged({ placed, placed });
                largest = std::max(largest, c.lpNorm<1>());
            }
            const double pad = 8 * ROUNDOFF * (largest + translation_.lpNorm<Eigen::Infinity>()) + UNDERFLOW_SLACK;
            for (int axis = 0; axis < 3; ++axis) {
                box.min[axis] = round_down(box.min[axis] - pad);
                box.max[axis] = round_up(box.max[axis] + pad);
            }
            return box;
        }
        /// |R s + t| <= (1 + e) |s| + |t|.
        [[nodiscard]] double bounding_radius() const override
        {
            const double grow = 1 + defect_ + 8 * ROUNDOFF;
            return round_up(
                round_up(child_->bounding_radius() * grow) + round_up(translation_.norm() * (1 + 8 * ROUNDOFF)));
        }
        /// R stretches distances by at most 1 + e <= 1 / (1 - e): the child is sampled that much finer.
        void sample_surface(double spacing, std::vector<SurfaceSample>& out) const override
        {
            const std::size_t first = out.size();
            child_->sample_surface(spacing * shrink_, out);
            for (std::size_t k = first; k < out.size(); ++k) {
                out[k].point = rotation_ * out[k].point + translation_;
                out[k].normal = (rotation_ * out[k].normal).normalized();
            }
        }

    private:
        [[nodiscard]] Vector3d local(const Vector3d& x) const { return rotation_.transpose() * (x - translation_); }
        /// A child's certified distance at y' as one at x (see the top of the file).
        [[nodiscard]] double carry_over(double child_bound, double mapping_error) const
        {
            const double at_y = lower_bound(child_bound, mapping_error);
            return at_y > 0 ? round_down(at_y * shrink_) : at_y;
        }

        NodePtr child_;
        Eigen::Matrix3d rotation_;
        Vector3d translation_;
        double defect_;
        double shrink_; ///< <= 1 - e
    };
} // namespace

NodePtr make_placed_node(NodePtr child, const Eigen::Isometry3d& placement, double rotation_defect)
{
    return std::make_shared<PlacedNode>(std::move(child), placement, rotation_defect);
}

} // namespace ccdkit::details
