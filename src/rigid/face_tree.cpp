// SPDX-License-Identifier: MIT
#include "rigid/details/face_tree.hpp"

#include <algorithm>
#include <numeric>

namespace ccdkit::details {

void FaceTree::build(const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces)
{
    face_boxes_ = ccdkit::face_boxes(vertices, vertices, faces);
    order_.resize(face_boxes_.size());
    std::iota(order_.begin(), order_.end(), 0);
    nodes_.clear();
    nodes_.reserve(2 * face_boxes_.size() / LEAF_SIZE + 2);
    build_node(0, static_cast<std::int32_t>(order_.size()));
}

std::int32_t FaceTree::build_node(std::int32_t begin, std::int32_t end)
{
    const auto index = static_cast<std::int32_t>(nodes_.size());
    nodes_.emplace_back();
    Aabb box = face_boxes_[static_cast<std::size_t>(order_[static_cast<std::size_t>(begin)])];
    Eigen::Array3d low_center = (box.min + box.max) / 2, high_center = low_center;
    for (std::int32_t k = begin + 1; k < end; ++k) {
        const Aabb& face = face_boxes_[static_cast<std::size_t>(order_[static_cast<std::size_t>(k)])];
        box = box.merged(face);
        const Eigen::Array3d center = (face.min + face.max) / 2;
        low_center = low_center.min(center);
        high_center = high_center.max(center);
    }
    nodes_[static_cast<std::size_t>(index)].box = box;
    if (end - begin <= LEAF_SIZE) {
        nodes_[static_cast<std::size_t>(index)].first = begin;
        nodes_[static_cast<std::size_t>(index)].count = end - begin;
        return index;
    }
    Eigen::Index axis = 0;
    (high_center - low_center).maxCoeff(&axis);
    const std::int32_t middle = begin + (end - begin) / 2;
    const auto center_along = [&](std::int32_t face) {
        const Aabb& b = face_boxes_[static_cast<std::size_t>(face)];
        return b.min[axis] + b.max[axis];
    };
    std::nth_element(
        order_.begin() + begin, order_.begin() + middle, order_.begin() + end,
        [&](std::int32_t x, std::int32_t y) { return center_along(x) < center_along(y); });
    build_node(begin, middle);
    const std::int32_t right = build_node(middle, end);
    nodes_[static_cast<std::size_t>(index)].first = right;
    return index;
}

} // namespace ccdkit::details
