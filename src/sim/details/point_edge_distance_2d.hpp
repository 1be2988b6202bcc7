// SPDX-License-Identifier: MIT
#pragma once

// Squared distance between a point and a segment in 2D, with its gradient and Hessian with respect to the six
// coordinates (p, e0, e1). The three regions of the segment (beyond e0, beyond e1, interior) each have a smooth
// formula; the distance is C1 across the region borders, the Hessian is not, as in IPC.

#include <Eigen/Core>

namespace ccdkit::details {

using Vector6d = Eigen::Matrix<double, 6, 1>;
using Matrix6d = Eigen::Matrix<double, 6, 6>;

/// Which part of the segment is closest to the point.
enum class PointEdgeRegion : unsigned char {
    E0, ///< the endpoint e0 (the projection falls before it)
    E1, ///< the endpoint e1
    INTERIOR, ///< the point projects inside the segment: the distance is the distance to its line
};

[[nodiscard]] inline PointEdgeRegion
point_edge_region(const Eigen::Vector2d& p, const Eigen::Vector2d& e0, const Eigen::Vector2d& e1)
{
    const Eigen::Vector2d e = e1 - e0;
    const double along = (p - e0).dot(e);
    if (along <= 0.0) {
        return PointEdgeRegion::E0;
    }
    if (along >= e.squaredNorm()) {
        return PointEdgeRegion::E1;
    }
    return PointEdgeRegion::INTERIOR;
}

struct PointEdgeDistance2d {
    double value = 0.0; ///< squared distance
    Vector6d gradient = Vector6d::Zero(); ///< with respect to (p.x, p.y, e0.x, e0.y, e1.x, e1.y)
    Matrix6d hessian = Matrix6d::Zero();
};

/// Squared distance, gradient and Hessian (see the top of this file). The segment must not be degenerate in
/// the interior case (its region test then never picks INTERIOR).
[[nodiscard]] inline PointEdgeDistance2d
point_edge_distance_2d(const Eigen::Vector2d& p, const Eigen::Vector2d& e0, const Eigen::Vector2d& e1)
{
    PointEdgeDistance2d out;
    const PointEdgeRegion region = point_edge_region(p, e0, e1);
    if (region != PointEdgeRegion::INTERIOR) {
        // Point-point: |p - q|^2 with q the nearer endpoint; the other endpoint does not enter.
        const int q = region == PointEdgeRegion::E0 ? 2 : 4;
        const Eigen::Vector2d d = p - (region == PointEdgeRegion::E0 ? e0 : e1);
        out.value = d.squaredNorm();
        out.gradient.segment<2>(0) = 2.0 * d;
        out.gradient.segment<2>(q) = -2.0 * d;
        const Eigen::Matrix2d two = 2.0 * Eigen::Matrix2d::Identity();
        out.hessian.block<2, 2>(0, 0) = two;
        out.hessian.block<2, 2>(q, q) = two;
        out.hessian.block<2, 2>(0, q) = -two;
        out.hessian.block<2, 2>(q, 0) = -two;
        return out;
    }
    // Point-line: d^2 = c^2 / l with c = cross(e, r), e = e1 - e0, r = p - e0, l = |e|^2. Both e and r are
    // linear maps of the coordinates (e = B x, r = A x) and c = e^T J r with J the 90-degree rotation, so c is
    // bilinear with a constant Hessian.
    Eigen::Matrix<double, 2, 6> a = Eigen::Matrix<double, 2, 6>::Zero();
    Eigen::Matrix<double, 2, 6> b = Eigen::Matrix<double, 2, 6>::Zero();
    a.block<2, 2>(0, 0).setIdentity();
    a.block<2, 2>(0, 2) = -Eigen::Matrix2d::Identity();
    b.block<2, 2>(0, 4).setIdentity();
    b.block<2, 2>(0, 2) = -Eigen::Matrix2d::Identity();
    Eigen::Matrix2d j;
    j << 0.0, 1.0, -1.0, 0.0;
    const Eigen::Vector2d e = e1 - e0;
    const Eigen::Vector2d r = p - e0;
    const double c = e.dot(j * r);
    const double l = e.squaredNorm();
    const Vector6d grad_c = a.transpose() * (j.transpose() * e) + b.transpose() * (j * r);
    const Matrix6d hess_c = b.transpose() * j * a + a.transpose() * j.transpose() * b;
    const Vector6d grad_l = 2.0 * b.transpose() * e;
    const Matrix6d hess_l = 2.0 * b.transpose() * b;
    const Matrix6d cross_terms = grad_c * grad_l.transpose() + grad_l * grad_c.transpose();
    out.value = c * c / l;
    out.gradient = (2.0 * c / l) * grad_c - (c * c / (l * l)) * grad_l;
    out.hessian = (2.0 / l) * (grad_c * grad_c.transpose()) + (2.0 * c / l) * hess_c - (2.0 * c / (l * l)) * cross_terms
        - (c * c / (l * l)) * hess_l + (2.0 * c * c / (l * l * l)) * (grad_l * grad_l.transpose());
    return out;
}

} // namespace ccdkit::details
