// SPDX-License-Identifier: MIT
#include "rigid_command.hpp"

#include "number_checks.hpp"
#include "output_file.hpp"
#include "progress.hpp"

#include <ccdkit/io/rigid_scene.hpp>
#include <ccdkit/rigid/rigid_pairs.hpp>

#include <fmt/core.h>
#include <nlohmann/json.hpp>
#include <tbb/global_control.h>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <limits>
#include <optional>
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
        int threads = 0;
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

    /// A pair's contact: its time, and (with contacts searched) the closest few contacts.
    void print_contact(const std::string& pair_name, const RigidCcdResult& r, double ms, bool contacts, bool json)
    {
        const std::string count = contacts ? fmt::format(", {} contact(s)", r.contacts.size()) : "";
        fmt::print(
            "  {}: contact at t in [{:.9f}, {:.9f}]{}, {:.3f} ms\n", pair_name, r.toi_lower, r.toi_upper, count, ms);
        // A flat contact between implicit shapes gives one contact per resolution cell: the text lists the closest
        // ones, the JSON all.
        constexpr std::size_t LISTED_CONTACTS = 16;
        for (std::size_t k = 0; k < std::min(r.contacts.size(), LISTED_CONTACTS); ++k) {
            const RigidContact& c = r.contacts[k];
            fmt::print(
                "      point ({:.6f}, {:.6f}, {:.6f})  normal ({:.4f}, {:.4f}, {:.4f})  {} / {}  gap {:.2e}\n",
                c.point.x(), c.point.y(), c.point.z(), c.normal.x(), c.normal.y(), c.normal.z(),
                feature_name(c.feature_a), feature_name(c.feature_b), c.gap);
        }
        if (r.contacts.size() > LISTED_CONTACTS) {
            fmt::print(
                "      ... and {} more contacts{}\n", r.contacts.size() - LISTED_CONTACTS,
                json ? " (all in the JSON file)" : " (--json FILE lists all)");
        }
    }

    /// What a pair's search did to stay within its limits, where it did.
    void print_search_notes(const RigidCcdResult& r)
    {
        if (r.stats.surface_restarts > 0) {
            fmt::print(
                "      (implicit search: the resolution {:g} after {} coarsening(s), to stay within "
                "max_surface_regions / max_surface_tests)\n",
                r.stats.surface_resolution, r.stats.surface_restarts);
        }
        if (r.stats.max_pair_tests_reached) {
            fmt::print(
                "      (stopped after {} feature-pair tests and {} intervals, max_pair_tests: the contact is reported "
                "where the search stood, and its gaps say how far apart the bodies are)\n",
                r.stats.pair_tests, r.stats.intervals);
        }
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

        std::optional<tbb::global_control> threads;
        if (opt.threads > 0) {
            threads.emplace(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(opt.threads));
        }
        Progress progress("rigid pairs");
        const std::vector<RigidPairContact> answered = rigid_pairs_time_of_contact(
            scene.bodies, scene.options,
            [&progress](std::size_t done, std::size_t total) { progress.update(done, total); });
        const std::size_t body_count = scene.bodies.size();
        const std::size_t all_pairs = body_count < 2 ? 0 : body_count * (body_count - 1) / 2;
        const std::size_t misses = static_cast<std::size_t>(
            std::count_if(answered.begin(), answered.end(), [](const RigidPairContact& p) { return !p.result.hit; }));
        // Many bodies: the pairs without contact are counted, not listed.
        constexpr std::size_t LISTED_MISSES = 32;
        const bool list_misses = misses <= LISTED_MISSES;

        nlohmann::json pairs = nlohmann::json::array();
        double earliest = std::numeric_limits<double>::infinity();
        std::string earliest_pair;
        for (const RigidPairContact& pair : answered) {
            const RigidCcdResult& r = pair.result;
            const std::string pair_name
                = scene.names[static_cast<std::size_t>(pair.a)] + " / " + scene.names[static_cast<std::size_t>(pair.b)];
            if (r.hit) {
                print_contact(pair_name, r, pair.milliseconds, scene.options.contacts, !opt.json_path.empty());
                if (r.toi_lower < earliest) {
                    earliest = r.toi_lower;
                    earliest_pair = pair_name;
                }
            } else if (list_misses) {
                fmt::print("  {}: no contact before t = {:g}, {:.3f} ms\n", pair_name, r.toi_lower, pair.milliseconds);
            }
            if (r.hit || list_misses) {
                print_search_notes(r);
            }
            nlohmann::json contacts = nlohmann::json::array();
            for (const RigidContact& c : r.contacts) {
                contacts.push_back(contact_json(c));
            }
            pairs.push_back({ { "a", scene.names[static_cast<std::size_t>(pair.a)] },
                              { "b", scene.names[static_cast<std::size_t>(pair.b)] },
                              { "hit", r.hit },
                              { "toi_lower", r.toi_lower },
                              { "toi_upper", r.toi_upper },
                              { "contacts", contacts },
                              { "intervals", r.stats.intervals },
                              { "pair_tests", r.stats.pair_tests },
                              { "surface_resolution", r.stats.surface_resolution },
                              { "surface_restarts", r.stats.surface_restarts },
                              { "max_pair_tests_reached", r.stats.max_pair_tests_reached },
                              { "ms", pair.milliseconds } });
        }
        if (!list_misses) {
            fmt::print(
                "  {} other pairs: no contact before t = {:g}{}\n", misses, scene.options.t_max,
                opt.json_path.empty() ? " (--json FILE lists them)" : "");
        }
        if (answered.size() < all_pairs) {
            fmt::print(
                "  {} of the {} pairs: apart all step (their swept bounds never meet)\n", all_pairs - answered.size(),
                all_pairs);
        }
        if (earliest_pair.empty()) {
            fmt::print("No contact during the step.\n");
        } else {
            fmt::print("First contact: {} at t >= {:.9f} of the step.\n", earliest_pair, earliest);
        }
        if (!opt.json_path.empty()) {
            const nlohmann::json out
                = { { "method", method_name },
                    { "eps", scene.options.eps },
                    { "contacts_searched", scene.options.contacts },
                    { "bodies", body_count },
                    { "pairs", pairs },
                    { "pairs_apart", all_pairs - answered.size() },
                    { "earliest_toi", earliest_pair.empty() ? nlohmann::json(nullptr) : nlohmann::json(earliest) } };
            write_output(json_out, opt.json_path, out.dump(2) + '\n');
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
           "--method", opt->method,
           "conservative (misses nothing; the default) or chord (exact on chords between interval ends: may miss "
           "contacts shallower than its chord tolerance, rarely faster)")
        ->check(CLI::IsMember({ "conservative", "chord" }));
    cmd->add_option("--eps", opt->eps, "Width of the reported time interval (fraction of the step)")
        ->check(number_in(1e-15, 1.0));
    cmd->add_option("--json", opt->json_path, "Write the contacts as JSON to this file");
    cmd->add_flag(
        "--times-only", opt->times_only,
        "The times of contact alone, without the contacts (points, normals, features): faster");
    cmd->add_option("--threads", opt->threads, "worker threads (default: all cores)")->check(at_least_one());
    cmd->callback([opt] { run(*opt); });
}

} // namespace ccdkit::cli
