// SPDX-License-Identifier: MIT
// Adversarial review of additive CCD's certificates (axis test before scaling, separation at both ends of a
// step, vertex-face directions, finiteness test): families of pairs built within a few ulps of each decision
// boundary, every answer checked against exact rational (GMP) distances. A time toi is safe when the exact
// squared distance exceeds min_distance^2 at every sampled time in [0, toi] (t_max when separated), the
// samples including the times where the family puts its closest approach; for point-point the exact minimum
// over [0, toi] is checked. CCDKIT_ADDITIVE_REVIEW_PAIRS sets the pairs per family (default 50).
#include "narrow/ccd_test_support.hpp"
#include "narrow/details/additive_stepping.hpp"
#include "narrow/details/axis_separation.hpp"
#include "support/env_count.hpp"

#include <ccdkit/narrow/additive_ccd.hpp>

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ccdkit;
namespace test = ccdkit::test;

namespace {

using V3 = Eigen::Vector3d;
enum class Kind { VF, EE, PE3, PP3, PE2, PP2 };
constexpr std::array ALL_KINDS { Kind::VF, Kind::EE, Kind::PE3, Kind::PP3, Kind::PE2, Kind::PP2 };

int count_a(Kind k) { return k == Kind::EE ? 2 : 1; }
int count_all(Kind k)
{
    switch (k) {
    case Kind::VF:
    case Kind::EE:
        return 4;
    case Kind::PE3:
    case Kind::PE2:
        return 3;
    default:
        return 2;
    }
}
int dim_of(Kind k) { return k == Kind::PE2 || k == Kind::PP2 ? 2 : 3; }
const char* name_of(Kind k)
{
    constexpr std::array names { "vertex-face",    "edge-edge",     "point-edge 3D",
                                 "point-point 3D", "point-edge 2D", "point-point 2D" };
    return names[static_cast<int>(k)];
}

/// A query: positions at t = 0 and the end positions, or the displacements when `displacements` (then the
/// motion is x0 + t p exactly, as the line-search filter means it).
struct Case {
    Kind kind = Kind::PP3;
    std::array<V3, 4> x0 { V3::Zero(), V3::Zero(), V3::Zero(), V3::Zero() };
    std::array<V3, 4> second { V3::Zero(), V3::Zero(), V3::Zero(), V3::Zero() };
    bool displacements = false;
    std::vector<double> critical; ///< times where the family puts the closest approach (also sampled)
};

std::string describe(const Case& c, double s, double t_max = 1.0)
{
    std::ostringstream out;
    out << name_of(c.kind) << (c.displacements ? " (displacements)" : " (end positions)") << " min_distance ";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%a", s);
    out << buffer << " t_max " << t_max << " x0:";
    for (int i = 0; i < count_all(c.kind); ++i) {
        out << " (";
        for (int j = 0; j < dim_of(c.kind); ++j) {
            std::snprintf(buffer, sizeof buffer, "%a", c.x0[i][j]);
            out << (j ? ", " : "") << buffer;
        }
        out << ")";
    }
    out << (c.displacements ? " p:" : " x1:");
    for (int i = 0; i < count_all(c.kind); ++i) {
        out << " (";
        for (int j = 0; j < dim_of(c.kind); ++j) {
            std::snprintf(buffer, sizeof buffer, "%a", c.second[i][j]);
            out << (j ? ", " : "") << buffer;
        }
        out << ")";
    }
    return out.str();
}

// ---- exact distances ----------------------------------------------------------------------------------------

using Q = mpq_class;
using QV = std::array<Q, 3>;

QV sub(const QV& a, const QV& b) { return { a[0] - b[0], a[1] - b[1], a[2] - b[2] }; }
Q dot(const QV& a, const QV& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
QV axpy(const Q& s, const QV& a, const QV& b) { return { b[0] + s * a[0], b[1] + s * a[1], b[2] + s * a[2] }; }
QV cross(const QV& a, const QV& b)
{
    return { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0] };
}

Q point_edge2(const QV& p, const QV& e0, const QV& e1)
{
    const QV e = sub(e1, e0), r = sub(p, e0);
    const Q ee = dot(e, e);
    if (ee == 0) {
        return dot(r, r);
    }
    Q s = dot(r, e) / ee;
    if (s < 0) {
        s = 0;
    } else if (s > 1) {
        s = 1;
    }
    const QV d = axpy(-s, e, r);
    return dot(d, d);
}

Q point_triangle2(const QV& p, const QV& a, const QV& b, const QV& c)
{
    Q best = point_edge2(p, a, b);
    best = std::min(best, point_edge2(p, b, c));
    best = std::min(best, point_edge2(p, c, a));
    const QV e1 = sub(b, a), e2 = sub(c, a), r = sub(p, a);
    const Q d11 = dot(e1, e1), d12 = dot(e1, e2), d22 = dot(e2, e2), r1 = dot(r, e1), r2 = dot(r, e2);
    const Q det = d11 * d22 - d12 * d12;
    if (det != 0) {
        const Q u = (d22 * r1 - d12 * r2) / det, v = (d11 * r2 - d12 * r1) / det;
        if (u >= 0 && v >= 0 && u + v <= 1) {
            const QV n = cross(e1, e2);
            const Q h = dot(r, n);
            best = std::min(best, Q(h * h / dot(n, n)));
        }
    }
    return best;
}

Q edge_edge2(const QV& p0, const QV& p1, const QV& q0, const QV& q1)
{
    Q best = point_edge2(p0, q0, q1);
    best = std::min(best, point_edge2(p1, q0, q1));
    best = std::min(best, point_edge2(q0, p0, p1));
    best = std::min(best, point_edge2(q1, p0, p1));
    const QV d1 = sub(p1, p0), d2 = sub(q1, q0), r = sub(p0, q0);
    const Q a = dot(d1, d1), b = dot(d1, d2), c = dot(d2, d2), d = dot(d1, r), e = dot(d2, r);
    const Q det = a * c - b * b;
    if (det != 0) {
        const Q s = (b * e - c * d) / det, u = (a * e - b * d) / det;
        if (s >= 0 && s <= 1 && u >= 0 && u <= 1) {
            const QV w = sub(axpy(s, d1, p0), axpy(u, d2, q0));
            best = std::min(best, dot(w, w));
        }
    }
    return best;
}

QV exact(const V3& v) { return { Q(v[0]), Q(v[1]), Q(v[2]) }; }

/// Exact positions at a rational time.
std::array<QV, 4> positions(const Case& c, const Q& t)
{
    std::array<QV, 4> x;
    for (int i = 0; i < count_all(c.kind); ++i) {
        const QV a = exact(c.x0[i]), b = exact(c.second[i]);
        x[i] = axpy(t, c.displacements ? b : sub(b, a), a);
    }
    return x;
}

Q distance2(const Case& c, const Q& t)
{
    const auto x = positions(c, t);
    switch (c.kind) {
    case Kind::VF:
        return point_triangle2(x[0], x[1], x[2], x[3]);
    case Kind::EE:
        return edge_edge2(x[0], x[1], x[2], x[3]);
    case Kind::PE3:
    case Kind::PE2:
        return point_edge2(x[0], x[1], x[2]);
    default:
        return dot(sub(x[0], x[1]), sub(x[0], x[1]));
    }
}

/// Point-point: the exact minimum of the squared distance over [0, T] (a quadratic in t).
Q point_point_min2(const Case& c, const Q& T)
{
    const auto x0 = positions(c, Q(0)), x1 = positions(c, Q(1));
    const QV d0 = sub(x0[0], x0[1]), w = sub(sub(x1[0], x1[1]), d0);
    const Q ww = dot(w, w);
    Q t = 0;
    if (ww != 0) {
        t = -dot(d0, w) / ww;
        t = t < 0 ? Q(0) : (t > T ? T : t);
    }
    const QV d = axpy(t, w, d0);
    return dot(d, d);
}

/// Some sampled time in [0, T] where the exact distance is <= s (the first found), or -1.
double unsafe_time(const Case& c, double s, double T)
{
    const Q s2 = Q(s) * Q(s);
    if (c.kind == Kind::PP3 || c.kind == Kind::PP2) {
        if (point_point_min2(c, Q(T)) <= s2) {
            return T; // somewhere in [0, T]
        }
    }
    std::vector<Q> times { Q(0), Q(T) };
    for (const double t : c.critical) {
        if (t >= 0 && t <= T) {
            times.emplace_back(t);
        }
    }
    for (int k = 1; k < 16; ++k) {
        times.push_back(Q(T) * Q(k, 16));
    }
    for (const Q& t : times) {
        if (distance2(c, t) <= s2) {
            return t.get_d();
        }
    }
    return -1.0;
}

// ---- running the method -------------------------------------------------------------------------------------

template <int Dim, int NA, int NB> using Points = std::array<Eigen::Matrix<double, Dim, 1>, NA + NB>;

template <int Dim, int NA, int NB> std::pair<Points<Dim, NA, NB>, Points<Dim, NA, NB>> split(const Case& c)
{
    Points<Dim, NA, NB> a, b;
    for (int i = 0; i < NA + NB; ++i) {
        a[i] = c.x0[i].head<Dim>();
        b[i] = c.second[i].head<Dim>();
    }
    return { a, b };
}

template <int Dim, int NA, int NB, class Directions>
AdditiveCcdResult run_typed(const Case& c, const AdditiveCcdOptions& options)
{
    const auto [a, b] = split<Dim, NA, NB>(c);
    return details::additive_ccd<Dim, NA, NB>(a, b, c.displacements, options, Directions {});
}

AdditiveCcdResult run(const Case& c, const AdditiveCcdOptions& options)
{
    switch (c.kind) {
    case Kind::VF:
        return run_typed<3, 1, 3, details::VertexFaceDirections>(c, options);
    case Kind::EE:
        return run_typed<3, 2, 2, details::EdgeEdgeDirections>(c, options);
    case Kind::PE3:
        return run_typed<3, 1, 2, details::PointEdgeDirections>(c, options);
    case Kind::PE2:
        return run_typed<2, 1, 2, details::PointEdgeDirections>(c, options);
    case Kind::PP3:
        return run_typed<3, 1, 1, details::PointPointDirections>(c, options);
    default:
        return run_typed<2, 1, 1, details::PointPointDirections>(c, options);
    }
}

template <int Dim, int NA, int NB> bool axis_typed(const Case& c, double s)
{
    const auto [a, b] = split<Dim, NA, NB>(c);
    return details::separated_along_an_axis<Dim, NA, NB>(a, b, c.displacements, s);
}

bool axis_test(const Case& c, double s)
{
    switch (c.kind) {
    case Kind::VF:
        return axis_typed<3, 1, 3>(c, s);
    case Kind::EE:
        return axis_typed<3, 2, 2>(c, s);
    case Kind::PE3:
        return axis_typed<3, 1, 2>(c, s);
    case Kind::PE2:
        return axis_typed<2, 1, 2>(c, s);
    case Kind::PP3:
        return axis_typed<3, 1, 1>(c, s);
    default:
        return axis_typed<2, 1, 1>(c, s);
    }
}

/// Exact: some axis puts one primitive beyond the other by more than s at t = 0 and at t = 1, same side.
bool exactly_axis_separated(const Case& c, double s)
{
    const auto x0 = positions(c, Q(0)), x1 = positions(c, Q(1));
    const int na = count_a(c.kind), n = count_all(c.kind);
    for (int j = 0; j < dim_of(c.kind); ++j) {
        int sides[2];
        for (int e = 0; e < 2; ++e) {
            const auto& x = e == 0 ? x0 : x1;
            Q a_low = x[0][j], a_high = a_low, b_low = x[na][j], b_high = b_low;
            for (int i = 1; i < na; ++i) {
                a_low = std::min(a_low, x[i][j]);
                a_high = std::max(a_high, x[i][j]);
            }
            for (int i = na + 1; i < n; ++i) {
                b_low = std::min(b_low, x[i][j]);
                b_high = std::max(b_high, x[i][j]);
            }
            sides[e] = a_low - b_high > s ? 1 : (b_low - a_high > s ? -1 : 0);
        }
        if (sides[0] != 0 && sides[0] == sides[1]) {
            return true;
        }
    }
    return false;
}

/// The step test at a time t in the middle of the motion (gaps_at's `swept`, as the stepping loop calls it):
/// > 0 claims the pair stays more than s apart on [t, 1].
template <int Dim, int NA, int NB, class Directions> double swept_typed(const Case& c, double s, double t)
{
    const auto [a, b] = split<Dim, NA, NB>(c);
    const details::ScaledPair<Dim, NA, NB> pair(a, b, c.displacements, s);
    const details::StepMotion<Dim, NA, NB> motion(pair);
    const auto x = t == 0.0 ? pair.x0 : motion.at(t);
    const double error = t == 0.0 ? pair.end_error : motion.position_error;
    return details::gaps_at<true>(pair, error, x, Directions {}(x)).swept;
}

double swept_at(const Case& c, double s, double t)
{
    switch (c.kind) {
    case Kind::VF:
        return swept_typed<3, 1, 3, details::VertexFaceDirections>(c, s, t);
    case Kind::EE:
        return swept_typed<3, 2, 2, details::EdgeEdgeDirections>(c, s, t);
    case Kind::PE3:
        return swept_typed<3, 1, 2, details::PointEdgeDirections>(c, s, t);
    case Kind::PE2:
        return swept_typed<2, 1, 2, details::PointEdgeDirections>(c, s, t);
    case Kind::PP3:
        return swept_typed<3, 1, 1, details::PointPointDirections>(c, s, t);
    default:
        return swept_typed<2, 1, 1, details::PointPointDirections>(c, s, t);
    }
}

// ---- families -----------------------------------------------------------------------------------------------

struct Generator {
    std::mt19937_64 rng;
    explicit Generator(std::uint64_t seed)
        : rng(seed)
    {
    }
    double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
    int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
    bool coin() { return integer(0, 1) == 1; }
    /// x moved by k ulps.
    static double ulps(double x, int k)
    {
        for (; k > 0; --k) {
            x = std::nextafter(x, std::numeric_limits<double>::infinity());
        }
        for (; k < 0; ++k) {
            x = std::nextafter(x, -std::numeric_limits<double>::infinity());
        }
        return x;
    }
    /// A scale exponent: mostly 0, also tiny, huge, subnormal-adjacent.
    int exponent()
    {
        constexpr std::array choices { 0, 0, 0, 0, 7, -13, 100, -100, 500, -500, 1000, -1010, -1050, 1020 };
        return choices[static_cast<std::size_t>(integer(0, choices.size() - 1))];
    }
    /// s: zero sometimes, else a fraction of the unit box.
    double min_distance()
    {
        switch (integer(0, 3)) {
        case 0:
            return 0.0;
        case 1:
            return uniform(0, 0.5);
        case 2:
            return std::ldexp(1.0, -integer(1, 60));
        default:
            return uniform(0, 1e-3);
        }
    }

    /// In-plane coordinates (all but axis j) of the primitives overlapping in projection: the point over the
    /// triangle, the edges crossing, the point over the edge, the points on one line.
    void overlapping_projection(Case& c, int j)
    {
        const int dim = dim_of(c.kind), n = count_all(c.kind);
        for (int i = 0; i < n; ++i) {
            for (int k = 0; k < dim; ++k) {
                c.x0[i][k] = uniform(-1, 1);
            }
        }
        const auto blend = [&](int target, std::initializer_list<int> from) {
            std::vector<double> w;
            double total = 0;
            for (std::size_t i = 0; i < from.size(); ++i) {
                w.push_back(uniform(0.05, 1));
                total += w.back();
            }
            for (int k = 0; k < dim; ++k) {
                if (k == j) {
                    continue;
                }
                double v = 0;
                std::size_t i = 0;
                for (const int f : from) {
                    v += w[i++] / total * c.x0[f][k];
                }
                c.x0[target][k] = v;
            }
        };
        switch (c.kind) {
        case Kind::VF:
            blend(0, { 1, 2, 3 });
            break;
        case Kind::EE:
            // a point of edge A over a point of edge B: move A so that its midpoint projects on B.
            {
                const double w = uniform(0.1, 0.9);
                for (int k = 0; k < dim; ++k) {
                    if (k == j) {
                        continue;
                    }
                    const double target = w * c.x0[2][k] + (1 - w) * c.x0[3][k];
                    const double mid = 0.5 * (c.x0[0][k] + c.x0[1][k]);
                    c.x0[0][k] += target - mid;
                    c.x0[1][k] += target - mid;
                }
            }
            break;
        case Kind::PE3:
        case Kind::PE2:
            blend(0, { 1, 2 });
            break;
        default:
            blend(0, { 1 });
            break;
        }
    }

    /// Flat along axis j at both times, B beyond A by s +- a few ulps (or freely farther) at each end; the
    /// projections overlap, so that the distance at an end is the axis gap there.
    Case axis_boundary(Kind kind, double s, bool displacements)
    {
        Case c;
        c.kind = kind;
        const int dim = dim_of(kind), n = count_all(kind), na = count_a(kind);
        const int j = integer(0, dim - 1);
        overlapping_projection(c, j);
        Case end;
        end.kind = kind;
        if (coin()) {
            end.x0 = c.x0;
            const V3 shift = V3(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
            for (int i = 0; i < n; ++i) {
                end.x0[i].head(dim) += shift.head(dim);
            }
        } else {
            overlapping_projection(end, j);
        }
        const int side = coin() ? 1 : -1;
        for (Case* e : { &c, &end }) {
            const double base = uniform(-2, 2);
            // A flat at `base`, B flat at base + side (s + a few ulps), or one B vertex there and the rest farther.
            const bool boundary = integer(0, 4) != 0;
            const double b = boundary ? ulps(base + side * s, integer(-3, 3)) : base + side * (s + uniform(0, 1));
            const bool tilted = coin();
            for (int i = 0; i < n; ++i) {
                if (i < na) {
                    e->x0[i][j] = tilted && i > 0 ? base - side * uniform(0, 0.5) : base;
                } else {
                    e->x0[i][j] = tilted && i > na ? b + side * uniform(0, 0.5) : b;
                }
            }
        }
        for (int i = 0; i < n; ++i) {
            c.second[i] = end.x0[i];
        }
        if (displacements) {
            c.displacements = true;
            for (int i = 0; i < n; ++i) {
                c.second[i] = c.second[i] - c.x0[i];
                // Nudge by an ulp or so, so that x0 + p is inexact in either direction.
                for (int k = 0; k < dim; ++k) {
                    c.second[i][k] = ulps(c.second[i][k], integer(-2, 2));
                }
            }
        }
        c.critical = { 0.0, 1.0 };
        return c;
    }

    /// A sliding contact: the primitives move in parallel planes (normal axis j) at a height of s +- ulps,
    /// overlapping in projection on part of the motion (a point over a triangle, an edge over an edge...).
    Case sliding(Kind kind, double s, bool displacements)
    {
        Case c = axis_boundary(kind, s, displacements);
        const int dim = dim_of(kind), n = count_all(kind), na = count_a(kind);
        // Same height at both times; A moves in plane across B and back out (crossing its projection).
        const int j = integer(0, dim - 1);
        const double base = uniform(-1, 1);
        const double b = ulps(base + s, integer(-2, 3));
        V3 shift = V3::Zero();
        for (int k = 0; k < dim; ++k) {
            shift[k] = k == j ? 0.0 : uniform(-3, 3);
        }
        Case start;
        start.kind = kind;
        overlapping_projection(start, j);
        for (int i = 0; i < n; ++i) {
            start.x0[i][j] = i < na ? base : b;
        }
        c.x0 = start.x0;
        c.displacements = displacements;
        const double tc = uniform(-0.2, 1.2); // A over its starting spot at tc
        for (int i = 0; i < n; ++i) {
            V3 p = V3::Zero();
            if (i < na) {
                p.head(dim) = shift.head(dim);
                c.x0[i].head(dim) -= tc * shift.head(dim);
            }
            c.second[i] = displacements ? p : V3(c.x0[i] + p);
        }
        c.critical = { tc, 0.0, 1.0 };
        return c;
    }

    /// A point-like pass at closest distance s +- ulps at time tc (rotated, so no axis helps).
    Case pass(Kind kind, double s, bool displacements)
    {
        Case c = sliding(kind, s, displacements);
        // Rotate the whole configuration by a random rotation (rounded: the exact reference judges what results).
        const int dim = dim_of(kind), n = count_all(kind);
        Eigen::Matrix3d r = Eigen::Matrix3d::Identity();
        if (dim == 3) {
            const Eigen::Quaterniond q(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
            r = q.normalized().toRotationMatrix();
        } else {
            const double a = uniform(0, 6.283);
            r.topLeftCorner<2, 2>() << std::cos(a), -std::sin(a), std::sin(a), std::cos(a);
        }
        for (int i = 0; i < n; ++i) {
            c.x0[i] = r * c.x0[i];
            c.second[i] = r * c.second[i];
            if (dim == 2) {
                c.x0[i][2] = c.second[i][2] = 0;
            }
        }
        return c;
    }

    /// One time in four: a zero-length edge or a degenerate triangle (a vertex copied onto another of its
    /// primitive, at both times), or a collinear triangle.
    void maybe_degenerate(Case& c)
    {
        const int n = count_all(c.kind), na = count_a(c.kind);
        if (integer(0, 3) != 0 || n < 3) {
            return;
        }
        // Pairs of vertices of one primitive: (0, 1) in A for edge-edge, else in B.
        const int first = c.kind == Kind::EE && coin() ? 0 : na;
        const int from = first + integer(0, (first == 0 ? na : n - na) - 1);
        int to = first + integer(0, (first == 0 ? na : n - na) - 1);
        if (to == from) {
            to = from == first ? first + 1 : first;
        }
        if (c.kind == Kind::VF && coin()) {
            // Collinear: the third vertex at the midpoint of the others (rounded), at both times.
            const int other = 1 + 2 + 3 - (from == to ? 1 : from) - to;
            if (other >= 1 && other <= 3 && other != from && other != to) {
                c.x0[other] = 0.5 * (c.x0[from] + c.x0[to]);
                c.second[other] = 0.5 * (c.second[from] + c.second[to]);
                return;
            }
        }
        c.x0[to] = c.x0[from];
        c.second[to] = c.second[from];
    }

    /// Scaled by 2^e (exact unless subnormal; the exact reference judges the rounded pair).
    static void scale(Case& c, double& s, int e)
    {
        for (int i = 0; i < count_all(c.kind); ++i) {
            c.x0[i] = c.x0[i].unaryExpr([e](double v) { return std::ldexp(v, e); });
            c.second[i] = c.second[i].unaryExpr([e](double v) { return std::ldexp(v, e); });
        }
        s = std::ldexp(s, e);
    }
};

std::size_t pairs_per_family() { return ccdkit::test::count_from_env("CCDKIT_ADDITIVE_REVIEW_PAIRS", 50); }

struct Tally {
    std::size_t pairs = 0, separated = 0, hits = 0, axis = 0, failures = 0;
};

/// Runs the method on the case (t_max 1 and a smaller one) and checks its answers exactly.
void check(const Case& c, double s, Tally& tally)
{
    ++tally.pairs;
    for (const double t_max : { 1.0, 0.625 }) {
        AdditiveCcdOptions options;
        options.min_distance = s;
        options.t_max = t_max;
        options.max_iterations = 2000;
        const AdditiveCcdResult r = run(c, options);
        bool finite = true;
        for (int i = 0; i < count_all(c.kind); ++i) {
            finite = finite && c.x0[i].head(dim_of(c.kind)).allFinite() && c.second[i].head(dim_of(c.kind)).allFinite();
        }
        if (!finite) {
            ++tally.failures;
            ADD_FAILURE() << "non-finite input answered with status " << static_cast<int>(r.status) << ": "
                          << describe(c, s, t_max);
            return;
        }
        if (r.status == AdditiveCcdStatus::INVALID_INPUT) {
            ADD_FAILURE() << "invalid input: " << describe(c, s, t_max);
            ++tally.failures;
            return;
        }
        if (r.status == AdditiveCcdStatus::INITIALLY_TOUCHING) {
            continue;
        }
        tally.separated += r.status == AdditiveCcdStatus::SEPARATED;
        tally.hits += r.status != AdditiveCcdStatus::SEPARATED;
        const double T = r.status == AdditiveCcdStatus::SEPARATED ? t_max : r.toi;
        const double bad = unsafe_time(c, s, T);
        if (bad >= 0) {
            ++tally.failures;
            ADD_FAILURE() << "distance <= min_distance at t = " << bad << " but status " << static_cast<int>(r.status)
                          << " toi " << r.toi << ": " << describe(c, s, t_max);
        }
    }
    if (axis_test(c, s)) {
        ++tally.axis;
        if (!exactly_axis_separated(c, s)) {
            ++tally.failures;
            ADD_FAILURE() << "axis test passed without an exact axis separation: " << describe(c, s);
        }
    }
    // The step test in the middle of the motion: a claim for [t, 1] checked at t, 1 and the critical times.
    for (const double t : { 0.0, 0.25, 0.5 }) {
        if (swept_at(c, s, t) > 0.0) {
            const Q s2 = Q(s) * Q(s);
            std::vector<Q> times { Q(t), Q(1) };
            for (const double tc : c.critical) {
                if (tc >= t && tc <= 1) {
                    times.emplace_back(tc);
                }
            }
            for (int k = 1; k < 8; ++k) {
                times.push_back(Q(t) + (Q(1) - Q(t)) * Q(k, 8));
            }
            for (const Q& time : times) {
                if (distance2(c, time) <= s2) {
                    ++tally.failures;
                    ADD_FAILURE() << "separation claimed on [" << t << ", 1] but the distance is <= s at "
                                  << time.get_d() << ": " << describe(c, s);
                    break;
                }
            }
        }
    }
}

enum class Family { AXIS, SLIDING, PASS };

void run_family(Family family, bool displacements, std::uint64_t seed)
{
    Generator g(seed);
    const std::size_t count = pairs_per_family();
    for (const Kind kind : ALL_KINDS) {
        Tally tally;
        for (std::size_t i = 0; i < count && tally.failures < 5; ++i) {
            double s = g.min_distance();
            Case c = family == Family::AXIS ? g.axis_boundary(kind, s, displacements)
                : family == Family::SLIDING ? g.sliding(kind, s, displacements)
                                            : g.pass(kind, s, displacements);
            g.maybe_degenerate(c);
            Generator::scale(c, s, g.exponent());
            check(c, s, tally);
        }
        std::printf(
            "%s%s: %zu pairs, %zu separated, %zu hits, %zu by the axis test, %zu failures\n", name_of(kind),
            displacements ? " (displacements)" : "", tally.pairs, tally.separated, tally.hits, tally.axis,
            tally.failures);
    }
}

} // namespace

TEST(AdditiveReview, AxisBoundaryEndPositions) { run_family(Family::AXIS, false, 0x5e11); }
TEST(AdditiveReview, AxisBoundaryDisplacements) { run_family(Family::AXIS, true, 0x5e12); }
TEST(AdditiveReview, SlidingEndPositions) { run_family(Family::SLIDING, false, 0x5e13); }
TEST(AdditiveReview, SlidingDisplacements) { run_family(Family::SLIDING, true, 0x5e14); }
TEST(AdditiveReview, PassEndPositions) { run_family(Family::PASS, false, 0x5e15); }
TEST(AdditiveReview, PassDisplacements) { run_family(Family::PASS, true, 0x5e16); }

TEST(AdditiveReview, NonFiniteCoordinatesAreRejected)
{
    // Every coordinate of every kind, at either time, NaN or an infinity, next to finite extremes (the largest
    // double, subnormals): INVALID_INPUT, never a verdict.
    std::size_t cases = 0;
    for (const Kind kind : ALL_KINDS) {
        for (const bool displacements : { false, true }) {
            for (int i = 0; i < 2 * count_all(kind); ++i) {
                for (int j = 0; j < dim_of(kind); ++j) {
                    for (const double bad : { std::nan(""), std::numeric_limits<double>::infinity(),
                                              -std::numeric_limits<double>::infinity() }) {
                        Case c;
                        c.kind = kind;
                        c.displacements = displacements;
                        for (int k = 0; k < count_all(kind); ++k) {
                            c.x0[k] = V3(std::numeric_limits<double>::max(), -0x1p-1074, 0.5 * k);
                            c.second[k] = V3(-std::numeric_limits<double>::max(), 0x1p-1074, 1.0);
                        }
                        (i < count_all(kind) ? c.x0[i] : c.second[i - count_all(kind)])[j] = bad;
                        const AdditiveCcdResult r = run(c, {});
                        EXPECT_EQ(r.status, AdditiveCcdStatus::INVALID_INPUT) << describe(c, 0.0);
                        ++cases;
                    }
                }
            }
        }
    }
    std::printf("%zu non-finite cases\n", cases);
}

namespace {

/// Exact minimum of the squared distance over sampled times of [t0, 1] (the family's critical times included).
Q sampled_min2(const Case& c, double t0)
{
    std::vector<Q> times { Q(t0), Q(1) };
    for (const double tc : c.critical) {
        if (tc >= t0 && tc <= 1) {
            times.emplace_back(tc);
        }
    }
    for (int k = 1; k < 16; ++k) {
        times.push_back(Q(t0) + (Q(1) - Q(t0)) * Q(k, 16));
    }
    Q best = distance2(c, times[0]);
    for (const Q& t : times) {
        best = std::min(best, distance2(c, t));
    }
    return best;
}

/// The largest min_distance (to about 2^-60 relative) for which `certified(s)` holds, or -1 if none.
template <class Certified> double critical_min_distance(Certified certified, double hi)
{
    if (!certified(0.0)) {
        return -1.0;
    }
    double lo = 0.0;
    while (certified(hi) && hi < 1e300) {
        lo = hi;
        hi *= 2;
    }
    for (int i = 0; i < 200 && std::nextafter(lo, hi) < hi; ++i) {
        const double mid = lo + (hi - lo) / 2;
        if (mid <= lo || mid >= hi) {
            break;
        }
        (certified(mid) ? lo : hi) = mid;
    }
    return lo;
}

double largest_coordinate(const Case& c)
{
    double m = 0;
    for (int i = 0; i < count_all(c.kind); ++i) {
        m = std::max({ m, c.x0[i].cwiseAbs().maxCoeff(), c.second[i].cwiseAbs().maxCoeff() });
    }
    return m;
}

} // namespace

TEST(AdditiveReview, CertificatesAtTheirCriticalMinDistance)
{
    // For each pair, the largest min_distance s* that each certificate still accepts (the axis test, the test of
    // the whole step at t = 0 and at t = 0.5, the whole method's "separated"), found by bisection: the exact
    // distance must exceed s* at every sample. The smallest slack (distance - s*, in ulps of the largest
    // coordinate) is printed: how close to the bound the certificates get.
    Generator g(0x5e17);
    const std::size_t count = std::max<std::size_t>(pairs_per_family() / 5, 10);
    std::size_t checked = 0, failures = 0;
    std::array<long double, 4> least_slack;
    least_slack.fill(1e30L);
    constexpr std::array certificate_names { "axis test", "step test at 0", "step test at 0.5", "method" };
    for (const Kind kind : ALL_KINDS) {
        for (int family = 0; family < 3; ++family) {
            for (const bool displacements : { false, true }) {
                for (std::size_t i = 0; i < count && failures < 10; ++i) {
                    double s = g.min_distance();
                    Case c = family == 0 ? g.axis_boundary(kind, s, displacements)
                        : family == 1    ? g.sliding(kind, s, displacements)
                                         : g.pass(kind, s, displacements);
                    g.maybe_degenerate(c);
                    Generator::scale(c, s, g.exponent());
                    const double scale = largest_coordinate(c);
                    if (!(scale > 0) || !std::isfinite(scale)) {
                        continue;
                    }
                    const std::array<std::function<bool(double)>, 4> certificates {
                        [&](double m) { return axis_test(c, m); },
                        [&](double m) { return swept_at(c, m, 0.0) > 0.0; },
                        [&](double m) { return swept_at(c, m, 0.5) > 0.0; },
                        [&](double m) {
                            AdditiveCcdOptions options;
                            options.min_distance = m;
                            options.max_iterations = 2000;
                            return run(c, options).status == AdditiveCcdStatus::SEPARATED;
                        },
                    };
                    for (int k = 0; k < 4; ++k) {
                        const double critical = critical_min_distance(certificates[k], scale);
                        if (critical < 0) {
                            continue;
                        }
                        ++checked;
                        const Q min2 = sampled_min2(c, k == 2 ? 0.5 : 0.0);
                        if (min2 <= Q(critical) * Q(critical)) {
                            ++failures;
                            ADD_FAILURE() << certificate_names[k] << " accepts min_distance " << critical
                                          << " but the squared distance reaches " << min2.get_d() << ": "
                                          << describe(c, critical);
                            continue;
                        }
                        // (d - s*) / (scale u) = (d^2 - s*^2) / ((d + s*) scale u), exact but for the sum.
                        const Q q_scale(scale), ratio = min2 / (q_scale * q_scale);
                        const Q sum = Q(std::sqrt(ratio.get_d())) + Q(critical) / q_scale;
                        const Q slack_q = (min2 - Q(critical) * Q(critical)) / (q_scale * q_scale) / sum * Q(0x1p53);
                        const long double slack = slack_q.get_d();
                        least_slack[static_cast<std::size_t>(k)]
                            = std::min(least_slack[static_cast<std::size_t>(k)], slack);
                    }
                }
            }
        }
    }
    for (std::size_t k = 0; k < 4; ++k) {
        std::printf("%s: least slack %.3Lg ulps of the largest coordinate\n", certificate_names[k], least_slack[k]);
    }
    std::printf("%zu critical min_distances checked\n", checked);
}

TEST(AdditiveReview, ExactCcdAgreesWithTheOracleNearTheBoundaries)
{
    // The exact CCD driver settles pairs with the same two-ended separation test (ccd_driver.hpp): on the same
    // families with min_distance 0 (touching exactly, or a few ulps apart, at t = 0 or at t = 1; sliding in
    // contact), its verdict must match the exact oracle's.
    Generator g(0x5e18);
    const std::size_t count = std::max<std::size_t>(pairs_per_family() / 4, 10);
    std::size_t checked = 0;
    for (const Kind kind : { Kind::VF, Kind::EE }) {
        for (int family = 0; family < 3; ++family) {
            for (std::size_t i = 0; i < count; ++i) {
                double s = 0.0;
                Case c = family == 0 ? g.axis_boundary(kind, s, false)
                    : family == 1    ? g.sliding(kind, s, false)
                                     : g.pass(kind, s, false);
                g.maybe_degenerate(c);
                Generator::scale(c, s, g.exponent());
                const test::Points x { c.x0[0],     c.x0[1],     c.x0[2],     c.x0[3],
                                       c.second[0], c.second[1], c.second[2], c.second[3] };
                EXPECT_TRUE(test::agrees_with_oracle(kind == Kind::VF, x));
                ++checked;
            }
        }
    }
    std::printf("%zu exact queries checked against the oracle\n", checked);
}
