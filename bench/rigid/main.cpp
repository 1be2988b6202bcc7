// SPDX-License-Identifier: MIT
// ccdkit_bench_rigid_peers: rigid-body time of contact, ccdkit against FCL and Bullet, judged by an exact sampled
// reference. Built with -DCCDKIT_BUILD_PEER_BENCHMARKS=ON (needs Debian's libfcl-dev and libbullet-dev).
//
//   ccdkit_bench_rigid_peers [--queries N] [--samples K] [--repeats R] [--seed S] [--fcl-naive-samples N]
//                            [--pair NAME]... [--motion NAME]... [--max-seconds T] [--quick]
//                            [--json FILE] [--markdown FILE] [--self-check]

#include "methods.hpp"
#include "metrics.hpp"
#include "self_check.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ccdkit::bench;

namespace {
constexpr const char* USAGE = R"(usage: ccdkit_bench_rigid_peers [options]
Rigid-body time of contact: ccdkit (CONSERVATIVE, CHORD), FCL 0.7 (conservative advancement, naive sampling) and
Bullet 3 (convex cast, convex sweep against a static mesh) on generated query sets (shape pairs box-box,
convex-mesh, mesh-mesh x motions translation, rotation, screw, large-angle), judged by an exact sampled reference.
  --queries N            queries per set (default 200)
  --samples K            reference samples per step before bisection (default 4096)
  --repeats R            timing repeats; the median is reported (default 3)
  --seed S               query generator seed (default 20261124)
  --fcl-naive-samples N  samples of FCL's naive mode (default 1000)
  --pair NAME            only this shape pair (repeatable): box-box, convex-mesh, mesh-mesh
  --motion NAME          only this motion set (repeatable): translation, rotation, screw, large-angle
  --max-seconds T        stop repeating a method on a set after T seconds (default 20)
  --quick                smoke run: 10 queries per set, K = 1024, one repeat
  --json FILE            write settings, set summaries and results as JSON
  --markdown FILE        write the results table as Markdown
  --self-check           check the reference against analytic cases and exit
)";

std::string value_of(int& i, int argc, char** argv)
{
    if (i + 1 >= argc) {
        throw std::invalid_argument(std::string(argv[i]) + " needs a value");
    }
    return argv[++i];
}
} // namespace

int main(int argc, char** argv)
{
    BenchmarkOptions options;
    std::string json_path, markdown_path;
    bool self_check = false;
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string arg = argv[i];
            if (arg == "--queries") {
                options.generation.queries = std::stoi(value_of(i, argc, argv));
            } else if (arg == "--samples") {
                options.reference.samples = std::stoi(value_of(i, argc, argv));
            } else if (arg == "--repeats") {
                options.repeats = std::stoi(value_of(i, argc, argv));
            } else if (arg == "--seed") {
                options.generation.seed = std::stoull(value_of(i, argc, argv));
            } else if (arg == "--fcl-naive-samples") {
                options.fcl_naive_samples = std::stoi(value_of(i, argc, argv));
            } else if (arg == "--pair") {
                options.pairs.push_back(value_of(i, argc, argv));
            } else if (arg == "--motion") {
                options.motions.push_back(value_of(i, argc, argv));
            } else if (arg == "--max-seconds") {
                options.max_seconds_per_set = std::stod(value_of(i, argc, argv));
            } else if (arg == "--quick") {
                options.generation.queries = 10;
                options.reference.samples = 1024;
                options.repeats = 1;
            } else if (arg == "--json") {
                json_path = value_of(i, argc, argv);
            } else if (arg == "--markdown") {
                markdown_path = value_of(i, argc, argv);
            } else if (arg == "--self-check") {
                self_check = true;
            } else if (arg == "--help" || arg == "-h") {
                std::cout << USAGE;
                return 0;
            } else {
                throw std::invalid_argument("unknown argument " + arg);
            }
        }
        if (options.generation.queries < 1 || options.reference.samples < 1 || options.repeats < 1
            || options.fcl_naive_samples < 2) {
            throw std::invalid_argument("--queries, --samples and --repeats must be >= 1, --fcl-naive-samples >= 2");
        }
    } catch (const std::exception& e) {
        std::cerr << "ccdkit_bench_rigid_peers: " << e.what() << "\n" << USAGE;
        return 2;
    }
    if (self_check) {
        return run_self_check(std::cout) == 0 ? 0 : 1;
    }

    std::vector<std::unique_ptr<Method>> methods = make_ccdkit_methods();
    const auto append = [&methods](std::vector<std::unique_ptr<Method>> more) {
        for (auto& m : more) {
            methods.push_back(std::move(m));
        }
    };
    append(make_fcl_methods(options.fcl_naive_samples));
    append(make_bullet_methods());
    try {
        const BenchmarkReport report = run_benchmark(options, methods, std::cerr);
        print_table(std::cout, report);
        if (!json_path.empty()) {
            std::ofstream(json_path) << to_json(report).dump(2) << '\n';
        }
        if (!markdown_path.empty()) {
            std::ofstream out(markdown_path);
            write_markdown(out, report);
        }
    } catch (const std::exception& e) {
        std::cerr << "ccdkit_bench_rigid_peers: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
