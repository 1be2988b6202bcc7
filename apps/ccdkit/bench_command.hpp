// SPDX-License-Identifier: MIT
#pragma once

#include <CLI/CLI.hpp>

namespace ccdkit::cli {

/// `ccdkit bench`: whole-mesh CCD timings on generated cloth scenes and the shared frames.
void add_bench_command(CLI::App& app);

} // namespace ccdkit::cli
