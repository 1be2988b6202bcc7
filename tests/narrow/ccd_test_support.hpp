// SPDX-License-Identifier: MIT
#pragma once

// Shared helpers of the narrow-phase tests: building motions from the benchmark's 8-point layout and checking
// a result against the independent exact oracle.

#include <ccdkit/narrow/edge_edge_ccd.hpp>
#include <ccdkit/narrow/vertex_face_ccd.hpp>

#include <gtest/gtest.h>

#include <array>
#include <oracle/linear_ccd_oracle.hpp>
#include <sstream>

namespace ccdkit::test {

using Points = std::array<Eigen::Vector3d, 8>;

inline VertexFaceMotion vertex_face_motion(const Points& x)
{
    return { x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] };
}

inline EdgeEdgeMotion edge_edge_motion(const Points& x) { return { x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] }; }

inline CcdResult run(bool vertex_face, const Points& x, const CcdOptions& options = {})
{
    return vertex_face ? vertex_face_ccd(vertex_face_motion(x), options) : edge_edge_ccd(edge_edge_motion(x), options);
}

inline oracle::OracleResult run_oracle(bool vertex_face, const Points& x, double t_max = 1.0)
{
    return vertex_face ? oracle::vertex_face(x, t_max) : oracle::edge_edge(x, t_max);
}

/// 17-digit coordinates, so that a failing case can be pasted back as a regression test.
inline std::string describe(const Points& x)
{
    std::ostringstream out;
    out.precision(17);
    for (const auto& p : x) {
        out << "{" << p[0] << ", " << p[1] << ", " << p[2] << "} ";
    }
    return out.str();
}

/// The exact method agrees with the oracle: same hit, and the oracle's first contact time t* lies in
/// [toi_lower, toi_upper], an interval no wider than the tolerance.
inline ::testing::AssertionResult agrees_with_oracle(bool vertex_face, const Points& x, const CcdOptions& options = {})
{
    const CcdResult r = run(vertex_face, x, options);
    const oracle::OracleResult o = run_oracle(vertex_face, x, options.t_max);
    if (r.status == CcdStatus::INVALID_INPUT) {
        return ::testing::AssertionFailure() << "invalid input reported for " << describe(x);
    }
    if (r.hit != o.hit) {
        return ::testing::AssertionFailure() << (vertex_face ? "vertex-face" : "edge-edge") << ": method says " << r.hit
                                             << ", oracle says " << o.hit << " for " << describe(x);
    }
    if (!o.hit) {
        return ::testing::AssertionSuccess();
    }
    const int below = o.earliest->compare(r.toi_lower); // t* vs lower: must be >= 0
    const int above = o.earliest->compare(r.toi_upper); // t* vs upper: must be <= 0
    if (below < 0 || above > 0) {
        return ::testing::AssertionFailure() << "toi [" << r.toi_lower << ", " << r.toi_upper << "] misses t* ~ "
                                             << o.earliest->approx() << " for " << describe(x);
    }
    // Rounding the rational bounds outward to doubles may add an ulp on each side.
    if (r.toi_upper - r.toi_lower > options.tolerance * (1 + 1e-9) + 4e-16) {
        return ::testing::AssertionFailure() << "toi interval wider than the tolerance for " << describe(x);
    }
    if ((r.status == CcdStatus::INITIALLY_TOUCHING) != (o.earliest->compare(0.0) == 0)) {
        return ::testing::AssertionFailure() << "initially-touching status wrong for " << describe(x);
    }
    return ::testing::AssertionSuccess();
}

} // namespace ccdkit::test
