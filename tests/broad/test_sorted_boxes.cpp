// SPDX-License-Identifier: MIT
// Boxes reordered along the spatial order in reused buffers: the same as a sorted copy, whatever the buffers held.
#include "broad/details/candidate_blocks.hpp"

#include <ccdkit/broad/spatial_order.hpp>

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <random>

using ccdkit::Aabb;
using ccdkit::details::SortedBoxes;

namespace {
std::vector<Aabb> random_boxes(std::mt19937& rng, int count)
{
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<Aabb> boxes(static_cast<std::size_t>(count));
    for (Aabb& b : boxes) {
        for (int a = 0; a < 3; ++a) {
            b.min[a] = unit(rng);
            b.max[a] = b.min[a] + 0.1 * unit(rng);
        }
    }
    return boxes;
}
} // namespace

TEST(SortedBoxes, ReusedEqualsTheSortedCopy)
{
    std::mt19937 rng(5);
    SortedBoxes reused;
    // Sizes that grow and shrink, so that the reused buffers hold stale entries (30000 boxes lie in huge pages,
    // huge_page_allocator.hpp); duplicates tie in the order.
    for (const int count : { 1000, 17, 0, 1, 30000, 4096, 3 }) {
        SCOPED_TRACE(count);
        std::vector<Aabb> input = random_boxes(rng, count);
        if (count > 10) {
            std::fill(input.begin(), input.begin() + 5, input[7]);
        }
        const std::vector<std::int32_t> order = ccdkit::spatial_order(input);
        reused.boxes.assign(input.begin(), input.end());
        reused.sort();
        const SortedBoxes fresh(input);
        ASSERT_TRUE(std::ranges::equal(reused.order, order));
        ASSERT_TRUE(std::ranges::equal(fresh.order, order));
        ASSERT_EQ(reused.boxes.size(), input.size());
        for (std::size_t k = 0; k < input.size(); ++k) {
            const Aabb& expected = input[static_cast<std::size_t>(order[k])];
            ASSERT_TRUE((reused.boxes[k].min == expected.min).all() && (reused.boxes[k].max == expected.max).all())
                << "box " << k;
            ASSERT_TRUE((fresh.boxes[k].min == expected.min).all() && (fresh.boxes[k].max == expected.max).all());
            ASSERT_EQ(reused.original(static_cast<std::int32_t>(k)), order[k]);
        }
    }
}

TEST(SortedBoxes, SameOnOneThreadOrMany)
{
    // The gather runs in parallel blocks: its result, and the order, must not depend on the threads.
    std::mt19937 rng(9);
    const std::vector<Aabb> input = random_boxes(rng, 50000);
    SortedBoxes one, two;
    {
        const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
        one.boxes.assign(input.begin(), input.end());
        one.sort();
    }
    {
        const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
        two.boxes.assign(input.begin(), input.end());
        two.sort();
    }
    ASSERT_TRUE(std::ranges::equal(one.order, two.order));
    ASSERT_EQ(one.boxes.size(), two.boxes.size());
    for (std::size_t k = 0; k < input.size(); ++k) {
        const Aabb& expected = input[static_cast<std::size_t>(one.order[k])];
        ASSERT_TRUE((one.boxes[k].min == expected.min).all() && (one.boxes[k].max == expected.max).all()) << k;
        ASSERT_TRUE((two.boxes[k].min == expected.min).all() && (two.boxes[k].max == expected.max).all()) << k;
    }
}
