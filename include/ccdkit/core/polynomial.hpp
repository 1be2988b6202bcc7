// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstddef>

namespace ccdkit {

// The arithmetic below is always inlined: the filters evaluate it in their innermost loops, and once the
// callers grew GCC began to call it out of line (10% more instructions for bsc-float, callgrind).

/// A univariate polynomial of fixed degree D with coefficients of type T, in a basis where multiplication is
/// the convolution of coefficients. Two such bases serve ccdkit:
/// - the power basis t^i (exact arithmetic builds power-basis polynomials for root isolation), and
/// - the scaled Bernstein basis (1-t)^(D-i) t^i on an interval (the coefficients are the Bernstein
///   coefficients times binomial(D, i), so they have the same signs: all positive means the polynomial is
///   positive on the whole interval).
/// A linear function x(t) has coefficients (x0, x1 - x0) in the power basis and (x(l), x(r)) in the scaled
/// Bernstein basis of [l, r]. Sums require equal degrees, which keeps the Bernstein basis consistent.
template <class T, int D> struct Poly {
    static_assert(D >= 0);
    std::array<T, D + 1> c {};

    static constexpr int DEGREE = D;
    T& operator[](std::size_t i) { return c[i]; }
    const T& operator[](std::size_t i) const { return c[i]; }
};

/// How sums of products of T are accumulated. By default not in place: floating-point types keep their plain
/// evaluation order, which their error bounds were written for. Exact integer types specialize it to add
/// products in place (r += a b without a temporary, which would be an allocation).
template <class T> struct ProductAccumulation {
    static constexpr bool IN_PLACE = false;
    static void add(T& r, const T& a, const T& b) { r += a * b; }
    static void subtract(T& r, const T& a, const T& b) { r -= a * b; }
};

template <class T, int D> [[gnu::always_inline]] inline Poly<T, D> operator+(const Poly<T, D>& a, const Poly<T, D>& b)
{
    Poly<T, D> r;
    for (std::size_t i = 0; i <= D; ++i) {
        r.c[i] = a.c[i] + b.c[i];
    }
    return r;
}

template <class T, int D> [[gnu::always_inline]] inline Poly<T, D> operator-(const Poly<T, D>& a, const Poly<T, D>& b)
{
    Poly<T, D> r;
    for (std::size_t i = 0; i <= D; ++i) {
        r.c[i] = a.c[i] - b.c[i];
    }
    return r;
}

template <class T, int DA, int DB>
[[gnu::always_inline]] inline Poly<T, DA + DB> operator*(const Poly<T, DA>& a, const Poly<T, DB>& b)
{
    Poly<T, DA + DB> r;
    for (std::size_t k = 0; k <= DA + DB; ++k) {
        const std::size_t i_min = k > DB ? k - DB : 0;
        const std::size_t i_max = k < DA ? k : DA;
        r.c[k] = a.c[i_min] * b.c[k - i_min];
        for (std::size_t i = i_min + 1; i <= i_max; ++i) {
            ProductAccumulation<T>::add(r.c[k], a.c[i], b.c[k - i]);
        }
    }
    return r;
}

/// r += sign a b, in place.
template <class T, int DA, int DB>
void accumulate_product(Poly<T, DA + DB>& r, const Poly<T, DA>& a, const Poly<T, DB>& b, int sign)
{
    for (std::size_t i = 0; i <= DA; ++i) {
        for (std::size_t j = 0; j <= DB; ++j) {
            if (sign > 0) {
                ProductAccumulation<T>::add(r.c[i + j], a.c[i], b.c[j]);
            } else {
                ProductAccumulation<T>::subtract(r.c[i + j], a.c[i], b.c[j]);
            }
        }
    }
}

/// a b - c d.
template <class T, int DA, int DB>
[[gnu::always_inline]] inline Poly<T, DA + DB>
product_difference(const Poly<T, DA>& a, const Poly<T, DB>& b, const Poly<T, DA>& c, const Poly<T, DB>& d)
{
    if constexpr (ProductAccumulation<T>::IN_PLACE) {
        Poly<T, DA + DB> r;
        accumulate_product(r, a, b, 1);
        accumulate_product(r, c, d, -1);
        return r;
    } else {
        return a * b - c * d;
    }
}

/// A 3D vector whose components are polynomials of degree D.
template <class T, int D> struct PolyVec3 {
    Poly<T, D> x, y, z;
};

template <class T, int D>
[[gnu::always_inline]] inline PolyVec3<T, D> operator-(const PolyVec3<T, D>& a, const PolyVec3<T, D>& b)
{
    return { a.x - b.x, a.y - b.y, a.z - b.z };
}

template <class T, int DA, int DB>
[[gnu::always_inline]] inline PolyVec3<T, DA + DB> cross(const PolyVec3<T, DA>& a, const PolyVec3<T, DB>& b)
{
    return { product_difference(a.y, b.z, a.z, b.y), product_difference(a.z, b.x, a.x, b.z),
             product_difference(a.x, b.y, a.y, b.x) };
}

template <class T, int DA, int DB>
[[gnu::always_inline]] inline Poly<T, DA + DB> dot(const PolyVec3<T, DA>& a, const PolyVec3<T, DB>& b)
{
    if constexpr (ProductAccumulation<T>::IN_PLACE) {
        Poly<T, DA + DB> r;
        accumulate_product(r, a.x, b.x, 1);
        accumulate_product(r, a.y, b.y, 1);
        accumulate_product(r, a.z, b.z, 1);
        return r;
    } else {
        return a.x * b.x + a.y * b.y + a.z * b.z;
    }
}

} // namespace ccdkit
