// SPDX-License-Identifier: MIT
#pragma once

#include <Eigen/Core>
#include <gmpxx.h>

#include <array>

namespace ccdkit::test {

/// The coplanarity determinant det(x1 - x0, x2 - x0, x3 - x0) of four points moving linearly from `start` to
/// `end`, at t = k / n, exactly.
inline mpq_class coplanarity_determinant_at(
    const std::array<Eigen::Vector3d, 4>& start, const std::array<Eigen::Vector3d, 4>& end, int k, int n)
{
    const mpq_class t(k, n);
    std::array<std::array<mpq_class, 3>, 4> x;
    for (std::size_t i = 0; i < 4; ++i) {
        for (int c = 0; c < 3; ++c) {
            const mpq_class s(start[i][c]), e(end[i][c]);
            x[i][static_cast<std::size_t>(c)] = s + t * (e - s);
        }
    }
    std::array<std::array<mpq_class, 3>, 3> d;
    for (std::size_t i = 0; i < 3; ++i) {
        for (std::size_t c = 0; c < 3; ++c) {
            d[i][c] = x[i + 1][c] - x[0][c];
        }
    }
    return d[0][0] * (d[1][1] * d[2][2] - d[1][2] * d[2][1]) - d[0][1] * (d[1][0] * d[2][2] - d[1][2] * d[2][0])
        + d[0][2] * (d[1][0] * d[2][1] - d[1][1] * d[2][0]);
}

} // namespace ccdkit::test
