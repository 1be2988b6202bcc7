// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/narrow/ccd_types.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

namespace ccdkit::details {

/// The four points of a query at t = 0 and t = 1 (vertex-face: p, t0, t1, t2; edge-edge: ea0, ea1, eb0, eb1).
struct QueryMotion {
    std::array<Eigen::Vector3d, 4> start, end;

    [[nodiscard]] bool is_finite() const
    {
        for (int i = 0; i < 4; ++i) {
            if (!start[i].allFinite() || !end[i].allFinite()) {
                return false;
            }
        }
        return true;
    }

    /// The same motion scaled by a power of two (exactly, so every answer is unchanged) so that the largest
    /// coordinate has magnitude in [1, 2), as the floating-point filters require. Nothing when that scaling
    /// would not be exact (a nonzero coordinate would become subnormal) or all coordinates are zero.
    [[nodiscard]] std::optional<QueryMotion> scaled_to_unit() const
    {
        // The bit patterns of finite |x| order like their values: the largest and the smallest nonzero
        // magnitude come from integer max / min, without branches (b - 1 wraps a zero to the largest value).
        constexpr std::uint64_t MAGNITUDE_BITS = ~(std::uint64_t(1) << 63);
        std::uint64_t largest_bits = 0, smallest_bits_minus_one = ~std::uint64_t(0);
        for (const auto* points : { &start, &end }) {
            for (const Eigen::Vector3d& p : *points) {
                for (int k = 0; k < 3; ++k) {
                    const std::uint64_t b = std::bit_cast<std::uint64_t>(p[k]) & MAGNITUDE_BITS;
                    largest_bits = std::max(largest_bits, b);
                    smallest_bits_minus_one = std::min(smallest_bits_minus_one, b - 1);
                }
            }
        }
        if (largest_bits == 0 || !std::isfinite(std::bit_cast<double>(largest_bits))) {
            return std::nullopt;
        }
        const int e = -ilogb_from_bits(largest_bits);
        // The smallest scaled magnitude is >= 2^(ilogb(smallest) + e): a normal double iff that is >= 2^-1022.
        if (ilogb_from_bits(smallest_bits_minus_one + 1) + e < std::numeric_limits<double>::min_exponent - 1) {
            return std::nullopt;
        }
        QueryMotion scaled = *this;
        if (e > std::numeric_limits<double>::max_exponent - 1) {
            // 2^e itself is not a double (the coordinates are all subnormal): scale one by one.
            for (int i = 0; i < 4; ++i) {
                for (auto* p : { &scaled.start[i], &scaled.end[i] }) {
                    for (int k = 0; k < 3; ++k) {
                        (*p)[k] = std::ldexp((*p)[k], e);
                    }
                }
            }
            return scaled;
        }
        // Multiplying by a power of two is exact when the result is a normal double, as checked above,
        // and much cheaper than ldexp.
        const double factor = e >= std::numeric_limits<double>::min_exponent - 1
            ? std::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52) // 2^e, a normal double
            : std::ldexp(1.0, e);
        for (int i = 0; i < 4; ++i) {
            scaled.start[i] *= factor;
            scaled.end[i] *= factor;
        }
        return scaled;
    }

    /// ilogb of the positive finite double with these bits: its exponent field, unless it is subnormal.
    [[nodiscard]] static int ilogb_from_bits(std::uint64_t magnitude_bits)
    {
        const auto field = static_cast<int>(magnitude_bits >> 52);
        return field != 0 ? field - 1023 : std::ilogb(std::bit_cast<double>(magnitude_bits));
    }

    /// Positions at time t, in floating point (for contact data only, never for decisions).
    [[nodiscard]] std::array<Eigen::Vector3d, 4> at(double t) const
    {
        std::array<Eigen::Vector3d, 4> x;
        for (int i = 0; i < 4; ++i) {
            x[i] = start[i] + t * (end[i] - start[i]);
        }
        return x;
    }
};

/// Options every method accepts: 0 < t_max <= 1, a positive finite tolerance.
[[nodiscard]] inline bool valid_options(const CcdOptions& options)
{
    return options.t_max > 0.0 && options.t_max <= 1.0 && options.tolerance > 0.0 && std::isfinite(options.tolerance);
}

inline QueryMotion to_query_motion(const VertexFaceMotion& m)
{
    return { { m.p_t0, m.t0_t0, m.t1_t0, m.t2_t0 }, { m.p_t1, m.t0_t1, m.t1_t1, m.t2_t1 } };
}

inline QueryMotion to_query_motion(const EdgeEdgeMotion& m)
{
    return { { m.ea0_t0, m.ea1_t0, m.eb0_t0, m.eb1_t0 }, { m.ea0_t1, m.ea1_t1, m.eb0_t1, m.eb1_t1 } };
}

} // namespace ccdkit::details
