// SPDX-License-Identifier: MIT
#pragma once

// Exact intersection of two closed simplices in R^n (n <= 4), the predicate of space-time CCD.
//
// Generic case (the simplices' dimensions add up to n, and the n + 2 points do not lie in one hyperplane): the
// coefficients c of the points' affine dependence (affine_dependence.hpp) are, up to one common factor, the
// barycentric coordinates of the single point where the two affine hulls meet, with the second simplex's
// negated. The simplices meet iff no two of the (sign-adjusted) c_i have opposite signs.
//
// Degenerate cases are reduced exactly, never perturbed (touching always counts as contact):
// - all c_i = 0: every point lies in one hyperplane H. Some axis-aligned projection R^n -> R^(n-1) (dropping
//   one coordinate) is one-to-one on H: one that keeps the points' affine rank (computed exactly). The
//   simplices meet iff their projections by it meet, and common points map back one to one.
// - the dimensions add up to more than n (after a projection): the simplices meet iff some faces of theirs,
//   with dimensions adding up to exactly n, meet. (A vertex v of the intersection lies in the relative
//   interiors of affinely independent faces I, J whose affine hulls meet only at v, so dim I + dim J <= n;
//   adding vertices to I or J keeps v in them.)
// - n = 0: both are the single point of R^0.
// Signs come from a floating-point filter (FilteredDouble) when the caller has scaled the coordinates to
// |x| <= 4, else, and whenever the filter cannot decide, from exact integer arithmetic (GMP).

#include <ccdkit/narrow/ccd_types.hpp>

#include <array>
#include <optional>
#include <vector>

namespace ccdkit::details {

/// A vertex of a simplex: up to four coordinates, and (set by SimplexIntersection) its position in the simplex
/// the caller passed, so that weights found on faces and projections map back to it.
struct SimplexVertex {
    std::array<double, 4> x {};
    int source = 0;
};

/// A closed simplex given by 1 to 4 vertices (repeated or affinely dependent vertices are allowed).
struct Simplex {
    std::array<SimplexVertex, 4> vertex {};
    int size = 0;
};

/// A common point of two simplices, as weights of their vertices in the order given (in floating point:
/// approximate).
struct SimplexContact {
    std::array<double, 4> p_weight {}, q_weight {};
};

/// Decides whether two closed simplices in R^dim meet, and finds a common point.
class SimplexIntersection {
public:
    /// @param[in] filter  whether the floating-point filter may be used (every |coordinate| <= 4)
    SimplexIntersection(int dim, bool filter)
        : dim_(dim)
        , filter_(filter)
    {
    }

    /// Exact. `dim(p) + dim(q)` (sizes minus one) must be at least `dim`.
    [[nodiscard]] bool intersect(const Simplex& p, const Simplex& q);

    /// After a `true` answer: the common point with the smallest last coordinate (for space-time CCD: the
    /// earliest time). In the generic case it is the only one. In a degenerate case the reduction visits every
    /// face pair, and every vertex of the intersection is the common point of some non-degenerate pair reached
    /// that way (a vertex of the intersection is a vertex of each smaller intersection it lies in, and the
    /// one-to-one projection keeps vertices); the smallest last coordinate is taken at a vertex. Weights are
    /// computed in floating point: approximate.
    [[nodiscard]] std::optional<SimplexContact> contact() const;
    /// The latest stage any sign needed (FILTER or EXACT).
    [[nodiscard]] DecidedBy decided_by() const { return decided_by_; }

private:
    bool intersect(const Simplex& p, const Simplex& q, int dim);
    bool complementary(const Simplex& p, const Simplex& q, int dim);
    bool one_to_one_projection(const Simplex& p, const Simplex& q, int dim);
    bool some_face_pair(const Simplex& p, const Simplex& q, int dim);
    void add_candidate(const Simplex& p, const Simplex& q, const std::array<double, 6>& c);

    int dim_;
    bool filter_;
    DecidedBy decided_by_ = DecidedBy::FILTER;
    Simplex p_top_, q_top_; ///< the simplices as given, for the last coordinate of candidates
    /// Common points found by the sub-problems that met, with their last coordinate.
    struct Candidate {
        SimplexContact contact;
        double last = 0.0;
    };
    std::vector<Candidate> candidates_;
};

} // namespace ccdkit::details
