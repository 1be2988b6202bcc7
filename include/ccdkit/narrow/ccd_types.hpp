// SPDX-License-Identifier: MIT
#pragma once

#include <Eigen/Core>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace ccdkit {

/// The latest stage a query needed, in this order.
enum class DecidedBy : std::uint8_t {
    FILTER, ///< double arithmetic with a proven forward error bound
    DOUBLE_DOUBLE, ///< double-double arithmetic (about 106 bits) with a proven error bound
    EXACT, ///< exact integer arithmetic (GMP)
    FLOAT, ///< plain floating point, no guarantee (the `bsc-float` method)
};

/// Outcome of a query.
enum class CcdStatus : std::uint8_t {
    SEPARATED, ///< no contact for t in [0, t_max]
    HIT, ///< first contact at some t in (0, t_max]
    INITIALLY_TOUCHING, ///< in contact already at t = 0
    INVALID_INPUT, ///< a coordinate is NaN or infinite; nothing was decided
};

/// Narrow-phase methods behind one API.
enum class CcdMethod : std::uint8_t {
    EXACT, ///< Bernstein sign classification, filtered then exact: the exact answer of the linear model
    BSC_FLOAT, ///< the same classification in plain double arithmetic (fast, no guarantee)
    /// Space-time CCD (Brochu & Bridson 2009, narrow/spacetime_ccd.hpp): exact for its own piecewise-linear
    /// model, which is not the linear one. Through `vertex_face_ccd` / `edge_edge_ccd` the query's points get
    /// ids 0, 1, 2, 3 in their order; mesh-level CCD passes the mesh's vertex ids.
    SPACETIME,
};

/// The methods' names on the command line and in reports.
inline constexpr std::array<std::pair<CcdMethod, std::string_view>, 3> CCD_METHOD_NAMES { {
    { CcdMethod::EXACT, "exact" },
    { CcdMethod::BSC_FLOAT, "bsc-float" },
    { CcdMethod::SPACETIME, "spacetime" },
} };

/// The method of a name in CCD_METHOD_NAMES; nothing for an unknown name.
[[nodiscard]] inline std::optional<CcdMethod> ccd_method_from_name(std::string_view name)
{
    for (const auto& [method, method_name] : CCD_METHOD_NAMES) {
        if (name == method_name) {
            return method;
        }
    }
    return std::nullopt;
}

struct CcdOptions {
    /// End of the time interval; queries look at t in [0, t_max], 0 < t_max <= 1.
    double t_max = 1.0;
    /// Requested width of the time-of-impact interval [toi_lower, toi_upper].
    double tolerance = 1e-6;
    CcdMethod method = CcdMethod::EXACT;
};

/// A vertex `p` against a triangle `(t0, t1, t2)`, every point moving linearly from its `_t0` to its `_t1`
/// position over t in [0, 1].
struct VertexFaceMotion {
    Eigen::Vector3d p_t0, t0_t0, t1_t0, t2_t0;
    Eigen::Vector3d p_t1, t0_t1, t1_t1, t2_t1;
};

/// An edge `(ea0, ea1)` against an edge `(eb0, eb1)`, every point moving linearly over t in [0, 1].
struct EdgeEdgeMotion {
    Eigen::Vector3d ea0_t0, ea1_t0, eb0_t0, eb1_t0;
    Eigen::Vector3d ea0_t1, ea1_t1, eb0_t1, eb1_t1;
};

/// Result of a narrow-phase query.
///
/// For a hit, the first contact time t* lies in [toi_lower, toi_upper] (certified for the `EXACT` method);
/// toi_lower is a safe step: the primitives do not touch for t < toi_lower. For no hit, toi_lower = toi_upper
/// = t_max.
struct CcdResult {
    bool hit = false;
    CcdStatus status = CcdStatus::SEPARATED;
    double toi_lower = 1.0; ///< no contact before this time
    double toi_upper = 1.0; ///< contact at or before this time
    /// Contact parameters at toi_upper, computed in floating point (approximate): vertex-face gives the
    /// barycentric weights (w0, w1, w2) of the triangle's vertices; edge-edge gives (s, u, 0) with the
    /// contact at ea0 + s (ea1 - ea0) and eb0 + u (eb1 - eb0).
    Eigen::Vector3d contact = Eigen::Vector3d::Zero();
    /// Unit normal at toi_upper: the triangle's normal, or the cross product of the two edge directions;
    /// zero where it is undefined (collapsed triangle, parallel edges). Oriented towards the side the vertex
    /// (edge a) starts on, so that an approaching contact has a negative `normal_velocity`.
    Eigen::Vector3d normal = Eigen::Vector3d::Zero();
    /// Relative normal velocity at the contact: normal . (velocity of the vertex (edge a's contact point) minus
    /// velocity of the triangle's (edge b's) contact point), velocities being the displacements over the step.
    double normal_velocity = 0.0;
    DecidedBy decided_by = DecidedBy::FILTER;
};

} // namespace ccdkit
