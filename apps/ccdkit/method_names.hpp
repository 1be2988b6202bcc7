// SPDX-License-Identifier: MIT
#pragma once

#include <ccdkit/narrow/ccd_types.hpp>

#include <string>
#include <vector>

namespace ccdkit::cli {

/// The narrow-phase method names `--method` accepts.
[[nodiscard]] inline std::vector<std::string> method_names()
{
    std::vector<std::string> names;
    for (const auto& [method, name] : CCD_METHOD_NAMES) {
        names.emplace_back(name);
    }
    return names;
}

} // namespace ccdkit::cli
