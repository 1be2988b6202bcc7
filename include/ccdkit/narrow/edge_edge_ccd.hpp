// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/narrow/ccd_types.hpp>

namespace ccdkit {

/// Continuous collision detection of two moving edges under the linear motion model.
///
/// Collision means: for some t in [0, t_max] the two closed segments share a point. Parallel, collinear and
/// zero-length edges are handled: with `CcdMethod::EXACT` the answer is exact for every finite double input.
/// @param[in] motion   positions at t = 0 and t = 1
/// @param[in] options  t_max, toi tolerance, method
/// @return hit, status, certified time-of-impact interval; `INVALID_INPUT` if a coordinate is not finite.
[[nodiscard]] CcdResult edge_edge_ccd(const EdgeEdgeMotion& motion, const CcdOptions& options = {});

} // namespace ccdkit
