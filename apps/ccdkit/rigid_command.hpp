// SPDX-License-Identifier: MIT
#pragma once

#include <CLI/CLI.hpp>

namespace ccdkit::cli {

/// `ccdkit rigid [SCENE.json]`: first contact between every pair of rigid bodies of a scene, with contact
/// points and normals; no scene: the built-in rod-into-gap example.
void add_rigid_command(CLI::App& app);

} // namespace ccdkit::cli
