// SPDX-License-Identifier: MIT
// The certified clearance of a grid, in the standard model of rounding (u = 2^-53):
//   - Extend phi to all space by phi(nearest point of D): still L-Lipschitz (the nearest-point map is
//     1-Lipschitz), <= 0 on the solid, so lower bounds of it at x bound distances from x.
//   - Locating x: t = (x - o) / h is off by 2.01 u |x - o| / h and clamping t to [0, n - 1] does not increase
//     that, so the computed cell and fraction describe a point x'' within 2.01 u (|x_a| + |o_a|) per axis of
//     the nearest point of D to x: phi(x) is within L e_pos of phi(x''), with the generous
//     e_pos = 32 u (|x|_1 + |o|_1 + |extent|_1).
//   - Evaluating: the fractions t - floor(t) are exact; each lerp a + f (b - a) of values bounded by M adds at
//     most 5.1 u M and passes its inputs' errors on unamplified (a convex combination), so three levels stay
//     below 16 u M; we take 32 u M.
// Then phi(x) >= value - (32 u M + L e_pos), and dist(x, solid) >= phi(x) / L because phi <= 0 on the solid
// and the segment from x to a solid point stays in the convex box D, where phi is L-Lipschitz.
#include "core/details/ieee_arithmetic_scope.hpp"
#include "core/details/ieee_arithmetic_tasks.hpp"
#include "rigid/details/certified_rounding.hpp"
#include "rigid/details/grid_lattice.hpp"
#include "rigid/details/rounding.hpp"

#include <ccdkit/rigid/implicit_shape.hpp>
#include <ccdkit/rigid/signed_distance_grid.hpp>

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace ccdkit {

namespace {
    using details::round_down;
    using details::round_up;
    using details::ROUNDOFF;
    using Eigen::Vector3d;

    std::string describe(const Eigen::Vector3i& dims)
    {
        return std::to_string(dims.x()) + " x " + std::to_string(dims.y()) + " x " + std::to_string(dims.z());
    }

    /// A double as the reader expects it ("1e-300", not std::to_string's "0.000000").
    std::string number(double x)
    {
        std::ostringstream out;
        out << x;
        return out.str();
    }

    void require_spacing(double value, const char* caller, const char* name)
    {
        if (!(std::isfinite(value) && value > 0)) {
            throw std::invalid_argument(
                std::string(caller) + ": " + name + " must be finite and > 0, got " + number(value));
        }
    }

    /// The trilinear interpolation of the 8 corner values of a cell (x fastest) at fractions f in [0, 1]^3.
    double trilinear(const std::array<double, 8>& v, const Vector3d& f)
    {
        const auto lerp = [](double a, double b, double t) { return a + t * (b - a); };
        const double x00 = lerp(v[0], v[1], f.x()), x10 = lerp(v[2], v[3], f.x());
        const double x01 = lerp(v[4], v[5], f.x()), x11 = lerp(v[6], v[7], f.x());
        return lerp(lerp(x00, x10, f.y()), lerp(x01, x11, f.y()), f.z());
    }
} // namespace

SignedDistanceGrid::SignedDistanceGrid(
    const Eigen::Vector3d& origin, double cell_size, const Eigen::Vector3i& dims, std::vector<double> values)
    : origin_(origin)
    , cell_size_(cell_size)
    , dims_(dims)
    , values_(std::move(values))
{
    const details::IeeeArithmeticScope ieee; // the Lipschitz constants below are certified bounds
    constexpr const char* WHO = "SignedDistanceGrid";
    if (!(origin.cwiseAbs().maxCoeff() <= details::MAX_COORDINATE)) {
        throw std::invalid_argument("SignedDistanceGrid: origin must be finite and at most 1e150 in magnitude");
    }
    require_spacing(cell_size, WHO, "cell_size");
    if (!(cell_size <= details::MAX_COORDINATE)) {
        throw std::invalid_argument("SignedDistanceGrid: cell_size must be at most 1e150, got " + number(cell_size));
    }
    if ((dims.array() < 2).any()) {
        throw std::invalid_argument("SignedDistanceGrid: dims must be >= 2 on every axis, got " + describe(dims));
    }
    const double count = double(dims.x()) * double(dims.y()) * double(dims.z());
    if (count > double(MAX_SAMPLES)) {
        throw std::invalid_argument(
            "SignedDistanceGrid: " + describe(dims) + " samples exceed the limit of " + std::to_string(MAX_SAMPLES));
    }
    if (double(values_.size()) != count) {
        throw std::invalid_argument(
            "SignedDistanceGrid: " + std::to_string(values_.size()) + " values given for " + describe(dims)
            + " samples");
    }
    // (Beyond 1e150 the differences between neighbours, their squares or their slopes over a small cell overflow:
    // infinite or NaN Lipschitz bounds and clearances.)
    const auto bad = std::find_if(
        values_.begin(), values_.end(), [](double v) { return !(std::abs(v) <= details::MAX_COORDINATE); });
    if (bad != values_.end()) {
        throw std::invalid_argument(
            "SignedDistanceGrid: value " + std::to_string(bad - values_.begin()) + " (" + number(*bad)
            + ") is not finite or exceeds 1e150 in magnitude");
    }

    // Lipschitz constants, per cell and overall. In a cell each component of the gradient is multilinear and
    // independent of its own coordinate, so |gradient|^2 is convex along every axis and peaks at a corner,
    // where the gradient is the three one-sided differences over h. Those, the squares, sum and root lose at
    // most 8.1 u relative: hence 1 + 16 u, then rounded up to a float.
    cell_lipschitz_.resize(
        static_cast<std::size_t>(dims.x() - 1) * static_cast<std::size_t>(dims.y() - 1)
        * static_cast<std::size_t>(dims.z() - 1));
    double largest = 0;
    for (int k = 0; k + 1 < dims.z(); ++k) {
        for (int j = 0; j + 1 < dims.y(); ++j) {
            for (int i = 0; i + 1 < dims.x(); ++i) {
                double steepest = 0;
                for (int c = 0; c < 8; ++c) {
                    const int a = c & 1, b = (c >> 1) & 1, d = c >> 2;
                    const Vector3d gradient(
                        value(i + 1, j + b, k + d) - value(i, j + b, k + d),
                        value(i + a, j + 1, k + d) - value(i + a, j, k + d),
                        value(i + a, j + b, k + 1) - value(i + a, j + b, k));
                    steepest = std::max(steepest, gradient.norm() / cell_size);
                }
                const double bound = round_up(steepest * (1 + 16 * ROUNDOFF));
                // (Stored as a float, rounded up; a slope beyond float's range is stored as infinity, which the
                // clearance then bounds by the global constant instead.)
                cell_lipschitz_[cell_index(i, j, k)] = bound <= double(std::numeric_limits<float>::max())
                    ? std::nextafter(static_cast<float>(bound), std::numeric_limits<float>::infinity())
                    : std::numeric_limits<float>::infinity();
                largest = std::max(largest, bound);
            }
        }
    }
    if (!std::isfinite(largest)) {
        // (Values up to 1e150 over cells far smaller than their steps: slopes beyond double's range.)
        throw std::invalid_argument(
            "SignedDistanceGrid: the values' slopes overflow (steps between neighbours over cell_size "
            + number(cell_size) + " exceed double's range)");
    }
    lipschitz_ = std::max(largest, std::numeric_limits<double>::min());

    // The far corner o + h (n - 1) is rounded twice: off by at most 2.01 u (|o| + h (n - 1)) per axis.
    const Vector3d extent = cell_size * (dims.array() - 1).cast<double>().matrix();
    position_slack_ = 4 * ROUNDOFF * (origin.cwiseAbs().maxCoeff() + extent.maxCoeff()) + details::UNDERFLOW_SLACK;
    const Eigen::Array3d far = (origin + extent).array();
    outer_ = { origin.array(), (far + position_slack_).unaryExpr([](double v) { return round_up(v); }) };
    inner_ = { origin.array(), (far - position_slack_).unaryExpr([](double v) { return round_down(v); }) };

    // The solid lies in the cells with a corner <= 0 (phi in a cell is a convex combination of its corners).
    Eigen::Array3i low = dims.array(), high = Eigen::Array3i::Constant(-1);
    double farthest = 0;
    for (int k = 0; k + 1 < dims.z(); ++k) {
        for (int j = 0; j + 1 < dims.y(); ++j) {
            for (int i = 0; i + 1 < dims.x(); ++i) {
                bool touches = false;
                for (int c = 0; c < 8; ++c) {
                    touches = touches || value(i + (c & 1), j + ((c >> 1) & 1), k + (c >> 2)) <= 0;
                }
                if (!touches) {
                    continue;
                }
                low = low.min(Eigen::Array3i(i, j, k));
                high = high.max(Eigen::Array3i(i + 1, j + 1, k + 1));
                const Eigen::Array3d near_corner = origin.array() + cell_size * Eigen::Array3d(i, j, k);
                const Eigen::Array3d far_corner = near_corner + cell_size;
                farthest = std::max(farthest, near_corner.abs().max(far_corner.abs()).matrix().norm());
            }
        }
    }
    if ((high < 0).any()) {
        solid_bounds_ = details::empty_box();
        bounding_radius_ = 0;
        return;
    }
    for (int axis = 0; axis < 3; ++axis) {
        solid_bounds_.min[axis] = round_down(origin[axis] + cell_size * low[axis] - position_slack_);
        solid_bounds_.max[axis] = round_up(origin[axis] + cell_size * high[axis] + position_slack_);
    }
    // Corners are off by the position slack per axis; the norm loses 2.51 u.
    bounding_radius_ = round_up((farthest + 2 * position_slack_) * (1 + 8 * ROUNDOFF));
}

SignedDistanceGrid::Evaluation SignedDistanceGrid::evaluate(const Eigen::Vector3d& x) const
{
    Eigen::Vector3i cell;
    Vector3d fraction;
    for (int axis = 0; axis < 3; ++axis) {
        const double t = std::clamp((x[axis] - origin_[axis]) / cell_size_, 0.0, double(dims_[axis] - 1));
        cell[axis] = std::min(static_cast<int>(t), dims_[axis] - 2);
        fraction[axis] = t - cell[axis];
    }
    std::array<double, 8> corners {};
    double magnitude = 0;
    for (int c = 0; c < 8; ++c) {
        corners[static_cast<std::size_t>(c)]
            = value(cell.x() + (c & 1), cell.y() + ((c >> 1) & 1), cell.z() + (c >> 2));
        magnitude = std::max(magnitude, std::abs(corners[static_cast<std::size_t>(c)]));
    }
    const Vector3d extent = outer_.max.matrix() - origin_;
    const double position_error
        = 32 * ROUNDOFF * (x.lpNorm<1>() + origin_.lpNorm<1>() + extent.lpNorm<1>()) + details::UNDERFLOW_SLACK;
    return { trilinear(corners, fraction), 32 * ROUNDOFF * magnitude + lipschitz_ * position_error };
}

// The public evaluations run in plain IEEE arithmetic whatever the caller's mode (ieee_arithmetic_scope.hpp): the
// bounds' rounding terms assume it, and a flushed subnormal sample or product would read as zero.

double SignedDistanceGrid::interpolate(const Eigen::Vector3d& x) const
{
    const details::IeeeArithmeticScope ieee;
    return evaluate(x).value;
}

double SignedDistanceGrid::signed_distance(const Eigen::Vector3d& x) const
{
    const details::IeeeArithmeticScope ieee;
    const Vector3d p = x.cwiseMax(outer_.min.matrix()).cwiseMin(outer_.max.matrix());
    const double value = interpolate(p);
    if (p == x) {
        return value;
    }
    return std::hypot((x - p).norm(), std::max(value, 0.0));
}

double SignedDistanceGrid::field_bound(const Eigen::Vector3d& x, double lower) const
{
    const double global = round_down(lower / lipschitz_);
    if (!(lower > 0)) {
        return global;
    }
    // If a point s of the other side were nearer than r, phi would change by lower over |x - s| < r along a
    // segment inside the ball B(x, r), so |x - s| >= lower / L_r with L_r the largest constant of the cells
    // meeting the ball: the distance is at least min(r, lower / L_r). The index window is one cell wider on
    // each side than the ball's box, which absorbs the rounding of locating it.
    const double radius = std::min(lower, LOCAL_WINDOW_CELLS * cell_size_);
    Eigen::Array3i low, high;
    for (int axis = 0; axis < 3; ++axis) {
        const double from = std::floor((x[axis] - radius - origin_[axis]) / cell_size_) - 1;
        const double to = std::floor((x[axis] + radius - origin_[axis]) / cell_size_) + 1;
        low[axis] = static_cast<int>(std::clamp(from, 0.0, double(dims_[axis] - 2)));
        high[axis] = static_cast<int>(std::clamp(to, 0.0, double(dims_[axis] - 2)));
    }
    double local_lipschitz = std::numeric_limits<double>::min();
    for (int k = low.z(); k <= high.z(); ++k) {
        for (int j = low.y(); j <= high.y(); ++j) {
            for (int i = low.x(); i <= high.x(); ++i) {
                local_lipschitz = std::max(local_lipschitz, double(cell_lipschitz_[cell_index(i, j, k)]));
            }
        }
    }
    return std::max(global, std::min(radius, round_down(lower / local_lipschitz)));
}

double SignedDistanceGrid::clearance_in_domain(const Eigen::Vector3d& x) const
{
    const Evaluation e = evaluate(x);
    return field_bound(x, details::lower_bound(e.value, e.error));
}

double SignedDistanceGrid::clearance(const Eigen::Vector3d& x) const
{
    const details::IeeeArithmeticScope ieee;
    const Vector3d p = x.cwiseMax(outer_.min.matrix()).cwiseMin(outer_.max.matrix());
    const double at_p = clearance_in_domain(p);
    if (p == x) {
        return at_p;
    }
    // The computed sqrt(d^2 + c^2) is at most 1 + 6 u times the exact one (d = |x - p| included).
    const double d = (x - p).norm(), c = std::max(at_p, 0.0);
    return round_down(std::sqrt(d * d + c * c) * (1 - 16 * ROUNDOFF));
}

double SignedDistanceGrid::depth(const Eigen::Vector3d& x) const
{
    const details::IeeeArithmeticScope ieee;
    const Evaluation e = evaluate(x);
    const double in_field = field_bound(x, details::lower_bound(-e.value, e.error));
    // Distance to the boundary of the inner box, which lies inside D (negative outside it).
    double in_box = details::INF;
    for (int axis = 0; axis < 3; ++axis) {
        in_box = std::min({ in_box, round_down(x[axis] - inner_.min[axis]), round_down(inner_.max[axis] - x[axis]) });
    }
    return std::min(in_field, in_box);
}

Eigen::Vector3d SignedDistanceGrid::normal(const Eigen::Vector3d& x) const
{
    const details::IeeeArithmeticScope ieee;
    // Inside the box, differences of phi over a stencil kept inside the box (the estimate outside it has a
    // different slope); outside, differences of the estimate.
    const bool inside = (outer_.min <= x.array()).all() && (x.array() <= outer_.max).all();
    const double step = cell_size_ / 2;
    Vector3d gradient;
    for (int axis = 0; axis < 3; ++axis) {
        Vector3d low = x, high = x;
        low[axis] -= step;
        high[axis] += step;
        if (inside) {
            low[axis] = std::max(low[axis], outer_.min[axis]);
            high[axis] = std::min(high[axis], outer_.max[axis]);
        }
        gradient[axis] = (signed_distance(high) - signed_distance(low)) / (high[axis] - low[axis]);
    }
    const double norm = gradient.norm();
    return norm > 0 ? Vector3d(gradient / norm) : Vector3d::UnitZ();
}

std::vector<SurfaceSample> SignedDistanceGrid::sample_surface(double spacing) const
{
    const details::IeeeArithmeticScope ieee;
    require_spacing(spacing, "SignedDistanceGrid::sample_surface", "spacing");
    const double split = std::ceil(2 * cell_size_ / spacing);
    if (split > 1024) {
        throw std::invalid_argument(
            "SignedDistanceGrid::sample_surface: spacing " + number(spacing) + " is too small for cells of "
            + number(cell_size_));
    }
    const int sub = static_cast<int>(split);
    std::vector<SurfaceSample> samples;
    for (int k = 0; k + 1 < dims_.z(); ++k) {
        for (int j = 0; j + 1 < dims_.y(); ++j) {
            for (int i = 0; i + 1 < dims_.x(); ++i) {
                const Eigen::Vector3i cell(i, j, k);
                std::array<double, 8> corners {};
                for (int c = 0; c < 8; ++c) {
                    corners[static_cast<std::size_t>(c)] = value(i + (c & 1), j + ((c >> 1) & 1), k + (c >> 2));
                }
                const auto [lowest, highest] = std::minmax_element(corners.begin(), corners.end());
                if (!(*lowest <= 0 && *highest > 0)) {
                    continue; // no sign change in the cell
                }
                // Sub-lattice edges along `axis`; an edge on a face shared with the next cell is left to that cell.
                for (int axis = 0; axis < 3; ++axis) {
                    const int b = (axis + 1) % 3, c = (axis + 2) % 3;
                    const int last_b = cell[b] + 2 == dims_[b] ? sub : sub - 1;
                    const int last_c = cell[c] + 2 == dims_[c] ? sub : sub - 1;
                    for (int ib = 0; ib <= last_b; ++ib) {
                        for (int ic = 0; ic <= last_c; ++ic) {
                            for (int ia = 0; ia < sub; ++ia) {
                                Vector3d f0;
                                f0[axis] = double(ia) / sub;
                                f0[b] = double(ib) / sub;
                                f0[c] = double(ic) / sub;
                                Vector3d f1 = f0;
                                f1[axis] = double(ia + 1) / sub;
                                const double v0 = trilinear(corners, f0), v1 = trilinear(corners, f1);
                                if ((v0 <= 0) == (v1 <= 0)) {
                                    continue;
                                }
                                const Vector3d f = f0 + (v0 / (v0 - v1)) * (f1 - f0);
                                const Vector3d p = origin_ + cell_size_ * (cell.cast<double>() + f);
                                samples.push_back({ p, normal(p) });
                            }
                        }
                    }
                }
            }
        }
    }
    return samples;
}

SignedDistanceGrid SignedDistanceGrid::sample(const ImplicitShape& shape, double cell_size, double padding)
{
    return details::sample_on_lattice(
        shape.bounds(), cell_size, padding, "SignedDistanceGrid::sample",
        [&shape](const Vector3d& x) { return shape.signed_distance(x); });
}

namespace details {

    SignedDistanceGrid sample_on_lattice(
        const Aabb& box,
        double cell_size,
        double padding,
        const char* caller,
        const std::function<double(const Eigen::Vector3d&)>& field)
    {
        require_spacing(cell_size, caller, "cell_size");
        if (!(std::isfinite(padding) && padding >= 0)) {
            throw std::invalid_argument(
                std::string(caller) + ": padding must be finite and >= 0, got " + number(padding));
        }
        if (is_empty(box) || !box.min.allFinite() || !box.max.allFinite()) {
            throw std::invalid_argument(std::string(caller) + ": the solid is empty or unbounded");
        }
        const Vector3d origin = (box.min - padding).matrix();
        const Eigen::Array3d cells = ((box.max + padding - box.min + padding) / cell_size).ceil();
        if (!((cells + 1).prod() <= double(SignedDistanceGrid::MAX_SAMPLES))) {
            throw std::invalid_argument(
                std::string(caller) + ": cell_size " + number(cell_size) + " gives more than "
                + std::to_string(SignedDistanceGrid::MAX_SAMPLES) + " samples");
        }
        const Eigen::Vector3i dims = (cells.max(1) + 1).cast<int>().matrix();
        std::vector<double> values(static_cast<std::size_t>(dims.prod()));
        // The samples and the grid's certified bounds (Lipschitz constants) in plain IEEE arithmetic, on every
        // oneTBB task (see ieee_arithmetic_tasks.hpp).
        return with_ieee_arithmetic([&]() -> SignedDistanceGrid {
            tbb::parallel_for(0, dims.z(), [&](int k) {
                for (int j = 0; j < dims.y(); ++j) {
                    for (int i = 0; i < dims.x(); ++i) {
                        const Vector3d x = origin + cell_size * Vector3d(i, j, k);
                        values[static_cast<std::size_t>(i + dims.x() * (j + dims.y() * k))] = field(x);
                    }
                }
            });
            return { origin, cell_size, dims, std::move(values) };
        });
    }

} // namespace details

} // namespace ccdkit
