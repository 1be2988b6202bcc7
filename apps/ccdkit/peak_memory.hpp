// SPDX-License-Identifier: MIT
#pragma once

#include <fstream>
#include <optional>
#include <string>

namespace ccdkit::cli {

/// Peak resident memory of this process so far, in MiB (Linux /proc), or nothing elsewhere.
inline std::optional<double> peak_memory_mib()
{
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "VmHWM:") {
            double kib = 0;
            status >> kib;
            return kib / 1024.0;
        }
        status.ignore(4096, '\n');
    }
    return std::nullopt;
}

} // namespace ccdkit::cli
