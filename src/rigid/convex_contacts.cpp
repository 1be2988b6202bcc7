// SPDX-License-Identifier: MIT
#include "rigid/details/convex_contacts.hpp"

#include "rigid/details/contact_geometry.hpp"
#include "rigid/details/feature_pair.hpp"
#include "rigid/details/feature_slab.hpp"
#include "rigid/details/mesh_shape_data.hpp"
#include "rigid/details/near_features.hpp"
#include "rigid/details/rounding.hpp"
#include "rigid/details/wide_range_length.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory_resource>

namespace ccdkit::details {

namespace {

    constexpr double INFINITE = std::numeric_limits<double>::infinity();
    template <class T> using ScratchVector = std::pmr::vector<T>;
    constexpr std::size_t SCRATCH_BYTES = 8192;

} // namespace

std::vector<RigidContact> convex_contacts(
    const ConvexContactSide& a,
    const ConvexContactSide& b,
    double lower,
    double upper,
    const Eigen::Vector3d& n,
    RigidCcdStats& stats)
{
    // Scratch memory from a buffer on the stack (enough for two boxes; the heap beyond): a local resource, whose
    // calls the compiler binds statically. Aligned to a cache line, as the search's arena (convex_contact.cpp).
    alignas(64) std::array<std::byte, SCRATCH_BYTES> buffer;
    std::pmr::monotonic_buffer_resource scratch { buffer.data(), buffer.size() };
    std::pmr::memory_resource* const arena = &scratch;
    const double width = upper - lower;
    const double deviation
        = arc_chord_deviation(a.radius, a.step_angle * width) + arc_chord_deviation(b.radius, b.step_angle * width);
    const double slack = rounded_up(2.0 * (deviation + 2.0 * (a.error + b.error)) + width * (a.speed + b.speed));
    // The first contact's pair has moved by at most width * speed since: the closest gap at `upper` is
    // within that, so a pair kept (gap within slack of the closest) is within 2 slack. Pairs farther
    // apart along n or in a box than that (and the rounding of the gaps) cannot be kept.
    const auto& pa = a.upper_points;
    const auto& pb = b.upper_points;
    // Heights along n, b's negated: a pair's closest points lie at heights of at most the other body's
    // extreme plus reach on each side (`limit`).
    ScratchVector<double> heights(pa.size() + pb.size(), arena); // one allocation for both bodies
    const std::span<double> heights_a(heights.data(), pa.size()), heights_b(heights.data() + pa.size(), pb.size());
    // (Summed up in locals the lambdas below never see: one they capture by reference may alias the heights, and the
    // compiler stored and reloaded it through memory at every vertex.)
    const auto [magnitude, low, high] = [&] {
        double largest = 0.0, lowest = INFINITE, highest = -INFINITE;
        for (std::size_t k = 0; k < pa.size(); ++k) {
            const double height = n.dot(pa[k]);
            heights_a[k] = height;
            lowest = std::min(lowest, height);
            largest = std::max(largest, pa[k].cwiseAbs().maxCoeff());
        }
        for (std::size_t k = 0; k < pb.size(); ++k) {
            const double height = n.dot(pb[k]);
            heights_b[k] = -height;
            highest = std::max(highest, height);
            largest = std::max(largest, pb[k].cwiseAbs().maxCoeff());
        }
        return std::array { largest, lowest, highest };
    }();
    const double reach = 2.0 * slack * (1.0 + 1e-6) + 1e-12 * magnitude;
    const FeatureSlab slab_a { pa, heights_a, high + reach, magnitude };
    const FeatureSlab slab_b { pb, heights_b, reach - low, magnitude };
    const RigidShape& shape_a = a.shape;
    const RigidShape& shape_b = b.shape;
    // The candidate pairs (features' boxes within reach) with a cheap lower bound of their gaps at `upper`.
    struct Candidate {
        FeaturePair pair;
        double bound;
    };
    const auto vertex_of
        = [](const auto& points) { return [&points](std::int32_t v) { return points[static_cast<std::size_t>(v)]; }; };
    // Posed from the points at hand: the contacts' own.
    const auto posed_at = [&](const FeaturePair& pair, const auto& points_a, const auto& points_b) {
        return pose_pair_with(shape_a, shape_b, pair, vertex_of(points_a), vertex_of(points_b));
    };
    NearFeatures near_a = near_features(slab_a, shape_a.mesh_data(), arena);
    NearFeatures near_b = near_features(slab_b, shape_b.mesh_data(), arena);
    // Each body's features that meet the box of all the other's (features_meeting; a's widened by reach, as the pair
    // tests below widen them): the pairs are formed from those only (the same pairs in the same order, from a
    // fraction of the tests).
    const ClippedFeature box_a = enclosing_box(near_a.vertices_and_edges(), reach);
    const ClippedFeature box_b = enclosing_box(near_b.vertices_and_edges(), 0.0);
    // (Room for each body's vertices and edges and for all its faces.)
    const auto room = [](const NearFeatures& near) { return near.faces_begin + near.face_set.words.size() * 64; };
    auto* const positions = static_cast<std::uint32_t*>(
        arena->allocate((room(near_a) + room(near_b)) * sizeof(std::uint32_t), alignof(std::uint32_t)));
    std::uint32_t* next_positions = positions;
    const auto select = [&next_positions](std::span<const ClippedFeature> run, const ClippedFeature& box, double r) {
        const FeatureSelection selection = features_meeting(run, box, r, next_positions);
        next_positions += run.size();
        return selection;
    };
    const FeatureSelection vertices_a = select(near_a.vertices(), box_b, reach);
    const FeatureSelection edges_a = select(near_a.edges(), box_b, reach);
    const FeatureSelection vertices_b = select(near_b.vertices(), box_a, 0.0);
    const FeatureSelection edges_b = select(near_b.edges(), box_a, 0.0);
    // A body's faces pair only with the other's vertices: gathered where some of those were taken (on two boxes
    // meeting edge on edge, neither).
    const auto faces_meeting_vertices
        = [&select](NearFeatures& near, const FeatureSelection& vertices, const ClippedFeature& box, double r) {
              if (vertices.taken.empty()) {
                  return FeatureSelection {};
              }
              near.gather_faces();
              return select(near.faces(), box, r);
          };
    const FeatureSelection faces_a = faces_meeting_vertices(near_a, vertices_b, box_b, reach);
    const FeatureSelection faces_b = faces_meeting_vertices(near_b, vertices_a, box_a, 0.0);
    ScratchVector<Candidate> candidates(arena);
    candidates.reserve(
        vertices_a.taken.size() * faces_b.taken.size() + faces_a.taken.size() * vertices_b.taken.size()
        + edges_a.taken.size() * edges_b.taken.size());
    const auto add_pairs = [&](PairKind kind, const FeatureSelection& from_a, const FeatureSelection& from_b) {
        for (const std::uint32_t i : from_a.taken) {
            const ClippedFeature& x = from_a.run[i];
            // x's box widened by reach meets y's: x.min - reach <= y.max and y.min - reach <= x.max.
            const Eigen::Array3d low_x = x.min - reach, high_x = x.max + reach;
            for (const std::uint32_t j : from_b.taken) {
                const ClippedFeature& y = from_b.run[j];
                if (box_meets(low_x, high_x, y)) {
                    const FeaturePair pair { kind, x.index, y.index };
                    candidates.push_back({ pair, gap_lower_bound(posed_at(pair, pa, pb)) });
                }
            }
        }
    };
    add_pairs(PairKind::VERTEX_FACE, vertices_a, faces_b);
    add_pairs(PairKind::FACE_VERTEX, faces_a, vertices_b);
    add_pairs(PairKind::EDGE_EDGE, edges_a, edges_b);
    if (candidates.empty()) {
        return {};
    }

    // The gaps match the contacts' own to rounding, which `margin` covers. Only pairs within slack (and
    // margin) of the closest gap are kept: the pair of least bound is measured first, and a pair whose
    // bound (less its rounding) lies beyond that gap's kept range cannot be kept.
    const double margin = 1e-12 * magnitude;
    struct Measured {
        FeaturePair pair;
        ClosestOffset closest; ///< at `upper`
        double gap;
    };
    ScratchVector<Measured> measured(arena);
    measured.reserve(candidates.size());
    const auto measure = [&](const FeaturePair& pair) {
        ++stats.pair_tests;
        const ClosestOffset closest = closest_offset(posed_at(pair, pa, pb));
        measured.push_back({ pair, closest, length_of(closest.offset) });
        return measured.back().gap;
    };
    const auto least_bound = std::min_element(
        candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) { return x.bound < y.bound; });
    const double reach_of_first = measure(least_bound->pair) + slack + margin + GAP_BOUND_ROUNDING * magnitude;
    for (auto c = candidates.begin(); c != candidates.end(); ++c) {
        if (c != least_bound && c->bound <= reach_of_first) {
            (void)measure(c->pair);
        }
    }
    double closest = INFINITE;
    for (const Measured& m : measured) {
        closest = std::min(closest, m.gap);
    }
    // As on the general search, a pair whose features passed through each other by `upper` is a contact for certain
    // and comes first, the one that met first ahead: its gap reads like that of a pair apart, and with a large eps
    // the closest pair is often a sideways one beside a vertex that went through a face. Only the order depends on
    // it, so a lone pair skips the test (most queries keep one pair, whose features have often passed through:
    // testing it cost 5-9%).
    const auto kept_pair = [&](const Measured& m) { return m.gap <= closest + slack + margin; };
    // The pair posed on the bodies' motions a share of the way from `lower` to `upper`.
    const auto posed_within = [&](const FeaturePair& pair) {
        return [&, pair](double share) {
            const double s = lower + share * width;
            const RigidPlacement placement_a = a.motion.placement_at(s), placement_b = b.motion.placement_at(s);
            const auto moved = [](const RigidShape& shape, const RigidPlacement& placement) {
                return [&shape, &placement](std::int32_t v) {
                    return placement.apply(shape.mesh_data().vertices.row(v).transpose());
                };
            };
            return pose_pair_with(shape_a, shape_b, pair, moved(shape_a, placement_a), moved(shape_b, placement_b));
        };
    };
    const bool several = std::count_if(measured.begin(), measured.end(), kept_pair) > 1;
    struct Kept {
        RigidContact contact;
        double met; ///< passage_share, infinite where the features did not pass through
    };
    ScratchVector<Kept> kept(arena);
    kept.reserve(measured.size());
    for (const Measured& m : measured) {
        if (kept_pair(m)) {
            const PosedPair before = posed_at(m.pair, a.lower_points, b.lower_points);
            const PosedPair at = posed_at(m.pair, pa, pb);
            const SolidOutward outward = solid_outward(shape_a, shape_b, m.pair, a.upper_rotation, b.upper_rotation);
            kept.push_back({ contact_of(m.pair, before, at, m.closest, outward, lower > 0.0),
                             several ? passage_share(before, at, outward.out_of_y(m.pair.kind), posed_within(m.pair))
                                           .value_or(INFINITE)
                                     : INFINITE });
        }
    }
    std::sort(kept.begin(), kept.end(), [](const Kept& x, const Kept& y) {
        return x.met != y.met ? x.met < y.met : x.contact.gap < y.contact.gap;
    });
    std::vector<RigidContact> out;
    out.reserve(kept.size()); // one heap allocation (face-to-face contacts hold several pairs)
    const double limit = closest + slack;
    for (const Kept& k : kept) {
        if (k.met < INFINITE || k.contact.gap <= limit) {
            out.push_back(k.contact);
        }
    }
    return out;
}

} // namespace ccdkit::details
