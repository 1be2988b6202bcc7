// SPDX-License-Identifier: MIT
#include <ccdkit/broad/aabb.hpp>

#include <tbb/parallel_for.h>

#include <cmath>
#include <limits>

namespace ccdkit {

namespace {
    constexpr double INF = std::numeric_limits<double>::infinity();

    /// The box of the given vertices at both ends of the step, grown by `inflation`, rounded outward.
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

    template <class Primitives>
    std::vector<Aabb>
    swept_boxes(const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1, const Primitives& primitives, double inflation)
    {
        std::vector<Aabb> boxes(static_cast<std::size_t>(primitives.rows()));
        tbb::parallel_for(
            tbb::blocked_range<Eigen::Index>(0, primitives.rows(), 4096),
            [&](const tbb::blocked_range<Eigen::Index>& r) {
                for (Eigen::Index i = r.begin(); i != r.end(); ++i) {
                    boxes[static_cast<std::size_t>(i)] = swept_box(v0, v1, primitives.row(i), inflation);
                }
            });
        return boxes;
    }
} // namespace

std::vector<Aabb> vertex_boxes(const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1, double inflation)
{
    const Eigen::VectorXi identity = Eigen::VectorXi::LinSpaced(v0.rows(), 0, static_cast<int>(v0.rows()) - 1);
    return swept_boxes(v0, v1, identity, inflation);
}

std::vector<Aabb>
edge_boxes(const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1, const Eigen::MatrixX2i& edges, double inflation)
{
    return swept_boxes(v0, v1, edges, inflation);
}

std::vector<Aabb>
face_boxes(const Eigen::MatrixX3d& v0, const Eigen::MatrixX3d& v1, const Eigen::MatrixX3i& faces, double inflation)
{
    return swept_boxes(v0, v1, faces, inflation);
}

} // namespace ccdkit
