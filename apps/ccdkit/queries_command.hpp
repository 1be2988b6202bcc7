// SPDX-License-Identifier: MIT
#pragma once

#include <CLI/CLI.hpp>

namespace ccdkit::cli {

/// `ccdkit queries`: runs narrow-phase methods over benchmark query files and reports accuracy and speed.
void add_queries_command(CLI::App& app);

} // namespace ccdkit::cli
