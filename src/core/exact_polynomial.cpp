// SPDX-License-Identifier: MIT
#include <ccdkit/core/exact_polynomial.hpp>

#include <cassert>
#include <utility>

namespace ccdkit::exact {

namespace {
    int sign_of(const mpq_class& x) { return sgn(x); }

    void trim(std::vector<mpq_class>& c)
    {
        while (!c.empty() && sgn(c.back()) == 0) {
            c.pop_back();
        }
    }

    /// Divides by |leading coefficient|: keeps the signs (Sturm sequences need that) and the numbers small.
    RationalPoly normalized_positive(const RationalPoly& p)
    {
        if (p.is_zero()) {
            return p;
        }
        const mpq_class scale = abs(p.leading());
        std::vector<mpq_class> c = p.coefficients();
        for (auto& x : c) {
            x /= scale;
        }
        return RationalPoly(std::move(c));
    }
} // namespace

RationalPoly::RationalPoly(std::vector<mpq_class> coefficients) : c_(std::move(coefficients))
{
    for (auto& x : c_) {
        x.canonicalize();
    }
    trim(c_);
}

mpq_class RationalPoly::operator()(const mpq_class& t) const
{
    mpq_class value = 0;
    for (auto it = c_.rbegin(); it != c_.rend(); ++it) {
        value = value * t + *it;
    }
    return value;
}

int RationalPoly::sign_at(const mpq_class& t) const { return sign_of((*this)(t)); }

RationalPoly RationalPoly::derivative() const
{
    std::vector<mpq_class> d;
    for (std::size_t i = 1; i < c_.size(); ++i) {
        d.emplace_back(c_[i] * static_cast<unsigned long>(i));
    }
    return RationalPoly(std::move(d));
}

RationalPoly RationalPoly::monic() const
{
    if (is_zero()) {
        return *this;
    }
    std::vector<mpq_class> c = c_;
    const mpq_class lead = c.back();
    for (auto& x : c) {
        x /= lead;
    }
    return RationalPoly(std::move(c));
}

DivisionResult divide(const RationalPoly& a, const RationalPoly& b)
{
    assert(!b.is_zero());
    std::vector<mpq_class> rem = a.coefficients();
    const int db = b.degree();
    const int dq = a.degree() - db;
    if (dq < 0) {
        return { RationalPoly(), a };
    }
    std::vector<mpq_class> quot(static_cast<std::size_t>(dq + 1));
    const auto& bc = b.coefficients();
    for (int k = dq; k >= 0; --k) {
        const mpq_class factor = rem[static_cast<std::size_t>(k + db)] / b.leading();
        quot[static_cast<std::size_t>(k)] = factor;
        if (sgn(factor) == 0) {
            continue;
        }
        for (int j = 0; j <= db; ++j) {
            rem[static_cast<std::size_t>(k + j)] -= factor * bc[static_cast<std::size_t>(j)];
        }
    }
    rem.resize(static_cast<std::size_t>(db)); // the upper coefficients are now exactly zero
    return { RationalPoly(std::move(quot)), RationalPoly(std::move(rem)) };
}

RationalPoly gcd(RationalPoly a, RationalPoly b)
{
    while (!b.is_zero()) {
        RationalPoly r = divide(a, b).remainder;
        a = std::move(b);
        b = r.monic();
    }
    return a.monic();
}

RationalPoly square_free_part(const RationalPoly& p)
{
    if (p.degree() <= 1) {
        return p;
    }
    const RationalPoly g = gcd(p, p.derivative());
    if (g.degree() == 0) {
        return p;
    }
    return divide(p, g).quotient;
}

SturmSequence::SturmSequence(const RationalPoly& square_free)
{
    sequence_.push_back(normalized_positive(square_free));
    if (square_free.degree() <= 0) {
        return;
    }
    sequence_.push_back(normalized_positive(square_free.derivative()));
    while (sequence_.back().degree() > 0) {
        RationalPoly r = divide(sequence_[sequence_.size() - 2], sequence_.back()).remainder;
        if (r.is_zero()) {
            break;
        }
        std::vector<mpq_class> negated = r.coefficients();
        for (auto& x : negated) {
            x = -x;
        }
        sequence_.push_back(normalized_positive(RationalPoly(std::move(negated))));
    }
}

int SturmSequence::sign_changes(const mpq_class& t) const
{
    int changes = 0;
    int previous = 0;
    for (const auto& p : sequence_) {
        const int s = p.sign_at(t);
        if (s == 0) {
            continue;
        }
        if (previous != 0 && s != previous) {
            ++changes;
        }
        previous = s;
    }
    return changes;
}

int SturmSequence::count_roots(const mpq_class& lower, const mpq_class& upper) const
{
    return sign_changes(lower) - sign_changes(upper);
}

void AlgebraicNumber::bisect()
{
    if (is_rational()) {
        return;
    }
    mpq_class mid = (lower + upper) / 2;
    const int s_mid = q.sign_at(mid);
    if (s_mid == 0) {
        lower = mid;
        upper = std::move(mid);
    } else if (s_mid == q.sign_at(lower)) {
        lower = std::move(mid);
    } else {
        upper = std::move(mid);
    }
}

void AlgebraicNumber::refine(const mpq_class& width)
{
    while (upper - lower > width) {
        bisect();
    }
}

namespace {
    /// Appends the roots of q in (lower, upper] (there are `count` of them) in increasing order.
    void isolate(
        const RationalPoly& q,
        const SturmSequence& sturm,
        const mpq_class& lower,
        const mpq_class& upper,
        int count,
        std::vector<AlgebraicNumber>& roots)
    {
        if (count == 0) {
            return;
        }
        if (count == 1) {
            if (q.sign_at(upper) == 0) {
                roots.push_back({ q, upper, upper });
                return;
            }
            if (q.sign_at(lower) != 0) {
                roots.push_back({ q, lower, upper });
                return;
            }
            // lower is itself a root (found before): split until the open interval excludes it.
        }
        const mpq_class mid = (lower + upper) / 2;
        const int left = sturm.count_roots(lower, mid);
        isolate(q, sturm, lower, mid, left, roots);
        isolate(q, sturm, mid, upper, count - left, roots);
    }
} // namespace

std::vector<AlgebraicNumber> real_roots(const RationalPoly& p, const mpq_class& lower, const mpq_class& upper)
{
    assert(!p.is_zero());
    std::vector<AlgebraicNumber> roots;
    const RationalPoly q = square_free_part(p);
    if (q.degree() <= 0) {
        return roots;
    }
    if (q.sign_at(lower) == 0) {
        roots.push_back({ q, lower, lower });
    }
    if (lower < upper) {
        const SturmSequence sturm(q);
        isolate(q, sturm, lower, upper, sturm.count_roots(lower, upper), roots);
    }
    return roots;
}

int sign_at(const RationalPoly& g, AlgebraicNumber& alpha)
{
    if (alpha.is_rational()) {
        return g.sign_at(alpha.lower);
    }
    // g and its remainder modulo q agree at every root of q.
    const RationalPoly r = divide(g, alpha.q).remainder;
    if (r.is_zero()) {
        return 0;
    }
    if (r.degree() == 0) {
        return sgn(r.leading());
    }
    // alpha is a root of r iff it is a root of gcd(q, r), whose roots are simple roots of q.
    const RationalPoly h = gcd(alpha.q, r);
    if (h.degree() >= 1 && h.sign_at(alpha.lower) != h.sign_at(alpha.upper)) {
        return 0;
    }
    // r(alpha) != 0: shrink the interval until r has no root left in it.
    const SturmSequence sturm(square_free_part(r));
    while (sturm.count_roots(alpha.lower, alpha.upper) != 0) {
        alpha.bisect();
        if (alpha.is_rational()) {
            return g.sign_at(alpha.lower);
        }
    }
    return r.sign_at(alpha.upper);
}

} // namespace ccdkit::exact
