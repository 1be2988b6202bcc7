// SPDX-License-Identifier: MIT
#include "broad/details/candidate_blocks.hpp"
#include "core/details/ieee_arithmetic_tasks.hpp"
#include "mesh/details/index_check.hpp"
#include "narrow/details/additive_stepping.hpp"

#include <ccdkit/broad/aabb.hpp>
#include <ccdkit/narrow/edge_edge_ccd.hpp>
#include <ccdkit/narrow/vertex_face_ccd.hpp>
#include <ccdkit/response/line_search_filter.hpp>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>

namespace ccdkit {

namespace {
    using details::Pair;

    [[noreturn]] void fail(const std::string& what) { throw std::invalid_argument("largest_safe_step: " + what); }

    void check_input(
        const Eigen::MatrixXd& x,
        const Eigen::MatrixXd& p,
        const Eigen::MatrixX2i& edges,
        const Eigen::MatrixX3i& faces,
        const LineSearchFilterOptions& options)
    {
        if (x.cols() != 2 && x.cols() != 3) {
            fail("positions must have 2 or 3 columns, not " + std::to_string(x.cols()));
        }
        if (p.rows() != x.rows() || p.cols() != x.cols()) {
            fail(
                "direction is " + std::to_string(p.rows()) + " x " + std::to_string(p.cols()) + " but positions are "
                + std::to_string(x.rows()) + " x " + std::to_string(x.cols()));
        }
        if (x.cols() == 2 && faces.rows() != 0) {
            fail("faces given for 2D positions");
        }
        for (Eigen::Index i = 0; i < x.rows(); ++i) {
            if (!x.row(i).allFinite() || !p.row(i).allFinite() || !(x.row(i) + p.row(i)).allFinite()) {
                fail("vertex " + std::to_string(i) + " has a non-finite position or direction");
            }
        }
        details::check_vertex_indices(edges, x.rows(), "largest_safe_step", "edge");
        details::check_vertex_indices(faces, x.rows(), "largest_safe_step", "face");
        if (!(options.min_distance >= 0.0) || !std::isfinite(options.min_distance)) {
            fail("min_distance must be finite and >= 0");
        }
        if (!(options.eta > 0.0 && options.eta < 1.0)) {
            fail("eta must be in (0, 1)");
        }
        if (options.max_iterations < 0) {
            fail("max_iterations must be >= 0");
        }
        if (!(options.tolerance > 0.0)) {
            fail("tolerance must be > 0");
        }
        if (options.narrow_phase == LineSearchNarrowPhase::EXACT && options.min_distance != 0.0) {
            fail("the exact narrow phase needs min_distance = 0 (use ADDITIVE for a separation)");
        }
    }

    /// The smallest step found so far and the pair that set it; ties go to the lowest (kind, first, second),
    /// so that the answer does not depend on the order in which threads finish.
    struct Limit {
        double alpha = 1.0;
        std::optional<LimitingPair> pair;

        void offer(double toi, const LimitingPair& candidate)
        {
            const auto key = [](const LimitingPair& q) { return std::tuple(q.kind, q.first, q.second); };
            if (toi < alpha || (toi == alpha && pair && key(candidate) < key(*pair))) {
                alpha = toi;
                pair = candidate;
            }
        }
    };

    /// Lowers `limit` by the safe steps of a block of pairs, in parallel; `rows(pair)` gives a pair's vertex
    /// rows. Pairs only matter before the current limit, so it is every query's t_max (the limit from earlier
    /// blocks: deterministic).
    template <class Step, class Rows>
    void limit_by(const std::vector<Pair>& pairs, LimitingPairKind kind, Limit& limit, const Step& step, Rows rows)
    {
        const double t_max = limit.alpha;
        if (!(t_max > 0.0)) {
            return;
        }
        tbb::enumerable_thread_specific<Limit> local;
        tbb::parallel_for(
            tbb::blocked_range<std::size_t>(0, pairs.size(), 64), [&](const tbb::blocked_range<std::size_t>& r) {
                Limit& mine = local.local();
                for (std::size_t i = r.begin(); i != r.end(); ++i) {
                    const double toi = step(rows(pairs[i]), t_max);
                    if (toi < t_max) {
                        mine.offer(toi, { kind, pairs[i].first, pairs[i].second });
                    }
                }
            });
        for (const Limit& l : local) {
            if (l.pair) {
                limit.offer(l.alpha, *l.pair);
            }
        }
    }

    /// The safe step of one pair from the motion x + s p (additive CCD), or from x to x + p (exact CCD).
    template <int Dim, int NA, int NB, class Directions> class PairStep {
    public:
        using Rows = std::array<Eigen::Index, NA + NB>; ///< the first primitive's NA vertex rows, then the second's
        using Points = std::array<Eigen::Matrix<double, Dim, 1>, NA + NB>;

        PairStep(const Eigen::MatrixXd& x, const Eigen::MatrixXd& p, const LineSearchFilterOptions& options)
            : x_(x)
            , p_(p)
            , options_(options)
        {
        }

        [[nodiscard]] double operator()(const Rows& rows, double t_max) const
        {
            if (options_.narrow_phase == LineSearchNarrowPhase::ADDITIVE) {
                const AdditiveCcdOptions additive { options_.min_distance, options_.eta, t_max,
                                                    options_.max_iterations };
                return details::additive_ccd<Dim, NA, NB>(
                           gather(x_, rows), gather(p_, rows), true, additive, Directions {})
                    .toi;
            }
            return exact(rows, t_max);
        }

    private:
        /// Exact CCD's time-of-impact interval depends on t_max: always the full step, so that the answer does
        /// not depend on the order of the blocks.
        [[nodiscard]] double exact(const Rows& rows, double t_max) const
        {
            const Points a = gather(x_, rows), d = gather(p_, rows);
            const CcdOptions exact { 1.0, options_.tolerance, CcdMethod::EXACT };
            const auto at = [&](int i, double s) -> Eigen::Vector3d {
                Eigen::Vector3d v = Eigen::Vector3d::Zero();
                v.head<Dim>() = a[i] + s * d[i];
                return v;
            };
            CcdResult r;
            if constexpr (NA == 1 && NB == 3) {
                r = vertex_face_ccd(
                    { at(0, 0), at(1, 0), at(2, 0), at(3, 0), at(0, 1), at(1, 1), at(2, 1), at(3, 1) }, exact);
            } else if constexpr (NA == 2 && NB == 2) {
                r = edge_edge_ccd(
                    { at(0, 0), at(1, 0), at(2, 0), at(3, 0), at(0, 1), at(1, 1), at(2, 1), at(3, 1) }, exact);
            } else {
                // 2D point-edge: the point as a zero-length edge in the plane z = 0.
                r = edge_edge_ccd(
                    { at(0, 0), at(0, 0), at(1, 0), at(2, 0), at(0, 1), at(0, 1), at(1, 1), at(2, 1) }, exact);
            }
            return r.hit ? std::min(r.toi_lower, t_max) : t_max;
        }

        static Points gather(const Eigen::MatrixXd& m, const Rows& rows)
        {
            Points out;
            for (int i = 0; i < NA + NB; ++i) {
                out[i] = m.row(rows[i]).transpose();
            }
            return out;
        }

        const Eigen::MatrixXd& x_;
        const Eigen::MatrixXd& p_;
        const LineSearchFilterOptions& options_;
    };
} // namespace

/// largest_safe_step() after its checks, in plain IEEE arithmetic.
static LineSearchFilterResult safe_step_in_ieee_arithmetic(
    const Eigen::MatrixXd& x,
    const Eigen::MatrixXd& p,
    const Eigen::MatrixX2i& edges,
    const Eigen::MatrixX3i& faces,
    const LineSearchFilterOptions& options)
{
    const bool planar = x.cols() == 2;
    const auto start = details::Clock::now();
    // Swept boxes over the straight motion from x to x + p, padded with z = 0 in 2D. Rounding x + p moves an
    // end by at most u |x + p|; a margin of 2 u max|x + p| keeps every true position inside. Half the
    // separation on each box makes any two points within min_distance of each other overlap.
    Eigen::MatrixX3d v0 = Eigen::MatrixX3d::Zero(x.rows(), 3), v1 = v0;
    v0.leftCols(x.cols()) = x;
    v1.leftCols(x.cols()) = x + p;
    const double largest = v1.size() > 0 ? v1.cwiseAbs().maxCoeff() : 0.0;
    const double inflation = 0.5 * options.min_distance + 0x1p-52 * largest;
    const details::SortedBoxes vertex_sorted(vertex_boxes(v0, v1, inflation));
    const details::SortedBoxes edge_sorted(edge_boxes(v0, v1, edges, inflation));
    details::PhaseCosts costs;
    costs.broad_phase_ms += details::elapsed_ms(start);
    const details::CandidateBlockSettings settings { options.broad_phase, options.block_size, 0, {} };

    LineSearchFilterResult result;
    Limit limit;
    if (planar) {
        const PairStep<2, 1, 2, details::PointEdgeDirections> step(x, p, options);
        details::for_each_candidate_block(
            edge_sorted.boxes, vertex_sorted.boxes, QueryScope::ALL_PAIRS, settings, costs,
            [&](std::vector<Pair>& pairs) {
                details::keep_vertex_element_pairs(pairs, vertex_sorted, edge_sorted, edges);
                result.candidates += pairs.size();
                limit_by(pairs, LimitingPairKind::VERTEX_EDGE, limit, step, [&](const Pair& q) {
                    return decltype(step)::Rows { q.first, edges(q.second, 0), edges(q.second, 1) };
                });
            });
    } else {
        const details::SortedBoxes face_sorted(face_boxes(v0, v1, faces, inflation));
        const PairStep<3, 1, 3, details::VertexFaceDirections> vertex_face(x, p, options);
        details::for_each_candidate_block(
            face_sorted.boxes, vertex_sorted.boxes, QueryScope::ALL_PAIRS, settings, costs,
            [&](std::vector<Pair>& pairs) {
                details::keep_vertex_element_pairs(pairs, vertex_sorted, face_sorted, faces);
                result.candidates += pairs.size();
                limit_by(pairs, LimitingPairKind::VERTEX_FACE, limit, vertex_face, [&](const Pair& q) {
                    return decltype(vertex_face)::Rows { q.first, faces(q.second, 0), faces(q.second, 1),
                                                         faces(q.second, 2) };
                });
            });
        const PairStep<3, 2, 2, details::EdgeEdgeDirections> edge_edge(x, p, options);
        details::for_each_candidate_block(
            edge_sorted.boxes, edge_sorted.boxes, QueryScope::SELF_PAIRS, settings, costs,
            [&](std::vector<Pair>& pairs) {
                details::keep_edge_edge_pairs(pairs, edge_sorted, edges);
                result.candidates += pairs.size();
                limit_by(pairs, LimitingPairKind::EDGE_EDGE, limit, edge_edge, [&](const Pair& q) {
                    return decltype(edge_edge)::Rows { edges(q.first, 0), edges(q.first, 1), edges(q.second, 0),
                                                       edges(q.second, 1) };
                });
            });
    }
    result.alpha = limit.alpha;
    result.limiting_pair = limit.pair;
    result.broad_phase_ms = costs.broad_phase_ms;
    result.narrow_phase_ms = costs.narrow_phase_ms;
    return result;
}

LineSearchFilterResult largest_safe_step(
    const Eigen::MatrixXd& x,
    const Eigen::MatrixXd& p,
    const Eigen::MatrixX2i& edges,
    const Eigen::MatrixX3i& faces,
    const LineSearchFilterOptions& options)
{
    check_input(x, p, edges, faces, options);
    // The boxes' rounding margin and the narrow phases' certified steps assume gradual underflow, on every
    // oneTBB task (see ieee_arithmetic_tasks.hpp).
    return details::with_ieee_arithmetic([&] { return safe_step_in_ieee_arithmetic(x, p, edges, faces, options); });
}

} // namespace ccdkit
