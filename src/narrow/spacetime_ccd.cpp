// SPDX-License-Identifier: MIT
#include "core/details/ieee_arithmetic_scope.hpp"
#include "narrow/details/contact_normal.hpp"
#include "narrow/details/query_motion.hpp"
#include "narrow/details/simplex_intersection.hpp"

#include <ccdkit/narrow/spacetime_ccd.hpp>

#include <algorithm>
#include <array>
#include <optional>

namespace ccdkit {

namespace {
    using details::QueryMotion;
    using details::Simplex;

    /// A space-time vertex: query point `point` (0..3) at time `time` (0 or 1).
    struct Corner {
        int point = 0;
        int time = 0;
    };

    /// A space-time simplex as corners (2 to 4 of them).
    struct CornerList {
        std::array<Corner, 4> corner {};
        int size = 0;
    };

    /// The earliest contact found: its time and each query point's weight (its two copies summed; the
    /// first primitive's points sum to 1, and so do the second's).
    struct SpacetimeContact {
        double time = 1.0;
        std::array<double, 4> weight {};
    };

    /// The points of one primitive ordered by id (ties keep the given order).
    template <std::size_t N> [[nodiscard]] std::array<int, N> by_id(std::array<int, N> points, const SpacetimeIds& ids)
    {
        std::stable_sort(points.begin(), points.end(), [&](int a, int b) { return ids[a] < ids[b]; });
        return points;
    }

    [[nodiscard]] CornerList path_of(int point) { return { { Corner { point, 0 }, Corner { point, 1 } }, 2 }; }

    /// The two triangles of edge (a, b)'s swept quad, id(a) < id(b): (a, b, b') and (a, a', b').
    [[nodiscard]] std::array<CornerList, 2> edge_triangles(std::array<int, 2> e)
    {
        const auto [a, b] = e;
        return { CornerList { { Corner { a, 0 }, Corner { b, 0 }, Corner { b, 1 } }, 3 },
                 CornerList { { Corner { a, 0 }, Corner { a, 1 }, Corner { b, 1 } }, 3 } };
    }

    /// The three tetrahedra of triangle (a, b, c)'s swept prism, id(a) < id(b) < id(c).
    [[nodiscard]] std::array<CornerList, 3> prism_tetrahedra(std::array<int, 3> f)
    {
        const auto [a, b, c] = f;
        return { CornerList { { Corner { a, 0 }, Corner { b, 0 }, Corner { c, 0 }, Corner { c, 1 } }, 4 },
                 CornerList { { Corner { a, 0 }, Corner { b, 0 }, Corner { b, 1 }, Corner { c, 1 } }, 4 },
                 CornerList { { Corner { a, 0 }, Corner { a, 1 }, Corner { b, 1 }, Corner { c, 1 } }, 4 } };
    }

    /// Tests every pair (one simplex of each primitive) and keeps the earliest contact.
    class SpacetimeQuery {
    public:
        /// @param[in] spatial_dim  2 (the motion's z is unused) or 3
        SpacetimeQuery(const QueryMotion& motion, int spatial_dim)
            : spatial_dim_(spatial_dim)
        {
            // Scaling by a power of two is exact, so it changes no sign; it lets the filter run.
            const std::optional<QueryMotion> unit = motion.scaled_to_unit();
            filter_ = unit.has_value();
            motion_ = unit ? *unit : motion;
        }

        template <std::size_t NP, std::size_t NQ>
        void run(const std::array<CornerList, NP>& first, const std::array<CornerList, NQ>& second)
        {
            for (const CornerList& p : first) {
                for (const CornerList& q : second) {
                    test(p, q);
                }
            }
        }

        [[nodiscard]] const std::optional<SpacetimeContact>& contact() const { return contact_; }
        [[nodiscard]] DecidedBy decided_by() const { return decided_by_; }

    private:
        [[nodiscard]] Simplex simplex_of(const CornerList& corners) const
        {
            Simplex s;
            s.size = corners.size;
            for (int i = 0; i < corners.size; ++i) {
                const Corner& c = corners.corner[i];
                const Eigen::Vector3d& x = c.time == 0 ? motion_.start[c.point] : motion_.end[c.point];
                for (int k = 0; k < spatial_dim_; ++k) {
                    s.vertex[i].x[k] = x[k];
                }
                s.vertex[i].x[spatial_dim_] = c.time;
            }
            return s;
        }

        /// Whether the bounding boxes of the two simplices are disjoint (exact: comparisons only).
        [[nodiscard]] bool boxes_apart(const Simplex& p, const Simplex& q) const
        {
            for (int k = 0; k <= spatial_dim_; ++k) {
                double p_lo = p.vertex[0].x[k], p_hi = p_lo, q_lo = q.vertex[0].x[k], q_hi = q_lo;
                for (int i = 1; i < p.size; ++i) {
                    p_lo = std::min(p_lo, p.vertex[i].x[k]);
                    p_hi = std::max(p_hi, p.vertex[i].x[k]);
                }
                for (int i = 1; i < q.size; ++i) {
                    q_lo = std::min(q_lo, q.vertex[i].x[k]);
                    q_hi = std::max(q_hi, q.vertex[i].x[k]);
                }
                if (p_hi < q_lo || q_hi < p_lo) {
                    return true;
                }
            }
            return false;
        }

        void test(const CornerList& p_corners, const CornerList& q_corners)
        {
            const Simplex p = simplex_of(p_corners), q = simplex_of(q_corners);
            if (boxes_apart(p, q)) {
                return;
            }
            details::SimplexIntersection intersection(spatial_dim_ + 1, filter_);
            const bool hit = intersection.intersect(p, q);
            decided_by_ = std::max(decided_by_, intersection.decided_by());
            if (!hit) {
                return;
            }
            SpacetimeContact found;
            found.time = 0.0; // without weights (they underflowed), the safe answer
            if (const auto& c = intersection.contact()) {
                for (int i = 0; i < p.size; ++i) {
                    found.time += c->p_weight[i] * p_corners.corner[i].time;
                    found.weight[p_corners.corner[i].point] += c->p_weight[i];
                }
                for (int i = 0; i < q.size; ++i) {
                    found.weight[q_corners.corner[i].point] += c->q_weight[i];
                }
                found.time = std::clamp(found.time, 0.0, 1.0);
            }
            if (!contact_ || found.time < contact_->time) {
                contact_ = found;
            }
        }

        int spatial_dim_;
        bool filter_ = false;
        QueryMotion motion_;
        std::optional<SpacetimeContact> contact_;
        DecidedBy decided_by_ = DecidedBy::FILTER;
    };

    /// Runs the query and fills the result; `contact_data(motion, contact, result)` sets the contact parameters
    /// and the (unoriented) normal from the contact's weights, on the unscaled motion. The second primitive's
    /// points are those from `second_first_point` on.
    template <std::size_t NP, std::size_t NQ, class ContactData>
    [[nodiscard]] CcdResult run_spacetime(
        const QueryMotion& motion,
        int spatial_dim,
        const std::array<CornerList, NP>& first,
        const std::array<CornerList, NQ>& second,
        int second_first_point,
        const CcdOptions& options,
        ContactData contact_data)
    {
        const details::IeeeArithmeticScope ieee;
        CcdResult result;
        result.toi_lower = result.toi_upper = options.t_max;
        if (!motion.is_finite() || !details::valid_options(options)) {
            result.status = CcdStatus::INVALID_INPUT;
            return result;
        }
        SpacetimeQuery query(motion, spatial_dim);
        query.run(first, second);
        result.decided_by = query.decided_by();
        const auto& contact = query.contact();
        if (!contact || contact->time > options.t_max) {
            return result;
        }
        result.hit = true;
        result.status = contact->time == 0.0 ? CcdStatus::INITIALLY_TOUCHING : CcdStatus::HIT;
        result.toi_lower = result.toi_upper = contact->time;
        contact_data(motion, *contact, result);
        std::array<double, 4> signed_weight = contact->weight;
        for (int i = second_first_point; i < 4; ++i) {
            signed_weight[i] = -signed_weight[i];
        }
        details::orient_normal(motion, signed_weight, result);
        return result;
    }

} // namespace

CcdResult spacetime_vertex_face_ccd(const VertexFaceMotion& motion, const SpacetimeIds& ids, const CcdOptions& options)
{
    return run_spacetime(
        details::to_query_motion(motion), 3, std::array { path_of(0) },
        prism_tetrahedra(by_id(std::array { 1, 2, 3 }, ids)), 1, options,
        [](const QueryMotion& m, const SpacetimeContact& c, CcdResult& result) {
            const auto x = m.at(c.time);
            result.contact = { c.weight[1], c.weight[2], c.weight[3] };
            const Eigen::Vector3d n = (x[2] - x[1]).cross(x[3] - x[1]);
            result.normal = n.squaredNorm() > 0.0 ? n.normalized() : Eigen::Vector3d::Zero();
        });
}

CcdResult spacetime_edge_edge_ccd(const EdgeEdgeMotion& motion, const SpacetimeIds& ids, const CcdOptions& options)
{
    return run_spacetime(
        details::to_query_motion(motion), 3, edge_triangles(by_id(std::array { 0, 1 }, ids)),
        edge_triangles(by_id(std::array { 2, 3 }, ids)), 2, options,
        [](const QueryMotion& m, const SpacetimeContact& c, CcdResult& result) {
            const auto x = m.at(c.time);
            const double s = c.weight[1], u = c.weight[3];
            result.contact = { s, u, 0.0 };
            const Eigen::Vector3d n = (x[1] - x[0]).cross(x[3] - x[2]);
            result.normal = n.squaredNorm() > 0.0 ? n.normalized() : Eigen::Vector3d::Zero();
        });
}

CcdResult spacetime_point_edge_ccd(const PointEdgeMotion2d& motion, const SpacetimeIds& ids, const CcdOptions& options)
{
    const auto lift = [](const Eigen::Vector2d& v) { return Eigen::Vector3d(v.x(), v.y(), 0.0); };
    // The fourth point repeats p so that scaling sees only the query's own coordinates.
    const QueryMotion m3 { { lift(motion.p_t0), lift(motion.e0_t0), lift(motion.e1_t0), lift(motion.p_t0) },
                           { lift(motion.p_t1), lift(motion.e0_t1), lift(motion.e1_t1), lift(motion.p_t1) } };
    return run_spacetime(
        m3, 2, std::array { path_of(0) }, edge_triangles(by_id(std::array { 1, 2 }, ids)), 1, options,
        [](const QueryMotion& m, const SpacetimeContact& c, CcdResult& result) {
            const auto x = m.at(c.time);
            const double s = c.weight[2];
            result.contact = { 1.0 - s, s, 0.0 };
            const Eigen::Vector3d d = x[2] - x[1];
            const Eigen::Vector3d n(-d.y(), d.x(), 0.0);
            result.normal = n.squaredNorm() > 0.0 ? n.normalized() : Eigen::Vector3d::Zero();
        });
}

} // namespace ccdkit
