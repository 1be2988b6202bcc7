// SPDX-License-Identifier: MIT
// Adversarial differential tests of the exact method against the independent oracle: queries built to hit the
// double-double filter and root stages and the exact stage's coplanar path, i.e. grazing contacts (a double
// root of the coplanarity polynomial), contacts exactly at the filters' split points and at t_max, nearly
// parallel and nearly coplanar motion (exact configurations moved by a few ulps), and coplanar motion with
// collapsing triangles and shrinking edges; with small t_max, extreme tolerances and relabelings.
#include "narrow/ccd_test_support.hpp"
#include "narrow/details/bernstein_filter.hpp"
#include "narrow/details/query_motion.hpp"
#include "support/env_count.hpp"
#include "support/shared_data.hpp"

#include <ccdkit/io/query_file.hpp>

#include <gmpxx.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

using namespace ccdkit;
using test::Points;

namespace {

/// Queries per family; CCDKIT_ADVERSARIAL_QUERIES overrides it.
std::size_t query_count() { return test::count_from_env("CCDKIT_ADVERSARIAL_QUERIES", 3000); }

/// CCDKIT_ADVERSARIAL_SEED changes every family's seed (for long runs).
std::uint64_t seed(std::uint64_t base)
{
    if (const char* env = std::getenv("CCDKIT_ADVERSARIAL_SEED")) {
        return base + 0x9e3779b97f4a7c15ULL * std::strtoull(env, nullptr, 10);
    }
    return base;
}

/// Hex-float coordinates and options, exact, for pasting a failure back as a regression test.
std::string hex(const Points& x, const CcdOptions& options)
{
    std::string out;
    char buffer[64];
    for (const auto& p : x) {
        out += "{";
        for (int k = 0; k < 3; ++k) {
            std::snprintf(buffer, sizeof buffer, "%a%s", p[k], k < 2 ? ", " : "");
            out += buffer;
        }
        out += "} ";
    }
    std::snprintf(buffer, sizeof buffer, "t_max %a tolerance %a", options.t_max, options.tolerance);
    return out + buffer;
}

const char* stage(DecidedBy d)
{
    switch (d) {
    case DecidedBy::FILTER:
        return "filter";
    case DecidedBy::DOUBLE_DOUBLE:
        return "double-double";
    case DecidedBy::EXACT:
        return "exact";
    case DecidedBy::FLOAT:
        return "float";
    }
    return "?";
}

/// Relabelings of one query that describe the same geometry.
std::vector<Points> relabelings(bool vertex_face, const Points& x)
{
    if (vertex_face) { // the triangle's corners in every order
        return { { x[0], x[2], x[3], x[1], x[4], x[6], x[7], x[5] },
                 { x[0], x[3], x[1], x[2], x[4], x[7], x[5], x[6] },
                 { x[0], x[1], x[3], x[2], x[4], x[5], x[7], x[6] } };
    }
    return { { x[1], x[0], x[2], x[3], x[5], x[4], x[6], x[7] },
             { x[0], x[1], x[3], x[2], x[4], x[5], x[7], x[6] },
             { x[2], x[3], x[0], x[1], x[6], x[7], x[4], x[5] } };
}

struct Tally {
    std::size_t queries = 0, hits = 0, failures = 0;
    std::size_t by_stage[4] = {};
    double slowest = 0.0;
};

/// Checks one query against the oracle, and its relabelings (every one must agree with the oracle too).
void check(bool vertex_face, const Points& x, const CcdOptions& options, Tally& tally, bool relabel = true)
{
    const auto start = std::chrono::steady_clock::now();
    const CcdResult r = test::run(vertex_face, x, options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    tally.slowest = std::max(tally.slowest, seconds);
    EXPECT_LT(seconds, 10.0) << "slow query (a hang?): " << hex(x, options);
    ++tally.queries;
    tally.hits += r.hit;
    ++tally.by_stage[static_cast<int>(r.decided_by)];
    const auto agreement = test::agrees_with_oracle(vertex_face, x, options);
    EXPECT_TRUE(agreement) << (vertex_face ? "vertex-face " : "edge-edge ") << hex(x, options) << " decided by "
                           << stage(r.decided_by) << ", toi [" << r.toi_lower << ", " << r.toi_upper << "]";
    tally.failures += !agreement;
    if (!relabel || !agreement) {
        return;
    }
    for (const Points& y : relabelings(vertex_face, x)) {
        const auto again = test::agrees_with_oracle(vertex_face, y, options);
        EXPECT_TRUE(again) << "relabeled: " << hex(y, options) << " (decided by "
                           << stage(test::run(vertex_face, y, options).decided_by) << ")";
        tally.failures += !again;
    }
}

void report(const char* name, const Tally& t)
{
    std::printf(
        "%s: %zu queries, %zu hits; filter %zu, double-double %zu, exact %zu; slowest %.3f s\n", name, t.queries,
        t.hits, t.by_stage[0], t.by_stage[1], t.by_stage[2], t.slowest);
}

/// The times where the filters split [0, t_max] (l + 63/128 (r - l), computed as they compute it), first
/// levels only: a root exactly there keeps a Bernstein coefficient at zero.
std::vector<double> split_points(double t_max, int depth)
{
    std::vector<double> points;
    const auto visit = [&](auto&& self, double l, double r, int d) -> void {
        if (d == depth) {
            return;
        }
        const double mid = l + (63.0 / 128.0) * (r - l);
        points.push_back(mid);
        self(self, l, mid, d + 1);
        self(self, mid, r, d + 1);
    };
    visit(visit, 0.0, t_max, 0);
    return points;
}

class Adversary {
public:
    explicit Adversary(std::uint64_t s)
        : rng_(s)
    {
    }

    std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
    int between(int lo, int hi) { return lo + static_cast<int>(pick(static_cast<std::size_t>(hi - lo + 1))); }
    /// Multiples of 1/2^bits in [-range, range].
    double dyadic(int range, int bits)
    {
        const int n = range << bits;
        return std::ldexp(static_cast<double>(between(-n, n)), -bits);
    }
    double unit() { return std::uniform_real_distribution<double>(-1.0, 1.0)(rng_); }

    /// Options that stress the stages: small t_max, contact at t_max, tolerances from 2^-1074 to huge.
    CcdOptions options(double contact_time = -1.0)
    {
        CcdOptions o;
        static constexpr double T_MAX[]
            = { 1.0, 1.0, 1.0, 0.5, 63.0 / 128, 0.75, 1e-3, 0x1p-40, 0x1.fffffffffffffp-1, 0x1p-1074 };
        static constexpr double TOLERANCE[]
            = { 1e-6, 1e-6, 1e-6, 1e-12, 0x1p-80, 0x1p-88, 1e-300, 0x1p-1074, 0.25, 1e10, 0x1p-30, 0x1p-40 };
        o.t_max = T_MAX[pick(std::size(T_MAX))];
        if (contact_time > 0.0 && contact_time <= 1.0 && pick(4) == 0) {
            o.t_max = contact_time; // contact exactly at t_max
        }
        o.tolerance = TOLERANCE[pick(std::size(TOLERANCE))];
        return o;
    }

    /// A contact time: an end, a split point of the filters, a simple dyadic, or a random double.
    double contact_time()
    {
        static const std::vector<double> SPLITS = split_points(1.0, 6);
        static const std::vector<double> SPLITS_HALF = split_points(0.5, 4);
        switch (pick(6)) {
        case 0:
            return static_cast<double>(pick(2));
        case 1:
            return SPLITS[pick(SPLITS.size())];
        case 2:
            return SPLITS_HALF[pick(SPLITS_HALF.size())];
        case 3:
            return std::ldexp(static_cast<double>(between(1, 15)), -4);
        case 4:
            return 1.0 / 3.0;
        default:
            return std::abs(unit());
        }
    }

    /// Moves a few coordinates by a few ulps (or rounds the whole query by a translation), or nothing.
    void perturb(Points& x)
    {
        switch (pick(5)) {
        case 0:
            return;
        case 1:
        case 2:
            for (int n = between(1, 3); n > 0; --n) {
                double& c = x[pick(8)][static_cast<Eigen::Index>(pick(3))];
                const int ulps = between(1, 2) * (pick(2) ? 1 : -1);
                for (int k = 0; k < std::abs(ulps); ++k) {
                    c = std::nextafter(c, ulps > 0 ? 2 * std::abs(c) + 1 : -2 * std::abs(c) - 1);
                }
            }
            return;
        case 3: { // a translation that rounds every coordinate
            const Eigen::Vector3d shift(unit(), unit(), unit());
            for (auto& p : x) {
                p += shift;
            }
            return;
        }
        default: { // a tiny offset along one axis on one point (exact where that coordinate is small)
            const double eps = std::ldexp(pick(2) ? 1.0 : -1.0, -between(40, 90));
            x[pick(8)][static_cast<Eigen::Index>(pick(3))] += eps;
            return;
        }
        }
    }

    /// Axis permutation and reflections (exact), a dyadic shear z += a x + b y (exact on short dyadics), a
    /// common linear drift, and sometimes a scale by 2^-1000 .. 2^1000.
    void transform(Points& x)
    {
        int axes[3] = { 0, 1, 2 };
        std::shuffle(std::begin(axes), std::end(axes), rng_);
        const double signs[3] = { pick(2) ? 1.0 : -1.0, pick(2) ? 1.0 : -1.0, pick(2) ? 1.0 : -1.0 };
        const double sa = pick(2) ? dyadic(2, 2) : 0.0, sb = pick(2) ? dyadic(2, 2) : 0.0;
        const Eigen::Vector3d drift0(dyadic(2, 3), dyadic(2, 3), dyadic(2, 3));
        const Eigen::Vector3d drift1 = pick(2) ? drift0 : Eigen::Vector3d(dyadic(2, 3), dyadic(2, 3), dyadic(2, 3));
        for (int i = 0; i < 8; ++i) {
            Eigen::Vector3d p = x[i];
            p[2] += sa * p[0] + sb * p[1];
            Eigen::Vector3d q;
            for (int k = 0; k < 3; ++k) {
                q[axes[k]] = signs[k] * p[k];
            }
            x[i] = q + (i < 4 ? drift0 : drift1);
        }
        if (pick(10) == 0) {
            const double s = std::ldexp(1.0, between(-1000, 1000));
            for (auto& p : x) {
                p *= s;
            }
        } else if (pick(10) == 0) { // one point, or one coordinate everywhere, much smaller than the rest
            const double s = std::ldexp(1.0, -between(30, 1070));
            if (pick(2)) {
                x[pick(8)] *= s;
            } else {
                const auto k = static_cast<Eigen::Index>(pick(3));
                for (auto& p : x) {
                    p[k] *= s;
                }
            }
        }
    }

    /// A grazing contact: the coplanarity polynomial has a double root at tau (the triangle's plane, or the
    /// plane of the two edges, turns about a fixed line while the vertex, or edge b, meets it tangentially).
    /// With t2 = (x2, 1, h t) and the far corner (or edge b's offset) on the plane's axis of rotation, the
    /// coplanarity is L(t) (p_z - h t p_y) with p_y = a + b t, p_z = c + d t, c = -h b tau^2, d = h (a + 2 b tau).
    /// The contact point sits inside, on the boundary of, or just outside the triangle (the other edge).
    Points grazing(bool vertex_face, double tau)
    {
        const double h = dyadic(2, 2) == 0.0 ? 1.0 : std::ldexp(static_cast<double>(between(1, 8)), -2);
        const double b = std::ldexp(static_cast<double>(between(1, 8)) * (pick(2) ? 1 : -1), -2);
        // Where the contact point lies at tau, in the frame (e_x, (x2, 1, h tau)).
        const double w = pick(3) == 0 ? static_cast<double>(pick(2)) : dyadic(1, 3); // along t2 (or db)
        const double s = pick(3) == 0 ? static_cast<double>(pick(2)) : dyadic(1, 3); // along the axis
        const double x2 = dyadic(1, 2);
        const double length0 = std::ldexp(static_cast<double>(between(1, 8)), -2);
        double length1 = pick(2) ? length0 : std::ldexp(static_cast<double>(between(1, 8)), -2);
        if (tau > 0.0 && pick(4) == 0) {
            // The triangle (edge a) also collapses at tau: a triple root where the terms are degenerate.
            length1 = length0 - length0 / tau;
        }
        const double a = w - b * tau; // p_y(tau) = w
        const double c = -h * b * tau * tau, d = h * (a + 2 * b * tau);
        // p_x(tau) = s L(tau) + w x2, with p_x linear: choose its velocity, then its start.
        const double vx = dyadic(2, 2);
        const double length_tau = length0 + tau * (length1 - length0);
        const double px0 = s * length_tau + w * x2 - tau * vx;
        Points x;
        const Eigen::Vector3d p0(px0, a, c), p1(px0 + vx, a + b, c + d);
        const Eigen::Vector3d axis0(length0, 0, 0), axis1(length1, 0, 0);
        const Eigen::Vector3d corner0(x2, 1, 0), corner1(x2, 1, h);
        if (vertex_face) {
            // The vertex at tau has weights (1 - s - w, s, w): inside, on the boundary or outside.
            x = { p0, Eigen::Vector3d::Zero(), axis0, corner0, p1, Eigen::Vector3d::Zero(), axis1, corner1 };
        } else {
            // Edge b from p - (x2, 1, h t) w to p + (x2, 1, h t) (1 - w): it passes through p, parallel to db.
            x = { Eigen::Vector3d::Zero(), axis0, p0 - w * corner0, p0 + (1 - w) * corner0,
                  Eigen::Vector3d::Zero(), axis1, p1 - w * corner1, p1 + (1 - w) * corner1 };
            // The lines meet at p(tau) - w (x2, 1, h tau) = (s L(tau), 0, 0): edge a's parameter s, edge b's w.
        }
        return x;
    }

    /// A vertex crossing a plane (or edge b crossing edge a's plane) at exactly tau: static triangle in
    /// z = 0 moving within its plane, the contact point on a side, a corner, inside or just outside.
    Points crossing(bool vertex_face, double tau)
    {
        Points x;
        const auto in_plane = [&] { return Eigen::Vector3d(dyadic(2, 2), dyadic(2, 2), 0.0); };
        for (int i = 1; i < 4; ++i) {
            x[i] = in_plane();
            x[i + 4] = pick(3) == 0 ? x[i] : in_plane();
        }
        if (!vertex_face) {
            x[0] = in_plane();
            x[4] = pick(2) ? x[0] : in_plane();
        }
        // The target at tau: a combination of the other primitive's points then.
        const auto at = [&](int i) { return Eigen::Vector3d(x[i] + tau * (x[i + 4] - x[i])); };
        Eigen::Vector3d target;
        if (vertex_face) {
            double w[3] = { dyadic(1, 2), dyadic(1, 2), 0.0 };
            if (pick(2)) {
                w[0] = std::abs(w[0]);
                w[1] = std::abs(w[1]);
                if (pick(2)) {
                    w[pick(2)] = 0.0;
                }
            }
            w[2] = 1 - w[0] - w[1];
            target = w[0] * at(1) + w[1] * at(2) + w[2] * at(3);
        } else {
            const double u = pick(2) ? static_cast<double>(pick(2)) : dyadic(1, 3);
            target = at(2) + u * (at(3) - at(2));
        }
        // The moving point (vertex, or edge a's ea1): z from -z0 to z1 crosses 0 at tau.
        const int moving = vertex_face ? 0 : 1;
        const double speed = std::ldexp(static_cast<double>(between(1, 16)), -2) * (pick(2) ? 1 : -1);
        const Eigen::Vector3d velocity(dyadic(2, 2), dyadic(2, 2), speed);
        x[moving] = target - tau * velocity;
        x[moving + 4] = x[moving] + velocity;
        if (!vertex_face) {
            // Edge a from ea0 (in the plane) through the target: make ea0 follow the line too.
            if (pick(2)) {
                x[0] = x[1] + dyadic(1, 2) * (x[1] - x[0]);
            }
        }
        return x;
    }

    /// The same at an exact rational time p / q with q odd (not a double, so no stage can evaluate there
    /// exactly): every velocity is a multiple of q, so the positions at p / q are exact integers or dyadics, and
    /// the contact point lies exactly on a side or corner (a contact term is zero at the root) or near one.
    Points rational_crossing(bool vertex_face)
    {
        static constexpr int Q[] = { 3, 5, 7, 9, 11, 13, 127 };
        const int q = Q[pick(std::size(Q))];
        const int p = between(1, q - 1);
        const auto integer = [&](int range) { return static_cast<double>(between(-range, range)); };
        Points x;
        for (int i = 1; i < 4; ++i) {
            x[i] = { integer(4), integer(4), 0.0 };
            x[i + 4] = pick(3) == 0 ? x[i] : Eigen::Vector3d(x[i] + q * Eigen::Vector3d(integer(1), integer(1), 0.0));
        }
        const auto at = [&](int i) { return Eigen::Vector3d(x[i] + p * (x[i + 4] - x[i]) / q); };
        const int moving = vertex_face ? 0 : 1;
        Eigen::Vector3d target;
        if (vertex_face) {
            double w[3] = { std::ldexp(static_cast<double>(between(0, 4)), -2), 0.0, 0.0 };
            w[1] = pick(2) ? 0.0 : std::ldexp(static_cast<double>(between(0, 4)), -2);
            w[2] = 1 - w[0] - w[1];
            std::shuffle(std::begin(w), std::end(w), rng_);
            target = w[0] * at(1) + w[1] * at(2) + w[2] * at(3);
        } else {
            x[0] = { integer(4), integer(4), 0.0 };
            x[4] = x[0] + q * Eigen::Vector3d(integer(1), integer(1), 0.0);
            const double u
                = pick(2) ? static_cast<double>(pick(2)) : std::ldexp(static_cast<double>(between(0, 4)), -2);
            target = at(2) + u * (at(3) - at(2));
        }
        const Eigen::Vector3d v(integer(2), integer(2), static_cast<double>(between(1, 3) * (pick(2) ? 1 : -1)));
        x[moving] = target - p * v;
        x[moving + 4] = x[moving] + q * v;
        if (!vertex_face && pick(2)) { // nudge the contact off the end by a tiny dyadic
            x[moving + 4] += Eigen::Vector3d(std::ldexp(pick(2) ? 1.0 : -1.0, -between(20, 50)), 0, 0);
        }
        return x;
    }

    /// Nearly parallel and nearly coplanar: exactly parallel edges in one plane (or a collinear triangle with
    /// a vertex on its line's plane), before the perturbation.
    Points parallel(bool vertex_face)
    {
        const Eigen::Vector3d e0(dyadic(2, 0), dyadic(2, 0), dyadic(2, 0));
        const Eigen::Vector3d e1 = pick(2) ? e0 : Eigen::Vector3d(dyadic(2, 0), dyadic(2, 0), dyadic(2, 0));
        const Eigen::Vector3d base0(dyadic(2, 2), dyadic(2, 2), dyadic(2, 2)),
            base1(dyadic(2, 2), dyadic(2, 2), dyadic(2, 2));
        const Eigen::Vector3d off0(dyadic(1, 2), dyadic(1, 2), dyadic(1, 2));
        const Eigen::Vector3d off1
            = pick(3) == 0 ? Eigen::Vector3d(-off0) : Eigen::Vector3d(dyadic(1, 2), dyadic(1, 2), dyadic(1, 2));
        Points x;
        if (vertex_face) {
            x[0] = base0 + off0 + dyadic(2, 2) * e0;
            x[4] = base1 + off1 + dyadic(2, 2) * e1;
            for (int k = 1; k < 4; ++k) {
                x[k] = base0 + dyadic(2, 2) * e0;
                x[k + 4] = base1 + dyadic(2, 2) * e1;
            }
        } else {
            x[0] = base0 + dyadic(2, 2) * e0;
            x[1] = base0 + dyadic(2, 2) * e0;
            x[4] = base1 + dyadic(2, 2) * e1;
            x[5] = base1 + dyadic(2, 2) * e1;
            x[2] = base0 + off0 + dyadic(2, 2) * e0;
            x[3] = base0 + off0 + dyadic(2, 2) * e0;
            x[6] = base1 + off1 + dyadic(2, 2) * e1;
            x[7] = base1 + off1 + dyadic(2, 2) * e1;
        }
        return x;
    }

    /// Coplanar motion in z = 0 with events: triangles that collapse or flip mid-step, edges that shrink to
    /// a point, points that coincide, all on a coarse grid (so events are at simple rational times).
    Points coplanar()
    {
        Points x;
        const int bits = pick(2) ? 0 : 2;
        for (auto& p : x) {
            p = { dyadic(2, bits), dyadic(2, bits), 0.0 };
        }
        switch (pick(5)) {
        case 0: // point 3 (t2 / eb1) passes through point 1 or 2's line: collapse mid-step
            x[7] = x[5] + 2 * (x[6] - x[5]) - (x[3] - x[1]);
            break;
        case 1: // an edge (or side) shrinks to a point at the end
            x[5] = x[4];
            break;
        case 2: // an edge (or side) of zero length throughout
            x[3] = x[2];
            x[7] = x[6];
            break;
        case 3: // one point swaps with another over the step: they coincide at 1/2
            x[5] = x[1 + pick(3)];
            x[4 + 1 + pick(3)] = x[1];
            break;
        default:
            break;
        }
        return x;
    }

    std::mt19937_64& rng() { return rng_; }

private:
    std::mt19937_64 rng_;
};

} // namespace

namespace {

/// Checks one family of queries against the oracle: `next(gen, vertex_face)` builds a query (perturbing and
/// transforming it as the family wants) and returns it with its options.
template <class Next> void run_family(const char* name, std::uint64_t family_seed, Next next)
{
    Adversary gen(seed(family_seed));
    Tally tally;
    for (std::size_t i = 0; i < query_count() && tally.failures < 10; ++i) {
        const bool vertex_face = i % 2 == 0;
        const auto [x, options] = next(gen, vertex_face);
        check(vertex_face, x, options, tally);
    }
    report(name, tally);
}

} // namespace

TEST(Adversarial, GrazingContacts)
{
    // A double root of the coplanarity polynomial: flat near the root, so Newton's method and the brackets
    // of the double-double stage struggle; a perturbation splits it into two close roots or none.
    run_family("grazing", 0x96a21a6U, [](Adversary& gen, bool vertex_face) {
        const double tau = gen.contact_time();
        Points x = gen.grazing(vertex_face, tau);
        gen.transform(x);
        gen.perturb(x);
        return std::pair(x, gen.options(tau));
    });
}

TEST(Adversarial, ContactsAtSplitPointsAndEnds)
{
    run_family("split points", 0x5b117U, [](Adversary& gen, bool vertex_face) {
        const double tau = gen.contact_time();
        Points x = gen.crossing(vertex_face, tau);
        gen.transform(x);
        if (gen.pick(2)) {
            gen.perturb(x);
        }
        return std::pair(x, gen.options(tau));
    });
}

TEST(Adversarial, ContactsAtRationalTimesOnTheBoundary)
{
    // The double-double stage cannot certify a term that is exactly zero at the root, so it hands its other
    // signs to the exact stage, which computes just that one.
    run_family("rational times", 0x4a710U, [](Adversary& gen, bool vertex_face) {
        Points x = gen.rational_crossing(vertex_face);
        if (gen.pick(2)) {
            gen.transform(x);
        }
        if (gen.pick(4) == 0) {
            gen.perturb(x);
        }
        return std::pair(x, gen.options());
    });
}

TEST(Adversarial, NearlyParallelNearlyCoplanar)
{
    // Products of two tiny quantities (directions an ulp from parallel, offsets an ulp from the plane): the
    // coplanarity polynomial is ~2^-100 of its magnitude, below the double filter and near the double-double one.
    run_family("nearly parallel", 0xa7a11e1U, [](Adversary& gen, bool vertex_face) {
        Points x = gen.parallel(vertex_face);
        gen.transform(x);
        gen.perturb(x);
        if (gen.pick(2)) {
            gen.perturb(x);
        }
        return std::pair(x, gen.options());
    });
}

TEST(Adversarial, CoplanarMotionEvents)
{
    run_family("coplanar events", 0xc0e1a2U, [](Adversary& gen, bool) {
        Points x = gen.coplanar();
        gen.transform(x);
        if (gen.pick(4) == 0) {
            gen.perturb(x);
        }
        return std::pair(x, gen.options(gen.pick(2) ? 0.5 : 1.0));
    });
}

TEST(Adversarial, SharedQueriesMovedByAnUlp)
{
    // The public benchmark's queries (many exactly degenerate) with one coordinate moved by an ulp, and t_max
    // and tolerance varied: every answer against the oracle.
    const std::filesystem::path dir = test::shared_query_dir() / "wang2021-handcrafted";
    if (!std::filesystem::exists(dir)) {
        GTEST_SKIP() << "shared queries not found at " << dir;
    }
    Adversary gen(seed(0x54a2edU));
    Tally tally;
    std::vector<std::pair<bool, Points>> queries;
    for (const QueryFile& file : read_query_paths({ dir })) {
        for (const Query& q : file.queries) {
            queries.emplace_back(q.kind == QueryKind::VERTEX_FACE, q.points);
        }
    }
    for (std::size_t i = 0; i < query_count() && tally.failures < 10; ++i) {
        auto [vertex_face, x] = queries[gen.pick(queries.size())];
        double& c = x[gen.pick(8)][static_cast<Eigen::Index>(gen.pick(3))];
        c = std::nextafter(c, gen.pick(2) ? 10.0 : -10.0);
        check(vertex_face, x, gen.options(), tally, false);
    }
    report("shared moved", tally);
}

namespace {

/// The filters' Bernstein coefficients on [l, r], computed as BernsteinFilter computes them, with T = mpq_class
/// giving their exact values: positions relative to point 0, x(t) = a + t (b - a).
template <class T> details::QueryPoints<T, 1> filter_points(const details::QueryMotion& m, double l, double r)
{
    details::QueryPoints<T, 1> x;
    const auto position = [&](int i, int k, double t) {
        T a, b;
        if constexpr (std::is_same_v<T, mpq_class>) {
            a = mpq_class(m.start[i][k]) - mpq_class(m.start[0][k]);
            b = mpq_class(m.end[i][k]) - mpq_class(m.end[0][k]);
        } else {
            a = details::difference_input<T>(m.start[i][k], m.start[0][k]);
            b = details::difference_input<T>(m.end[i][k], m.end[0][k]);
        }
        if (t == 0.0) {
            return a;
        }
        if (t == 1.0) {
            return b;
        }
        return T(a + T(t) * (b - a));
    };
    for (int i = 0; i < 4; ++i) {
        const auto line = [&](int k) { return Poly<T, 1> { { position(i, k, l), position(i, k, r) } }; };
        x[i] = { line(0), line(1), line(2) };
    }
    return x;
}

int exact_sign(const mpq_class& v) { return sgn(v); }

/// Every sign a filter certifies for a coefficient of a contact term is the exact one: counts the certified
/// signs and the wrong ones.
template <class Terms, class T>
void check_certified_signs(
    const details::QueryMotion& m, double l, double r, std::size_t& certified, std::size_t& wrong)
{
    const auto x = filter_points<T>(m, l, r);
    const auto e = filter_points<mpq_class>(m, l, r);
    const auto n = Terms::normal(x);
    const auto ne = Terms::normal(e);
    const auto compare = [&](const auto& p, const auto& q) {
        for (std::size_t i = 0; i < p.c.size(); ++i) {
            const int s = details::certain_sign(p.c[i]);
            certified += s != 0;
            wrong += s != 0 && s != exact_sign(q.c[i]);
        }
    };
    compare(Terms::coplanarity(x, n), Terms::coplanarity(e, ne));
    compare(Terms::nondegenerate(n), Terms::nondegenerate(ne));
    const auto inside = Terms::inside(x, n);
    const auto inside_exact = Terms::inside(e, ne);
    for (std::size_t i = 0; i < inside.size(); ++i) {
        compare(inside[i], inside_exact[i]);
    }
}

} // namespace

TEST(Adversarial, FilterSignsAreExact)
{
    // Below the end-to-end answers: each sign the double and double-double filters certify, on the queries
    // above and on intervals at split points, ends and random times, is the sign of the exact coefficient.
    Adversary gen(seed(0xf11e5U));
    static const std::vector<double> SPLITS = split_points(1.0, 5);
    std::size_t certified = 0, failures = 0;
    const std::size_t count = std::max<std::size_t>(query_count() / 10, 200);
    for (std::size_t i = 0; i < count && failures < 5; ++i) {
        const bool vertex_face = i % 2 == 0;
        Points x;
        switch (gen.pick(4)) {
        case 0:
            x = gen.grazing(vertex_face, gen.contact_time());
            break;
        case 1:
            x = gen.crossing(vertex_face, gen.contact_time());
            break;
        case 2:
            x = gen.parallel(vertex_face);
            break;
        default:
            x = gen.coplanar();
            break;
        }
        gen.transform(x);
        gen.perturb(x);
        const std::optional<details::QueryMotion> unit
            = details::to_query_motion(test::vertex_face_motion(x)).scaled_to_unit();
        if (!unit) {
            continue;
        }
        for (int j = 0; j < 4; ++j) {
            double l = 0.0, r = 1.0;
            switch (gen.pick(3)) {
            case 0:
                l = SPLITS[gen.pick(SPLITS.size())];
                r = gen.pick(2) ? 1.0 : std::min(1.0, l + std::ldexp(1.0, -static_cast<int>(gen.pick(50))));
                break;
            case 1:
                l = r = gen.pick(2) ? SPLITS[gen.pick(SPLITS.size())] : std::abs(gen.unit());
                break;
            default:
                l = std::abs(gen.unit());
                r = std::min(1.0, l + std::abs(gen.unit()) * std::ldexp(1.0, -static_cast<int>(gen.pick(60))));
                break;
            }
            std::size_t wrong = 0;
            if (vertex_face) {
                check_certified_signs<details::VertexFaceTerms, FilteredDouble>(*unit, l, r, certified, wrong);
                check_certified_signs<details::VertexFaceTerms, FilteredDoubleDouble>(*unit, l, r, certified, wrong);
            } else {
                check_certified_signs<details::EdgeEdgeTerms, FilteredDouble>(*unit, l, r, certified, wrong);
                check_certified_signs<details::EdgeEdgeTerms, FilteredDoubleDouble>(*unit, l, r, certified, wrong);
            }
            EXPECT_EQ(wrong, 0U) << "signs wrong on [" << std::hexfloat << l << ", " << r << "] for "
                                 << hex(x, CcdOptions {});
            failures += wrong != 0;
        }
    }
    std::printf("filter signs: %zu queries, %zu certified signs checked\n", count, certified);
}
