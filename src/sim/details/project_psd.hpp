// SPDX-License-Identifier: MIT
#pragma once

// Projection of a small symmetric matrix onto the positive semi-definite cone (eigenvalues clamped at 0):
// Projected Newton sums such per-element Hessians so that the global matrix stays positive semi-definite and
// every Newton direction is a descent direction.

#include <Eigen/Core>
#include <Eigen/Eigenvalues>

namespace ccdkit::details {

template <int N> [[nodiscard]] Eigen::Matrix<double, N, N> project_psd(const Eigen::Matrix<double, N, N>& m)
{
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, N, N>> eig(m);
    const Eigen::Matrix<double, N, 1> clamped = eig.eigenvalues().cwiseMax(0.0);
    return eig.eigenvectors() * clamped.asDiagonal() * eig.eigenvectors().transpose();
}

} // namespace ccdkit::details
