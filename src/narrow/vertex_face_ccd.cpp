// SPDX-License-Identifier: MIT
#include "narrow/details/ccd_driver.hpp"
#include "narrow/details/contact_normal.hpp"

#include <ccdkit/narrow/spacetime_ccd.hpp>
#include <ccdkit/narrow/vertex_face_ccd.hpp>

namespace ccdkit {

namespace {
    /// Barycentric weights of the point of the triangle closest to p, and the triangle's unit normal.
    /// A collapsed triangle has no normal (zero); its weights are those of the closest point on its longest
    /// side.
    void vertex_face_contact(const details::QueryMotion& motion, double t, CcdResult& result)
    {
        const auto x = motion.at(t);
        const Eigen::Vector3d e1 = x[2] - x[1], e2 = x[3] - x[1], w = x[0] - x[1];
        const Eigen::Vector3d n = e1.cross(e2);
        const double a = e1.dot(e1), b = e1.dot(e2), c = e2.dot(e2);
        const double det = a * c - b * b;
        if (n.squaredNorm() > 0.0 && det > 0.0) {
            const double u = (c * w.dot(e1) - b * w.dot(e2)) / det;
            const double v = (a * w.dot(e2) - b * w.dot(e1)) / det;
            result.contact = { 1.0 - u - v, u, v };
            result.normal = n.normalized();
            details::orient_normal(motion, { 1.0, -result.contact[0], -result.contact[1], -result.contact[2] }, result);
            return;
        }
        // Longest side (i, j) of the collapsed triangle, and the parameter of p's projection on it.
        int i = 1, j = 2;
        for (const auto& [k, l] : { std::pair { 2, 3 }, std::pair { 3, 1 } }) {
            if ((x[l] - x[k]).squaredNorm() > (x[j] - x[i]).squaredNorm()) {
                i = k;
                j = l;
            }
        }
        const Eigen::Vector3d d = x[j] - x[i];
        const double len2 = d.squaredNorm();
        const double s = len2 > 0.0 ? std::clamp((x[0] - x[i]).dot(d) / len2, 0.0, 1.0) : 0.0;
        result.contact.setZero();
        result.contact[i - 1] = 1.0 - s;
        result.contact[j - 1] += s;
        result.normal.setZero();
    }
} // namespace

CcdResult vertex_face_ccd(const VertexFaceMotion& motion, const CcdOptions& options)
{
    if (options.method == CcdMethod::SPACETIME) {
        return spacetime_vertex_face_ccd(motion, { 0, 1, 2, 3 }, options);
    }
    return details::run_ccd<details::VertexFaceTerms>(details::to_query_motion(motion), options, vertex_face_contact);
}

} // namespace ccdkit
