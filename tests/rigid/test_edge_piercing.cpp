// SPDX-License-Identifier: MIT
#include "rigid/details/edge_piercing.hpp"

#include <gtest/gtest.h>

#include <array>
#include <optional>

namespace ccdkit::details {
namespace {

    const std::array<bool, 3> NO_FLAT_SIDES { false, false, false };

    /// The triangle (0,0,0), (1,0,0), (0,1,0) scaled and moved, and a point of its plane's frame likewise.
    struct Frame {
        double scale;
        Eigen::Vector3d origin;
        [[nodiscard]] Eigen::Vector3d at(double x, double y, double z) const
        {
            return origin + scale * Eigen::Vector3d(x, y, z);
        }
        [[nodiscard]] std::array<Eigen::Vector3d, 3> triangle() const
        {
            return { at(0, 0, 0), at(1, 0, 0), at(0, 1, 0) };
        }
    };

    /// At scales from tiny (squares underflow) to huge (they overflow), at the origin and far from it: an edge through
    /// the triangle's middle passes where it crosses the plane, whichever way it points.
    TEST(EdgePiercing, AnEdgeThroughTheMiddlePassesWhereItCrossesThePlane)
    {
        for (const double scale : { 1e-150, 1e-3, 1.0, 1e3, 1e150 }) {
            for (const double far : { 0.0, 1e4 }) {
                const Frame frame { scale, Eigen::Vector3d(far, -far, far) * scale };
                SCOPED_TRACE(testing::Message() << "scale " << scale << ", far " << far);
                const std::optional<Eigen::Vector3d> down = piercing_point(
                    frame.at(0.25, 0.25, 1.0), frame.at(0.25, 0.25, -3.0), frame.triangle(), NO_FLAT_SIDES);
                ASSERT_TRUE(down.has_value());
                EXPECT_LE((*down - frame.at(0.25, 0.25, 0.0)).norm(), 1e-12 * scale * (1.0 + far));
                const std::optional<Eigen::Vector3d> slanted = piercing_point(
                    frame.at(0.5, 0.0, -1.0), frame.at(0.0, 0.5, 1.0), frame.triangle(), NO_FLAT_SIDES);
                ASSERT_TRUE(slanted.has_value());
                EXPECT_LE((*slanted - frame.at(0.25, 0.25, 0.0)).norm(), 1e-12 * scale * (1.0 + far));
            }
        }
    }

    /// No crossing where an end lies in the plane (a face resting on another: its sides end there), where the edge lies
    /// in the plane or beside the triangle, or where the triangle collapses.
    TEST(EdgePiercing, AnEdgeEndingInThePlaneOrBesideTheTrianglePassesNone)
    {
        const Frame frame { 1.0, Eigen::Vector3d::Zero() };
        const auto triangle = frame.triangle();
        EXPECT_FALSE(piercing_point(frame.at(0.25, 0.25, 0.0), frame.at(0.25, 0.25, 1.0), triangle, NO_FLAT_SIDES));
        EXPECT_FALSE(piercing_point(frame.at(0.25, 0.25, 1e-17), frame.at(0.25, 0.25, 1.0), triangle, NO_FLAT_SIDES));
        EXPECT_FALSE(piercing_point(frame.at(-1.0, 0.25, 0.0), frame.at(1.0, 0.25, 0.0), triangle, NO_FLAT_SIDES));
        EXPECT_FALSE(piercing_point(frame.at(0.75, 0.75, -1.0), frame.at(0.75, 0.75, 1.0), triangle, NO_FLAT_SIDES));
        EXPECT_FALSE(piercing_point(frame.at(0.25, 0.25, 1.0), frame.at(0.25, 0.25, 2.0), triangle, NO_FLAT_SIDES));
        const std::array<Eigen::Vector3d, 3> collapsed { frame.at(0, 0, 0), frame.at(1, 0, 0), frame.at(2, 0, 0) };
        EXPECT_FALSE(piercing_point(frame.at(0.5, 0.0, -1.0), frame.at(0.5, 0.0, 1.0), collapsed, NO_FLAT_SIDES));
    }

    /// Through a side of the triangle: none where the side is an edge of the surface (there the two edges cross and
    /// touch, as the rims of boxes stacked face to face do), the crossing where it is flat (the face beyond continues
    /// the plane: a box face's diagonal).
    TEST(EdgePiercing, ThroughASideOnlyWhereTheSideIsFlat)
    {
        const Frame frame { 1.0, Eigen::Vector3d::Zero() };
        const auto triangle = frame.triangle();
        // The hypotenuse, from (1, 0) to (0, 1), is side 1; the legs are sides 0 and 2.
        const Eigen::Vector3d above = frame.at(0.5, 0.5, 1.0), below = frame.at(0.5, 0.5, -1.0);
        EXPECT_FALSE(piercing_point(above, below, triangle, NO_FLAT_SIDES));
        const std::optional<Eigen::Vector3d> flat = piercing_point(above, below, triangle, { false, true, false });
        ASSERT_TRUE(flat.has_value());
        EXPECT_LE((*flat - frame.at(0.5, 0.5, 0.0)).norm(), 1e-15);
        // Just inside a side that is an edge of the surface, beyond rounding: through.
        EXPECT_TRUE(piercing_point(frame.at(0.5, 1e-9, 1.0), frame.at(0.5, 1e-9, -1.0), triangle, NO_FLAT_SIDES));
        EXPECT_FALSE(piercing_point(frame.at(0.5, 1e-17, 1.0), frame.at(0.5, 1e-17, -1.0), triangle, NO_FLAT_SIDES));
    }

} // namespace
} // namespace ccdkit::details
