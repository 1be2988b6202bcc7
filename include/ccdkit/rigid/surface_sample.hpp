// SPDX-License-Identifier: MIT
#pragma once

#include <Eigen/Core>

namespace ccdkit {

/// A point on (within rounding of) the surface of a solid, with the solid's unit outward normal there.
struct SurfaceSample {
    Eigen::Vector3d point; ///< on the surface, up to a few units of rounding of its coordinates
    Eigen::Vector3d normal; ///< unit, pointing out of the solid
};

} // namespace ccdkit
