// SPDX-License-Identifier: MIT
#include "narrow/details/ccd_driver.hpp"
#include "narrow/details/contact_normal.hpp"

#include <ccdkit/narrow/edge_edge_ccd.hpp>
#include <ccdkit/narrow/spacetime_ccd.hpp>

#include <algorithm>

namespace ccdkit {

namespace {
    /// Parameters (s, u) of the closest points ea0 + s da and eb0 + u db, and the unit normal da x db.
    /// Parallel edges have no normal (zero); their s is 0 and u the projection of ea0 on the other edge.
    void edge_edge_contact(const details::QueryMotion& motion, double t, CcdResult& result)
    {
        const auto x = motion.at(t);
        const Eigen::Vector3d da = x[1] - x[0], db = x[3] - x[2], w = x[0] - x[2];
        const double a = da.dot(da), b = da.dot(db), c = db.dot(db), d = da.dot(w), e = db.dot(w);
        const double det = a * c - b * b;
        const Eigen::Vector3d m = da.cross(db);
        double s = 0.0, u = 0.0;
        if (m.squaredNorm() > 0.0 && det > 0.0) {
            s = std::clamp((b * e - c * d) / det, 0.0, 1.0);
            u = std::clamp((a * e - b * d) / det, 0.0, 1.0);
            result.normal = m.normalized();
        } else {
            u = c > 0.0 ? std::clamp(e / c, 0.0, 1.0) : 0.0;
            result.normal.setZero();
        }
        result.contact = { s, u, 0.0 };
        details::orient_normal(motion, { 1.0 - s, s, u - 1.0, -u }, result);
    }
} // namespace

CcdResult edge_edge_ccd(const EdgeEdgeMotion& motion, const CcdOptions& options)
{
    if (options.method == CcdMethod::SPACETIME) {
        return spacetime_edge_edge_ccd(motion, { 0, 1, 2, 3 }, options);
    }
    return details::run_ccd<details::EdgeEdgeTerms>(details::to_query_motion(motion), options, edge_edge_contact);
}

} // namespace ccdkit
