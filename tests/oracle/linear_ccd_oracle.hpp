// SPDX-License-Identifier: MIT
// Exact ground truth for linear-motion CCD, used to check the library's answers.
//
// Written independently of the library's method: contact times are the real roots of the
// coplanarity cubic (or, when the four points stay coplanar, of the 2D orientation and
// coordinate-difference polynomials), and containment is decided in the three axis-aligned
// 2D projections. Every decision is made with GMP rationals; no floating point is involved.
#pragma once

#include <Eigen/Core>
#include <gmpxx.h>

#include <array>
#include <memory>
#include <string>

namespace ccdkit::oracle {

namespace detail {
    class AlgebraicNumber;
} // namespace detail

/// The earliest contact time t*, an algebraic number in [0, t_max], kept exactly.
///
/// Either a rational, or the unique root of a square-free rational polynomial inside an
/// open rational isolating interval. Comparisons may shrink that interval, so one object
/// must not be used from two threads at once.
class ContactTime {
public:
    explicit ContactTime(std::unique_ptr<detail::AlgebraicNumber> value);
    ~ContactTime();
    ContactTime(const ContactTime&) = delete;
    ContactTime& operator=(const ContactTime&) = delete;

    /// -1 if t* < t, 0 if t* == t exactly, +1 if t* > t (exact).
    /// @param[in] t any double; +-inf compare as expected, NaN throws std::invalid_argument.
    int compare(double t) const;
    /// Same as compare(double) for an exact rational.
    int compare(const mpq_class& t) const;
    /// -1, 0, +1 as this t* is less than, equal to or greater than other's (exact).
    int compare(const ContactTime& other) const;
    /// Nearest-ish double, for messages only (about 60 correct bits).
    double approx() const;
    /// Whether t* is rational (exact; may refine the interval a lot, so for tests and messages).
    bool is_rational() const;
    /// Human-readable description ("1/2", or "root of ... in (lo, hi) ~ 0.707..."), for messages.
    std::string to_string() const;

private:
    // The pointee is refined by the const comparisons (shallow constness of unique_ptr).
    std::unique_ptr<detail::AlgebraicNumber> value_;
};

struct OracleResult {
    bool hit = false; ///< some contact happens in [0, t_max]
    std::shared_ptr<ContactTime> earliest; ///< the earliest contact; null when no hit
};

/// Exact vertex-face CCD under linear motion.
/// @param[in] x 8 points, row order p_t0, a_t0, b_t0, c_t0, p_t1, a_t1, b_t1, c_t1 (vertex p vs
///   triangle abc). The triangle is closed and may be degenerate (a segment or a point).
/// @param[in] t_max end of the time interval, finite and >= 0 (else std::invalid_argument).
/// Non-finite coordinates throw std::invalid_argument.
OracleResult vertex_face(const std::array<Eigen::Vector3d, 8>& x, double t_max = 1.0);

/// Exact edge-edge CCD under linear motion.
/// @param[in] x ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1. Segments are
///   closed and may be parallel, collinear or of zero length.
/// @param[in] t_max end of the time interval, finite and >= 0 (else std::invalid_argument).
/// Non-finite coordinates throw std::invalid_argument.
OracleResult edge_edge(const std::array<Eigen::Vector3d, 8>& x, double t_max = 1.0);

} // namespace ccdkit::oracle
