// SPDX-License-Identifier: MIT
// FCL 0.7 (Debian's libfcl-dev): fcl::continuousCollide between the start and end transforms of both bodies.
//
// Motion model: CCDM_SCREW (fcl::ScrewMotion) for the rotation and screw sets, where the motion is a screw about a
// fixed axis and the screw model is the matching one; CCDM_LINEAR (fcl::InterpMotion: the body origin moves on a
// line, the body turns at constant angular velocity about its origin) for translation and large-angle. Both equal
// the benchmark's motion model on those sets (scene.hpp). The motions are built here and passed to the
// MotionBase overload of continuousCollide: FCL 0.7's InterpMotion(tf1, tf2), which the transform overload uses
// for CCDM_LINEAR, leaves its rotation centre `reference_p` uninitialised (only the default constructor's comment
// says it is zero), so bodies turned about an arbitrary point (large-angle queries were missed by every FCL solver);
// OriginInterpMotion sets it to the body origin and recomputes the velocities.
// Shapes: fcl::Convex for the boxes (GJK with libccd); fcl::BVHModel<OBBRSS> for every mesh pair.
// Solvers: CCDC_CONSERVATIVE_ADVANCEMENT, and CCDC_NAIVE with N samples t = i / (N - 1) (num_max_iterations = N,
// toc_err below 1 / N), which reports the first colliding sample. FCL returns no contact normal.

#include "methods.hpp"

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/math/bv/OBBRSS.h>
#include <fcl/math/motion/interp_motion.h>
#include <fcl/math/motion/screw_motion.h>
#include <fcl/narrowphase/continuous_collision.h>
#include <memory>
#include <string>
#include <vector>

namespace ccdkit::bench {
namespace {
    std::shared_ptr<fcl::CollisionGeometryd> make_convex(const Mesh& mesh)
    {
        auto vertices = std::make_shared<std::vector<fcl::Vector3d>>();
        for (Eigen::Index i = 0; i < mesh.vertices.rows(); ++i) {
            vertices->emplace_back(mesh.vertices.row(i).transpose());
        }
        auto faces = std::make_shared<std::vector<int>>();
        for (Eigen::Index f = 0; f < mesh.faces.rows(); ++f) {
            faces->insert(faces->end(), { 3, mesh.faces(f, 0), mesh.faces(f, 1), mesh.faces(f, 2) });
        }
        return std::make_shared<fcl::Convexd>(vertices, static_cast<int>(mesh.faces.rows()), faces);
    }

    std::shared_ptr<fcl::CollisionGeometryd> make_bvh(const Mesh& mesh)
    {
        std::vector<fcl::Vector3d> vertices;
        for (Eigen::Index i = 0; i < mesh.vertices.rows(); ++i) {
            vertices.emplace_back(mesh.vertices.row(i).transpose());
        }
        std::vector<fcl::Triangle> triangles;
        for (Eigen::Index f = 0; f < mesh.faces.rows(); ++f) {
            triangles.emplace_back(
                static_cast<std::size_t>(mesh.faces(f, 0)), static_cast<std::size_t>(mesh.faces(f, 1)),
                static_cast<std::size_t>(mesh.faces(f, 2)));
        }
        auto model = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
        model->beginModel();
        model->addSubModel(vertices, triangles);
        model->endModel();
        return model;
    }

    /// fcl::InterpMotion turning about the body origin (see the file comment).
    class OriginInterpMotion final : public fcl::InterpMotion<double> {
    public:
        OriginInterpMotion(const fcl::Transform3d& start, const fcl::Transform3d& end)
            : fcl::InterpMotion<double>(start, end)
        {
            reference_p.setZero();
            computeVelocity();
        }
    };

    fcl::Transform3d transform(const RigidPose& pose)
    {
        fcl::Transform3d tf = fcl::Transform3d::Identity();
        tf.linear() = pose.rotation.normalized().toRotationMatrix();
        tf.translation() = pose.translation;
        return tf;
    }

    class FclMethod final : public Method {
    public:
        FclMethod(fcl::CCDSolverType solver, int naive_samples)
            : solver_(solver)
            , naive_samples_(naive_samples)
        {
        }
        [[nodiscard]] std::string name() const override
        {
            return solver_ == fcl::CCDC_CONSERVATIVE_ADVANCEMENT ? "FCL conservative adv."
                                                                 : "FCL naive " + std::to_string(naive_samples_);
        }
        [[nodiscard]] bool supports(const ShapePair&) const override { return true; }
        std::string prepare(const ShapePair& pair, MotionKind kind) override
        {
            const bool convex = pair.kind == PairKind::BOX_BOX;
            a_ = convex ? make_convex(pair.a) : make_bvh(pair.a);
            b_ = convex ? make_convex(pair.b) : make_bvh(pair.b);
            const bool screw = kind == MotionKind::ROTATION || kind == MotionKind::SCREW;
            request_ = fcl::ContinuousCollisionRequestd();
            request_.ccd_motion_type = screw ? fcl::CCDM_SCREW : fcl::CCDM_LINEAR;
            request_.gjk_solver_type = fcl::GST_LIBCCD;
            request_.ccd_solver_type = solver_;
            if (solver_ == fcl::CCDC_NAIVE) {
                request_.num_max_iterations = static_cast<std::size_t>(naive_samples_);
                request_.toc_err = 0.5 / naive_samples_;
            }
            return std::string(screw ? "CCDM_SCREW" : "CCDM_LINEAR") + (convex ? ", Convex" : ", BVHModel<OBBRSS>");
        }
        [[nodiscard]] MethodAnswer run(const Query& query) override
        {
            const auto motion_a = motion(query.a_t0, query.a_t1), motion_b = motion(query.b_t0, query.b_t1);
            fcl::ContinuousCollisionResultd result;
            fcl::continuousCollide(a_.get(), motion_a.get(), b_.get(), motion_b.get(), request_, result);
            MethodAnswer answer;
            answer.hit = result.is_collide;
            answer.toi = result.is_collide ? result.time_of_contact : 1.0;
            return answer;
        }

    private:
        [[nodiscard]] std::unique_ptr<fcl::MotionBased> motion(const RigidPose& start, const RigidPose& end) const
        {
            if (request_.ccd_motion_type == fcl::CCDM_SCREW) {
                return std::make_unique<fcl::ScrewMotion<double>>(transform(start), transform(end));
            }
            return std::make_unique<OriginInterpMotion>(transform(start), transform(end));
        }

        fcl::CCDSolverType solver_;
        int naive_samples_;
        std::shared_ptr<fcl::CollisionGeometryd> a_, b_;
        fcl::ContinuousCollisionRequestd request_;
    };
} // namespace

std::vector<std::unique_ptr<Method>> make_fcl_methods(int naive_samples)
{
    std::vector<std::unique_ptr<Method>> methods;
    methods.push_back(std::make_unique<FclMethod>(fcl::CCDC_CONSERVATIVE_ADVANCEMENT, naive_samples));
    methods.push_back(std::make_unique<FclMethod>(fcl::CCDC_NAIVE, naive_samples));
    return methods;
}

} // namespace ccdkit::bench
