// SPDX-License-Identifier: MIT
// Signed distance grids: construction and its errors, trilinear interpolation and the Lipschitz constant,
// the certified clearance and depth against dense sampling of the grid's own trilinear field (inside and
// outside the lattice box), grids sampled from shapes and from closed meshes (signs on a cube and a torus),
// the mesh checks, surface samples, and grids inside Boolean shapes.
#include "rigid/expect_invalid_argument.hpp"
#include "rigid/reference_shapes.hpp"

#include <ccdkit/mesh/triangle_mesh.hpp>
#include <ccdkit/rigid/implicit_shape.hpp>
#include <ccdkit/rigid/signed_distance_grid.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ccdkit;
using namespace ccdkit::testing;
using Eigen::Vector3d;

namespace {

/// A grid of the linear field a.x + b on [0, 1]^3 with cells of 1/n.
SignedDistanceGrid linear_grid(const Vector3d& a, double b, int n)
{
    std::vector<double> values;
    for (int k = 0; k <= n; ++k) {
        for (int j = 0; j <= n; ++j) {
            for (int i = 0; i <= n; ++i) {
                values.push_back(a.dot(Vector3d(i, j, k) / n) + b);
            }
        }
    }
    return { Vector3d::Zero(), 1.0 / n, Eigen::Vector3i::Constant(n + 1), values };
}

/// Points of the lattice refined `refine` times, strictly inside the lattice box.
std::vector<Vector3d> fine_points(const SignedDistanceGrid& grid, int refine)
{
    std::vector<Vector3d> points;
    const Eigen::Vector3i n = (grid.dims().array() - 1) * refine;
    const double step = grid.cell_size() / refine;
    for (int k = 1; k < n.z(); ++k) {
        for (int j = 1; j < n.y(); ++j) {
            for (int i = 1; i < n.x(); ++i) {
                points.push_back(grid.origin() + step * Vector3d(i, j, k));
            }
        }
    }
    return points;
}

/// Points around the lattice box (out to half its size beyond it), at random.
std::vector<Vector3d> around(const SignedDistanceGrid& grid, int count, std::mt19937_64& rng)
{
    const Aabb box = grid.domain();
    const Eigen::Array3d centre = (box.min + box.max) / 2, half = (box.max - box.min);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::vector<Vector3d> points;
    for (int k = 0; k < count; ++k) {
        points.emplace_back((centre + half * Eigen::Array3d(unit(rng), unit(rng), unit(rng))).matrix());
    }
    return points;
}

/// A cube of half-size h, outward oriented.
TriangleMesh cube_mesh(double h)
{
    TriangleMesh mesh;
    mesh.vertices.resize(8, 3);
    for (int v = 0; v < 8; ++v) {
        mesh.vertices.row(v) << ((v & 1) != 0 ? h : -h), ((v & 2) != 0 ? h : -h), ((v & 4) != 0 ? h : -h);
    }
    // Two triangles a face, counter-clockwise seen from outside.
    mesh.faces.resize(12, 3);
    mesh.faces << 0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3,
        7, 5;
    return mesh;
}

/// A closed, outward-oriented triangulation of the torus (theta around z, phi around the tube).
TriangleMesh torus_mesh(double major, double minor, int n_theta, int n_phi)
{
    TriangleMesh mesh;
    mesh.vertices.resize(n_theta * n_phi, 3);
    mesh.faces.resize(2 * n_theta * n_phi, 3);
    const auto id = [&](int i, int j) { return (i % n_theta) * n_phi + (j % n_phi); };
    for (int i = 0; i < n_theta; ++i) {
        const double theta = 2 * std::numbers::pi * i / n_theta;
        for (int j = 0; j < n_phi; ++j) {
            const double phi = 2 * std::numbers::pi * j / n_phi;
            const double rho = major + minor * std::cos(phi);
            mesh.vertices.row(id(i, j)) << rho * std::cos(theta), rho * std::sin(theta), minor * std::sin(phi);
            const int f = 2 * id(i, j);
            mesh.faces.row(f) << id(i, j), id(i + 1, j), id(i + 1, j + 1);
            mesh.faces.row(f + 1) << id(i, j), id(i + 1, j + 1), id(i, j + 1);
        }
    }
    return mesh;
}

/// Solid points (phi < 0 by far more than rounding) and exterior points (phi > 0 likewise) of a grid.
struct Sides {
    std::vector<Vector3d> solid, exterior;
};
Sides split(const SignedDistanceGrid& grid, const std::vector<Vector3d>& points, double band)
{
    Sides sides;
    for (const Vector3d& p : points) {
        const double v = grid.interpolate(p);
        if (v < -1e-12 && v > -band) {
            sides.solid.push_back(p);
        } else if (v > 1e-12 && v < band) {
            sides.exterior.push_back(p);
        }
    }
    return sides;
}

} // namespace

TEST(SignedDistanceGrid, InterpolatesLinearFieldsAndReadsTheirSlope)
{
    const Vector3d a(0.3, -1.2, 0.5);
    const SignedDistanceGrid grid = linear_grid(a, -0.1, 8);
    EXPECT_EQ(grid.value(3, 2, 1), a.dot(Vector3d(3, 2, 1) / 8) - 0.1);
    EXPECT_NEAR(grid.lipschitz_constant(), a.norm(), 1e-14);
    EXPECT_GE(grid.lipschitz_constant(), a.norm());
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int k = 0; k < 1000; ++k) {
        const Vector3d x(unit(rng), unit(rng), unit(rng));
        EXPECT_NEAR(grid.interpolate(x), a.dot(x) - 0.1, 1e-15);
        EXPECT_LE((grid.normal(x) - a.normalized()).norm(), 1e-12);
    }
    EXPECT_EQ(grid.domain().min.matrix(), Vector3d::Zero());
    EXPECT_GE(grid.domain().max.minCoeff(), 1.0);
    EXPECT_LE(grid.domain().max.maxCoeff(), 1.0 + 1e-15);
}

TEST(SignedDistanceGrid, ClearanceOutsideTheBoxIsPythagorean)
{
    // Solid {x <= 0.5} of the unit box. From (2, 2, 0.5) the nearest solid point is (0.5, 1, 0.5), at
    // sqrt(1.5^2 + 1) = 1.803; the nearest box point is (1, 1, 0.5) at sqrt(2), whose clearance is 0.5.
    // sqrt(2 + 0.25) = 1.5 is a bound; sqrt(2) + 0.5 = 1.914 would not be.
    const SignedDistanceGrid grid = linear_grid(Vector3d(1, 0, 0), -0.5, 4);
    const double clearance = grid.clearance({ 2, 2, 0.5 });
    EXPECT_LE(clearance, std::sqrt(1.5 * 1.5 + 1.0));
    EXPECT_NEAR(clearance, 1.5, 1e-13);
    EXPECT_NEAR(grid.clearance({ -1, 0.5, 0.5 }), 1.0, 1e-13); // beside the solid: just the box distance
    EXPECT_NEAR(grid.clearance({ 0.75, 0.5, 0.5 }), 0.25, 1e-13);
    EXPECT_LE(grid.clearance({ 0.25, 0.5, 0.5 }), 0.0);
    EXPECT_NEAR(grid.depth({ 0.25, 0.5, 0.5 }), 0.25, 1e-13);
    EXPECT_NEAR(grid.depth({ 0.1, 0.5, 0.5 }), 0.1, 1e-13); // the box face is nearer than phi = 0
    EXPECT_LE(grid.depth({ 0.75, 0.5, 0.5 }), 0.0);
    EXPECT_LE(grid.depth({ -0.1, 0.5, 0.5 }), 0.0);
}

TEST(SignedDistanceGrid, ClearanceAndDepthAreCertifiedAgainstTheTrilinearField)
{
    std::mt19937_64 rng(5);
    for (const ImplicitShape& shape : { ImplicitShape::torus(1.0, 0.35), ImplicitShape::box({ 0.5, 0.3, 0.4 }),
                                        subtract(ImplicitShape::sphere(0.8), ImplicitShape::capsule(0.3, 1.0)) }) {
        const SignedDistanceGrid grid = SignedDistanceGrid::sample(shape, 0.1, 0.15);
        const Sides sides = split(grid, fine_points(grid, 4), 0.05);
        ASSERT_GT(sides.solid.size(), 1000u);
        ASSERT_GT(sides.exterior.size(), 1000u);
        for (const Vector3d& x : around(grid, 300, rng)) {
            const double v = grid.interpolate(x);
            const bool in_box = (grid.domain().min <= x.array()).all() && (x.array() <= grid.domain().max).all();
            const double clearance = grid.clearance(x), depth = grid.depth(x);
            EXPECT_TRUE(clearance <= distance_to_points(x, sides.solid));
            if (in_box && v < 0) {
                EXPECT_LE(clearance, 0.0);
            }
            if (depth > 0) {
                EXPECT_TRUE(depth <= distance_to_points(x, sides.exterior));
                EXPECT_TRUE(in_box && v < 0);
            }
            // Useful as well as safe: far from the solid the bound is positive.
            if (shape.signed_distance(x) > 0.4) {
                EXPECT_GT(clearance, 0.0);
            }
        }
        // The sharp test: near each solid point, the clearance stays below the distance to it.
        std::uniform_int_distribution<std::size_t> pick(0, sides.solid.size() - 1);
        for (int k = 0; k < 3000; ++k) {
            const Vector3d& p = sides.solid[pick(rng)];
            const Vector3d x
                = p + std::pow(10.0, -std::uniform_int_distribution<int>(1, 15)(rng)) * random_direction(rng);
            EXPECT_TRUE(grid.clearance(x) <= (widen(x) - widen(p)).norm());
            EXPECT_TRUE(ImplicitShape::grid(grid).clearance(x) <= (widen(x) - widen(p)).norm());
        }
    }
}

TEST(SignedDistanceGrid, SampledShapeMatchesTheShape)
{
    const ImplicitShape sphere = ImplicitShape::sphere(1.0);
    const SignedDistanceGrid grid = SignedDistanceGrid::sample(sphere, 0.05, 0.1);
    EXPECT_EQ(grid.dims(), Eigen::Vector3i::Constant(45));
    EXPECT_EQ(grid.value(0, 0, 0), sphere.signed_distance(grid.origin()));
    // The sampled distance has slope sqrt(3) in the cells at the centre, where |x| has its kink.
    EXPECT_GE(grid.lipschitz_constant(), 1.0);
    EXPECT_LE(grid.lipschitz_constant(), std::sqrt(3.0) * (1 + 1e-12));
    std::mt19937_64 rng(7);
    for (const Vector3d& x : around(grid, 2000, rng)) {
        // Trilinear interpolation of a distance is within about h^2 / (8 r) of it, more near the centre.
        if (x.norm() > 0.3 && (grid.domain().min <= x.array()).all() && (x.array() <= grid.domain().max).all()) {
            EXPECT_NEAR(grid.interpolate(x), sphere.signed_distance(x), 2e-3);
        }
        // Outside the box the estimate is the Pythagorean lower bound, below the distance.
        EXPECT_LE(grid.signed_distance(x), sphere.signed_distance(x) + 0.01);
        // Near the surface the clearance uses the slope of the nearby cells (about 1), farther off at worst
        // the grid's sqrt(3).
        const double d = sphere.signed_distance(x);
        const Vector3d p = x.cwiseMax(grid.domain().min.matrix()).cwiseMin(grid.domain().max.matrix());
        if (p == x) {
            EXPECT_GT(grid.clearance(x), d < 0.15 ? 0.9 * d - 0.01 : d / std::sqrt(3.0) - 0.01) << x.transpose();
        } else {
            EXPECT_GE(grid.clearance(x), (x - p).norm() * (1 - 1e-12));
        }
    }
    EXPECT_LE(grid.bounding_radius(), 1.0 + std::sqrt(3.0) * grid.cell_size() + 1e-12);
    EXPECT_GE(grid.bounding_radius(), 1.0);
    const ImplicitShape as_shape = ImplicitShape::grid(grid);
    EXPECT_EQ(as_shape.bounds().min.matrix(), grid.solid_bounds().min.matrix());
    EXPECT_EQ(as_shape.clearance({ 2, 0, 0 }), grid.clearance({ 2, 0, 0 }));
    EXPECT_EQ(as_shape.depth({ 0.5, 0, 0 }), grid.depth({ 0.5, 0, 0 }));
}

TEST(SignedDistanceGrid, SurfaceSamplesLieOnTheZeroSetAndCoverIt)
{
    const SignedDistanceGrid grid = SignedDistanceGrid::sample(ImplicitShape::sphere(1.0), 0.1, 0.15);
    const double spacing = 0.05;
    const std::vector<SurfaceSample> samples = grid.sample_surface(spacing);
    std::vector<Vector3d> points;
    for (const SurfaceSample& s : samples) {
        EXPECT_LE(std::abs(grid.interpolate(s.point)), 1e-14);
        EXPECT_LE((s.normal - s.point.normalized()).norm(), 0.05);
        points.push_back(s.point);
    }
    // Points of the zero set, found by bisection along rays, are within a sub-cell diagonal of a sample.
    std::mt19937_64 rng(9);
    for (int k = 0; k < 500; ++k) {
        const Vector3d d = random_direction(rng);
        double inside = 0.5, outside = 1.5;
        for (int step = 0; step < 60; ++step) {
            const double mid = (inside + outside) / 2;
            (grid.interpolate(mid * d) <= 0 ? inside : outside) = mid;
        }
        EXPECT_LE(distance_to_points(inside * d, points), spacing);
    }
    EXPECT_THROW((void)grid.sample_surface(0.0), std::invalid_argument);
    EXPECT_THROW((void)grid.sample_surface(1e-6), std::invalid_argument);
}

TEST(SignedDistanceGrid, MeshOfACubeGivesTheBoxDistance)
{
    const TriangleMesh cube = cube_mesh(0.5);
    const ImplicitShape box = ImplicitShape::box({ 0.5, 0.5, 0.5 });
    TriangleMesh inside_out = cube;
    inside_out.faces.col(1).swap(inside_out.faces.col(2));
    const SignedDistanceGrid grid = SignedDistanceGrid::from_mesh(cube.vertices, cube.faces, 0.125, 0.25);
    const SignedDistanceGrid reversed
        = SignedDistanceGrid::from_mesh(inside_out.vertices, inside_out.faces, 0.125, 0.25);
    const SignedDistanceGrid unsigned_grid
        = SignedDistanceGrid::from_mesh(cube.vertices, cube.faces, 0.125, 0.25, MeshDistanceSign::UNSIGNED);
    ASSERT_EQ(grid.dims(), Eigen::Vector3i::Constant(13));
    int inside = 0;
    for (int k = 0; k < 13; ++k) {
        for (int j = 0; j < 13; ++j) {
            for (int i = 0; i < 13; ++i) {
                const Vector3d x = grid.origin() + grid.cell_size() * Vector3d(i, j, k);
                EXPECT_NEAR(grid.value(i, j, k), box.signed_distance(x), 1e-12);
                EXPECT_NEAR(reversed.value(i, j, k), box.signed_distance(x), 1e-12);
                EXPECT_NEAR(unsigned_grid.value(i, j, k), std::abs(box.signed_distance(x)), 1e-12);
                inside += grid.value(i, j, k) < 0 ? 1 : 0;
            }
        }
    }
    EXPECT_EQ(inside, 7 * 7 * 7);
    // A vertex that no face uses bounds no surface: the same lattice and values (one 1e6 away had asked for a lattice
    // of 1e20 samples).
    TriangleMesh padded { Eigen::MatrixX3d(cube.vertices.rows() + 1, 3), cube.faces };
    padded.vertices << cube.vertices, Eigen::RowVector3d(1e6, 0, -1e6);
    const SignedDistanceGrid same = SignedDistanceGrid::from_mesh(padded.vertices, padded.faces, 0.125, 0.25);
    ASSERT_EQ(same.dims(), grid.dims());
    EXPECT_EQ(same.origin(), grid.origin());
    EXPECT_EQ(same.value(6, 6, 6), grid.value(6, 6, 6));
    EXPECT_EQ(same.value(1, 2, 3), grid.value(1, 2, 3));
    // At any size (fuzzing review, twenty-eighth session: the winding number's products of three coordinates left
    // double's range, and a cube of 1e100 read 0 at its centre, one of 1e120 outside).
    for (const double size : { 1e-120, 1e100, 1e120, 1e140 }) {
        SCOPED_TRACE(::testing::Message() << "size " << size);
        const TriangleMesh scaled { cube.vertices * size, cube.faces };
        const SignedDistanceGrid large = SignedDistanceGrid::from_mesh(scaled.vertices, scaled.faces, 0.25 * size, 0.0);
        ASSERT_EQ(large.dims(), Eigen::Vector3i::Constant(5));
        EXPECT_NEAR(large.value(2, 2, 2), -0.5 * size, 1e-12 * size);
        EXPECT_NEAR(large.value(1, 2, 2), -0.25 * size, 1e-12 * size);
    }
}

TEST(SignedDistanceGrid, MeshOfATorusIsSignedLikeTheTorus)
{
    const double major = 1.0, minor = 0.4;
    const TriangleMesh mesh = torus_mesh(major, minor, 48, 24);
    const ImplicitShape torus = ImplicitShape::torus(major, minor);
    const SignedDistanceGrid grid = SignedDistanceGrid::from_mesh(mesh.vertices, mesh.faces, 0.125, 0.25);
    // The triangulation lies within (R + r)(1 - cos(pi / 48)) + r (1 - cos(pi / 24)) < 0.007 of the torus.
    int inside = 0, outside = 0;
    for (int k = 0; k < grid.dims().z(); ++k) {
        for (int j = 0; j < grid.dims().y(); ++j) {
            for (int i = 0; i < grid.dims().x(); ++i) {
                const Vector3d x = grid.origin() + grid.cell_size() * Vector3d(i, j, k);
                const double exact = torus.signed_distance(x);
                EXPECT_NEAR(grid.value(i, j, k), exact, 0.007);
                if (std::abs(exact) > 0.007) {
                    EXPECT_EQ(grid.value(i, j, k) < 0, exact < 0) << x.transpose();
                    (exact < 0 ? inside : outside) += 1;
                }
            }
        }
    }
    EXPECT_GT(inside, 100);
    EXPECT_GT(outside, 1000);
}

TEST(SignedDistanceGrid, GridsCombineWithAnalyticShapes)
{
    // A box with a ball carved out by a sampled grid: clearance certified against solid points, which are
    // box points where the grid is positive by more than rounding.
    const SignedDistanceGrid ball = SignedDistanceGrid::sample(ImplicitShape::sphere(0.6), 0.05, 0.1);
    const ImplicitShape box = ImplicitShape::box({ 0.5, 0.5, 0.5 });
    const ImplicitShape carved = subtract(box, ImplicitShape::grid(ball));
    std::mt19937_64 rng(13);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::vector<Vector3d> solid;
    while (solid.size() < 20000) {
        const Vector3d p(0.5 * unit(rng), 0.5 * unit(rng), 0.5 * unit(rng));
        if (box.signed_distance(p) < -1e-12 && ball.interpolate(p) > 1e-12) {
            solid.push_back(p);
        }
    }
    for (int k = 0; k < 3000; ++k) {
        const Vector3d& p = solid[static_cast<std::size_t>(k)];
        const Vector3d x = p + std::pow(10.0, -std::uniform_int_distribution<int>(1, 15)(rng)) * random_direction(rng);
        EXPECT_TRUE(carved.clearance(x) <= (widen(x) - widen(p)).norm());
    }
    for (int k = 0; k < 300; ++k) {
        const Vector3d x(unit(rng), unit(rng), unit(rng));
        EXPECT_TRUE(carved.clearance(x) <= distance_to_points(x, solid));
        if (box.signed_distance(x) < 0 && ball.interpolate(x) > 0) {
            EXPECT_LE(carved.clearance(x), 0.0);
        }
    }
    EXPECT_GT(carved.clearance({ 0, 0, 0 }), 0.05); // inside the carved ball, far from the box's corners
}

TEST(SignedDistanceGrid, BadInputThrows)
{
    const Eigen::Vector3i two = Eigen::Vector3i::Constant(2);
    const std::vector<double> eight(8, 1.0);
    expect_throw_naming([&] { return SignedDistanceGrid(Vector3d::Zero(), 0.0, two, eight); }, "cell_size");
    expect_throw_naming([&] { return SignedDistanceGrid(Vector3d::Zero(), NAN, two, eight); }, "cell_size");
    expect_throw_naming([&] { return SignedDistanceGrid(Vector3d(INFINITY, 0, 0), 1.0, two, eight); }, "origin");
    expect_throw_naming(
        [&] { return SignedDistanceGrid(Vector3d::Zero(), 1.0, Eigen::Vector3i(2, 1, 2), eight); }, "dims");
    expect_throw_naming(
        [&] { return SignedDistanceGrid(Vector3d::Zero(), 1.0, two, std::vector<double>(7)); }, "values");
    expect_throw_naming(
        [&] { return SignedDistanceGrid(Vector3d::Zero(), 1.0, Eigen::Vector3i::Constant(1 << 10), {}); }, "limit");
    std::vector<double> with_nan = eight;
    with_nan[5] = NAN;
    expect_throw_naming([&] { return SignedDistanceGrid(Vector3d::Zero(), 1.0, two, with_nan); }, "value 5");
    // Review finding (nineteenth session): values, cells or an origin beyond 1e150 passed, and a step of 2e300
    // between neighbours (or of 2e150 over a cell of 1e-300) made the Lipschitz bound infinite: NaN clearances, a
    // false contact at t = 0 with NaN gaps. Refused by name now, the limits themselves accepted with finite bounds.
    std::vector<double> huge = eight;
    huge[0] = -1e300;
    expect_throw_naming([&] { return SignedDistanceGrid(Vector3d::Zero(), 1.0, two, huge); }, "value 0 (-1e+300)");
    std::vector<double> steep = eight;
    steep[0] = -1e150;
    expect_throw_naming([&] { return SignedDistanceGrid(Vector3d::Zero(), 1e-300, two, steep); }, "slopes overflow");
    expect_throw_naming([&] { return SignedDistanceGrid(Vector3d::Zero(), 1e300, two, eight); }, "cell_size");
    expect_throw_naming([&] { return SignedDistanceGrid(Vector3d(0, 1e200, 0), 1.0, two, eight); }, "origin");
    std::vector<double> extreme = eight;
    for (double& v : extreme) {
        v = 1e150;
    }
    extreme[0] = -1e150;
    for (const double cell : { 1e-150, 1.0, 1e150 }) {
        const SignedDistanceGrid grid(Vector3d::Zero(), cell, two, extreme);
        EXPECT_TRUE(std::isfinite(grid.lipschitz_constant())) << cell;
        for (const Vector3d& p :
             { Vector3d(3, 0, 0), Vector3d(Vector3d::Constant(0.5 * cell)), Vector3d(-1e140, 2, 0) }) {
            EXPECT_FALSE(std::isnan(grid.clearance(p))) << cell << ": " << p.transpose();
            EXPECT_FALSE(std::isnan(grid.depth(p))) << cell << ": " << p.transpose();
            EXPECT_FALSE(std::isnan(grid.signed_distance(p))) << cell << ": " << p.transpose();
        }
    }

    const ImplicitShape sphere = ImplicitShape::sphere(1);
    expect_throw_naming([&] { return SignedDistanceGrid::sample(sphere, -1.0, 0.1); }, "cell_size");
    expect_throw_naming([&] { return SignedDistanceGrid::sample(sphere, 0.1, -0.1); }, "padding");
    expect_throw_naming([&] { return SignedDistanceGrid::sample(sphere, 1e-4, 0.1); }, "samples");
    const ImplicitShape nothing
        = intersect(sphere, sphere.transformed(Eigen::Isometry3d(Eigen::Translation3d(5, 0, 0))));
    expect_throw_naming([&] { return SignedDistanceGrid::sample(nothing, 0.1, 0.1); }, "empty");

    const TriangleMesh cube = cube_mesh(0.5);
    const auto from
        = [](const TriangleMesh& mesh) { return SignedDistanceGrid::from_mesh(mesh.vertices, mesh.faces, 0.25, 0.25); };
    TriangleMesh open = cube;
    open.faces.conservativeResize(11, 3);
    expect_throw_naming([&] { return from(open); }, "not closed");
    EXPECT_NO_THROW(
        (void)SignedDistanceGrid::from_mesh(open.vertices, open.faces, 0.25, 0.25, MeshDistanceSign::UNSIGNED));
    TriangleMesh flipped = cube;
    std::swap(flipped.faces(3, 1), flipped.faces(3, 2));
    expect_throw_naming([&] { return from(flipped); }, "consistently oriented");
    TriangleMesh doubled = cube;
    doubled.faces.conservativeResize(13, 3);
    doubled.faces.row(12) = doubled.faces.row(0);
    expect_throw_naming([&] { return from(doubled); }, "more than two faces");
    TriangleMesh bad_index = cube;
    bad_index.faces(2, 1) = 8;
    EXPECT_THROW((void)from(bad_index), std::invalid_argument);
    expect_throw_naming([&] { return from({ cube.vertices, Eigen::MatrixX3i(0, 3) }); }, "no faces");
}
