// SPDX-License-Identifier: MIT
#include "broad/details/spatial_order_buffers.hpp"
#include "core/details/ieee_arithmetic_tasks.hpp"

#include <ccdkit/broad/broad_phase.hpp>
#include <ccdkit/broad/spatial_order.hpp>

#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ccdkit {

namespace {
    /// Spreads the low 21 bits of x so that two zero bits follow each.
    std::uint64_t spread_bits(std::uint64_t x)
    {
        x &= 0x1fffffULL;
        x = (x | x << 32U) & 0x1f00000000ffffULL;
        x = (x | x << 16U) & 0x1f0000ff0000ffULL;
        x = (x | x << 8U) & 0x100f00f00f00f00fULL;
        x = (x | x << 4U) & 0x10c30c30c30c30c3ULL;
        x = (x | x << 2U) & 0x1249249249249249ULL;
        return x;
    }

    Eigen::Array3d center(const Aabb& b) { return b.min * 0.5 + b.max * 0.5; }
} // namespace

void details::spatial_order(std::span<const Aabb> boxes, SpatialKeys& keyed, std::span<std::int32_t> order)
{
    check_boxes(boxes, "spatial_order");
    constexpr double INF = std::numeric_limits<double>::infinity();
    Eigen::Array3d low = Eigen::Array3d::Constant(INF), high = Eigen::Array3d::Constant(-INF);
    for (const Aabb& b : boxes) {
        const Eigen::Array3d c = center(b);
        if (c.allFinite()) {
            low = low.min(c);
            high = high.max(c);
        }
    }
    constexpr double CELLS = (1 << 21) - 1;
    const Eigen::Array3d extent = high - low;
    keyed.resize(boxes.size());
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, boxes.size(), 4096), [&](const tbb::blocked_range<std::size_t>& r) {
            for (std::size_t i = r.begin(); i != r.end(); ++i) {
                const Eigen::Array3d c = center(boxes[i]);
                std::uint64_t code = 0;
                for (int a = 0; a < 3; ++a) {
                    const double f = extent[a] > 0.0 ? (c[a] - low[a]) / extent[a] : 0.0;
                    // Non-finite or out-of-range positions clamp to the ends of the curve.
                    const double cell = std::isfinite(f) ? std::clamp(f, 0.0, 1.0) * CELLS : 0.0;
                    code |= spread_bits(static_cast<std::uint64_t>(cell)) << static_cast<unsigned>(a);
                }
                keyed[i] = { code, static_cast<std::int32_t>(i) };
            }
        });
    tbb::parallel_sort(keyed.begin(), keyed.end());
    std::transform(keyed.begin(), keyed.end(), order.begin(), [](const auto& k) { return k.second; });
}

std::vector<std::int32_t> spatial_order(std::span<const Aabb> boxes)
{
    details::SpatialKeys keys;
    std::vector<std::int32_t> order(boxes.size());
    details::with_ieee_arithmetic([&] { details::spatial_order(boxes, keys, order); });
    return order;
}

} // namespace ccdkit
