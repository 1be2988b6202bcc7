// SPDX-License-Identifier: MIT
#pragma once

// A high-precision reference for distance-based CCD: the distance between two linearly moving primitives
// evaluated in long double, and a branch and bound that decides whether it stays above a separation on a
// time interval.

#include <ccdkit/distance/closest_offset.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

namespace ccdkit::test {

using Real = long double;

/// The pair of a query in long double: distance at a time, and the Lipschitz bound l_p of the distance.
/// Three-dimensional; 2D queries use z = 0.
class DistanceReference {
public:
    using V = Eigen::Matrix<Real, 3, 1>;
    enum class Kind { VERTEX_FACE, EDGE_EDGE, POINT_EDGE, POINT_POINT };

    /// `points` in the 8-point layout (2D queries with z = 0; point-edge: p, e0, e1 at t0,
    /// then at t1 from index 3; point-point: a, b, then at t1 from index 2).
    DistanceReference(Kind kind, const std::array<Eigen::Vector3d, 8>& points)
        : kind_(kind)
    {
        const int n = count();
        for (int i = 0; i < n; ++i) {
            x0_[i] = points[i].cast<Real>();
            p_[i] = points[i + n].cast<Real>() - x0_[i];
        }
    }

    [[nodiscard]] Real distance(Real t) const
    {
        std::array<V, 4> x;
        for (int i = 0; i < count(); ++i) {
            x[i] = x0_[i] + t * p_[i];
        }
        switch (kind_) {
        case Kind::VERTEX_FACE:
            return point_triangle_closest_offset<Real>(x[0], x[1], x[2], x[3]).norm();
        case Kind::EDGE_EDGE:
            return edge_edge_closest_offset<Real, 3>(x[0], x[1], x[2], x[3]).norm();
        case Kind::POINT_EDGE:
            return point_edge_closest_offset<Real, 3>(x[0], x[1], x[2]).norm();
        case Kind::POINT_POINT:
            return (x[0] - x[1]).norm();
        }
        return 0;
    }

    /// l_p: no point of one primitive approaches the other faster (relative to the mean displacement).
    [[nodiscard]] Real speed() const
    {
        V mean = V::Zero();
        for (int i = 0; i < count(); ++i) {
            mean += p_[i];
        }
        mean /= static_cast<Real>(count());
        Real a = 0, b = 0;
        for (int i = 0; i < count(); ++i) {
            (i < first_count() ? a : b) = std::max(i < first_count() ? a : b, (p_[i] - mean).norm());
        }
        return (a + b) * (1 + 1e-15L);
    }

    enum class Verdict { ABOVE, BELOW, UNKNOWN };

    /// Is the distance > s for every t in [a, b]? Branch and bound: d(t) >= d(m) - l_p |t - m|.
    [[nodiscard]] Verdict above(Real s, Real a, Real b) const
    {
        const Real l = speed();
        std::vector<std::pair<Real, Real>> stack { { a, b } };
        int nodes = 0;
        while (!stack.empty()) {
            const auto [lo, hi] = stack.back();
            stack.pop_back();
            const Real m = (lo + hi) / 2, d = distance(m);
            if (d <= s * (1 - 1e-15L)) {
                return Verdict::BELOW;
            }
            if (d - l * (hi - lo) / 2 > s) {
                continue;
            }
            if (++nodes > 200000 || hi - lo < 1e-30L) {
                return Verdict::UNKNOWN;
            }
            stack.push_back({ m, hi });
            stack.push_back({ lo, m });
        }
        return Verdict::ABOVE;
    }

private:
    [[nodiscard]] int count() const { return kind_ == Kind::POINT_POINT ? 2 : kind_ == Kind::POINT_EDGE ? 3 : 4; }
    [[nodiscard]] int first_count() const { return kind_ == Kind::EDGE_EDGE ? 2 : 1; }

    Kind kind_;
    std::array<V, 4> x0_, p_;
};

} // namespace ccdkit::test
