// SPDX-License-Identifier: MIT
// Randomized differential test of the space-time CCD functions against the independent exact oracle
// (tests/oracle/convex_hull_oracle.hpp): every query's `hit` must agree. The generators favour the cases
// where exact geometry goes wrong: small-integer grids (touching, coplanar, collinear, zero-length edges,
// repeated points), contacts placed on the space-time simplices and rounded, coplanar (collinear in 2D)
// motion, static configurations, and huge or tiny scales; every query gets random ids.
//
// The total number of queries, split over the kinds and families below, is 1'000'000 unless the environment
// variable CCDKIT_SPACETIME_QUERIES says otherwise. The seeds are fixed: every run sees the same queries.

#include "oracle/convex_hull_oracle.hpp"
#include "support/env_count.hpp"

#include <ccdkit/narrow/spacetime_ccd.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <random>
#include <string>
#include <vector>

using namespace ccdkit;
using Vec3 = Eigen::Vector3d;

namespace {

std::size_t total_queries() { return test::count_from_env("CCDKIT_SPACETIME_QUERIES", 1'000'000); }

enum class Kind { VERTEX_FACE, EDGE_EDGE, POINT_EDGE };
enum class Family { GRID, NEAR_CONTACT, COPLANAR, STATIC, SCALED };

/// Share of the total per family (the three kinds get a third each).
double family_share(Family f)
{
    switch (f) {
    case Family::GRID:
        return 0.25;
    case Family::NEAR_CONTACT:
        return 0.30;
    case Family::COPLANAR:
        return 0.20;
    case Family::STATIC:
        return 0.10;
    default:
        return 0.15;
    }
}

const char* kind_name(Kind k)
{
    return k == Kind::VERTEX_FACE ? "VertexFace" : k == Kind::EDGE_EDGE ? "EdgeEdge" : "PointEdge";
}

const char* family_name(Family f)
{
    switch (f) {
    case Family::GRID:
        return "Grid";
    case Family::NEAR_CONTACT:
        return "NearContact";
    case Family::COPLANAR:
        return "Coplanar";
    case Family::STATIC:
        return "Static";
    default:
        return "Scaled";
    }
}

/// A query of any kind: point i is at x[i] at t = 0 and at x[i + 4] at t = 1 (vertex-face: p, t0, t1, t2;
/// edge-edge: ea0, ea1, eb0, eb1; point-edge: p, e0, e1 in the plane z = 0, point 3 unused).
struct Query {
    std::array<Vec3, 8> x;
    SpacetimeIds ids;
};

VertexFaceMotion vertex_face_motion(const Query& q)
{
    const auto& x = q.x;
    return { x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] };
}

EdgeEdgeMotion edge_edge_motion(const Query& q)
{
    const auto& x = q.x;
    return { x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] };
}

PointEdgeMotion2d point_edge_motion(const Query& q)
{
    const auto& x = q.x;
    return { x[0].head<2>(), x[1].head<2>(), x[2].head<2>(), x[4].head<2>(), x[5].head<2>(), x[6].head<2>() };
}

/// The query in hexadecimal floating point (exact), ready to paste into a regression test.
std::string describe(Kind kind, const Query& q)
{
    std::string out = kind_name(kind);
    out += " query (t0 points, then t1 points):\n";
    const int dims = kind == Kind::POINT_EDGE ? 2 : 3;
    const int points = kind == Kind::POINT_EDGE ? 3 : 4;
    char buffer[128];
    for (const int time : { 0, 4 }) {
        for (int i = 0; i < points; ++i) {
            out += "  {";
            for (int k = 0; k < dims; ++k) {
                std::snprintf(buffer, sizeof buffer, "%s%a", k ? ", " : " ", q.x[time + i][k]);
                out += buffer;
            }
            out += " }\n";
        }
    }
    std::snprintf(
        buffer, sizeof buffer, "  ids { %lld, %lld, %lld, %lld }", static_cast<long long>(q.ids[0]),
        static_cast<long long>(q.ids[1]), static_cast<long long>(q.ids[2]), static_cast<long long>(q.ids[3]));
    out += buffer;
    return out;
}

class QueryGenerator {
public:
    QueryGenerator(Kind kind, std::uint64_t seed)
        : kind_(kind)
        , dims_(kind == Kind::POINT_EDGE ? 2 : 3)
        , rng_(seed)
    {
    }

    Query next(Family family)
    {
        Query q;
        q.ids = random_ids();
        switch (family) {
        case Family::GRID:
            q.x = grid(pick(4) == 0 ? 1 : 2);
            with_coincidences(q.x);
            break;
        case Family::NEAR_CONTACT:
            q.x = near_contact(q.ids, dims_);
            break;
        case Family::COPLANAR:
            q.x = coplanar(q.ids);
            break;
        case Family::STATIC: {
            // The start or the end positions of a grid query or of a (nearly) touching one, held still.
            const std::array<Vec3, 8> x = pick(2) ? grid(2) : near_contact(q.ids, dims_);
            const int time = static_cast<int>(pick(2));
            for (int i = 0; i < 4; ++i) {
                q.x[i] = q.x[i + 4] = x[i + 4 * time];
            }
            break;
        }
        case Family::SCALED: {
            q.x = pick(3) == 0 ? near_contact(q.ids, dims_) : grid(2);
            if (pick(3) == 0) {
                with_coincidences(q.x);
            }
            // Exact scaling by a power of two: 2^500, 2^-500, or anything in between (never subnormal here:
            // grid values are integers and rounded contacts stay well above 2^-500 * 2^-200).
            const int e = pick(3) == 0 ? static_cast<int>(pick(1001)) - 500 : (pick(2) ? 500 : -500);
            for (auto& p : q.x) {
                p *= std::ldexp(1.0, e);
            }
            break;
        }
        }
        if (dims_ == 2) {
            for (auto& p : q.x) {
                p[2] = 0.0;
            }
        }
        return q;
    }

private:
    std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
    double unit() { return std::uniform_real_distribution<double>(-1.0, 1.0)(rng_); }
    double weight() { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_); }

    /// Distinct ids in a random order: small ones, or anywhere in the int64 range.
    SpacetimeIds random_ids()
    {
        SpacetimeIds ids;
        do {
            for (auto& id : ids) {
                id = pick(2) ? static_cast<std::int64_t>(pick(8)) - 4 : static_cast<std::int64_t>(rng_());
            }
        } while (ids[1] == ids[0] || ids[2] == ids[0] || ids[2] == ids[1] || ids[3] == ids[0] || ids[3] == ids[1]
                 || ids[3] == ids[2]);
        return ids;
    }

    /// Coordinates in {-steps, ..., steps} / (steps / 2): integers of -2..2 for steps = 2, -2, 0, 2 for steps = 1.
    std::array<Vec3, 8> grid(int steps)
    {
        std::array<Vec3, 8> x;
        for (auto& p : x) {
            for (int k = 0; k < 3; ++k) {
                p[k] = k < dims_
                    ? 2.0 * (static_cast<double>(pick(2 * static_cast<std::size_t>(steps) + 1)) - steps) / steps
                    : 0.0;
            }
        }
        return x;
    }

    std::array<Vec3, 8> uniform()
    {
        std::array<Vec3, 8> x;
        for (auto& p : x) {
            p = { unit(), unit(), dims_ == 3 ? unit() : 0.0 };
        }
        return x;
    }

    /// Repeated points (zero-length edges, collapsed triangles), static points, shared coordinates.
    void with_coincidences(std::array<Vec3, 8>& x)
    {
        for (int n = static_cast<int>(pick(4)); n > 0; --n) {
            const std::size_t i = pick(8), j = pick(8);
            switch (pick(3)) {
            case 0:
                x[i] = x[j];
                break;
            case 1:
                x[i % 4 + 4] = x[i % 4];
                break;
            default:
                x[i][pick(3)] = x[j][pick(3)];
                break;
            }
        }
    }

    /// Random convex weights, some of them zero (contact on a face, an edge or a vertex).
    template <std::size_t N> std::array<double, N> convex_weights()
    {
        std::array<double, N> w;
        for (auto& v : w) {
            v = weight();
        }
        if (pick(2)) {
            for (int n = static_cast<int>(pick(N - 1)) + 1; n > 0; --n) {
                w[pick(N)] = 0.0;
            }
        }
        double sum = 0.0;
        for (const double v : w) {
            sum += v;
        }
        if (sum == 0.0) {
            w[pick(N)] = sum = 1.0;
        }
        for (auto& v : w) {
            v /= sum;
        }
        return w;
    }

    /// The indices of the query's points in a primitive, sorted by id.
    template <std::size_t N> std::array<int, N> by_id(std::array<int, N> points, const SpacetimeIds& ids)
    {
        std::sort(points.begin(), points.end(), [&ids](int a, int b) { return ids[a] < ids[b]; });
        return points;
    }

    /// A point of one of a primitive's space-time simplices (the model's, built from the ids), as a position
    /// and a time; or, half of the time, a point of the linearly interpolated primitive (the other model, whose
    /// surface bends away from the split triangles).
    std::pair<Vec3, double> point_on_swept(const std::array<Vec3, 8>& x, const std::vector<int>& sorted)
    {
        const auto at = [&x](int i, int time) { return x[i + 4 * time]; };
        if (pick(2) == 0) {
            const double t = pick(4) == 0 ? static_cast<double>(pick(2)) : weight();
            Vec3 p = Vec3::Zero();
            if (sorted.size() == 2) {
                const auto w = convex_weights<2>();
                for (int i = 0; i < 2; ++i) {
                    p += w[i] * ((1 - t) * at(sorted[i], 0) + t * at(sorted[i], 1));
                }
            } else {
                const auto w = convex_weights<3>();
                for (int i = 0; i < 3; ++i) {
                    p += w[i] * ((1 - t) * at(sorted[i], 0) + t * at(sorted[i], 1));
                }
            }
            return { p, t };
        }
        // Space-time simplices as (sorted index, time) corners.
        using Corner = std::pair<int, int>;
        std::vector<std::vector<Corner>> simplices;
        if (sorted.size() == 2) {
            simplices = { { { 0, 0 }, { 1, 0 }, { 1, 1 } }, { { 0, 0 }, { 0, 1 }, { 1, 1 } } };
        } else {
            simplices = { { { 0, 0 }, { 1, 0 }, { 2, 0 }, { 2, 1 } },
                          { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 2, 1 } },
                          { { 0, 0 }, { 0, 1 }, { 1, 1 }, { 2, 1 } } };
        }
        const auto& simplex = simplices[pick(simplices.size())];
        Vec3 p = Vec3::Zero();
        double t = 0.0;
        if (simplex.size() == 3) {
            const auto w = convex_weights<3>();
            for (int i = 0; i < 3; ++i) {
                p += w[i] * at(sorted[simplex[i].first], simplex[i].second);
                t += w[i] * simplex[i].second;
            }
        } else {
            const auto w = convex_weights<4>();
            for (int i = 0; i < 4; ++i) {
                p += w[i] * at(sorted[simplex[i].first], simplex[i].second);
                t += w[i] * simplex[i].second;
            }
        }
        return { p, t };
    }

    /// The point of one primitive's swept surface at time t that the model uses (edge: on one of its
    /// triangles; linear interpolation half of the time).
    Vec3 edge_point_at(const std::array<Vec3, 8>& x, const std::array<int, 2>& sorted, double t)
    {
        const auto at = [&x](int i, int time) { return x[i + 4 * time]; };
        const double u = pick(4) == 0 ? static_cast<double>(pick(2)) : weight();
        if (pick(2) == 0) {
            return (1 - u) * ((1 - t) * at(sorted[0], 0) + t * at(sorted[0], 1))
                + u * ((1 - t) * at(sorted[1], 0) + t * at(sorted[1], 1));
        }
        if (pick(2) == 0) { // (a, b, b'): weights mu, 1 - t - mu, t
            const double mu = u * (1 - t);
            return mu * at(sorted[0], 0) + (1 - t - mu) * at(sorted[1], 0) + t * at(sorted[1], 1);
        }
        const double mu = u * t; // (a, a', b'): weights 1 - t, mu, t - mu
        return (1 - t) * at(sorted[0], 0) + mu * at(sorted[0], 1) + (t - mu) * at(sorted[1], 1);
    }

    /// A contact placed exactly (in real arithmetic) on the primitives, then rounded: touching, nearly
    /// touching or nearly missing; sometimes nudged by a few ulps or by a small relative amount.
    std::array<Vec3, 8> near_contact(const SpacetimeIds& ids, int dims)
    {
        std::array<Vec3, 8> x = uniform();
        for (auto& p : x) {
            for (int k = dims; k < 3; ++k) {
                p[k] = 0.0;
            }
        }
        if (kind_ == Kind::EDGE_EDGE) {
            const auto a = by_id(std::array { 0, 1 }, ids);
            const auto [target, t] = point_on_swept(x, { a[0], a[1] });
            const Vec3 offset = target - edge_point_at(x, by_id(std::array { 2, 3 }, ids), t);
            for (const int i : { 2, 3, 6, 7 }) {
                x[i] += offset;
            }
        } else {
            std::vector<int> sorted;
            if (kind_ == Kind::VERTEX_FACE) {
                const auto s = by_id(std::array { 1, 2, 3 }, ids);
                sorted.assign(s.begin(), s.end());
            } else {
                const auto s = by_id(std::array { 1, 2 }, ids);
                sorted.assign(s.begin(), s.end());
            }
            const auto [target, t] = point_on_swept(x, sorted);
            // Move the vertex so that it passes the target at time t.
            if (t == 0.0) {
                x[0] = target;
            } else if (t == 1.0) {
                x[4] = target;
            } else if (pick(2)) {
                x[4] = x[0] + (target - x[0]) / t;
            } else {
                x[0] = x[4] + (target - x[4]) / (1 - t);
            }
        }
        nudge(x, dims);
        return x;
    }

    void nudge(std::array<Vec3, 8>& x, int dims)
    {
        switch (pick(4)) {
        case 0: { // a few ulps on one coordinate
            double& c = x[pick(8)][pick(static_cast<std::size_t>(dims))];
            for (int n = static_cast<int>(pick(3)) + 1; n > 0; --n) {
                c = std::nextafter(c, pick(2) ? 1e300 : -1e300);
            }
            break;
        }
        case 1: // a small relative change
            x[pick(8)][pick(static_cast<std::size_t>(dims))] *= 1.0 + 1e-12 * unit();
            break;
        default:
            break;
        }
    }

    /// Coplanar motion: all eight points on the plane z = 0 (vertex-face, edge-edge) or on the line y = 0
    /// (point-edge), or on a random integer plane / line through small integer points; near contacts in the
    /// plane z = 0 (the line y = 0) too.
    std::array<Vec3, 8> coplanar(const SpacetimeIds& ids)
    {
        std::array<Vec3, 8> x;
        switch (pick(3)) {
        case 0: { // near contact inside the plane (line)
            x = near_contact(ids, dims_ - 1);
            break;
        }
        case 1: { // small integers on a plane z = d - a x - b y (line y = d - a x)
            const double a = static_cast<double>(pick(5)) - 2, b = static_cast<double>(pick(5)) - 2,
                         d = static_cast<double>(pick(5)) - 2;
            x = grid(2);
            for (auto& p : x) {
                if (dims_ == 3) {
                    p[2] = d - a * p[0] - b * p[1];
                } else {
                    p[1] = d - a * p[0];
                }
            }
            with_coincidences_in_plane(x);
            break;
        }
        default: // random doubles, or grid points, with the last coordinate 0
            x = pick(2) ? uniform() : grid(2);
            for (auto& p : x) {
                p[dims_ - 1] = 0.0;
            }
            break;
        }
        return x;
    }

    /// Repeated and static points (copies stay in the plane).
    void with_coincidences_in_plane(std::array<Vec3, 8>& x)
    {
        for (int n = static_cast<int>(pick(3)); n > 0; --n) {
            const std::size_t i = pick(8), j = pick(8);
            if (pick(2)) {
                x[i] = x[j];
            } else {
                x[i % 4 + 4] = x[i % 4];
            }
        }
    }

    Kind kind_;
    int dims_;
    std::mt19937_64 rng_;
};

/// A random order-preserving relabelling of the ids (the model only looks at their order within a primitive).
SpacetimeIds relabel(const SpacetimeIds& ids, std::mt19937_64& rng)
{
    std::array<int, 4> order = { 0, 1, 2, 3 };
    std::sort(order.begin(), order.end(), [&ids](int a, int b) { return ids[a] < ids[b]; });
    std::array<std::int64_t, 4> values;
    do {
        for (auto& v : values) {
            v = static_cast<std::int64_t>(rng() >> 2) - (std::int64_t(1) << 60);
        }
        std::sort(values.begin(), values.end());
    } while (std::adjacent_find(values.begin(), values.end()) != values.end());
    SpacetimeIds out {};
    for (int rank = 0; rank < 4; ++rank) {
        out[order[rank]] = values[rank];
    }
    return out;
}

CcdResult run(Kind kind, const Query& q, const SpacetimeIds& ids)
{
    switch (kind) {
    case Kind::VERTEX_FACE:
        return spacetime_vertex_face_ccd(vertex_face_motion(q), ids);
    case Kind::EDGE_EDGE:
        return spacetime_edge_edge_ccd(edge_edge_motion(q), ids);
    default:
        return spacetime_point_edge_ccd(point_edge_motion(q), ids);
    }
}

bool run_oracle(Kind kind, const Query& q)
{
    switch (kind) {
    case Kind::VERTEX_FACE:
        return oracle::spacetime_vertex_face_oracle(vertex_face_motion(q), q.ids);
    case Kind::EDGE_EDGE:
        return oracle::spacetime_edge_edge_oracle(edge_edge_motion(q), q.ids);
    default:
        return oracle::spacetime_point_edge_oracle(point_edge_motion(q), q.ids);
    }
}

bool touching_at_start(Kind kind, const Query& q)
{
    switch (kind) {
    case Kind::VERTEX_FACE:
        return oracle::vertex_face_touching_at_start(vertex_face_motion(q));
    case Kind::EDGE_EDGE:
        return oracle::edge_edge_touching_at_start(edge_edge_motion(q));
    default:
        return oracle::point_edge_touching_at_start(point_edge_motion(q));
    }
}

/// Whether the model has a contact at some time <= t (exact).
bool contact_by(Kind kind, const Query& q, double t)
{
    const mpq_class bound(t);
    switch (kind) {
    case Kind::VERTEX_FACE:
        return oracle::spacetime_vertex_face_contact_by(vertex_face_motion(q), q.ids, bound);
    case Kind::EDGE_EDGE:
        return oracle::spacetime_edge_edge_contact_by(edge_edge_motion(q), q.ids, bound);
    default:
        return oracle::spacetime_point_edge_contact_by(point_edge_motion(q), q.ids, bound);
    }
}

/// How far the reported time of impact may be from the earliest contact time t* before it is counted.
constexpr double TOI_SLACK = 1e-6;

struct Case {
    Kind kind;
    Family family;
};

void PrintTo(const Case& c, std::ostream* out) { *out << kind_name(c.kind) << family_name(c.family); }

std::vector<Case> all_cases()
{
    std::vector<Case> cases;
    for (const Kind kind : { Kind::VERTEX_FACE, Kind::EDGE_EDGE, Kind::POINT_EDGE }) {
        for (const Family family :
             { Family::GRID, Family::NEAR_CONTACT, Family::COPLANAR, Family::STATIC, Family::SCALED }) {
            cases.push_back({ kind, family });
        }
    }
    return cases;
}

class SpacetimeDifferential : public ::testing::TestWithParam<Case> { };

constexpr int MAX_REPORTED = 10;

} // namespace

TEST_P(SpacetimeDifferential, AgreesWithOracle)
{
    const auto [kind, family] = GetParam();
    const auto count
        = static_cast<std::size_t>(std::llround(static_cast<double>(total_queries()) * family_share(family) / 3.0));
    const std::uint64_t seed = 0x57ace000U + 16 * static_cast<std::uint64_t>(kind) + static_cast<std::uint64_t>(family);
    QueryGenerator generator(kind, seed);
    std::mt19937_64 relabel_rng(seed ^ 0xabcdefU);
    std::size_t hits = 0, disagreements = 0, touching = 0;
    std::size_t touching_but_hit = 0, apart_but_initially_touching = 0; // status vs the exact state at t = 0
    std::size_t toi_before_contact = 0, toi_after_contact = 0; // by more than TOI_SLACK
    for (std::size_t i = 0; i < count && disagreements < MAX_REPORTED; ++i) {
        const Query q = generator.next(family);
        const CcdResult r = run(kind, q, q.ids);
        const bool expected = run_oracle(kind, q);
        if (r.status == CcdStatus::INVALID_INPUT || r.hit != expected) {
            ++disagreements;
            ADD_FAILURE() << "query " << i << ": space-time CCD says "
                          << (r.status == CcdStatus::INVALID_INPUT ? "invalid input"
                                  : r.hit                          ? "hit"
                                                                   : "miss")
                          << ", the oracle says " << (expected ? "hit" : "miss") << "\n"
                          << describe(kind, q);
            continue;
        }
        hits += r.hit;
        // The result must be self-consistent.
        const bool consistent = r.hit ? (r.status == CcdStatus::HIT || r.status == CcdStatus::INITIALLY_TOUCHING)
                && 0.0 <= r.toi_lower && r.toi_lower <= r.toi_upper && r.toi_upper <= 1.0
                                      : r.status == CcdStatus::SEPARATED && r.toi_lower == 1.0 && r.toi_upper == 1.0;
        EXPECT_TRUE(consistent) << "inconsistent result (status " << static_cast<int>(r.status) << ", toi ["
                                << r.toi_lower << ", " << r.toi_upper << "]) for\n"
                                << describe(kind, q);
        // Only the order of the ids within a primitive matters.
        if (i % 4 == 0) {
            const SpacetimeIds other = relabel(q.ids, relabel_rng);
            EXPECT_EQ(run(kind, q, other).hit, r.hit) << "relabelled ids change the answer for\n" << describe(kind, q);
        }
        // Touching at t = 0 is decided exactly by the oracle, and the earliest contact time t* is bracketed
        // exactly; the reported time (computed in floating point) must be within TOI_SLACK of t*, and
        // INITIALLY_TOUCHING must be reported exactly when the oracle says touching at t = 0.
        if (r.hit) {
            const bool before = r.toi_upper + TOI_SLACK < 1.0 && !contact_by(kind, q, r.toi_upper + TOI_SLACK);
            const bool after = r.toi_lower - TOI_SLACK > 0.0 && contact_by(kind, q, r.toi_lower - TOI_SLACK);
            if (before || after) {
                auto& counter = before ? toi_before_contact : toi_after_contact;
                if (++counter <= 2) {
                    std::printf(
                        "note: toi [%a, %a] is %s the earliest contact by more than %g for\n%s\n", r.toi_lower,
                        r.toi_upper, before ? "before" : "after", TOI_SLACK, describe(kind, q).c_str());
                }
            }
            const bool at_start = touching_at_start(kind, q);
            touching += at_start;
            if (at_start != (r.status == CcdStatus::INITIALLY_TOUCHING)) {
                auto& counter = at_start ? touching_but_hit : apart_but_initially_touching;
                if (++counter <= 2) {
                    std::printf(
                        "note: status %s but the oracle says %s at t = 0 (toi [%a, %a]) for\n%s\n",
                        r.status == CcdStatus::INITIALLY_TOUCHING ? "INITIALLY_TOUCHING" : "HIT",
                        at_start ? "touching" : "apart", r.toi_lower, r.toi_upper, describe(kind, q).c_str());
                }
            }
        }
    }
    std::printf(
        "%s/%s: %zu queries, %zu hits (%zu touching at t = 0), %zu disagreements on hit; status at t = 0: %zu HIT "
        "though touching, %zu INITIALLY_TOUCHING though apart; toi more than %g before t*: %zu, after t*: %zu\n",
        kind_name(kind), family_name(family), count, hits, touching, disagreements, touching_but_hit,
        apart_but_initially_touching, TOI_SLACK, toi_before_contact, toi_after_contact);
    EXPECT_EQ(disagreements, 0U);
    EXPECT_EQ(toi_before_contact + toi_after_contact, 0U);
    EXPECT_EQ(touching_but_hit + apart_but_initially_touching, 0U);
}

INSTANTIATE_TEST_SUITE_P(
    Generated, SpacetimeDifferential, ::testing::ValuesIn(all_cases()), [](const auto& param_info) {
        return std::string(kind_name(param_info.param.kind)) + family_name(param_info.param.family);
    });
