// SPDX-License-Identifier: MIT
#pragma once

// A 2D elastic contact simulation in the setting of Incremental Potential Contact (Li et al. 2020): two elastic
// squares fall onto a static ground segment and a ceiling segment descends at constant speed and squeezes
// them. Two static walls stand on the ground beside the squares: without friction, a squeezed off-center
// stack slides apart sideways, and the walls keep it in place so that the ceiling compresses it. Each time step is
// implicit Euler written as the minimisation of the incremental potential
//   E(x) = 1/(2 h^2) ||x - x_hat||_M^2 + elastic(x) + kappa sum_k b(d_k - xi),  x_hat = x_t + h v_t + h^2 g,
// solved by projected Newton whose line search starts from the line-search filter (largest_safe_step), so
// that no boundary vertex ever comes within the separation xi of a boundary edge.
//
// Formulation:
// - Elasticity: mass-spring on the edges of a triangulated grid (two triangles per cell, so the grid is rigid
//   as a truss); spring energy (k / 2) L0 (l / L0 - 1)^2, k acting as Young's modulus times a cross-section.
//   Lumped masses: a third of each adjacent triangle's area times the density.
// - Contact: the IPC log barrier b(g) = -(g - dhat)^2 ln(g / dhat) on the gap g = distance - xi (a length,
//   not a squared distance), for every boundary vertex and boundary edge of two different objects (the
//   squares, the container of ground and walls, the ceiling) closer than xi + dhat; brute-force pair search. No
//   self-contact within a square.
// - Ground, walls and ceiling: extra vertices and edges of the same 2D mesh (so the filter sees every pair), with
//   prescribed positions eliminated from the Newton system. The ceiling's target for a step is its height
//   after h more seconds of descent; see step() for how it gets there when the filter cuts a step short.

#include <Eigen/Core>

#include <array>
#include <cstddef>
#include <vector>

namespace ccdkit {

/// Scene and solver settings. Lengths in the units of `square_size`; the defaults are a unit square.
struct ElasticContact2dSettings {
    int grid_resolution = 5; ///< vertices along each side of a square, >= 2
    double square_size = 1.0; ///< side length of both squares, > 0
    double time_step = 0.01; ///< h, > 0
    double density = 1.0; ///< mass per unit area, > 0
    double stiffness = 1.0e3; ///< spring stiffness k (Young's modulus times a cross-section), > 0
    double gravity = 9.8; ///< downward acceleration, >= 0
    double separation = 1.0e-3; ///< xi: the smallest distance any vertex-edge pair may reach, >= 0
    double dhat = 1.0e-2; ///< the barrier acts on gaps below dhat, > 0
    double barrier_stiffness = 1.0e3; ///< kappa, > 0
    double ceiling_start_height = 2.5; ///< initial ceiling height, above the upper square (2.3 side lengths)
    double ceiling_speed = 2.0; ///< descent speed of the ceiling, >= 0
    double ceiling_stop_height = 1.8; ///< the ceiling stops here, > 0 and <= ceiling_start_height
    double newton_tolerance = 1.0e-4; ///< converged when ||dx||_inf / h < this (a velocity), > 0
    int max_newton_iterations = 200; ///< per time step, > 0
};

/// What one time step did and where it ended.
struct ElasticContact2dStepStats {
    int newton_iterations = 0; ///< Newton iterations (linear solves that led to a step)
    double min_distance = 0.0; ///< smallest vertex-edge distance over all non-incident boundary pairs, at the end
    double ceiling_height = 0.0; ///< at the end of the step
    double energy = 0.0; ///< the incremental potential at the solution
    double smallest_filter_step = 1.0; ///< smallest alpha the line-search filter returned during the step
    std::size_t active_pairs = 0; ///< vertex-edge pairs inside the barrier's reach at the end
    int line_search_stalls = 0; ///< iterations whose backtracking found no decrease (Newton then stops)
};

/// The simulation (see the top of this file). Vertex rows: the first square, the second (upper) square, then
/// the container's four corners (container_vertices()) and the ceiling's two endpoints.
class ElasticContact2d {
public:
    /// @throws std::invalid_argument naming the first setting out of range.
    explicit ElasticContact2d(const ElasticContact2dSettings& settings = {});

    /// Advances one time step. The ceiling's vertices get the direction (target - current) in every Newton
    /// iteration until they reach the target: a filtered step alpha < 1 moves them part of the way and the next
    /// iteration moves them on. Such iterations take the filter's alpha without an energy test (the energy of a
    /// different ceiling position is a different function); once the ceiling is at its target, iterations are
    /// plain projected Newton with Armijo backtracking, and convergence is tested only then.
    /// @throws std::runtime_error when Newton does not converge, the ceiling cannot reach its target, or the
    ///         separation check fails (a vertex-edge pair at distance <= xi): the message names the pair.
    ElasticContact2dStepStats step();

    [[nodiscard]] const Eigen::MatrixXd& positions() const { return x_; } ///< V x 2
    [[nodiscard]] const Eigen::MatrixXd& velocities() const { return v_; } ///< V x 2
    /// Boundary segments (vertex rows): each square's outline, then the container's three (left wall,
    /// ground, right wall) and the ceiling.
    [[nodiscard]] const Eigen::MatrixX2i& boundary_edges() const { return boundary_edges_; }
    /// Counterclockwise outline (vertex rows) of square 0 (lower) or 1 (upper).
    [[nodiscard]] const std::vector<int>& outline(int square) const { return outlines_.at(square); }
    /// Vertex rows of the square's grid: [first, first + count).
    [[nodiscard]] int square_first_vertex(int square) const { return square * square_vertex_count(); }
    [[nodiscard]] int square_vertex_count() const { return settings_.grid_resolution * settings_.grid_resolution; }
    /// The container's polyline: top of the left wall, its foot, the right wall's foot, its top.
    [[nodiscard]] std::array<int, 4> container_vertices() const
    {
        return { free_vertices_, free_vertices_ + 1, free_vertices_ + 2, free_vertices_ + 3 };
    }
    [[nodiscard]] std::array<int, 2> ceiling_vertices() const { return { free_vertices_ + 4, free_vertices_ + 5 }; }
    [[nodiscard]] double ceiling_height() const { return x_(free_vertices_ + 4, 1); }
    [[nodiscard]] double ground_height() const { return 0.0; }
    [[nodiscard]] int steps_taken() const { return steps_; }
    [[nodiscard]] const ElasticContact2dSettings& settings() const { return settings_; }

private:
    struct Spring {
        int a = 0, b = 0;
        double rest_length = 0.0;
    };
    struct Pair {
        int vertex = 0, edge = 0; ///< vertex row, row of boundary_edges_
    };

    void build_scene();
    [[nodiscard]] std::vector<Pair> active_pairs(const Eigen::MatrixXd& x) const;
    [[nodiscard]] double energy(const Eigen::MatrixXd& x, const Eigen::MatrixXd& x_hat) const;

    ElasticContact2dSettings settings_;
    int free_vertices_ = 0; ///< the squares' vertices; the rows after them are prescribed
    Eigen::MatrixXd x_, v_;
    Eigen::VectorXd mass_; ///< lumped mass per free vertex
    std::vector<Spring> springs_;
    Eigen::MatrixX2i boundary_edges_;
    std::vector<int> boundary_vertices_; ///< vertex rows on some boundary edge, ascending
    Eigen::MatrixX2i compact_edges_; ///< boundary_edges_ in positions of boundary_vertices_ (for the filter)
    std::vector<int> object_; ///< per vertex row: 0, 1 (squares), 2 (ground and walls), 3 (ceiling)
    std::array<std::vector<int>, 2> outlines_;
    int steps_ = 0;
};

/// Smallest distance between a vertex and a segment not incident to it, over the vertices on `edges` and all of
/// `edges`; +infinity when there is no such pair. Also returns the pair that attains it.
struct VertexEdgeDistance {
    double distance = 0.0;
    int vertex = -1, edge = -1; ///< vertex row and edge row; -1 when there is no pair
};
[[nodiscard]] VertexEdgeDistance min_vertex_edge_distance(const Eigen::MatrixXd& x, const Eigen::MatrixX2i& edges);

} // namespace ccdkit
