// SPDX-License-Identifier: MIT
#pragma once

// A linear spring between two 2D points, measured in strain: E = (k / 2) L0 (l / L0 - 1)^2 with l the current
// and L0 the rest length. Read k as Young's modulus times a cross-section: the energy per unit rest length is
// (k / 2) strain^2, so refining the mesh does not change the stiffness of a bar. The Hessian comes already
// projected to positive semi-definite: the component across the spring, (dE/dl) / l, is dropped when the
// spring is compressed (dE/dl < 0), the projection Projected Newton applies to every element.

#include <Eigen/Core>

#include <algorithm>

namespace ccdkit::details {

using Vector4d = Eigen::Matrix<double, 4, 1>;
using Matrix4d = Eigen::Matrix<double, 4, 4>;

struct SpringEnergy {
    double value = 0.0;
    Vector4d gradient = Vector4d::Zero(); ///< with respect to (a.x, a.y, b.x, b.y)
    Matrix4d hessian = Matrix4d::Zero(); ///< exact Hessian, or its projection (see spring_energy)
};

/// Energy, gradient and Hessian of the spring a-b of rest length `rest_length` > 0 and stiffness k. With
/// `project_hessian`, the Hessian is the nearest positive semi-definite matrix; otherwise the exact one.
/// Precondition: a != b.
[[nodiscard]] inline SpringEnergy
spring_energy(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double rest_length, double k, bool project_hessian)
{
    SpringEnergy out;
    const Eigen::Vector2d d = a - b;
    const double l = d.norm();
    const Eigen::Vector2d n = d / l;
    const double strain = l / rest_length - 1.0;
    out.value = 0.5 * k * rest_length * strain * strain;
    const double force = k * strain; // dE/dl
    const Eigen::Vector2d grad_a = force * n;
    out.gradient << grad_a, -grad_a;
    // d2E/da2 = (k / L0) n n^T + (dE/dl / l) (I - n n^T): stiffness along the spring, and the rotation term.
    const Eigen::Matrix2d along = n * n.transpose();
    double across = force / l;
    if (project_hessian) {
        across = std::max(across, 0.0);
    }
    const Eigen::Matrix2d block = (k / rest_length) * along + across * (Eigen::Matrix2d::Identity() - along);
    out.hessian.block<2, 2>(0, 0) = block;
    out.hessian.block<2, 2>(2, 2) = block;
    out.hessian.block<2, 2>(0, 2) = -block;
    out.hessian.block<2, 2>(2, 0) = -block;
    return out;
}

} // namespace ccdkit::details
