// SPDX-License-Identifier: MIT
#include "broad/details/swept_boxes.hpp"
#include "core/details/ieee_arithmetic_tasks.hpp"

#include <ccdkit/broad/aabb.hpp>

#include <tbb/parallel_for.h>

#include <cmath>
#include <limits>

namespace ccdkit {

namespace {
    constexpr double INF = std::numeric_limits<double>::infinity();

    /// The box of the given vertices at both ends of the step, grown by `inflation`, rounded outward (in plain IEEE
    /// arithmetic: a flushed sum moves a negative bound toward zero, i.e. inward).
    template <class Indices>
    Aabb swept_box(const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1, const Indices& indices, double inflation)
    {
        Aabb box { Eigen::Array3d::Constant(INF), Eigen::Array3d::Constant(-INF) };
        for (Eigen::Index k = 0; k < indices.size(); ++k) {
            for (const Eigen::MatrixX3d* v : { &v0, &v1 }) {
                const Eigen::Array3d p = v->row(indices[k]).transpose().array();
                box.min = box.min.min(p);
                box.max = box.max.max(p);
            }
        }
        if (inflation > 0.0) {
            for (int axis = 0; axis < 3; ++axis) {
                box.min[axis] = std::nextafter(box.min[axis] - inflation, -INF);
                box.max[axis] = std::nextafter(box.max[axis] + inflation, INF);
            }
        }
        return box;
    }

    /// Box i from `box_of(i)` for i in [0, count), in parallel, into `boxes` (at least `count`).
    template <class BoxOf> void fill_boxes(Eigen::Index count, std::span<Aabb> boxes, BoxOf box_of)
    {
        tbb::parallel_for(
            tbb::blocked_range<Eigen::Index>(0, count, 4096), [&](const tbb::blocked_range<Eigen::Index>& r) {
                for (Eigen::Index i = r.begin(); i != r.end(); ++i) {
                    boxes[static_cast<std::size_t>(i)] = box_of(i);
                }
            });
    }
} // namespace

template <class Primitives>
void details::swept_boxes(
    const Eigen::MatrixX3d& v0,
    const Eigen::MatrixX3d& v1,
    const Primitives& primitives,
    double inflation,
    std::span<Aabb> boxes)
{
    fill_boxes(
        primitives.rows(), boxes, [&](Eigen::Index i) { return swept_box(v0, v1, primitives.row(i), inflation); });
}

template void details::swept_boxes(
    const Eigen::MatrixX3d&, const Eigen::MatrixX3d&, const Eigen::MatrixX2i&, double, std::span<Aabb>);
template void details::swept_boxes(
    const Eigen::MatrixX3d&, const Eigen::MatrixX3d&, const Eigen::MatrixX3i&, double, std::span<Aabb>);

void details::vertex_swept_boxes(
    const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1, double inflation, std::span<Aabb> boxes)
{
    fill_boxes(v0.rows(), boxes, [&](Eigen::Index i) {
        return swept_box(v0, v1, Eigen::Matrix<Eigen::Index, 1, 1>::Constant(i), inflation);
    });
}

std::vector<Aabb> vertex_boxes(const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1, double inflation)
{
    std::vector<Aabb> boxes(static_cast<std::size_t>(v0.rows()));
    details::with_ieee_arithmetic([&] { details::vertex_swept_boxes(v0, v1, inflation, boxes); });
    return boxes;
}

std::vector<Aabb>
edge_boxes(const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1, const Eigen::MatrixX2i& edges, double inflation)
{
    std::vector<Aabb> boxes(static_cast<std::size_t>(edges.rows()));
    details::with_ieee_arithmetic([&] { details::swept_boxes(v0, v1, edges, inflation, boxes); });
    return boxes;
}

std::vector<Aabb>
face_boxes(const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1, const Eigen::MatrixX3i& faces, double inflation)
{
    std::vector<Aabb> boxes(static_cast<std::size_t>(faces.rows()));
    details::with_ieee_arithmetic([&] { details::swept_boxes(v0, v1, faces, inflation, boxes); });
    return boxes;
}

} // namespace ccdkit
