// SPDX-License-Identifier: MIT
// HugePageAllocator: aligned memory of every size, large buffers at huge-page boundaries (Linux), vectors that
// move and swap their memory.
#include <ccdkit/broad/huge_page_allocator.hpp>

#include <Eigen/Core>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>

using ccdkit::HugePageAllocator;
using ccdkit::HugePageVector;
using ccdkit::details::HUGE_PAGE_BYTES;
using ccdkit::details::LARGE_BUFFER_BYTES;

namespace {
std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

/// Writes every element and reads it back: the whole buffer is usable.
template <class T> void fill_and_check(HugePageVector<T>& v)
{
    for (std::size_t k = 0; k < v.size(); ++k) {
        v[k] = static_cast<T>(k % 1000);
    }
    for (std::size_t k = 0; k < v.size(); ++k) {
        ASSERT_EQ(v[k], static_cast<T>(k % 1000)) << k;
    }
}
} // namespace

TEST(HugePageAllocator, SmallAndLargeBuffersAreAlignedAndUsable)
{
    // Around the threshold and the huge page: one below, at, one above; and several huge pages plus a bit.
    for (const std::size_t bytes :
         { std::size_t { 8 }, LARGE_BUFFER_BYTES - 8, LARGE_BUFFER_BYTES, LARGE_BUFFER_BYTES + 8, HUGE_PAGE_BYTES - 8,
           HUGE_PAGE_BYTES, HUGE_PAGE_BYTES + 8, 3 * HUGE_PAGE_BYTES + 24 }) {
        SCOPED_TRACE(bytes);
        HugePageVector<double> v(bytes / sizeof(double));
        ASSERT_EQ(address(v.data()) % alignof(double), 0U);
#ifdef __linux__
        if (bytes >= LARGE_BUFFER_BYTES) {
            EXPECT_EQ(address(v.data()) % HUGE_PAGE_BYTES, 0U);
        }
#endif
        fill_and_check(v);
    }
}

TEST(HugePageAllocator, OverAlignedTypesKeepTheirAlignment)
{
    struct alignas(64) Line {
        double x = 0.0;
    };
    for (const std::size_t count : { std::size_t { 1 }, std::size_t { 3 }, LARGE_BUFFER_BYTES / 64 + 1 }) {
        HugePageAllocator<Line> allocator;
        Line* p = allocator.allocate(count);
        EXPECT_EQ(address(p) % 64, 0U) << count;
        p[count - 1].x = 1.0;
        allocator.deallocate(p, count);
    }
    // Eigen's fixed-size vectorizable types (as in the diagonal bounds) need 16 bytes.
    HugePageVector<Eigen::Array4f> lanes(5, Eigen::Array4f::Ones());
    EXPECT_EQ(address(lanes.data()) % 16, 0U);
    EXPECT_EQ(lanes[4].sum(), 4.0F);
}

TEST(HugePageAllocator, EmptyVectorsAndZeroSizes)
{
    HugePageVector<int> empty;
    EXPECT_TRUE(empty.empty());
    empty.shrink_to_fit();
    HugePageAllocator<int> allocator;
    int* p = allocator.allocate(0);
    allocator.deallocate(p, 0);
}

TEST(HugePageAllocator, VectorsMoveSwapGrowAndShrinkTheirMemory)
{
    const std::size_t large = 2 * LARGE_BUFFER_BYTES / sizeof(std::int32_t);
    HugePageVector<std::int32_t> a(large);
    std::iota(a.begin(), a.end(), 0);
    const std::int32_t* buffer = a.data();
    HugePageVector<std::int32_t> b(std::move(a));
    EXPECT_EQ(b.data(), buffer); // moved, not copied
    HugePageVector<std::int32_t> small(10, 7);
    std::swap(b, small);
    EXPECT_EQ(small.data(), buffer);
    EXPECT_EQ(b, HugePageVector<std::int32_t>(10, 7));
    // Growing from small to large and back moves the elements between the two kinds of memory.
    b.resize(large, 3);
    EXPECT_EQ(b[9], 7);
    EXPECT_EQ(b[large - 1], 3);
    b.resize(4);
    b.shrink_to_fit();
    EXPECT_EQ(b, HugePageVector<std::int32_t>(4, 7));
    HugePageVector<std::int32_t> copy = small;
    EXPECT_EQ(copy, small);
    EXPECT_NE(copy.data(), small.data());
    small = HugePageVector<std::int32_t>();
    EXPECT_TRUE(small.empty());
}

TEST(HugePageAllocator, SizesNearTheLimitThrowInsteadOfWrapping)
{
    // Rounding such a size up to whole huge pages used to wrap to a tiny mapping, returned as if it held them.
    HugePageAllocator<char> allocator;
    const std::size_t most = std::numeric_limits<std::size_t>::max();
    for (const std::size_t count : { most, most - 100, most - HUGE_PAGE_BYTES, most - 3 * HUGE_PAGE_BYTES }) {
        EXPECT_THROW(static_cast<void>(allocator.allocate(count)), std::bad_alloc) << count;
    }
    HugePageAllocator<double> wide;
    EXPECT_THROW(static_cast<void>(wide.allocate(most / sizeof(double))), std::bad_alloc);
}
