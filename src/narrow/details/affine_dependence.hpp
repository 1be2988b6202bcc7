// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <utility>

namespace ccdkit::details {

/// The coefficients of the affine dependence of m points in R^(m-2) (m <= 6): with the rows
/// h_i = (1, x_i) of the m x (m-1) homogeneous matrix A, c_i = (-1)^i det(A without row i), and
/// sum_i c_i h_i = 0 (the generalised cross product of A's columns). Every c_i is zero exactly when the points
/// lie in a common hyperplane.
///
/// All maximal minors are built together by Laplace expansion along one column at a time, each k x k minor of
/// the first k columns from the (k-1) x (k-1) ones: 186 products for m = 6 instead of 6 separate 5 x 5
/// determinants. `coordinate(i, j)` is coordinate j of point i, converted to T. The evaluation depth (rounded
/// operations on the longest path) is sum_{k=2}^{m-1} k <= 14, well inside FilteredDouble::MAX_DEPTH.
/// A subset of rows (a bit mask) and its size.
struct RowSubset {
    unsigned mask = 0;
    int size = 0;
};

/// The subsets of m rows with 2..m-1 rows, by increasing size (each minor needs the smaller ones).
template <int M>
inline constexpr auto ROW_SUBSETS = [] {
    std::array<RowSubset, (1U << M)> subsets {};
    int n = 0;
    for (int k = 2; k < M; ++k) {
        for (unsigned mask = 0; mask < (1U << M); ++mask) {
            if (std::popcount(mask) == k) {
                subsets[n++] = { mask, k };
            }
        }
    }
    return std::pair { subsets, n };
}();

/// sum += a * b, and sum -= a * b; GMP types overload them with one fused call and no temporaries.
template <class T> void add_product(T& sum, const T& a, const T& b) { sum += a * b; }
template <class T> void subtract_product(T& sum, const T& a, const T& b) { sum -= a * b; }

/// `minor` is scratch space (a caller may keep it between calls so that GMP numbers keep their memory).
template <int M, class T, class Coordinate>
[[nodiscard]] std::array<T, M> affine_dependence(Coordinate coordinate, std::array<T, 64>& minor)
{
    static_assert(M >= 2 && M <= 6);
    constexpr unsigned ALL = (1U << M) - 1;
    for (int i = 0; i < M; ++i) {
        minor[1U << i] = 1; // the column of ones
    }
    constexpr auto& SUBSETS = ROW_SUBSETS<M>;
    for (int s = 0; s < SUBSETS.second; ++s) {
        const auto [mask, k] = SUBSETS.first[s];
        // Expansion along column k - 1 (coordinate k - 2); row r of the submatrix has sign (-1)^(r + k - 1).
        T& sum = minor[mask];
        sum = 0;
        bool add = (k - 1) % 2 == 0;
        for (unsigned rest = mask; rest != 0; rest &= rest - 1) {
            const int i = std::countr_zero(rest);
            if (add) {
                add_product(sum, coordinate(i, k - 2), minor[mask ^ (1U << i)]);
            } else {
                subtract_product(sum, coordinate(i, k - 2), minor[mask ^ (1U << i)]);
            }
            add = !add;
        }
    }
    std::array<T, M> c {};
    for (int i = 0; i < M; ++i) {
        c[i] = minor[ALL ^ (1U << i)];
        if (i % 2 == 1) {
            c[i] = -c[i];
        }
    }
    return c;
}

/// The same for a number of points known only at run time.
template <class T, class Coordinate>
[[nodiscard]] std::array<T, 6> affine_dependence(int m, Coordinate coordinate, std::array<T, 64>& minor)
{
    std::array<T, 6> c {};
    const auto copy = [&](const auto& from) { std::copy(from.begin(), from.end(), c.begin()); };
    switch (m) {
    case 2:
        copy(affine_dependence<2, T>(coordinate, minor));
        break;
    case 3:
        copy(affine_dependence<3, T>(coordinate, minor));
        break;
    case 4:
        copy(affine_dependence<4, T>(coordinate, minor));
        break;
    case 5:
        copy(affine_dependence<5, T>(coordinate, minor));
        break;
    default:
        copy(affine_dependence<6, T>(coordinate, minor));
        break;
    }
    return c;
}

} // namespace ccdkit::details
