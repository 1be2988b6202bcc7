// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace ccdkit::cli {

/// Progress on standard error for work that lasts over a second; silent for quick work.
class Progress {
public:
    explicit Progress(std::string label)
        : label_(std::move(label))
    {
    }

    void update(std::size_t done, std::size_t total)
    {
        const auto now = std::chrono::steady_clock::now();
        if (now - start_ < std::chrono::seconds(1) || (shown_ && now - last_ < std::chrono::milliseconds(500))) {
            return;
        }
        last_ = now;
        shown_ = true;
        std::fprintf(stderr, "%s: %zu / %zu\n", label_.c_str(), done, total);
    }

private:
    std::string label_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_;
    bool shown_ = false;
};

} // namespace ccdkit::cli
