// SPDX-License-Identifier: MIT
#pragma once
// The query sets of the rigid-body comparison benchmark: for one shape pair and one kind of motion, N queries from
// a fixed seed. Body a's shape centre is aimed at a random point of b's surface (hit), at a point too far aside
// (miss), or at the edge between the two found by bisection on the reference (graze: it touches at most just).
// 70% / 15% / 15%. The reference decides what each query really does; queries that start in contact are drawn
// again.
//
// Motions of body a (b, where the pair lets it move, drifts by a small random rotation and translation in every
// other query):
// - translation: no turning; a crosses about (1.2 .. 2) (r_a + r_b) towards the target.
// - rotation: a turns 60-110 degrees about a random axis through its origin (the lever puts its shape 1.5 (r_a +
//   r_b) away), its origin at rest.
// - screw: as rotation, plus a translation of 0.5-1 (r_a + r_b) along the axis (a screw motion).
// - large-angle: 90-175 degrees about a random axis plus a translation of up to r_a + r_b in a random direction.

#include "reference_toc.hpp"
#include "scene.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ccdkit::bench {

enum class MotionKind : std::uint8_t { TRANSLATION, ROTATION, SCREW, LARGE_ANGLE };
inline constexpr std::array<MotionKind, 4> ALL_MOTIONS { MotionKind::TRANSLATION, MotionKind::ROTATION,
                                                         MotionKind::SCREW, MotionKind::LARGE_ANGLE };
[[nodiscard]] std::string motion_name(MotionKind kind);

struct GenerationOptions {
    std::int32_t queries = 200;
    std::uint64_t seed = 20261124;
    /// Reference used while bisecting for grazing queries (coarser than the judging one, for speed).
    ReferenceOptions graze_reference { 256, 1e-9 };
};

/// The queries of one set, deterministic for a seed (generated in parallel, each query from its own generator).
[[nodiscard]] std::vector<Query>
make_queries(const ReferenceScene& scene, MotionKind kind, const GenerationOptions& options);

} // namespace ccdkit::bench
