// SPDX-License-Identifier: MIT
#include <ccdkit/io/run_query.hpp>
#include <ccdkit/narrow/edge_edge_ccd.hpp>
#include <ccdkit/narrow/spacetime_ccd.hpp>
#include <ccdkit/narrow/vertex_face_ccd.hpp>

#include <stdexcept>

namespace ccdkit {

CcdResult run_query(const Query& query, const CcdOptions& options)
{
    const auto& x = query.points;
    switch (query.kind) {
    case QueryKind::VERTEX_FACE:
        return vertex_face_ccd({ x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] }, options);
    case QueryKind::EDGE_EDGE:
        return edge_edge_ccd({ x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] }, options);
    case QueryKind::POINT_EDGE:
        // Points: p_t0, e0_t0, e1_t0, p_t1, e0_t1, e1_t1, in the plane z = 0.
        if (options.method == CcdMethod::SPACETIME) {
            const auto xy = [&](std::size_t i) -> Eigen::Vector2d { return x[i].head<2>(); };
            return spacetime_point_edge_ccd({ xy(0), xy(1), xy(2), xy(3), xy(4), xy(5) }, { 0, 1, 2, 3 }, options);
        }
        return edge_edge_ccd({ x[0], x[0], x[1], x[2], x[3], x[3], x[4], x[5] }, options);
    }
    throw std::invalid_argument("run_query: invalid QueryKind");
}

} // namespace ccdkit
