// SPDX-License-Identifier: MIT
#include "motion_sets.hpp"

#include <Eigen/Geometry>
#include <tbb/parallel_for.h>

#include <cmath>
#include <functional>
#include <numbers>
#include <random>
#include <stdexcept>

namespace ccdkit::bench {
namespace {
    constexpr double DEGREE = std::numbers::pi / 180.0;

    double uniform(std::mt19937_64& rng, double lo, double hi)
    {
        return std::uniform_real_distribution<double>(lo, hi)(rng);
    }

    Eigen::Vector3d random_unit(std::mt19937_64& rng)
    {
        std::normal_distribution<double> normal;
        Eigen::Vector3d v;
        do {
            v = Eigen::Vector3d(normal(rng), normal(rng), normal(rng));
        } while (v.norm() < 1e-3);
        return v.normalized();
    }

    Eigen::Quaterniond random_rotation(std::mt19937_64& rng)
    {
        std::normal_distribution<double> normal;
        Eigen::Quaterniond q(normal(rng), normal(rng), normal(rng), normal(rng));
        return q.normalized();
    }

    /// A random unit vector perpendicular to `v` (any unit vector if v is zero).
    Eigen::Vector3d random_perpendicular(std::mt19937_64& rng, const Eigen::Vector3d& v)
    {
        if (v.norm() == 0.0) {
            return random_unit(rng);
        }
        const Eigen::Vector3d u = v.normalized();
        Eigen::Vector3d w;
        do {
            w = random_unit(rng);
            w -= w.dot(u) * u;
        } while (w.norm() < 1e-3);
        return w.normalized();
    }

    /// A random point of a mesh's surface (uniform over faces, then over the face).
    Eigen::Vector3d random_surface_point(std::mt19937_64& rng, const Mesh& mesh)
    {
        const auto face
            = static_cast<Eigen::Index>(std::uniform_int_distribution<Eigen::Index>(0, mesh.faces.rows() - 1)(rng));
        double u = uniform(rng, 0.0, 1.0), v = uniform(rng, 0.0, 1.0);
        if (u + v > 1.0) {
            u = 1.0 - u;
            v = 1.0 - v;
        }
        const Eigen::Vector3d a = mesh.vertices.row(mesh.faces(face, 0)), b = mesh.vertices.row(mesh.faces(face, 1)),
                              c = mesh.vertices.row(mesh.faces(face, 2));
        return a + u * (b - a) + v * (c - a);
    }

    RigidPose small_pose(std::mt19937_64& rng, double radius)
    {
        RigidPose pose;
        pose.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(uniform(rng, 0.0, 0.3), random_unit(rng)));
        pose.translation = uniform(rng, 0.0, 0.2 * radius) * random_unit(rng);
        return pose;
    }

    /// One draw of a query's motion: everything but the lateral offset, which grazing queries bisect on.
    struct Draw {
        RigidPose b_t0, b_t1;
        Eigen::Quaterniond start_rotation;
        Eigen::Vector3d axis = Eigen::Vector3d::UnitX();
        double angle = 0.0;
        Eigen::Vector3d travel = Eigen::Vector3d::Zero(); ///< of a's origin over the step
        double aim_time = 0.5; ///< s*: when a's shape centre passes the aimed point
        Eigen::Vector3d target = Eigen::Vector3d::Zero(); ///< world point of b's surface at s*
        Eigen::Vector3d lateral = Eigen::Vector3d::UnitY(); ///< unit, perpendicular to a's centre's velocity at s*

        [[nodiscard]] Query query(const ShapePair& pair, double offset, Aim aim) const
        {
            const Eigen::AngleAxisd turn_at_aim(angle * aim_time, axis);
            const Eigen::Vector3d origin0
                = target + offset * lateral - aim_time * travel - (turn_at_aim * start_rotation) * pair.a_center;
            Query q;
            q.a_t0.rotation = start_rotation;
            q.a_t0.translation = origin0;
            q.a_t1.rotation = Eigen::AngleAxisd(angle, axis) * start_rotation;
            q.a_t1.translation = origin0 + travel;
            q.b_t0 = b_t0;
            q.b_t1 = b_t1;
            q.aim = aim;
            return q;
        }
    };

    Draw draw(std::mt19937_64& rng, const ShapePair& pair, MotionKind kind, bool b_moves)
    {
        Draw d;
        const double reach = pair.a_radius + pair.b_radius;
        if (b_moves) {
            d.b_t0 = small_pose(rng, pair.b_radius);
            d.b_t1 = small_pose(rng, pair.b_radius);
        }
        d.start_rotation = random_rotation(rng);
        d.aim_time = uniform(rng, 0.45, 0.85);
        const RigidPose b_at_aim = pose_at(d.b_t0, d.b_t1, d.aim_time);
        d.target = b_at_aim.rotation * random_surface_point(rng, pair.b) + b_at_aim.translation;
        d.axis = random_unit(rng);
        switch (kind) {
        case MotionKind::TRANSLATION: {
            // From the side of b the target faces (away from b's centre), so a rarely starts inside b.
            Eigen::Vector3d from = random_unit(rng);
            const Eigen::Vector3d outward = d.target - b_at_aim.translation;
            if (from.dot(outward) < 0.0) {
                from = -from;
            }
            d.travel = -(reach * uniform(rng, 1.2, 2.0) / d.aim_time) * from;
            break;
        }
        case MotionKind::ROTATION:
            d.angle = uniform(rng, 60.0, 110.0) * DEGREE;
            break;
        case MotionKind::SCREW:
            d.angle = uniform(rng, 60.0, 110.0) * DEGREE;
            d.travel = (uniform(rng, 0.0, 1.0) < 0.5 ? -1.0 : 1.0) * uniform(rng, 0.5, 1.0) * reach * d.axis;
            break;
        case MotionKind::LARGE_ANGLE:
            d.angle = uniform(rng, 90.0, 175.0) * DEGREE;
            d.travel = uniform(rng, 0.0, 1.0) * reach * random_unit(rng);
            break;
        }
        // Velocity of a's shape centre at s*: travel + (angle axis) x (its offset from a's origin).
        const Eigen::Vector3d arm
            = (Eigen::AngleAxisd(d.angle * d.aim_time, d.axis) * d.start_rotation) * pair.a_center;
        d.lateral = random_perpendicular(rng, d.travel + d.angle * d.axis.cross(arm));
        return d;
    }
} // namespace

std::string motion_name(MotionKind kind)
{
    switch (kind) {
    case MotionKind::TRANSLATION:
        return "translation";
    case MotionKind::ROTATION:
        return "rotation";
    case MotionKind::SCREW:
        return "screw";
    case MotionKind::LARGE_ANGLE:
        return "large-angle";
    }
    return "?";
}

std::vector<Query> make_queries(const ReferenceScene& scene, MotionKind kind, const GenerationOptions& options)
{
    const ShapePair& pair = scene.pair();
    std::vector<Query> queries(static_cast<std::size_t>(options.queries));
    const std::size_t name_hash = std::hash<std::string> {}(pair.name);
    tbb::parallel_for(std::size_t { 0 }, queries.size(), [&](std::size_t i) {
        std::seed_seq seq { options.seed, static_cast<std::uint64_t>(kind), static_cast<std::uint64_t>(i),
                            static_cast<std::uint64_t>(name_hash) };
        std::mt19937_64 rng(seq);
        // 3 grazes and 3 misses in every 20 queries, spread so that short runs (--quick) get some of each.
        const std::size_t slot = i % 20;
        const Aim aim = (slot == 2 || slot == 9 || slot == 16) ? Aim::GRAZE
            : (slot == 5 || slot == 12 || slot == 19)          ? Aim::MISS
                                                               : Aim::HIT;
        const bool b_moves = pair.b_moves && (i % 2 == 1);
        const double miss_offset = 1.2 * (pair.a_radius + 2.0 * pair.b_radius);
        const auto starts_apart = [&](const Query& q) { return !scene.at(q, 0.0, false).overlap; };
        const auto touches
            = [&](const Query& q) { return reference_time_of_contact(scene, q, options.graze_reference).hit; };
        for (int attempt = 0; attempt < 1000; ++attempt) {
            const Draw d = draw(rng, pair, kind, b_moves);
            Query q;
            if (aim == Aim::HIT) {
                q = d.query(pair, uniform(rng, 0.0, 0.25) * pair.a_radius, aim);
            } else if (aim == Aim::MISS) {
                q = d.query(pair, miss_offset, aim);
            } else {
                double hit = 0.0, miss = miss_offset;
                if (!starts_apart(d.query(pair, hit, aim)) || !touches(d.query(pair, hit, aim))
                    || touches(d.query(pair, miss, aim))) {
                    continue; // no clean edge between touching and missing on this draw
                }
                for (int step = 0; step < 8; ++step) {
                    const double mid = 0.5 * (hit + miss);
                    const Query probe = d.query(pair, mid, aim);
                    (starts_apart(probe) && touches(probe) ? hit : miss) = mid;
                }
                q = d.query(pair, hit, aim);
            }
            if (starts_apart(q)) {
                queries[i] = q;
                return;
            }
        }
        throw std::runtime_error("motion_sets: no query starting apart after 1000 draws for " + pair.name);
    });
    return queries;
}

} // namespace ccdkit::bench
