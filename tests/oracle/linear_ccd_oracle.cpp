// SPDX-License-Identifier: MIT
// Exact linear-motion CCD oracle. See linear_ccd_oracle.hpp for the model.
//
// Outline:
//  * space is scaled by a power of two so that every input coordinate is an integer; each
//    coordinate is then a degree <= 1 integer polynomial in t;
//  * contact implies coplanarity, so when the coplanarity determinant c(t) is not identically
//    zero the candidates are its real roots in [0, t_max], isolated exactly with Sturm chains
//    (after a cheap Bernstein-sign test that rules out most root-free intervals);
//  * when c(t) == 0 identically, the contact set is a closed set cut out by the signs of the
//    2D predicates' polynomials, so its minimum is 0 or a root of one of them;
//  * at a candidate time the four points are coplanar and containment is decided in the three
//    axis-aligned projections, each with exact 2D orientation signs evaluated at an algebraic
//    time.

#include "oracle/linear_ccd_oracle.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ccdkit::oracle {

namespace {

    /// Polynomial in t, coefficients in increasing degree; no trailing zeros (zero polynomial: empty).
    using Poly = std::vector<mpq_class>;
    /// Same with integer coefficients: the query's own polynomials, once space is scaled to integers
    /// (integer arithmetic skips the gcd that every rational operation pays for).
    using IntPoly = std::vector<mpz_class>;

    template <class T> void trim(std::vector<T>& p)
    {
        while (!p.empty() && sgn(p.back()) == 0) {
            p.pop_back();
        }
    }

    template <class T> int degree(const std::vector<T>& p) { return static_cast<int>(p.size()) - 1; }

    mpq_class eval(const Poly& p, const mpq_class& x)
    {
        mpq_class r = 0;
        for (auto it = p.rbegin(); it != p.rend(); ++it) {
            r *= x;
            r += *it;
        }
        return r;
    }

    int sign_at(const Poly& p, const mpq_class& x) { return sgn(eval(p, x)); }

    template <class T> std::vector<T> sub(const std::vector<T>& a, const std::vector<T>& b)
    {
        std::vector<T> r(std::max(a.size(), b.size()));
        for (std::size_t i = 0; i < r.size(); ++i) {
            if (i < a.size()) {
                r[i] = a[i];
            }
            if (i < b.size()) {
                r[i] -= b[i];
            }
        }
        trim(r);
        return r;
    }

    template <class T> std::vector<T> add(const std::vector<T>& a, const std::vector<T>& b)
    {
        std::vector<T> r(std::max(a.size(), b.size()));
        for (std::size_t i = 0; i < r.size(); ++i) {
            if (i < a.size()) {
                r[i] = a[i];
            }
            if (i < b.size()) {
                r[i] += b[i];
            }
        }
        trim(r);
        return r;
    }

    template <class T> std::vector<T> mul(const std::vector<T>& a, const std::vector<T>& b)
    {
        if (a.empty() || b.empty()) {
            return {};
        }
        std::vector<T> r(a.size() + b.size() - 1);
        for (std::size_t i = 0; i < a.size(); ++i) {
            for (std::size_t j = 0; j < b.size(); ++j) {
                r[i + j] += a[i] * b[j];
            }
        }
        trim(r); // no zero divisors, but keep the invariant explicit
        return r;
    }

    Poly to_rational(const IntPoly& p) { return Poly(p.begin(), p.end()); }

    Poly derivative(const Poly& p)
    {
        Poly r;
        for (std::size_t i = 1; i < p.size(); ++i) {
            r.push_back(p[i] * static_cast<unsigned long>(i));
        }
        trim(r);
        return r;
    }

    /// a = q b + r with deg r < deg b; b must be nonzero.
    void div_rem(const Poly& a, const Poly& b, Poly* q, Poly* r)
    {
        Poly rem = a;
        Poly quo(a.size() >= b.size() ? a.size() - b.size() + 1 : 0);
        const int db = degree(b);
        while (degree(rem) >= db) {
            const std::size_t shift = rem.size() - b.size();
            const mpq_class f = rem.back() / b.back();
            quo[shift] = f;
            for (std::size_t i = 0; i < b.size(); ++i) {
                rem[i + shift] -= f * b[i];
            }
            rem.pop_back(); // the leading term cancels exactly
            trim(rem);
        }
        trim(quo);
        if (q != nullptr) {
            *q = std::move(quo);
        }
        if (r != nullptr) {
            *r = std::move(rem);
        }
    }

    Poly quotient(const Poly& a, const Poly& b)
    {
        Poly q;
        div_rem(a, b, &q, nullptr);
        return q;
    }

    Poly remainder(const Poly& a, const Poly& b)
    {
        Poly r;
        div_rem(a, b, nullptr, &r);
        return r;
    }

    Poly monic(Poly p)
    {
        if (!p.empty()) {
            const mpq_class lead = p.back();
            for (auto& c : p) {
                c /= lead;
            }
        }
        return p;
    }

    /// Monic gcd (zero only if both are zero). Monic remainders keep coefficient growth in check.
    Poly gcd(Poly a, Poly b)
    {
        while (!b.empty()) {
            Poly r = monic(remainder(a, b));
            a = std::move(b);
            b = std::move(r);
        }
        return monic(std::move(a));
    }

    /// Monic square-free part: same distinct roots, all simple. p must be nonzero.
    Poly square_free(const Poly& p)
    {
        const Poly g = gcd(p, derivative(p));
        return degree(g) >= 1 ? monic(quotient(p, g)) : monic(p);
    }

    /// Sturm chain (s, s', -rem, ...) of s with deg s >= 1; its last member is gcd(s, s') up to a
    /// constant, so it is a valid Sturm chain when that is constant (s square-free). Members are
    /// rescaled by positive factors (leading coefficient +-1), which leaves every count unchanged.
    std::vector<Poly> sturm_chain(const Poly& s)
    {
        std::vector<Poly> chain { s, derivative(s) };
        for (;;) {
            Poly r = remainder(chain[chain.size() - 2], chain.back());
            if (r.empty()) {
                return chain;
            }
            const mpq_class scale = -1 / abs(r.back());
            for (auto& c : r) {
                c *= scale;
            }
            chain.push_back(std::move(r));
        }
    }

    /// Sign changes of the chain at x, zeros skipped. With s square-free and V(x) defined this way,
    /// the number of distinct roots of s in (a, b] is V(a) - V(b), even when a or b is a root.
    int sign_variations(const std::vector<Poly>& chain, const mpq_class& x)
    {
        int count = 0;
        int last = 0;
        for (const auto& p : chain) {
            const int s = sign_at(p, x);
            if (s != 0) {
                if (last != 0 && s != last) {
                    ++count;
                }
                last = s;
            }
        }
        return count;
    }

    /// Decides the sign of g on the closed interval [lo, hi] when it is constant there, using the
    /// Taylor expansion at the midpoint m with half-width w: |g(x) - g(m)| <= sum_k |g_k| w^k.
    bool sign_on_interval(const Poly& g, const mpq_class& lo, const mpq_class& hi, int* sign)
    {
        const mpq_class m = (lo + hi) / 2;
        const mpq_class w = (hi - lo) / 2;
        // Taylor shift: coefficients of g(m + y) by repeated synthetic division.
        Poly c = g;
        const std::size_t n = c.size() - 1;
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = n; j-- > i;) {
                c[j] += m * c[j + 1];
            }
        }
        mpq_class bound = 0;
        mpq_class wk = 1;
        for (std::size_t k = 1; k <= n; ++k) {
            wk *= w;
            bound += abs(c[k]) * wk;
        }
        if (abs(c[0]) > bound) {
            *sign = sgn(c[0]);
            return true;
        }
        return false;
    }

    /// Exponent of the lowest set bit of a finite nonzero double: |x| = odd * 2^result.
    int lowest_bit_exponent(double x)
    {
        int e = 0;
        const double m = std::frexp(std::abs(x), &e); // |x| = m 2^e, m in [0.5, 1)
        const auto mantissa = static_cast<std::uint64_t>(std::ldexp(m, 53)); // exact, subnormals too
        return e - 53 + std::countr_zero(mantissa);
    }

    /// Index of a point in a query (vertex-face: p, a, b, c; edge-edge: ea0, ea1, eb0, eb1).
    using PointIndex = int;

} // namespace

namespace detail {

    /// A real algebraic number: a rational, or the unique root of a square-free polynomial q in an
    /// open interval (lo, hi) with q(lo) q(hi) < 0. Queries shrink the interval, hence `mutable`.
    class AlgebraicNumber {
    public:
        explicit AlgebraicNumber(mpq_class value)
            : rational_(true)
            , value_(std::move(value))
        {
        }

        AlgebraicNumber(Poly q, mpq_class lo, mpq_class hi)
            : rational_(false)
            , q_(std::move(q))
            , lo_(std::move(lo))
            , hi_(std::move(hi))
        {
            sign_lo_ = sign_at(q_, lo_);
        }

        /// Whether the number is rational, exact. Costly (refines to ~|lead coefficient| bits), so
        /// meant for tests and messages. By the rational root theorem a rational root a/b (lowest
        /// terms) of a primitive integer q has b | lc(q), so lc(q) * this is then an integer; once
        /// the interval is shorter than 1 / |lc(q)| there is at most one candidate integer.
        bool is_rational() const
        {
            if (rational_) {
                return true;
            }
            mpz_class common = 1; // clear denominators: q * common has integer coefficients
            for (const auto& c : q_) {
                mpz_lcm(common.get_mpz_t(), common.get_mpz_t(), c.get_den_mpz_t());
            }
            const mpq_class lead = abs(q_.back() * common);
            while (!rational_ && (hi_ - lo_) * lead >= 1) {
                bisect();
            }
            if (rational_) {
                return true;
            }
            const mpq_class scaled_lo = lo_ * lead;
            mpz_class m;
            mpz_fdiv_q(m.get_mpz_t(), scaled_lo.get_num_mpz_t(), scaled_lo.get_den_mpz_t());
            ++m; // the only integer that may lie in (lead lo, lead hi)
            mpq_class candidate(m, lead.get_num());
            candidate.canonicalize();
            if (lo_ < candidate && candidate < hi_ && sign_at(q_, candidate) == 0) {
                set_rational(candidate);
                return true;
            }
            return false;
        }

        /// sign(this - x), exact. Shrinks the interval towards the side holding the root.
        int compare(const mpq_class& x) const
        {
            if (rational_) {
                return sgn(value_ - x);
            }
            if (x <= lo_) {
                return 1;
            }
            if (x >= hi_) {
                return -1;
            }
            const int s = sign_at(q_, x);
            if (s == 0) { // x is the only root of q in (lo, hi)
                set_rational(x);
                return 0;
            }
            if (s == sign_lo_) { // no root in (lo, x]
                lo_ = x;
                return 1;
            }
            hi_ = x;
            return -1;
        }

        /// sign(this - other), exact.
        int compare(const AlgebraicNumber& other) const
        {
            if (other.rational_) {
                return compare(other.value_);
            }
            if (rational_) {
                return -other.compare(value_);
            }
            if (compare(other.lo_) <= 0) {
                return -1;
            }
            if (compare(other.hi_) >= 0) {
                return 1;
            }
            // this lies in (other.lo, other.hi), where other is the only root of other.q.
            const int s = sign_of(other.q_);
            if (s == 0) {
                return 0;
            }
            // other.q keeps its sign on (other.lo, other) and flips past other.
            return s == other.sign_lo_ ? -1 : 1;
        }

        /// Sign of g at this number, exact.
        int sign_of(const Poly& g) const
        {
            if (g.size() <= 1) {
                return g.empty() ? 0 : sgn(g[0]);
            }
            if (rational_) {
                return sign_at(g, value_);
            }
            if (g.size() == 2) { // linear: compare with its rational root
                return sgn(g[1]) * compare(mpq_class(-g[0] / g[1]));
            }
            // Bisect until g provably keeps one sign on the interval. That never happens when
            // g(this) == 0, so after a few rounds check that case exactly with gcd(q, g).
            constexpr int GCD_AFTER = 3;
            bool gcd_checked = false;
            for (int round = 0;; ++round) {
                if (rational_) {
                    return sign_at(g, value_);
                }
                int s = 0;
                if (sign_on_interval(g, lo_, hi_, &s)) {
                    return s;
                }
                if (!gcd_checked && round >= GCD_AFTER) {
                    gcd_checked = true;
                    if (shares_root_with(g)) {
                        return 0;
                    }
                }
                bisect();
            }
        }

        /// Halves the isolating interval (or lands exactly on the root).
        void bisect() const
        {
            if (rational_) {
                return;
            }
            const mpq_class mid = (lo_ + hi_) / 2;
            const int s = sign_at(q_, mid);
            if (s == 0) {
                set_rational(mid);
            } else if (s == sign_lo_) {
                lo_ = mid;
            } else {
                hi_ = mid;
            }
        }

        double approx() const
        {
            for (int i = 0; i < 4000 && !rational_; ++i) {
                // Stop at ~62 bits relative width; the 4000 cap covers numbers near 0 and subnormals.
                mpq_class scaled = hi_ - lo_;
                mpq_mul_2exp(scaled.get_mpq_t(), scaled.get_mpq_t(), 62);
                const mpq_class mag_lo = abs(lo_);
                const mpq_class mag_hi = abs(hi_);
                if (scaled <= std::max(mag_lo, mag_hi)) {
                    break;
                }
                bisect();
            }
            if (rational_) {
                return value_.get_d();
            }
            const mpq_class mid = (lo_ + hi_) / 2;
            return mid.get_d();
        }

        std::string to_string() const
        {
            if (is_rational()) {
                return value_.get_str();
            }
            std::ostringstream os;
            os << "root of [";
            for (std::size_t i = 0; i < q_.size(); ++i) {
                os << (i == 0 ? "" : ", ") << q_[i].get_str();
            }
            os << "] (increasing degree) in (" << lo_.get_str() << ", " << hi_.get_str() << ") ~ " << approx();
            return os.str();
        }

    private:
        void set_rational(const mpq_class& x) const
        {
            rational_ = true;
            value_ = x;
            q_.clear();
        }

        /// Whether g(this) == 0, via h = gcd(q, g): h divides the square-free q, so it has at most
        /// one (simple) root in (lo, hi), and it has one iff it changes sign there. Either way q can
        /// be replaced by a smaller defining polynomial (h or q / h).
        bool shares_root_with(const Poly& g) const
        {
            const Poly h = gcd(q_, g);
            if (degree(h) < 1) {
                return false;
            }
            if (sign_at(h, lo_) != sign_at(h, hi_)) {
                if (degree(h) == 1) {
                    set_rational(mpq_class(-h[0] / h[1]));
                } else {
                    q_ = h;
                    sign_lo_ = sign_at(q_, lo_);
                }
                return true;
            }
            q_ = monic(quotient(q_, h));
            if (degree(q_) == 1) {
                set_rational(mpq_class(-q_[0] / q_[1]));
            } else {
                sign_lo_ = sign_at(q_, lo_);
            }
            return false;
        }

        mutable bool rational_;
        mutable mpq_class value_; // when rational_
        mutable Poly q_; // otherwise: square-free, one root in (lo_, hi_)
        mutable mpq_class lo_;
        mutable mpq_class hi_;
        mutable int sign_lo_ = 0; // sign of q_(lo_), nonzero
    };

} // namespace detail

using detail::AlgebraicNumber;

namespace {

    /// Appends to out the isolating intervals of the roots of s in the open (lo, hi), in increasing
    /// order. n: how many there are; s_*: signs of s at the ends; v_*: Sturm variations there.
    void isolate(
        const Poly& s,
        const std::vector<Poly>& chain,
        const mpq_class& lo,
        const mpq_class& hi,
        int s_lo,
        int s_hi,
        int v_lo,
        int v_hi,
        int n,
        std::vector<AlgebraicNumber>* out)
    {
        if (n <= 0) {
            return;
        }
        if (n == 1 && s_lo != 0 && s_hi != 0) { // a simple root, so q(lo) q(hi) < 0
            out->emplace_back(s, lo, hi);
            return;
        }
        const mpq_class mid = (lo + hi) / 2;
        const int s_mid = sign_at(s, mid);
        const int v_mid = sign_variations(chain, mid);
        const int n_left = v_lo - v_mid - (s_mid == 0 ? 1 : 0);
        const int n_right = v_mid - v_hi - (s_hi == 0 ? 1 : 0);
        isolate(s, chain, lo, mid, s_lo, s_mid, v_lo, v_mid, n_left, out);
        if (s_mid == 0) {
            out->emplace_back(mid);
        }
        isolate(s, chain, mid, hi, s_mid, s_hi, v_mid, v_hi, n_right, out);
    }

    /// True when the Bernstein coefficients of p on [0, end] all have the same strict sign. Then p
    /// has no root there: on [0, end] it is a combination of them with nonnegative weights that
    /// sum to one. A cheap exact test that settles most root-free intervals without Sturm chains.
    bool no_root_by_bernstein(const Poly& p, const mpq_class& end)
    {
        const std::size_t n = p.size() - 1;
        // a_i end^i are the coefficients in s = t / end; b_k = sum_i C(k,i) / C(n,i) a_i end^i.
        Poly a = p;
        mpq_class power = 1;
        for (std::size_t i = 1; i <= n; ++i) {
            power *= end;
            a[i] *= power;
        }
        auto binomial = [](std::size_t m, std::size_t r) {
            unsigned long b = 1;
            for (std::size_t j = 1; j <= r; ++j) {
                b = b * static_cast<unsigned long>(m - r + j) / static_cast<unsigned long>(j);
            }
            return b;
        };
        int first = 0;
        for (std::size_t k = 0; k <= n; ++k) {
            mpq_class b = 0;
            for (std::size_t i = 0; i <= k; ++i) {
                b += a[i] * mpq_class(binomial(k, i), binomial(n, i));
            }
            const int s = sgn(b);
            if (s == 0 || (k > 0 && s != first)) {
                return false;
            }
            first = s;
        }
        return true;
    }

    /// The distinct real roots of a nonzero p in the closed [0, end], increasing.
    std::vector<AlgebraicNumber> real_roots(const Poly& p, const mpq_class& end)
    {
        std::vector<AlgebraicNumber> out;
        const mpq_class lo = 0;
        const mpq_class& hi = end;
        if (degree(p) < 1) {
            return out;
        }
        if (lo == hi) {
            if (sgn(p[0]) == 0) {
                out.emplace_back(lo);
            }
            return out;
        }
        if (degree(p) == 1) {
            mpq_class root = -p[0] / p[1];
            if (lo <= root && root <= hi) {
                out.emplace_back(std::move(root));
            }
            return out;
        }
        if (no_root_by_bernstein(p, end)) {
            return out;
        }
        // The Euclidean remainders of (p, p') end with gcd(p, p'): when it is constant p is already
        // square-free and its chain is the Sturm chain; otherwise redo it for p / gcd.
        Poly s = p;
        std::vector<Poly> chain = sturm_chain(s);
        if (degree(chain.back()) >= 1) {
            s = monic(quotient(p, chain.back()));
            if (degree(s) == 1) {
                mpq_class root = -s[0] / s[1];
                if (lo <= root && root <= hi) {
                    out.emplace_back(std::move(root));
                }
                return out;
            }
            chain = sturm_chain(s);
        }
        const int s_lo = sign_at(s, lo);
        const int s_hi = sign_at(s, hi);
        const int v_lo = sign_variations(chain, lo);
        const int v_hi = sign_variations(chain, hi);
        if (s_lo == 0) {
            out.emplace_back(lo);
        }
        const int n_open = v_lo - v_hi - (s_hi == 0 ? 1 : 0);
        isolate(s, chain, lo, hi, s_lo, s_hi, v_lo, v_hi, n_open, &out);
        if (s_hi == 0) {
            out.emplace_back(hi);
        }
        return out;
    }

    enum class QueryKind { VERTEX_FACE, EDGE_EDGE };

    /// Orientation triples (i, j, k) meaning orient2d(x_i, x_j, x_k), four per projection.
    /// Vertex-face (p=0, a=1, b=2, c=3): area(a,b,c), then p against edges bc, ca, ab.
    /// Edge-edge (ea0=0, ea1=1, eb0=2, eb1=3): ea0, ea1 against line b; eb0, eb1 against line a.
    constexpr std::array<std::array<PointIndex, 3>, 4> VF_ORIENT = { {
        { 1, 2, 3 },
        { 2, 3, 0 },
        { 3, 1, 0 },
        { 1, 2, 0 },
    } };
    constexpr std::array<std::array<PointIndex, 3>, 4> EE_ORIENT = { {
        { 2, 3, 0 },
        { 2, 3, 1 },
        { 0, 1, 2 },
        { 0, 1, 3 },
    } };

    /// The polynomials of one query and the containment test at a given (coplanar) time.
    class Query {
    public:
        Query(QueryKind kind, const std::array<Eigen::Vector3d, 8>& x)
            : kind_(kind)
        {
            // Scale space by 2^shift so that every coordinate becomes an integer: a similarity
            // changes no contact, and integer coefficients keep the rational arithmetic cheap.
            int lowest = std::numeric_limits<int>::max();
            for (const auto& point : x) {
                for (const double xk : point) {
                    if (!std::isfinite(xk)) {
                        throw std::invalid_argument("ccdkit::oracle: non-finite coordinate");
                    }
                    if (xk != 0) {
                        lowest = std::min(lowest, lowest_bit_exponent(xk));
                    }
                }
            }
            const int shift = lowest == std::numeric_limits<int>::max() ? 0 : -lowest;
            auto scaled = [shift](double xk) {
                mpq_class r(xk); // exact
                if (shift >= 0) {
                    mpq_mul_2exp(r.get_mpq_t(), r.get_mpq_t(), static_cast<mp_bitcnt_t>(shift));
                } else {
                    mpq_div_2exp(r.get_mpq_t(), r.get_mpq_t(), static_cast<mp_bitcnt_t>(-shift));
                }
                return mpz_class(r.get_num()); // the denominator is 1 by the choice of shift
            };
            for (std::size_t i = 0; i < 4; ++i) {
                for (Eigen::Index k = 0; k < 3; ++k) {
                    // x(t) = x0 + t (x1 - x0), exactly.
                    const mpz_class x0 = scaled(x[i][k]);
                    IntPoly p { x0, mpz_class(scaled(x[i + 4][k]) - x0) };
                    trim(p);
                    pos_[i][static_cast<std::size_t>(k)] = std::move(p);
                }
            }
        }

        /// det[x1 - x0, x2 - x0, x3 - x0] (vertex-face: a - p, b - p, c - p), degree <= 3.
        Poly coplanarity() const
        {
            std::array<std::array<IntPoly, 3>, 3> e;
            for (std::size_t r = 0; r < 3; ++r) {
                for (std::size_t k = 0; k < 3; ++k) {
                    e[r][k] = sub(pos_[r + 1][k], pos_[0][k]);
                }
            }
            IntPoly det;
            for (std::size_t k = 0; k < 3; ++k) {
                const std::size_t k1 = (k + 1) % 3;
                const std::size_t k2 = (k + 2) % 3;
                const IntPoly cross_k = sub(mul(e[1][k1], e[2][k2]), mul(e[1][k2], e[2][k1]));
                det = add(det, mul(e[0][k], cross_k));
            }
            return to_rational(det);
        }

        /// Whether the (coplanar) configuration at time t is in contact: in every axis-aligned
        /// projection the 2D predicate holds.
        bool contact_at(const AlgebraicNumber& t)
        {
            for (std::size_t drop = 0; drop < 3; ++drop) {
                const bool ok
                    = kind_ == QueryKind::VERTEX_FACE ? point_in_triangle_2d(t, drop) : segments_intersect_2d(t, drop);
                if (!ok) {
                    return false;
                }
            }
            return true;
        }

        /// Every non-constant polynomial whose sign contact_at may consult, as monic square-free
        /// parts without duplicates.
        std::vector<Poly> predicate_polys()
        {
            std::vector<Poly> all;
            auto push = [&all](const Poly& p) {
                if (degree(p) < 1) {
                    return;
                }
                Poly s = square_free(p);
                for (const auto& q : all) {
                    if (q == s) {
                        return;
                    }
                }
                all.push_back(std::move(s));
            };
            for (std::size_t drop = 0; drop < 3; ++drop) {
                for (std::size_t slot = 0; slot < 4; ++slot) {
                    push(orientation(drop, slot));
                }
            }
            const std::vector<std::pair<PointIndex, PointIndex>> pairs = kind_ == QueryKind::VERTEX_FACE
                ? std::vector<std::pair<PointIndex, PointIndex>> { { 0, 1 }, { 0, 2 }, { 0, 3 } }
                : std::vector<std::pair<PointIndex, PointIndex>> { { 0, 2 }, { 0, 3 }, { 1, 2 }, { 1, 3 } };
            for (std::size_t axis = 0; axis < 3; ++axis) {
                for (const auto& [i, j] : pairs) {
                    push(difference(i, j, axis));
                }
            }
            return all;
        }

    private:
        /// orient2d of a slot's triple in the projection dropping axis `drop` (degree <= 2), cached.
        const Poly& orientation(std::size_t drop, std::size_t slot)
        {
            auto& cached = orient_cache_[drop * 4 + slot];
            if (!cached_[drop * 4 + slot]) {
                const auto& tri = kind_ == QueryKind::VERTEX_FACE ? VF_ORIENT[slot] : EE_ORIENT[slot];
                const std::size_t u = (drop + 1) % 3;
                const std::size_t v = (drop + 2) % 3;
                const auto& pi = pos_[static_cast<std::size_t>(tri[0])];
                const auto& pj = pos_[static_cast<std::size_t>(tri[1])];
                const auto& pk = pos_[static_cast<std::size_t>(tri[2])];
                const IntPoly ju = sub(pj[u], pi[u]);
                const IntPoly jv = sub(pj[v], pi[v]);
                const IntPoly ku = sub(pk[u], pi[u]);
                const IntPoly kv = sub(pk[v], pi[v]);
                cached = to_rational(sub(mul(ju, kv), mul(jv, ku)));
                cached_[drop * 4 + slot] = true;
            }
            return cached;
        }

        /// x_i - x_j along one axis (degree <= 1).
        Poly difference(PointIndex i, PointIndex j, std::size_t axis) const
        {
            return to_rational(sub(pos_[static_cast<std::size_t>(i)][axis], pos_[static_cast<std::size_t>(j)][axis]));
        }

        /// Whether x_i lies in the coordinate box of x_j, x_k in the projection dropping `drop`.
        bool in_box_2d(const AlgebraicNumber& t, std::size_t drop, PointIndex i, PointIndex j, PointIndex k) const
        {
            for (const std::size_t axis : { (drop + 1) % 3, (drop + 2) % 3 }) {
                if (t.sign_of(difference(i, j, axis)) * t.sign_of(difference(i, k, axis)) > 0) {
                    return false;
                }
            }
            return true;
        }

        /// p in the closed projected triangle; if that has zero area, p on one of its three sides.
        bool point_in_triangle_2d(const AlgebraicNumber& t, std::size_t drop)
        {
            const int area = t.sign_of(orientation(drop, 0));
            if (area != 0) {
                for (std::size_t slot = 1; slot < 4; ++slot) {
                    if (t.sign_of(orientation(drop, slot)) == -area) {
                        return false;
                    }
                }
                return true;
            }
            // Collinear (or coincident) projected vertices: the hull is the union of the sides.
            return (t.sign_of(orientation(drop, 3)) == 0 && in_box_2d(t, drop, 0, 1, 2))
                || (t.sign_of(orientation(drop, 1)) == 0 && in_box_2d(t, drop, 0, 2, 3))
                || (t.sign_of(orientation(drop, 2)) == 0 && in_box_2d(t, drop, 0, 3, 1));
        }

        /// Closed projected segments [ea0, ea1] and [eb0, eb1] share a point.
        bool segments_intersect_2d(const AlgebraicNumber& t, std::size_t drop)
        {
            const int d1 = t.sign_of(orientation(drop, 0));
            const int d2 = t.sign_of(orientation(drop, 1));
            if (d1 * d2 > 0) { // segment a strictly on one side of line b (so b is not a point)
                return false;
            }
            const int d3 = t.sign_of(orientation(drop, 2));
            const int d4 = t.sign_of(orientation(drop, 3));
            if (d3 * d4 > 0) {
                return false;
            }
            if (d1 * d2 < 0 && d3 * d4 < 0) { // proper crossing
                return true;
            }
            // Touching, collinear or zero-length cases: an endpoint on the other segment's line
            // and inside its box lies on that segment.
            return (d1 == 0 && in_box_2d(t, drop, 0, 2, 3)) || (d2 == 0 && in_box_2d(t, drop, 1, 2, 3))
                || (d3 == 0 && in_box_2d(t, drop, 2, 0, 1)) || (d4 == 0 && in_box_2d(t, drop, 3, 0, 1));
        }

        QueryKind kind_;
        std::array<std::array<IntPoly, 3>, 4> pos_; ///< pos_[point][axis](t), scaled, degree <= 1
        std::array<Poly, 12> orient_cache_;
        std::array<bool, 12> cached_ {};
    };

    OracleResult make_hit(AlgebraicNumber t)
    {
        OracleResult result;
        result.hit = true;
        result.earliest = std::make_shared<ContactTime>(std::make_unique<AlgebraicNumber>(std::move(t)));
        return result;
    }

    OracleResult solve(QueryKind kind, const std::array<Eigen::Vector3d, 8>& x, double t_max)
    {
        if (!std::isfinite(t_max) || t_max < 0) {
            throw std::invalid_argument("ccdkit::oracle: t_max must be finite and >= 0");
        }
        Query query(kind, x);
        const mpq_class end(t_max);

        const Poly c = query.coplanarity();
        if (!c.empty()) {
            // Contact needs coplanarity: only the roots of c can be contact times.
            for (auto& root : real_roots(c, end)) {
                if (query.contact_at(root)) {
                    return make_hit(std::move(root));
                }
            }
            return {};
        }

        // Coplanar at all times. The contact set is closed and its membership is a function of the
        // signs of predicate_polys(), so its minimum is 0 or one of their roots in [0, t_max].
        AlgebraicNumber start(mpq_class(0));
        if (query.contact_at(start)) {
            return make_hit(std::move(start));
        }
        std::vector<AlgebraicNumber> candidates;
        for (const auto& p : query.predicate_polys()) {
            for (auto& root : real_roots(p, end)) {
                if (root.compare(mpq_class(0)) > 0) {
                    candidates.push_back(std::move(root));
                }
            }
        }
        // Try them in increasing order; the first that is in contact is the earliest.
        while (!candidates.empty()) {
            std::size_t best = 0;
            for (std::size_t i = 1; i < candidates.size(); ++i) {
                if (candidates[i].compare(candidates[best]) < 0) {
                    best = i;
                }
            }
            if (query.contact_at(candidates[best])) {
                return make_hit(std::move(candidates[best]));
            }
            // Drop it and every equal candidate (roots shared by several polynomials).
            std::vector<AlgebraicNumber> rest;
            for (std::size_t i = 0; i < candidates.size(); ++i) {
                if (i != best && candidates[i].compare(candidates[best]) != 0) {
                    rest.push_back(std::move(candidates[i]));
                }
            }
            candidates = std::move(rest);
        }
        return {};
    }

} // namespace

ContactTime::ContactTime(std::unique_ptr<detail::AlgebraicNumber> value)
    : value_(std::move(value))
{
}

ContactTime::~ContactTime() = default;

int ContactTime::compare(double t) const
{
    if (std::isnan(t)) {
        throw std::invalid_argument("ccdkit::oracle: ContactTime::compare(NaN)");
    }
    if (std::isinf(t)) {
        return t > 0 ? -1 : 1;
    }
    return value_->compare(mpq_class(t));
}

int ContactTime::compare(const mpq_class& t) const { return value_->compare(t); }

int ContactTime::compare(const ContactTime& other) const { return value_->compare(*other.value_); }

double ContactTime::approx() const { return value_->approx(); }

bool ContactTime::is_rational() const { return value_->is_rational(); }

std::string ContactTime::to_string() const { return value_->to_string(); }

OracleResult vertex_face(const std::array<Eigen::Vector3d, 8>& x, double t_max)
{
    return solve(QueryKind::VERTEX_FACE, x, t_max);
}

OracleResult edge_edge(const std::array<Eigen::Vector3d, 8>& x, double t_max)
{
    return solve(QueryKind::EDGE_EDGE, x, t_max);
}

} // namespace ccdkit::oracle
