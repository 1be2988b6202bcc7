// SPDX-License-Identifier: MIT
#pragma once

#include <fstream>
#include <stdexcept>
#include <string>

namespace ccdkit::cli {

/// Opens `path` for writing; an empty path gives a closed stream (no output asked for). Commands open their
/// outputs before the work, so that an unwritable path fails at once, not after it.
/// @throws std::runtime_error "cannot write <path>"
[[nodiscard]] inline std::ofstream open_output(const std::string& path)
{
    std::ofstream out;
    if (!path.empty()) {
        out.open(path);
        if (!out) {
            throw std::runtime_error("cannot write " + path);
        }
    }
    return out;
}

/// Writes `text` to an output that open_output opened and closes it, failing where the system did not take it all
/// (a full disk: the command had ended as if it had written).
/// @throws std::runtime_error "cannot write <path>"
inline void write_output(std::ofstream& out, const std::string& path, const std::string& text)
{
    out << text;
    out.close();
    if (!out) {
        throw std::runtime_error("cannot write " + path);
    }
}

} // namespace ccdkit::cli
