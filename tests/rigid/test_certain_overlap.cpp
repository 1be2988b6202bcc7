// SPDX-License-Identifier: MIT
// The overlap certificate (certain_overlap.hpp): the origin strictly inside a tetrahedron of exact differences is
// proved, anything on, near or outside a face is not, at every scale; and a convex pair on which GJK's plain-double
// verdict was wrong now answers at the true contact.
#include "random_motions.hpp"
#include "rigid/details/certain_overlap.hpp"
#include "rigid/details/convex_distance.hpp"

#include <ccdkit/mesh/mesh_io.hpp>
#include <ccdkit/mesh/primitive_meshes.hpp>
#include <ccdkit/rigid/rigid_contact.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <vector>

namespace ccdkit {
namespace {

    using details::certainly_inside_difference;
    using Ids = std::array<std::array<std::uint32_t, 2>, 4>;
    constexpr Ids FOUR_PAIRS { { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 3 } } };

    /// Points p_k and q_k whose differences are the tetrahedron `w`: q_k = offset, p_k = w_k + offset (exact where
    /// the offset is a small multiple of a power of two of the coordinates).
    struct Sets {
        std::vector<Eigen::Vector3d> p, q;
    };
    Sets sets_of(const std::array<Eigen::Vector3d, 4>& w, const Eigen::Vector3d& offset)
    {
        Sets s;
        for (const Eigen::Vector3d& x : w) {
            s.p.push_back(x + offset);
            s.q.push_back(offset);
        }
        return s;
    }

    TEST(CertainOverlap, ProvesAnOriginInsideAndNothingElse)
    {
        test_support::RandomMotions random(5);
        int inside = 0;
        for (int trial = 0; trial < 2000; ++trial) {
            const double scale = std::ldexp(1.0, static_cast<int>(random.uniform(-600, 600)));
            std::array<Eigen::Vector3d, 4> w;
            for (Eigen::Vector3d& x : w) {
                x = random.vector(1.0);
            }
            // The origin's barycentric coordinates from the plain linear solve (well conditioned here).
            Eigen::Matrix4d m;
            for (int k = 0; k < 4; ++k) {
                m.col(k) << w[static_cast<std::size_t>(k)], 1.0;
            }
            const Eigen::Vector4d weights = m.fullPivLu().solve(Eigen::Vector4d(0, 0, 0, 1));
            if (std::abs(m.determinant()) < 1e-3 || (weights.cwiseAbs().array() < 1e-6).any()) {
                continue; // (near a face or flat: left to the tests below)
            }
            for (Eigen::Vector3d& x : w) {
                x *= scale;
            }
            const Sets s = sets_of(w, Eigen::Vector3d::Zero());
            const bool expected = (weights.array() > 0.0).all();
            EXPECT_EQ(certainly_inside_difference(s.p, s.q, FOUR_PAIRS), expected)
                << trial << " " << weights.transpose();
            inside += expected ? 1 : 0;
        }
        EXPECT_GT(inside, 50);
    }

    TEST(CertainOverlap, DecidesTinyMarginsAndLeavesFacesAndFlatTetrahedraUnproved)
    {
        const std::array<Eigen::Vector3d, 4> regular { Eigen::Vector3d(1, 1, 1), Eigen::Vector3d(1, -1, -1),
                                                       Eigen::Vector3d(-1, 1, -1), Eigen::Vector3d(-1, -1, 1) };
        const Sets centred = sets_of(regular, Eigen::Vector3d::Zero());
        EXPECT_TRUE(certainly_inside_difference(centred.p, centred.q, FOUR_PAIRS));
        // A tetrahedron with the origin at its face's centroid, exactly (x + y + z = 0 holds the last three vertices),
        // then its differences with points 2^-40 along (1, 1, 1) to either side, far from the origin: the face's plane
        // moves past the origin or back, and only the exact differences tell (the double-double stage decides).
        const std::array<Eigen::Vector3d, 4> on_face { Eigen::Vector3d(-1, -1, -1), Eigen::Vector3d(2, -1, -1),
                                                       Eigen::Vector3d(-1, 2, -1), Eigen::Vector3d(-1, -1, 2) };
        const Sets face = sets_of(on_face, Eigen::Vector3d::Zero());
        EXPECT_FALSE(certainly_inside_difference(face.p, face.q, FOUR_PAIRS));
        const Eigen::Vector3d far(1024, -2048, 512);
        for (const double side : { -1.0, 1.0 }) {
            Sets shifted = sets_of(on_face, far);
            for (Eigen::Vector3d& x : shifted.q) {
                x = far
                    + Eigen::Vector3d::Constant(side * std::ldexp(1.0, -40)); // (exact: 2^-40 is above the ulps of far)
            }
            // q above the plane by 2^-40 along (1, 1, 1) puts the origin outside the differences' face.
            EXPECT_EQ(certainly_inside_difference(shifted.p, shifted.q, FOUR_PAIRS), side < 0) << side;
        }
        // Flat: four points in the plane z = 0 around the origin.
        const std::array<Eigen::Vector3d, 4> flat { Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(-1, 1, 0),
                                                    Eigen::Vector3d(-1, -1, 0), Eigen::Vector3d(0.1, 0.1, 0) };
        const Sets flat_sets = sets_of(flat, Eigen::Vector3d::Zero());
        EXPECT_FALSE(certainly_inside_difference(flat_sets.p, flat_sets.q, FOUR_PAIRS));
        // Not finite, or rounded by the scaling: unproved.
        Sets bad = centred;
        bad.p[2].x() = std::numeric_limits<double>::quiet_NaN();
        EXPECT_FALSE(certainly_inside_difference(bad.p, bad.q, FOUR_PAIRS));
        Sets subnormal = centred;
        for (Eigen::Vector3d& x : subnormal.p) {
            x *= 1e140;
        }
        subnormal.q[0].x() = 1e-300; // scaled by about 2^-467: subnormal, rounded
        EXPECT_FALSE(certainly_inside_difference(subnormal.p, subnormal.q, FOUR_PAIRS));
    }

    /// GJK's own side tests (inside_margin_clears) settle clear overlaps, and only true ones: whenever they claim
    /// one, the exact differences agree.
    TEST(CertainOverlap, GjkSettlesClearOverlapsItself)
    {
        test_support::RandomMotions random(9);
        const TriangleMesh box = box_mesh({ 0.5, 0.3, 0.2 });
        int overlapping = 0, settled = 0;
        for (int trial = 0; trial < 2000; ++trial) {
            const double scale = std::ldexp(1.0, static_cast<int>(random.uniform(-40, 40)));
            const Eigen::Matrix3d ra = random.rotation().toRotationMatrix(), rb = random.rotation().toRotationMatrix();
            const Eigen::Vector3d offset = random.vector(0.5) * scale, far = random.vector(1e3) * scale;
            std::vector<Eigen::Vector3d> p, q;
            for (Eigen::Index v = 0; v < box.vertices.rows(); ++v) {
                const Eigen::Vector3d u = box.vertices.row(v).transpose();
                p.push_back((ra * u) * scale + offset + far);
                q.push_back((rb * u) * scale + far);
            }
            details::HullSimplex simplex;
            if (details::convex_hull_offset(p, q, simplex).squaredNorm() != 0.0 || simplex.size != 4) {
                continue;
            }
            ++overlapping;
            if (simplex.certainly_inside) {
                ++settled;
                EXPECT_TRUE(certainly_inside_difference(p, q, simplex.ids)) << trial;
            }
        }
        EXPECT_GT(overlapping, 500);
        EXPECT_GT(settled, overlapping * 9 / 10);
    }

    /// A thin disc and a 127-sided cylinder spinning in opposite senses: GJK, in double, found their hulls
    /// overlapping 2.7e-8 apart (its tetrahedra nearly flat among the caps' coplanar vertices), and the convex
    /// path reported a hit before the true contact, without contacts. The interval must hold the contact that a
    /// far finer query of the same bodies as soups (the general search) finds.
    TEST(RigidContact, ConvexOverlapsAreCertified)
    {
        const std::filesystem::path data(CCDKIT_TEST_DATA_DIR);
        const TriangleMesh disc = read_mesh(data / "thin_disc_64.obj");
        const TriangleMesh cylinder = read_mesh(data / "cylinder_127.obj");
        const Eigen::Vector3d spin(-1.3189802032776503, 0.97631578599711222, -1.09794912289777);
        // (The centres of mass and the cylinder's position are its vertices' rounded centroids, as the review
        // generated them: other bits may not meet the flat tetrahedra.)
        const RigidMotion disc_motion(
            { Eigen::Quaterniond(-1.0376336332202649, 1.3644900772335065, -0.73212568646138643, 1.0106862546066011),
              Eigen::Vector3d(0.92480539235480386, 0.98180478916629366, 0.61788292781216947) },
            Eigen::Vector3d(-1.3895695680952953, -1.2406391517408857, -0.92912419912847444), spin, 1.0,
            Eigen::Vector3d(7.8062556418956319e-18, 1.1655173354219173e-18, 0));
        const RigidMotion cylinder_motion(
            { Eigen::Quaterniond(0.48115960092161675, 0.23205719536070604, 1.1518411807575457, 1.2528649398289653),
              Eigen::Vector3d(-7.5272575380041574e-17, 6.5648742866382746e-17, -9.1054544380015507e-17) },
            Eigen::Vector3d::Zero(), -spin, 1.0,
            Eigen::Vector3d(-1.1275702593849246e-16, 7.4457584195442017e-17, -2.927345865710862e-18));
        RigidCcdOptions fine;
        fine.eps = 1e-12;
        const RigidCcdResult reference = rigid_time_of_contact(
            { RigidShape::mesh(disc.vertices, disc.faces), disc_motion },
            { RigidShape::mesh(cylinder.vertices, cylinder.faces), cylinder_motion }, fine);
        ASSERT_TRUE(reference.hit);
        RigidCcdOptions options;
        options.eps = 1e-9;
        const RigidBody a { RigidShape::solid(disc.vertices, disc.faces), disc_motion };
        const RigidBody b { RigidShape::solid(cylinder.vertices, cylinder.faces), cylinder_motion };
        for (const bool swapped : { false, true }) {
            const RigidCcdResult r
                = swapped ? rigid_time_of_contact(b, a, options) : rigid_time_of_contact(a, b, options);
            SCOPED_TRACE(swapped ? "cylinder first" : "disc first");
            ASSERT_TRUE(r.hit);
            EXPECT_LE(r.toi_lower, reference.toi_upper);
            EXPECT_GE(r.toi_upper, reference.toi_lower) << "a hit before the bodies touch";
            EXPECT_FALSE(r.contacts.empty());
        }
    }

} // namespace
} // namespace ccdkit
