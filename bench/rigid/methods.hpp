// SPDX-License-Identifier: MIT
#pragma once
// The methods the rigid-body comparison benchmark runs on every query: ccdkit's two, FCL's and Bullet's. Each
// builds its own shapes once per shape pair and motion set (untimed) and then answers queries from the two
// bodies' start and end poses (timed: building its motion objects and the call).

#include "motion_sets.hpp"
#include "scene.hpp"

#include <Eigen/Core>

#include <memory>
#include <string>
#include <vector>

namespace ccdkit::bench {

struct MethodAnswer {
    bool hit = false;
    double toi = 1.0; ///< reported time of contact, fraction of the step
    bool has_normal = false;
    Eigen::Vector3d normal = Eigen::Vector3d::Zero(); ///< unit, from body b towards body a (converted if needed)
};

class Method {
public:
    virtual ~Method() = default;
    [[nodiscard]] virtual std::string name() const = 0;
    /// Whether the method can answer this pair at all (otherwise the table says n/a).
    [[nodiscard]] virtual bool supports(const ShapePair& pair) const = 0;
    /// Builds the shapes; returns a short note on the model and settings used for this set.
    virtual std::string prepare(const ShapePair& pair, MotionKind kind) = 0;
    [[nodiscard]] virtual MethodAnswer run(const Query& query) = 0;
};

/// ccdkit CONSERVATIVE and CHORD (rigid_time_of_contact, default options).
[[nodiscard]] std::vector<std::unique_ptr<Method>> make_ccdkit_methods();
/// FCL 0.7 continuousCollide: conservative advancement, and naive sampling with `naive_samples` samples.
[[nodiscard]] std::vector<std::unique_ptr<Method>> make_fcl_methods(int naive_samples);
/// Bullet 3 (double): btContinuousConvexCollision for convex pairs, convexSweepTest against a static mesh.
[[nodiscard]] std::vector<std::unique_ptr<Method>> make_bullet_methods();

} // namespace ccdkit::bench
