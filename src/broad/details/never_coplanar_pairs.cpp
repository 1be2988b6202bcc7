// SPDX-License-Identifier: MIT
#include "broad/details/never_coplanar_pairs.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

namespace ccdkit::details {

namespace {
    /// The rounded difference b - a at both ends of the step, and the largest magnitude among its components.
    template <class P> LinearVector difference(const P& a, const P& b, double& largest)
    {
        LinearVector d;
        for (int k = 0; k < 3; ++k) {
            d.start[k] = b.start[k] - a.start[k];
            d.end[k] = b.end[k] - a.end[k];
            largest = std::max({ largest, std::abs(d.start[k]), std::abs(d.end[k]) });
        }
        return d;
    }

    template <class Body> void in_parallel(Eigen::Index count, Body body)
    {
        tbb::parallel_for(
            tbb::blocked_range<Eigen::Index>(0, count, 4096), [&](const tbb::blocked_range<Eigen::Index>& r) {
                for (Eigen::Index i = r.begin(); i != r.end(); ++i) {
                    body(i);
                }
            });
    }
} // namespace

NeverCoplanarPairs::NeverCoplanarPairs(
    const Eigen::MatrixX3d& v0,
    const Eigen::MatrixX3d& v1,
    const Eigen::MatrixX2i& edges,
    const Eigen::MatrixX3i& faces)
    : points_(static_cast<std::size_t>(v0.rows()))
    , edges_(static_cast<std::size_t>(edges.rows()))
    , faces_(static_cast<std::size_t>(faces.rows()))
{
    in_parallel(v0.rows(), [&](Eigen::Index i) {
        Point& p = points_[static_cast<std::size_t>(i)];
        for (int k = 0; k < 3; ++k) {
            p.start[k] = v0(i, k);
            p.end[k] = v1(i, k);
        }
    });
    const auto point = [&](int i) -> const Point& { return points_[static_cast<std::size_t>(i)]; };
    in_parallel(edges.rows(), [&](Eigen::Index i) {
        Element<LinearVector>& e = edges_[static_cast<std::size_t>(i)];
        e.origin = point(edges(i, 0));
        e.span = difference(e.origin, point(edges(i, 1)), e.largest);
    });
    in_parallel(faces.rows(), [&](Eigen::Index i) {
        Element<QuadraticVector>& f = faces_[static_cast<std::size_t>(i)];
        f.origin = point(faces(i, 0));
        const LinearVector e1 = difference(f.origin, point(faces(i, 1)), f.largest);
        const LinearVector e2 = difference(f.origin, point(faces(i, 2)), f.largest);
        f.span = cross(e1, e2);
    });
}

} // namespace ccdkit::details
