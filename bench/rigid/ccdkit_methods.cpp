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
        /// `contacts`: RigidCcdOptions::contacts (false: the time alone, as FCL's conservative advancement answers).
        CcdkitMethod(RigidCcdMethod method, bool contacts)
            : method_(method)
            , contacts_(contacts)
        {
        }
        [[nodiscard]] std::string name() const override
        {
            const std::string name = method_ == RigidCcdMethod::CONSERVATIVE ? "ccdkit CONSERVATIVE" : "ccdkit CHORD";
            return contacts_ ? name : name + ", times only";
        }
        [[nodiscard]] bool supports(const ShapePair&) const override { return true; }
        std::string prepare(const ShapePair& pair, MotionKind) override
        {
            a_ = RigidShape::solid(pair.a.vertices, pair.a.faces);
            b_ = RigidShape::solid(pair.b.vertices, pair.b.faces);
            return contacts_ ? "rigid_time_of_contact, RigidMotion::between, eps 1e-6, time = toi_lower"
                             : "rigid_time_of_contact without contacts (options.contacts false), eps 1e-6";
        }
        [[nodiscard]] MethodAnswer run(const Query& query) override
        {
            const RigidBody a { *a_, RigidMotion::between(query.a_t0, query.a_t1) };
            const RigidBody b { *b_, RigidMotion::between(query.b_t0, query.b_t1) };
            RigidCcdOptions options;
            options.method = method_;
            options.contacts = contacts_;
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
        bool contacts_;
        std::optional<RigidShape> a_, b_;
    };
} // namespace

std::vector<std::unique_ptr<Method>> make_ccdkit_methods()
{
    std::vector<std::unique_ptr<Method>> methods;
    methods.push_back(std::make_unique<CcdkitMethod>(RigidCcdMethod::CONSERVATIVE, true));
    methods.push_back(std::make_unique<CcdkitMethod>(RigidCcdMethod::CONSERVATIVE, false));
    methods.push_back(std::make_unique<CcdkitMethod>(RigidCcdMethod::CHORD, true));
    return methods;
}

} // namespace ccdkit::bench
