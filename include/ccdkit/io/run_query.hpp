// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/io/query_file.hpp>
#include <ccdkit/narrow/ccd_types.hpp>

namespace ccdkit {

/// Runs one benchmark query with the method in `options`. Point-edge (2D) queries: space-time CCD for
/// `SPACETIME`; otherwise the linear model, as edge-edge CCD in 3D between the zero-length edge (p, p) and the
/// edge (e0, e1) in z = 0, which `edge_edge_ccd` decides exactly (zero-length and coplanar edges included).
/// Query points get the space-time ids 0, 1, 2, 3 in their order.
[[nodiscard]] CcdResult run_query(const Query& query, const CcdOptions& options);

} // namespace ccdkit
