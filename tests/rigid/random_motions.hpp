// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/rigid/rigid_contact.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cstdint>
#include <random>
#include <utility>

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

/// A course for two bodies (on_course): a starts `distance` from the origin (negative: the other way) and moves
/// through it at speed_low..speed_high times that start per step, turning up to turn_a rad per step; b stays about the
/// origin, drifting up to `drift` per step and turning up to turn_b.
struct Course {
    double distance;
    double speed_low;
    double speed_high;
    double turn_a;
    double drift;
    double turn_b;
};

/// Bodies a and b of shapes `shape()` (called for a, then b) on the course, at random poses and in random directions.
template <class MakeShape>
[[nodiscard]] std::pair<RigidBody, RigidBody> on_course(RandomMotions& random, MakeShape&& shape, const Course& course)
{
    const Eigen::Vector3d start = course.distance * random.direction();
    RigidBody a { shape(),
                  RigidMotion(
                      { random.rotation(), start }, -start * random.uniform(course.speed_low, course.speed_high),
                      random.direction() * random.uniform(0.0, course.turn_a)) };
    RigidBody b { shape(),
                  RigidMotion(
                      { random.rotation(), Eigen::Vector3d::Zero() }, random.vector(course.drift),
                      random.direction() * random.uniform(0.0, course.turn_b)) };
    return { std::move(a), std::move(b) };
}

} // namespace ccdkit::test_support
