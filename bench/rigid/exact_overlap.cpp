// SPDX-License-Identifier: MIT
#include "exact_overlap.hpp"

#include <Eigen/Geometry>
#include <gmpxx.h>

#include <array>
#include <cmath>

namespace ccdkit::bench {
namespace {
    constexpr double EPSILON = 0x1p-53; // half an ulp of 1 (Shewchuk's epsilon)
    constexpr double O3D_ERRBOUND_A = (7.0 + 56.0 * EPSILON) * EPSILON;
    constexpr double CCW_ERRBOUND_A = (3.0 + 16.0 * EPSILON) * EPSILON;

    int sign_of(const mpq_class& x) { return sgn(x); }
    int sign_of(double x) { return (x > 0.0) - (x < 0.0); }

    int orient3d_exact(
        const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c, const Eigen::Vector3d& d)
    {
        std::array<std::array<mpq_class, 3>, 3> m;
        const std::array<const Eigen::Vector3d*, 3> rows { &a, &b, &c };
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                m[i][j] = mpq_class((*rows[i])(j)) - mpq_class(d(j));
            }
        }
        const mpq_class det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
        return sign_of(det);
    }

    /// The 2D point of a 3D point with coordinate `drop` left out.
    Eigen::Vector2d project(const Eigen::Vector3d& p, int drop)
    {
        return drop == 0 ? Eigen::Vector2d(p.y(), p.z())
                         : (drop == 1 ? Eigen::Vector2d(p.x(), p.z()) : Eigen::Vector2d(p.x(), p.y()));
    }

    bool mixed(int s1, int s2, int s3) { return (s1 > 0 || s2 > 0 || s3 > 0) && (s1 < 0 || s2 < 0 || s3 < 0); }

    /// r on the closed segment pq, given that the three are collinear.
    bool on_collinear_segment(const Eigen::Vector2d& p, const Eigen::Vector2d& q, const Eigen::Vector2d& r)
    {
        return std::min(p.x(), q.x()) <= r.x() && r.x() <= std::max(p.x(), q.x()) && std::min(p.y(), q.y()) <= r.y()
            && r.y() <= std::max(p.y(), q.y());
    }

    bool segments_meet_2d(
        const Eigen::Vector2d& p, const Eigen::Vector2d& q, const Eigen::Vector2d& r, const Eigen::Vector2d& s)
    {
        const int o1 = orient2d_sign(p, q, r), o2 = orient2d_sign(p, q, s);
        const int o3 = orient2d_sign(r, s, p), o4 = orient2d_sign(r, s, q);
        if (o1 * o2 < 0 && o3 * o4 < 0) {
            return true;
        }
        return (o1 == 0 && on_collinear_segment(p, q, r)) || (o2 == 0 && on_collinear_segment(p, q, s))
            || (o3 == 0 && on_collinear_segment(r, s, p)) || (o4 == 0 && on_collinear_segment(r, s, q));
    }

    bool point_in_triangle_2d(
        const Eigen::Vector2d& x, const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c)
    {
        return !mixed(orient2d_sign(a, b, x), orient2d_sign(b, c, x), orient2d_sign(c, a, x));
    }

    /// Segment and triangle in one plane: project along the normal's largest component (an affine bijection of
    /// the plane for a non-collinear triangle, so meeting is preserved exactly).
    bool coplanar_segment_meets_triangle(
        const Eigen::Vector3d& p,
        const Eigen::Vector3d& q,
        const Eigen::Vector3d& a,
        const Eigen::Vector3d& b,
        const Eigen::Vector3d& c)
    {
        const Eigen::Vector3d n = (b - a).cross(c - a).cwiseAbs();
        int drop = 0;
        n.maxCoeff(&drop);
        const Eigen::Vector2d p2 = project(p, drop), q2 = project(q, drop);
        const Eigen::Vector2d a2 = project(a, drop), b2 = project(b, drop), c2 = project(c, drop);
        return point_in_triangle_2d(p2, a2, b2, c2) || point_in_triangle_2d(q2, a2, b2, c2)
            || segments_meet_2d(p2, q2, a2, b2) || segments_meet_2d(p2, q2, b2, c2) || segments_meet_2d(p2, q2, c2, a2);
    }
} // namespace

int orient3d_sign(
    const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c, const Eigen::Vector3d& d)
{
    const double adx = a.x() - d.x(), bdx = b.x() - d.x(), cdx = c.x() - d.x();
    const double ady = a.y() - d.y(), bdy = b.y() - d.y(), cdy = c.y() - d.y();
    const double adz = a.z() - d.z(), bdz = b.z() - d.z(), cdz = c.z() - d.z();
    const double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy;
    const double cdxady = cdx * ady, adxcdy = adx * cdy;
    const double adxbdy = adx * bdy, bdxady = bdx * ady;
    const double det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
    const double permanent = (std::abs(bdxcdy) + std::abs(cdxbdy)) * std::abs(adz)
        + (std::abs(cdxady) + std::abs(adxcdy)) * std::abs(bdz) + (std::abs(adxbdy) + std::abs(bdxady)) * std::abs(cdz);
    if (std::abs(det) > O3D_ERRBOUND_A * permanent) {
        return sign_of(det);
    }
    return orient3d_exact(a, b, c, d);
}

int orient2d_sign(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c)
{
    const double left = (a.x() - c.x()) * (b.y() - c.y());
    const double right = (a.y() - c.y()) * (b.x() - c.x());
    const double det = left - right;
    if (std::abs(det) > CCW_ERRBOUND_A * (std::abs(left) + std::abs(right))) {
        return sign_of(det);
    }
    const mpq_class exact = (mpq_class(a.x()) - mpq_class(c.x())) * (mpq_class(b.y()) - mpq_class(c.y()))
        - (mpq_class(a.y()) - mpq_class(c.y())) * (mpq_class(b.x()) - mpq_class(c.x()));
    return sign_of(exact);
}

bool segment_meets_triangle(
    const Eigen::Vector3d& p,
    const Eigen::Vector3d& q,
    const Eigen::Vector3d& a,
    const Eigen::Vector3d& b,
    const Eigen::Vector3d& c)
{
    const int op = orient3d_sign(a, b, c, p), oq = orient3d_sign(a, b, c, q);
    if (op * oq > 0) {
        return false;
    }
    if (op == 0 && oq == 0) {
        return coplanar_segment_meets_triangle(p, q, a, b, c);
    }
    // The line pq crosses the plane once, at a point of the closed segment; that point is in the closed
    // triangle iff the line passes no edge on the wrong side.
    return !mixed(orient3d_sign(p, q, a, b), orient3d_sign(p, q, b, c), orient3d_sign(p, q, c, a));
}

bool triangles_meet(
    const Eigen::Vector3d& a0,
    const Eigen::Vector3d& a1,
    const Eigen::Vector3d& a2,
    const Eigen::Vector3d& b0,
    const Eigen::Vector3d& b1,
    const Eigen::Vector3d& b2)
{
    const auto strictly_one_side
        = [](int s0, int s1, int s2) { return (s0 > 0 && s1 > 0 && s2 > 0) || (s0 < 0 && s1 < 0 && s2 < 0); };
    if (strictly_one_side(orient3d_sign(b0, b1, b2, a0), orient3d_sign(b0, b1, b2, a1), orient3d_sign(b0, b1, b2, a2))
        || strictly_one_side(
            orient3d_sign(a0, a1, a2, b0), orient3d_sign(a0, a1, a2, b1), orient3d_sign(a0, a1, a2, b2))) {
        return false;
    }
    return segment_meets_triangle(a0, a1, b0, b1, b2) || segment_meets_triangle(a1, a2, b0, b1, b2)
        || segment_meets_triangle(a2, a0, b0, b1, b2) || segment_meets_triangle(b0, b1, a0, a1, a2)
        || segment_meets_triangle(b1, b2, a0, a1, a2) || segment_meets_triangle(b2, b0, a0, a1, a2);
}

bool point_in_solid(const Eigen::Vector3d& p, const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces)
{
    const Eigen::Vector3d lo = vertices.colwise().minCoeff().transpose();
    const Eigen::Vector3d hi = vertices.colwise().maxCoeff().transpose();
    if ((p.array() < lo.array()).any() || (p.array() > hi.array()).any()) {
        return false;
    }
    const double length = 2.0 * ((hi - lo).norm() + (p - 0.5 * (lo + hi)).norm()) + 1.0;
    // Directions no mesh of the benchmark is aligned with; the next one is tried when a segment meets an edge.
    const std::array<Eigen::Vector3d, 4> directions { Eigen::Vector3d(1.0, 0.0123456789, 0.00707106781),
                                                      Eigen::Vector3d(-0.0131313131, 1.0, 0.0091919191),
                                                      Eigen::Vector3d(0.0087654321, -0.0111111113, 1.0),
                                                      Eigen::Vector3d(-0.577, -0.5791, 0.5763) };
    bool inside = false;
    for (const Eigen::Vector3d& direction : directions) {
        const Eigen::Vector3d q = p + length * direction;
        const Eigen::Vector3d seg_lo = p.cwiseMin(q), seg_hi = p.cwiseMax(q);
        int crossings = 0;
        bool degenerate = false;
        for (Eigen::Index f = 0; f < faces.rows() && !degenerate; ++f) {
            const Eigen::Vector3d a = vertices.row(faces(f, 0)), b = vertices.row(faces(f, 1)),
                                  c = vertices.row(faces(f, 2));
            if ((a.cwiseMax(b).cwiseMax(c).array() < seg_lo.array()).any()
                || (a.cwiseMin(b).cwiseMin(c).array() > seg_hi.array()).any()) {
                continue;
            }
            const int op = orient3d_sign(a, b, c, p), oq = orient3d_sign(a, b, c, q);
            if (op * oq > 0) {
                continue;
            }
            if (op == 0 && oq == 0) {
                degenerate = coplanar_segment_meets_triangle(p, q, a, b, c);
                continue;
            }
            const int s1 = orient3d_sign(p, q, a, b), s2 = orient3d_sign(p, q, b, c), s3 = orient3d_sign(p, q, c, a);
            if (mixed(s1, s2, s3)) {
                continue;
            }
            if (op == 0) {
                return true; // p on the surface
            }
            if (s1 == 0 || s2 == 0 || s3 == 0) {
                degenerate = true; // through an edge or a vertex: parity undefined, try another direction
                continue;
            }
            ++crossings;
        }
        inside = (crossings % 2) == 1;
        if (!degenerate) {
            return inside;
        }
    }
    return inside;
}

} // namespace ccdkit::bench
