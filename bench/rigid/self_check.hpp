// SPDX-License-Identifier: MIT
#pragma once
// Checks of the benchmark's reference against cases with known answers (`--self-check`): exact triangle-triangle
// contact (touching by a vertex, along an edge, coplanar, one ulp apart), containment, two cubes approaching at
// constant speed (analytic time, also when they only touch along a face edge, and a miss by 2^-40), and a rod
// turning about one end into a wall (analytic angle and normal).

#include <iosfwd>

namespace ccdkit::bench {

/// Prints one line per check; returns the number of failed checks.
[[nodiscard]] int run_self_check(std::ostream& out);

} // namespace ccdkit::bench
