// SPDX-License-Identifier: MIT
// Exact space-time CCD oracle. See convex_hull_oracle.hpp for the model.
//
// Outline:
//  * a query's doubles become exact rationals and are assembled into the space-time simplices of the model
//    (vertex paths, edge triangles, prism tetrahedra), the time coordinate being 0 or 1;
//  * two simplices meet iff the linear program
//        alpha >= 0, beta >= 0, sum alpha = 1, sum beta = 1, sum alpha_i P_i - sum beta_j Q_j = 0
//    is feasible; phase 1 of the simplex method minimizes the sum of one artificial variable per equation,
//    and the program is feasible iff that minimum is 0;
//  * the start basis holds alpha_0 and beta_0 in the two sum rows, so only the coordinate rows need
//    artificial variables; each coordinate row is scaled to integers first;
//  * pivots follow Bland's rule (smallest-index entering and leaving variables), so the method cannot cycle
//    on the many degenerate programs that touching and coplanar configurations produce. An artificial
//    variable that leaves the basis is dropped for good (it is never worth re-entering in phase 1);
//  * "contact by time t" adds one inequality (the common point's time coordinate <= t) with a slack variable,
//    which brackets the earliest contact time exactly.

#include "oracle/convex_hull_oracle.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ccdkit::oracle {

namespace {

    /// Storage reused from one program to the next (allocation would otherwise dominate these small programs);
    /// one program at a time per thread.
    struct Workspace {
        std::vector<mpq_class> a, cost;
        std::vector<std::size_t> basis;
        std::vector<bool> basic;
        mpq_class pivot, factor, lhs, rhs;
    };

    /// Phase 1 of the simplex method on A x = b, x >= 0, b >= 0.
    ///
    /// Some rows start with a real variable basic (the caller gives it a unit column); every other row gets an
    /// artificial variable, and phase 1 minimizes their sum. The tableau keeps only the real columns and the
    /// right-hand side: an artificial variable's column is needed neither for the ratio test nor for the
    /// pivots once it is out of the basis, and it never comes back. Variables are ordered for Bland's rule as
    /// artificial ones first (row r's is r), then the real ones (column j is rows + j), so that ties in the
    /// ratio test push artificial variables out first.
    class PhaseOne {
    public:
        PhaseOne(std::size_t rows, std::size_t cols)
            : rows_(rows)
            , cols_(cols)
            , width_(cols + 1)
            , w_(workspace())
        {
            w_.a.resize(std::max(w_.a.size(), rows * width_));
            w_.cost.resize(std::max(w_.cost.size(), width_));
            for (std::size_t i = 0; i < rows * width_; ++i) {
                w_.a[i] = 0;
            }
            for (std::size_t j = 0; j < width_; ++j) {
                w_.cost[j] = 0;
            }
            w_.basis.resize(rows);
            for (std::size_t r = 0; r < rows; ++r) {
                w_.basis[r] = r;
            }
            w_.basic.assign(cols, false);
        }

        mpq_class& at(std::size_t r, std::size_t j) { return w_.a[r * width_ + j]; }
        mpq_class& rhs(std::size_t r) { return w_.a[r * width_ + cols_]; }

        /// Multiplies row r by the lcm of its entries' denominators (an equivalent equation, integer entries).
        void scale_row_to_integers(std::size_t r)
        {
            mpz_class l = 1;
            for (std::size_t j = 0; j <= cols_; ++j) {
                mpz_lcm(l.get_mpz_t(), l.get_mpz_t(), at(r, j).get_den_mpz_t());
            }
            if (l != 1) {
                for (std::size_t j = 0; j <= cols_; ++j) {
                    if (sgn(at(r, j)) != 0) {
                        at(r, j) *= l;
                    }
                }
            }
        }

        /// Makes column j basic in row r; the caller has made that column a unit vector with its 1 in row r.
        void set_basic(std::size_t r, std::size_t j)
        {
            w_.basis[r] = rows_ + j;
            w_.basic[j] = true;
        }

        /// Whether the program is feasible; call once, after filling the tableau with b >= 0.
        bool feasible()
        {
            // Reduced costs of minimizing the sum of the artificial variables: minus the sums of their rows'
            // entries (the basic real columns get 0, their entries being 0 in those rows).
            for (std::size_t r = 0; r < rows_; ++r) {
                if (w_.basis[r] >= rows_) {
                    continue;
                }
                for (std::size_t j = 0; j <= cols_; ++j) {
                    if (sgn(at(r, j)) != 0) {
                        w_.cost[j] -= at(r, j);
                    }
                }
            }
            for (;;) {
                // w_.cost[cols_] is minus the current sum of the artificial variables.
                if (sgn(w_.cost[cols_]) == 0) {
                    return true; // every artificial variable is 0: a feasible point
                }
                std::size_t enter = cols_;
                for (std::size_t j = 0; j < cols_; ++j) {
                    if (!w_.basic[j] && sgn(w_.cost[j]) < 0) {
                        enter = j; // Bland: the lowest-index improving column
                        break;
                    }
                }
                if (enter == cols_) {
                    return false; // optimal with a positive sum: infeasible
                }
                std::size_t leave = rows_;
                for (std::size_t r = 0; r < rows_; ++r) {
                    if (sgn(at(r, enter)) <= 0) {
                        continue;
                    }
                    if (leave == rows_) {
                        leave = r;
                        continue;
                    }
                    // Compare rhs(r) / at(r, enter) with rhs(leave) / at(leave, enter); denominators are > 0.
                    w_.lhs = rhs(r) * at(leave, enter);
                    w_.rhs = rhs(leave) * at(r, enter);
                    const int c = cmp(w_.lhs, w_.rhs);
                    if (c < 0 || (c == 0 && w_.basis[r] < w_.basis[leave])) {
                        leave = r; // Bland: among the tied rows, the lowest-index basic variable leaves
                    }
                }
                // Phase 1 is bounded below by 0, so an improving column always has a positive entry.
                if (leave == rows_) {
                    throw std::logic_error("convex_hulls_intersect: unbounded phase 1");
                }
                pivot(leave, enter);
            }
        }

    private:
        void pivot(std::size_t p, std::size_t c)
        {
            w_.pivot = at(p, c);
            for (std::size_t j = 0; j <= cols_; ++j) {
                if (sgn(at(p, j)) != 0) {
                    at(p, j) /= w_.pivot;
                }
            }
            for (std::size_t r = 0; r < rows_; ++r) {
                if (r != p && sgn(at(r, c)) != 0) {
                    eliminate(&at(r, 0), p, c);
                }
            }
            if (sgn(w_.cost[c]) != 0) {
                eliminate(w_.cost.data(), p, c);
            }
            if (w_.basis[p] >= rows_) {
                w_.basic[w_.basis[p] - rows_] = false;
            }
            set_basic(p, c);
        }

        /// row -= row[c] * (pivot row p), for a row of width_ entries.
        void eliminate(mpq_class* row, std::size_t p, std::size_t c)
        {
            w_.factor = row[c];
            for (std::size_t j = 0; j <= cols_; ++j) {
                const mpq_class& v = at(p, j);
                if (sgn(v) != 0) {
                    w_.lhs = w_.factor * v;
                    row[j] -= w_.lhs;
                }
            }
        }

        static Workspace& workspace()
        {
            thread_local Workspace w;
            return w;
        }

        std::size_t rows_, cols_, width_;
        Workspace& w_;
    };

    void check_id_pair(std::int64_t a, std::int64_t b)
    {
        if (a == b) {
            throw std::invalid_argument(
                "space-time oracle: two vertices of one primitive share the id " + std::to_string(a));
        }
    }

    /// convex_hulls_intersect, optionally only counting common points whose last coordinate is <= *bound.
    bool hulls_meet(const RationalPoints& P, const RationalPoints& Q, const mpq_class* bound)
    {
        if (P.empty() || Q.empty()) {
            return false;
        }
        const std::size_t n = P.front().size();
        if (n == 0) {
            throw std::invalid_argument("convex_hulls_intersect: points of dimension 0");
        }
        for (const auto* list : { &P, &Q }) {
            for (const RationalPoint& x : *list) {
                if (x.size() != n) {
                    throw std::invalid_argument("convex_hulls_intersect: points of different dimensions");
                }
            }
        }
        // Exact bounding boxes: disjoint in one coordinate means disjoint hulls. A coordinate that is one and the
        // same constant for every point gives the equation c - c = 0 (given the two sums): it is left out.
        std::vector<std::size_t> coordinates;
        coordinates.reserve(n);
        for (std::size_t k = 0; k < n; ++k) {
            const auto by_k = [k](const RationalPoint& a, const RationalPoint& b) { return a[k] < b[k]; };
            const auto [p_min, p_max] = std::minmax_element(P.begin(), P.end(), by_k);
            const auto [q_min, q_max] = std::minmax_element(Q.begin(), Q.end(), by_k);
            if ((*p_max)[k] < (*q_min)[k] || (*q_max)[k] < (*p_min)[k]) {
                return false;
            }
            if (bound != nullptr && k == n - 1 && (*bound < (*p_min)[k] || *bound < (*q_min)[k])) {
                return false; // every point of one hull is beyond the bound
            }
            if ((*p_min)[k] != (*p_max)[k] || (*q_min)[k] != (*q_max)[k] || (*p_min)[k] != (*q_min)[k]) {
                coordinates.push_back(k);
            }
        }
        // Rows: one per kept coordinate k (sum alpha_i P_i[k] - sum beta_j Q_j[k] = 0), then sum alpha = 1 and
        // sum beta = 1; columns: alpha, then beta. The start basis has alpha_0 in the first sum row and beta_0 in
        // the second: pivoting them in turns coordinate row k into
        //     sum_{i > 0} alpha_i (P_i[k] - P_0[k]) + sum_{j > 0} beta_j (Q_0[k] - Q_j[k]) = Q_0[k] - P_0[k],
        // negated where the right-hand side is negative, and only those rows need artificial variables.
        const std::size_t m = P.size(), d = coordinates.size(), rows = d + 2 + (bound != nullptr ? 1 : 0);
        PhaseOne lp(rows, m + Q.size() + (bound != nullptr ? 1 : 0));
        for (std::size_t r = 0; r < d; ++r) {
            const std::size_t k = coordinates[r];
            const bool negate = Q[0][k] < P[0][k];
            lp.rhs(r) = negate ? P[0][k] - Q[0][k] : Q[0][k] - P[0][k];
            for (std::size_t i = 1; i < m; ++i) {
                lp.at(r, i) = negate ? P[0][k] - P[i][k] : P[i][k] - P[0][k];
            }
            for (std::size_t j = 1; j < Q.size(); ++j) {
                lp.at(r, m + j) = negate ? Q[j][k] - Q[0][k] : Q[0][k] - Q[j][k];
            }
        }
        for (std::size_t r = 0; r < d; ++r) {
            lp.scale_row_to_integers(r);
        }
        for (std::size_t i = 0; i < m; ++i) {
            lp.at(d, i) = 1;
        }
        for (std::size_t j = 0; j < Q.size(); ++j) {
            lp.at(d + 1, m + j) = 1;
        }
        lp.rhs(d) = 1;
        lp.rhs(d + 1) = 1;
        lp.set_basic(d, 0);
        lp.set_basic(d + 1, m);
        if (bound != nullptr) {
            // sum alpha_i P_i[n - 1] + s = bound with a slack s >= 0; after the substitution of alpha_0:
            //     sum_{i > 0} alpha_i (P_i[n - 1] - P_0[n - 1]) + s = bound - P_0[n - 1].
            // With a right-hand side >= 0 the slack starts basic, else the row is negated and gets an artificial.
            const std::size_t r = d + 2, last = n - 1;
            const bool negate = *bound < P[0][last];
            lp.rhs(r) = negate ? P[0][last] - *bound : *bound - P[0][last];
            for (std::size_t i = 1; i < m; ++i) {
                lp.at(r, i) = negate ? P[0][last] - P[i][last] : P[i][last] - P[0][last];
            }
            lp.at(r, m + Q.size()) = negate ? -1 : 1;
            lp.scale_row_to_integers(r);
            if (!negate) {
                lp.set_basic(r, m + Q.size());
            }
        }
        return lp.feasible();
    }

} // namespace

bool convex_hulls_intersect(const RationalPoints& P, const RationalPoints& Q) { return hulls_meet(P, Q, nullptr); }

bool convex_hulls_intersect_up_to(const RationalPoints& P, const RationalPoints& Q, const mpq_class& bound)
{
    return hulls_meet(P, Q, &bound);
}

mpq_class to_rational(double x)
{
    if (!std::isfinite(x)) {
        throw std::invalid_argument("space-time oracle: a coordinate is not finite");
    }
    return mpq_class(x); // exact: a double is a dyadic rational
}

RationalPoint spacetime_point(const Eigen::Ref<const Eigen::VectorXd>& x, int t)
{
    RationalPoint p;
    p.reserve(static_cast<std::size_t>(x.size()) + 1);
    for (Eigen::Index k = 0; k < x.size(); ++k) {
        p.push_back(to_rational(x[k]));
    }
    p.emplace_back(t);
    return p;
}

RationalPoints
spacetime_vertex_path(const Eigen::Ref<const Eigen::VectorXd>& x_t0, const Eigen::Ref<const Eigen::VectorXd>& x_t1)
{
    return { spacetime_point(x_t0, 0), spacetime_point(x_t1, 1) };
}

std::array<RationalPoints, 2> spacetime_edge_triangles(
    const Eigen::Ref<const Eigen::VectorXd>& e0_t0,
    const Eigen::Ref<const Eigen::VectorXd>& e1_t0,
    const Eigen::Ref<const Eigen::VectorXd>& e0_t1,
    const Eigen::Ref<const Eigen::VectorXd>& e1_t1,
    std::int64_t id0,
    std::int64_t id1)
{
    check_id_pair(id0, id1);
    const bool in_order = id0 < id1;
    const RationalPoint a = spacetime_point(in_order ? e0_t0 : e1_t0, 0);
    const RationalPoint a1 = spacetime_point(in_order ? e0_t1 : e1_t1, 1);
    const RationalPoint b = spacetime_point(in_order ? e1_t0 : e0_t0, 0);
    const RationalPoint b1 = spacetime_point(in_order ? e1_t1 : e0_t1, 1);
    return { RationalPoints { a, b, b1 }, RationalPoints { a, a1, b1 } };
}

std::array<RationalPoints, 3> spacetime_prism_tetrahedra(
    const Eigen::Vector3d& f0_t0,
    const Eigen::Vector3d& f1_t0,
    const Eigen::Vector3d& f2_t0,
    const Eigen::Vector3d& f0_t1,
    const Eigen::Vector3d& f1_t1,
    const Eigen::Vector3d& f2_t1,
    const std::array<std::int64_t, 3>& ids)
{
    check_id_pair(ids[0], ids[1]);
    check_id_pair(ids[0], ids[2]);
    check_id_pair(ids[1], ids[2]);
    std::array<int, 3> order = { 0, 1, 2 };
    std::sort(order.begin(), order.end(), [&ids](int i, int j) { return ids[i] < ids[j]; });
    const std::array<const Eigen::Vector3d*, 3> at_t0 = { &f0_t0, &f1_t0, &f2_t0 };
    const std::array<const Eigen::Vector3d*, 3> at_t1 = { &f0_t1, &f1_t1, &f2_t1 };
    const RationalPoint a = spacetime_point(*at_t0[order[0]], 0);
    const RationalPoint b = spacetime_point(*at_t0[order[1]], 0);
    const RationalPoint c = spacetime_point(*at_t0[order[2]], 0);
    const RationalPoint a1 = spacetime_point(*at_t1[order[0]], 1);
    const RationalPoint b1 = spacetime_point(*at_t1[order[1]], 1);
    const RationalPoint c1 = spacetime_point(*at_t1[order[2]], 1);
    return { RationalPoints { a, b, c, c1 }, RationalPoints { a, b, b1, c1 }, RationalPoints { a, a1, b1, c1 } };
}

namespace {

    bool vertex_face(const VertexFaceMotion& m, const SpacetimeIds& ids, const mpq_class* t_bound)
    {
        const RationalPoints path = spacetime_vertex_path(m.p_t0, m.p_t1);
        const auto tetrahedra = spacetime_prism_tetrahedra(
            m.t0_t0, m.t1_t0, m.t2_t0, m.t0_t1, m.t1_t1, m.t2_t1, { ids[1], ids[2], ids[3] });
        return std::any_of(tetrahedra.begin(), tetrahedra.end(), [&](const RationalPoints& tetrahedron) {
            return hulls_meet(path, tetrahedron, t_bound);
        });
    }

    bool edge_edge(const EdgeEdgeMotion& m, const SpacetimeIds& ids, const mpq_class* t_bound)
    {
        const auto a = spacetime_edge_triangles(m.ea0_t0, m.ea1_t0, m.ea0_t1, m.ea1_t1, ids[0], ids[1]);
        const auto b = spacetime_edge_triangles(m.eb0_t0, m.eb1_t0, m.eb0_t1, m.eb1_t1, ids[2], ids[3]);
        for (const RationalPoints& ta : a) {
            for (const RationalPoints& tb : b) {
                if (hulls_meet(ta, tb, t_bound)) {
                    return true;
                }
            }
        }
        return false;
    }

    bool point_edge(const PointEdgeMotion2d& m, const SpacetimeIds& ids, const mpq_class* t_bound)
    {
        const RationalPoints path = spacetime_vertex_path(m.p_t0, m.p_t1);
        const auto triangles = spacetime_edge_triangles(m.e0_t0, m.e1_t0, m.e0_t1, m.e1_t1, ids[1], ids[2]);
        return hulls_meet(path, triangles[0], t_bound) || hulls_meet(path, triangles[1], t_bound);
    }

} // namespace

bool spacetime_vertex_face_oracle(const VertexFaceMotion& motion, const SpacetimeIds& ids)
{
    return vertex_face(motion, ids, nullptr);
}

bool spacetime_edge_edge_oracle(const EdgeEdgeMotion& motion, const SpacetimeIds& ids)
{
    return edge_edge(motion, ids, nullptr);
}

bool spacetime_point_edge_oracle(const PointEdgeMotion2d& motion, const SpacetimeIds& ids)
{
    return point_edge(motion, ids, nullptr);
}

bool spacetime_vertex_face_contact_by(const VertexFaceMotion& motion, const SpacetimeIds& ids, const mpq_class& t)
{
    return vertex_face(motion, ids, &t);
}

bool spacetime_edge_edge_contact_by(const EdgeEdgeMotion& motion, const SpacetimeIds& ids, const mpq_class& t)
{
    return edge_edge(motion, ids, &t);
}

bool spacetime_point_edge_contact_by(const PointEdgeMotion2d& motion, const SpacetimeIds& ids, const mpq_class& t)
{
    return point_edge(motion, ids, &t);
}

namespace {

    /// A point of the plane or of space (no time coordinate), exactly.
    RationalPoint plain_point(const Eigen::Ref<const Eigen::VectorXd>& x)
    {
        RationalPoint p;
        for (Eigen::Index k = 0; k < x.size(); ++k) {
            p.push_back(to_rational(x[k]));
        }
        return p;
    }

} // namespace

bool vertex_face_touching_at_start(const VertexFaceMotion& m)
{
    return convex_hulls_intersect(
        { plain_point(m.p_t0) }, { plain_point(m.t0_t0), plain_point(m.t1_t0), plain_point(m.t2_t0) });
}

bool edge_edge_touching_at_start(const EdgeEdgeMotion& m)
{
    return convex_hulls_intersect(
        { plain_point(m.ea0_t0), plain_point(m.ea1_t0) }, { plain_point(m.eb0_t0), plain_point(m.eb1_t0) });
}

bool point_edge_touching_at_start(const PointEdgeMotion2d& m)
{
    return convex_hulls_intersect({ plain_point(m.p_t0) }, { plain_point(m.e0_t0), plain_point(m.e1_t0) });
}

} // namespace ccdkit::oracle
