// SPDX-License-Identifier: MIT
#include "rigid/details/near_points.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace ccdkit::details {
namespace {

    bool brute_force_within(const std::vector<Eigen::Vector3d>& points, const Eigen::Vector3d& p, double distance)
    {
        for (const Eigen::Vector3d& q : points) {
            const Eigen::Vector3<long double> d = (q - p).cast<long double>(); // (no underflow in its squares)
            if (std::sqrt(d.squaredNorm()) <= distance) {
                return true;
            }
        }
        return false;
    }

    /// Greedy thinning as the implicit contacts use it (keep a point unless one kept lies within the spacing),
    /// against a brute-force scan in long double, at scales from tiny (distances whose squares underflow double) to
    /// huge and with spacings that are tiny for the coordinates (the grid's indices clamp), zero or not a number.
    TEST(NearPoints, AgreesWithABruteForceScan)
    {
        std::mt19937_64 rng(17);
        std::uniform_real_distribution<double> unit(-1.0, 1.0);
        for (const double scale : { 1e-200, 1e-140, 1e-3, 1.0, 1e3, 1e150 }) {
            for (const double relative :
                 { 0.0, 1e-30, 1e-3, 0.05, 0.3, 3.0, std::numeric_limits<double>::quiet_NaN() }) {
                SCOPED_TRACE(testing::Message() << "scale " << scale << ", spacing " << relative);
                const double spacing = relative * scale;
                const double distance = std::isnan(spacing) ? 0.0 : spacing;
                NearPoints grid(spacing);
                std::vector<Eigen::Vector3d> kept;
                int close = 0;
                for (int k = 0; k < 600; ++k) {
                    Eigen::Vector3d p(unit(rng), unit(rng), unit(rng));
                    if (k % 5 == 0 && !kept.empty()) {
                        // Near a kept point, at about the distance asked: both sides of it are met.
                        p = kept[static_cast<std::size_t>(k) % kept.size()] / scale
                            + 0.5 * relative * (1.0 + 0.2 * unit(rng)) * Eigen::Vector3d(1, 1, 1).normalized();
                    }
                    p *= scale;
                    const bool expected = brute_force_within(kept, p, distance);
                    ASSERT_EQ(grid.any_within(p, distance), expected) << p.transpose();
                    close += expected ? 1 : 0;
                    if (!expected) {
                        kept.push_back(p);
                        grid.insert(p);
                    }
                }
                if (relative >= 1e-3 && relative <= 3.0) {
                    EXPECT_GT(close, 0); // (the test saw points within the distance)
                }
            }
        }
    }

} // namespace
} // namespace ccdkit::details
