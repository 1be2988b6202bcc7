// SPDX-License-Identifier: MIT
#pragma once

// Generated 8-point queries (vertex-face or edge-edge layout), mostly degenerate or nearly so: the cases
// where filters, case analyses and step bounds go wrong.

#include <Eigen/Core>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>

namespace ccdkit::test {

/// Queries of six families (integer grids, constructed contacts, general position, coincident points),
/// a few of them scaled by 2^-600 .. 2^600.
class QueryGenerator {
public:
    explicit QueryGenerator(std::uint64_t seed)
        : rng_(seed)
    {
    }

    /// One query from a randomly chosen family.
    std::array<Eigen::Vector3d, 8> next(bool vertex_face)
    {
        std::array<Eigen::Vector3d, 8> x;
        switch (pick(6)) {
        case 0:
            x = grid(4);
            break; // small integer grid: exact coplanarity, touching, collinearity
        case 1:
            x = grid(1);
            break; // coarser grid: even more coincidences
        case 2:
            x = constructed_contact(vertex_face, false);
            break; // contact rounded to the nearest doubles
        case 3:
            x = constructed_contact(vertex_face, true);
            break; // contact on an edge or vertex
        case 4:
            x = uniform();
            break; // general position
        default:
            x = with_coincidences();
            break; // shared, static or collapsed points
        }
        if (pick(8) == 0) { // exact power-of-two scaling to huge or tiny magnitudes
            const double s = std::ldexp(1.0, static_cast<int>(pick(1200)) - 600);
            for (auto& p : x) {
                p *= s;
            }
        }
        return x;
    }

private:
    std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
    double unit() { return std::uniform_real_distribution<double>(-1.0, 1.0)(rng_); }

    std::array<Eigen::Vector3d, 8> grid(int steps)
    {
        std::array<Eigen::Vector3d, 8> x;
        for (auto& p : x) {
            for (int k = 0; k < 3; ++k) {
                p[k] = static_cast<double>(static_cast<int>(pick(2 * steps + 1)) - steps) / steps;
            }
        }
        return x;
    }

    std::array<Eigen::Vector3d, 8> uniform()
    {
        std::array<Eigen::Vector3d, 8> x;
        for (auto& p : x) {
            p = { unit(), unit(), unit() };
        }
        return x;
    }

    std::array<Eigen::Vector3d, 8> with_coincidences()
    {
        std::array<Eigen::Vector3d, 8> x = pick(2) ? uniform() : grid(2);
        for (int n = static_cast<int>(pick(4)) + 1; n > 0; --n) {
            const std::size_t i = pick(8), j = pick(8);
            if (pick(3) == 0) {
                x[i][pick(3)] = x[j][pick(3)]; // one coordinate shared
            } else {
                x[i] = x[j];
            }
        }
        return x;
    }

    /// Places the contact point of a random configuration at a random time, then rounds: the result touches,
    /// nearly touches or nearly misses.
    std::array<Eigen::Vector3d, 8> constructed_contact(bool vertex_face, bool on_boundary)
    {
        std::array<Eigen::Vector3d, 8> x = uniform();
        const double t = pick(4) == 0 ? static_cast<double>(pick(2)) : std::abs(unit());
        const auto at = [&](int i) -> Eigen::Vector3d { return x[i] + t * (x[i + 4] - x[i]); };
        double w[3] = { std::abs(unit()), std::abs(unit()), std::abs(unit()) };
        if (on_boundary) {
            w[pick(3)] = 0.0;
            if (pick(2)) {
                w[pick(3)] = 0.0;
            }
        }
        const double sum = w[0] + w[1] + w[2];
        if (sum == 0.0) {
            w[0] = 1.0;
        }
        Eigen::Vector3d target;
        if (vertex_face) {
            const double total = w[0] + w[1] + w[2];
            target = (w[0] * at(1) + w[1] * at(2) + w[2] * at(3)) / total;
            // Move the vertex's end so that it passes through the target at time t.
            if (t > 0.0) {
                x[4] = x[0] + (target - x[0]) / t;
            } else {
                x[0] = target;
            }
        } else {
            const double s = w[0] / (w[0] + w[1] + 1e-300);
            target = at(0) + s * (at(1) - at(0));
            const double u = on_boundary ? static_cast<double>(pick(2)) : std::abs(unit());
            // Shift edge b so that its point at parameter u passes through the target at time t.
            const Eigen::Vector3d offset = target - (at(2) + u * (at(3) - at(2)));
            for (const int i : { 2, 3, 6, 7 }) {
                x[i] += offset;
            }
        }
        return x;
    }

    std::mt19937_64 rng_;
};

} // namespace ccdkit::test
