// SPDX-License-Identifier: MIT
#include "methods.hpp"

#include <ccdkit/rigid/rigid_contact.hpp>
#include <ccdkit/rigid/rigid_motion.hpp>
#include <ccdkit/rigid/rigid_shape.hpp>

#include <optional>

namespace ccdkit::bench {
namespace {
    class CcdkitMethod final : public Method {
    public:
        explicit CcdkitMethod(RigidCcdMethod method)
            : method_(method)
        {
        }
        [[nodiscard]] std::string name() const override
        {
            return method_ == RigidCcdMethod::CONSERVATIVE ? "ccdkit CONSERVATIVE" : "ccdkit CHORD";
        }
        [[nodiscard]] bool supports(const ShapePair&) const override { return true; }
        std::string prepare(const ShapePair& pair, MotionKind) override
        {
            a_ = RigidShape::solid(pair.a.vertices, pair.a.faces);
            b_ = RigidShape::solid(pair.b.vertices, pair.b.faces);
            return "rigid_time_of_contact, RigidMotion::between, eps 1e-6, time = toi_lower";
        }
        [[nodiscard]] MethodAnswer run(const Query& query) override
        {
            const RigidBody a { *a_, RigidMotion::between(query.a_t0, query.a_t1) };
            const RigidBody b { *b_, RigidMotion::between(query.b_t0, query.b_t1) };
            RigidCcdOptions options;
            options.method = method_;
            const RigidCcdResult result = rigid_time_of_contact(a, b, options);
            MethodAnswer answer;
            answer.hit = result.hit;
            answer.toi = result.toi_lower;
            if (result.hit && !result.contacts.empty()) {
                answer.has_normal = true;
                answer.normal = result.contacts.front().normal;
            }
            return answer;
        }

    private:
        RigidCcdMethod method_;
        std::optional<RigidShape> a_, b_;
    };
} // namespace

std::vector<std::unique_ptr<Method>> make_ccdkit_methods()
{
    std::vector<std::unique_ptr<Method>> methods;
    methods.push_back(std::make_unique<CcdkitMethod>(RigidCcdMethod::CONSERVATIVE));
    methods.push_back(std::make_unique<CcdkitMethod>(RigidCcdMethod::CHORD));
    return methods;
}

} // namespace ccdkit::bench
