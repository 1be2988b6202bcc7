// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/narrow/ccd_types.hpp>

namespace ccdkit {

/// Continuous collision detection of a moving vertex against a moving triangle under the linear motion model.
///
/// Collision means: for some t in [0, t_max] the vertex lies in the closed triangle (barycentric weights
/// all >= 0). Degenerate triangles (collapsed to a segment or a point) and degenerate motions are handled:
/// with `CcdMethod::EXACT` the answer is exact for every finite double input.
/// @param[in] motion   positions at t = 0 and t = 1
/// @param[in] options  t_max, toi tolerance, method
/// @return hit, status, certified time-of-impact interval; `INVALID_INPUT` if a coordinate is not finite.
[[nodiscard]] CcdResult vertex_face_ccd(const VertexFaceMotion& motion, const CcdOptions& options = {});

} // namespace ccdkit
