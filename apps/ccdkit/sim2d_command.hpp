// SPDX-License-Identifier: MIT
#pragma once

#include <CLI/CLI.hpp>

namespace ccdkit::cli {

/// `ccdkit sim2d`: the 2D elastic contact simulation (two squares, ground, descending ceiling).
void add_sim2d_command(CLI::App& app);

} // namespace ccdkit::cli
