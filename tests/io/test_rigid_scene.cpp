// SPDX-License-Identifier: MIT
#include <ccdkit/io/rigid_scene.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <numbers>
#include <stdexcept>
#include <string>

namespace ccdkit {
namespace {

    const std::filesystem::path EXAMPLES
        = std::filesystem::path(CCDKIT_TEST_DATA_DIR) / ".." / ".." / "examples" / "rigid";

    /// The error message of parsing `text`, or "" if it parses.
    std::string error_of(const std::string& text)
    {
        try {
            (void)parse_rigid_scene(text, ".");
        } catch (const std::runtime_error& e) {
            return e.what();
        }
        return "";
    }

    TEST(RigidScene, ExampleFileMatchesTheBuiltInScene)
    {
        const RigidScene file = read_rigid_scene(EXAMPLES / "rod_into_gap.json");
        const RigidScene built_in = rod_into_gap_scene();
        ASSERT_EQ(file.bodies.size(), built_in.bodies.size());
        EXPECT_EQ(file.names, built_in.names);
        for (std::size_t i = 0; i < file.bodies.size(); ++i) {
            EXPECT_EQ(file.bodies[i].shape.vertices(), built_in.bodies[i].shape.vertices());
            for (const double s : { 0.0, 0.5, 1.0 }) {
                const Eigen::Vector3d u(1.2, 0.05, -0.05);
                EXPECT_LT(
                    (file.bodies[i].motion.point_at(u, s) - built_in.bodies[i].motion.point_at(u, s)).norm(), 1e-15);
            }
        }
        const RigidCcdResult r = rigid_time_of_contact(file.bodies[0], file.bodies[1], file.options);
        EXPECT_TRUE(r.hit);
    }

    TEST(RigidScene, EndPosesAndQuaternionsDefineTheMotion)
    {
        const RigidScene scene = parse_rigid_scene(
            R"({
          "duration": 2.0,
          "contacts": false,
          "bodies": [
            {"shape": {"type": "sphere", "radius": 0.5, "subdivisions": 1}, "position": [0, 0, 0],
             "end": {"position": [4, 0, 0], "rotation": {"axis": [0, 0, 1], "angle": 1.0}}},
            {"name": "ring", "shape": {"type": "torus", "major_radius": 1, "minor_radius": 0.2}, "quaternion": [0, 1, 0, 0]}
          ]})",
            ".");
        ASSERT_EQ(scene.bodies.size(), 2u);
        EXPECT_EQ(scene.names[0], "body0");
        EXPECT_EQ(scene.names[1], "ring");
        EXPECT_DOUBLE_EQ(scene.bodies[0].motion.duration(), 2.0);
        EXPECT_NEAR(scene.bodies[0].motion.linear_velocity().x(), 2.0, 1e-15);
        EXPECT_NEAR(scene.bodies[0].motion.step_angle(), 1.0, 1e-15);
        EXPECT_EQ(scene.bodies[0].shape.faces().rows(), 80);
        EXPECT_FALSE(scene.options.contacts);
    }

    TEST(RigidScene, BadScenesNameTheProblem)
    {
        const std::string box = R"({"type": "box", "half_extents": [1, 1, 1]})";
        const auto two
            = [&](const std::string& first) { return R"({"bodies": [)" + first + R"(, {"shape": )" + box + "}]}"; };
        EXPECT_NE(error_of("{").find("malformed JSON"), std::string::npos);
        EXPECT_NE(error_of(R"({"bodies": []})").find("at least 2 bodies"), std::string::npos);
        EXPECT_NE(error_of(two(R"({"name": "x"})")).find("body 0 (x): missing \"shape\""), std::string::npos);
        EXPECT_NE(
            error_of(two(R"({"shape": {"type": "cone"}})")).find("unknown shape type \"cone\""), std::string::npos);
        EXPECT_NE(
            error_of(two(R"({"shape": {"type": "box", "half_extents": [1, 0, 1]}})")).find("half extent"),
            std::string::npos);
        EXPECT_NE(
            error_of(two(R"({"shape": )" + box + R"(, "position": [1, 2]})"))
                .find("\"position\" must be an array of 3 numbers"),
            std::string::npos);
        EXPECT_NE(
            error_of(two(R"({"shape": )" + box + R"(, "velocity": [1, "a", 2]})"))
                .find("\"velocity\" must be a number"),
            std::string::npos);
        EXPECT_NE(
            error_of(two(R"({"shape": )" + box + R"(, "quaternion": [0, 0, 0, 0]})")).find("zero quaternion"),
            std::string::npos);
        EXPECT_NE(
            error_of(two(R"({"shape": )" + box + R"(, "velocity": [1, 0, 0], "end": {}})")).find("not both"),
            std::string::npos);
        EXPECT_NE(
            error_of(two(R"({"shape": {"type": "mesh", "file": "no-such-file.obj"}})")).find("no-such-file.obj"),
            std::string::npos);
        EXPECT_NE(error_of(R"({"method": "fast", "bodies": []})").find("unknown method"), std::string::npos);
        EXPECT_NE(
            error_of(R"({"contacts": "no", "bodies": []})").find("\"contacts\" must be true or false"),
            std::string::npos);
        // Review findings (eighteenth session): a number beyond double's range, and options out of range, are named
        // when the scene is read (they had surfaced as the JSON library's bare error, or only from the query).
        EXPECT_NE(error_of(R"({"eps": 1e400, "bodies": []})").find("malformed JSON"), std::string::npos);
        EXPECT_NE(error_of(R"({"eps": 0, "bodies": []})").find("\"eps\" must be in (0, 1]"), std::string::npos);
        EXPECT_NE(error_of(R"({"eps": 2, "bodies": []})").find("\"eps\" must be in (0, 1]"), std::string::npos);
        EXPECT_NE(
            error_of(R"({"surface_resolution": -1, "bodies": []})").find("\"surface_resolution\" must be >= 0"),
            std::string::npos);
        EXPECT_THROW((void)read_rigid_scene("no-such-scene.json"), std::runtime_error);
    }

} // namespace
} // namespace ccdkit
