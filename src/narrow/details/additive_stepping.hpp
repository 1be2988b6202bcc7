// SPDX-License-Identifier: MIT
#pragma once

// The stepping loop of additive CCD (narrow/additive_ccd.hpp explains the method and why it is safe), shared
// by the pair queries and the line-search filter, which hands over displacements instead of end positions.

#include "core/details/ieee_arithmetic_scope.hpp"
#include "narrow/details/axis_separation.hpp"

#include <ccdkit/distance/closest_offset.hpp>
#include <ccdkit/narrow/additive_ccd.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace ccdkit::details {

constexpr double ROUNDOFF = 0x1p-53; ///< unit roundoff
/// Absolute slack for underflow: coordinates are scaled below 1 in magnitude, so every product that
/// underflows is below 2^-1022 and a handful of them stay far below this.
constexpr double UNDERFLOW_SLACK = 0x1p-1000;
/// Shortest direction used for a separation, squared (gaps_at): |v|^2 >= 2^-1000 keeps what
/// underflow can do to |v|^2 (Dim squares off by 2^-1075 each) below 2^-73 of it, and 1 / |v| <= 2^500.
constexpr double MIN_DIRECTION_NORM2 = 0x1p-1000;
/// Bound on what underflow in the dot products can add to a normalized separation (gaps_at):
/// 2 Dim 2^-1075 / |v| <= 2^-1072 2^500 (1 + u), with room to spare; still far below any rounding of coordinates.
constexpr double DIRECTION_UNDERFLOW_SLACK = 0x1p-560;

template <int Dim> using Vec = Eigen::Matrix<double, Dim, 1>;

/// The coordinates of the points as one array (Vec has no padding): operations over it vectorize.
template <int Dim, std::size_t N> auto coordinates(const std::array<Vec<Dim>, N>& points)
{
    static_assert(sizeof(points) == sizeof(double) * Dim * N);
    return Eigen::Map<const Eigen::Array<double, Dim * N, 1>>(points[0].data());
}

/// True when every coordinate is finite: x * 0 is 0 for finite x and NaN otherwise (one vectorized pass).
template <int Dim, std::size_t N> bool all_finite(const std::array<Vec<Dim>, N>& points)
{
    return (coordinates(points) * 0.0).sum() == 0.0;
}

/// 2^e for -1022 <= e <= 1023, built from its bits.
inline double power_of_two(int e) { return std::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52); }

/// The e with 2^(e - 1) <= x < 2^e (ilogb(x) + 1) for finite x > 0, read from the bits but for subnormals; 0
/// for x = 0.
inline int binary_exponent(double x)
{
    const auto field = static_cast<int>(std::bit_cast<std::uint64_t>(x) >> 52); // x >= 0: no sign bit
    if (field == 0) {
        return x > 0.0 ? std::ilogb(x) + 1 : 0;
    }
    return field - 1022;
}

/// Bound on |computed position - true position| (Euclidean) of x0 + t p computed as fl(x0 + fl(t p~)) for any
/// t in [0, 1], where p~ = p or fl(x1 - x0): per coordinate the rounding errors add up to at most
/// u (|x0| + 3.01 |p~|), and the 1-norm bounds the Euclidean one. The worst vertex of each primitive, added.
template <int Dim, int NA, int NB>
double interpolation_error(const std::array<Vec<Dim>, NA + NB>& x0, const std::array<Vec<Dim>, NA + NB>& p)
{
    double error_a = 0.0, error_b = 0.0;
    for (int i = 0; i < NA + NB; ++i) {
        const double error
            = 1.01 * ROUNDOFF * (x0[i].template lpNorm<1>() + 3.01 * p[i].template lpNorm<1>()) + UNDERFLOW_SLACK;
        double& worst = i < NA ? error_a : error_b;
        worst = std::max(worst, error);
    }
    return error_a + error_b;
}

/// A pair of primitives with NA and NB vertices at the start and at the end of a linear motion, scaled by a power
/// of two so that every coordinate is below 1 in magnitude (exact, but for underflow covered by
/// UNDERFLOW_SLACK). All that the test of the whole step needs; StepMotion adds what the steps need.
template <int Dim, int NA, int NB> struct ScaledPair {
    static constexpr int N = NA + NB;
    std::array<Vec<Dim>, N> x0, x1; ///< positions at t = 0 and t = 1 (fl(x0 + p) when given displacements)
    std::array<Vec<Dim>, N> p; ///< the displacements, only when given (StepMotion forms x1 - x0 otherwise)
    bool displacements = false;
    /// fl(x1_k - x1_0) and the largest of their 1-norms: the separations at t = 1 that gaps_at pairs with
    /// those at t, the same for every step.
    std::array<Vec<Dim>, N> end_offsets;
    double end_spread = 0.0;
    double min_distance = 0.0;
    /// Bound on |computed position - true position| (Euclidean) of x0 and x1: the worst vertex of each
    /// primitive, added (only underflow when given end positions).
    double end_error = 2 * UNDERFLOW_SLACK;

    /// `second` holds the positions at t = 1, or the displacements when `displacements`.
    ScaledPair(
        const std::array<Vec<Dim>, N>& at_t0, const std::array<Vec<Dim>, N>& second, bool displacements_given, double s)
        : displacements(displacements_given)
    {
        const double largest = std::max(coordinates(at_t0).abs().maxCoeff(), coordinates(second).abs().maxCoeff());
        // Multiplying by 2^-e, largest < 2^e, is exact but for underflow (UNDERFLOW_SLACK) and far cheaper than
        // ldexp. One factor when 2^-e is a normal double, else two (each normal) with that product.
        const int exponent = binary_exponent(largest);
        const bool one_factor = exponent > -1022 && exponent < 1022;
        const double f1 = power_of_two(one_factor ? -exponent : -exponent / 2);
        const double f2 = one_factor ? 1.0 : power_of_two(-exponent - (-exponent / 2));
        const auto scaled = [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            return one_factor ? T(v * f1) : T(v * f1 * f2);
        };
        for (int i = 0; i < N; ++i) {
            x0[i] = scaled(at_t0[i]);
        }
        if (displacements) {
            for (int i = 0; i < N; ++i) {
                p[i] = scaled(second[i]);
                x1[i] = x0[i] + p[i];
            }
            end_error = interpolation_error<Dim, NA, NB>(x0, p);
        } else {
            for (int i = 0; i < N; ++i) {
                x1[i] = scaled(second[i]);
            }
        }
        for (int k = 0; k < N; ++k) {
            end_offsets[k] = x1[k] - x1[0];
            end_spread = std::max(end_spread, end_offsets[k].template lpNorm<1>());
        }
        min_distance = scaled(s);
        // Exact unless it underflows (both factors are then at most 1, so only a subnormal result can be
        // inexact): never certify less than the requested separation.
        if (s > 0.0 && min_distance < 0x1p-1022) {
            min_distance += UNDERFLOW_SLACK;
        }
    }
};

/// The motion x(t) = x0 + t p of a ScaledPair, for pairs that need steps.
template <int Dim, int NA, int NB> struct StepMotion {
    static constexpr int N = NA + NB;
    const ScaledPair<Dim, NA, NB>& pair;
    std::array<Vec<Dim>, N> p; ///< p~: the given displacements, or fl(x1 - x0)
    /// Bound on |computed position - true position| of at(t) for any t in [0, 1], the worst vertex of each
    /// primitive added; it covers pair.x1 too (which is at(1) when given displacements, exact otherwise).
    double position_error = 0.0;

    explicit StepMotion(const ScaledPair<Dim, NA, NB>& scaled)
        : pair(scaled)
    {
        for (int i = 0; i < N; ++i) {
            p[i] = pair.displacements ? pair.p[i] : Vec<Dim>(pair.x1[i] - pair.x0[i]);
        }
        position_error = pair.displacements ? pair.end_error : interpolation_error<Dim, NA, NB>(pair.x0, p);
    }

    /// Upper bound of l_p, the fastest any point of one primitive approaches the other.
    [[nodiscard]] double speed_bound() const
    {
        Vec<Dim> mean = Vec<Dim>::Zero();
        double largest_p = 0.0;
        for (int i = 0; i < N; ++i) {
            mean += p[i];
            largest_p = std::max(largest_p, p[i].template lpNorm<1>());
        }
        mean /= N;
        // Any reference velocity c works in |p_a - c| + |p_b - c|; the computed mean is a good one. The
        // factor covers rounding of p_i - c and of the norms; the last term the rounding of p itself (the
        // 1-norm bounds the Euclidean one).
        double speed_a = 0.0, speed_b = 0.0; // squared
        for (int i = 0; i < N; ++i) {
            double& speed = i < NA ? speed_a : speed_b;
            speed = std::max(speed, (p[i] - mean).squaredNorm());
        }
        return (std::sqrt(speed_a) + std::sqrt(speed_b)) * (1 + 16 * ROUNDOFF) + 8 * ROUNDOFF * largest_p
            + UNDERFLOW_SLACK;
    }

    [[nodiscard]] std::array<Vec<Dim>, N> at(double t) const
    {
        std::array<Vec<Dim>, N> x;
        for (int i = 0; i < N; ++i) {
            x[i] = pair.x0[i] + t * p[i];
        }
        return x;
    }
};

/// The error term of gaps_at for a spread D.
template <int Dim> double separation_error(double spread)
{
    return 2 * (Dim + 4) * ROUNDOFF * spread + DIRECTION_UNDERFLOW_SLACK;
}

/// 1 / |v| for a direction usable by gaps_at (scaling a short one up first, exactly), or 0 for
/// zero (an unused direction) and non-finite ones.
template <int Dim> double inverse_length(Vec<Dim>& v)
{
    double vv = v.squaredNorm();
    if (vv < MIN_DIRECTION_NORM2) {
        v *= 0x1p600; // |v| < 2^-500 stays below 2^100
        vv = v.squaredNorm();
    }
    if (!(vv >= MIN_DIRECTION_NORM2) || !std::isfinite(vv)) {
        return 0.0;
    }
    return 1.0 / std::sqrt(vv);
}

/// The range of h_k = fl(v.d_k) over each vertex set along a direction; x_0 belongs to A and h_0 = 0.
struct Extents {
    double a_low = 0.0, a_high = 0.0;
    double b_low = std::numeric_limits<double>::infinity(), b_high = -std::numeric_limits<double>::infinity();

    void add(bool in_a, double h)
    {
        if (in_a) {
            a_low = std::min(a_low, h);
            a_high = std::max(a_high, h);
        } else {
            b_low = std::min(b_low, h);
            b_high = std::max(b_high, h);
        }
    }
    [[nodiscard]] double gap() const { return std::max(a_low - b_high, b_low - a_high); }
};

/// Certified lower bound of (true distance) - min_distance from a separation of the computed points' hulls,
/// the points within `position_error` (both primitives' worst vertices added) of the true ones.
inline double gap_from_separation(double separation, double position_error, double min_distance)
{
    separation = std::max(0.0, separation);
    const double gap = separation - position_error - min_distance;
    // Two rounded subtractions, and the rounding of the added position errors: at most 3 u of the largest operand.
    return gap - 3 * ROUNDOFF * (separation + min_distance) - UNDERFLOW_SLACK;
}

/// Certified lower bounds of (true distance) - min_distance at a time t and over the rest of the step, [t, 1].
struct Gaps {
    double now = 0.0;
    double swept = 0.0; ///< > 0: the pair provably stays more than min_distance apart on [t, 1]
};

/// The gaps at t from x = pair.at(t) (pair.x0 for t = 0) and the directions offered there.
///
/// `now`: the separation of the hulls A of x[0, NA) and B of x[NA, N): for a unit vector n,
/// dist(A, B) >= min_A n.a - max_B n.b (or with A and B swapped), and the best of the given directions is
/// kept. Error analysis, with d_k = fl(x_k - x_0) and D = max |d_k|: each h_k = fl(v.d_k) is within
/// (Dim + 3) u |v| D of v.(x_k - x_0) (the difference's rounding, then the dot product's); a difference of
/// two of them within twice that; so the normalized separation is within 2 (Dim + 3) u D (1 + u), whatever
/// the direction, plus the relative rounding of |v|^2, its square root, the reciprocal and the product
/// (below 5 u for Dim <= 3). That analysis assumes no underflow: a shorter direction is scaled up by 2^600
/// (exactly) until |v|^2 >= MIN_DIRECTION_NORM2, so that |v|^2 and its square root keep their relative rounding
/// (a subnormal |v|^2 can be off by 2^-15 and overstate the separation by as much); then 1 / |v| <= 2^500, and
/// the products that underflow in a gap (at most 2 Dim, each off by at most 2^-1075) move the normalized gap by
/// less than DIRECTION_UNDERFLOW_SLACK.
///
/// `swept` (only when `Sweep`; 0 otherwise): along a fixed unit vector n, the bound
/// f(t) = min_A n.a(t) - max_B n.b(t) is, under linear motion, a minimum of affine functions of t minus a maximum
/// of affine functions, hence concave: on [t, 1] it is at least the smaller of f(t) and f(1). So a direction
/// that puts B on the same side of A by more than min_distance both at t and at 1 rules out any contact on
/// [t, 1]. (This is weaker a demand than separating the hulls of all positions at t and at 1, and settles more
/// pairs.) The separation at 1 is computed as at t, from the offsets x1_k - x1_0 (D over both times), and the
/// smaller of the two normalized separations of one side is kept. The search stops at the first direction
/// that proves the pair apart; `now` is then the bound from the directions seen so far (>= swept).
template <bool Sweep, int Dim, int NA, int NB, std::size_t K>
Gaps gaps_at(
    const ScaledPair<Dim, NA, NB>& pair,
    double position_error,
    const std::array<Vec<Dim>, NA + NB>& x,
    const std::array<Vec<Dim>, K>& directions)
{
    constexpr int N = NA + NB;
    std::array<Vec<Dim>, N> d; // positions at t minus x_0 at t
    double spread_now = 0.0; // D, bounded by the 1-norm (no square root)
    for (int k = 0; k < N; ++k) {
        d[k] = x[k] - x[0];
        spread_now = std::max(spread_now, d[k].template lpNorm<1>());
    }
    const double error_swept = separation_error<Dim>(std::max(spread_now, pair.end_spread));
    Gaps gaps;
    double best_now = 0.0, best_swept = 0.0; // largest gap / |v| over the directions
    for (Vec<Dim> v : directions) {
        // 1 / |v| does not wait for the dot products: it stays off the critical path of the stepping loop.
        const double scale = inverse_length(v);
        if (!(scale > 0.0)) {
            continue;
        }
        Extents now;
        for (int k = 1; k < N; ++k) {
            now.add(k < NA, v.dot(d[k]));
        }
        best_now = std::max(best_now, now.gap() * scale);
        if constexpr (Sweep) {
            Extents end;
            for (int k = 1; k < N; ++k) {
                end.add(k < NA, v.dot(pair.end_offsets[k]));
            }
            const double a_above = std::min(now.a_low - now.b_high, end.a_low - end.b_high);
            const double b_above = std::min(now.b_low - now.a_high, end.b_low - end.a_high);
            best_swept = std::max(best_swept, std::max(a_above, b_above) * scale);
            gaps.swept
                = gap_from_separation(best_swept * (1 - 8 * ROUNDOFF) - error_swept, position_error, pair.min_distance);
            if (gaps.swept > 0.0) {
                break;
            }
        }
    }
    gaps.now = gap_from_separation(
        best_now * (1 - 8 * ROUNDOFF) - separation_error<Dim>(spread_now), position_error, pair.min_distance);
    return gaps;
}

/// True when the pair provably stays more than min_distance apart for all t in [0, 1] (gaps_at), for the
/// directions offered at t = 0.
template <int Dim, int NA, int NB, std::size_t K>
bool apart_over_the_step(const ScaledPair<Dim, NA, NB>& pair, const std::array<Vec<Dim>, K>& directions)
{
    return gaps_at<true>(pair, pair.end_error, pair.x0, directions).swept > 0.0;
}

/// Steps after which additive_ccd also tries to prove the rest of the step free (gaps_at's `swept`).
constexpr std::int64_t SWEPT_STEPS = 4;

[[nodiscard]] inline bool valid(const AdditiveCcdOptions& o)
{
    return o.min_distance >= 0.0 && std::isfinite(o.min_distance) && o.eta > 0.0 && o.eta < 1.0 && o.t_max > 0.0
        && o.t_max <= 1.0 && o.max_iterations >= 0;
}

/// Additive CCD of the pair moving from `at_t0` by `second` (end positions, or displacements when
/// `displacements`). `directions(x)` gives the directions whose separations bound the distance at x.
template <int Dim, int NA, int NB, class Directions>
AdditiveCcdResult additive_ccd(
    const std::array<Vec<Dim>, NA + NB>& at_t0,
    const std::array<Vec<Dim>, NA + NB>& second,
    bool displacements,
    const AdditiveCcdOptions& options,
    Directions directions)
{
    const IeeeArithmeticScope ieee; // the certified steps assume gradual underflow
    AdditiveCcdResult result;
    if (!valid(options) || !all_finite(at_t0) || !all_finite(second)) {
        result.status = AdditiveCcdStatus::INVALID_INPUT;
        result.toi = 0.0;
        return result;
    }
    const auto stop = [&](AdditiveCcdStatus status, double toi) {
        result.status = status;
        result.hit = status != AdditiveCcdStatus::SEPARATED;
        result.toi = toi;
        return result;
    };
    // Cheapest first: an axis settles many far candidates exactly, before the pair is scaled.
    if (separated_along_an_axis<Dim, NA, NB>(at_t0, second, displacements, options.min_distance)) {
        return stop(AdditiveCcdStatus::SEPARATED, options.t_max);
    }
    const ScaledPair<Dim, NA, NB> pair(at_t0, second, displacements, options.min_distance);
    // Not in the paper: most candidate pairs of a mesh never come close, and one direction that separates the
    // pair at both ends of the step proves it at once (fewer steps, and no false positive for them).
    const Gaps start = gaps_at<true>(pair, pair.end_error, pair.x0, directions(pair.x0));
    if (start.swept > 0.0) {
        return stop(AdditiveCcdStatus::SEPARATED, options.t_max);
    }
    const double initial_gap = start.now;
    if (!(initial_gap > 0.0)) {
        return stop(AdditiveCcdStatus::INITIALLY_TOUCHING, 0.0);
    }
    const double stop_gap = options.eta * initial_gap;
    // Step fraction rounded down: covers the rounding of 1 - eta and of the products below.
    const double fraction = (1 - options.eta) * (1 - 8 * ROUNDOFF);
    // 1 / l_p rounded down: a multiplication in the loop instead of a division (l_p >= UNDERFLOW_SLACK > 0).
    const StepMotion<Dim, NA, NB> motion(pair);
    const double speed_bound = motion.speed_bound();
    const double inverse_speed = (1.0 / speed_bound) * (1 - 2 * ROUNDOFF);
    // The gaps after a step. The first SWEPT_STEPS steps also try to prove the rest of the step free, as at
    // t = 0 (not in the paper): on mesh candidates that halves the steps taken, and a long sliding contact,
    // where it never succeeds, pays for it only a few times.
    const auto gaps_after = [&](double t_next, std::int64_t step) {
        const auto x = motion.at(t_next);
        const double error = motion.position_error;
        return step <= SWEPT_STEPS ? gaps_at<true>(pair, error, x, directions(x))
                                   : gaps_at<false>(pair, error, x, directions(x));
    };
    double t = 0.0, gap = initial_gap;
    while (true) {
        if (result.iterations >= options.max_iterations) {
            return stop(AdditiveCcdStatus::ITERATION_LIMIT, t);
        }
        // Rounding t + step adds at most 2^-54 (t <= 1) to the step; the eta share of the gap kept in
        // reserve must cover what the fastest point travels in that time.
        if (!(speed_bound * 0x1p-52 < options.eta * gap * (1 - 2 * ROUNDOFF))) {
            return stop(AdditiveCcdStatus::ITERATION_LIMIT, t);
        }
        const double t_next = t + fraction * gap * inverse_speed;
        if (t_next >= options.t_max) {
            // With t_max = 1 the loop would look at t_next once more before going on; doing the same here
            // makes every answer the t_max = 1 answer capped at t_max, so callers may shrink t_max to prune
            // without changing results.
            if (t > 0.0 && t_next < 1.0) {
                const Gaps next = gaps_after(t_next, result.iterations + 1);
                if (!(next.swept > 0.0) && next.now < stop_gap) {
                    return stop(AdditiveCcdStatus::HIT, t);
                }
            }
            return stop(AdditiveCcdStatus::SEPARATED, options.t_max);
        }
        if (t_next == t) {
            return stop(AdditiveCcdStatus::ITERATION_LIMIT, t);
        }
        const Gaps next = gaps_after(t_next, ++result.iterations);
        if (next.swept > 0.0) {
            // [0, t_next] by the steps, [t_next, 1] by the separations at t_next and at 1.
            return stop(AdditiveCcdStatus::SEPARATED, options.t_max);
        }
        // The paper's rule: after the first step, stop once the gap is below eta times the initial one and
        // return the last time before that.
        if (t > 0.0 && next.now < stop_gap) {
            return stop(AdditiveCcdStatus::HIT, t);
        }
        if (!(next.now > 0.0)) {
            // Only after the first step: [0, t_next] is safe, but nothing beyond can be certified.
            return stop(AdditiveCcdStatus::HIT, t_next);
        }
        t = t_next;
        gap = next.now;
    }
}

// Directions for each pair type. The closest points of two primitives lie on a pair of their features
// (vertex, edge, face), so the directions offered cover every case: the offset from a vertex to its
// closest point on an edge (which is the offset to a vertex when the projection is clamped), and the
// normal of a face or of an edge pair for the interior case. Offering each candidate, instead of only
// the computed shortest one, matters: two nearly equal candidates can point in slightly different
// directions, and along a long primitive a small tilt loses much of the certified gap.
struct PointPointDirections {
    template <class X> auto operator()(const X& x) const { return std::array { typename X::value_type(x[0] - x[1]) }; }
};
struct PointEdgeDirections {
    template <class X> auto operator()(const X& x) const
    {
        using V = typename X::value_type;
        constexpr int dim = V::RowsAtCompileTime;
        const V offset = point_edge_closest_offset<double, dim>(x[0], x[1], x[2]);
        if constexpr (dim == 2) {
            return std::array { offset, V(x[1][1] - x[2][1], x[2][0] - x[1][0]) };
        } else {
            return std::array { offset };
        }
    }
};
struct VertexFaceDirections {
    template <class X> auto operator()(const X& x) const
    {
        const Eigen::Vector3d e1 = x[2] - x[1], e2 = x[3] - x[1], r = x[0] - x[1];
        std::array directions { Eigen::Vector3d(e1.cross(e2)), Eigen::Vector3d::Zero().eval(),
                                Eigen::Vector3d::Zero().eval(), Eigen::Vector3d::Zero().eval() };
        // When the vertex projects inside the face, the normal is the closest pair's direction and the sides'
        // offsets are not needed (zero directions are skipped). A misjudged projection only costs tightness.
        const double a = e1.dot(e1), b = e1.dot(e2), c = e2.dot(e2), re1 = r.dot(e1), re2 = r.dot(e2);
        const double det = a * c - b * b, u = c * re1 - b * re2, v = a * re2 - b * re1;
        if (det > 0.0 && u >= 0.0 && v >= 0.0 && u + v <= det) {
            return directions;
        }
        // The two sides from x[1] reuse r.e1, r.e2 and the squared lengths (a direction needs no accuracy).
        directions[1] = r - segment_closest_parameter(re1, a) * e1;
        directions[2] = point_edge_closest_offset<double, 3>(x[0], x[2], x[3]);
        directions[3] = r - segment_closest_parameter(re2, c) * e2;
        return directions;
    }
};
struct EdgeEdgeDirections {
    template <class X> auto operator()(const X& x) const
    {
        // Each edge's direction and squared length, computed once for the normal and both endpoints' offsets.
        const Eigen::Vector3d da = x[1] - x[0], db = x[3] - x[2];
        const double aa = da.squaredNorm(), bb = db.squaredNorm();
        const auto offset = [](const Eigen::Vector3d& r, const Eigen::Vector3d& e, double length_squared) {
            return Eigen::Vector3d(r - segment_closest_parameter(r.dot(e), length_squared) * e);
        };
        return std::array { Eigen::Vector3d(da.cross(db)), offset(x[0] - x[2], db, bb), offset(x[1] - x[2], db, bb),
                            offset(x[2] - x[0], da, aa), offset(x[3] - x[0], da, aa) };
    }
};

} // namespace ccdkit::details
