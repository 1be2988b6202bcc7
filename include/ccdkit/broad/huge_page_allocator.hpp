// SPDX-License-Identifier: MIT
#pragma once

// Memory for the large buffers that whole-mesh CCD fills afresh at every step (swept boxes, trees, per-vertex
// bounds). The first touch of each page is a page fault, and where faults are slow (about 11 us per 4 KiB page
// on some virtual machines) 50 MiB of fresh buffers cost 150 ms, more than the step's computing. Buffers of at
// least LARGE_BUFFER_BYTES are therefore mapped at a 2 MiB boundary and marked for transparent huge pages: one
// fault per 2 MiB. Smaller buffers, and systems other than Linux, come from operator new. Public only because
// Bvh keeps its buffers in it.

#include <cstddef>
#include <limits>
#include <new>
#include <vector>

namespace ccdkit {

namespace details {
    inline constexpr std::size_t HUGE_PAGE_BYTES = std::size_t { 1 } << 21U;
    /// Buffers from this size on are mapped in huge pages. Below 2 MiB the mapping is rounded up to a huge
    /// page, so at most half of it is unused; one fault for it is still far cheaper than 256 small ones.
    inline constexpr std::size_t LARGE_BUFFER_BYTES = std::size_t { 1 } << 20U;

    /// `bytes` aligned to `alignment` (at most HUGE_PAGE_BYTES); mapped in huge pages when large.
    /// @throws std::bad_alloc when no memory is left.
    [[nodiscard]] void* allocate_buffer(std::size_t bytes, std::size_t alignment);
    /// Frees what allocate_buffer(bytes, alignment) returned, given the same sizes.
    void deallocate_buffer(void* buffer, std::size_t bytes, std::size_t alignment) noexcept;
} // namespace details

/// A stateless allocator over details::allocate_buffer(): any two compare equal, so containers move and swap
/// their memory freely.
template <class T> class HugePageAllocator {
public:
    static_assert(alignof(T) <= details::HUGE_PAGE_BYTES);
    using value_type = T;

    HugePageAllocator() noexcept = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>& /*other*/) noexcept // NOLINT(google-explicit-constructor)
    {
    }

    [[nodiscard]] T* allocate(std::size_t count)
    {
        if (count > std::numeric_limits<std::size_t>::max() / sizeof(T)) {
            throw std::bad_array_new_length();
        }
        return static_cast<T*>(details::allocate_buffer(count * sizeof(T), alignof(T)));
    }
    void deallocate(T* buffer, std::size_t count) noexcept
    {
        details::deallocate_buffer(buffer, count * sizeof(T), alignof(T));
    }

    template <class U> bool operator==(const HugePageAllocator<U>& /*other*/) const noexcept { return true; }
};

/// A vector whose large buffers lie in huge pages.
template <class T> using HugePageVector = std::vector<T, HugePageAllocator<T>>;

} // namespace ccdkit
