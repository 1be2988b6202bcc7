// SPDX-License-Identifier: MIT
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cstdint>
#include <random>

namespace ccdkit::test_support {

/// Uniform numbers and vectors, uniformly distributed directions and rotations, from one seeded generator (the
/// rigid tests' random motions and shapes).
class RandomMotions {
public:
    explicit RandomMotions(std::uint64_t seed)
        : rng_(seed)
    {
    }
    double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
    /// Each coordinate uniform in [-scale, scale].
    Eigen::Vector3d vector(double scale)
    {
        const double x = uniform(-1, 1), y = uniform(-1, 1), z = uniform(-1, 1);
        return Eigen::Vector3d(x, y, z) * scale;
    }
    Eigen::Vector3d direction()
    {
        std::normal_distribution<double> gauss;
        const double x = gauss(rng_), y = gauss(rng_), z = gauss(rng_);
        return Eigen::Vector3d(x, y, z).normalized();
    }
    Eigen::Quaterniond rotation()
    {
        std::normal_distribution<double> gauss;
        const double w = gauss(rng_), x = gauss(rng_), y = gauss(rng_), z = gauss(rng_);
        return Eigen::Quaterniond(w, x, y, z).normalized();
    }

private:
    std::mt19937_64 rng_;
};

} // namespace ccdkit::test_support
