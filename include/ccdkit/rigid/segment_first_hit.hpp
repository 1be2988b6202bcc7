// SPDX-License-Identifier: MIT
#pragma once

// Where a segment first reaches an implicit solid, by sphere tracing on the certified clearance: each step
// advances by the clearance at the current point, a ball that provably holds no point of the solid, so the
// trace never passes the surface, rounding included.

#include <ccdkit/rigid/implicit_shape.hpp>

#include <Eigen/Core>

#include <cstdint>

namespace ccdkit {

struct SegmentHit {
    bool hit = false;
    /// With a hit: the segment from `from` to `from + fraction (to - from)` holds no point of the solid (open at
    /// its end), and the clearance there is at most the tolerance. Without a hit: 1, or where the trace stopped.
    double fraction = 1.0;
    Eigen::Vector3d point = Eigen::Vector3d::Zero(); ///< from + fraction (to - from)
    Eigen::Vector3d normal = Eigen::Vector3d::UnitZ(); ///< the shape's outward normal there (with a hit)
    std::int64_t steps = 0;
    /// Without a hit: the trace took max_steps steps before reaching `to` (a segment grazing the surface just beyond
    /// the tolerance); the segment up to `fraction` holds no point of the solid, the rest is undecided.
    bool stopped = false;
};

/// The first point of the segment `from` -> `to` at which the shape's clearance falls to `tolerance` (> 0) or
/// below: never past the first point of the solid on the segment, and at most `tolerance` before it for the
/// primitives (whose clearance is the distance up to rounding; for Boolean shapes clearance can be smaller than
/// the distance, so the answer can be earlier). A tolerance below the rounding of the end points (16 ulps of
/// |from| + |to|) counts as that. Steps are longer than half the tolerance, so there are fewer than
/// 2 |to - from| / tolerance + 1 of them: a segment that grazes the surface, passing just beyond the tolerance,
/// takes about its length over that distance: past `max_steps` (>= 1; the default about a second or two) the trace
/// stops and says so (SegmentHit::stopped; such a segment 1e-9 from a face at a tolerance of 1e-12 had run for hours).
/// @throws std::invalid_argument for a non-finite point, a tolerance not finite and > 0, or max_steps < 1
[[nodiscard]] SegmentHit segment_first_hit(
    const ImplicitShape& shape,
    const Eigen::Vector3d& from,
    const Eigen::Vector3d& to,
    double tolerance,
    std::int64_t max_steps = std::int64_t { 1 } << 24);

} // namespace ccdkit
