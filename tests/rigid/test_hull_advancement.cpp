// SPDX-License-Identifier: MIT
#include "rigid/details/hull_advancement.hpp"

#include <ccdkit/distance/closest_offset.hpp>
#include <ccdkit/mesh/primitive_meshes.hpp>
#include <ccdkit/rigid/rigid_shape.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <random>

namespace ccdkit {
namespace {

    std::vector<Eigen::Vector3d>
    random_points(std::mt19937_64& rng, int count, const Eigen::Vector3d& center, double scale)
    {
        std::uniform_real_distribution<double> u(-1, 1);
        std::vector<Eigen::Vector3d> out;
        for (int k = 0; k < count; ++k) {
            out.push_back(center + scale * Eigen::Vector3d(u(rng), u(rng), u(rng)));
        }
        return out;
    }

    TEST(HullAdvancement, CertifiedSeparationNeverExceedsTheExactOne)
    {
        std::mt19937_64 rng(9);
        std::uniform_real_distribution<double> u(-1, 1);
        for (const double scale : { 1e-6, 1.0, 1e6 }) {
            for (int k = 0; k < 2000; ++k) {
                const auto p = random_points(rng, 8, Eigen::Vector3d(2, 0, 0) * scale, scale);
                const auto q = random_points(rng, 8, Eigen::Vector3d::Zero(), scale);
                const Eigen::Vector3d direction(1 + 0.3 * u(rng), 0.3 * u(rng), 0.3 * u(rng));
                const double certified = details::certified_separation(p, q, direction);
                // The same separation in long double, along the same normalized direction.
                const Eigen::Matrix<long double, 3, 1> n = direction.normalized().cast<long double>();
                long double low = 1e300L, high = -1e300L;
                for (const auto& x : p) {
                    low = std::min(low, n.dot(x.cast<long double>()));
                }
                for (const auto& x : q) {
                    high = std::max(high, n.dot(x.cast<long double>()));
                }
                ASSERT_LE(static_cast<long double>(certified), (low - high) / n.norm()) << scale << " " << k;
            }
        }
    }

    TEST(HullAdvancement, GjkFindsTheSeparatingDirectionOfTwoBoxes)
    {
        const TriangleMesh box = box_mesh({ 0.5, 0.5, 0.5 });
        std::vector<Eigen::Vector3d> p, q;
        for (Eigen::Index v = 0; v < box.vertices.rows(); ++v) {
            q.push_back(box.vertices.row(v).transpose());
            p.push_back(box.vertices.row(v).transpose() + Eigen::Vector3d(1.3, 0.2, -0.1)); // 0.3 apart along x
        }
        const Eigen::Vector3d offset = details::convex_hull_offset(p, q, Eigen::Vector3d::Zero());
        EXPECT_NEAR(offset.norm(), 0.3, 0.3 * 0.05);
        EXPECT_GE(details::certified_separation(p, q, offset), 0.95 * 0.3 - 1e-12);
        // Overlapping hulls: no separation.
        for (auto& x : p) {
            x.x() -= 0.5;
        }
        EXPECT_LE(details::certified_separation(p, q, details::convex_hull_offset(p, q, Eigen::Vector3d::Zero())), 0.0);
    }

    TEST(HullAdvancement, WarmStartedGjkIsAsGoodAsACold)
    {
        // The simplex kept from one call seeds the next on the sets moved a little (as advancement does): the
        // direction must still certify at least 95% of the distance, and overlap must still be reported.
        std::mt19937_64 rng(21);
        std::uniform_real_distribution<double> u(-1, 1);
        for (int k = 0; k < 300; ++k) {
            auto p = random_points(rng, 12, Eigen::Vector3d(3, 0, 0), 1.0);
            const auto q = random_points(rng, 12, Eigen::Vector3d::Zero(), 1.0);
            const Eigen::Vector3d step(-0.1 + 0.02 * u(rng), 0.05 * u(rng), 0.05 * u(rng));
            details::HullSimplex simplex;
            for (int moved = 0; moved < 30; ++moved) {
                const Eigen::Vector3d warm = details::convex_hull_offset(p, q, simplex);
                const Eigen::Vector3d cold = details::convex_hull_offset(p, q, Eigen::Vector3d::Zero());
                if (cold.squaredNorm() == 0.0) {
                    EXPECT_LE(details::certified_separation(p, q, warm), 1e-9 * warm.norm()) << k << " " << moved;
                } else {
                    // Both directions certify nearly the true distance (GJK stops within 5% of it).
                    EXPECT_GE(
                        details::certified_separation(p, q, warm),
                        0.95 * details::certified_separation(p, q, cold) - 1e-9)
                        << k << " " << moved;
                }
                for (auto& x : p) {
                    x += step;
                }
            }
        }
    }

    /// The hulls' distance by brute force: the hull of P - Q is the union of the triangles of its points.
    Eigen::Vector3d brute_force_closest(const std::vector<Eigen::Vector3d>& p, const std::vector<Eigen::Vector3d>& q)
    {
        std::vector<Eigen::Vector3d> difference;
        for (const auto& x : p) {
            for (const auto& y : q) {
                difference.push_back(x - y);
            }
        }
        Eigen::Vector3d closest = Eigen::Vector3d::Constant(std::numeric_limits<double>::max());
        for (std::size_t i = 0; i < difference.size(); ++i) {
            for (std::size_t j = i; j < difference.size(); ++j) {
                for (std::size_t l = j; l < difference.size(); ++l) {
                    const Eigen::Vector3d x = -point_triangle_closest_offset<double>(
                        Eigen::Vector3d::Zero(), difference[i], difference[j], difference[l]);
                    if (x.squaredNorm() < closest.squaredNorm()) {
                        closest = x;
                    }
                }
            }
        }
        return closest;
    }

    TEST(HullAdvancement, GjkMatchesTheBruteForceDistanceOfSmallHulls)
    {
        // Small random sets, apart, touching or overlapping, flat ones included, so GJK reaches tetrahedra often
        // (it searches only the faces with the origin outside). The hull of P - Q is the union of the triangles of
        // its points, so the least distance from the origin to those is the hulls' distance when they are apart.
        std::mt19937_64 rng(33);
        std::uniform_real_distribution<double> u(-1, 1);
        for (int k = 0; k < 3000; ++k) {
            const double scale = k % 3 == 0 ? 1e-6 : (k % 3 == 1 ? 1.0 : 1e6);
            const int count = 2 + k % 4;
            auto p = random_points(rng, count, Eigen::Vector3d(1.5 * u(rng), 0.5 * u(rng), 0) * scale, scale);
            const auto q = random_points(rng, count, Eigen::Vector3d::Zero(), scale);
            if (k % 5 == 0) {
                for (auto& x : p) {
                    x.z() = 0.25 * scale; // a flat set
                }
            }
            const Eigen::Vector3d closest = brute_force_closest(p, q);
            const double distance = details::certified_separation(p, q, closest);
            const Eigen::Vector3d offset = details::convex_hull_offset(p, q, Eigen::Vector3d::Zero());
            if (offset.squaredNorm() == 0.0) {
                EXPECT_LE(distance, 1e-9 * scale) << k; // reported overlapping: no separation
            } else {
                EXPECT_GE(offset.norm(), closest.norm() * (1.0 - 1e-9)) << k; // a point of the hull of P - Q
                EXPECT_GE(details::certified_separation(p, q, offset), 0.95 * distance - 1e-9 * scale) << k;
            }
        }
    }

    TEST(HullAdvancement, GjkOnBoxesWithTiesAndStaleSimplicesAtEveryTolerance)
    {
        // Adversarial GJK (s16-rev6 review of the tetrahedron's face search, the probe's simplex handed on and the
        // 1e-9 tolerance): boxes (many coplanar vertices, ties in every support query) at random or axis-aligned
        // attitudes, apart by a hair, touching face to face, edge to edge or corner to corner, or overlapping, far
        // from the origin or not, GJK warm-started from a random (stale, possibly degenerate) simplex of the same
        // sets. Whatever the start, a nonzero answer is a point of the hull of P - Q no nearer than the distance,
        // whose direction certifies at least (1 - tolerance) of it; a zero answer means no separation.
        std::mt19937_64 rng(61);
        std::uniform_real_distribution<double> u(-1, 1);
        const auto box = [](const Eigen::Quaterniond& rotation, const Eigen::Vector3d& half,
                            const Eigen::Vector3d& at) {
            std::vector<Eigen::Vector3d> out;
            for (int c = 0; c < 8; ++c) {
                const Eigen::Vector3d corner(
                    (c & 1) ? half.x() : -half.x(), (c & 2) ? half.y() : -half.y(), (c & 4) ? half.z() : -half.z());
                out.push_back(at + rotation * corner);
            }
            return out;
        };
        int overlapping = 0, apart = 0;
        for (int k = 0; k < 4000; ++k) {
            SCOPED_TRACE(k);
            const double scale = std::array<double, 4> { 1e-6, 1.0, 1e3, 1e6 }[static_cast<std::size_t>(k % 4)];
            const double far = k % 3 == 0 ? 1e3 * scale : 0.0;
            const bool aligned = k % 2 == 0;
            const Eigen::Quaterniond ra = aligned
                ? Eigen::Quaterniond::Identity()
                : Eigen::Quaterniond(Eigen::Vector4d(u(rng), u(rng), u(rng), u(rng)).normalized());
            const Eigen::Vector3d half_a = scale * Eigen::Vector3d(0.5, k % 7 == 0 ? 1e-4 : 0.3, 0.2);
            const Eigen::Vector3d half_b = scale * Eigen::Vector3d(0.5, 0.5, k % 11 == 0 ? 1e-4 : 0.5);
            // Along x the boxes touch exactly (aligned), miss by a hair or overlap by one.
            const double gap
                = std::array<double, 5> { 0.0, 1e-12, -1e-12, 1e-3, -1e-3 }[static_cast<std::size_t>((k / 4) % 5)]
                * scale;
            const Eigen::Vector3d shift(
                half_a.x() + half_b.x() + gap, (k % 5 == 0 ? 0.0 : 0.3 * u(rng)) * scale,
                (k % 5 == 0 ? 0.0 : 0.3 * u(rng)) * scale);
            const Eigen::Vector3d origin = Eigen::Vector3d::Constant(far);
            const auto p = box(ra, half_a, origin + shift);
            const auto q = box(Eigen::Quaterniond::Identity(), half_b, origin);
            const Eigen::Vector3d closest = brute_force_closest(p, q);
            const double distance = details::certified_separation(p, q, closest);
            for (const double tolerance : { 0.05, 1e-9 }) {
                details::HullSimplex simplex;
                if (k % 2 == 1) {
                    simplex.size = 1 + static_cast<int>(rng() % 4);
                    for (int v = 0; v < simplex.size; ++v) {
                        simplex.ids[static_cast<std::size_t>(v)]
                            = { static_cast<std::uint32_t>(rng() % 8), static_cast<std::uint32_t>(rng() % 8) };
                    }
                }
                const Eigen::Vector3d offset
                    = details::convex_hull_offset(p, q, simplex, Eigen::Vector3d::Zero(), tolerance);
                if (offset.squaredNorm() == 0.0) {
                    ++overlapping;
                    EXPECT_LE(distance, 1e-9 * (scale + far)) << "reported overlapping, separated by " << distance;
                } else {
                    ++apart;
                    EXPECT_GT(distance, -1e-9 * (scale + far)) << "overlapping, reported apart: " << offset.transpose();
                    if (!(distance > 1e-8 * (scale + far))) {
                        continue; // a gap within the coordinates' rounding: the direction is noise there
                    }
                    EXPECT_GE(offset.norm(), closest.norm() * (1.0 - 1e-9) - 1e-10 * (scale + far));
                    EXPECT_GE(
                        details::certified_separation(p, q, offset),
                        (1.0 - 1.01 * tolerance) * distance - 1e-10 * (scale + far))
                        << "tolerance " << tolerance << " distance " << distance << " offset " << offset.transpose();
                }
            }
        }
        EXPECT_GT(overlapping, 0);
        EXPECT_GT(apart, 0);
    }

    TEST(HullAdvancement, SafeTimeIsNeverLateAndCloseForConvexBodies)
    {
        const TriangleMesh box = box_mesh({ 0.5, 0.3, 0.2 });
        const RigidShape shape = RigidShape::solid(box.vertices, box.faces);
        std::mt19937_64 rng(4);
        std::uniform_real_distribution<double> u(-1, 1);
        int checked = 0;
        for (int k = 0; k < 200; ++k) {
            const RigidMotion a(
                { .translation = { -1.5, 0.2 * u(rng), 0.2 * u(rng) } }, { 2.0, 0, 0 }, { u(rng), u(rng), u(rng) });
            const RigidMotion b({}, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
            details::MovingSide side(shape.mesh_data(), shape.mesh_data(), RelativeMotion(a, b));
            const double safe = details::hull_safe_time(side, 1.0, 1e-9, 64).safe_time;
            // The exact contact time by bisection on the (convex) boxes' separating-axis overlap at sampled times.
            const auto overlap = [&](double s) {
                std::vector<Eigen::Vector3d> p, q;
                for (Eigen::Index v = 0; v < box.vertices.rows(); ++v) {
                    p.push_back(RelativeMotion(a, b).point_at(box.vertices.row(v).transpose(), s));
                    q.push_back(box.vertices.row(v).transpose());
                }
                return details::certified_separation(p, q, details::convex_hull_offset(p, q, Eigen::Vector3d::Zero()))
                    <= 0.0;
            };
            if (safe >= 1.0) {
                continue;
            }
            ++checked;
            ASSERT_FALSE(overlap(std::max(0.0, safe - 1e-7))) << k;
            EXPECT_TRUE(overlap(safe + 1e-3)) << k << ": safe time " << safe << " far from contact";
        }
        EXPECT_EQ(checked, 200); // every box reaches the other within the step
    }

} // namespace
} // namespace ccdkit
