// SPDX-License-Identifier: MIT
#pragma once

// Lengths and directions of vectors of any finite size. Eigen's norm() squares the coordinates: below about 1e-154
// the squares underflow (a gap of 1e-160 measured as 0 or a few ulps off, a direction that normalized() leaves
// unscaled) and above about 1e154 they overflow. The rigid module's coordinates reach 1e150 and the gaps between
// its features any size down to the subnormal range, so its gaps and normals go through these: plain norm() where the
// squared length is comfortably normal (the usual case, the same bits), the vector scaled by a power of two (exact)
// otherwise.

#include <Eigen/Core>

#include <cmath>

namespace ccdkit::details {

/// v 2^exponent, exact where the result stays normal (scalbn per coordinate: 2^exponent itself may not be a double).
template <int N>
[[nodiscard]] Eigen::Matrix<double, N, 1> scaled_by_power_of_two(const Eigen::Matrix<double, N, 1>& v, int exponent)
{
    return v.unaryExpr([exponent](double x) { return std::scalbn(x, exponent); });
}
[[nodiscard]] inline Eigen::Vector3d scaled_by_power_of_two(const Eigen::Vector3d& v, int exponent)
{
    return scaled_by_power_of_two<3>(v, exponent);
}

/// |v| for any finite v (0 for zero, infinity or NaN as norm() gives them).
[[nodiscard]] inline double length_of(const Eigen::Vector3d& v)
{
    const double squared = v.squaredNorm();
    if (squared >= 0x1p-960 && squared <= 0x1p960) {
        return std::sqrt(squared);
    }
    const double largest = v.cwiseAbs().maxCoeff();
    if (!(largest > 0.0) || !std::isfinite(largest)) {
        return std::sqrt(squared);
    }
    const int exponent = std::ilogb(largest);
    return std::scalbn(scaled_by_power_of_two(v, -exponent).norm(), exponent);
}

/// v / |v| for any finite nonzero v (of 3 coordinates, or 4: a quaternion's); zero for a zero (or non-finite) v.
template <int N> [[nodiscard]] Eigen::Matrix<double, N, 1> unit_direction(const Eigen::Matrix<double, N, 1>& v)
{
    const double largest = v.cwiseAbs().maxCoeff();
    if (!(largest > 0.0) || !std::isfinite(largest)) {
        return Eigen::Matrix<double, N, 1>::Zero();
    }
    const double squared = v.squaredNorm();
    if (squared >= 0x1p-960 && squared <= 0x1p960) {
        return v / std::sqrt(squared);
    }
    const Eigen::Matrix<double, N, 1> unit_sized = scaled_by_power_of_two<N>(v, -std::ilogb(largest));
    return unit_sized / unit_sized.norm();
}
[[nodiscard]] inline Eigen::Vector3d direction_of(const Eigen::Vector3d& v) { return unit_direction<3>(v); }

} // namespace ccdkit::details
