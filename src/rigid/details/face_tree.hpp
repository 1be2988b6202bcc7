// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/broad/aabb.hpp>

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace ccdkit::details {

/// A bounding volume hierarchy over a rigid shape's faces, in body coordinates, built once. Its nodes are
/// open to the time-of-contact code, which traverses two of them at once (one body's nodes swept over a time
/// interval against the other's).
class FaceTree {
public:
    static constexpr std::int32_t LEAF_SIZE = 4;

    struct Node {
        Aabb box;
        /// Leaf (count > 0): faces order()[first .. first + count - 1]. Inner node (count == 0): the left
        /// child is the next node, the right child node `first`.
        std::int32_t first = 0;
        std::int32_t count = 0;
    };

    /// Median split along the widest spread of face centres. Boxes are exact (input coordinates).
    void build(const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces);

    [[nodiscard]] const std::vector<Node>& nodes() const { return nodes_; }
    [[nodiscard]] const std::vector<std::int32_t>& order() const { return order_; }
    [[nodiscard]] const std::vector<Aabb>& face_boxes() const { return face_boxes_; }

private:
    std::int32_t build_node(std::int32_t begin, std::int32_t end);

    std::vector<Node> nodes_;
    std::vector<std::int32_t> order_;
    std::vector<Aabb> face_boxes_; ///< by face index
};

} // namespace ccdkit::details
