// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/narrow/ccd_types.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
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
        double largest = 0.0, smallest = std::numeric_limits<double>::infinity();
        for (int i = 0; i < 4; ++i) {
            for (const auto* p : { &start[i], &end[i] }) {
                for (int k = 0; k < 3; ++k) {
                    const double a = std::abs((*p)[k]);
                    largest = std::max(largest, a);
                    if (a > 0.0) {
                        smallest = std::min(smallest, a);
                    }
                }
            }
        }
        if (largest == 0.0) {
            return std::nullopt;
        }
        const int e = -std::ilogb(largest);
        if (std::ldexp(smallest, e) < std::numeric_limits<double>::min()) {
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
        const double factor = std::ldexp(1.0, e);
        for (int i = 0; i < 4; ++i) {
            scaled.start[i] *= factor;
            scaled.end[i] *= factor;
        }
        return scaled;
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
