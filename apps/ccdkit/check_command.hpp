// SPDX-License-Identifier: MIT
#pragma once

#include <CLI/CLI.hpp>

namespace ccdkit::cli {

/// `ccdkit check`: whole-mesh CCD between two frames of one mesh.
void add_check_command(CLI::App& app);

} // namespace ccdkit::cli
