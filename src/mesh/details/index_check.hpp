// SPDX-License-Identifier: MIT
#pragma once

#include <Eigen/Core>

#include <stdexcept>
#include <string>
#include <string_view>

namespace ccdkit::details {

/// Every entry of `rows` (edges or faces) names one of `vertex_count` vertices.
/// @throws std::invalid_argument "<who>: <what> <row> has vertex index <i> out of range (<n> vertices)".
template <class Rows>
void check_vertex_indices(const Rows& rows, Eigen::Index vertex_count, std::string_view who, std::string_view what)
{
    for (Eigen::Index r = 0; r < rows.rows(); ++r) {
        for (Eigen::Index c = 0; c < rows.cols(); ++c) {
            if (rows(r, c) < 0 || rows(r, c) >= vertex_count) {
                throw std::invalid_argument(
                    std::string(who) + ": " + std::string(what) + " " + std::to_string(r) + " has vertex index "
                    + std::to_string(rows(r, c)) + " out of range (" + std::to_string(vertex_count) + " vertices)");
            }
        }
    }
}

} // namespace ccdkit::details
