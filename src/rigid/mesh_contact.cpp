// SPDX-License-Identifier: MIT
#include "narrow/details/simplex_intersection.hpp"
#include "rigid/details/certain_crossing.hpp"
#include "rigid/details/contact_geometry.hpp"
#include "rigid/details/contact_searches.hpp"
#include "rigid/details/feature_pair.hpp"
#include "rigid/details/hull_advancement.hpp"
#include "rigid/details/mesh_shape_data.hpp"
#include "rigid/details/moving_side.hpp"
#include "rigid/details/projected_separation.hpp"
#include "rigid/details/rounding.hpp"
#include "rigid/details/solid_containment.hpp"
#include "rigid/details/swept_tree_pairs.hpp"
#include "rigid/details/touching_normal.hpp"
#include "rigid/details/wide_range_length.hpp"

#include <ccdkit/distance/closest_offset.hpp>
#include <ccdkit/narrow/additive_ccd.hpp>
#include <ccdkit/narrow/edge_edge_ccd.hpp>
#include <ccdkit/narrow/vertex_face_ccd.hpp>
#include <ccdkit/rigid/rigid_contact.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <tuple>

namespace ccdkit {

namespace {

    using details::ConvexAnswer;
    using details::FeaturePair;
    using details::MovingSide;
    using details::PairKind;

    constexpr std::size_t NO_LIMIT = std::numeric_limits<std::size_t>::max();
    /// Hull advancement for bodies of at most this many vertices (it costs time linear in them per step).
    constexpr Eigen::Index MAX_HULL_VERTICES = 256;
    constexpr int MAX_HULL_STEPS = 64;
    /// After hull advancement, the first interval searched: this many of its last steps.
    constexpr double NEAR_STEPS = 4.0;
    /// CHORD: the most equal intervals one cut is split into at once; a finer chord tolerance halves the cut first.
    constexpr int MAX_CHORD_PIECES = 1 << 20;
    /// CHORD: box tests that count as one pair test against max_pair_tests (about their costs' ratio: 10-25 ns
    /// against the pair tests' 0.1-0.6 µs).
    constexpr std::int64_t BOX_TESTS_PER_PAIR_TEST = 16;
    /// Candidate lists (candidate_limit) a stop before any candidates may gather its nearest pairs into.
    constexpr std::size_t STOP_ROOM = 16;

    /// The feature pairs found touching (or possibly touching) in [lower, upper].
    struct Found {
        double lower = 0.0;
        double upper = 0.0;
        std::vector<FeaturePair> pairs;
        /// A time at or before `lower` when the pairs had not yet touched: normals point to the side they came
        /// from.
        double approach = 0.0;
    };

    /// A time computed as sa + toi * (sb - sa), rounded down: the three roundings of that expression (the
    /// difference, the product, the sum) stay within two ulps of the result, so it stays a safe time.
    double time_at(double sa, double sb, double fraction)
    {
        const double t = sa + fraction * (sb - sa);
        return std::max(sa, std::nextafter(std::nextafter(t, -1.0), -1.0));
    }

    /// Whether a closed segment and a closed triangle (points 0-1 and 2-4) meet, decided exactly on the
    /// coordinates given.
    bool segment_meets_triangle(const std::array<const Eigen::Vector3d*, 5>& points)
    {
        // Scaled by a power of two to |x| < 1 the fast filter applies; the scaling must be exact (no
        // subnormals), else the exact stage decides on the coordinates as given.
        double largest = 0.0;
        for (const Eigen::Vector3d* p : points) {
            largest = std::max(largest, p->cwiseAbs().maxCoeff());
        }
        int exponent = 0;
        std::frexp(largest, &exponent);
        // A product by a power of two is exact unless it leaves the normal range; the round trip detects that.
        // (A multiplication, not std::ldexp: that libm call was a sixth of a resting contact's time.)
        const bool in_range = exponent > std::numeric_limits<double>::min_exponent
            && exponent < std::numeric_limits<double>::max_exponent;
        const double down = in_range ? std::ldexp(1.0, -exponent) : 1.0;
        const double up = in_range ? std::ldexp(1.0, exponent) : 1.0;
        const bool exact = in_range && std::all_of(points.begin(), points.end(), [down, up](const Eigen::Vector3d* p) {
                               return ((*p * down) * up).cwiseEqual(*p).all();
                           });
        const double scale = exact ? down : 1.0;
        std::array<Eigen::Vector3d, 5> scaled;
        for (std::size_t k = 0; k < points.size(); ++k) {
            scaled[k] = *points[k] * scale;
        }
        // Resting bodies put most of these tests in one plane, where the exact test's double filter cannot decide:
        // a certain "apart" of the projections answers most of them first, and of the rest those a few ulps off
        // the plane are decided by double-double signs (certain_crossing.hpp) before the exact stage (GMP).
        if (exact) {
            if (details::apart_in_projection(scaled)) {
                return false;
            }
            if (const std::optional<bool> meet = details::certain_segment_meets_triangle(scaled)) {
                return *meet;
            }
        }
        std::array<details::Simplex, 2> simplices;
        for (std::size_t k = 0; k < points.size(); ++k) {
            details::Simplex& s = simplices[k < 2 ? 0 : 1];
            s.vertex[static_cast<std::size_t>(s.size++)].x = { scaled[k][0], scaled[k][1], scaled[k][2], 0.0 };
        }
        details::SimplexIntersection intersection(3, exact);
        return intersection.intersect(simplices[0], simplices[1]);
    }

    class ContactSearch {
    public:
        ContactSearch(const RigidBody& a, const RigidBody& b, const RigidCcdOptions& options)
            : a_(a)
            , b_(b)
            , options_(options)
            , a_in_b_(a.shape.mesh_data(), b.shape.mesh_data(), RelativeMotion(a.motion, b.motion))
            , b_in_a_(b.shape.mesh_data(), a.shape.mesh_data(), RelativeMotion(b.motion, a.motion))
            , tree_pairs_(a_in_b_)
            , feature_size_(std::min(a.shape.mesh_data().mean_edge_length, b.shape.mesh_data().mean_edge_length))
        {
        }

        RigidCcdResult run()
        {
            std::optional<Found> found = surfaces_cross();
            if (!found) {
                found = starts_inside();
            }
            if (!found) {
                found = search();
            }
            return details::result_of(found, options_, stats_, [this](const Found& f) { return contacts_at(f); });
        }

    private:
        /// Surfaces that meet at t = 0 touch then (solids or not); the search below only sees features coming
        /// into contact, and a crossing may leave every component's representative vertex outside the other
        /// body. Two closed triangles meet iff a side of one meets the other, so testing every face pair whose
        /// boxes overlap at t = 0 (the broad phase over [0, 0]) is complete on the rounded poses; poses that
        /// rounding separated by less than the separation are still found at t = 0 by the search's margin.
        /// The contacts are the closest feature pairs of each pair of faces that meet, but those that hold a flat edge
        /// (holds_flat_edge): where the surfaces cross, no vertex-face or edge-edge pair need be close (an edge through
        /// a face's middle), and where they cross in one place and touch in another (one leg of a table sunk into the
        /// floor, the others standing on it), the pairs closest overall are only the touching ones.
        std::optional<Found> surfaces_cross()
        {
            set_interval(0.0, 0.0);
            if (bodies_apart()) {
                return std::nullopt;
            }
            const auto& moving = a_in_b_.shape();
            const auto& fixed = a_in_b_.fixed();
            // Each meeting face pair's feature pairs, with its number (`meeting`).
            struct OfFaces {
                FeaturePair pair;
                std::size_t meeting;
            };
            std::vector<OfFaces> of_faces;
            std::size_t meeting = 0;
            tree_pairs_.for_each_face_pair(
                a_in_b_,
                [&](std::int32_t fa, std::int32_t fb) {
                    if (!faces_meet(fa, fb)) {
                        return;
                    }
                    for (int c = 0; c < 3; ++c) {
                        of_faces.push_back({ { PairKind::VERTEX_FACE, moving.faces(fa, c), fb }, meeting });
                        of_faces.push_back({ { PairKind::FACE_VERTEX, fa, fixed.faces(fb, c) }, meeting });
                        for (int d = 0; d < 3; ++d) {
                            const FeaturePair edges { PairKind::EDGE_EDGE, moving.face_edges(fa, c),
                                                      fixed.face_edges(fb, d) };
                            if (!holds_flat_edge(edges)) {
                                of_faces.push_back({ edges, meeting });
                            }
                        }
                    }
                    ++meeting;
                },
                [] { return false; });
            if (of_faces.empty()) {
                return std::nullopt;
            }
            // A vertex or edge shared by several meeting faces came once from each: each pair is measured once.
            const auto key = [](const FeaturePair& p) { return std::tuple(p.kind, p.a, p.b); };
            std::sort(of_faces.begin(), of_faces.end(), [&](const OfFaces& x, const OfFaces& y) {
                return key(x.pair) < key(y.pair);
            });
            const details::BodyPlacements start = details::placements_at(a_, b_, 0.0);
            std::vector<double> gaps(of_faces.size());
            for (std::size_t k = 0; k < of_faces.size(); ++k) {
                gaps[k] = k > 0 && key(of_faces[k].pair) == key(of_faces[k - 1].pair)
                    ? gaps[k - 1]
                    : details::length_of(
                        details::closest_offset(details::pose_pair(a_, b_, of_faces[k].pair, start)).offset);
            }
            std::vector<double> least(meeting, std::numeric_limits<double>::infinity());
            for (std::size_t k = 0; k < of_faces.size(); ++k) {
                least[of_faces[k].meeting] = std::min(least[of_faces[k].meeting], gaps[k]);
            }
            const double slack = contact_slack(0.0, 0.0);
            std::vector<FeaturePair> pairs;
            for (std::size_t k = 0; k < of_faces.size(); ++k) {
                if (gaps[k] <= least[of_faces[k].meeting] + slack
                    && (pairs.empty() || key(pairs.back()) != key(of_faces[k].pair))) {
                    pairs.push_back(of_faces[k].pair);
                }
            }
            ++stats_.intervals;
            return Found { 0.0, 0.0, std::move(pairs), 0.0 };
        }

        /// Whether the pair holds a flat edge (MeshShapeData::flat_edges). Contacts from t = 0 leave such pairs out
        /// (but where all the search found hold one): there a pair's normal has no earlier side to be turned by, and
        /// one square to a flat edge runs along its faces (a box sunk into a floor beside the floor's diagonal listed
        /// its edge against the diagonal first, the normal level, in 56 of 500 random placements).
        [[nodiscard]] bool holds_flat_edge(const FeaturePair& pair) const
        {
            return details::holds_flat_edge(pair, a_.shape.mesh_data(), b_.shape.mesh_data());
        }

        /// Whether face fa of a and face fb of b meet at t = 0 (a's vertices in b's coordinates).
        bool faces_meet(std::int32_t fa, std::int32_t fb)
        {
            ++stats_.pair_tests;
            const auto& moving = a_in_b_.shape();
            const auto& fixed = a_in_b_.fixed();
            std::array<Eigen::Vector3d, 3> x, y;
            for (int c = 0; c < 3; ++c) {
                x[static_cast<std::size_t>(c)] = a_in_b_.start(moving.faces(fa, c));
                y[static_cast<std::size_t>(c)] = fixed.vertices.row(fixed.faces(fb, c)).transpose();
            }
            for (std::size_t c = 0; c < 3; ++c) {
                const std::size_t d = (c + 1) % 3;
                if (segment_meets_triangle({ &x[c], &x[d], &y[0], &y[1], &y[2] })
                    || segment_meets_triangle({ &y[c], &y[d], &x[0], &x[1], &x[2] })) {
                    return true;
                }
            }
            return false;
        }

        /// A body with a part inside a solid other body (a whole connected component, once no surfaces meet)
        /// touches it at t = 0; the contact is the inside vertex against the solid's nearest face.
        std::optional<Found> starts_inside() const
        {
            const auto vertex_inside = [](const RigidBody& body, const RigidBody& solid) -> std::optional<FeaturePair> {
                if (!solid.shape.is_solid()) {
                    return std::nullopt;
                }
                const RelativeMotion motion(body.motion, solid.motion);
                const auto& vertices = solid.shape.mesh_data().vertices;
                const auto& faces = solid.shape.mesh_data().faces;
                for (const std::int32_t v : body.shape.mesh_data().component_vertices) {
                    const Eigen::Vector3d p = motion.point_at(body.shape.mesh_data().vertices.row(v).transpose(), 0.0);
                    if (!details::inside_solid(p, vertices, faces)) {
                        continue;
                    }
                    std::int32_t nearest = 0;
                    double distance = std::numeric_limits<double>::infinity();
                    for (Eigen::Index f = 0; f < faces.rows(); ++f) {
                        const double d = details::length_of(point_triangle_closest_offset<double>(
                            p, vertices.row(faces(f, 0)).transpose(), vertices.row(faces(f, 1)).transpose(),
                            vertices.row(faces(f, 2)).transpose()));
                        if (d < distance) {
                            distance = d;
                            nearest = static_cast<std::int32_t>(f);
                        }
                    }
                    return FeaturePair { PairKind::VERTEX_FACE, v, nearest };
                }
                return std::nullopt;
            };
            std::optional<FeaturePair> pair = vertex_inside(a_, b_);
            if (!pair) {
                pair = vertex_inside(b_, a_);
                if (pair) {
                    *pair = { PairKind::FACE_VERTEX, pair->b, pair->a };
                }
            }
            if (!pair) {
                return std::nullopt;
            }
            return Found { 0.0, 0.0, { *pair }, 0.0 };
        }

        std::optional<Found> search()
        {
            // Small bodies first advance their vertex hulls (cheap, and exact for convex bodies): nothing
            // touches before `start`, and for convex bodies the contact follows within a few of its last steps.
            double start = 0.0;
            if (std::max(a_.shape.mesh_data().vertices.rows(), b_.shape.mesh_data().vertices.rows())
                <= MAX_HULL_VERTICES) {
                const details::HullAdvance advance
                    = details::hull_safe_time(a_in_b_, options_.t_max, options_.eps, MAX_HULL_STEPS);
                start = advance.safe_time;
                if (start >= options_.t_max) {
                    return std::nullopt;
                }
                // Advancement closes a fixed fraction of the gap per step: the contact is likely within a few
                // last steps.
                const double reach = std::max(NEAR_STEPS * advance.last_step, options_.eps);
                const double near = std::min(options_.t_max, start + reach);
                if (auto found = search_interval(start, near)) {
                    return found;
                }
                start = near;
            }
            const int count = details::top_interval_count(a_, b_, options_.t_max - start);
            for (int k = 0; k < count; ++k) {
                const double sa = start + (options_.t_max - start) * k / count;
                const double sb = k + 1 == count ? options_.t_max : start + (options_.t_max - start) * (k + 1) / count;
                if (sb > sa) {
                    if (auto found = search_interval(sa, sb)) {
                        return found;
                    }
                }
            }
            return std::nullopt;
        }

        /// Halves [sa, sb] (earlier half first) while its broad phase finds more candidates than the narrow
        /// phase should see: a long sweep's boxes overlap much of the other body, a short one's only what it
        /// can reach.
        std::optional<Found> search_interval(double sa, double sb)
        {
            set_interval(sa, sb);
            if (bodies_apart()) {
                ++stats_.intervals;
                return std::nullopt;
            }
            if (out_of_tests()) {
                ++stats_.intervals;
                return stopped_at(sa, sb, pairs_nearest_at(sa));
            }
            // Splitting pays while the sweep is long against the features: halves then overlap fewer of them.
            const double mid = sa + 0.5 * (sb - sa);
            const bool splittable = mid > sa && mid < sb && sweep_length() > feature_size_;
            std::optional<std::vector<FeaturePair>> candidates
                = tree_pairs_.find(a_in_b_, splittable ? candidate_limit() : NO_LIMIT);
            if (!candidates) {
                ++stats_.intervals;
                if (auto found = search_interval(sa, mid)) {
                    return found;
                }
                return search_interval(mid, sb);
            }
            if (candidates->empty()) {
                ++stats_.intervals;
                return std::nullopt;
            }
            if (out_of_tests()) {
                ++stats_.intervals;
                return stopped_at(sa, sb, std::move(*candidates));
            }
            return options_.method == RigidCcdMethod::CONSERVATIVE ? refine(sa, sb, *candidates)
                                                                   : chord_search(sa, sb, *candidates);
        }

        /// How far any point of the moving body can travel over the current interval.
        double sweep_length() const
        {
            return a_in_b_.motion().speed_bound(a_in_b_.radius(), sa(), sb()) * (sb() - sa());
        }

        /// Feature pairs worth a narrow phase over one interval, against splitting it and running the broad
        /// phase twice (tuned on bench_rigid).
        std::size_t candidate_limit() const
        {
            constexpr std::size_t BASE = 64;
            constexpr std::size_t FACES_PER_PAIR = 4;
            const auto faces = static_cast<std::size_t>(a_in_b_.shape().faces.rows() + b_in_a_.shape().faces.rows());
            return BASE + faces / FACES_PER_PAIR;
        }

        void set_interval(double sa, double sb)
        {
            sa_ = sa;
            sb_ = sb;
            a_in_b_.set_interval(sa, sb);
            b_in_a_.set_interval(sa, sb);
        }

        /// How far apart the contacts' features may lie at `sb` beyond the closest pair: the separation both ways
        /// (rounding and the arcs' departure from their chords) and how far the features move over [sa, sb]. Sets the
        /// interval.
        double contact_slack(double sa, double sb)
        {
            set_interval(sa, sb);
            return 2.0 * (a_in_b_.separation() + b_in_a_.separation())
                + (sb - sa) * a_in_b_.motion().speed_bound(a_in_b_.radius(), sa, sb);
        }

        /// The bounding spheres about the centres of mass stay apart over the interval.
        bool bodies_apart() const
        {
            // In b's coordinates: a's centre at the interval's start, within speed * width of it throughout.
            const RelativeMotion& motion = a_in_b_.motion();
            const Eigen::Vector3d center_a = motion.point_at(a_.motion.center_of_mass(), sa());
            const double reach = a_in_b_.radius() + b_in_a_.radius()
                + motion.speed_bound(0.0, sa(), sb()) * (sb() - sa()) + motion.point_error_bound(0.0);
            const double distance = (center_a - b_.motion.center_of_mass()).norm();
            return distance > details::rounded_up(reach);
        }

        double sa() const { return sa_; }
        double sb() const { return sb_; }

        /// CONSERVATIVE: drops the pairs proven apart over [sa, sb], moves the start up to the earliest time the
        /// rest may touch, and cuts what is left (earlier piece first) until it is narrower than eps.
        std::optional<Found> refine(double sa, double sb, const std::vector<FeaturePair>& candidates)
        {
            ++stats_.intervals;
            set_interval(sa, sb);
            std::vector<FeaturePair> survivors;
            double earliest = sb;
            for (const FeaturePair& pair : candidates) {
                if (!boxes_overlap(pair)) {
                    continue;
                }
                ++stats_.pair_tests;
                const AdditiveCcdResult r = separation_test(pair);
                // A bound that overflowed cannot prove the pair apart: it stays, from the interval's start.
                if (r.hit || r.status == AdditiveCcdStatus::INVALID_INPUT) {
                    survivors.push_back(pair);
                    earliest = std::min(earliest, time_at(sa, sb, r.toi));
                }
            }
            if (survivors.empty()) {
                return std::nullopt;
            }
            const double lower = std::max(sa, earliest);
            // Additive CCD stops short of a contact by a fraction of the distance it advanced (eta = 0.1 of
            // the gap): when the start moved up by `advance`, the contact is likely within about that of it, so
            // the first piece ends there (never past the middle). Any cut is correct; this one converges in a
            // handful of levels where halving takes log2(1 / eps).
            const double advance = lower - sa;
            const double half = lower + 0.5 * (sb - lower);
            const double mid = advance > options_.eps ? std::min(half, lower + advance) : half;
            if (sb - lower <= options_.eps || !(mid > lower && mid < sb)) {
                return Found { lower, sb, std::move(survivors), lower };
            }
            if (out_of_tests()) {
                return stopped_at(lower, sb, std::move(survivors));
            }
            if (auto found = refine(lower, mid, survivors)) {
                return found;
            }
            return refine(mid, sb, survivors);
        }

        /// Past max_pair_tests (RigidCcdOptions): the search stops. Its intervals count too, one test each: a body
        /// spinning 1e9 rad per step sweeps the other's every pair over any interval wider than about 1e-9 of the step,
        /// so the broad phase splits it into some 1e9 intervals, nearly all without a candidate pair (a review's box
        /// ran for minutes, whatever max_pair_tests said). CHORD counts its box tests too (one test per
        /// BOX_TESTS_PER_PAIR_TEST): with a fine chord_tolerance and a fast turn they are its work (a box spinning 1e4
        /// rad per step at a tolerance of 1e-12 of its size: 2^20 intervals per cut and no pair test, for minutes; a
        /// torus spinning just over a sheet: 5,000 box tests per interval).
        bool out_of_tests() const
        {
            const std::int64_t box_work
                = options_.method == RigidCcdMethod::CHORD ? chord_box_tests_ / BOX_TESTS_PER_PAIR_TEST : 0;
            return stats_.pair_tests + stats_.intervals + box_work > options_.max_pair_tests;
        }

        /// Where the search stops before it has candidates (out_of_tests while it splits intervals): the pairs nearest
        /// at `lower`, those whose boxes come within the least reach that holds some. The reach doubles from the
        /// features' size until some pairs come within it, then, where more than a broad phase's room came at once,
        /// is bisected below that (dense sheets a hair apart: a reach of their cells holds too many pairs to list, and
        /// the stop had listed none).
        std::vector<FeaturePair> pairs_nearest_at(double lower)
        {
            set_interval(lower, lower);
            const auto within = [&](double reach, std::size_t limit) {
                std::optional<std::vector<FeaturePair>> near = tree_pairs_.find(a_in_b_, limit, reach);
                if (near) {
                    std::erase_if(*near, [&](const FeaturePair& pair) { return !boxes_overlap(pair, reach); });
                }
                return near;
            };
            const std::size_t room = STOP_ROOM * candidate_limit();
            double empty = 0.0; // (a reach that holds none)
            // (From the least normal double where the features have no size: a triangle of one point doubled 0
            // forever.)
            double full = feature_size_ > 0.0 ? feature_size_ : std::numeric_limits<double>::min();
            for (; std::isfinite(full); empty = full, full *= 2.0) {
                std::optional<std::vector<FeaturePair>> near = within(full, room);
                if (!near) {
                    break; // too many at once: bisect below
                }
                if (!near->empty()) {
                    return std::move(*near);
                }
            }
            if (!std::isfinite(full)) {
                return {};
            }
            constexpr int BISECTIONS = 60;
            for (int k = 0; k < BISECTIONS; ++k) {
                const double reach = empty + 0.5 * (full - empty);
                if (!(reach > empty && reach < full)) {
                    break;
                }
                std::optional<std::vector<FeaturePair>> near = within(reach, room);
                if (!near) {
                    full = reach;
                } else if (near->empty()) {
                    empty = reach;
                } else {
                    return std::move(*near);
                }
            }
            // As many pairs at one distance as the room would not hold (coincident surfaces): all of them.
            return *within(full, NO_LIMIT);
        }

        /// Where the search stopped at max_pair_tests: nothing touched before `lower` (what it cleared), `pairs` may
        /// touch in [lower, end] (the interval it stood in); the contact is reported over at most eps from `lower`.
        Found stopped_at(double lower, double end, std::vector<FeaturePair> pairs)
        {
            stats_.max_pair_tests_reached = true;
            double upper = std::min(end, lower + options_.eps);
            while (upper - lower > options_.eps) { // (the sum rounded up)
                upper = details::next_below(upper);
            }
            return Found { lower, upper, std::move(pairs), lower };
        }

        /// Calls `vertex_face(side, vertex, face)` or `edge_edge(side, edge, fixed_edge)` with the side whose
        /// vertices move in the pair (a's in b's coordinates, or b's in a's for a face-vertex pair).
        template <class VertexFace, class EdgeEdge>
        auto on_pair(const FeaturePair& pair, VertexFace&& vertex_face, EdgeEdge&& edge_edge)
        {
            switch (pair.kind) {
            case PairKind::VERTEX_FACE:
                return vertex_face(a_in_b_, pair.a, pair.b);
            case PairKind::FACE_VERTEX:
                return vertex_face(b_in_a_, pair.b, pair.a);
            case PairKind::EDGE_EDGE:
                break;
            }
            return edge_edge(a_in_b_, pair.a, pair.b);
        }

        /// Whether the pair's boxes over the current interval overlap: the moving feature's chords, inflated by
        /// the separation (and `reach`), against the fixed feature. Cheap; rounding is covered by the separation's
        /// margin.
        bool boxes_overlap(const FeaturePair& pair, double reach = 0.0)
        {
            return on_pair(
                pair,
                [reach](MovingSide& side, std::int32_t v, std::int32_t f) {
                    return details::vertex_face_boxes_overlap(side, v, f, reach);
                },
                [reach](MovingSide& side, std::int32_t e, std::int32_t g) {
                    return details::edge_edge_boxes_overlap(side, e, g, reach);
                });
        }

        /// Additive CCD of a pair along the chords of the current interval, with the interval's separation.
        AdditiveCcdResult separation_test(const FeaturePair& pair)
        {
            const auto with_separation = [](const MovingSide& side) {
                AdditiveCcdOptions options;
                options.min_distance = side.separation();
                return options;
            };
            return on_pair(
                pair,
                [&](MovingSide& side, std::int32_t v, std::int32_t f) {
                    return additive_vertex_face_ccd(details::vertex_face_motion(side, v, f), with_separation(side));
                },
                [&](MovingSide& side, std::int32_t e, std::int32_t g) {
                    return additive_edge_edge_ccd(details::edge_edge_motion(side, e, g), with_separation(side));
                });
        }

        /// CHORD: cuts [sa, sb] into equal intervals over which no arc strays more than the chord tolerance (halving
        /// [sa, sb] first where MAX_CHORD_PIECES would not do), and runs the exact linear CCD on the chords of each,
        /// earliest first.
        std::optional<Found> chord_search(double sa, double sb, const std::vector<FeaturePair>& candidates)
        {
            if (out_of_tests()) {
                return chord_stop(sa, sb, candidates); // (once: not again in each half)
            }
            const double tolerance = chord_tolerance();
            int pieces = 1;
            while (!chords_within(sa, sa + (sb - sa) / pieces, tolerance)) {
                if (pieces == MAX_CHORD_PIECES) {
                    const double mid = sa + 0.5 * (sb - sa);
                    if (!(mid > sa && mid < sb)) {
                        break; // (at double's resolution in time: as fine as the chords get)
                    }
                    if (auto found = chord_search(sa, mid, candidates)) {
                        return found;
                    }
                    return chord_search(mid, sb, candidates);
                }
                pieces *= 2;
            }
            for (int k = 0; k < pieces; ++k) {
                const double lo = sa + (sb - sa) * k / pieces;
                const double hi = k + 1 == pieces ? sb : sa + (sb - sa) * (k + 1) / pieces;
                if (out_of_tests()) {
                    return chord_stop(lo, sb, candidates);
                }
                ++stats_.intervals;
                chord_box_tests_ += static_cast<std::int64_t>(candidates.size());
                set_interval(lo, hi);
                CcdOptions options;
                options.tolerance = std::min(1.0, options_.eps / (hi - lo));
                Found found { hi, hi, {}, lo };
                double first_upper = 2.0;
                for (const FeaturePair& pair : candidates) {
                    if (!boxes_overlap(pair)) {
                        continue;
                    }
                    ++stats_.pair_tests;
                    const CcdResult r = exact_test(pair, options);
                    if (!r.hit && r.status != CcdStatus::INVALID_INPUT) {
                        continue;
                    }
                    found.pairs.push_back(pair);
                    found.lower = std::min(found.lower, time_at(lo, hi, r.toi_lower));
                    first_upper = std::min(first_upper, r.toi_upper);
                }
                if (!found.pairs.empty()) {
                    found.upper = std::min(hi, std::max(found.lower, lo + first_upper * (hi - lo)));
                    return found;
                }
            }
            return std::nullopt;
        }

        /// CHORD past max_pair_tests at `lower`: the pairs whose boxes over the rest of the interval meet (the arcs'
        /// departure from their chords included) are the contact's candidates; with none, nothing touches there.
        std::optional<Found> chord_stop(double lower, double end, const std::vector<FeaturePair>& candidates)
        {
            set_interval(lower, end);
            std::vector<FeaturePair> near;
            for (const FeaturePair& pair : candidates) {
                if (boxes_overlap(pair)) {
                    near.push_back(pair);
                }
            }
            if (near.empty()) {
                return std::nullopt;
            }
            return stopped_at(lower, end, std::move(near));
        }

        double chord_tolerance() const
        {
            if (options_.chord_tolerance > 0.0) {
                return options_.chord_tolerance;
            }
            constexpr double DEFAULT_FRACTION = 1e-3;
            return DEFAULT_FRACTION * std::min(a_in_b_.radius(), b_in_a_.radius());
        }

        bool chords_within(double sa, double sb, double tolerance) const
        {
            return a_in_b_.motion().chord_deviation_bound(a_in_b_.radius(), sa, sb) <= tolerance
                && b_in_a_.motion().chord_deviation_bound(b_in_a_.radius(), sa, sb) <= tolerance;
        }

        CcdResult exact_test(const FeaturePair& pair, const CcdOptions& options)
        {
            return on_pair(
                pair,
                [&](MovingSide& side, std::int32_t v, std::int32_t f) {
                    return vertex_face_ccd(details::vertex_face_motion(side, v, f), options);
                },
                [&](MovingSide& side, std::int32_t e, std::int32_t g) {
                    return edge_edge_ccd(details::edge_edge_motion(side, e, g), options);
                });
        }

        /// Contact points and normals at the end of the interval, in world coordinates: the pairs certain to touch
        /// first (found and passed through each other by then; at t = 0, the closest pairs of each pair of faces that
        /// meet, or the vertex inside the other solid), then the closest pair (found, or cleared but near: pairs_near),
        /// then the others within the interval's slack of the closest.
        std::vector<RigidContact> contacts_at(const Found& found)
        {
            const details::BodyPlacements approach = details::placements_at(a_, b_, found.approach);
            const details::BodyPlacements upper = details::placements_at(a_, b_, found.upper);
            // Every pair's gap at `upper` first, closest first: only the pairs within slack of the closest become
            // contacts (of the pairs of faces resting on each other, most do not). The order sorts (gap, index)
            // records, not the posed pairs: the same comparisons, the same order.
            struct AtUpper {
                details::PosedPair posed;
                details::ClosestOffset closest;
            };
            struct ByGap {
                double gap;
                std::size_t pair;
                /// For a pair certain to touch, the share of the interval at which it met (passage_share; 0 at t = 0):
                /// those come first, the first to meet ahead, and are always kept. Infinite for the others.
                double met = std::numeric_limits<double>::infinity();
            };
            std::vector<FeaturePair> pairs = found.pairs;
            const bool at_start = found.lower == 0.0;
            if (at_start && !std::all_of(pairs.begin(), pairs.end(), [this](const FeaturePair& pair) {
                    return holds_flat_edge(pair);
                })) {
                std::erase_if(pairs, [this](const FeaturePair& pair) { return holds_flat_edge(pair); });
            }
            std::vector<AtUpper> at_upper;
            std::vector<ByGap> order;
            at_upper.reserve(pairs.size());
            order.reserve(pairs.size());
            const auto measure = [&](const FeaturePair& pair) {
                const details::PosedPair posed = details::pose_pair(a_, b_, pair, upper);
                at_upper.push_back({ posed, details::closest_offset(posed) });
                order.push_back({ details::length_of(at_upper.back().closest.offset), order.size() });
            };
            for (const FeaturePair& pair : pairs) {
                measure(pair);
            }
            const auto by_gap = [](const ByGap& x, const ByGap& y) { return x.gap < y.gap; };
            std::sort(order.begin(), order.end(), by_gap);
            if (!order.empty()) {
                const double slack = contact_slack(found.lower, std::max(found.upper, found.lower));
                if (found.upper > 0.0) {
                    // A pair found that passed through by `upper` is a contact for certain: such pairs come first,
                    // however far through they are (a gap there reads like that of a pair apart), the one that met
                    // first ahead.
                    for (ByGap& g : order) {
                        const FeaturePair& pair = pairs[g.pair];
                        const details::SolidOutward outward
                            = details::solid_outward(a_.shape, b_.shape, pair, upper.a.rotation, upper.b.rotation);
                        const std::optional<double> met = details::passage_share(
                            details::pose_pair(a_, b_, pair, approach), at_upper[g.pair].posed,
                            outward.out_of_y(pair.kind), [&](double share) {
                                const double s = found.approach + share * (found.upper - found.approach);
                                return details::pose_pair(a_, b_, pair, details::placements_at(a_, b_, s));
                            });
                        g.met = met.value_or(g.met);
                    }
                } else {
                    // (At t = 0: surfaces_cross or starts_inside.) The closest pairs of faces that meet at t = 0 touch
                    // for certain, and so does a vertex inside the other solid, however deep: they come first.
                    for (ByGap& g : order) {
                        g.met = 0.0;
                    }
                }
                // A pair the search cleared never touches, but may lie closer at `upper` than those it could not
                // clear: where the bodies pass within eps of touching (a graze), the pairs left are those near their
                // closest approach, and the closest at `upper` may be another. Every pair within slack of the closest
                // is a contact, as on the convex path: searched up to the closest found pair's gap, but no farther
                // than the smaller body's mean edge length (a stop at max_pair_tests may leave the found pairs far
                // apart, and the pairs within a long reach grow with the square of the faces near the other body).
                // At t = 0, the pairs touching elsewhere (within slack): rounding may show touching faces apart in one
                // body's frame (and a vertex inside the other), and the pairs of faces that cross need not be close
                // (an edge through a face's middle), so reaching as far as those would measure every pair near them
                // (two 800-face sheets 0.1-0.2 apart beside two crossing triangles: 2.5 s and 0.9 GB).
                const double reach = std::min(order.front().gap, found.upper > 0.0 ? feature_size_ : slack) + slack;
                for (const FeaturePair& pair : pairs_near(reach, found.pairs)) {
                    if (at_start && holds_flat_edge(pair)) {
                        continue;
                    }
                    pairs.push_back(pair);
                    measure(pair);
                }
                std::sort(order.begin(), order.end(), [](const ByGap& x, const ByGap& y) {
                    return x.met != y.met ? x.met < y.met : x.gap < y.gap;
                });
                const double closest = std::min_element(order.begin(), order.end(), by_gap)->gap;
                const double limit = closest + slack;
                std::erase_if(order, [limit](const ByGap& g) { return std::isinf(g.met) && g.gap > limit; });
            }
            std::vector<RigidContact> contacts;
            contacts.reserve(order.size());
            for (const ByGap& g : order) {
                const FeaturePair& pair = pairs[g.pair];
                const AtUpper& at = at_upper[g.pair];
                const details::SolidOutward outward
                    = details::solid_outward(a_.shape, b_.shape, pair, upper.a.rotation, upper.b.rotation);
                contacts.push_back(details::contact_of(
                    pair, details::pose_pair(a_, b_, pair, approach), at.posed, at.closest, outward,
                    found.lower > 0.0));
                if (found.lower == 0.0) {
                    orient_at_start(pair, at.posed, outward.out_of_b(), contacts.back());
                    take_separating_face_normal(upper, contacts.back());
                }
            }
            return contacts;
        }

        /// The pairs whose boxes over the current interval come within `reach` of each other (the broad phase and
        /// boxes_overlap, grown by reach), but those in `known`.
        std::vector<FeaturePair> pairs_near(double reach, std::vector<FeaturePair> known)
        {
            const auto key = [](const FeaturePair& p) { return std::tuple(p.kind, p.a, p.b); };
            const auto before = [&key](const FeaturePair& x, const FeaturePair& y) { return key(x) < key(y); };
            std::sort(known.begin(), known.end(), before);
            std::vector<FeaturePair> near = *tree_pairs_.find(a_in_b_, NO_LIMIT, reach);
            std::erase_if(near, [&](const FeaturePair& p) {
                return !boxes_overlap(p, reach) || std::binary_search(known.begin(), known.end(), p, before);
            });
            return near;
        }

        /// Contacts from t = 0 have no earlier time to take the side from: at 0 the features of bodies at rest
        /// on each other are within rounding of touching, so the side rule leaves their normals to rounding (edges
        /// crossing in a face-to-face rest, a vertex a few ulps across a face), and a nested vertex's points into
        /// the solid around it. A solid's side is known: its faces point outwards, and so does the sum of an
        /// edge's two face normals. The normal is turned to point out of b and into a by whichever bodies are
        /// solid (`direction`, solid_outward's out_of_b; `posed`, the pair at 0); parallel edges take that direction
        /// itself.
        static void orient_at_start(
            const FeaturePair& pair,
            const details::PosedPair& posed,
            const Eigen::Vector3d& direction,
            RigidContact& contact)
        {
            if (!(direction.norm() > 0.0)) {
                return;
            }
            if (pair.kind != PairKind::EDGE_EDGE || details::raw_normal(posed).isZero()) {
                contact.normal = direction.normalized();
            } else if (contact.normal.dot(direction) < 0.0) {
                contact.normal = -contact.normal;
            }
        }

        /// Two solids touching at t = 0 where a contact's features meet on a boundary (a vertex on a face's rim,
        /// edges meeting at a corner of a stack) may take a pair normal that does not separate them (+-x for cubes
        /// stacked rim on rim): the contact takes the face normal there that does, the one nearest the pair's own
        /// normal where several do (touching_normal.hpp); a contact with none keeps its own.
        void take_separating_face_normal(const details::BodyPlacements& at, RigidContact& contact)
        {
            if (!a_.shape.is_solid() || !b_.shape.is_solid()) {
                return;
            }
            if (!vertex_faces_a_) {
                vertex_faces_a_.emplace(a_.shape);
                vertex_faces_b_.emplace(b_.shape);
            }
            const auto fill
                = [&](const RigidBody& body, const RigidPlacement& placement, const details::VertexFaces& around,
                      const RigidFeature& feature, details::FacesAtPoint& out) {
                      details::faces_at_point(
                          body, placement, around, details::feature_vertices(body.shape, feature.kind, feature.index),
                          contact.point, out);
                  };
            fill(a_, at.a, *vertex_faces_a_, contact.feature_a, faces_at_a_);
            fill(b_, at.b, *vertex_faces_b_, contact.feature_b, faces_at_b_);
            const std::optional<Eigen::Vector3d> normal
                = details::separating_face_normal(faces_at_a_, faces_at_b_, contact.normal);
            if (normal) {
                contact.normal = *normal;
            }
        }

        const RigidBody& a_;
        const RigidBody& b_;
        RigidCcdOptions options_;
        MovingSide a_in_b_; ///< a's vertices in b's coordinates (vertex-face and edge-edge pairs)
        MovingSide b_in_a_; ///< b's vertices in a's coordinates (face-vertex pairs)
        details::SweptTreePairs tree_pairs_;
        double feature_size_; ///< the smaller body's mean edge length
        double sa_ = 0.0;
        double sb_ = 1.0;
        RigidCcdStats stats_;
        std::int64_t chord_box_tests_ = 0; ///< CHORD: its intervals' box tests (out_of_tests)
        std::optional<details::VertexFaces> vertex_faces_a_, vertex_faces_b_; ///< of a and b, once needed
        details::FacesAtPoint faces_at_a_, faces_at_b_; ///< scratch of take_separating_face_normal
    };

} // namespace

RigidCcdResult details::mesh_time_of_contact(const RigidBody& a, const RigidBody& b, const RigidCcdOptions& options)
{
    RigidCcdStats convex_stats;
    if (options.method == RigidCcdMethod::CONSERVATIVE && details::convex_pair(a, b)) {
        ConvexAnswer answer = details::convex_time_of_contact(a, b, options);
        if (answer.result) {
            return std::move(*answer.result);
        }
        convex_stats = answer.stats;
    }
    // The search follows a in b's coordinates, where a body that stands still circles a turning frame's centre: its
    // sweeps cover far more of the frame body than the turning body's own arcs cover of a still one (an L-shape
    // spinning 1e4 rad per step onto a sheet: 6.3x the intervals and 72x the pair tests with the sheet moving). So
    // the body that turns less is the frame.
    RigidCcdResult result = b.motion.step_angle() > a.motion.step_angle()
        ? details::with_roles_exchanged(ContactSearch(b, a, options).run())
        : ContactSearch(a, b, options).run();
    result.stats.intervals += convex_stats.intervals;
    result.stats.pair_tests += convex_stats.pair_tests;
    return result;
}

} // namespace ccdkit
