// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/mesh/triangle_mesh.hpp>

#include <filesystem>

namespace ccdkit {

/// Reads a triangle mesh, choosing the format by the file's extension (case-insensitive):
/// - `.obj`: `v x y z` statements (a fourth value w, or further values such as colours, are ignored) and `f`
///   statements with 1-based vertex indices written `i`, `i/j`, `i//k` or `i/j/k`; a negative index counts back
///   from the last vertex defined so far (-1 is the latest). All other statements (vt, vn, o, g, s, usemtl, ...)
///   and `#` comments are ignored.
/// - `.ply`: `ascii 1.0`, `binary_little_endian 1.0` or `binary_big_endian 1.0`; a `vertex` element with scalar
///   properties x, y, z of any PLY scalar type, and an optional `face` element with a list property
///   `vertex_indices` (or `vertex_index`) of integer types. Other properties and elements are skipped. ASCII values
///   keep the precision of their text whatever their declared type.
///
/// Polygons with more than three vertices are fan-triangulated: (v0, v1, v2), (v0, v2, v3), ... in order, so
/// a quad becomes two triangles. Degenerate faces (a repeated vertex) are kept; validate() rejects them.
/// A mesh without faces is allowed; a PLY file without a vertex element is not.
/// @throws std::runtime_error whose message starts with the file's path and names the line (OBJ, PLY header and
///         ascii data) and, for PLY data, the element and its 0-based index, then the reason: an unknown extension or
///         PLY format, a missing x/y/z or face index property, a malformed number, a file that ends early or holds data
///         after its last element, a polygon with fewer than 3 vertices, a face index out of range, or a non-finite
///         coordinate.
[[nodiscard]] TriangleMesh read_mesh(const std::filesystem::path& path);

/// Writes a triangle mesh, choosing the format by the file's extension (case-insensitive): `.obj` as text with
/// coordinates in their shortest exact decimal form, `.ply` as binary little-endian with double coordinates
/// and `uchar`/`int` face lists. Either way read_mesh() returns the same mesh, bit for bit.
/// @throws std::invalid_argument for a face index out of range or a non-finite coordinate (which no reader
///         would accept back); std::runtime_error naming the file for an unknown extension or a failed write.
void write_mesh(const std::filesystem::path& path, const TriangleMesh& mesh);

} // namespace ccdkit
