// SPDX-License-Identifier: MIT
#pragma once

// The contact energy of one vertex-edge pair: kappa b(g) with b the IPC barrier (barrier.hpp) applied to the
// gap above the separation, g = distance - xi. Working on the distance itself (not its square) keeps dhat a
// length, so "active" means distance < xi + dhat.

#include "barrier.hpp"
#include "point_edge_distance_2d.hpp"
#include "project_psd.hpp"

#include <cmath>

namespace ccdkit::details {

struct PointEdgeBarrier {
    double value = 0.0; ///< +infinity when the distance is <= xi
    Vector6d gradient = Vector6d::Zero(); ///< with respect to (p, e0, e1)
    Matrix6d hessian = Matrix6d::Zero(); ///< exact, or projected to positive semi-definite
};

/// Energy kappa b(distance - xi) of the pair, its gradient and Hessian. Zero for distance >= xi + dhat.
[[nodiscard]] inline PointEdgeBarrier point_edge_barrier(
    const Eigen::Vector2d& p,
    const Eigen::Vector2d& e0,
    const Eigen::Vector2d& e1,
    double xi,
    double dhat,
    double kappa,
    bool project_hessian)
{
    PointEdgeBarrier out;
    const PointEdgeDistance2d d2 = point_edge_distance_2d(p, e0, e1);
    const double distance = std::sqrt(d2.value);
    const BarrierValue b = barrier(distance - xi, dhat);
    out.value = kappa * b.value;
    if (b.first == 0.0 && b.second == 0.0) {
        return out; // inactive (or infinite, which callers never evaluate past the line-search filter)
    }
    // distance = sqrt(d2): grad = grad_d2 / (2 distance), hess = hess_d2 / (2 distance) - grad grad^T / distance.
    const Vector6d grad = d2.gradient / (2.0 * distance);
    const Matrix6d hess = d2.hessian / (2.0 * distance) - grad * grad.transpose() / distance;
    out.gradient = kappa * b.first * grad;
    out.hessian = kappa * (b.second * (grad * grad.transpose()) + b.first * hess);
    if (project_hessian) {
        out.hessian = project_psd<6>(out.hessian);
    }
    return out;
}

} // namespace ccdkit::details
