// SPDX-License-Identifier: MIT
#pragma once

#include <Eigen/Core>

#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ccdkit {

/// Vertex-face or edge-edge (3D), or point-edge (2D).
enum class QueryKind { VERTEX_FACE, EDGE_EDGE, POINT_EDGE };

/// Rows per query in a query file of this kind: 8 for vertex-face and edge-edge, 6 for point-edge.
[[nodiscard]] std::size_t query_rows(QueryKind kind);

/// Coordinates per point in a query file of this kind: 3, or 2 for point-edge.
[[nodiscard]] int query_dimension(QueryKind kind);

/// One benchmark query: its points in the row order of the benchmark CSV format
/// (vertex-face: p_t0, t0_t0, t1_t0, t2_t0, p_t1, t0_t1, t1_t1, t2_t1;
///  edge-edge:  ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1;
///  point-edge: p_t0, e0_t0, e1_t0, p_t1, e0_t1, e1_t1 in points[0..5], each with z = 0, and points[6..7] zero).
struct Query {
    QueryKind kind = QueryKind::VERTEX_FACE;
    std::array<Eigen::Vector3d, 8> points;
    std::optional<bool> truth; ///< exact ground truth when the file carries it
    std::size_t line = 0; ///< 1-based line of the query's first row in its file
};

/// The queries of one CSV file.
struct QueryFile {
    std::filesystem::path path;
    QueryKind kind = QueryKind::VERTEX_FACE;
    std::vector<Query> queries;
};

/// Query kind from a path: a component named `vertex-face` or a file stem ending in `vf` means vertex-face,
/// `edge-edge` or `ee` means edge-edge, `point-edge` or `pe` means point-edge. The file name is looked at first,
/// then the folders from the innermost out. Returns nothing when the path names no kind.
[[nodiscard]] std::optional<QueryKind> query_kind_from_path(const std::filesystem::path& path);

/// Reads one benchmark CSV file: 8 rows per query, each row `xn,xd,yn,yd,zn,zd[,truth]` with every coordinate
/// the rational xn/xd. The 7-column variant carries the truth (0/1, equal on all 8 rows). For the 6-column
/// variant, the truth is read from `../mma_bool/<stem>_mma_bool.json` beside the file's folder when it exists.
/// Point-edge files are the 2D analogue: 6 rows per query, each `xn,xd,yn,yd[,truth]` (4 or 5 fields), the
/// truth from the same JSON file for the 4-column variant. A truth is that of the linear model: whether the
/// query's primitives touch at some t in [0, 1], every point moving on a straight line at constant speed.
/// @throws std::runtime_error naming the file and line for a malformed, truncated or inconsistent file, a zero
///         denominator, or a coordinate that is not exactly representable as a finite double.
[[nodiscard]] QueryFile read_query_file(const std::filesystem::path& path, QueryKind kind);

/// All query files under the given paths (files or folders, searched recursively), in a stable order.
/// @throws std::runtime_error for a path that does not exist or a CSV whose kind the path does not name.
[[nodiscard]] std::vector<QueryFile> read_query_paths(const std::vector<std::filesystem::path>& paths);

} // namespace ccdkit
