// SPDX-License-Identifier: MIT
#pragma once

#include "rigid/details/feature_pair.hpp"
#include "rigid/details/mesh_shape_data.hpp"
#include "rigid/details/wide_range_length.hpp"

#include <ccdkit/distance/closest_offset.hpp>
#include <ccdkit/rigid/rigid_contact.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ccdkit::details {

/// A feature pair in world coordinates at one time: the moving vertex or edge (`x`) and the triangle or
/// edge (`y`) it meets, the first belonging to body `first` (a or b, see FeaturePair).
struct PosedPair {
    std::array<Eigen::Vector3d, 3> x;
    std::array<Eigen::Vector3d, 3> y;
    bool edges = false; ///< x and y are edges (first two entries), else x[0] is a vertex and y a triangle
};

/// Both bodies' placements at one time (computed once for all the pairs).
struct BodyPlacements {
    RigidPlacement a;
    RigidPlacement b;
};

[[nodiscard]] inline BodyPlacements placements_at(const RigidBody& a, const RigidBody& b, double s)
{
    return { a.motion.placement_at(s), b.motion.placement_at(s) };
}

[[nodiscard]] inline Eigen::Vector3d posed_vertex(const RigidBody& body, std::int32_t v, const RigidPlacement& at)
{
    return at.apply(body.shape.mesh_data().vertices.row(v).transpose());
}

/// The pair's features with their vertices where `vertex_a(v)` and `vertex_b(v)` put them, the vertex (or edge a)
/// first.
template <class VertexA, class VertexB>
[[nodiscard]] PosedPair pose_pair_with(
    const RigidShape& a, const RigidShape& b, const FeaturePair& pair, VertexA&& vertex_a, VertexB&& vertex_b)
{
    PosedPair posed;
    const auto face_of = [](const RigidShape& shape, std::int32_t f, auto&& vertex) {
        const auto& faces = shape.mesh_data().faces;
        return std::array<Eigen::Vector3d, 3> { vertex(faces(f, 0)), vertex(faces(f, 1)), vertex(faces(f, 2)) };
    };
    switch (pair.kind) {
    case PairKind::VERTEX_FACE:
        posed.x[0] = vertex_a(pair.a);
        posed.y = face_of(b, pair.b, vertex_b);
        break;
    case PairKind::FACE_VERTEX:
        posed.x[0] = vertex_b(pair.b);
        posed.y = face_of(a, pair.a, vertex_a);
        break;
    case PairKind::EDGE_EDGE:
        posed.edges = true;
        posed.x[0] = vertex_a(a.mesh_data().edges(pair.a, 0));
        posed.x[1] = vertex_a(a.mesh_data().edges(pair.a, 1));
        posed.y[0] = vertex_b(b.mesh_data().edges(pair.b, 0));
        posed.y[1] = vertex_b(b.mesh_data().edges(pair.b, 1));
        break;
    }
    return posed;
}

/// The pair placed as `at` says, the vertex (or edge a) first.
[[nodiscard]] inline PosedPair
pose_pair(const RigidBody& a, const RigidBody& b, const FeaturePair& pair, const BodyPlacements& at)
{
    return pose_pair_with(
        a.shape, b.shape, pair, [&](std::int32_t v) { return posed_vertex(a, v, at.a); },
        [&](std::int32_t v) { return posed_vertex(b, v, at.b); });
}

/// The pair moved and scaled to a size near 1: closest points and normals multiply up to four coordinate
/// differences, which leave double's normal range for pairs larger than about 1e75 or smaller than 1e-75 (bodies of
/// size 1e-80 had gaps 40 times too large, of size 1e80 normals turned by 90 degrees).
struct UnitSizedPair {
    PosedPair pair; ///< (posed - origin) 2^-exponent: the scaling is exact
    Eigen::Vector3d origin;
    int exponent;
};

/// `posed` moved by -y[0] and scaled by the power of two that brings its extent (largest coordinate difference from
/// y[0]) near 1, where that extent lies outside 2^+-200; none within (the usual case: the pair is measured as it is,
/// the same bits) or for a pair of one point.
[[nodiscard]] inline std::optional<UnitSizedPair> unit_sized(const PosedPair& posed)
{
    const std::size_t count = posed.edges ? 2 : 3;
    const Eigen::Vector3d& origin = posed.y[0];
    double extent = (posed.x[0] - origin).cwiseAbs().maxCoeff();
    for (std::size_t k = 1; k < count; ++k) {
        extent = std::max(extent, (posed.y[k] - origin).cwiseAbs().maxCoeff());
    }
    if (posed.edges) {
        extent = std::max(extent, (posed.x[1] - origin).cwiseAbs().maxCoeff());
    }
    if (!(extent > 0.0) || !std::isfinite(extent) || (extent >= 0x1p-200 && extent <= 0x1p200)) {
        return std::nullopt;
    }
    UnitSizedPair out { posed, origin, std::ilogb(extent) };
    const auto shrink = [&out](Eigen::Vector3d& p) { p = scaled_by_power_of_two(p - out.origin, -out.exponent); };
    for (std::size_t k = 0; k < count; ++k) {
        shrink(out.pair.y[k]);
    }
    shrink(out.pair.x[0]);
    if (posed.edges) {
        shrink(out.pair.x[1]);
    }
    return out;
}

/// x's closest point minus y's closest point, and the midpoint between them.
struct ClosestOffset {
    Eigen::Vector3d offset;
    Eigen::Vector3d midpoint;
};

/// closest_offset below for a pair of size near 1 (or of any size whose fourth powers stay normal).
[[nodiscard]] inline ClosestOffset closest_offset_as_posed(const PosedPair& posed)
{
    if (posed.edges) {
        const auto pair = edge_edge_closest_pair<double, 3>(posed.x[0], posed.x[1], posed.y[0], posed.y[1]);
        const Eigen::Vector3d on_x = posed.x[0] + pair.s * (posed.x[1] - posed.x[0]);
        return { pair.offset, on_x - 0.5 * pair.offset };
    }
    const Eigen::Vector3d offset
        = point_triangle_closest_offset<double>(posed.x[0], posed.y[0], posed.y[1], posed.y[2]);
    return { offset, posed.x[0] - 0.5 * offset };
}

[[nodiscard]] inline ClosestOffset closest_offset(const PosedPair& posed)
{
    if (const auto sized = unit_sized(posed)) {
        const ClosestOffset local = closest_offset_as_posed(sized->pair);
        return { scaled_by_power_of_two(local.offset, sized->exponent),
                 sized->origin + scaled_by_power_of_two(local.midpoint, sized->exponent) };
    }
    return closest_offset_as_posed(posed);
}

/// Rounding allowance of gap_lower_bound, relative to the points' magnitude (|x|_inf): its own rounding (a few
/// ulps of the cross product, amplified by at most 1 / MIN_SINE = 1e3, a few more of the rest: about 1e4 ulps,
/// 2e-12) and closest_offset's (a few ulps), with a wide margin.
inline constexpr double GAP_BOUND_ROUNDING = 1e-9;

/// A lower bound of closest_offset(posed).offset.norm() at a few products' cost: the vertex's distance from the
/// triangle's plane, or the distance between the two edges' lines. It is 0 where that plane or the lines' common
/// normal is ill-conditioned (the sine between the spanning sides under MIN_SINE: a sliver, nearly parallel
/// edges) or where squares leave the normal range (tiny or huge coordinates). Elsewhere it is within
/// GAP_BOUND_ROUNDING of the exact distance, and closest_offset never much shortens a gap (it measures between
/// genuine points): a pair whose bound exceeds a threshold by that allowance has a computed gap beyond it.
[[nodiscard]] inline double gap_lower_bound(const PosedPair& posed)
{
    constexpr double MIN_SINE = 1e-3;
    constexpr double MIN_SQUARE = 1e-250; ///< far above the subnormal range, where squares lose precision
    // The edges, or two sides of the triangle.
    const Eigen::Vector3d spanning = posed.edges ? posed.x[1] - posed.x[0] : posed.y[1] - posed.y[0];
    const Eigen::Vector3d side = posed.edges ? posed.y[1] - posed.y[0] : posed.y[2] - posed.y[0];
    const Eigen::Vector3d normal = spanning.cross(side);
    const double length_squared = normal.squaredNorm();
    if (!(length_squared >= MIN_SQUARE)
        || !(length_squared >= MIN_SINE * MIN_SINE * spanning.squaredNorm() * side.squaredNorm())) {
        return 0.0;
    }
    const double bound = std::abs((posed.x[0] - posed.y[0]).dot(normal)) / std::sqrt(length_squared);
    return std::isfinite(bound) ? bound : 0.0;
}

/// The pair's geometric normal (triangle normal, or the two edges' cross product), zero where undefined: also
/// where the two spanning vectors are parallel up to a sine of MIN_NORMAL_SINE, since there the cross product is
/// mostly rounding noise and its sense arbitrary (edges lying parallel at a contact).
[[nodiscard]] inline Eigen::Vector3d raw_normal(const PosedPair& posed)
{
    constexpr double MIN_NORMAL_SINE = 1e-6;
    if (const auto sized = unit_sized(posed)) {
        return raw_normal(sized->pair);
    }
    const Eigen::Vector3d s = posed.edges ? posed.x[1] - posed.x[0] : posed.y[1] - posed.y[0];
    const Eigen::Vector3d u = posed.edges ? posed.y[1] - posed.y[0] : posed.y[2] - posed.y[0];
    const Eigen::Vector3d n = s.cross(u);
    const double length = n.norm();
    return length > MIN_NORMAL_SINE * s.norm() * u.norm() ? Eigen::Vector3d(n / length) : Eigen::Vector3d::Zero();
}

/// Largest |coordinate| of the pair's points: the scale of their rounding.
[[nodiscard]] inline double magnitude(const PosedPair& posed)
{
    const std::size_t count = posed.edges ? 2 : 3;
    double largest = posed.x[0].cwiseAbs().maxCoeff();
    for (std::size_t k = 0; k < count; ++k) {
        largest = std::max(
            { largest, posed.y[k].cwiseAbs().maxCoeff(), posed.edges ? posed.x[k].cwiseAbs().maxCoeff() : 0.0 });
    }
    return largest;
}

/// For edges clearly apart (gap above GAP_BOUND_ROUNDING of their magnitude) whose closest points are not along
/// the lines' common normal `normal` (one is an end of its segment: the lines meet, or pass, beyond it), the
/// unit direction between the segments' closest points (`offset`); zero otherwise. The lines' normal is then
/// across the true direction, and its sense (the lines' side) is rounding noise where they cross.
[[nodiscard]] inline Eigen::Vector3d
segment_end_direction(const PosedPair& posed, const Eigen::Vector3d& offset, const Eigen::Vector3d& normal)
{
    // Closest points inside both segments lie on the common normal: their offset is parallel to it up to the
    // rounding of the closest points (relative 1e-16 * magnitude / gap, far below this).
    constexpr double PARALLEL_COSINE = 1.0 - 1e-9;
    if (!posed.edges || !(length_of(offset) > GAP_BOUND_ROUNDING * magnitude(posed))) {
        return Eigen::Vector3d::Zero();
    }
    const Eigen::Vector3d direction = direction_of(offset);
    return std::abs(direction.dot(normal)) < PARALLEL_COSINE ? direction : Eigen::Vector3d::Zero();
}

/// Signed distance of x from y along the normal: which side x is on.
[[nodiscard]] inline double side_of(const PosedPair& posed, const Eigen::Vector3d& normal)
{
    return (posed.x[0] - posed.y[0]).dot(normal);
}

/// Where each solid body points outwards at a pair's features (closed and wound outwards, a face's normal points out
/// of its body, and so does the unit bisector of an edge's two face normals), world coordinates: b's face normal for
/// a vertex against b's face, a's for a's face against a vertex, each edge's for two edges; zero for a body that is
/// not solid, or for the vertex's side.
struct SolidOutward {
    Eigen::Vector3d of_a = Eigen::Vector3d::Zero();
    Eigen::Vector3d of_b = Eigen::Vector3d::Zero();

    /// A direction out of body b and into body a, where the two agree.
    [[nodiscard]] Eigen::Vector3d out_of_b() const { return of_b - of_a; }
    /// The outward direction at the posed pair's feature y (b's, but a's face against b's vertex), and at its x.
    [[nodiscard]] const Eigen::Vector3d& at_y(PairKind kind) const
    {
        return kind == PairKind::FACE_VERTEX ? of_a : of_b;
    }
    [[nodiscard]] const Eigen::Vector3d& at_x(PairKind kind) const
    {
        return kind == PairKind::FACE_VERTEX ? of_b : of_a;
    }
    /// A direction out of y's body and into x's, where the two agree (passage_share, contact_of).
    [[nodiscard]] Eigen::Vector3d out_of_y(PairKind kind) const { return at_y(kind) - at_x(kind); }
};

/// The pair's SolidOutward; `rotation_a` and `rotation_b` turn the bodies' coordinates into the world's.
[[nodiscard]] inline SolidOutward solid_outward(
    const RigidShape& a,
    const RigidShape& b,
    const FeaturePair& pair,
    const Eigen::Matrix3d& rotation_a,
    const Eigen::Matrix3d& rotation_b)
{
    const auto outward = [](const RigidShape& shape, const Eigen::Matrix3d& rotation,
                            const std::vector<Eigen::Vector3d>& normals, std::int32_t k) -> Eigen::Vector3d {
        return shape.mesh_data().solid ? Eigen::Vector3d(rotation * normals[static_cast<std::size_t>(k)])
                                       : Eigen::Vector3d::Zero();
    };
    switch (pair.kind) {
    case PairKind::VERTEX_FACE:
        return { .of_b = outward(b, rotation_b, b.mesh_data().face_normals, pair.b) };
    case PairKind::FACE_VERTEX:
        return { .of_a = outward(a, rotation_a, a.mesh_data().face_normals, pair.a) };
    case PairKind::EDGE_EDGE:
        break;
    }
    return { .of_a = outward(a, rotation_a, a.mesh_data().edge_normals, pair.a),
             .of_b = outward(b, rotation_b, b.mesh_data().edge_normals, pair.b) };
}

/// Least |cosine| between a normal and a solid's outward direction for that solid to decide the normal's sense: an
/// edge pair whose normal lies nearly square to an edge's outward direction (a flat edge across a face) leaves it.
inline constexpr double SENSE_COSINE = 1e-3;

/// Features count as apart before contact (came_from_the_far_side, edges_apart_inside) only beyond the posed points'
/// rounding: the motion's, a few dozen ulps of their magnitude (RigidMotion::point_error_bound), with a tenfold margin
/// (GAP_BOUND_ROUNDING's 1e-9 would leave a vertex passing a slab 2e-7 thick 1e6 from the origin undecided under
/// 1e-3).
inline constexpr double POSED_ROUNDING = 1e-13;

/// Whether two edges (`posed`) are apart with their closest points inside both: then the offset between those points
/// runs along the lines' common normal, and their lines' side is the side they are on.
[[nodiscard]] inline bool edges_apart_inside(const PosedPair& posed)
{
    const auto pair = edge_edge_closest_pair<double, 3>(posed.x[0], posed.x[1], posed.y[0], posed.y[1]);
    return pair.s > 0.0 && pair.s < 1.0 && pair.u > 0.0 && pair.u < 1.0
        && length_of(pair.offset) > POSED_ROUNDING * magnitude(posed);
}

/// How each solid votes on the sense of `normal`, a direction from the pair's feature y towards its feature x: by its
/// outward direction (`y_out` along the normal, `x_out` against it), +1 for it, -1 against, 0 where the normal is
/// nearly square to that direction (or the body is not solid). |normal| scales the threshold: it may be a cross
/// product, unnormalized.
struct SolidVotes {
    int y = 0;
    int x = 0;
};

[[nodiscard]] inline SolidVotes
solid_votes(const Eigen::Vector3d& normal, const Eigen::Vector3d& y_out, const Eigen::Vector3d& x_out)
{
    const double least = SENSE_COSINE * SENSE_COSINE * normal.squaredNorm();
    const auto vote = [&normal, least](const Eigen::Vector3d& direction) {
        const double along = normal.dot(direction);
        return along * along > least * direction.squaredNorm() ? (along > 0.0 ? 1 : -1) : 0;
    };
    return { vote(y_out), vote(-x_out) };
}

/// The sense the solids give `normal` (solid_votes): +1 as it is, -1 turned, 0 where they leave it open. Votes that
/// differ mean the pair is no true contact of the two boundaries (its normal lies in neither's cone of outward
/// normals: a needle's edge passing a wafer's rim, the closest pair there), and neither solid's direction can be
/// trusted over the other's: where the edges were apart before contact with their closest points inside both
/// (`before`, `apart_before`) they leave it open, and the side the edges came from decides; elsewhere (closest
/// points at an end, whose lines' side says little, or a contact at 0, whose side is rounding noise) the directions'
/// difference does.
[[nodiscard]] inline int solids_sense(
    const Eigen::Vector3d& normal,
    const Eigen::Vector3d& y_out,
    const Eigen::Vector3d& x_out,
    const PosedPair& before,
    bool apart_before)
{
    const SolidVotes votes = solid_votes(normal, y_out, x_out);
    if (votes.y * votes.x < 0) {
        if (apart_before && before.edges && edges_apart_inside(before)) {
            return 0;
        }
        return solid_votes(normal, y_out - x_out, Eigen::Vector3d::Zero()).y; // (the difference's own vote)
    }
    const int sum = votes.y + votes.x;
    return (sum > 0) - (sum < 0);
}

/// Whether the pair's features (`posed`, `normal` their raw_normal) are apart, beyond the posed points' rounding, along
/// the normal: a vertex over the face (its offset from the face along the normal), or two edges whose closest points
/// lie inside both. Then the side of the face's plane or of the edges' lines is the side the features are on.
[[nodiscard]] inline bool apart_along_normal(const PosedPair& posed, const Eigen::Vector3d& normal)
{
    constexpr double PARALLEL_COSINE = 1.0 - 1e-9; ///< the offset from a point inside the face is along its normal
    if (posed.edges) {
        return edges_apart_inside(posed);
    }
    const Eigen::Vector3d offset = closest_offset(posed).offset;
    return length_of(offset) > POSED_ROUNDING * magnitude(posed)
        && std::abs(direction_of(offset).dot(normal)) > PARALLEL_COSINE;
}

/// Whether the pair's features were apart before contact (`before`) on the side their solids say they cannot come
/// from (`y_out`, `x_out` as in solid_votes, which only tell the sense): a vertex behind a face and over it, or two
/// edges whose closest points lie inside both, apart along their common normal against both solids' outward
/// directions. Apart from the body, such a feature was beyond its far side: the pair is the far side of a body thinner
/// than the feature travels over the interval (a slab, a wafer's rim), reached by passing through by `upper` (within
/// eps) or only near it, and the outward directions point back the way it came; the side it came from decides
/// instead. The tests take the features as posed at `before` (the bodies may turn over the interval, and the features
/// lie far from the corners that span them), with `normal` their raw_normal there.
[[nodiscard]] inline bool came_from_the_far_side(
    const PosedPair& before, const Eigen::Vector3d& normal, const Eigen::Vector3d& y_out, const Eigen::Vector3d& x_out)
{
    // The cheap test first: the side of the face's plane or of the edges' lines, against the solids' sense.
    const double side = (before.x[0] - before.y[0]).dot(normal);
    const SolidVotes votes = solid_votes(side > 0.0 ? normal : Eigen::Vector3d(-normal), y_out, x_out);
    if (!(side != 0.0) || !(votes.y <= 0 && votes.x <= 0 && votes.y + votes.x < 0)) {
        return false; // (on the side the solids allow, or one they dispute)
    }
    return apart_along_normal(before, normal);
}

/// Whether the pair's features, posed where they meet (a vertex in the plane of a face, edges on each other's lines),
/// meet inside both: the vertex within the face (by its sides, along the face's normal), the edges' closest points
/// inside both (not at an end: where the lines cross beyond a segment, its closest point is its end).
[[nodiscard]] inline bool meet_inside(const PosedPair& posed)
{
    if (posed.edges) {
        const auto pair = edge_edge_closest_pair<double, 3>(posed.x[0], posed.x[1], posed.y[0], posed.y[1]);
        return pair.s > 0.0 && pair.s < 1.0 && pair.u > 0.0 && pair.u < 1.0; // (the segments' own: clamped)
    }
    const auto& y = posed.y;
    const Eigen::Vector3d normal = (y[1] - y[0]).cross(y[2] - y[0]);
    for (std::size_t k = 0; k < 3; ++k) {
        if ((y[(k + 1) % 3] - y[k]).cross(posed.x[0] - y[k]).dot(normal) < 0.0) {
            return false;
        }
    }
    return true;
}

/// Secant steps of passage_share toward where the features' side changes, and how close (a share of how far apart
/// they lay across each other at the ends) the features must come there: over a turn of radians within the interval
/// the steps may stop short of the crossing, where closest points inside both prove nothing. The steps stop once the
/// side is within PASSAGE_CONVERGED of that: where the interval turns little the first step lands there (500 random box
/// pairs at eps 1e-2 took 10% less time). Not much more: at 1e-3 a vertex that passed 7.5e-6 outside a face's rim, at
/// eps 0.3 and 10 rad per step, counted as through.
inline constexpr int PASSAGE_STEPS = 4;
inline constexpr double PASSAGE_MEETING = 1e-2;
inline constexpr double PASSAGE_CONVERGED = 1e-6;

/// Where the pair's features (`before`, then `at`) passed through each other in between, the share of the way from
/// `before` to `at` at which they met; none otherwise. They passed through where they lie on opposite sides of each
/// other (of the face's plane, of the edges' lines; beyond the posed points' rounding) at both, the normal not turned
/// over, and, posed on the bodies' motion (`posed_at(share)`) where their side changes (secant steps from the sides'
/// linear interpolation), meet inside both (meet_inside) and come close (PASSAGE_MEETING): over a fast turn, edges'
/// lines may swap sides without the edges meeting. Where they lie at the ends does not matter: by `at` a vertex may
/// have slid on past the face's side (into a box face's other triangle), an edge past the other's end. Between solids,
/// x must come from the outer side of y (`out_of_y`: the solids' direction out of y's body and into x's,
/// SolidOutward::out_of_y, zero where they do not say): a vertex that leaves a thin solid through a face passes it too.
/// A pair the search could not clear that passed through is a contact for certain, however far through it is by `at`,
/// and of several such pairs the one that met first has gone deepest, so its gap there is the largest.
template <class PosedAt>
[[nodiscard]] std::optional<double>
passage_share(const PosedPair& before, const PosedPair& at, const Eigen::Vector3d& out_of_y, PosedAt&& posed_at)
{
    const Eigen::Vector3d normal_before = raw_normal(before), normal_at = raw_normal(at);
    const double side_before = side_of(before, normal_before), side_at = side_of(at, normal_at);
    const double outward = normal_before.dot(out_of_y);
    const bool from_inside = std::abs(outward) > SENSE_COSINE * out_of_y.norm() && side_before * outward < 0.0;
    if (!(normal_before.dot(normal_at) > 0.0 && side_before * side_at < 0.0 && !from_inside
          && std::abs(side_before) > POSED_ROUNDING * magnitude(before)
          && std::abs(side_at) > POSED_ROUNDING * magnitude(at))) {
        return std::nullopt;
    }
    // Where the features' side changes on the motion: secant steps from the sides' linear interpolation (a turn
    // within the interval bends the side's course), then whether they meet inside both there.
    const double across = std::abs(side_before) + std::abs(side_at);
    double low = 0.0, high = 1.0, side_low = side_before, side_high = side_at;
    double share = side_before / (side_before - side_at);
    PosedPair met = posed_at(share);
    for (int step = 0; step < PASSAGE_STEPS; ++step) {
        const double side = side_of(met, raw_normal(met));
        if (!(side * side_low > 0.0 || side * side_high > 0.0) || std::abs(side) <= PASSAGE_CONVERGED * across) {
            break; // (on the crossing or next to it, or not finite)
        }
        (side * side_low > 0.0 ? low : high) = share;
        (side * side_low > 0.0 ? side_low : side_high) = side;
        share = low + side_low / (side_low - side_high) * (high - low);
        met = posed_at(share);
    }
    const bool met_there = length_of(closest_offset(met).offset) <= PASSAGE_MEETING * across;
    return met_there && meet_inside(met) ? std::optional<double>(share) : std::nullopt;
}

/// The contact of a pair found at `upper`, posed there (`at`, with its closest_offset `closest`) and at `approach`
/// (`before`, before contact): point and gap at `upper`; the normal there, turned to point from body b towards body
/// a. A face's normal or the edges' common normal takes its sense from `outward` (solid_outward) where the bodies
/// are solid and decide it (solids_sense; not for features that came from a thin body's far side,
/// came_from_the_far_side, where the bodies were `apart_before`: not at a contact at 0), else from the side the vertex
/// (edge) was on before. (The side of a face's plane or of the edges' lines tells where the features came from only
/// where the vertex lies over the face and the edges' closest points inside both: a pair kept within the slack of the
/// closest may have its vertex behind the plane of a face it lies beside, or its edges on the far side of each other's
/// lines, and then pointed into b.) Edges apart whose closest points include an end take the direction between those
/// points (segment_end_direction) where it agrees with their side before and does not run into a solid b (against
/// outward.out_of_b(), where that decides).
[[nodiscard]] inline RigidContact contact_of(
    const FeaturePair& pair,
    const PosedPair& before,
    const PosedPair& at,
    const ClosestOffset& closest,
    const SolidOutward& outward = {},
    bool apart_before = true)
{
    RigidContact contact;
    contact.point = closest.midpoint;
    contact.gap = length_of(closest.offset);
    // The solids' outward directions at y and at x (y is b's feature but for a's face against b's vertex), and how
    // far a direction from y towards x must run against their difference to go into y's body.
    const bool y_is_a = pair.kind == PairKind::FACE_VERTEX;
    const Eigen::Vector3d& y_out = outward.at_y(pair.kind);
    const Eigen::Vector3d& x_out = outward.at_x(pair.kind);
    const Eigen::Vector3d out_of_y = outward.out_of_y(pair.kind);
    Eigen::Vector3d normal = raw_normal(at);
    const Eigen::Vector3d normal_before = raw_normal(before);
    if (normal.isZero() || normal_before.isZero()) {
        // Parallel edges or a collapsed face: the direction between the features, when they are apart.
        const Eigen::Vector3d offset = direction_of(closest_offset(before).offset);
        normal = offset.isZero() ? Eigen::Vector3d::UnitZ() : offset;
    } else if (const Eigen::Vector3d end = segment_end_direction(at, closest.offset, normal); !end.isZero()
               && end.dot(closest_offset(before).offset) > 0.0
               && !(end.dot(out_of_y) < -SENSE_COSINE * out_of_y.norm())) {
        // (An end that passed through the other edge by `upper`, within eps, points back across it: the side the
        // edges came from decides then; so does an end that went into a solid b.)
        normal = end;
    } else if (const int sense = apart_before && came_from_the_far_side(before, normal_before, y_out, x_out)
                   ? 0
                   : solids_sense(normal, y_out, x_out, before, apart_before);
               sense != 0 ? sense < 0 : side_of(before, normal_before) < 0.0) {
        normal = -normal;
    }
    // The normal now points from y towards x; x belongs to body a except for a face-vertex pair.
    contact.normal = y_is_a ? Eigen::Vector3d(-normal) : normal;
    switch (pair.kind) {
    case PairKind::VERTEX_FACE:
        contact.feature_a = { RigidFeatureKind::VERTEX, pair.a };
        contact.feature_b = { RigidFeatureKind::FACE, pair.b };
        break;
    case PairKind::FACE_VERTEX:
        contact.feature_a = { RigidFeatureKind::FACE, pair.a };
        contact.feature_b = { RigidFeatureKind::VERTEX, pair.b };
        break;
    case PairKind::EDGE_EDGE:
        contact.feature_a = { RigidFeatureKind::EDGE, pair.a };
        contact.feature_b = { RigidFeatureKind::EDGE, pair.b };
        break;
    }
    return contact;
}

/// As above, with the closest points at `upper` computed here.
[[nodiscard]] inline RigidContact contact_of(const FeaturePair& pair, const PosedPair& before, const PosedPair& at)
{
    return contact_of(pair, before, at, closest_offset(at));
}

/// The contact of a pair found at `upper` (the bodies placed there), as above.
[[nodiscard]] inline RigidContact contact_of(
    const RigidBody& a,
    const RigidBody& b,
    const FeaturePair& pair,
    const BodyPlacements& approach,
    const BodyPlacements& upper)
{
    return contact_of(pair, pose_pair(a, b, pair, approach), pose_pair(a, b, pair, upper));
}

} // namespace ccdkit::details
