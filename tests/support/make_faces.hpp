// SPDX-License-Identifier: MIT
#pragma once

#include <Eigen/Core>

#include <array>
#include <initializer_list>

namespace ccdkit::test {

/// A face matrix written out row by row: make_faces({ { 0, 1, 2 }, { 0, 2, 3 } }).
inline Eigen::MatrixX3i make_faces(std::initializer_list<std::array<int, 3>> rows)
{
    Eigen::MatrixX3i faces(static_cast<Eigen::Index>(rows.size()), 3);
    Eigen::Index f = 0;
    for (const auto& row : rows) {
        faces.row(f++) << row[0], row[1], row[2];
    }
    return faces;
}

} // namespace ccdkit::test
