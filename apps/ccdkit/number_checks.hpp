// SPDX-License-Identifier: MIT
#pragma once

// Checks of numeric options. CLI11's Range and PositiveNumber let NaN through (their comparisons are false: `--eps nan`
// was ignored) and print their bounds with six decimals (1e-15 as 0.000000) or up to 1.8e308.

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>

namespace ccdkit::cli {

/// Text that reads whole as a double.
[[nodiscard]] inline bool read_number(const std::string& text, double& value)
{
    char* end = nullptr;
    errno = 0;
    value = std::strtod(text.c_str(), &end);
    return !text.empty() && end == text.c_str() + text.size() && errno != ERANGE;
}

/// A number for which `accepts` holds, described as `what` ("in [1e-15, 1]") in its error and help.
template <class Accepts> [[nodiscard]] CLI::Validator number_that(std::string what, Accepts accepts)
{
    return CLI::Validator(
        [what, accepts](std::string& text) -> std::string {
            double value = 0.0;
            if (read_number(text, value) && accepts(value)) {
                return {};
            }
            return fmt::format("{} is not a number {}", text, what);
        },
        "NUMBER " + what);
}

/// A number in [low, high].
[[nodiscard]] inline CLI::Validator number_in(double low, double high)
{
    return number_that(
        fmt::format("in [{:g}, {:g}]", low, high), [low, high](double x) { return x >= low && x <= high; });
}

/// A number in (0, high].
[[nodiscard]] inline CLI::Validator positive_up_to(double high)
{
    return number_that(fmt::format("in (0, {:g}]", high), [high](double x) { return x > 0.0 && x <= high; });
}

/// A finite number > 0.
[[nodiscard]] inline CLI::Validator positive_number()
{
    return number_that("> 0 (finite)", [](double x) { return x > 0.0 && std::isfinite(x); });
}

/// A whole number >= 1.
[[nodiscard]] inline CLI::Validator at_least_one()
{
    return number_that(">= 1 (whole)", [](double x) { return x >= 1.0 && x == std::floor(x) && x <= 2147483647.0; });
}

} // namespace ccdkit::cli
