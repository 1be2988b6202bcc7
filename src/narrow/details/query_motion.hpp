// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/narrow/ccd_types.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <array>

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

inline QueryMotion to_query_motion(const VertexFaceMotion& m)
{
    return { { m.p_t0, m.t0_t0, m.t1_t0, m.t2_t0 }, { m.p_t1, m.t0_t1, m.t1_t1, m.t2_t1 } };
}

inline QueryMotion to_query_motion(const EdgeEdgeMotion& m)
{
    return { { m.ea0_t0, m.ea1_t0, m.eb0_t0, m.eb1_t0 }, { m.ea0_t1, m.ea1_t1, m.eb0_t1, m.eb1_t1 } };
}

} // namespace ccdkit::details
