// SPDX-License-Identifier: MIT
#include <ccdkit/broad/broad_phase.hpp>
#include <ccdkit/broad/brute_force.hpp>
#include <ccdkit/broad/bvh.hpp>
#include <ccdkit/broad/sweep_and_prune.hpp>

#include <array>
#include <limits>
#include <stdexcept>
#include <string>

namespace ccdkit {

namespace {
    constexpr std::array<std::pair<BroadPhaseMethod, std::string_view>, 3> NAMES { {
        { BroadPhaseMethod::BVH, "bvh" },
        { BroadPhaseMethod::SWEEP_AND_PRUNE, "sap" },
        { BroadPhaseMethod::BRUTE_FORCE, "brute-force" },
    } };
} // namespace

std::unique_ptr<BroadPhase> make_broad_phase(BroadPhaseMethod method)
{
    switch (method) {
    case BroadPhaseMethod::BVH:
        return std::make_unique<Bvh>();
    case BroadPhaseMethod::SWEEP_AND_PRUNE:
        return std::make_unique<SweepAndPrune>();
    case BroadPhaseMethod::BRUTE_FORCE:
        return std::make_unique<BruteForceBroadPhase>();
    }
    return std::make_unique<Bvh>();
}

std::optional<BroadPhaseMethod> broad_phase_method_from_name(std::string_view name)
{
    for (const auto& [method, method_name] : NAMES) {
        if (name == method_name) {
            return method;
        }
    }
    return std::nullopt;
}

void check_boxes(std::span<const Aabb> boxes, std::string_view who)
{
    if (boxes.size() >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
        throw std::invalid_argument(
            std::string(who) + ": " + std::to_string(boxes.size()) + " boxes are too many (< 2^31)");
    }
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        if (boxes[i].min.isNaN().any() || boxes[i].max.isNaN().any()) {
            throw std::invalid_argument(std::string(who) + ": box " + std::to_string(i) + " has a NaN bound");
        }
    }
}

std::string_view name_of(BroadPhaseMethod method)
{
    for (const auto& [m, method_name] : NAMES) {
        if (m == method) {
            return method_name;
        }
    }
    return "unknown";
}

} // namespace ccdkit
