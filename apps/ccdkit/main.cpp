// SPDX-License-Identifier: MIT
#include "bench_command.hpp"
#include "check_command.hpp"
#include "queries_command.hpp"
#include "rigid_command.hpp"
#include "sim2d_command.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

int main(int argc, char** argv)
{
    CLI::App app { "ccdkit: robust continuous collision detection" };
    app.require_subcommand(1);
    ccdkit::cli::add_check_command(app);
    ccdkit::cli::add_queries_command(app);
    ccdkit::cli::add_bench_command(app);
    ccdkit::cli::add_sim2d_command(app);
    ccdkit::cli::add_rigid_command(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ccdkit: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
