// SPDX-License-Identifier: MIT
#pragma once

// The cheapest certificate that two linearly moving primitives stay more than min_distance apart over the
// whole step, tried before any scaling or square root: a coordinate axis along which one primitive lies
// beyond the other by more than min_distance both at t = 0 and at t = 1, on the same side.
//
// Why the two ends suffice: along a fixed unit vector n, f(t) = min_A n.a(t) - max_B n.b(t) bounds the
// distance from below, and under linear motion it is a minimum of affine functions of t minus a maximum of
// affine functions, hence concave: on [0, 1] it is at least min(f(0), f(1)).
//
// Floating point: along an axis the extremes are exact (comparisons) and only their difference D is rounded.
// Rounding is monotonic, so fl(D) > c implies D > c for any double c. End positions given exactly need no
// margin: fl(D) > s certifies D > s. End positions handed over as displacements are rounded sums x + p, each
// within 2^-53 (1 + 2^-52) M of the true end, M the largest computed end coordinate (sums that land among
// subnormals are exact), so D may overstate the true difference by 2^-51 M. The threshold
// fl(s + 2^-48 fl(M + s)) exceeds s + 2^-50 M (the relative rounding of the three operations, and underflow
// of 2^-48 (M + s) when M >= 2^-1022, cost less than half of 2^-48 M), which covers that.

#include <Eigen/Core>

#include <algorithm>
#include <array>

namespace ccdkit::details {

/// +1 when the first NA of the points x lie above the others along axis j by more than `threshold`, -1 when
/// below, 0 otherwise.
template <int NA, class Points> [[nodiscard]] int side_along_axis(const Points& x, int j, double threshold)
{
    const int n = static_cast<int>(x.size());
    double a_low = x[0][j], a_high = a_low, b_low = x[NA][j], b_high = b_low;
    for (int i = 1; i < NA; ++i) {
        a_low = std::min(a_low, x[i][j]);
        a_high = std::max(a_high, x[i][j]);
    }
    for (int i = NA + 1; i < n; ++i) {
        b_low = std::min(b_low, x[i][j]);
        b_high = std::max(b_high, x[i][j]);
    }
    return a_low - b_high > threshold ? 1 : (b_low - a_high > threshold ? -1 : 0);
}

/// True when a coordinate axis certifies that the pair stays more than `min_distance` apart for t in [0, 1].
/// The first NA of the N positions are one primitive, the rest the other; `second` holds the positions at
/// t = 1, or the displacements when `displacements`. Finite input, min_distance >= 0.
template <int Dim, int NA, int NB>
[[nodiscard]] bool separated_along_an_axis(
    const std::array<Eigen::Matrix<double, Dim, 1>, NA + NB>& at_t0,
    const std::array<Eigen::Matrix<double, Dim, 1>, NA + NB>& second,
    bool displacements,
    double min_distance)
{
    constexpr int N = NA + NB;
    std::array<Eigen::Matrix<double, Dim, 1>, N> sums;
    double threshold = min_distance;
    if (displacements) {
        double largest = 0.0;
        for (int i = 0; i < N; ++i) {
            sums[i] = at_t0[i] + second[i];
            largest = std::max(largest, sums[i].cwiseAbs().maxCoeff());
        }
        threshold = min_distance + 0x1p-48 * (largest + min_distance);
    }
    const auto& at_t1 = displacements ? sums : second;
    for (int j = 0; j < Dim; ++j) {
        const int start = side_along_axis<NA>(at_t0, j, threshold);
        if (start != 0 && side_along_axis<NA>(at_t1, j, threshold) == start) {
            return true;
        }
    }
    return false;
}

} // namespace ccdkit::details
