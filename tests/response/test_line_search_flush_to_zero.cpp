// SPDX-License-Identifier: MIT
// The line-search filter under a caller's flush-to-zero / denormals-are-zero mode (every -ffast-math program
// runs in it): the same step, limiting pair and candidate count as in plain IEEE mode, and the caller's mode
// back unchanged. Its boxes, broad phase and narrow phases run on oneTBB tasks.
#include "support/flush_to_zero_mode.hpp"

#include <ccdkit/mesh/cloth_scene.hpp>
#include <ccdkit/mesh/triangle_mesh.hpp>
#include <ccdkit/response/line_search_filter.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <tuple>
#include <vector>

#if defined(__SSE2__)
using namespace ccdkit;
using test::in_flush_to_zero_program;
using test::with_flush_to_zero_caller;

namespace {

struct LineSearchCase {
    const char* name;
    Eigen::MatrixXd x, p;
    Eigen::MatrixX2i edges;
    Eigen::MatrixX3i faces = Eigen::MatrixX3i(0, 3);
};

/// A crumpling cloth step as a search direction, scaled by `scale`; in 2D its projection on z = 0 (edges only).
LineSearchCase scaled_cloth(const char* name, double scale, int dim)
{
    const ClothScene s = crumpling_cloth(8, 3.0, 5);
    LineSearchCase c { name, s.start.vertices.leftCols(dim) * scale, (s.end - s.start.vertices).leftCols(dim) * scale,
                       edges_from_faces(s.start.faces) };
    if (dim == 3) {
        c.faces = s.start.faces;
    }
    return c;
}

std::vector<LineSearchCase> cases()
{
    std::vector<LineSearchCase> all;
    {
        // A vertex falling onto a face at subnormal scale (2^-1060 ~ 1e-319): with denormals read as zero the
        // vertex would already lie on the face.
        const double s = 0x1p-1060;
        LineSearchCase c { "subnormal vertex onto a face", Eigen::MatrixXd(4, 3), Eigen::MatrixXd::Zero(4, 3),
                           Eigen::MatrixX2i(3, 2), Eigen::MatrixX3i(1, 3) };
        c.x << 0.25 * s, 0.25 * s, s, 0, 0, 0, s, 0, 0, 0, s, 0;
        c.p(0, 2) = -2 * s;
        c.faces << 1, 2, 3;
        c.edges << 1, 2, 2, 3, 3, 1;
        all.push_back(c);
    }
    for (const double scale : { 1.0, 1e-300, 1e-310 }) {
        all.push_back(scaled_cloth("cloth", scale, 3));
        all.push_back(scaled_cloth("cloth projected to 2D", scale, 2));
    }
    return all;
}

using Step = std::tuple<double, std::optional<std::tuple<LimitingPairKind, int, int>>, std::size_t>;

Step step_of(const LineSearchFilterResult& r)
{
    std::optional<std::tuple<LimitingPairKind, int, int>> pair;
    if (r.limiting_pair) {
        pair = std::tuple(r.limiting_pair->kind, r.limiting_pair->first, r.limiting_pair->second);
    }
    return { r.alpha, pair, r.candidates };
}

class LineSearchFlushToZero : public ::testing::TestWithParam<LineSearchNarrowPhase> { };

} // namespace

TEST_P(LineSearchFlushToZero, GivesThePlainArithmeticStep)
{
    for (const LineSearchCase& c : cases()) {
        SCOPED_TRACE(c.name);
        SCOPED_TRACE(c.x.cwiseAbs().maxCoeff());
        LineSearchFilterOptions options;
        options.narrow_phase = GetParam();
        const auto run = [&] { return step_of(largest_safe_step(c.x, c.p, c.edges, c.faces, options)); };
        const Step plain = run();
        if (c.x.rows() == 4) {
            EXPECT_LT(std::get<0>(plain), 1.0) << "the vertex should reach the face";
            EXPECT_GT(std::get<0>(plain), 0.0);
        }
        EXPECT_EQ(in_flush_to_zero_program(run), plain);
        EXPECT_EQ(with_flush_to_zero_caller(run), plain);
    }
}

INSTANTIATE_TEST_SUITE_P(
    NarrowPhases,
    LineSearchFlushToZero,
    ::testing::Values(LineSearchNarrowPhase::ADDITIVE, LineSearchNarrowPhase::EXACT));
#endif
