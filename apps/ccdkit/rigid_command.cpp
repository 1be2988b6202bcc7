// SPDX-License-Identifier: MIT
#include "rigid_command.hpp"

#include "output_file.hpp"

#include <ccdkit/io/rigid_scene.hpp>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>

namespace ccdkit::cli {

namespace {

    struct RigidCommandOptions {
        std::string scene_path;
        std::string method;
        double eps = 0.0;
        std::string json_path;
        bool times_only = false;
    };

    const char* kind_name(RigidFeatureKind kind)
    {
        switch (kind) {
        case RigidFeatureKind::VERTEX:
            return "vertex";
        case RigidFeatureKind::EDGE:
            return "edge";
        case RigidFeatureKind::FACE:
            return "face";
        case RigidFeatureKind::SURFACE:
            break;
        }
        return "surface";
    }

    /// "vertex 3", "face 7", or "surface" (an implicit shape's, which has no index).
    std::string feature_name(const RigidFeature& f)
    {
        return f.index >= 0 ? fmt::format("{} {}", kind_name(f.kind), f.index) : kind_name(f.kind);
    }

    nlohmann::json vector_json(const Eigen::Vector3d& v) { return { v.x(), v.y(), v.z() }; }

    nlohmann::json contact_json(const RigidContact& c)
    {
        return {
            { "point", vector_json(c.point) },
            { "normal", vector_json(c.normal) },
            { "feature_a", { { "kind", kind_name(c.feature_a.kind) }, { "index", c.feature_a.index } } },
            { "feature_b", { { "kind", kind_name(c.feature_b.kind) }, { "index", c.feature_b.index } } },
            { "gap", c.gap },
        };
    }

    void run(const RigidCommandOptions& opt)
    {
        std::ofstream json_out = open_output(opt.json_path);
        RigidScene scene;
        if (opt.scene_path.empty()) {
            fmt::print("No scene given: the built-in example, a rod spinning half a turn as it drops into a gap\n"
                       "between two blocks that is narrower than the rod is long.\n");
            scene = rod_into_gap_scene();
        } else {
            scene = read_rigid_scene(opt.scene_path);
        }
        if (opt.method == "chord") {
            scene.options.method = RigidCcdMethod::CHORD;
        } else if (opt.method == "conservative") {
            scene.options.method = RigidCcdMethod::CONSERVATIVE;
        }
        if (opt.eps > 0.0) {
            scene.options.eps = opt.eps;
        }
        if (opt.times_only) {
            scene.options.contacts = false;
        }
        const char* method_name = scene.options.method == RigidCcdMethod::CHORD ? "chord" : "conservative";
        fmt::print(
            "{} bodies, method {}, eps {:g} (times are fractions of the step)\n", scene.bodies.size(), method_name,
            scene.options.eps);

        nlohmann::json pairs = nlohmann::json::array();
        double earliest = std::numeric_limits<double>::infinity();
        std::string earliest_pair;
        for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
            for (std::size_t j = i + 1; j < scene.bodies.size(); ++j) {
                const auto start = std::chrono::steady_clock::now();
                const RigidCcdResult r = rigid_time_of_contact(scene.bodies[i], scene.bodies[j], scene.options);
                const double ms
                    = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
                const std::string pair_name = scene.names[i] + " / " + scene.names[j];
                if (r.hit) {
                    const std::string count
                        = scene.options.contacts ? fmt::format(", {} contact(s)", r.contacts.size()) : "";
                    fmt::print(
                        "  {}: contact at t in [{:.9f}, {:.9f}]{}, {:.3f} ms\n", pair_name, r.toi_lower, r.toi_upper,
                        count, ms);
                    // A flat contact between implicit shapes gives one contact per resolution cell: the text lists
                    // the closest ones, the JSON all.
                    constexpr std::size_t LISTED_CONTACTS = 16;
                    for (std::size_t k = 0; k < std::min(r.contacts.size(), LISTED_CONTACTS); ++k) {
                        const RigidContact& c = r.contacts[k];
                        fmt::print(
                            "      point ({:.6f}, {:.6f}, {:.6f})  normal ({:.4f}, {:.4f}, {:.4f})  {} / {}  gap "
                            "{:.2e}\n",
                            c.point.x(), c.point.y(), c.point.z(), c.normal.x(), c.normal.y(), c.normal.z(),
                            feature_name(c.feature_a), feature_name(c.feature_b), c.gap);
                    }
                    if (r.contacts.size() > LISTED_CONTACTS) {
                        fmt::print(
                            "      ... and {} more contacts{}\n", r.contacts.size() - LISTED_CONTACTS,
                            !opt.json_path.empty() ? " (all in the JSON file)" : " (--json FILE lists all)");
                    }
                    if (r.toi_lower < earliest) {
                        earliest = r.toi_lower;
                        earliest_pair = pair_name;
                    }
                } else {
                    fmt::print("  {}: no contact before t = {:g}, {:.3f} ms\n", pair_name, r.toi_lower, ms);
                }
                nlohmann::json contacts = nlohmann::json::array();
                for (const RigidContact& c : r.contacts) {
                    contacts.push_back(contact_json(c));
                }
                if (r.stats.surface_restarts > 0) {
                    fmt::print(
                        "      (implicit search: the resolution {:g} after {} coarsening(s), to stay within "
                        "max_surface_regions / max_surface_tests)\n",
                        r.stats.surface_resolution, r.stats.surface_restarts);
                }
                if (r.stats.max_pair_tests_reached) {
                    fmt::print(
                        "      (stopped after {} feature-pair tests, max_pair_tests: the contact is reported where the "
                        "search stood, and its gaps say how far apart the bodies are)\n",
                        r.stats.pair_tests);
                }
                pairs.push_back({ { "a", scene.names[i] },
                                  { "b", scene.names[j] },
                                  { "hit", r.hit },
                                  { "toi_lower", r.toi_lower },
                                  { "toi_upper", r.toi_upper },
                                  { "contacts", contacts },
                                  { "intervals", r.stats.intervals },
                                  { "pair_tests", r.stats.pair_tests },
                                  { "surface_resolution", r.stats.surface_resolution },
                                  { "surface_restarts", r.stats.surface_restarts },
                                  { "max_pair_tests_reached", r.stats.max_pair_tests_reached },
                                  { "ms", ms } });
            }
        }
        if (earliest_pair.empty()) {
            fmt::print("No contact during the step.\n");
        } else {
            fmt::print("First contact: {} at t >= {:.9f} of the step.\n", earliest_pair, earliest);
        }
        if (json_out) {
            const nlohmann::json out
                = { { "method", method_name },
                    { "eps", scene.options.eps },
                    { "contacts_searched", scene.options.contacts },
                    { "pairs", pairs },
                    { "earliest_toi", earliest_pair.empty() ? nlohmann::json(nullptr) : nlohmann::json(earliest) } };
            json_out << out.dump(2) << '\n';
        }
    }

} // namespace

void add_rigid_command(CLI::App& app)
{
    auto opt = std::make_shared<RigidCommandOptions>();
    CLI::App* cmd = app.add_subcommand(
        "rigid",
        "First contact, contact points and normals between rigid bodies moving on screw trajectories; "
        "no scene: a built-in example");
    cmd->add_option("scene", opt->scene_path, "Scene file (JSON; format in include/ccdkit/io/rigid_scene.hpp)")
        ->check(CLI::ExistingFile);
    cmd->add_option(
           "--method", opt->method, "conservative (misses nothing) or chord (faster, may miss grazing contacts)")
        ->check(CLI::IsMember({ "conservative", "chord" }));
    cmd->add_option("--eps", opt->eps, "Width of the reported time interval (fraction of the step)")
        ->check(CLI::Range(1e-15, 1.0));
    cmd->add_option("--json", opt->json_path, "Write the contacts as JSON to this file");
    cmd->add_flag(
        "--times-only", opt->times_only,
        "The times of contact alone, without the contacts (points, normals, features): faster");
    cmd->callback([opt] { run(*opt); });
}

} // namespace ccdkit::cli
