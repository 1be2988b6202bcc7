// SPDX-License-Identifier: MIT
#pragma once

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace ccdkit::details {

/// While alive, double arithmetic is plain IEEE: round to nearest with gradual underflow, as the filters'
/// error bounds and the exact stage's conversions assume. A caller may have switched the SSE control register
/// to flush-to-zero / denormals-are-zero (every program linked with -ffast-math does at startup) or to another
/// rounding direction: a subnormal difference then reads as zero and the filters certify wrong signs, i.e.
/// miss contacts. The register is restored on exit. Elsewhere (no SSE2) this does nothing.
/// The mode is the calling thread's only: oneTBB tasks do not see it (for parallel work, with_ieee_arithmetic()
/// in ieee_arithmetic_tasks.hpp).
class IeeeArithmeticScope {
public:
#if defined(__SSE2__)
    IeeeArithmeticScope()
        : saved_(_mm_getcsr())
    {
        if ((saved_ & NON_IEEE_BITS) != 0) {
            _mm_setcsr(saved_ & ~NON_IEEE_BITS);
        }
    }
    ~IeeeArithmeticScope()
    {
        if ((saved_ & NON_IEEE_BITS) != 0) {
            _mm_setcsr(saved_);
        }
    }
#else
    // User-provided (not defaulted): a scope variable of a trivial type would be reported unused.
    IeeeArithmeticScope() { } // NOLINT(modernize-use-equals-default)
#endif
    IeeeArithmeticScope(const IeeeArithmeticScope&) = delete;
    IeeeArithmeticScope& operator=(const IeeeArithmeticScope&) = delete;

#if defined(__SSE2__)
private:
    /// MXCSR: flush-to-zero (bit 15), rounding control (bits 13-14, zero is to nearest), denormals-are-zero (6).
    static constexpr unsigned NON_IEEE_BITS = 0x8000U | 0x6000U | 0x0040U;
    unsigned saved_;
#endif
};

} // namespace ccdkit::details
