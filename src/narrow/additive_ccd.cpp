// SPDX-License-Identifier: MIT
#include "narrow/details/additive_stepping.hpp"

#include <ccdkit/narrow/additive_ccd.hpp>

namespace ccdkit {

AdditiveCcdResult additive_point_point_ccd(const PointPointMotion<3>& m, const AdditiveCcdOptions& options)
{
    return details::additive_ccd<3, 1, 1>(
        { m.a_t0, m.b_t0 }, { m.a_t1, m.b_t1 }, false, options, details::PointPointDirections {});
}

AdditiveCcdResult additive_point_point_ccd(const PointPointMotion<2>& m, const AdditiveCcdOptions& options)
{
    return details::additive_ccd<2, 1, 1>(
        { m.a_t0, m.b_t0 }, { m.a_t1, m.b_t1 }, false, options, details::PointPointDirections {});
}

AdditiveCcdResult additive_point_edge_ccd(const PointEdgeMotion& m, const AdditiveCcdOptions& options)
{
    return details::additive_ccd<3, 1, 2>(
        { m.p_t0, m.e0_t0, m.e1_t0 }, { m.p_t1, m.e0_t1, m.e1_t1 }, false, options, details::PointEdgeDirections {});
}

AdditiveCcdResult additive_point_edge_ccd(const PointEdgeMotion2d& m, const AdditiveCcdOptions& options)
{
    return details::additive_ccd<2, 1, 2>(
        { m.p_t0, m.e0_t0, m.e1_t0 }, { m.p_t1, m.e0_t1, m.e1_t1 }, false, options, details::PointEdgeDirections {});
}

AdditiveCcdResult additive_vertex_face_ccd(const VertexFaceMotion& m, const AdditiveCcdOptions& options)
{
    return details::additive_ccd<3, 1, 3>(
        { m.p_t0, m.t0_t0, m.t1_t0, m.t2_t0 }, { m.p_t1, m.t0_t1, m.t1_t1, m.t2_t1 }, false, options,
        details::VertexFaceDirections {});
}

AdditiveCcdResult additive_edge_edge_ccd(const EdgeEdgeMotion& m, const AdditiveCcdOptions& options)
{
    return details::additive_ccd<3, 2, 2>(
        { m.ea0_t0, m.ea1_t0, m.eb0_t0, m.eb1_t0 }, { m.ea0_t1, m.ea1_t1, m.eb0_t1, m.eb1_t1 }, false, options,
        details::EdgeEdgeDirections {});
}

} // namespace ccdkit
