// SPDX-License-Identifier: MIT
// Bullet 3.24, double-precision build (Debian's libbullet-dev, pkg-config bullet-float64, BT_USE_DOUBLE_PRECISION).
//
// - Convex pairs (box-box): btContinuousConvexCollision between two btConvexHullShapes (margin 0), both bodies
//   moving (btTransformUtil: the origin moves on a line, the body turns at constant angular velocity about its
//   origin: the benchmark's model).
// - Convex against a static mesh: btCollisionWorld::convexSweepTest of a btConvexHullShape (margin 0) against a
//   btBvhTriangleMeshShape (margin 0), ClosestConvexResultCallback. The sweep casts the shape from its start to
//   its end transform against each triangle with btContinuousConvexCollision.
// - Two non-convex meshes: Bullet has no continuous test (btGImpactMeshShape collides only at one time): n/a.

#include "methods.hpp"

#include <BulletCollision/NarrowPhaseCollision/btContinuousConvexCollision.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#include <btBulletCollisionCommon.h>
#include <memory>
#include <stdexcept>

namespace ccdkit::bench {
namespace {
    btTransform transform(const RigidPose& pose)
    {
        const Eigen::Quaterniond q = pose.rotation.normalized();
        return btTransform(
            btQuaternion(q.x(), q.y(), q.z(), q.w()),
            btVector3(pose.translation.x(), pose.translation.y(), pose.translation.z()));
    }

    std::unique_ptr<btConvexHullShape> make_hull(const Mesh& mesh)
    {
        auto hull = std::make_unique<btConvexHullShape>();
        for (Eigen::Index i = 0; i < mesh.vertices.rows(); ++i) {
            hull->addPoint(btVector3(mesh.vertices(i, 0), mesh.vertices(i, 1), mesh.vertices(i, 2)), false);
        }
        hull->recalcLocalAabb();
        hull->setMargin(0.0);
        return hull;
    }

    Eigen::Vector3d to_eigen(const btVector3& v) { return Eigen::Vector3d(v.x(), v.y(), v.z()); }

    class BulletConvexCast final : public Method {
    public:
        [[nodiscard]] std::string name() const override { return "Bullet"; }
        [[nodiscard]] bool supports(const ShapePair& pair) const override { return pair.kind == PairKind::BOX_BOX; }
        std::string prepare(const ShapePair& pair, MotionKind) override
        {
            a_ = make_hull(pair.a);
            b_ = make_hull(pair.b);
            return "btContinuousConvexCollision, btConvexHullShape, margin 0";
        }
        [[nodiscard]] MethodAnswer run(const Query& query) override
        {
            btVoronoiSimplexSolver simplex;
            btGjkEpaPenetrationDepthSolver penetration;
            btContinuousConvexCollision cast(a_.get(), b_.get(), &simplex, &penetration);
            btConvexCast::CastResult result;
            const bool hit = cast.calcTimeOfImpact(
                transform(query.a_t0), transform(query.a_t1), transform(query.b_t0), transform(query.b_t1), result);
            MethodAnswer answer;
            answer.hit = hit;
            answer.toi = hit ? result.m_fraction : 1.0;
            if (hit && result.m_normal.length2() > 0.0) {
                answer.has_normal = true;
                answer.normal = to_eigen(result.m_normal).normalized();
            }
            return answer;
        }

    private:
        std::unique_ptr<btConvexHullShape> a_, b_;
    };

    class BulletSweep final : public Method {
    public:
        [[nodiscard]] std::string name() const override { return "Bullet"; }
        [[nodiscard]] bool supports(const ShapePair& pair) const override
        {
            return pair.kind == PairKind::CONVEX_MESH && !pair.b_moves;
        }
        std::string prepare(const ShapePair& pair, MotionKind) override
        {
            world_.reset();
            object_.reset();
            mesh_shape_.reset();
            triangles_ = std::make_unique<btTriangleMesh>(true, false);
            for (Eigen::Index f = 0; f < pair.b.faces.rows(); ++f) {
                btVector3 corners[3];
                for (int i = 0; i < 3; ++i) {
                    const Eigen::Index v = pair.b.faces(f, i);
                    corners[i] = btVector3(pair.b.vertices(v, 0), pair.b.vertices(v, 1), pair.b.vertices(v, 2));
                }
                triangles_->addTriangle(corners[0], corners[1], corners[2], false);
            }
            mesh_shape_ = std::make_unique<btBvhTriangleMeshShape>(triangles_.get(), true);
            mesh_shape_->setMargin(0.0);
            hull_ = make_hull(pair.a);
            configuration_ = std::make_unique<btDefaultCollisionConfiguration>();
            dispatcher_ = std::make_unique<btCollisionDispatcher>(configuration_.get());
            broadphase_ = std::make_unique<btDbvtBroadphase>();
            world_ = std::make_unique<btCollisionWorld>(dispatcher_.get(), broadphase_.get(), configuration_.get());
            object_ = std::make_unique<btCollisionObject>();
            object_->setCollisionShape(mesh_shape_.get());
            object_->setWorldTransform(btTransform::getIdentity());
            world_->addCollisionObject(object_.get());
            world_->updateAabbs();
            return "convexSweepTest, btConvexHullShape vs btBvhTriangleMeshShape, margin 0";
        }
        [[nodiscard]] MethodAnswer run(const Query& query) override
        {
            const btTransform from = transform(query.a_t0), to = transform(query.a_t1);
            btCollisionWorld::ClosestConvexResultCallback callback(from.getOrigin(), to.getOrigin());
            world_->convexSweepTest(hull_.get(), from, to, callback);
            MethodAnswer answer;
            answer.hit = callback.hasHit();
            answer.toi = answer.hit ? callback.m_closestHitFraction : 1.0;
            if (answer.hit && callback.m_hitNormalWorld.length2() > 0.0) {
                answer.has_normal = true;
                answer.normal = to_eigen(callback.m_hitNormalWorld).normalized();
            }
            return answer;
        }

    private:
        std::unique_ptr<btTriangleMesh> triangles_;
        std::unique_ptr<btBvhTriangleMeshShape> mesh_shape_;
        std::unique_ptr<btConvexHullShape> hull_;
        std::unique_ptr<btDefaultCollisionConfiguration> configuration_;
        std::unique_ptr<btCollisionDispatcher> dispatcher_;
        std::unique_ptr<btDbvtBroadphase> broadphase_;
        std::unique_ptr<btCollisionObject> object_;
        std::unique_ptr<btCollisionWorld> world_; ///< last: destroyed first, while what it points to still exists
    };

    /// One column for Bullet: the convex cast for convex pairs, the sweep against a static mesh, n/a otherwise.
    class Bullet final : public Method {
    public:
        [[nodiscard]] std::string name() const override { return "Bullet"; }
        [[nodiscard]] bool supports(const ShapePair& pair) const override
        {
            return cast_.supports(pair) || sweep_.supports(pair);
        }
        std::string prepare(const ShapePair& pair, MotionKind kind) override
        {
            active_ = cast_.supports(pair) ? static_cast<Method*>(&cast_) : &sweep_;
            return active_->prepare(pair, kind);
        }
        [[nodiscard]] MethodAnswer run(const Query& query) override { return active_->run(query); }

    private:
        BulletConvexCast cast_;
        BulletSweep sweep_;
        Method* active_ = nullptr;
    };
} // namespace

std::vector<std::unique_ptr<Method>> make_bullet_methods()
{
    std::vector<std::unique_ptr<Method>> methods;
    methods.push_back(std::make_unique<Bullet>());
    return methods;
}

} // namespace ccdkit::bench
