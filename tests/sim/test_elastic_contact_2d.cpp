// SPDX-License-Identifier: MIT
#include "sim/details/barrier.hpp"
#include "sim/details/mass_spring.hpp"
#include "sim/details/point_edge_barrier.hpp"
#include "sim/details/point_edge_distance_2d.hpp"
#include "sim/details/project_psd.hpp"

#include <ccdkit/sim/elastic_contact_2d.hpp>

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

using namespace ccdkit;
using details::Matrix6d;
using details::Vector6d;

namespace {
constexpr double FD_STEP = 1e-6;

/// Central-difference gradient of f at x.
template <int N>
Eigen::Matrix<double, N, 1>
fd_gradient(const std::function<double(const Eigen::Matrix<double, N, 1>&)>& f, const Eigen::Matrix<double, N, 1>& x)
{
    Eigen::Matrix<double, N, 1> g;
    for (int i = 0; i < N; ++i) {
        Eigen::Matrix<double, N, 1> a = x, b = x;
        a[i] += FD_STEP;
        b[i] -= FD_STEP;
        g[i] = (f(a) - f(b)) / (2.0 * FD_STEP);
    }
    return g;
}

/// Central-difference Jacobian of a gradient function at x.
template <int N>
Eigen::Matrix<double, N, N> fd_hessian(
    const std::function<Eigen::Matrix<double, N, 1>(const Eigen::Matrix<double, N, 1>&)>& grad,
    const Eigen::Matrix<double, N, 1>& x)
{
    Eigen::Matrix<double, N, N> h;
    for (int i = 0; i < N; ++i) {
        Eigen::Matrix<double, N, 1> a = x, b = x;
        a[i] += FD_STEP;
        b[i] -= FD_STEP;
        h.col(i) = (grad(a) - grad(b)) / (2.0 * FD_STEP);
    }
    return h;
}

details::PointEdgeDistance2d distance_of(const Vector6d& x)
{
    return details::point_edge_distance_2d(x.segment<2>(0), x.segment<2>(2), x.segment<2>(4));
}

/// Distance from p to the segment through the clamped projection, written apart from the library's.
double reference_distance(const Eigen::Vector2d& p, const Eigen::Vector2d& a, const Eigen::Vector2d& b)
{
    const Eigen::Vector2d e = b - a;
    const double t = std::clamp((p - a).dot(e) / e.squaredNorm(), 0.0, 1.0);
    return (p - (a + t * e)).norm();
}

Vector6d coordinates(const Eigen::Vector2d& p, const Eigen::Vector2d& e0, const Eigen::Vector2d& e1)
{
    Vector6d x;
    x << p, e0, e1;
    return x;
}
} // namespace

struct RegionCase {
    const char* name;
    Eigen::Vector2d p;
    details::PointEdgeRegion region;
};

TEST(SimPointEdgeDistance2d, DerivativesMatchFiniteDifferencesInEveryRegion)
{
    const Eigen::Vector2d e0(0.1, -0.2), e1(1.3, 0.4);
    const RegionCase cases[] = {
        { "interior above", Eigen::Vector2d(0.6, 0.7), details::PointEdgeRegion::INTERIOR },
        { "interior below", Eigen::Vector2d(0.9, -0.3), details::PointEdgeRegion::INTERIOR },
        { "beyond e0", Eigen::Vector2d(-0.5, 0.1), details::PointEdgeRegion::E0 },
        { "beyond e1", Eigen::Vector2d(1.9, 0.2), details::PointEdgeRegion::E1 },
    };
    for (const RegionCase& c : cases) {
        SCOPED_TRACE(c.name);
        ASSERT_EQ(details::point_edge_region(c.p, e0, e1), c.region);
        const Vector6d x = coordinates(c.p, e0, e1);
        const auto d = distance_of(x);
        EXPECT_NEAR(d.value, std::pow(reference_distance(c.p, e0, e1), 2), 1e-14);
        const Vector6d g = fd_gradient<6>([](const Vector6d& y) { return distance_of(y).value; }, x);
        EXPECT_LT((d.gradient - g).norm(), 1e-7 * (1.0 + g.norm()));
        const Matrix6d h = fd_hessian<6>([](const Vector6d& y) { return distance_of(y).gradient; }, x);
        EXPECT_LT((d.hessian - h).norm(), 1e-6 * (1.0 + h.norm()));
        EXPECT_LT((d.hessian - d.hessian.transpose()).norm(), 1e-12);
    }
}

TEST(SimPointEdgeDistance2d, IsTranslationInvariant)
{
    // The gradient of a distance sums to zero over the three points, coordinate by coordinate.
    const auto d = distance_of(coordinates({ 0.4, 0.9 }, { 0.0, 0.0 }, { 1.0, 0.3 }));
    EXPECT_NEAR(d.gradient[0] + d.gradient[2] + d.gradient[4], 0.0, 1e-14);
    EXPECT_NEAR(d.gradient[1] + d.gradient[3] + d.gradient[5], 0.0, 1e-14);
}

TEST(SimBarrier, DerivativesMatchFiniteDifferences)
{
    const double dhat = 0.01;
    for (const double g : { 1e-4, 1e-3, 5e-3, 9e-3, 0.0099 }) {
        SCOPED_TRACE(g);
        const auto b = details::barrier(g, dhat);
        const auto plus = details::barrier(g + 1e-9, dhat), minus = details::barrier(g - 1e-9, dhat);
        EXPECT_GT(b.value, 0.0);
        EXPECT_LT(b.first, 0.0); // repulsive: the energy falls as the gap opens
        EXPECT_NEAR(b.first, (plus.value - minus.value) / 2e-9, 1e-5 * (1.0 + std::abs(b.first)));
        EXPECT_NEAR(b.second, (plus.first - minus.first) / 2e-9, 1e-5 * (1.0 + std::abs(b.second)));
    }
}

TEST(SimBarrier, VanishesBeyondDhatAndDivergesAtZero)
{
    const double dhat = 0.01;
    const auto outside = details::barrier(dhat, dhat);
    EXPECT_EQ(outside.value, 0.0);
    EXPECT_EQ(outside.first, 0.0);
    EXPECT_EQ(outside.second, 0.0);
    // C2 at dhat: just inside, everything is small.
    const auto inside = details::barrier(dhat * (1.0 - 1e-6), dhat);
    EXPECT_LT(inside.value, 1e-15);
    EXPECT_LT(std::abs(inside.first), 1e-12);
    EXPECT_LT(std::abs(inside.second), 1e-4);
    EXPECT_GT(details::barrier(1e-12, dhat).value, details::barrier(1e-6, dhat).value);
    EXPECT_TRUE(std::isinf(details::barrier(0.0, dhat).value));
}

TEST(SimPointEdgeBarrier, DerivativesMatchFiniteDifferences)
{
    const double xi = 1e-3, dhat = 1e-2, kappa = 10.0;
    const auto barrier_of = [&](const Vector6d& y) {
        return details::point_edge_barrier(y.segment<2>(0), y.segment<2>(2), y.segment<2>(4), xi, dhat, kappa, false);
    };
    // Interior (the point over the segment) and an endpoint region, both inside the barrier's reach.
    for (const Eigen::Vector2d& p : { Eigen::Vector2d(0.5, 0.006), Eigen::Vector2d(1.004, 0.003) }) {
        SCOPED_TRACE(p.transpose());
        const Vector6d x = coordinates(p, { 0.0, 0.0 }, { 1.0, 0.0 });
        const auto b = barrier_of(x);
        ASSERT_GT(b.value, 0.0);
        const Vector6d g = fd_gradient<6>([&](const Vector6d& y) { return barrier_of(y).value; }, x);
        EXPECT_LT((b.gradient - g).norm(), 1e-6 * (1.0 + g.norm()));
        const Matrix6d h = fd_hessian<6>([&](const Vector6d& y) { return barrier_of(y).gradient; }, x);
        EXPECT_LT((b.hessian - h).norm(), 1e-5 * (1.0 + h.norm()));
        // The projected Hessian is positive semi-definite.
        const auto projected
            = details::point_edge_barrier(p, { 0.0, 0.0 }, { 1.0, 0.0 }, xi, dhat, kappa, true).hessian;
        EXPECT_GE(Eigen::SelfAdjointEigenSolver<Matrix6d>(projected).eigenvalues().minCoeff(), -1e-9 * h.norm());
    }
    // Beyond xi + dhat the pair exerts nothing.
    const auto far = details::point_edge_barrier({ 0.5, 0.0111 }, { 0.0, 0.0 }, { 1.0, 0.0 }, xi, dhat, kappa, true);
    EXPECT_EQ(far.value, 0.0);
    EXPECT_EQ(far.gradient.norm(), 0.0);
}

TEST(SimMassSpring, DerivativesMatchFiniteDifferences)
{
    using details::Vector4d;
    const double rest = 0.3, k = 50.0;
    const auto spring_of = [&](const Vector4d& y, bool project) {
        return details::spring_energy(y.segment<2>(0), y.segment<2>(2), rest, k, project);
    };
    // Stretched and compressed.
    for (const double length : { 0.45, 0.2 }) {
        SCOPED_TRACE(length);
        Vector4d x;
        x << 0.1, 0.2, 0.1 + length * 0.6, 0.2 + length * 0.8;
        const auto s = spring_of(x, false);
        EXPECT_NEAR(s.value, 0.5 * k * rest * std::pow(length / rest - 1.0, 2), 1e-12);
        const Vector4d g = fd_gradient<4>([&](const Vector4d& y) { return spring_of(y, false).value; }, x);
        EXPECT_LT((s.gradient - g).norm(), 1e-7 * (1.0 + g.norm()));
        const details::Matrix4d h = fd_hessian<4>([&](const Vector4d& y) { return spring_of(y, false).gradient; }, x);
        EXPECT_LT((s.hessian - h).norm(), 1e-6 * (1.0 + h.norm()));
        const details::Matrix4d projected = spring_of(x, true).hessian;
        const double smallest = Eigen::SelfAdjointEigenSolver<details::Matrix4d>(projected).eigenvalues().minCoeff();
        EXPECT_GE(smallest, -1e-9);
        // Stretched springs are already convex: projection changes nothing. Compressed ones lose a direction.
        if (length > rest) {
            EXPECT_LT((projected - s.hessian).norm(), 1e-12);
        } else {
            EXPECT_LT(Eigen::SelfAdjointEigenSolver<details::Matrix4d>(s.hessian).eigenvalues().minCoeff(), -1.0);
        }
    }
}

TEST(SimProjectPsd, ClampsNegativeEigenvaluesAndKeepsTheRest)
{
    Eigen::Matrix3d m;
    m << 2, 1, 0, 1, -3, 0.5, 0, 0.5, 1;
    const Eigen::Matrix3d p = details::project_psd<3>(m);
    const Eigen::Vector3d before = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(m).eigenvalues();
    const Eigen::Vector3d after = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(p).eigenvalues();
    ASSERT_LT(before[0], 0.0);
    EXPECT_NEAR(after[0], 0.0, 1e-12);
    EXPECT_NEAR(after[1], before[1], 1e-12);
    EXPECT_NEAR(after[2], before[2], 1e-12);
    const Eigen::Matrix3d spd = m + 5.0 * Eigen::Matrix3d::Identity();
    EXPECT_LT((details::project_psd<3>(spd) - spd).norm(), 1e-12);
}

namespace {
/// Brute-force minimum over non-incident (vertex on an edge, edge) pairs, written apart from the library's.
double min_pair_distance(const Eigen::MatrixXd& x, const Eigen::MatrixX2i& edges)
{
    double best = std::numeric_limits<double>::infinity();
    for (Eigen::Index a = 0; a < edges.rows(); ++a) {
        for (int side = 0; side < 2; ++side) {
            const int v = edges(a, side);
            for (Eigen::Index e = 0; e < edges.rows(); ++e) {
                if (edges(e, 0) != v && edges(e, 1) != v) {
                    best = std::min(
                        best,
                        reference_distance(
                            x.row(v).transpose(), x.row(edges(e, 0)).transpose(), x.row(edges(e, 1)).transpose()));
                }
            }
        }
    }
    return best;
}

double square_height(const ElasticContact2d& sim, int square)
{
    const auto ys = sim.positions().col(1).segment(sim.square_first_vertex(square), sim.square_vertex_count());
    return ys.maxCoeff() - ys.minCoeff();
}
} // namespace

TEST(SimElasticContact2d, ShortRunKeepsSeparationAndCompressesTheStack)
{
    ElasticContact2dSettings settings;
    settings.grid_resolution = 4;
    ElasticContact2d sim(settings);
    const int free_vertices = 2 * sim.square_vertex_count();
    const Eigen::VectorXd start_y = sim.positions().col(1).head(free_vertices);
    const double xi = settings.separation;
    constexpr int STEPS = 60;
    double smallest_filter_step = 1.0;
    for (int s = 0; s < STEPS; ++s) {
        SCOPED_TRACE(s);
        const ElasticContact2dStepStats stats = sim.step();
        const Eigen::MatrixXd& x = sim.positions();
        EXPECT_GT(stats.min_distance, xi);
        EXPECT_GT(min_pair_distance(x, sim.boundary_edges()), xi);
        EXPECT_NEAR(stats.min_distance, min_pair_distance(x, sim.boundary_edges()), 1e-12);
        // The ceiling follows its prescribed motion exactly.
        const double expected_ceiling = std::max(
            settings.ceiling_stop_height,
            settings.ceiling_start_height - (s + 1) * settings.time_step * settings.ceiling_speed);
        EXPECT_NEAR(stats.ceiling_height, expected_ceiling, 1e-12);
        // No free vertex ever crosses the ground, the walls or the ceiling.
        const auto corners = sim.container_vertices();
        const double left = x(corners[1], 0), right = x(corners[2], 0);
        EXPECT_GT(x.col(1).head(free_vertices).minCoeff(), sim.ground_height() + xi);
        EXPECT_LT(x.col(1).head(free_vertices).maxCoeff(), stats.ceiling_height - xi);
        EXPECT_GT(x.col(0).head(free_vertices).minCoeff(), left + xi);
        EXPECT_LT(x.col(0).head(free_vertices).maxCoeff(), right - xi);
        EXPECT_GT(stats.newton_iterations, 0);
        EXPECT_GT(stats.smallest_filter_step, 0.0);
        smallest_filter_step = std::min(smallest_filter_step, stats.smallest_filter_step);
    }
    // The squeeze is violent enough that the line-search filter cut some Newton step short.
    EXPECT_LT(smallest_filter_step, 1.0);
    ASSERT_EQ(sim.steps_taken(), STEPS);
    const Eigen::MatrixXd& x = sim.positions();
    const int n = sim.square_vertex_count();
    // Both squares fell: every vertex is below where it started.
    EXPECT_TRUE((x.col(1).head(free_vertices).array() < start_y.array()).all());
    // The ceiling has reached its stop and squeezes the stack: the upper square's top is below its resting height
    // on the lower square (two side lengths), and the upper square is shorter than its rest side.
    ASSERT_NEAR(sim.ceiling_height(), settings.ceiling_stop_height, 1e-12);
    EXPECT_LT(x.col(1).segment(n, n).maxCoeff(), 2.0 * settings.square_size);
    EXPECT_LT(square_height(sim, 1), 0.99 * settings.square_size);
    EXPECT_LT(square_height(sim, 0), 0.99 * settings.square_size);
}

TEST(SimElasticContact2d, MinVertexEdgeDistanceNamesThePair)
{
    Eigen::MatrixXd x(4, 2);
    x << 0, 0, 1, 0, 0.5, 0.25, 3, 3;
    Eigen::MatrixX2i edges(2, 2);
    edges << 0, 1, 2, 3;
    const VertexEdgeDistance d = min_vertex_edge_distance(x, edges);
    EXPECT_DOUBLE_EQ(d.distance, 0.25);
    EXPECT_EQ(d.vertex, 2);
    EXPECT_EQ(d.edge, 0);
}

namespace {
void expect_rejected(const ElasticContact2dSettings& settings, const std::string& field)
{
    try {
        ElasticContact2d sim(settings);
        ADD_FAILURE() << "accepted a bad " << field;
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
}
} // namespace

TEST(SimElasticContact2d, RejectsBadSettingsNamingTheField)
{
    for (const double bad : { 0.0, -0.01, std::numeric_limits<double>::quiet_NaN() }) {
        ElasticContact2dSettings s;
        s.time_step = bad;
        expect_rejected(s, "time_step");
        s = {};
        s.stiffness = bad;
        expect_rejected(s, "stiffness");
    }
    ElasticContact2dSettings s;
    s.separation = -1e-3;
    expect_rejected(s, "separation");
    s = {};
    s.grid_resolution = 1;
    expect_rejected(s, "grid_resolution");
    s = {};
    s.ceiling_stop_height = s.ceiling_start_height + 1.0;
    expect_rejected(s, "ceiling_stop_height");
    // xi = 0 is legal (contact without a separation).
    s = {};
    s.separation = 0.0;
    EXPECT_NO_THROW(ElasticContact2d { s });
}
