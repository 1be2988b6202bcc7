// SPDX-License-Identifier: MIT
#pragma once

// First time of contact between two rigid bodies moving on curved (screw) trajectories over one step, with
// the contact points and normals there (Shell & Drumwright 2009, "Precise generalized contact point and normal
// determination for rigid body simulation").
//
// The body that turns more is followed in the coordinates of the one that turns less (RelativeMotion), where the
// latter stands still (either argument order: a still body seen from a spinning one circles its centre, and its
// sweeps cover far more).
// Over a time interval each point's arc lies within nu of its chord (RelativeMotion::chord_deviation_bound),
// so a contact of the true motion inside the interval means a feature pair (a vertex of one body and a face
// of the other, or two edges) comes within nu of each other under the linear motion along the chords. That
// is a linear CCD with a minimum separation, which additive CCD answers conservatively and with a safe time:
// pairs it proves apart are dropped, the interval's start moves up to the earliest safe time of the rest, and
// the interval is cut (earlier piece first; near that time when additive CCD advanced, else halved) until it is
// narrower than eps. nu shrinks with the square of the interval, so the remaining pairs converge on the contact.
// Candidate pairs come from the two bodies' face hierarchies (the moving one swept over the interval); small
// bodies first advance their vertex hulls (conservative advancement with a certified separation), which is safe
// for any mesh and lands next to the contact for convex ones.
//
// Methods:
// - CONSERVATIVE (the paper's bounding-box variant, here tube-around-the-chord): misses no contact and is
//   never late: toi_lower is certified (no contact before it, rounding included) and toi_upper - toi_lower
//   <= eps. Like every conservative method it may report a contact for bodies that pass close without
//   touching: within about eps times the distance their fastest points travel over the step (a large eps, such
//   as 0.5, reports bodies a good part of their size apart); each contact carries the gap between its features
//   at toi_upper.
// - CHORD (the paper's chord-bisection variant, cheaper there than its boxes): the step is cut into intervals over
//   which no point strays more than `chord_tolerance` from its chord, and the exact linear CCD runs on the chords,
//   earliest interval first. Contacts shallower than the arcs' departure from their chords can be missed, and times
//   can be late by up to the time the bodies take to close that distance. Here it is rarely cheaper than
//   CONSERVATIVE (measured: within a few percent on non-convex meshes and soups, 1.2-1.7x slower on fast spins,
//   7-9x on convex pairs, which CONSERVATIVE answers on a path of their own; faster only on a small body over a
//   dense sheet, 0.37x): it is there to compare with the paper, and CONSERVATIVE is the one to use.

#include <ccdkit/rigid/rigid_motion.hpp>
#include <ccdkit/rigid/rigid_shape.hpp>

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ccdkit {

/// A body: its shape (body coordinates) and its motion over the step.
struct RigidBody {
    RigidShape shape;
    RigidMotion motion;
};

enum class RigidCcdMethod : std::uint8_t {
    CONSERVATIVE, ///< misses nothing, never late (see the file comment)
    CHORD, ///< exact CCD on chords; may miss grazing contacts and be late, rarely cheaper (see the file comment)
};

struct RigidCcdOptions {
    RigidCcdMethod method = RigidCcdMethod::CONSERVATIVE;
    /// Width of the returned time interval, as a fraction of the step, in (0, 1].
    double eps = 1e-6;
    /// Only contacts before t_max (fraction of the step, in (0, 1]) are looked for.
    double t_max = 1.0;
    /// CHORD only: largest distance a point's arc may stray from its chord within one interval (body units),
    /// >= 0; 0: 1e-3 times the smaller body's radius.
    double chord_tolerance = 0.0;
    /// Implicit shapes only: the size (body units, >= 0) down to which regions of a surface are refined before
    /// they count as touching an implicit solid, i.e. how close the surfaces may come before a contact is
    /// reported; 0: 1e-2 times the smaller body's size (its radius about its centre of mass, or half its bounding
    /// box's diagonal where smaller). Smaller is later and closer to the true
    /// contact, and costs more regions on flat contacts (about area / resolution^2).
    double surface_resolution = 0.0;
    /// Implicit shapes only: the most surface regions held at once, >= 1 (about 120 bytes each; the default, 2^21,
    /// is about 250 MB). A flat contact at a resolution far finer than the bodies needs more (two unit boxes face to
    /// face at 1e-3 hold about a million): the search then starts over at a coarser resolution, the size of the
    /// regions it was splitting, so it stays certified (never late, no miss) and reports the contact earlier, with
    /// fewer contacts, instead of exhausting time and memory.
    std::size_t max_surface_regions = std::size_t { 1 } << 21;
    /// Implicit shapes only: the most region tests (RigidCcdStats::pair_tests) at one resolution, >= 1 (the default,
    /// 2^25, is a few seconds). A surface sliding along an implicit solid within a few resolutions of it costs about
    /// speed x size / resolution^2 tests (a unit ball along a box face at 1e-4: about 1e9): past this the search
    /// starts over at a resolution at least twice as coarse and coarser than the smallest region it split, as for
    /// max_surface_regions (RigidCcdStats::surface_resolution says which resolution answered). Where it split no
    /// region, coarser would not help and it goes on past the limit.
    std::int64_t max_surface_tests = std::int64_t { 1 } << 25;
    /// Two meshes: a limit on the feature-pair tests (RigidCcdStats::pair_tests) of the search, >= 1 (the default,
    /// 2^24, is 2-10 seconds), checked before the tests of each interval and where the search cuts one it could not
    /// clear (so one interval's tests may take it past the limit; the convex path, which ends on its own, is not
    /// limited; each interval counts as a test too: a body spinning 1e9 rad per step is split into some 1e9 intervals
    /// nearly all without a candidate pair, and ran for minutes before; CHORD counts every 16 candidate pairs whose
    /// boxes an interval checks: with a fine chord_tolerance and a fast turn those are its work, and the default
    /// stopped the reviews' spins at 1e-12 of the size after 2-3 s). A surface
    /// that slides along another while turning, apart by far less than the bodies' size, is cleared only over
    /// intervals so short that the arcs stray less than that gap from their chords: up to about 1 / eps intervals,
    /// each testing the pairs near the contact (two sheets of 1,800 faces 1.6e-10 apart, one spinning, took 2.4e9
    /// tests and 300 s). Past the limit the search stops where it stands and reports a contact there: nothing touches
    /// before toi_lower (still certified for CONSERVATIVE), toi_upper - toi_lower <= eps, and the contacts carry their
    /// gaps at toi_upper, which may show the bodies apart (an early, conservative answer;
    /// RigidCcdStats::max_pair_tests_reached says so).
    std::int64_t max_pair_tests = std::int64_t { 1 } << 24;
    /// Whether to find the contacts at the time of contact (RigidCcdResult::contacts). Without them the answer is
    /// the time interval alone (hit, toi_lower, toi_upper: the same as with them), as a caller that only limits a
    /// step needs (a line search's largest safe step); the contact search is a quarter to nearly half of a
    /// convex pair's time.
    bool contacts = true;
};

enum class RigidFeatureKind : std::uint8_t {
    VERTEX,
    EDGE,
    FACE,
    SURFACE, ///< a point of an implicit shape's surface (index -1)
};

/// A feature of a body's shape: a vertex, an edge (numbered as RigidShape::edges()), a face, or (implicit
/// shapes) its surface.
struct RigidFeature {
    RigidFeatureKind kind = RigidFeatureKind::VERTEX;
    std::int32_t index = -1;
};

/// One contact at the time of contact.
struct RigidContact {
    Eigen::Vector3d point = Eigen::Vector3d::Zero(); ///< world coordinates, midway between the features
    Eigen::Vector3d normal = Eigen::Vector3d::UnitZ(); ///< world, unit, pointing from body b towards body a
    RigidFeature feature_a; ///< on body a
    RigidFeature feature_b; ///< on body b
    double gap = 0.0; ///< distance between the two features at toi_upper
};

struct RigidCcdStats {
    std::int64_t intervals = 0; ///< time intervals examined
    std::int64_t pair_tests = 0; ///< feature-pair tests (narrow phase) over all intervals
    /// Implicit shapes: the surface resolution the answer was found at (the requested or default one, or coarser where
    /// max_surface_regions or max_surface_tests made the search start over); 0 for two meshes.
    double surface_resolution = 0.0;
    std::int64_t surface_restarts = 0; ///< implicit shapes: how often the search started over at a coarser resolution
    /// Two meshes: the search stopped at RigidCcdOptions::max_pair_tests, and its contact is where it stopped.
    bool max_pair_tests_reached = false;
};

struct RigidCcdResult {
    bool hit = false;
    /// No contact before toi_lower (certified for CONSERVATIVE); with a hit, the contact is in
    /// [toi_lower, toi_upper], toi_upper - toi_lower <= eps. Without a hit both are t_max.
    double toi_lower = 1.0;
    double toi_upper = 1.0;
    /// With a hit: the contact manifold, closest first. Between meshes, the feature pair closest at toi_upper and
    /// every pair within the final interval's slack of it (about how far the features move over the interval): the
    /// pairs that came within that of touching and, where the bodies only graze (pass within eps of touching, which
    /// counts as a contact), pairs proved apart that lie as close at toi_upper. Pairs whose features passed through
    /// each other by toi_upper (on opposite sides of each other at both ends of the final interval, meeting inside both
    /// where their side changes on the motion; between solids, entering the other's solid) come first, the one that
    /// met first ahead: a contact for certain, whose gap reads like that of a pair apart (with a large eps the closest
    /// pair is often a sideways one beside a vertex that went through a face, and that vertex the deepest). Pairs the
    /// search cleared are looked for up to the closest found pair's gap, but no farther than the smaller body's mean
    /// edge length (plus the slack). At t = 0 (bodies touching or crossing at the start) the contacts are where the
    /// surfaces cross or touch: the closest pairs of each pair of faces that meet (an edge through a face's middle is
    /// far from every vertex and edge there), or for a body nested inside a solid its inside vertex against the solid's
    /// nearest face, first; then the pairs touching elsewhere, within rounding. At t = 0 no contact holds an edge
    /// between two faces in one plane (a box face's diagonal: no feature of the surface, and a pair's normal square to
    /// it runs along the faces). Each contact's gap is its features' distance at toi_upper.
    std::vector<RigidContact> contacts;
    RigidCcdStats stats;
};

/// Checks options as rigid_time_of_contact does (for readers of options, e.g. scene files, to fail early).
/// @throws std::invalid_argument for eps or t_max outside (0, 1], a negative or non-finite chord_tolerance or
///         surface_resolution, or max_surface_regions, max_surface_tests or max_pair_tests below 1
void check_rigid_ccd_options(const RigidCcdOptions& options);

/// First contact between two bodies over the step (both may move; their steps must have the same length).
/// Two meshes: as the file comment says. With an implicit shape: the other body's surface (its faces, or the
/// implicit surface's octree cells) is cut into regions, each bounded by a ball over a time interval and
/// tested against the implicit solid's certified clearance, refined in space down to surface_resolution and
/// in time down to eps; both methods run this way. It misses no contact and is never late; it reports a
/// contact once the surfaces are within about surface_resolution, i.e. up to that distance (over the closing
/// speed) early; contacts carry the implicit surface's normal.
/// Bodies that touch or overlap at t = 0 (surfaces that meet, or a body with a part inside a solid) have their
/// contact at 0 whatever their velocities, moving apart included; a body nested in a solid reports the inside
/// point against the solid's nearest face. Between solids, contact normals point out of b and into a as their faces
/// say (a face's outward normal; two edges' common normal turned to agree with each edge's outward direction, the
/// bisector of its faces' normals, where those decide it; where the two edges' directions contradict each other
/// and their closest points lay inside both before contact, as for a needle's edge passing a wafer's rim, and for
/// features that came from the far side of a body thinner than
/// their travel over [toi_lower, toi_upper] (apart at toi_lower against the faces' outward directions), to the side
/// the features came from); between soups, to the side the features came from.
/// Convex pairs so far from the origin that the rounding of their coordinates counts against eps times their speed
/// are measured from a point near them, which their start translations less it give exactly: the same question, with
/// the rounding of bodies near the origin (as fast, and as sharp). Where they touch at the start within their
/// coordinates' rounding, the bodies as placed decide, with that allowance: a box resting on another far out touches
/// at the start, sliding or pressed, where its rounded pose leaves a hair between them.
/// @throws std::invalid_argument for eps or t_max outside (0, 1], a negative chord_tolerance or
///         surface_resolution, max_surface_regions, max_surface_tests or max_pair_tests below 1, or steps of different
///         lengths
[[nodiscard]] RigidCcdResult
rigid_time_of_contact(const RigidBody& a, const RigidBody& b, const RigidCcdOptions& options = {});

} // namespace ccdkit
