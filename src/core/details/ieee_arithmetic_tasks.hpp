// SPDX-License-Identifier: MIT
#pragma once

// Parallel work (oneTBB) in plain IEEE arithmetic, whatever the caller's floating-point mode.

#include "core/details/ieee_arithmetic_scope.hpp"

#include <tbb/task_group.h>

#include <optional>
#include <type_traits>
#include <utility>

namespace ccdkit::details {

/// Runs `work()` and every oneTBB task it starts (parallel_for, parallel_sort, nested loops) in plain IEEE
/// arithmetic (IeeeArithmeticScope), and returns its result; the caller's mode is restored on return.
/// A scope on the calling thread alone is not enough: oneTBB runs each task, on a worker or on the calling
/// thread, in the floating-point settings of its task_group_context, which by default are those captured when
/// the arena was created (flush-to-zero in a -ffast-math program, set at startup), not the caller's current
/// ones. Here the work runs in a context that captured the IEEE settings; the contexts of the loops inside are
/// bound to it and inherit them. The cost is one context and one task per call, nothing per chunk or pair.
/// Exceptions thrown by `work` reach the caller.
template <class Work> auto with_ieee_arithmetic(Work&& work) -> std::invoke_result_t<Work&>
{
    using Result = std::invoke_result_t<Work&>;
    const IeeeArithmeticScope ieee;
    tbb::task_group_context context(
        tbb::task_group_context::bound, tbb::task_group_context::default_traits | tbb::task_group_context::fp_settings);
    tbb::task_group group(context);
    if constexpr (std::is_void_v<Result>) {
        group.run_and_wait([&] { work(); });
    } else {
        std::optional<Result> result;
        group.run_and_wait([&] { result.emplace(work()); });
        return std::move(*result);
    }
}

} // namespace ccdkit::details
