// SPDX-License-Identifier: MIT
#include "support/make_faces.hpp"

#include <ccdkit/mesh/triangle_mesh.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <limits>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

namespace {

using ccdkit::edges_from_faces;
using ccdkit::validate;

using ccdkit::test::make_faces;

/// Runs `action` and checks that it throws std::invalid_argument whose message holds every one of `parts`.
void expect_invalid(const std::function<void()>& action, std::initializer_list<std::string> parts)
{
    try {
        action();
        ADD_FAILURE() << "no exception thrown";
    } catch (const std::invalid_argument& error) {
        const std::string message = error.what();
        for (const std::string& part : parts) {
            EXPECT_NE(message.find(part), std::string::npos) << "message: " << message << "\nlacks: " << part;
        }
    }
}

/// A unit square split into two triangles, plus a fifth vertex and a triangle on it.
ccdkit::TriangleMesh small_mesh()
{
    ccdkit::TriangleMesh mesh;
    mesh.vertices.resize(5, 3);
    mesh.vertices << 0, 0, 0, //
        1, 0, 0, //
        1, 1, 0, //
        0, 1, 0, //
        2, 2, 1;
    mesh.faces = make_faces({ { 0, 1, 2 }, { 0, 2, 3 }, { 2, 4, 3 } });
    return mesh;
}

TEST(TriangleMesh, EdgesOrderedByLargerThenSmallerIndex)
{
    // Faces listed in scrambled orientation and order: the numbering must not depend on either.
    const Eigen::MatrixX3i faces = make_faces({ { 4, 2, 3 }, { 2, 0, 1 }, { 1, 3, 2 } });
    const Eigen::MatrixX2i edges = edges_from_faces(faces);

    // Rows (i, j), i < j, sorted by j then i. With 5 vertices, global ids are 5 + row.
    Eigen::MatrixX2i expected(7, 2);
    expected << 0, 1, // id 5
        0, 2, // id 6
        1, 2, // id 7
        1, 3, // id 8
        2, 3, // id 9
        2, 4, // id 10
        3, 4; // id 11
    EXPECT_EQ(edges, expected) << edges;
}

TEST(TriangleMesh, EdgesOfClosedMeshSatisfyEuler)
{
    // An octahedron: V - E + F = 2 and every edge is shared by two faces (E = 3F / 2).
    const Eigen::MatrixX3i faces = make_faces(
        { { 0, 2, 4 }, { 2, 1, 4 }, { 1, 3, 4 }, { 3, 0, 4 }, { 2, 0, 5 }, { 1, 2, 5 }, { 3, 1, 5 }, { 0, 3, 5 } });
    const Eigen::MatrixX2i edges = edges_from_faces(faces);
    EXPECT_EQ(edges.rows(), 12);
    EXPECT_EQ(6 - edges.rows() + faces.rows(), 2);
}

TEST(TriangleMesh, EdgesMatchBruteForceOnRandomFaces)
{
    std::mt19937 random(20240219);
    std::uniform_int_distribution<int> vertex(0, 60);
    Eigen::MatrixX3i faces(500, 3);
    for (Eigen::Index f = 0; f < faces.rows(); ++f) {
        faces.row(f) << vertex(random), vertex(random), vertex(random);
    }
    // Ordered by (j, i): a set of (larger, smaller) pairs iterates in exactly that order.
    std::set<std::pair<int, int>> expected;
    for (Eigen::Index f = 0; f < faces.rows(); ++f) {
        for (int c = 0; c < 3; ++c) {
            const int a = faces(f, c);
            const int b = faces(f, (c + 1) % 3);
            if (a != b) {
                expected.emplace(std::max(a, b), std::min(a, b));
            }
        }
    }
    const Eigen::MatrixX2i edges = edges_from_faces(faces);
    ASSERT_EQ(static_cast<std::size_t>(edges.rows()), expected.size());
    Eigen::Index e = 0;
    for (const auto& [j, i] : expected) {
        EXPECT_EQ(edges(e, 0), i) << "edge " << e;
        EXPECT_EQ(edges(e, 1), j) << "edge " << e;
        ++e;
    }
}

TEST(TriangleMesh, EdgesSkipRepeatedIndicesOfDegenerateFaces)
{
    const Eigen::MatrixX2i edges = edges_from_faces(make_faces({ { 3, 3, 1 } }));
    Eigen::MatrixX2i expected(1, 2);
    expected << 1, 3;
    EXPECT_EQ(edges, expected);
}

TEST(TriangleMesh, EdgesOfNoFacesAreEmpty) { EXPECT_EQ(edges_from_faces(Eigen::MatrixX3i(0, 3)).rows(), 0); }

TEST(TriangleMesh, EdgesRejectNegativeIndex)
{
    expect_invalid(
        [] {
            static_cast<void>(edges_from_faces(make_faces({ { 0, 1, 2 }, { 0, -1, 2 } })));
        },
        { "face 1", "negative vertex index -1" });
}

TEST(TriangleMesh, ValidateAcceptsGoodMeshes)
{
    EXPECT_NO_THROW(validate(small_mesh()));
    EXPECT_NO_THROW(validate(ccdkit::TriangleMesh {})); // empty
    ccdkit::TriangleMesh points = small_mesh();
    points.faces.resize(0, 3);
    EXPECT_NO_THROW(validate(points));
}

TEST(TriangleMesh, ValidateRejectsIndexOutOfRange)
{
    ccdkit::TriangleMesh mesh = small_mesh();
    mesh.faces(1, 2) = 5;
    expect_invalid([&] { validate(mesh); }, { "face 1 (0, 2, 5)", "vertex index 5 out of range (5 vertices)" });
    mesh.faces(1, 2) = -2;
    expect_invalid([&] { validate(mesh); }, { "face 1 (0, 2, -2)", "vertex index -2 out of range" });
}

TEST(TriangleMesh, ValidateRejectsDegenerateFace)
{
    ccdkit::TriangleMesh mesh = small_mesh();
    mesh.faces.row(2) << 4, 3, 4;
    expect_invalid([&] { validate(mesh); }, { "face 2 (4, 3, 4)", "degenerate", "vertex index 4 repeated" });
    mesh.faces.row(2) << 2, 3, 3;
    expect_invalid([&] { validate(mesh); }, { "face 2 (2, 3, 3)", "vertex index 3 repeated" });
}

TEST(TriangleMesh, ValidateRejectsNonFiniteCoordinate)
{
    for (const double bad : { std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity() }) {
        SCOPED_TRACE(bad);
        ccdkit::TriangleMesh mesh = small_mesh();
        mesh.vertices(3, 1) = bad;
        expect_invalid([&] { validate(mesh); }, { "vertex 3", "non-finite coordinate" });
    }
}

} // namespace
