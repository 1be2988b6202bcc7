// SPDX-License-Identifier: MIT
#include <ccdkit/broad/huge_page_allocator.hpp>

#ifdef __linux__
#include <sys/mman.h>
#endif

#include <cstdint>
#include <limits>

namespace ccdkit::details {

namespace {
    [[maybe_unused]] std::size_t huge_pages_for(std::size_t bytes)
    {
        return (bytes + HUGE_PAGE_BYTES - 1) / HUGE_PAGE_BYTES * HUGE_PAGE_BYTES;
    }
} // namespace

void* allocate_buffer(std::size_t bytes, std::size_t alignment)
{
#ifdef __linux__
    if (bytes >= LARGE_BUFFER_BYTES) {
        // Rounding up to whole huge pages plus one must not wrap around (no machine maps that much anyway).
        if (bytes > std::numeric_limits<std::size_t>::max() - 2 * HUGE_PAGE_BYTES) {
            throw std::bad_alloc();
        }
        // Map one huge page more than needed and unmap the ends: the kernel backs a region with huge pages only
        // where it covers whole 2 MiB-aligned pages.
        const std::size_t length = huge_pages_for(bytes);
        void* mapped
            = mmap(nullptr, length + HUGE_PAGE_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapped == MAP_FAILED) {
            throw std::bad_alloc();
        }
        const auto start = reinterpret_cast<std::uintptr_t>(mapped);
        const std::uintptr_t aligned = (start + HUGE_PAGE_BYTES - 1) / HUGE_PAGE_BYTES * HUGE_PAGE_BYTES;
        if (aligned > start) {
            munmap(mapped, aligned - start);
        }
        if (const std::uintptr_t end = start + length + HUGE_PAGE_BYTES; end > aligned + length) {
            munmap(reinterpret_cast<void*>(aligned + length), end - (aligned + length));
        }
        // Advice only: without transparent huge pages the region still works, in small pages.
        madvise(reinterpret_cast<void*>(aligned), length, MADV_HUGEPAGE);
        return reinterpret_cast<void*>(aligned);
    }
#endif
    return ::operator new (bytes, std::align_val_t { alignment });
}

void deallocate_buffer(void* buffer, std::size_t bytes, std::size_t alignment) noexcept
{
#ifdef __linux__
    if (bytes >= LARGE_BUFFER_BYTES) {
        munmap(buffer, huge_pages_for(bytes));
        return;
    }
#endif
    ::operator delete (buffer, bytes, std::align_val_t { alignment });
}

} // namespace ccdkit::details
