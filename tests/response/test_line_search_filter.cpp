// SPDX-License-Identifier: MIT
// The line-search filter: the step it returns keeps every pair apart (checked pair by pair with a long-double
// reference, no broad phase), it does not depend on the broad phase or the thread count, and the exact mode
// agrees with whole-mesh CCD.
#include "support/distance_reference.hpp"

#include <ccdkit/broad/mesh_ccd.hpp>
#include <ccdkit/mesh/cloth_scene.hpp>
#include <ccdkit/mesh/triangle_mesh.hpp>
#include <ccdkit/narrow/additive_ccd.hpp>
#include <ccdkit/response/line_search_filter.hpp>

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

using namespace ccdkit;
using Reference = test::DistanceReference;

namespace {

/// A soup of small segments (2D) or triangles (3D), one per cell of a jittered grid so that none touch at
/// the start, and a random search direction of about `reach` cells.
struct Soup {
    Eigen::MatrixXd x, p;
    Eigen::MatrixX2i edges;
    Eigen::MatrixX3i faces = Eigen::MatrixX3i(0, 3);
};

Soup make_soup(int dim, int cells_per_side, double reach, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const int cells = dim == 2 ? cells_per_side * cells_per_side : cells_per_side * cells_per_side * cells_per_side;
    const int corners = dim == 2 ? 2 : 3;
    Soup s;
    s.x.resize(cells * corners, dim);
    s.p.resize(cells * corners, dim);
    s.edges.resize(dim == 2 ? cells : 3 * cells, 2);
    if (dim == 3) {
        s.faces.resize(cells, 3);
    }
    for (int c = 0; c < cells; ++c) {
        Eigen::VectorXd center(dim);
        for (int k = 0, rest = c; k < dim; ++k, rest /= cells_per_side) {
            center[k] = rest % cells_per_side;
        }
        Eigen::VectorXd drift(dim);
        for (int k = 0; k < dim; ++k) {
            drift[k] = reach * u(rng);
        }
        for (int j = 0; j < corners; ++j) {
            const int v = c * corners + j;
            for (int k = 0; k < dim; ++k) {
                s.x(v, k) = center[k] + 0.3 * u(rng);
                s.p(v, k) = drift[k] + 0.2 * reach * u(rng);
            }
        }
        if (dim == 2) {
            s.edges.row(c) << 2 * c, 2 * c + 1;
        } else {
            s.faces.row(c) << 3 * c, 3 * c + 1, 3 * c + 2;
            for (int j = 0; j < 3; ++j) {
                s.edges.row(3 * c + j) << 3 * c + j, 3 * c + (j + 1) % 3;
            }
        }
    }
    return s;
}

Eigen::Vector3d point(const Eigen::MatrixXd& m, int row)
{
    Eigen::Vector3d v = Eigen::Vector3d::Zero();
    v.head(m.cols()) = m.row(row).transpose();
    return v;
}

/// Additive CCD of one pair through the public pair functions (end positions, not displacements).
double pair_toi(Reference::Kind kind, const std::array<Eigen::Vector3d, 8>& x, bool planar, double min_distance)
{
    AdditiveCcdOptions options;
    options.min_distance = min_distance;
    if (kind == Reference::Kind::POINT_EDGE) {
        if (planar) {
            return additive_point_edge_ccd(
                       PointEdgeMotion2d { x[0].head<2>(), x[1].head<2>(), x[2].head<2>(), x[3].head<2>(),
                                           x[4].head<2>(), x[5].head<2>() },
                       options)
                .toi;
        }
        return additive_point_edge_ccd(PointEdgeMotion { x[0], x[1], x[2], x[3], x[4], x[5] }, options).toi;
    }
    if (kind == Reference::Kind::VERTEX_FACE) {
        return additive_vertex_face_ccd({ x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] }, options).toi;
    }
    return additive_edge_edge_ccd({ x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] }, options).toi;
}

struct PairCheck {
    std::size_t undecided = 0; ///< pairs the reference could not decide
    double smallest_toi = 1.0; ///< over every pair, without a broad phase
};

/// Every pair the filter must respect, checked directly: distance > min_distance for s in [0, alpha]
/// (fails the test on a violation); and the smallest pair time of impact, with no broad phase.
PairCheck check_every_pair(const Soup& s, double alpha, double min_distance)
{
    const Eigen::MatrixXd end = s.x + s.p;
    PairCheck result;
    const auto check = [&](Reference::Kind kind, std::initializer_list<int> rows, const std::string& what) {
        std::array<Eigen::Vector3d, 8> points {};
        const int n = static_cast<int>(rows.size());
        int i = 0;
        for (const int r : rows) {
            points[i] = point(s.x, r);
            points[i + n] = point(end, r);
            ++i;
        }
        const auto verdict = Reference(kind, points).above(min_distance, 0, alpha);
        EXPECT_NE(verdict, Reference::Verdict::BELOW) << what << " closer than " << min_distance << " before " << alpha;
        result.undecided += verdict == Reference::Verdict::UNKNOWN;
        result.smallest_toi = std::min(result.smallest_toi, pair_toi(kind, points, s.x.cols() == 2, min_distance));
    };
    const auto shares
        = [](const auto& a, const auto& b) { return (a.array() == b[0]).any() || (a.array() == b[1]).any(); };
    if (s.x.cols() == 2) {
        for (int v = 0; v < s.x.rows(); ++v) {
            for (int e = 0; e < s.edges.rows(); ++e) {
                if ((s.edges.row(e).array() != v).all()) {
                    check(
                        Reference::Kind::POINT_EDGE, { v, s.edges(e, 0), s.edges(e, 1) },
                        "vertex " + std::to_string(v) + " edge " + std::to_string(e));
                }
            }
        }
        return result;
    }
    for (int v = 0; v < s.x.rows(); ++v) {
        for (int f = 0; f < s.faces.rows(); ++f) {
            if ((s.faces.row(f).array() != v).all()) {
                check(
                    Reference::Kind::VERTEX_FACE, { v, s.faces(f, 0), s.faces(f, 1), s.faces(f, 2) },
                    "vertex " + std::to_string(v) + " face " + std::to_string(f));
            }
        }
    }
    for (int a = 0; a < s.edges.rows(); ++a) {
        for (int b = a + 1; b < s.edges.rows(); ++b) {
            if (!shares(s.edges.row(a), s.edges.row(b))) {
                check(
                    Reference::Kind::EDGE_EDGE, { s.edges(a, 0), s.edges(a, 1), s.edges(b, 0), s.edges(b, 1) },
                    "edges " + std::to_string(a) + ", " + std::to_string(b));
            }
        }
    }
    return result;
}

struct Case {
    int dim;
    double min_distance;
};

class FilterProperty : public ::testing::TestWithParam<Case> { };

} // namespace

TEST_P(FilterProperty, StepKeepsEveryPairApart)
{
    const auto [dim, min_distance] = GetParam();
    std::size_t limited = 0, undecided = 0;
    for (std::uint64_t seed = 0; seed < (dim == 2 ? 12U : 4U); ++seed) {
        const Soup s = make_soup(dim, dim == 2 ? 7 : 3, 2.0, seed);
        LineSearchFilterOptions options;
        options.min_distance = min_distance;
        const LineSearchFilterResult r = largest_safe_step(s.x, s.p, s.edges, s.faces, options);
        ASSERT_GE(r.alpha, 0.0);
        ASSERT_LE(r.alpha, 1.0);
        EXPECT_EQ(r.limiting_pair.has_value(), r.alpha < 1.0);
        limited += r.alpha < 1.0;
        const PairCheck pairs = check_every_pair(s, r.alpha, min_distance);
        undecided += pairs.undecided;
        // The broad phase loses no pair: the step is the smallest pair step (up to the rounding of x + p).
        EXPECT_NEAR(r.alpha, pairs.smallest_toi, 1e-9);
        // Any broad phase, any thread count: the same step.
        for (const BroadPhaseMethod method : { BroadPhaseMethod::SWEEP_AND_PRUNE, BroadPhaseMethod::BRUTE_FORCE }) {
            LineSearchFilterOptions other = options;
            other.broad_phase = method;
            other.block_size = 7; // many blocks
            EXPECT_EQ(largest_safe_step(s.x, s.p, s.edges, s.faces, other).alpha, r.alpha);
        }
        const tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
        EXPECT_EQ(largest_safe_step(s.x, s.p, s.edges, s.faces, options).alpha, r.alpha);
    }
    EXPECT_GT(limited, 0U) << "no scene limited the step: the test checks nothing";
    EXPECT_EQ(undecided, 0U);
}

INSTANTIATE_TEST_SUITE_P(
    Scenes,
    FilterProperty,
    ::testing::Values(Case { 2, 0.0 }, Case { 2, 0.05 }, Case { 3, 0.0 }, Case { 3, 0.05 }),
    [](const auto& scene) {
        return std::string(scene.param.dim == 2 ? "Planar" : "Spatial")
            + (scene.param.min_distance > 0 ? "Separated" : "Touching");
    });

TEST(LineSearchFilter, ConnectedClothKeepsEveryPairApart)
{
    // A connected mesh (shared vertices and edges, so adjacency matters): a generated crumpling-cloth step.
    for (const int resolution : { 6, 9 }) {
        const ClothScene scene = crumpling_cloth(resolution);
        Soup s;
        s.x = scene.start.vertices;
        s.p = scene.end - scene.start.vertices;
        s.faces = scene.start.faces;
        s.edges = edges_from_faces(s.faces);
        for (const double min_distance : { 0.0, 0.01 }) {
            LineSearchFilterOptions options;
            options.min_distance = min_distance;
            const LineSearchFilterResult r = largest_safe_step(s.x, s.p, s.edges, s.faces, options);
            EXPECT_LT(r.alpha, 1.0) << "the step should be limited: the test would check nothing";
            const PairCheck pairs = check_every_pair(s, r.alpha, min_distance);
            EXPECT_EQ(pairs.undecided, 0U);
            EXPECT_NEAR(r.alpha, pairs.smallest_toi, 1e-9);
        }
    }
}

TEST(LineSearchFilter, ExactModeIsTheEarliestContact)
{
    for (std::uint64_t seed = 0; seed < 4; ++seed) {
        const Soup s = make_soup(3, 3, 2.0, 100 + seed);
        LineSearchFilterOptions options;
        options.narrow_phase = LineSearchNarrowPhase::EXACT;
        const LineSearchFilterResult r = largest_safe_step(s.x, s.p, s.edges, s.faces, options);
        const Eigen::MatrixX3d v0 = s.x, v1 = s.x + s.p;
        const MeshCcdResult whole = mesh_ccd(v0, v1, s.edges, s.faces);
        EXPECT_EQ(r.alpha, whole.earliest_toi_lower.value_or(1.0));
        // Additive CCD is conservative: never later than the exact step.
        const LineSearchFilterResult additive = largest_safe_step(s.x, s.p, s.edges, s.faces, {});
        EXPECT_LE(additive.alpha, r.alpha);
    }
    const Soup planar = make_soup(2, 6, 2.0, 5);
    LineSearchFilterOptions exact;
    exact.narrow_phase = LineSearchNarrowPhase::EXACT;
    const double a = largest_safe_step(planar.x, planar.p, planar.edges, planar.faces, exact).alpha;
    EXPECT_LT(a, 1.0);
    EXPECT_LE(largest_safe_step(planar.x, planar.p, planar.edges, planar.faces, {}).alpha, a);
}

TEST(LineSearchFilter, NothingMovingOrAlreadyTooClose)
{
    Soup s = make_soup(2, 4, 0.0, 3);
    s.p.setZero();
    LineSearchFilterResult r = largest_safe_step(s.x, s.p, s.edges, s.faces, {});
    EXPECT_EQ(r.alpha, 1.0);
    EXPECT_FALSE(r.limiting_pair.has_value());
    // Cells are one unit apart, segments at most ~0.85 long: a separation of 2 is violated at the start.
    LineSearchFilterOptions wide;
    wide.min_distance = 2.0;
    s.p.setConstant(0.1);
    r = largest_safe_step(s.x, s.p, s.edges, s.faces, wide);
    EXPECT_EQ(r.alpha, 0.0);
    ASSERT_TRUE(r.limiting_pair.has_value());
    EXPECT_EQ(r.limiting_pair->kind, LimitingPairKind::VERTEX_EDGE);
}

TEST(LineSearchFilter, BadInputNamesTheProblem)
{
    const Soup s = make_soup(3, 2, 1.0, 9);
    const auto message = [&](const Eigen::MatrixXd& x, const Eigen::MatrixXd& p, const Eigen::MatrixX2i& e,
                             const Eigen::MatrixX3i& f, const LineSearchFilterOptions& o) -> std::string {
        try {
            (void)largest_safe_step(x, p, e, f, o);
        } catch (const std::invalid_argument& error) {
            return error.what();
        }
        return "no error";
    };
    EXPECT_NE(message(s.x, s.p.topRows(3), s.edges, s.faces, {}).find("direction is 3 x 3"), std::string::npos);
    Eigen::MatrixXd nan = s.x;
    nan(4, 1) = std::nan("");
    EXPECT_NE(message(nan, s.p, s.edges, s.faces, {}).find("vertex 4"), std::string::npos);
    Eigen::MatrixX3i bad_faces = s.faces;
    bad_faces(1, 2) = 999;
    EXPECT_NE(message(s.x, s.p, s.edges, bad_faces, {}).find("face 1 has vertex index 999"), std::string::npos);
    EXPECT_NE(
        message(s.x.leftCols(2), s.p.leftCols(2), s.edges, s.faces, {}).find("faces given for 2D"), std::string::npos);
    LineSearchFilterOptions exact_with_gap;
    exact_with_gap.narrow_phase = LineSearchNarrowPhase::EXACT;
    exact_with_gap.min_distance = 0.1;
    EXPECT_NE(message(s.x, s.p, s.edges, s.faces, exact_with_gap).find("min_distance = 0"), std::string::npos);
    LineSearchFilterOptions bad_eta;
    bad_eta.eta = 1.5;
    EXPECT_NE(message(s.x, s.p, s.edges, s.faces, bad_eta).find("eta"), std::string::npos);
    EXPECT_NE(
        message(Eigen::MatrixXd(2, 4), Eigen::MatrixXd(2, 4), s.edges, s.faces, {}).find("2 or 3 columns"),
        std::string::npos);
}
