// SPDX-License-Identifier: MIT
#pragma once

// spatial_order() into buffers the caller keeps, so that repeated calls (a simulator's steps) reuse memory.

#include <ccdkit/broad/aabb.hpp>
#include <ccdkit/broad/huge_page_allocator.hpp>

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace ccdkit::details {

/// Scratch memory of spatial_order(): one Morton key per box.
using SpatialKeys = HugePageVector<std::pair<std::uint64_t, std::int32_t>>;

/// spatial_order(boxes) into `order` (as many entries as boxes), with `keys` as scratch.
void spatial_order(std::span<const Aabb> boxes, SpatialKeys& keys, std::span<std::int32_t> order);

} // namespace ccdkit::details
