// SPDX-License-Identifier: MIT
#include "self_check.hpp"

#include "exact_overlap.hpp"
#include "reference_toc.hpp"
#include "scene.hpp"

#include <ccdkit/mesh/primitive_meshes.hpp>

#include <Eigen/Geometry>

#include <cmath>
#include <numbers>
#include <ostream>
#include <string>

namespace ccdkit::bench {
namespace {
    class Checker {
    public:
        explicit Checker(std::ostream& out)
            : out_(out)
        {
        }
        void check(bool ok, const std::string& what)
        {
            out_ << (ok ? "  ok    " : "  FAIL  ") << what << '\n';
            failures_ += ok ? 0 : 1;
        }
        [[nodiscard]] int failures() const { return failures_; }

    private:
        std::ostream& out_;
        int failures_ = 0;
    };

    ShapePair make_pair(const Mesh& a, const Mesh& b)
    {
        ShapePair pair;
        pair.name = "self-check";
        pair.a = a;
        pair.b = b;
        pair.a_radius = radius_about(a, Eigen::Vector3d::Zero());
        pair.b_radius = radius_about(b, Eigen::Vector3d::Zero());
        return pair;
    }

    Query translation_query(const Eigen::Vector3d& from, const Eigen::Vector3d& to)
    {
        Query q;
        q.a_t0.translation = from;
        q.a_t1.translation = to;
        return q;
    }

    void check_triangles(Checker& c)
    {
        const double tiny = std::ldexp(1.0, -50);
        const Eigen::Vector3d t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0);
        c.check(
            triangles_meet(t0, t1, t2, { 0.25, 0.25, 0 }, { 0.25, 0.25, 1 }, { 1, 1, 1 }),
            "triangle touching another's interior with a vertex meets it");
        c.check(
            !triangles_meet(t0, t1, t2, { 0.25, 0.25, tiny }, { 0.25, 0.25, 1 }, { 1, 1, 1 }),
            "... and not when lifted by 2^-50");
        c.check(
            triangles_meet(t0, t1, t2, { 0.2, 0.2, 0 }, { 2, 0.2, 0 }, { 0.2, 2, 0 }),
            "coplanar overlapping triangles meet");
        c.check(
            triangles_meet(t0, t1, t2, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 }),
            "coplanar triangles sharing an edge meet");
        c.check(
            !triangles_meet(t0, t1, t2, { 1 + tiny, 0, 0 }, { tiny, 1, 0 }, { 1, 1, 0 }),
            "... and not when one is moved off the edge by 2^-50");
        c.check(triangles_meet(t0, t1, t2, { 0.2, 0.2, -1 }, { 0.2, 0.2, 1 }, { 5, 5, 0 }), "crossing triangles meet");
        c.check(!triangles_meet(t0, t1, t2, { 2, 2, -1 }, { 2, 2, 1 }, { 5, 5, 0 }), "triangles apart do not meet");
        const Mesh cube = box_mesh(Eigen::Vector3d::Constant(0.5));
        c.check(point_in_solid({ 0.1, -0.2, 0.3 }, cube.vertices, cube.faces), "a point inside a cube is inside");
        c.check(!point_in_solid({ 0.1, -0.2, 0.6 }, cube.vertices, cube.faces), "a point outside a cube is outside");
    }

    void check_cubes(Checker& c, const ReferenceOptions& options)
    {
        const Mesh cube = box_mesh(Eigen::Vector3d::Constant(0.5));
        const ReferenceScene scene(make_pair(cube, cube));
        // a's centre from x = -3 to x = 1: faces touch when it is at x = -1, s = 0.5.
        for (const double y : { 0.0, 0.5, 1.0 }) {
            const ReferenceToc r
                = reference_time_of_contact(scene, translation_query({ -3, y, 0 }, { 1, y, 0 }), options);
            c.check(
                r.hit && std::abs(r.toi_upper - 0.5) <= 2.0 * options.tolerance,
                "unit cubes approaching along x, offset y = " + std::to_string(y) + ": time 0.5 (got "
                    + std::to_string(r.toi_upper) + ")");
            if (y == 0.0) {
                c.check(r.normal.isApprox(Eigen::Vector3d(-1, 0, 0), 1e-6), "... normal from b towards a is -x");
            }
        }
        const double y = 1.0 + std::ldexp(1.0, -40);
        c.check(
            !reference_time_of_contact(scene, translation_query({ -3, y, 0 }, { 1, y, 0 }), options).hit,
            "... offset y = 1 + 2^-40: no contact");
        const ReferenceScene nested(make_pair(box_mesh(Eigen::Vector3d::Constant(0.1)), cube));
        c.check(
            nested.at(translation_query({ 0.1, 0, 0 }, { 0.1, 0, 0 }), 0.0, false).overlap,
            "a small cube inside a large one overlaps it (containment, no surface contact)");
        c.check(
            !nested.at(translation_query({ 0.7, 0, 0 }, { 0.7, 0, 0 }), 0.0, false).overlap,
            "... and not once outside");
    }

    void check_rod(Checker& c, const ReferenceOptions& options)
    {
        // Rod x in [0, 2], |y|, |z| <= 0.05 turning 90 degrees about z (its end at the origin) into the wall y >= 1:
        // the leading corner (2, 0.05) reaches y = 1 when 2 sin(theta) + 0.05 cos(theta) = 1.
        const Mesh rod = translated(box_mesh(Eigen::Vector3d(1.0, 0.05, 0.05)), Eigen::Vector3d(1, 0, 0));
        const Mesh wall = translated(box_mesh(Eigen::Vector3d(1.5, 0.25, 1.0)), Eigen::Vector3d(1.5, 1.25, 0));
        const ReferenceScene scene(make_pair(rod, wall));
        Query q;
        q.a_t1.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(std::numbers::pi / 2.0, Eigen::Vector3d::UnitZ()));
        const double angle = std::asin(1.0 / std::sqrt(4.0025)) - std::atan2(0.05, 2.0);
        const double expected = angle / (std::numbers::pi / 2.0);
        const ReferenceToc r = reference_time_of_contact(scene, q, options);
        c.check(
            r.hit && std::abs(r.toi_upper - expected) <= 1e-8,
            "rod turning into a wall: time " + std::to_string(expected) + " (got " + std::to_string(r.toi_upper) + ")");
        c.check(r.normal.isApprox(Eigen::Vector3d(0, -1, 0), 1e-5), "... normal from the wall towards the rod is -y");
    }
} // namespace

int run_self_check(std::ostream& out)
{
    Checker c(out);
    const ReferenceOptions options;
    out << "reference self-check (K = " << options.samples << ", tolerance " << options.tolerance << "):\n";
    check_triangles(c);
    check_cubes(c, options);
    check_rod(c, options);
    out << (c.failures() == 0 ? "all checks passed\n" : std::to_string(c.failures()) + " checks FAILED\n");
    return c.failures();
}

} // namespace ccdkit::bench
