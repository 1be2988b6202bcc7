// SPDX-License-Identifier: MIT
// The analytic primitives: sphere, box, capsule, torus. Each evaluates its exact signed distance f with a
// forward error bound, in the standard model fl(a op b) = (a op b)(1 + d), |d| <= u = 2^-53, with a
// correctly rounded sqrt; gamma_n = n u / (1 - n u) bounds n chained roundings.
//   - |x| = sqrt(x.x): the sum of squares has relative error gamma_3, the square root halves it and adds u:
//     |fl(|x|) - |x|| <= 2.51 u |x|. The norm is 1-Lipschitz, so perturbed components add their own error.
//   - sphere  |x| - r:                 2.51 u |x| + u (|x| + r)                         <= 4 u (|x| + r)
//   - box     |max(q, 0)| + min(max q, 0), q = |x| - h: each q_i off by u (|x_i| + h_i) <= u M with
//             M = |x|_inf + |h|_inf; the norm adds sqrt(3) u M + 2.51 u sqrt(3) M, the min u M; one of the
//             two terms is exactly 0, so their sum is exact:                           <= 8 u M
//   - capsule |(x, y, z - clamp(z, -a, a))| - r: u (|z| + a) + 2.51 u (|x|_1 + a) + u (|p| + r)  <= 6 u M
//             with M = |x|_1 + a + r
//   - torus   |(rho - R, z)| - r, rho = |(x, y)|: rho off by 2.01 u rho, rho - R by another u (rho + R), the
//             outer norm adds 2.51 u (rho + R + |z|), the last subtraction u (|q| + r)   <= 8 u M
//             with M = |x|_1 + R + r
// Every primitive uses 16 u M (twice the derived bound, and enough to absorb the rounding of computing the
// bound itself) plus UNDERFLOW_SLACK; the certified values are then rounded down once more (lower_bound).
#include "rigid/details/certified_rounding.hpp"
#include "rigid/details/implicit_node.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace ccdkit::details {

namespace {
    using Eigen::Vector3d;

    constexpr double ERROR_FACTOR = 16 * ROUNDOFF;

    /// A sample count that a caller can afford; more means the spacing is far too small for the shape.
    constexpr double MAX_SURFACE_SAMPLES = 0x1p26;

    /// How many intervals of length <= spacing divide a length (a double: it is checked before any cast).
    double intervals(double length, double spacing) { return std::max(1.0, std::ceil(length / spacing)); }

    /// Throws when `count` samples are more than a caller can afford.
    void check_sample_count(double count)
    {
        if (!(count <= MAX_SURFACE_SAMPLES)) {
            throw std::invalid_argument(
                "sample_surface: spacing too small for the shape (" + std::to_string(count) + " samples)");
        }
    }

    /// A lattice on each face of the box [-h, h] with steps <= spacing: every point of a face is within
    /// spacing / sqrt(2) of a lattice point of that face.
    std::vector<Vector3d> box_lattice(const Vector3d& h, double spacing)
    {
        const Eigen::Array3d n(
            intervals(2 * h.x(), spacing), intervals(2 * h.y(), spacing), intervals(2 * h.z(), spacing));
        check_sample_count(2 * ((n.x() + 1) * (n.y() + 1) + (n.y() + 1) * (n.z() + 1) + (n.z() + 1) * (n.x() + 1)));
        std::vector<Vector3d> points;
        for (int axis = 0; axis < 3; ++axis) {
            const int b = (axis + 1) % 3, c = (axis + 2) % 3;
            const int nb = static_cast<int>(n[b]), nc = static_cast<int>(n[c]);
            for (const double side : { -1.0, 1.0 }) {
                for (int i = 0; i <= nb; ++i) {
                    for (int j = 0; j <= nc; ++j) {
                        Vector3d p;
                        p[axis] = side * h[axis];
                        p[b] = -h[b] + 2 * h[b] * i / nb;
                        p[c] = -h[c] + 2 * h[c] * j / nc;
                        points.push_back(p);
                    }
                }
            }
        }
        return points;
    }

    /// A primitive evaluated in closed form with an error bound (see the top of the file).
    class AnalyticNode : public ImplicitNode {
    public:
        [[nodiscard]] double signed_distance(const Vector3d& x) const final { return evaluate(x).value; }
        [[nodiscard]] CertifiedDistances certified_distances(const Vector3d& x) const final
        {
            const Evaluation e = evaluate(x);
            return { lower_bound(e.value, e.error), lower_bound(-e.value, e.error) };
        }

    protected:
        struct Evaluation {
            double value;
            double error; ///< >= |value - f(x)|
        };
        [[nodiscard]] virtual Evaluation evaluate(const Vector3d& x) const = 0;
        [[nodiscard]] static Evaluation with_error(double value, double magnitude)
        {
            return { value, ERROR_FACTOR * magnitude + UNDERFLOW_SLACK };
        }
    };

    /// A convex primitive symmetric about the origin, inside the box [-h, h]. Its surface is sampled by
    /// projecting the box lattice onto it: the nearest-point map onto a convex solid is 1-Lipschitz and maps
    /// the box's surface onto the solid's (a surface point s is the image of the point where the ray from s
    /// along its normal leaves the box), so the covering of the lattice carries over.
    class ConvexNode : public AnalyticNode {
    public:
        explicit ConvexNode(const Vector3d& box_half_extents, double radius)
            : half_extents_(box_half_extents)
            , radius_(radius)
        {
        }
        [[nodiscard]] Aabb bounds() const final { return { -half_extents_.array(), half_extents_.array() }; }
        [[nodiscard]] double bounding_radius() const final { return radius_; }
        void sample_surface(double spacing, std::vector<SurfaceSample>& out) const final
        {
            for (const Vector3d& p : box_lattice(half_extents_, spacing)) {
                const Vector3d n = normal(p);
                out.push_back({ p - signed_distance(p) * n, n });
            }
        }

    private:
        Vector3d half_extents_;
        double radius_;
    };

    class SphereNode final : public ConvexNode {
    public:
        explicit SphereNode(double radius)
            : ConvexNode(Vector3d::Constant(radius), radius)
            , radius_(radius)
        {
        }
        [[nodiscard]] Vector3d normal(const Vector3d& x) const override
        {
            const double norm = x.norm();
            return norm > 0 ? Vector3d(x / norm) : Vector3d::UnitZ();
        }

    private:
        [[nodiscard]] Evaluation evaluate(const Vector3d& x) const override
        {
            const double norm = x.norm();
            return with_error(norm - radius_, norm + radius_);
        }
        double radius_;
    };

    class BoxNode final : public ConvexNode {
    public:
        explicit BoxNode(const Vector3d& half_extents)
            : ConvexNode(half_extents, round_up(half_extents.norm() * (1 + 4 * ROUNDOFF)))
            , half_extents_(half_extents)
        {
        }
        /// Outside: the direction from the nearest box point; inside: the face whose plane is nearest.
        /// Exact axis vectors on the faces.
        [[nodiscard]] Vector3d normal(const Vector3d& x) const override
        {
            const Vector3d q = x.cwiseAbs() - half_extents_;
            const Vector3d sign = x.unaryExpr([](double v) { return std::copysign(1.0, v); });
            Eigen::Index axis = 0;
            if (q.maxCoeff(&axis) > 0) {
                const Vector3d outside = q.cwiseMax(0.0).cwiseProduct(sign);
                return outside / outside.norm();
            }
            return sign[axis] * Vector3d::Unit(axis);
        }

    private:
        [[nodiscard]] Evaluation evaluate(const Vector3d& x) const override
        {
            const Vector3d q = x.cwiseAbs() - half_extents_;
            const double value = q.cwiseMax(0.0).norm() + std::min(q.maxCoeff(), 0.0);
            return with_error(value, x.cwiseAbs().maxCoeff() + half_extents_.maxCoeff());
        }
        Vector3d half_extents_;
    };

    class CapsuleNode final : public ConvexNode {
    public:
        CapsuleNode(double radius, double half_length)
            : ConvexNode(
                Vector3d(radius, radius, sum_rounded_up(half_length, radius)), sum_rounded_up(half_length, radius))
            , radius_(radius)
            , half_length_(half_length)
        {
        }
        [[nodiscard]] Vector3d normal(const Vector3d& x) const override
        {
            const Vector3d p = offset_from_axis(x);
            const double norm = p.norm();
            return norm > 0 ? Vector3d(p / norm) : Vector3d::UnitX();
        }

    private:
        /// x minus its nearest point of the segment.
        [[nodiscard]] Vector3d offset_from_axis(const Vector3d& x) const
        {
            return { x.x(), x.y(), x.z() - std::clamp(x.z(), -half_length_, half_length_) };
        }
        [[nodiscard]] Evaluation evaluate(const Vector3d& x) const override
        {
            return with_error(offset_from_axis(x).norm() - radius_, x.lpNorm<1>() + half_length_ + radius_);
        }
        double radius_;
        double half_length_;
    };

    class TorusNode final : public AnalyticNode {
    public:
        TorusNode(double major_radius, double minor_radius)
            : major_(major_radius)
            , minor_(minor_radius)
            , outer_(sum_rounded_up(major_radius, minor_radius))
        {
        }
        [[nodiscard]] Vector3d normal(const Vector3d& x) const override
        {
            const double rho = std::sqrt(x.x() * x.x() + x.y() * x.y());
            const Vector3d radial = rho > 0 ? Vector3d(x.x() / rho, x.y() / rho, 0.0) : Vector3d::UnitX();
            const Vector3d n = (rho - major_) * radial + x.z() * Vector3d::UnitZ();
            const double norm = n.norm();
            return norm > 0 ? Vector3d(n / norm) : radial;
        }
        [[nodiscard]] Aabb bounds() const override
        {
            const Eigen::Array3d h(outer_, outer_, minor_);
            return { -h, h };
        }
        [[nodiscard]] double bounding_radius() const override { return outer_; }
        /// A lattice in the angles (theta around z, phi around the tube): p moves at speed <= R + r in theta
        /// and r in phi, so a point is within (R + r) dtheta / 2 + r dphi / 2 <= spacing of the nearest node.
        void sample_surface(double spacing, std::vector<SurfaceSample>& out) const override
        {
            constexpr double TURN = 2 * std::numbers::pi;
            const double theta_steps = intervals(TURN * outer_, spacing), phi_steps = intervals(TURN * minor_, spacing);
            check_sample_count(theta_steps * phi_steps);
            const int n_theta = static_cast<int>(theta_steps), n_phi = static_cast<int>(phi_steps);
            for (int i = 0; i < n_theta; ++i) {
                const double theta = TURN * i / n_theta;
                const Vector3d radial(std::cos(theta), std::sin(theta), 0.0);
                for (int j = 0; j < n_phi; ++j) {
                    const double phi = TURN * j / n_phi;
                    const Vector3d n = std::cos(phi) * radial + std::sin(phi) * Vector3d::UnitZ();
                    out.push_back({ major_ * radial + minor_ * n, n });
                }
            }
        }

    private:
        [[nodiscard]] Evaluation evaluate(const Vector3d& x) const override
        {
            const double rho = std::sqrt(x.x() * x.x() + x.y() * x.y());
            const double tube = std::sqrt((rho - major_) * (rho - major_) + x.z() * x.z());
            return with_error(tube - minor_, x.lpNorm<1>() + major_ + minor_);
        }
        double major_;
        double minor_;
        double outer_; ///< R + r rounded up
    };
} // namespace

NodePtr make_sphere_node(double radius) { return std::make_shared<SphereNode>(radius); }
NodePtr make_box_node(const Eigen::Vector3d& half_extents) { return std::make_shared<BoxNode>(half_extents); }
NodePtr make_capsule_node(double radius, double half_length)
{
    return std::make_shared<CapsuleNode>(radius, half_length);
}
NodePtr make_torus_node(double major_radius, double minor_radius)
{
    return std::make_shared<TorusNode>(major_radius, minor_radius);
}

} // namespace ccdkit::details
