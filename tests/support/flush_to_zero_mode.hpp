// SPDX-License-Identifier: MIT
#pragma once

// A caller in flush-to-zero / denormals-are-zero mode, as every program linked with -ffast-math is from startup:
// the library must answer what it answers in plain IEEE mode, and hand the caller's mode back unchanged.

#include <gtest/gtest.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#if defined(__SSE2__)
#include <xmmintrin.h>

namespace ccdkit::test {

/// Sets MXCSR to flush-to-zero and denormals-are-zero for its lifetime.
class FlushToZeroMode {
public:
    FlushToZeroMode()
        : saved_(_mm_getcsr())
    {
        _mm_setcsr(saved_ | FLUSH_BITS);
    }
    ~FlushToZeroMode() { _mm_setcsr(saved_); }
    FlushToZeroMode(const FlushToZeroMode&) = delete;
    FlushToZeroMode& operator=(const FlushToZeroMode&) = delete;

    static constexpr unsigned FLUSH_BITS = 0x8000U | 0x0040U;

    /// Whether the calling thread is in this mode (fails the test otherwise: the library did not restore it).
    static void expect_still_set() { EXPECT_EQ(_mm_getcsr() & FLUSH_BITS, FLUSH_BITS) << "caller's mode not restored"; }

private:
    unsigned saved_;
};

/// `work()` called as a -ffast-math program calls it: from a thread in flush-to-zero mode, in a oneTBB arena
/// created in that mode (an arena captures its creator's floating-point settings and runs every task in them,
/// on its workers and on the calling thread alike). Checks that the caller's mode is restored.
template <class Work> auto in_flush_to_zero_program(Work work)
{
    const FlushToZeroMode flush;
    tbb::task_arena arena;
    arena.initialize();
    auto result = arena.execute(work);
    FlushToZeroMode::expect_still_set();
    return result;
}

/// `work()` called from a thread that switched to flush-to-zero mode after its oneTBB arena was created in
/// plain mode: the tasks run in plain mode, the caller's own code does not. Checks the mode is restored.
template <class Work> auto with_flush_to_zero_caller(Work work)
{
    tbb::parallel_for(0, 2, [](int) {}); // creates this thread's arena, if none yet, in the current (plain) mode
    const FlushToZeroMode flush;
    auto result = work();
    FlushToZeroMode::expect_still_set();
    return result;
}

} // namespace ccdkit::test
#endif
