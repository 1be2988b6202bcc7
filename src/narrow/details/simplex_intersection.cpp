// SPDX-License-Identifier: MIT
#include "narrow/details/simplex_intersection.hpp"

#include "narrow/details/affine_dependence.hpp"

#include <ccdkit/core/filtered_double.hpp>

#include <gmpxx.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace ccdkit::details {

/// GMP's fused multiply-add for the exact minors.
template <> inline void add_product(mpz_class& sum, const mpz_class& a, const mpz_class& b)
{
    mpz_addmul(sum.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t());
}
template <> inline void subtract_product(mpz_class& sum, const mpz_class& a, const mpz_class& b)
{
    mpz_submul(sum.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t());
}

namespace {
    /// Scratch numbers of the exact stage, kept per thread so that they keep their memory between queries.
    struct ExactScratch {
        std::array<std::array<mpz_class, 4>, 6> coordinate;
        std::array<mpz_class, 64> minor;
    };
    thread_local ExactScratch exact_scratch;
    /// Scratch numbers of the exact ranks (one_to_one_projection), kept per thread for the same reason: degenerate
    /// configurations (resting bodies, coplanar motion) reach them for most of their tests, and fresh numbers
    /// cost an allocation each.
    struct RankScratch {
        std::array<std::array<mpz_class, 4>, 6> coordinate;
        std::array<std::array<mpz_class, 4>, 5> difference;
        mpz_class product;
    };
    thread_local RankScratch rank_scratch;

    [[nodiscard]] const SimplexVertex& vertex_of(const Simplex& p, const Simplex& q, int i)
    {
        return i < p.size ? p.vertex[i] : q.vertex[i - p.size];
    }

    /// The coordinates of column j as integers: each times the same power of two (which keeps every
    /// determinant's sign, the power being positive).
    void integer_coordinates(const Simplex& p, const Simplex& q, int dim, std::array<std::array<mpz_class, 4>, 6>& z)
    {
        const int m = p.size + q.size;
        for (int j = 0; j < dim; ++j) {
            int low = std::numeric_limits<int>::max();
            for (int i = 0; i < m; ++i) {
                const double v = vertex_of(p, q, i).x[j];
                if (v != 0.0) {
                    int e = 0;
                    std::frexp(v, &e);
                    low = std::min(low, e - std::numeric_limits<double>::digits);
                }
            }
            for (int i = 0; i < m; ++i) {
                int e = 0;
                const double mantissa = std::frexp(vertex_of(p, q, i).x[j], &e);
                // mantissa * 2^53 is an integer of at most 53 bits: exactly an int64.
                z[i][j] = static_cast<std::int64_t>(std::ldexp(mantissa, std::numeric_limits<double>::digits));
                if (mantissa != 0.0) {
                    z[i][j] <<= static_cast<mp_bitcnt_t>(e - std::numeric_limits<double>::digits - low);
                }
            }
        }
    }

    /// Rank of the differences z_i - z_0 (i < m) of integer points, leaving out coordinate `skip` (-1: none):
    /// the dimension of their affine hull, or of its projection. Fraction-free elimination, exact, in
    /// scratch.difference.
    [[nodiscard]] int
    affine_rank(const std::array<std::array<mpz_class, 4>, 6>& z, int m, int dim, int skip, RankScratch& scratch)
    {
        auto& a = scratch.difference;
        int columns = 0;
        for (int j = 0; j < dim; ++j) {
            if (j == skip) {
                continue;
            }
            for (int i = 1; i < m; ++i) {
                a[i - 1][columns] = z[i][j] - z[0][j];
            }
            ++columns;
        }
        int rank = 0;
        for (int c = 0; c < columns && rank < m - 1; ++c) {
            int pivot = rank;
            while (pivot < m - 1 && a[pivot][c] == 0) {
                ++pivot;
            }
            if (pivot == m - 1) {
                continue;
            }
            for (int k = 0; k < columns; ++k) {
                a[pivot][k].swap(a[rank][k]);
            }
            for (int r = rank + 1; r < m - 1; ++r) {
                for (int k = c + 1; k < columns; ++k) {
                    // a[r][k] a[rank][c] - a[rank][k] a[r][c], into the scratch product (no temporaries).
                    mpz_mul(scratch.product.get_mpz_t(), a[r][k].get_mpz_t(), a[rank][c].get_mpz_t());
                    mpz_submul(scratch.product.get_mpz_t(), a[rank][k].get_mpz_t(), a[r][c].get_mpz_t());
                    a[r][k].swap(scratch.product);
                }
                a[r][c] = 0;
            }
            ++rank;
        }
        return rank;
    }

    /// Whether double arithmetic computes the coefficients exactly: every coordinate of column j is an integer
    /// times 2^low_j of at most bits_j bits, and a minor is a sum of at most m! products of one entry per
    /// column, so all of them are integers times 2^(sum of low_j) below 2^(sum of bits_j + log2 m!). Below
    /// 2^53 (and with no underflow) every operation is exact; exact zeros are then recognised without GMP.
    [[nodiscard]] bool exact_in_double(const Simplex& p, const Simplex& q, int dim)
    {
        constexpr std::array<int, 7> LOG2_FACTORIAL_CEIL { 0, 0, 1, 3, 5, 7, 10 }; // ceil(log2(m!))
        const int m = p.size + q.size;
        int bits = LOG2_FACTORIAL_CEIL[m], low_sum = 0;
        for (int j = 0; j < dim; ++j) {
            int low = std::numeric_limits<int>::max(), high = std::numeric_limits<int>::min();
            for (int i = 0; i < m; ++i) {
                const double v = vertex_of(p, q, i).x[j];
                if (v != 0.0) {
                    int e = 0;
                    const double mantissa = std::frexp(v, &e);
                    // Lowest set bit of the 53-bit mantissa: trailing zeros of its integer form.
                    const auto integer = static_cast<std::uint64_t>(
                        std::abs(std::ldexp(mantissa, std::numeric_limits<double>::digits)));
                    low = std::min(low, e - std::numeric_limits<double>::digits + std::countr_zero(integer));
                    high = std::max(high, e);
                }
            }
            if (high > low) {
                bits += high - low;
                low_sum += low;
            }
        }
        // Coordinates are scaled to |x| < 2, so every low_j <= 1 and each partial minor's exponent stays above
        // low_sum - 3: no underflow either.
        return bits <= std::numeric_limits<double>::digits && low_sum >= -900;
    }

    /// Doubles proportional to the exact coefficients (same signs; zeros stay zero).
    [[nodiscard]] std::array<double, 6> proportional_doubles(const std::array<mpz_class, 6>& c, int m)
    {
        std::array<double, 6> mantissa {};
        std::array<long, 6> exponent {};
        long largest = std::numeric_limits<long>::min();
        for (int i = 0; i < m; ++i) {
            mantissa[i] = mpz_get_d_2exp(&exponent[i], c[i].get_mpz_t());
            if (c[i] != 0) {
                largest = std::max(largest, exponent[i]);
            }
        }
        std::array<double, 6> d {};
        for (int i = 0; i < m; ++i) {
            d[i] = c[i] == 0 ? 0.0 : std::ldexp(mantissa[i], static_cast<int>(std::max(exponent[i] - largest, -2000L)));
        }
        return d;
    }

    /// +1 if the adjusted signs (the second simplex's negated) contain no opposite pair and some nonzero,
    /// -1 if they contain an opposite pair, 0 if all are zero.
    [[nodiscard]] int classify(const std::array<int, 6>& sign, int p_size, int m)
    {
        bool positive = false, negative = false;
        for (int i = 0; i < m; ++i) {
            const int s = i < p_size ? sign[i] : -sign[i];
            positive = positive || s > 0;
            negative = negative || s < 0;
        }
        if (positive && negative) {
            return -1;
        }
        return positive || negative ? 1 : 0;
    }
} // namespace

bool SimplexIntersection::intersect(const Simplex& p, const Simplex& q)
{
    p_top_ = p;
    q_top_ = q;
    for (int i = 0; i < p.size; ++i) {
        p_top_.vertex[i].source = i;
    }
    for (int i = 0; i < q.size; ++i) {
        q_top_.vertex[i].source = i;
    }
    candidates_.clear();
    decided_by_ = DecidedBy::FILTER;
    return intersect(p_top_, q_top_, dim_);
}

std::optional<SimplexContact> SimplexIntersection::contact() const
{
    const Candidate* best = nullptr;
    for (const Candidate& c : candidates_) {
        if (best == nullptr || c.last < best->last) {
            best = &c;
        }
    }
    return best != nullptr ? std::optional(best->contact) : std::nullopt;
}

bool SimplexIntersection::intersect(const Simplex& p, const Simplex& q, int dim)
{
    // Points found by a sub-problem that turns out not to meet are not common points: drop them.
    const std::size_t mark = candidates_.size();
    bool meet = true;
    if (dim == 0) {
        // Both are the single point of R^0.
        std::array<double, 6> c {};
        c[0] = 1.0;
        c[p.size] = -1.0;
        add_candidate(p, q, c);
    } else if (p.size + q.size - 2 == dim) {
        meet = complementary(p, q, dim);
    } else {
        meet = some_face_pair(p, q, dim);
    }
    if (!meet) {
        candidates_.resize(mark);
    }
    return meet;
}

bool SimplexIntersection::complementary(const Simplex& p, const Simplex& q, int dim)
{
    const int m = dim + 2;
    if (filter_) {
        std::array<std::array<FilteredDouble, 4>, 6> coordinate;
        for (int i = 0; i < m; ++i) {
            for (int j = 0; j < dim; ++j) {
                coordinate[i][j] = FilteredDouble(vertex_of(p, q, i).x[j]);
            }
        }
        std::array<FilteredDouble, 64> minor;
        const auto c = affine_dependence<FilteredDouble>(
            m, [&](int i, int j) -> const FilteredDouble& { return coordinate[i][j]; }, minor);
        std::array<int, 6> sign {};
        bool certain = true;
        for (int i = 0; i < m; ++i) {
            sign[i] = c[i].sign();
            certain = certain && sign[i] != 0;
        }
        // Opposite certain signs settle it even when other signs are unknown: the points then do not lie in
        // one hyperplane, so the hulls meet in at most one point, and it is outside.
        const int verdict = classify(sign, p.size, m);
        if (verdict < 0) {
            return false;
        }
        if (!certain && exact_in_double(p, q, dim)) {
            decided_by_ = DecidedBy::EXACT; // exact arithmetic, if not GMP's
            for (int i = 0; i < m; ++i) {
                sign[i] = c[i].value > 0.0 ? 1 : (c[i].value < 0.0 ? -1 : 0);
            }
            const int exact_verdict = classify(sign, p.size, m);
            if (exact_verdict == 0) {
                return one_to_one_projection(p, q, dim);
            }
            certain = exact_verdict > 0;
            if (!certain) {
                return false;
            }
        }
        if (certain) {
            std::array<double, 6> value {};
            for (int i = 0; i < m; ++i) {
                value[i] = c[i].value;
            }
            add_candidate(p, q, value);
            return true;
        }
    }
    decided_by_ = DecidedBy::EXACT;
    ExactScratch& scratch = exact_scratch;
    integer_coordinates(p, q, dim, scratch.coordinate);
    const auto c = affine_dependence<mpz_class>(
        m, [&](int i, int j) -> const mpz_class& { return scratch.coordinate[i][j]; }, scratch.minor);
    std::array<int, 6> sign {};
    for (int i = 0; i < m; ++i) {
        sign[i] = sgn(c[i]);
    }
    const int verdict = classify(sign, p.size, m);
    if (verdict == 0) {
        return one_to_one_projection(p, q, dim);
    }
    if (verdict > 0) {
        add_candidate(p, q, proportional_doubles(c, m));
    }
    return verdict > 0;
}

bool SimplexIntersection::one_to_one_projection(const Simplex& p, const Simplex& q, int dim)
{
    // The points span less than R^dim, so some coordinate axis is not parallel to their affine hull H:
    // dropping that coordinate keeps the hull's dimension, i.e. the projection is one-to-one on H, and the
    // simplices (inside H) meet iff their projections do. The ranks are exact.
    // (The scratch is done with before the projections' own test, which may come back here.)
    RankScratch& scratch = rank_scratch;
    auto& z = scratch.coordinate;
    integer_coordinates(p, q, dim, z);
    const int m = p.size + q.size;
    const int hull = affine_rank(z, m, dim, -1, scratch);
    int dropped = dim - 1;
    for (int e = 0; e < dim; ++e) {
        if (affine_rank(z, m, dim, e, scratch) == hull) {
            dropped = e;
            break;
        }
    }
    Simplex p_proj = p, q_proj = q;
    for (Simplex* s : { &p_proj, &q_proj }) {
        for (int i = 0; i < s->size; ++i) {
            auto& x = s->vertex[i].x;
            std::copy(x.begin() + dropped + 1, x.end(), x.begin() + dropped);
        }
    }
    return intersect(p_proj, q_proj, dim - 1);
}

bool SimplexIntersection::some_face_pair(const Simplex& p, const Simplex& q, int dim)
{
    const auto subset = [](const Simplex& s, unsigned mask) {
        Simplex f;
        for (int i = 0; i < s.size; ++i) {
            if ((mask & (1U << i)) != 0) {
                f.vertex[f.size++] = s.vertex[i];
            }
        }
        return f;
    };
    // Every pair is visited, not just up to the first that meets, so that every vertex of the intersection is
    // among the candidates (see contact()).
    bool meet = false;
    for (unsigned p_mask = 1; p_mask < (1U << p.size); ++p_mask) {
        const int q_count = dim + 2 - std::popcount(p_mask);
        if (q_count < 1 || q_count > q.size) {
            continue;
        }
        for (unsigned q_mask = 1; q_mask < (1U << q.size); ++q_mask) {
            if (std::popcount(q_mask) == q_count && intersect(subset(p, p_mask), subset(q, q_mask), dim)) {
                meet = true;
            }
        }
    }
    return meet;
}

void SimplexIntersection::add_candidate(const Simplex& p, const Simplex& q, const std::array<double, 6>& c)
{
    // Weights: c over the first simplex, -c over the second, each normalised to sum 1 (both sums are equal).
    double sum = 0.0;
    for (int i = 0; i < p.size; ++i) {
        sum += c[i];
    }
    if (sum == 0.0 || !std::isfinite(sum)) {
        return; // the weights underflowed: no usable point
    }
    Candidate candidate;
    for (int i = 0; i < p.size + q.size; ++i) {
        const double w = std::max(0.0, (i < p.size ? c[i] : -c[i]) / sum);
        if (i < p.size) {
            candidate.contact.p_weight[p.vertex[i].source] += w;
        } else {
            candidate.contact.q_weight[q.vertex[i - p.size].source] += w;
        }
    }
    for (int i = 0; i < p_top_.size; ++i) {
        candidate.last += candidate.contact.p_weight[i] * p_top_.vertex[i].x[dim_ - 1];
    }
    candidates_.push_back(candidate);
}

} // namespace ccdkit::details
