// SPDX-License-Identifier: MIT
#pragma once

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace ccdkit::testing {

/// Expects `make()` to throw std::invalid_argument whose message contains `name`.
template <class Make> void expect_throw_naming(const Make& make, const std::string& name)
{
    try {
        (void)make();
        ADD_FAILURE() << "no exception; expected one naming " << name;
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
}

} // namespace ccdkit::testing
