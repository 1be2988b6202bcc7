// SPDX-License-Identifier: MIT
#pragma once

#include "contact_polynomials.hpp"
#include "query_motion.hpp"

#include <ccdkit/core/exact_polynomial.hpp>

#include <optional>
#include <vector>

namespace ccdkit::details {

struct ExactOutcome {
    bool hit = false;
    bool initially_touching = false; ///< contact at t = 0 exactly
    double toi_lower = 0.0, toi_upper = 0.0;
    /// Without a hit: no contact up to this time (the end of the interval asked about, or t_max).
    double decided_until = 0.0;
};

/// The exact answer of the linear motion model, with integer arithmetic, for any finite input.
///
/// The contact set {t in [0, t_max] : the primitives touch at t} is closed. If the coplanarity cubic is not
/// identically zero, contact can only happen at its roots, tested in increasing order; the test at a root:
/// (non-degenerate and every inside polynomial >= 0) or (a point lies on a segment). If it is identically zero
/// (coplanar motion), the first contact is at the start or when a point of one primitive reaches a segment of
/// the other (see decide_coplanar). Terms is VertexFaceTerms or EdgeEdgeTerms.
template <class Terms> class ExactCcd {
public:
    ExactCcd(const QueryMotion& motion, double t_max, double tolerance);

    /// Decides the time interval [lower, upper] (0 <= lower <= upper <= t_max), or [lower, t_max] when the
    /// points stay coplanar (then no finer split helps). The caller has ruled out contact before `lower`.
    /// `single_root`: the caller proved that the coplanarity polynomial has exactly one root in
    /// (lower, upper), a simple one with opposite signs at the ends, so no root isolation is needed; `known`
    /// then holds term signs at that root that an earlier stage certified.
    [[nodiscard]] ExactOutcome
    decide(double lower, double upper, bool single_root, const CertifiedTermSigns& known = {});

private:
    /// Whether the primitives touch at alpha, a root of the coplanarity polynomial; `known`: signs an earlier
    /// stage certified there.
    [[nodiscard]] bool holds(exact::AlgebraicNumber& alpha, const CertifiedTermSigns& known = {});
    /// The same at a dyadic time, from the positions then (no polynomials needed).
    [[nodiscard]] bool holds_at(const exact::Dyadic& t) const;
    /// The same at an irrational alpha from the positions at an end of its interval, when its width proves
    /// that the signs there are alpha's; nothing when it does not (or a term may vanish at alpha).
    [[nodiscard]] std::optional<bool> holds_near(const exact::AlgebraicNumber& alpha);
    /// Positions at time num / 2^shift, scaled by 2^shift.
    [[nodiscard]] QueryPoints<mpz_class, 0> positions_at(const mpz_class& num, unsigned long shift) const;
    /// decide() for coplanar motion: `from` if the primitives touch then, else the first time a point of one
    /// reaches a segment of the other.
    [[nodiscard]] ExactOutcome decide_coplanar(const exact::Dyadic& from);
    /// The first time in [from, t_max] at which the point of `s` lies on its segment, if any; it is not on it
    /// at `from`.
    [[nodiscard]] std::optional<exact::AlgebraicNumber>
    first_on_segment(const PointOnSegment<mpz_class, 1>& s, const exact::Dyadic& from) const;
    [[nodiscard]] ExactOutcome earliest_of(std::vector<exact::AlgebraicNumber>& contacts) const;
    /// The inside polynomials, built on first use (many queries end before any candidate time is tested).
    void build_inside();
    /// The point-on-segment polynomials, built on first use (only degenerate cases need them).
    void build_segments();

    struct Segment {
        exact::IntegerPoly collinear, between;
    };
    /// Upper bounds of the sum of |coefficients| of each contact term (for holds_near), computed on first use.
    struct TermSlopes {
        std::vector<double> inside;
    };
    std::optional<TermSlopes> slopes_;
    QueryPoints<mpz_class, 1> x_;
    PolyVec3<mpz_class, 2> normal_; ///< shared by the coplanarity, nondegenerate and inside terms
    exact::IntegerPoly coplanarity_, nondegenerate_;
    std::vector<exact::IntegerPoly> inside_;
    std::vector<Segment> segments_;
    exact::Dyadic t_max_, half_tolerance_;
    double t_max_double_;
};

} // namespace ccdkit::details
