// SPDX-License-Identifier: MIT
#include "rigid/details/wide_range_length.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace ccdkit::details {
namespace {

    /// Against long double (whose squares neither underflow nor overflow here) at scales from the subnormal range to
    /// 1e300; norm() agrees bit for bit in the usual range.
    TEST(WideRangeLength, LengthsAndDirectionsAtEveryScale)
    {
        std::mt19937_64 rng(5);
        std::uniform_real_distribution<double> unit(-1.0, 1.0);
        for (const double scale : { 1e-320, 1e-300, 1e-200, 1e-160, 1e-100, 1.0, 1e100, 1e160, 1e300 }) {
            SCOPED_TRACE(testing::Message() << "scale " << scale);
            for (int k = 0; k < 200; ++k) {
                const Eigen::Vector3d v = Eigen::Vector3d(unit(rng), unit(rng), unit(rng)) * scale;
                const Eigen::Vector3<long double> w = v.cast<long double>();
                const long double exact = std::sqrt(w.squaredNorm());
                // (subnormal coordinates carry few bits of their own)
                const double tolerance = scale < 1e-300 ? 1e-2 : 4e-16;
                EXPECT_NEAR(static_cast<double>(length_of(v) / exact), 1.0, tolerance);
                const Eigen::Vector3d d = direction_of(v);
                EXPECT_NEAR(d.norm(), 1.0, 4e-16);
                EXPECT_LT((d.cast<long double>() - w / exact).cwiseAbs().maxCoeff(), tolerance);
                if (scale == 1.0) {
                    EXPECT_EQ(length_of(v), v.norm());
                    EXPECT_EQ(direction_of(v), v.normalized());
                }
            }
        }
        EXPECT_EQ(length_of(Eigen::Vector3d::Zero()), 0.0);
        EXPECT_TRUE(direction_of(Eigen::Vector3d::Zero()).isZero());
        const double infinity = std::numeric_limits<double>::infinity();
        EXPECT_EQ(length_of(Eigen::Vector3d(infinity, 0, 0)), infinity);
        EXPECT_TRUE(direction_of(Eigen::Vector3d(infinity, 0, 0)).isZero());
        EXPECT_TRUE(std::isnan(length_of(Eigen::Vector3d(std::nan(""), 0, 0))));
    }

} // namespace
} // namespace ccdkit::details
