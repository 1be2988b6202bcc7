// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdlib>

namespace ccdkit::test {

/// A query count that an environment variable may override (longer local runs than CI's).
inline std::size_t count_from_env(const char* name, std::size_t fallback)
{
    if (const char* env = std::getenv(name)) {
        return std::strtoull(env, nullptr, 10);
    }
    return fallback;
}

} // namespace ccdkit::test
