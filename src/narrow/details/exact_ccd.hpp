// SPDX-License-Identifier: MIT
#pragma once

#include "query_motion.hpp"

namespace ccdkit::details {

struct ExactOutcome {
    bool hit = false;
    bool initially_touching = false; ///< contact at t = 0 exactly
    double toi_lower = 0.0, toi_upper = 0.0;
};

/// The exact answer of the linear motion model, in rational arithmetic, for any finite input.
///
/// The contact set {t in [0, t_max] : the primitives touch at t} is closed. If the coplanarity cubic is not
/// identically zero, contact can only happen at its roots, tested in increasing order. If it is identically
/// zero (coplanar motion), the set is defined by the signs of the other contact polynomials, and a nonempty
/// closed set of that kind contains 0, t_max or one of their roots: all of those are tested. The test at a
/// candidate t: (non-degenerate and every inside polynomial >= 0) or (a point lies on a segment).
/// Terms is VertexFaceTerms or EdgeEdgeTerms.
template <class Terms> [[nodiscard]] ExactOutcome exact_ccd(const QueryMotion& motion, double t_max, double tolerance);

} // namespace ccdkit::details
