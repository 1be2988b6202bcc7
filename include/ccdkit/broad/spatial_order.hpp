// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/broad/aabb.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace ccdkit {

/// A permutation of the boxes along a Z-order (Morton) curve through their centers: boxes close in space
/// end up close in the order. Querying in this order keeps a broad phase's working set in cache.
/// Ties and non-finite centers keep a valid (if less useful) order; the result is always a permutation.
[[nodiscard]] std::vector<std::int32_t> spatial_order(std::span<const Aabb> boxes);

} // namespace ccdkit
