// SPDX-License-Identifier: MIT
// Exact ground truth for the space-time CCD model (include/ccdkit/narrow/spacetime_ccd.hpp).
//
// Written independently of the library's method: whether two closed convex hulls share a point is
// decided as the feasibility of a linear program, solved by the simplex method (phase 1 with
// artificial variables, Bland's rule) in GMP rationals. There are no orientation determinants and
// no floating point: the doubles of a query are converted to rationals exactly, and every
// comparison and pivot is exact.
#pragma once

#include <ccdkit/narrow/spacetime_ccd.hpp>

#include <Eigen/Core>
#include <gmpxx.h>

#include <array>
#include <cstdint>
#include <vector>

namespace ccdkit::oracle {

/// A point of R^n with exact rational coordinates.
using RationalPoint = std::vector<mpq_class>;
/// A finite list of points; its closed convex hull is the set it stands for (a simplex, possibly degenerate).
using RationalPoints = std::vector<RationalPoint>;

/// Whether the closed convex hulls of two finite point lists in R^n share a point (exact).
///
/// Solved as the feasibility of alpha_i >= 0, beta_j >= 0, sum alpha = 1, sum beta = 1,
/// sum alpha_i P_i - sum beta_j Q_j = 0 with the simplex method (phase 1, Bland's rule) in rationals;
/// an exact per-coordinate bounding-box test rejects disjoint boxes first.
/// @param[in] P, Q points of one common dimension n >= 1 (meant for n <= 6, any n works); repeated points are
///   allowed. An empty list has an empty hull, so the answer is then false.
/// Points of different dimensions, or of dimension 0, throw std::invalid_argument.
bool convex_hulls_intersect(const RationalPoints& P, const RationalPoints& Q);

/// Whether the closed convex hulls share a point whose last coordinate is <= bound (exact): the same program with
/// one more inequality. With time as the last coordinate, this says whether contact happens by time `bound`.
bool convex_hulls_intersect_up_to(const RationalPoints& P, const RationalPoints& Q, const mpq_class& bound);

/// The exact rational value of a finite double; NaN or infinity throws std::invalid_argument.
mpq_class to_rational(double x);

/// The space-time point (x, t) of a point x of the plane or of space at time t (exact).
RationalPoint spacetime_point(const Eigen::Ref<const Eigen::VectorXd>& x, int t);

/// The space-time path of a vertex moving from x_t0 to x_t1: the segment from (x_t0, 0) to (x_t1, 1).
RationalPoints
spacetime_vertex_path(const Eigen::Ref<const Eigen::VectorXd>& x_t0, const Eigen::Ref<const Eigen::VectorXd>& x_t1);

/// The two space-time triangles that replace the surface an edge sweeps, split along the diagonal from the
/// lower-id endpoint at t = 0 to the higher-id endpoint at t = 1: (a, b, b') and (a, a', b') for id(a) < id(b),
/// where a is the position at t = 0 and a' at t = 1. Equal ids throw std::invalid_argument.
std::array<RationalPoints, 2> spacetime_edge_triangles(
    const Eigen::Ref<const Eigen::VectorXd>& e0_t0,
    const Eigen::Ref<const Eigen::VectorXd>& e1_t0,
    const Eigen::Ref<const Eigen::VectorXd>& e0_t1,
    const Eigen::Ref<const Eigen::VectorXd>& e1_t1,
    std::int64_t id0,
    std::int64_t id1);

/// The three space-time tetrahedra that replace the prism a triangle sweeps: with its vertices sorted by id,
/// id(a) < id(b) < id(c), they are (a, b, c, c'), (a, b, b', c') and (a, a', b', c'). Equal ids throw
/// std::invalid_argument.
std::array<RationalPoints, 3> spacetime_prism_tetrahedra(
    const Eigen::Vector3d& f0_t0,
    const Eigen::Vector3d& f1_t0,
    const Eigen::Vector3d& f2_t0,
    const Eigen::Vector3d& f0_t1,
    const Eigen::Vector3d& f1_t1,
    const Eigen::Vector3d& f2_t1,
    const std::array<std::int64_t, 3>& ids);

/// Exact answer of the space-time model for a vertex against a face: the vertex's path meets one of the face's
/// tetrahedra (in 4D). ids are (p, t0, t1, t2); the face's three must be distinct (else std::invalid_argument).
/// Non-finite coordinates throw std::invalid_argument.
bool spacetime_vertex_face_oracle(const VertexFaceMotion& motion, const SpacetimeIds& ids);

/// Exact answer of the space-time model for two edges: a triangle of one meets a triangle of the other (in 4D).
/// ids are (ea0, ea1, eb0, eb1); each edge's two must differ (else std::invalid_argument).
bool spacetime_edge_edge_oracle(const EdgeEdgeMotion& motion, const SpacetimeIds& ids);

/// Exact answer of the space-time model for a point against an edge in the plane: the point's path meets one
/// of the edge's triangles in (x, y, t). ids are (p, e0, e1) in the first three entries; e0's and e1's must
/// differ (else std::invalid_argument).
bool spacetime_point_edge_oracle(const PointEdgeMotion2d& motion, const SpacetimeIds& ids);

/// Whether the space-time model has a contact at some time <= t (exact): with the answers for two times, the
/// earliest contact time t* is bracketed, e.g. t* <= t exactly when spacetime_vertex_face_contact_by(m, ids, t).
bool spacetime_vertex_face_contact_by(const VertexFaceMotion& motion, const SpacetimeIds& ids, const mpq_class& t);
bool spacetime_edge_edge_contact_by(const EdgeEdgeMotion& motion, const SpacetimeIds& ids, const mpq_class& t);
bool spacetime_point_edge_contact_by(const PointEdgeMotion2d& motion, const SpacetimeIds& ids, const mpq_class& t);

/// Exact contact at t = 0 (touching at the start) in the space-time model: the slice t = 0 of the space-time
/// simplices is the primitives at their start positions, so these are closed point/segment/triangle tests in
/// 3D (or 2D).
bool vertex_face_touching_at_start(const VertexFaceMotion& motion);
bool edge_edge_touching_at_start(const EdgeEdgeMotion& motion);
bool point_edge_touching_at_start(const PointEdgeMotion2d& motion);

} // namespace ccdkit::oracle
