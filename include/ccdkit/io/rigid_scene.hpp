// SPDX-License-Identifier: MIT
#pragma once

// Rigid-body scenes for `ccdkit rigid`: bodies with shapes and motions over one step, read from JSON.
//
// {
//   "duration": 1.0,                        optional, the step's length (default 1)
//   "method": "conservative" | "chord",     optional (default conservative)
//   "eps": 1e-6,                            optional, time tolerance as a fraction of the step
//   "t_max": 1.0,                           optional, contacts before this fraction of the step only
//   "chord_tolerance": 0.0,                 optional, chord method only
//   "surface_resolution": 0.01,             optional, for implicit shapes
//   "max_surface_regions": 2097152,         optional, for implicit shapes (whole numbers)
//   "max_surface_tests": 33554432,          optional, for implicit shapes
//   "max_pair_tests": 16777216,             optional, for two meshes
//                                           (these seven as RigidCcdOptions says, defaults included)
//   "contacts": false,                      optional, the times of contact alone (default true)
//   "bodies": [
//     {
//       "name": "rod",                      optional (default "body<i>")
//       "shape": {"type": "box", "half_extents": [x, y, z]}
//              | {"type": "sphere", "radius": r, "subdivisions": 3}      (icosphere, default 3)
//              | {"type": "torus", "major_radius": R, "minor_radius": r, "rings": 48, "sides": 24}
//              | {"type": "capsule", "radius": r, "half_length": h}              (implicit, along z)
//              | {"type": "mesh", "file": "path.obj or .ply", "solid": true}
//                                           a relative path is relative to the scene file; "solid" (default
//                                           false) requires a closed outward mesh and enables containment;
//                                           "implicit": true on a box, sphere or torus: the exact implicit
//                                           solid (ImplicitShape) instead of a triangle mesh of it
//              | {"type": "union" | "intersection" | "difference", "shapes": [SHAPE, SHAPE, ...]}
//                                           an implicit Boolean solid of two or more parts (a difference: the first
//                                           less the others); each part is a box, sphere, torus or capsule (always
//                                           implicit here), another Boolean shape or a distance grid, optionally
//                                           placed in the whole's coordinates by "position" and "rotation" |
//                                           "quaternion" as a body is; a mesh takes a distance grid of it
//              | {"type": "distance_grid", "of": SHAPE, "cell_size": h, "padding": p}
//                                           the implicit solid of signed distances sampled every h (> 0) over the
//                                           shape's bounds grown by p (default 2 h): of a mesh (which must be
//                                           closed; it costs samples times faces, at most 2^30 of them) or of an
//                                           implicit shape
//       "center_of_mass": [x, y, z],        optional, body coordinates (default origin)
//       "position": [x, y, z],              pose at the start: translation ...
//       "rotation": {"axis": [x, y, z], "angle": a}  ... and rotation (radians; default none);
//                                           or "quaternion": [w, x, y, z]
//       "velocity": [x, y, z],              centre of mass, per unit of time (default 0)
//       "angular_velocity": [x, y, z],      radians per unit of time, world frame (default 0)
//       "end": {"position": ..., "rotation": ... | "quaternion": ...}
//                                           instead of the velocities: the pose at the end of the step
//     }, ...
//   ]
// }
// A field not listed here for its object (or for its shape type) is an error, as is a name used twice; fields
// whose names start with "_" are comments.

#include <ccdkit/rigid/rigid_contact.hpp>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ccdkit {

struct RigidScene {
    std::vector<std::string> names;
    std::vector<RigidBody> bodies;
    RigidCcdOptions options;
};

/// Parses a scene from JSON text; relative mesh paths are resolved against `base_dir`.
/// @throws std::runtime_error naming the body and the field for malformed JSON, a missing, mistyped or unknown
///         field, a repeated body name, an unknown shape type or method, or a bad value (non-finite, non-positive size,
///         an integer out of its type's range, options that check_rigid_ccd_options refuses, unreadable mesh)
[[nodiscard]] RigidScene parse_rigid_scene(std::string_view json_text, const std::filesystem::path& base_dir);

/// Reads a scene file (see the file comment for the format).
/// @throws std::runtime_error starting with the file's path
[[nodiscard]] RigidScene read_rigid_scene(const std::filesystem::path& path);

/// The built-in example: a long rod spinning half a turn while it moves into the gap between two boxes,
/// narrower than the rod is long.
[[nodiscard]] RigidScene rod_into_gap_scene();

} // namespace ccdkit
