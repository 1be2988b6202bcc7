// SPDX-License-Identifier: MIT
#pragma once

#include <cstdlib>
#include <filesystem>

namespace ccdkit::test {

/// The public benchmark data (../shared/ccd-queries): $CCDKIT_QUERY_DIR if set, else the folder CMake was
/// configured with. Tests that need it skip, with a message, when it is absent.
inline std::filesystem::path shared_query_dir()
{
    if (const char* env = std::getenv("CCDKIT_QUERY_DIR")) {
        return env;
    }
    return CCDKIT_QUERY_DIR;
}

} // namespace ccdkit::test
