// SPDX-License-Identifier: MIT
#include "broad/details/diagonal_bounds.hpp"

#include "broad/details/float_rounding.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ccdkit::details {

namespace {
    constexpr double INF = std::numeric_limits<double>::infinity();
    /// Grows the double ranges by the projections of point p, each widened by its rounding error.
    void add(const Eigen::RowVector3d& p, std::array<double, DIAGONALS>& low, std::array<double, DIAGONALS>& high)
    {
        // fl(fl(+-x +- y) +- z) is within gamma_2 M < 2.01 u M of the exact projection, M = |x| + |y| + |z|
        // (exact sign changes and zero terms only help); fl(M) >= (1 - u)^2 M, so 4 u fl(M) covers that error
        // and the rounding of the subtraction / addition that applies it (at most u (|s| + margin) < 1.02 u M
        // plus the slack's share). The absolute slack 2^-1000 covers underflow in the margin's product and
        // the sums' absolute rounding near the subnormal range. An overflowed M opens the range.
        constexpr double U = std::numeric_limits<double>::epsilon() / 2;
        const double margin = 4.0 * U * (std::abs(p[0]) + std::abs(p[1]) + std::abs(p[2])) + 0x1p-1000;
        if (!(margin < INF)) {
            low.fill(-INF);
            high.fill(INF);
            return;
        }
        for (std::size_t k = 0; k < DIAGONALS; ++k) {
            const auto& d = DIAGONAL_DIRECTIONS[k];
            // An overflowed projection is infinite with the true sign: still a bound on that side.
            const double s = d[0] * p[0] + d[1] * p[1] + d[2] * p[2]; // products by 0 or +-1: exact
            low[k] = std::min(low[k], s - margin);
            high[k] = std::max(high[k], s + margin);
        }
    }

} // namespace

void vertex_diagonal_bounds(const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1, std::span<DiagonalBounds> bounds)
{
    tbb::parallel_for(
        tbb::blocked_range<Eigen::Index>(0, v0.rows(), 4096), [&](const tbb::blocked_range<Eigen::Index>& r) {
            for (Eigen::Index i = r.begin(); i != r.end(); ++i) {
                std::array<double, DIAGONALS> low, high;
                low.fill(INF);
                high.fill(-INF);
                add(v0.row(i), low, high);
                add(v1.row(i), low, high);
                DiagonalBounds& b = bounds[static_cast<std::size_t>(i)];
                b.low.setConstant(-std::numeric_limits<float>::infinity());
                b.high.setConstant(std::numeric_limits<float>::infinity());
                for (std::size_t k = 0; k < DIAGONALS; ++k) {
                    b.low[k] = float_below(low[k]);
                    b.high[k] = float_above(high[k]);
                }
            }
        });
}

} // namespace ccdkit::details
