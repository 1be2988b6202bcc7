// SPDX-License-Identifier: MIT
// with_ieee_arithmetic: the work and every oneTBB task it starts run in plain IEEE mode, whatever the caller's
// mode and whatever mode the caller's arena captured; the caller's mode comes back, also after an exception.
#include "core/details/ieee_arithmetic_tasks.hpp"
#include "support/flush_to_zero_mode.hpp"

#include <gtest/gtest.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#if defined(__SSE2__)
using ccdkit::details::with_ieee_arithmetic;
using ccdkit::test::FlushToZeroMode;
using ccdkit::test::in_flush_to_zero_program;
using ccdkit::test::with_flush_to_zero_caller;

namespace {
/// MXCSR bits that are not plain IEEE: flush-to-zero, denormals-are-zero, rounding control.
constexpr unsigned NON_IEEE_BITS = 0x8000U | 0x6000U | 0x0040U;

/// How many of many parallel chunks (and the work itself, and a nested loop's chunks) saw a non-IEEE mode.
int chunks_not_in_ieee_mode()
{
    return with_ieee_arithmetic([] {
        std::atomic<int> bad { (_mm_getcsr() & NON_IEEE_BITS) != 0 ? 1 : 0 };
        tbb::parallel_for(0, 256, [&](int) {
            bad += (_mm_getcsr() & NON_IEEE_BITS) != 0 ? 1 : 0;
            tbb::parallel_for(0, 4, [&](int) { bad += (_mm_getcsr() & NON_IEEE_BITS) != 0 ? 1 : 0; });
        });
        // A comparison sort (parallel_sort takes no context) sees the mode too.
        std::vector<int> values(20000);
        for (std::size_t i = 0; i < values.size(); ++i) {
            values[i] = static_cast<int>((i * 7919) % values.size());
        }
        tbb::parallel_sort(values.begin(), values.end(), [&](int a, int b) {
            if ((_mm_getcsr() & NON_IEEE_BITS) != 0) {
                ++bad;
            }
            return a < b;
        });
        return bad.load();
    });
}
} // namespace

TEST(IeeeArithmeticTasks, EveryTaskRunsInIeeeModeUnderAFlushToZeroProgram)
{
    EXPECT_EQ(in_flush_to_zero_program(chunks_not_in_ieee_mode), 0);
}

TEST(IeeeArithmeticTasks, EveryTaskRunsInIeeeModeUnderAFlushToZeroCaller)
{
    EXPECT_EQ(with_flush_to_zero_caller(chunks_not_in_ieee_mode), 0);
}

TEST(IeeeArithmeticTasks, ReturnsTheWorksResultAndItsExceptions)
{
    const FlushToZeroMode flush;
    // Subnormal arithmetic is not flushed inside, and is outside.
    volatile double tiny = 0x1p-1060;
    EXPECT_EQ(with_ieee_arithmetic([&] { return tiny * 1.0; }), 0x1p-1060);
    EXPECT_EQ(tiny * 1.0, 0.0);
    EXPECT_THROW(with_ieee_arithmetic([]() -> int { throw std::runtime_error("work failed"); }), std::runtime_error);
    FlushToZeroMode::expect_still_set();
}
#endif
