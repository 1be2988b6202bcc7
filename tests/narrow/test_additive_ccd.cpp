// SPDX-License-Identifier: MIT
// Additive CCD: the returned time must be safe (the distance stays above min_distance on [0, toi]), checked
// with the exact linear-model CCD when min_distance = 0 and with a long-double branch and bound otherwise,
// on generated (mostly degenerate) queries, the shared benchmark queries and hand-built cases.
#include "narrow/ccd_test_support.hpp"
#include "narrow/details/additive_stepping.hpp"
#include "narrow/details/axis_separation.hpp"
#include "support/distance_reference.hpp"
#include "support/env_count.hpp"
#include "support/query_generator.hpp"
#include "support/shared_data.hpp"

#include <ccdkit/io/query_file.hpp>
#include <ccdkit/narrow/additive_ccd.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <vector>

using namespace ccdkit;
using test::Points;

namespace {

using test::Real;
using Reference = test::DistanceReference;

AdditiveCcdResult run_additive(bool vertex_face, const Points& x, const AdditiveCcdOptions& options)
{
    return vertex_face ? additive_vertex_face_ccd(test::vertex_face_motion(x), options)
                       : additive_edge_edge_ccd(test::edge_edge_motion(x), options);
}

/// Largest coordinate magnitude of a query: the scale of its rounding errors.
double scale_of(const Points& x)
{
    double m = 0;
    for (const auto& p : x) {
        m = std::max(m, p.cwiseAbs().maxCoeff());
    }
    return m;
}

/// Branch-and-bound checks that could not conclude (the distance came within rounding of min_distance).
std::size_t undecided_checks = 0;

/// Checks one 3D query: the time is safe; a hit is not before the first step's bound (the documented
/// progress), and "initially touching" only for pairs (nearly) within min_distance at t = 0.
::testing::AssertionResult check_query(bool vertex_face, const Points& x, const AdditiveCcdOptions& options)
{
    const AdditiveCcdResult r = run_additive(vertex_face, x, options);
    if (r.status == AdditiveCcdStatus::INVALID_INPUT) {
        return ::testing::AssertionFailure() << "invalid input for " << test::describe(x);
    }
    const Reference ref(vertex_face ? Reference::Kind::VERTEX_FACE : Reference::Kind::EDGE_EDGE, x);
    const Real s = options.min_distance, d0 = ref.distance(0), scale = scale_of(x);
    if (r.status == AdditiveCcdStatus::INITIALLY_TOUCHING) {
        if (d0 - s > 1e-9L * scale) {
            return ::testing::AssertionFailure()
                << "initially touching reported at gap " << static_cast<double>(d0 - s) << " for " << test::describe(x);
        }
        return ::testing::AssertionSuccess();
    }
    if (s == 0) {
        // Exact: no contact at all in the closed interval [0, toi].
        const CcdResult exact = test::run(vertex_face, x, { r.toi, 1e-6, CcdMethod::EXACT });
        if (exact.hit) {
            return ::testing::AssertionFailure()
                << "contact at " << exact.toi_upper << " before toi " << r.toi << " for " << test::describe(x);
        }
    } else {
        const auto verdict = ref.above(s, 0, r.toi);
        if (verdict == Reference::Verdict::BELOW) {
            return ::testing::AssertionFailure()
                << "distance below " << options.min_distance << " before toi " << r.toi << " for " << test::describe(x);
        }
        undecided_checks += verdict == Reference::Verdict::UNKNOWN;
    }
    if (r.status == AdditiveCcdStatus::HIT) {
        // Up to the rounding of the certified initial gap (a few ulps of the coordinates).
        const Real first_step = (1 - options.eta) * (d0 - s - 1e-13L * scale) / ref.speed();
        if (r.toi < first_step * (1 - 1e-9L)) {
            return ::testing::AssertionFailure() << "hit at " << r.toi << " before the first step "
                                                 << static_cast<double>(first_step) << " for " << test::describe(x);
        }
    }
    return ::testing::AssertionSuccess();
}

std::size_t generated_queries() { return test::count_from_env("CCDKIT_ADDITIVE_QUERIES", 120'000); }

/// min_distance as a fraction of the query's scale: 0 (exact check), small, large.
class AdditiveGenerated : public ::testing::TestWithParam<double> { };

} // namespace

TEST_P(AdditiveGenerated, TimeOfImpactIsSafe)
{
    const double fraction = GetParam();
    test::QueryGenerator generator(0xadd17e00U + static_cast<std::uint64_t>(fraction * 1e6));
    const std::size_t count = generated_queries() / 3;
    std::size_t hits = 0, limited = 0, failures = 0;
    for (std::size_t i = 0; i < count && failures < 10; ++i) {
        const bool vertex_face = i % 2 == 0;
        const Points x = generator.next(vertex_face);
        AdditiveCcdOptions options;
        options.min_distance = fraction * scale_of(x);
        options.max_iterations = 10'000;
        const auto verdict = check_query(vertex_face, x, options);
        EXPECT_TRUE(verdict);
        failures += !verdict;
        const AdditiveCcdResult r = run_additive(vertex_face, x, options);
        hits += r.hit;
        limited += r.status == AdditiveCcdStatus::ITERATION_LIMIT;
        // A smaller t_max caps the answer and changes nothing else (what lets the filter prune).
        AdditiveCcdOptions capped = options;
        capped.t_max = 0.37;
        const AdditiveCcdResult c = run_additive(vertex_face, x, capped);
        EXPECT_EQ(c.toi, std::min(r.toi, capped.t_max)) << test::describe(x);
        EXPECT_EQ(
            c.status == AdditiveCcdStatus::SEPARATED,
            r.toi >= capped.t_max && r.status != AdditiveCcdStatus::INITIALLY_TOUCHING)
            << test::describe(x);
    }
    std::printf(
        "min_distance %g x scale: %zu queries, %zu hits, %zu at the iteration limit, %zu undecided checks\n", fraction,
        count, hits, limited, undecided_checks);
    EXPECT_EQ(undecided_checks, 0U);
}

INSTANTIATE_TEST_SUITE_P(MinDistance, AdditiveGenerated, ::testing::Values(0.0, 1e-3, 0.05));

TEST(AdditiveCcd, SharedQueriesNoMissAndSafe)
{
    const std::filesystem::path dir = test::shared_query_dir();
    if (!std::filesystem::exists(dir)) {
        GTEST_SKIP() << "shared queries not found at " << dir << " (set CCDKIT_QUERY_DIR)";
    }
    std::size_t queries = 0, positives = 0, false_positives = 0;
    std::vector<double> ratios; // toi / t* for true contacts after t = 0
    for (const QueryFile& file : read_query_paths({ dir })) {
        for (const Query& q : file.queries) {
            ASSERT_TRUE(q.truth.has_value());
            const bool vertex_face = q.kind == QueryKind::VERTEX_FACE;
            const AdditiveCcdResult r = run_additive(vertex_face, q.points, {});
            ++queries;
            positives += *q.truth;
            false_positives += r.hit && !*q.truth;
            ASSERT_TRUE(r.hit || !*q.truth) << "missed " << file.path << ":" << q.line;
            EXPECT_TRUE(check_query(vertex_face, q.points, {})) << file.path << ":" << q.line;
            const CcdResult exact = test::run(vertex_face, q.points);
            if (exact.hit && exact.toi_lower > 0) {
                ratios.push_back(r.toi / exact.toi_lower);
            }
        }
    }
    std::sort(ratios.begin(), ratios.end());
    ASSERT_FALSE(ratios.empty());
    std::printf(
        "%zu queries, %zu positives, %zu false positives (conservative); toi / t*: min %.3g, median %.3g\n", queries,
        positives, false_positives, ratios.front(), ratios[ratios.size() / 2]);
    EXPECT_LE(ratios.back(), 1.0);
}

TEST(AdditiveCcd, HeadOnApproachStopsAtTheFirstStep)
{
    // A vertex falls straight onto a triangle's interior: distance 1, closing at speed 2, contact at 0.5.
    Points x {};
    x[0] = { 0.2, 0.2, 1 };
    x[1] = { 0, 0, 0 };
    x[2] = { 1, 0, 0 };
    x[3] = { 0, 1, 0 };
    x[4] = { 0.2, 0.2, -1 };
    for (int i = 1; i < 4; ++i) {
        x[i + 4] = x[i];
    }
    const AdditiveCcdResult r = run_additive(true, x, {});
    EXPECT_EQ(r.status, AdditiveCcdStatus::HIT);
    // The mean displacement is subtracted, so l_p = 1.5 + 0.5: the first step is 0.9 * 1 / 2 = 0.45.
    EXPECT_NEAR(r.toi, 0.45, 1e-12);
    EXPECT_LT(r.toi, 0.5);
}

TEST(AdditiveCcd, EtaTradesIterationsForLaterTimes)
{
    Points x {};
    x[0] = { 0.2, 0.2, 1 };
    x[1] = { 0, 0, 0 };
    x[2] = { 1, 0, 0 };
    x[3] = { 0, 1, 0 };
    x[4] = { 0.7, 0.1, -1 }; // oblique: l_p overestimates the approach speed
    for (int i = 1; i < 4; ++i) {
        x[i + 4] = x[i];
    }
    const CcdResult exact = test::run(true, x);
    ASSERT_TRUE(exact.hit);
    AdditiveCcdOptions loose, tight;
    loose.eta = 0.5;
    tight.eta = 0.01;
    const AdditiveCcdResult a = run_additive(true, x, loose), b = run_additive(true, x, tight);
    EXPECT_LT(a.toi, b.toi);
    EXPECT_LT(b.toi, exact.toi_lower);
    EXPECT_LE(a.iterations, b.iterations);
}

TEST(AdditiveCcd, ContactAtTheEnds)
{
    Points x {};
    x[0] = { 0.25, 0.25, 0 }; // on the triangle at t = 0
    x[1] = { 0, 0, 0 };
    x[2] = { 1, 0, 0 };
    x[3] = { 0, 1, 0 };
    x[4] = { 0.25, 0.25, 1 };
    for (int i = 1; i < 4; ++i) {
        x[i + 4] = x[i];
    }
    AdditiveCcdResult r = run_additive(true, x, {});
    EXPECT_EQ(r.status, AdditiveCcdStatus::INITIALLY_TOUCHING);
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.toi, 0.0);
    // Swap the ends: contact exactly at t = 1 is reported, at a time before 1.
    std::swap(x[0], x[4]);
    r = run_additive(true, x, {});
    EXPECT_EQ(r.status, AdditiveCcdStatus::HIT);
    EXPECT_LT(r.toi, 1.0);
    EXPECT_TRUE(check_query(true, x, {}));
    // With t_max < 1 the contact is out of reach.
    AdditiveCcdOptions early;
    early.t_max = 0.5;
    r = run_additive(true, x, early);
    EXPECT_EQ(r.status, AdditiveCcdStatus::SEPARATED);
    EXPECT_EQ(r.toi, 0.5);
}

TEST(AdditiveCcd, ParallelAndZeroLengthEdges)
{
    // Two parallel edges sliding towards each other; then one edge collapsed to a point.
    Points x {};
    x[0] = { 0, 0, 0 };
    x[1] = { 1, 0, 0 };
    x[2] = { 0.5, 1, 0 };
    x[3] = { 1.5, 1, 0 };
    x[4] = x[0];
    x[5] = x[1];
    x[6] = { -0.5, 0, 0 };
    x[7] = { 0.5, 0, 0 }; // ends overlapping edge a: contact
    EXPECT_TRUE(run_additive(false, x, {}).hit);
    EXPECT_TRUE(check_query(false, x, {}));
    x[3] = x[2]; // edge b collapsed to a point, landing on edge a at t = 1
    x[6] = { 0.25, 0, 0 };
    x[7] = x[6];
    EXPECT_TRUE(run_additive(false, x, {}).hit);
    EXPECT_TRUE(check_query(false, x, {}));
    AdditiveCcdOptions separated;
    separated.min_distance = 0.25;
    EXPECT_TRUE(check_query(false, x, separated));
}

TEST(AdditiveCcd, PowerOfTwoScalingGivesTheSameTimes)
{
    test::QueryGenerator generator(7);
    for (int i = 0; i < 2000; ++i) {
        const bool vertex_face = i % 2 == 0;
        const Points x = generator.next(vertex_face);
        AdditiveCcdOptions options;
        options.min_distance = 1e-3 * scale_of(x);
        const AdditiveCcdResult r = run_additive(vertex_face, x, options);
        for (const int e : { -900, 900 }) {
            Points y = x;
            for (auto& p : y) {
                p = p.unaryExpr([e](double c) { return std::ldexp(c, e); });
            }
            AdditiveCcdOptions scaled = options;
            scaled.min_distance = std::ldexp(options.min_distance, e);
            if (scaled.min_distance == 0 && options.min_distance > 0) {
                continue; // underflow changes the query
            }
            if (!std::all_of(y.begin(), y.end(), [](const auto& p) { return p.allFinite(); })
                || scale_of(y) < 0x1p-900) {
                continue; // overflow, or subnormal coordinates: not an exact scaling
            }
            const AdditiveCcdResult q = run_additive(vertex_face, y, scaled);
            EXPECT_EQ(q.status, r.status) << test::describe(x);
            EXPECT_EQ(q.toi, r.toi) << test::describe(x);
        }
    }
}

/// A vertex slides fast along a face at a small height while the face rises: l_p is large, the gap stays small,
/// so every step is short. The vertex leaves the face's footprint before the face reaches its height, but the
/// hulls of the start and end positions overlap, so nothing proves that up front.
Points sliding_vertex()
{
    Points x {};
    x[0] = { -10, 0.5, 1e-3 };
    x[1] = { -20, 0, 0 };
    x[2] = { 20, 0, 0 };
    x[3] = { 0, 20, 0 };
    x[4] = { 30, 0.5, 1e-3 };
    for (int i = 1; i < 4; ++i) {
        x[i + 4] = x[i] + Eigen::Vector3d(0, 0, 1.2e-3);
    }
    return x;
}

TEST(AdditiveCcd, IterationLimitIsASafeHit)
{
    const Points x = sliding_vertex();
    ASSERT_FALSE(test::run(true, x).hit);
    AdditiveCcdOptions capped;
    capped.max_iterations = 10;
    const AdditiveCcdResult r = run_additive(true, x, capped);
    EXPECT_EQ(r.status, AdditiveCcdStatus::ITERATION_LIMIT);
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.iterations, 10);
    EXPECT_GT(r.toi, 0.0);
    EXPECT_TRUE(check_query(true, x, capped));
    // Uncapped it takes many more steps, and stays safe.
    const AdditiveCcdResult free = run_additive(true, x, {});
    EXPECT_GT(free.iterations, 10);
    EXPECT_GT(free.toi, r.toi);
    EXPECT_TRUE(check_query(true, x, {}));
}

TEST(AdditiveCcd, NoStepWhenRoundingCouldEatTheReserve)
{
    // With eta = 1e-13 the gap kept in reserve is below what rounding the next time can add at this speed:
    // no step can be certified, so the answer is a hit at the last safe time, t = 0, not a guess.
    const Points x = sliding_vertex();
    AdditiveCcdOptions tiny_reserve;
    tiny_reserve.eta = 1e-13;
    const AdditiveCcdResult r = run_additive(true, x, tiny_reserve);
    EXPECT_EQ(r.status, AdditiveCcdStatus::ITERATION_LIMIT);
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.toi, 0.0);
    EXPECT_EQ(r.iterations, 0);
}

TEST(AdditiveCcd, SweptHullsProveSeparationAtOnce)
{
    // The same sliding vertex over a static face: one direction (the face normal) separates everything the
    // pair sweeps, so no step is needed however fast it slides.
    Points x {};
    x[0] = { -10, 0.5, 1e-3 };
    x[1] = { -20, 0, 0 };
    x[2] = { 20, 0, 0 };
    x[3] = { 0, 20, 0 };
    x[4] = { 10, 0.5, 1e-3 };
    for (int i = 1; i < 4; ++i) {
        x[i + 4] = x[i];
    }
    const AdditiveCcdResult r = run_additive(true, x, {});
    EXPECT_EQ(r.status, AdditiveCcdStatus::SEPARATED);
    EXPECT_EQ(r.iterations, 0);
    // A separation larger than the height is another matter: initially touching.
    AdditiveCcdOptions wide;
    wide.min_distance = 2e-3;
    EXPECT_EQ(run_additive(true, x, wide).status, AdditiveCcdStatus::INITIALLY_TOUCHING);
}

TEST(AdditiveCcd, SweptHullsAfterAStep)
{
    // A point passes a static one at distance 0.5 (closest at t = 0.25), on a line turned by (0.6, 0.8) so that
    // neither axis separates the two at both ends. Along the t = 0 direction the mover ends up on the other side,
    // but the first step ends just past the closest approach, where the offset direction separates the rest of
    // the path: settled after one step instead of stepping to t = 1.
    const PointPointMotion<2> passing { { -1, -0.5 }, { 0, 0 }, { 1.4, 2.7 }, { 0, 0 } };
    const AdditiveCcdResult r = additive_point_point_ccd(passing);
    EXPECT_EQ(r.status, AdditiveCcdStatus::SEPARATED);
    EXPECT_EQ(r.iterations, 1);
    const Points x { Eigen::Vector3d(-1, -0.5, 0), Eigen::Vector3d::Zero(), Eigen::Vector3d(1.4, 2.7, 0),
                     Eigen::Vector3d::Zero() };
    EXPECT_EQ(Reference(Reference::Kind::POINT_POINT, x).above(0, 0, 1), Reference::Verdict::ABOVE);
}

TEST(AdditiveCcd, SweptGapAfterAStepIsCertifiedAtTheBound)
{
    // The swept bound from t = 0.5 on, for paths whose distance over [0.5, 1] comes exactly to 0.5: it must not
    // certify that min_distance (the distance reaches it), and does certify one just below.
    using Pair = details::ScaledPair<2, 1, 1>;
    const auto swept_gap = [](const Eigen::Vector2d& a_t0, const Eigen::Vector2d& a_t1, double min_distance) {
        const Pair pair({ a_t0, Eigen::Vector2d::Zero() }, { a_t1, Eigen::Vector2d::Zero() }, false, min_distance);
        const details::StepMotion<2, 1, 1> motion(pair);
        const auto x = motion.at(0.5);
        return details::gaps_at<true>(pair, motion.position_error, x, details::PointPointDirections {}(x)).swept;
    };
    // Sliding sideways at height 0.5 from t = 0.5 on: closest at t = 0.5 itself.
    EXPECT_LE(swept_gap({ -1, 0.5 }, { 1, 0.5 }, 0.5), 0.0);
    EXPECT_GT(swept_gap({ -1, 0.5 }, { 1, 0.5 }, 0.5 * (1 - 1e-12)), 0.0);
    // Falling straight towards the other point: at t = 0.5 it is 0.75 away, at t = 1 exactly 0.5 (only the end
    // positions show it).
    EXPECT_LE(swept_gap({ 0, 1 }, { 0, 0.5 }, 0.5), 0.0);
    EXPECT_GT(swept_gap({ 0, 1 }, { 0, 0.5 }, 0.5 * (1 - 1e-12)), 0.0);
}

TEST(AdditiveCcd, SeparationAtBothEndsOfTheStepIsCertifiedAtTheBound)
{
    // Two points moving together, always exactly 1 apart along y. The hulls of their start and end positions
    // overlap along every direction, but the separation along y is 1 at both ends, hence all along (concavity):
    // certified for any min_distance below 1, never for 1 itself.
    using Pair = details::ScaledPair<2, 1, 1>;
    const auto swept_gap = [](const Eigen::Vector2d& a_t1, const Eigen::Vector2d& b_t1, double min_distance) {
        const Pair pair({ Eigen::Vector2d(0, 1), Eigen::Vector2d::Zero() }, { a_t1, b_t1 }, false, min_distance);
        return details::gaps_at<true>(pair, pair.end_error, pair.x0, details::PointPointDirections {}(pair.x0)).swept;
    };
    EXPECT_LE(swept_gap({ 0, 3 }, { 0, 2 }, 1.0), 0.0);
    EXPECT_GT(swept_gap({ 0, 3 }, { 0, 2 }, 1 - 1e-12), 0.0);
    // Apart by 1 at both ends but on opposite sides: the first point goes through the second.
    EXPECT_LE(swept_gap({ 0, -1 }, { 0, 0 }, 0.0), 0.0);
    const AdditiveCcdResult crossing
        = additive_point_point_ccd(PointPointMotion<2> { { 0, 1 }, { 0, 0 }, { 0, -1 }, { 0, 0 } });
    EXPECT_EQ(crossing.status, AdditiveCcdStatus::HIT);
    EXPECT_LT(crossing.toi, 0.5);
}

/// A vertex 1 in front of a triangle in the plane x = 3 (at x = 2), with the triangle's displacement (-2^-52, 0, 0):
/// at t = 1 the distance is exactly 1 - 2^-52 while the rounded end position, 3 - 2^-52 rounded to even, is 3.
Points rounded_end_pair()
{
    Points x {};
    x[0] = { 2, 0.25, 0.25 };
    x[1] = { 3, 0, 0 };
    x[2] = { 3, 1, 0 };
    x[3] = { 3, 0, 1 };
    x[4] = Eigen::Vector3d::Zero(); // displacements from here on
    for (int i = 1; i < 4; ++i) {
        x[i + 4] = { -0x1p-52, 0, 0 };
    }
    return x;
}

TEST(AdditiveCcd, AxisSeparationIsCertifiedAtTheBound)
{
    using Positions = std::array<Eigen::Vector3d, 4>;
    const Points x = rounded_end_pair();
    const Positions at_t0 { x[0], x[1], x[2], x[3] }, moves { x[4], x[5], x[6], x[7] };
    const double touching = 1 - 0x1p-52; // the distance at t = 1
    ASSERT_EQ(x[1].x() + moves[1].x(), 3.0); // the end position rounds up onto the separation
    // Displacements: the rounded end is 1 in front, but the true one only 1 - 2^-52: the margin must refuse.
    EXPECT_FALSE((details::separated_along_an_axis<3, 1, 3>(at_t0, moves, true, touching)));
    EXPECT_TRUE((details::separated_along_an_axis<3, 1, 3>(at_t0, moves, true, 0.99)));
    AdditiveCcdOptions options;
    options.min_distance = touching;
    EXPECT_NE(
        (details::additive_ccd<3, 1, 3>(at_t0, moves, true, options, details::VertexFaceDirections {}).status),
        AdditiveCcdStatus::SEPARATED);
    // End positions given exactly: separated by exactly the bound at t = 1 is not more than it; one ulp less is.
    const Positions at_t1 { x[0], x[1] + moves[1], x[2] + moves[2], x[3] + moves[3] };
    const double exact_gap = 1.0;
    EXPECT_FALSE((details::separated_along_an_axis<3, 1, 3>(at_t0, at_t1, false, exact_gap)));
    EXPECT_TRUE((details::separated_along_an_axis<3, 1, 3>(at_t0, at_t1, false, touching)));
    EXPECT_EQ(
        run_additive(true, { x[0], x[1], x[2], x[3], at_t1[0], at_t1[1], at_t1[2], at_t1[3] }, options).status,
        AdditiveCcdStatus::SEPARATED);
    // A crossing along the axis (in front at t = 0, behind at t = 1) is not a separation.
    const Positions behind { Eigen::Vector3d(4, 0.25, 0.25), x[1], x[2], x[3] };
    EXPECT_FALSE((details::separated_along_an_axis<3, 1, 3>(at_t0, behind, false, 0.0)));
    // Huge and tiny coordinates: the test is exact for end positions whatever their scale.
    for (const int e : { -1000, 1000 }) {
        const auto scaled = [e](Positions p) {
            for (auto& v : p) {
                v = v.unaryExpr([e](double c) { return std::ldexp(c, e); });
            }
            return p;
        };
        EXPECT_FALSE(
            (details::separated_along_an_axis<3, 1, 3>(scaled(at_t0), scaled(at_t1), false, std::ldexp(exact_gap, e))));
        EXPECT_TRUE(
            (details::separated_along_an_axis<3, 1, 3>(scaled(at_t0), scaled(at_t1), false, std::ldexp(touching, e))));
    }
}

TEST(AdditiveCcd, TinyFaceNormalDoesNotOverstateTheGap)
{
    // A vertex 0.9 above the corner of a static triangle with sides of about 2^-265: the face normal has length
    // about 2^-530 and its squared length is subnormal, rounded by up to 2^-15 of itself. Normalizing by it
    // would overstate the distance by up to 1.5e-5 of it; here it rounds down by 2.9e-5, so such a bound would
    // certify a separation of 0.9 (1 + 1e-5) that the pair never has.
    const double a = 0x1.00614163779eap-265;
    Points x {};
    x[0] = { 0, 0, 0.9 };
    x[1] = { 0, 0, 0 };
    x[2] = { a, 0, 0 };
    x[3] = { 0, a, 0 };
    for (int i = 0; i < 4; ++i) {
        x[i + 4] = x[i];
    }
    AdditiveCcdOptions options;
    options.min_distance = 0.9 * (1 + 1e-5);
    EXPECT_EQ(run_additive(true, x, options).status, AdditiveCcdStatus::INITIALLY_TOUCHING);
    options.min_distance = 0.9 * (1 - 1e-5);
    EXPECT_EQ(run_additive(true, x, options).status, AdditiveCcdStatus::SEPARATED);
}

TEST(AdditiveCcd, TranslationNeverCollides)
{
    Points x {};
    x[0] = { 0, 0, 1e-9 };
    x[1] = { 0, 0, 0 };
    x[2] = { 1, 0, 0 };
    x[3] = { 0, 1, 0 };
    for (int i = 0; i < 4; ++i) {
        x[i + 4] = x[i] + Eigen::Vector3d(3, -2, 5);
    }
    const AdditiveCcdResult r = run_additive(true, x, {});
    EXPECT_EQ(r.status, AdditiveCcdStatus::SEPARATED);
    EXPECT_LE(r.iterations, 1);
}

TEST(AdditiveCcd, PointPrimitivesIn2dAnd3d)
{
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-1, 1);
    std::size_t checked = 0;
    for (int i = 0; i < 20000; ++i) {
        Points x {};
        for (int k = 0; k < 6; ++k) {
            x[k] = { u(rng), u(rng), i % 4 < 2 ? 0.0 : u(rng) };
        }
        const bool planar = i % 4 < 2;
        const bool point_point = i % 2 == 0;
        AdditiveCcdOptions options;
        options.min_distance = (i % 3) * 0.05;
        AdditiveCcdResult r;
        Real d0 = 0;
        Reference::Verdict verdict {};
        if (point_point) {
            const Points pp { x[0], x[1], x[2], x[3] };
            r = planar ? additive_point_point_ccd(
                    PointPointMotion<2> { x[0].head<2>(), x[1].head<2>(), x[2].head<2>(), x[3].head<2>() }, options)
                       : additive_point_point_ccd(PointPointMotion<3> { x[0], x[1], x[2], x[3] }, options);
            const Reference ref(Reference::Kind::POINT_POINT, pp);
            d0 = ref.distance(0);
            verdict = ref.above(options.min_distance, 0, r.toi);
        } else {
            r = planar ? additive_point_edge_ccd(
                    PointEdgeMotion2d { x[0].head<2>(), x[1].head<2>(), x[2].head<2>(), x[3].head<2>(), x[4].head<2>(),
                                        x[5].head<2>() },
                    options)
                       : additive_point_edge_ccd(PointEdgeMotion { x[0], x[1], x[2], x[3], x[4], x[5] }, options);
            const Reference ref(Reference::Kind::POINT_EDGE, x);
            d0 = ref.distance(0);
            verdict = ref.above(options.min_distance, 0, r.toi);
        }
        ASSERT_NE(r.status, AdditiveCcdStatus::INVALID_INPUT);
        if (r.status == AdditiveCcdStatus::INITIALLY_TOUCHING) {
            EXPECT_LE(d0, options.min_distance + 1e-12);
            continue;
        }
        EXPECT_NE(verdict, Reference::Verdict::BELOW) << "case " << i << ": " << test::describe(x);
        checked += verdict == Reference::Verdict::ABOVE;
    }
    EXPECT_GT(checked, 10000U);
}

TEST(AdditiveCcd, InvalidInput)
{
    Points x {};
    for (int i = 0; i < 8; ++i) {
        x[i] = { double(i), 0.5 * i, 1.0 };
    }
    AdditiveCcdOptions bad;
    for (const double eta : { 0.0, 1.0, -0.5, std::nan("") }) {
        bad = {};
        bad.eta = eta;
        EXPECT_EQ(run_additive(true, x, bad).status, AdditiveCcdStatus::INVALID_INPUT);
    }
    bad = {};
    bad.min_distance = -1;
    EXPECT_EQ(run_additive(false, x, bad).status, AdditiveCcdStatus::INVALID_INPUT);
    bad = {};
    bad.t_max = 0;
    EXPECT_EQ(run_additive(false, x, bad).status, AdditiveCcdStatus::INVALID_INPUT);
    x[5][1] = std::numeric_limits<double>::infinity();
    const AdditiveCcdResult r = run_additive(true, x, {});
    EXPECT_EQ(r.status, AdditiveCcdStatus::INVALID_INPUT);
    EXPECT_FALSE(r.hit);
    // Any non-finite coordinate, at either time, in either primitive.
    for (int i = 0; i < 8; ++i) {
        for (const double bad_coordinate : { std::nan(""), -std::numeric_limits<double>::infinity() }) {
            Points y {};
            for (int k = 0; k < 8; ++k) {
                y[k] = { double(k), 0.5 * k, 1.0 };
            }
            y[i][i % 3] = bad_coordinate;
            EXPECT_EQ(run_additive(i % 2 == 0, y, {}).status, AdditiveCcdStatus::INVALID_INPUT) << i;
        }
    }
}
