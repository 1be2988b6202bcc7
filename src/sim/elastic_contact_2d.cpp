// SPDX-License-Identifier: MIT
#include "sim/details/mass_spring.hpp"
#include "sim/details/point_edge_barrier.hpp"

#include <ccdkit/response/line_search_filter.hpp>
#include <ccdkit/sim/elastic_contact_2d.hpp>

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>

namespace ccdkit {

namespace {
    constexpr int SQUARES = 2;
    constexpr int CONTAINER = 2; ///< object id of the ground and walls
    constexpr int CEILING = 3;
    constexpr int PRESCRIBED = 6; ///< container corners (4) and ceiling endpoints (2), after the squares
    constexpr double ARMIJO = 1e-4; ///< sufficient-decrease constant of the backtracking line search
    constexpr double SMALLEST_BACKTRACK = 1e-12; ///< below this step, backtracking gives up

    void require(bool ok, const char* field, const char* range)
    {
        if (!ok) {
            throw std::invalid_argument(std::string("ElasticContact2dSettings::") + field + " must be " + range);
        }
    }

    void validate(const ElasticContact2dSettings& s)
    {
        // `!(x > 0)` rather than `x <= 0`, so that NaN is rejected too.
        require(s.grid_resolution >= 2, "grid_resolution", ">= 2");
        require(s.square_size > 0.0 && std::isfinite(s.square_size), "square_size", "positive and finite");
        require(s.time_step > 0.0 && std::isfinite(s.time_step), "time_step", "positive and finite");
        require(s.density > 0.0 && std::isfinite(s.density), "density", "positive and finite");
        require(s.stiffness > 0.0 && std::isfinite(s.stiffness), "stiffness", "positive and finite");
        require(s.gravity >= 0.0 && std::isfinite(s.gravity), "gravity", ">= 0 and finite");
        require(s.separation >= 0.0 && std::isfinite(s.separation), "separation", ">= 0 and finite");
        require(s.dhat > 0.0 && std::isfinite(s.dhat), "dhat", "positive and finite");
        require(
            s.barrier_stiffness > 0.0 && std::isfinite(s.barrier_stiffness), "barrier_stiffness",
            "positive and finite");
        require(s.ceiling_speed >= 0.0 && std::isfinite(s.ceiling_speed), "ceiling_speed", ">= 0 and finite");
        // The upper square starts at 1.3 side lengths and reaches 2.3; the ceiling must start clear of it.
        require(
            s.ceiling_start_height > 2.3 * s.square_size + s.separation && std::isfinite(s.ceiling_start_height),
            "ceiling_start_height", "finite and above the upper square (2.3 square_size + separation)");
        require(
            s.ceiling_stop_height > s.separation && s.ceiling_stop_height <= s.ceiling_start_height,
            "ceiling_stop_height", "in (separation, ceiling_start_height]");
        require(s.newton_tolerance > 0.0 && std::isfinite(s.newton_tolerance), "newton_tolerance", "positive");
        require(s.max_newton_iterations > 0, "max_newton_iterations", "positive");
    }

    Eigen::Vector2d row(const Eigen::MatrixXd& x, int i) { return x.row(i).transpose(); }

    /// Adds a dense element matrix over the given vertex rows (2 coordinates each) to the triplets.
    template <int N>
    void add_block(
        std::vector<Eigen::Triplet<double>>& triplets,
        const Eigen::Matrix<double, 2 * N, 2 * N>& m,
        const std::array<int, N>& vertices)
    {
        for (int a = 0; a < N; ++a) {
            for (int b = 0; b < N; ++b) {
                for (int i = 0; i < 2; ++i) {
                    for (int j = 0; j < 2; ++j) {
                        triplets.emplace_back(2 * vertices[a] + i, 2 * vertices[b] + j, m(2 * a + i, 2 * b + j));
                    }
                }
            }
        }
    }

    template <int N>
    void
    add_gradient(Eigen::VectorXd& g, const Eigen::Matrix<double, 2 * N, 1>& element, const std::array<int, N>& vertices)
    {
        for (int a = 0; a < N; ++a) {
            g.segment<2>(2 * vertices[a]) += element.template segment<2>(2 * a);
        }
    }
} // namespace

VertexEdgeDistance min_vertex_edge_distance(const Eigen::MatrixXd& x, const Eigen::MatrixX2i& edges)
{
    VertexEdgeDistance best;
    best.distance = std::numeric_limits<double>::infinity();
    std::set<int> vertices;
    for (Eigen::Index e = 0; e < edges.rows(); ++e) {
        vertices.insert(edges(e, 0));
        vertices.insert(edges(e, 1));
    }
    for (const int v : vertices) {
        for (int e = 0; e < static_cast<int>(edges.rows()); ++e) {
            if (edges(e, 0) == v || edges(e, 1) == v) {
                continue;
            }
            const double d2
                = details::point_edge_distance_2d(row(x, v), row(x, edges(e, 0)), row(x, edges(e, 1))).value;
            const double d = std::sqrt(d2);
            if (d < best.distance) {
                best = { d, v, e };
            }
        }
    }
    return best;
}

ElasticContact2d::ElasticContact2d(const ElasticContact2dSettings& settings)
    : settings_(settings)
{
    validate(settings_);
    build_scene();
}

void ElasticContact2d::build_scene()
{
    const int n = settings_.grid_resolution;
    const double size = settings_.square_size;
    const double spacing = size / (n - 1);
    const int per_square = n * n;
    free_vertices_ = SQUARES * per_square;
    const int vertex_count = free_vertices_ + PRESCRIBED;
    x_.setZero(vertex_count, 2);
    v_.setZero(vertex_count, 2);
    mass_.setZero(free_vertices_);
    object_.assign(static_cast<std::size_t>(vertex_count), 0);
    // Lower square at (0, 0.1 size), upper square shifted right by 0.15 size and 0.2 size above it, so that they
    // meet off-center and the upper one lands on the lower one's top edge and corner.
    const std::array<Eigen::Vector2d, SQUARES> corner { Eigen::Vector2d(0.0, 0.1 * size),
                                                        Eigen::Vector2d(0.15 * size, 1.3 * size) };
    std::vector<std::array<int, 2>> boundary;
    for (int s = 0; s < SQUARES; ++s) {
        const int first = s * per_square;
        const auto id = [&](int i, int j) { return first + j * n + i; }; // column i, row j
        for (int j = 0; j < n; ++j) {
            for (int i = 0; i < n; ++i) {
                x_.row(id(i, j)) = (corner[s] + spacing * Eigen::Vector2d(i, j)).transpose();
                object_[static_cast<std::size_t>(id(i, j))] = s;
            }
        }
        for (int j = 0; j + 1 < n; ++j) {
            for (int i = 0; i + 1 < n; ++i) {
                // Alternate the diagonal, so the grid has no preferred shear direction.
                const bool flip = (i + j) % 2 == 1;
                const int a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
                const std::array<std::array<int, 3>, 2> triangles = flip
                    ? std::array<std::array<int, 3>, 2> { { { a, b, d }, { b, c, d } } }
                    : std::array<std::array<int, 3>, 2> { { { a, b, c }, { a, c, d } } };
                for (const auto& t : triangles) {
                    const double area = 0.5 * spacing * spacing;
                    for (const int v : t) {
                        mass_[v] += settings_.density * area / 3.0;
                    }
                }
                // Springs: the cell's bottom and left sides, its diagonal; the top row and right column close it.
                springs_.push_back({ a, b, spacing });
                springs_.push_back({ a, d, spacing });
                springs_.push_back(
                    flip ? Spring { b, d, spacing * std::sqrt(2.0) } : Spring { a, c, spacing * std::sqrt(2.0) });
                if (j + 2 == n) {
                    springs_.push_back({ d, c, spacing });
                }
                if (i + 2 == n) {
                    springs_.push_back({ b, c, spacing });
                }
            }
        }
        // Counterclockwise outline: bottom row left to right, right column up, top row back, left column down.
        auto& loop = outlines_[static_cast<std::size_t>(s)];
        for (int i = 0; i + 1 < n; ++i) {
            loop.push_back(id(i, 0));
        }
        for (int j = 0; j + 1 < n; ++j) {
            loop.push_back(id(n - 1, j));
        }
        for (int i = n - 1; i > 0; --i) {
            loop.push_back(id(i, n - 1));
        }
        for (int j = n - 1; j > 0; --j) {
            loop.push_back(id(0, j));
        }
        for (std::size_t k = 0; k < loop.size(); ++k) {
            boundary.push_back({ loop[k], loop[(k + 1) % loop.size()] });
        }
    }
    // The container: ground y = 0 between two walls, one connected polyline so that its corners are shared
    // vertices (a wall's foot on the ground would otherwise be a pair at distance 0). The ceiling spans the gap
    // between the walls short of them by a margin, and slides down parallel to them.
    const double wall_left = -0.05 * size, wall_right = 1.25 * size;
    const double wall_top = settings_.ceiling_start_height + 0.2 * size;
    const double margin = 0.05 * size;
    const int w0 = free_vertices_, c0 = free_vertices_ + 4;
    x_.row(w0) << wall_left, wall_top;
    x_.row(w0 + 1) << wall_left, 0.0;
    x_.row(w0 + 2) << wall_right, 0.0;
    x_.row(w0 + 3) << wall_right, wall_top;
    x_.row(c0) << wall_right - margin, settings_.ceiling_start_height;
    x_.row(c0 + 1) << wall_left + margin, settings_.ceiling_start_height;
    for (int k = 0; k < 4; ++k) {
        object_[static_cast<std::size_t>(w0 + k)] = CONTAINER;
    }
    object_[static_cast<std::size_t>(c0)] = object_[static_cast<std::size_t>(c0 + 1)] = CEILING;
    for (int k = 0; k < 3; ++k) {
        boundary.push_back({ w0 + k, w0 + k + 1 });
    }
    boundary.push_back({ c0, c0 + 1 });

    boundary_edges_.resize(static_cast<Eigen::Index>(boundary.size()), 2);
    std::set<int> on_boundary;
    for (std::size_t e = 0; e < boundary.size(); ++e) {
        boundary_edges_.row(static_cast<Eigen::Index>(e)) << boundary[e][0], boundary[e][1];
        on_boundary.insert(boundary[e][0]);
        on_boundary.insert(boundary[e][1]);
    }
    boundary_vertices_.assign(on_boundary.begin(), on_boundary.end());
    std::vector<int> compact(static_cast<std::size_t>(vertex_count), -1);
    for (std::size_t k = 0; k < boundary_vertices_.size(); ++k) {
        compact[static_cast<std::size_t>(boundary_vertices_[k])] = static_cast<int>(k);
    }
    compact_edges_.resize(boundary_edges_.rows(), 2);
    for (Eigen::Index e = 0; e < boundary_edges_.rows(); ++e) {
        compact_edges_(e, 0) = compact[static_cast<std::size_t>(boundary_edges_(e, 0))];
        compact_edges_(e, 1) = compact[static_cast<std::size_t>(boundary_edges_(e, 1))];
    }
}

std::vector<ElasticContact2d::Pair> ElasticContact2d::active_pairs(const Eigen::MatrixXd& x) const
{
    std::vector<Pair> pairs;
    const double reach = settings_.separation + settings_.dhat;
    for (const int v : boundary_vertices_) {
        const int ov = object_[static_cast<std::size_t>(v)];
        for (int e = 0; e < static_cast<int>(boundary_edges_.rows()); ++e) {
            const int e0 = boundary_edges_(e, 0), e1 = boundary_edges_(e, 1);
            const int oe = object_[static_cast<std::size_t>(e0)];
            // Contact between different objects, at least one of them free (two obstacles exert nothing).
            if (ov == oe || (ov >= CONTAINER && oe >= CONTAINER)) {
                continue;
            }
            const double d2 = details::point_edge_distance_2d(row(x, v), row(x, e0), row(x, e1)).value;
            if (d2 < reach * reach) {
                pairs.push_back({ v, e });
            }
        }
    }
    return pairs;
}

double ElasticContact2d::energy(const Eigen::MatrixXd& x, const Eigen::MatrixXd& x_hat) const
{
    const double h = settings_.time_step;
    double e = 0.0;
    for (int i = 0; i < free_vertices_; ++i) {
        e += 0.5 * mass_[i] / (h * h) * (x.row(i) - x_hat.row(i)).squaredNorm();
    }
    for (const Spring& s : springs_) {
        e += details::spring_energy(row(x, s.a), row(x, s.b), s.rest_length, settings_.stiffness, false).value;
    }
    for (const Pair& p : active_pairs(x)) {
        e += details::point_edge_barrier(
                 row(x, p.vertex), row(x, boundary_edges_(p.edge, 0)), row(x, boundary_edges_(p.edge, 1)),
                 settings_.separation, settings_.dhat, settings_.barrier_stiffness, false)
                 .value;
    }
    return e;
}

ElasticContact2dStepStats ElasticContact2d::step()
{
    const double h = settings_.time_step;
    const Eigen::Index dofs = 2 * x_.rows();
    const Eigen::Index free_dofs = 2 * free_vertices_;
    const Eigen::Index fixed_dofs = dofs - free_dofs;
    const Eigen::MatrixXd x_start = x_;
    Eigen::MatrixXd x_hat = x_ + h * v_;
    x_hat.topRows(free_vertices_).col(1).array() -= h * h * settings_.gravity;
    // Prescribed positions at the end of the step: the container stays, the ceiling descends until its stop.
    Eigen::MatrixXd target = x_.bottomRows(PRESCRIBED);
    const double ceiling_target
        = std::max(settings_.ceiling_stop_height, ceiling_height() - h * settings_.ceiling_speed);
    target.bottomRows(2).col(1).setConstant(ceiling_target);

    ElasticContact2dStepStats stats;
    LineSearchFilterOptions filter_options;
    filter_options.min_distance = settings_.separation;
    const Eigen::MatrixX3i no_faces(0, 3);
    bool converged = false;
    for (int iteration = 0; iteration < settings_.max_newton_iterations; ++iteration) {
        // Gradient and projected Hessian of the incremental potential over all coordinates.
        Eigen::VectorXd gradient = Eigen::VectorXd::Zero(dofs);
        std::vector<Eigen::Triplet<double>> triplets;
        for (int i = 0; i < free_vertices_; ++i) {
            const double m = mass_[i] / (h * h);
            gradient.segment<2>(2 * i) += m * (x_.row(i) - x_hat.row(i)).transpose();
            triplets.emplace_back(2 * i, 2 * i, m);
            triplets.emplace_back(2 * i + 1, 2 * i + 1, m);
        }
        for (const Spring& s : springs_) {
            const auto spring
                = details::spring_energy(row(x_, s.a), row(x_, s.b), s.rest_length, settings_.stiffness, true);
            add_gradient<2>(gradient, spring.gradient, { s.a, s.b });
            add_block<2>(triplets, spring.hessian, { s.a, s.b });
        }
        for (const Pair& p : active_pairs(x_)) {
            const std::array<int, 3> rows { p.vertex, boundary_edges_(p.edge, 0), boundary_edges_(p.edge, 1) };
            const auto contact = details::point_edge_barrier(
                row(x_, rows[0]), row(x_, rows[1]), row(x_, rows[2]), settings_.separation, settings_.dhat,
                settings_.barrier_stiffness, true);
            add_gradient<3>(gradient, contact.gradient, rows);
            add_block<3>(triplets, contact.hessian, rows);
        }
        Eigen::SparseMatrix<double> hessian(dofs, dofs);
        hessian.setFromTriplets(triplets.begin(), triplets.end());

        // Newton direction with the prescribed displacement as Dirichlet data:
        //   H_ff dx_f = -(g_f + H_fc dx_c).
        Eigen::VectorXd dx_fixed(fixed_dofs);
        for (Eigen::Index k = 0; k < PRESCRIBED; ++k) {
            dx_fixed.segment<2>(2 * k) = (target.row(k) - x_.row(free_vertices_ + k)).transpose();
        }
        const bool kinematic = dx_fixed.lpNorm<Eigen::Infinity>() > 0.0;
        const Eigen::SparseMatrix<double> h_ff = hessian.topLeftCorner(free_dofs, free_dofs);
        const Eigen::SparseMatrix<double> h_fc = hessian.topRightCorner(free_dofs, fixed_dofs);
        const Eigen::VectorXd rhs = -(gradient.head(free_dofs) + h_fc * dx_fixed);
        Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(h_ff);
        if (solver.info() != Eigen::Success) {
            throw std::runtime_error("step " + std::to_string(steps_) + ": the Newton matrix could not be factored");
        }
        Eigen::VectorXd dx(dofs);
        dx.head(free_dofs) = solver.solve(rhs);
        dx.tail(fixed_dofs) = dx_fixed;
        if (!kinematic && dx.head(free_dofs).lpNorm<Eigen::Infinity>() / h < settings_.newton_tolerance) {
            converged = true;
            break;
        }
        ++stats.newton_iterations;

        // Line search: the filter's largest safe step, then (with the ceiling in place) Armijo backtracking.
        const Eigen::MatrixXd direction = dx.reshaped<Eigen::RowMajor>(x_.rows(), 2);
        const Eigen::MatrixXd x_boundary = x_(boundary_vertices_, Eigen::all);
        const Eigen::MatrixXd p_boundary = direction(boundary_vertices_, Eigen::all);
        double alpha = largest_safe_step(x_boundary, p_boundary, compact_edges_, no_faces, filter_options).alpha;
        stats.smallest_filter_step = std::min(stats.smallest_filter_step, alpha);
        if (kinematic) {
            x_ += alpha * direction;
            if (alpha == 1.0) {
                x_.bottomRows(PRESCRIBED) = target; // exactly, so that `kinematic` turns false
            }
            continue;
        }
        const double e0 = energy(x_, x_hat);
        const double slope = gradient.head(free_dofs).dot(dx.head(free_dofs));
        while (alpha >= SMALLEST_BACKTRACK && !(energy(x_ + alpha * direction, x_hat) <= e0 + ARMIJO * alpha * slope)) {
            alpha *= 0.5;
        }
        if (alpha < SMALLEST_BACKTRACK) {
            // No decrease along a descent direction: the energy is flat to rounding here; stop where we are.
            ++stats.line_search_stalls;
            converged = true;
            break;
        }
        x_ += alpha * direction;
    }
    if (!converged) {
        const bool ceiling_behind = (x_.bottomRows(PRESCRIBED) - target).lpNorm<Eigen::Infinity>() > 0.0;
        throw std::runtime_error(
            "step " + std::to_string(steps_) + ": "
            + (ceiling_behind ? "the ceiling did not reach its target" : "Newton did not converge") + " in "
            + std::to_string(settings_.max_newton_iterations) + " iterations");
    }

    v_.topRows(free_vertices_) = (x_.topRows(free_vertices_) - x_start.topRows(free_vertices_)) / h;
    v_.bottomRows(PRESCRIBED) = (x_.bottomRows(PRESCRIBED) - x_start.bottomRows(PRESCRIBED)) / h;
    const VertexEdgeDistance closest = min_vertex_edge_distance(x_, boundary_edges_);
    if (!(closest.distance > settings_.separation)) {
        throw std::runtime_error(
            "step " + std::to_string(steps_) + ": vertex " + std::to_string(closest.vertex) + " and edge "
            + std::to_string(closest.edge) + " are " + std::to_string(closest.distance)
            + " apart, not more than the separation " + std::to_string(settings_.separation));
    }
    stats.min_distance = closest.distance;
    stats.ceiling_height = ceiling_height();
    stats.energy = energy(x_, x_hat);
    stats.active_pairs = active_pairs(x_).size();
    ++steps_;
    return stats;
}

} // namespace ccdkit
