// SPDX-License-Identifier: MIT
#include "core/details/ieee_arithmetic_scope.hpp"
#include "rigid/details/contact_searches.hpp"
#include "rigid/details/mesh_shape_data.hpp"
#include "rigid/details/rounding.hpp"

#include <ccdkit/rigid/rigid_contact.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace ccdkit {

void check_rigid_ccd_options(const RigidCcdOptions& options)
{
    const auto in_unit = [](double x) { return std::isfinite(x) && x > 0.0 && x <= 1.0; };
    const auto fail = [](const char* what, double value) {
        std::ostringstream message; // (1e-300 as such, not std::to_string's 0.000000)
        message << "rigid time of contact: " << what << ", got " << value;
        throw std::invalid_argument(message.str());
    };
    if (!in_unit(options.eps)) {
        fail("eps must be in (0, 1]", options.eps);
    }
    if (!in_unit(options.t_max)) {
        fail("t_max must be in (0, 1]", options.t_max);
    }
    if (!std::isfinite(options.chord_tolerance) || options.chord_tolerance < 0.0) {
        fail("chord_tolerance must be finite and >= 0", options.chord_tolerance);
    }
    if (!std::isfinite(options.surface_resolution) || options.surface_resolution < 0.0) {
        fail("surface_resolution must be finite and >= 0", options.surface_resolution);
    }
    if (options.max_surface_regions == 0) {
        throw std::invalid_argument("rigid time of contact: max_surface_regions must be >= 1, got 0");
    }
    for (const auto& [name, limit] : { std::pair { "max_surface_tests", options.max_surface_tests },
                                       std::pair { "max_pair_tests", options.max_pair_tests } }) {
        if (limit < 1) {
            throw std::invalid_argument(
                std::string("rigid time of contact: ") + name + " must be >= 1, got " + std::to_string(limit));
        }
    }
}

namespace {

    /// The contacts' vertex features numbered as the meshes given number them: the search numbers the vertices that
    /// faces use (MeshShapeData::input_rows; the same numbers where every vertex is used).
    RigidCcdResult with_given_vertices(RigidCcdResult result, const RigidShape& a, const RigidShape& b)
    {
        const auto renumbered
            = [](const RigidShape& shape) { return !shape.is_implicit() && !shape.mesh_data().input_rows.empty(); };
        if (!renumbered(a) && !renumbered(b)) {
            return result;
        }
        const auto renumber = [](const RigidShape& shape, RigidFeature& feature) {
            if (feature.kind == RigidFeatureKind::VERTEX && !shape.is_implicit()) {
                feature.index = shape.mesh_data().input_row(feature.index);
            }
        };
        for (RigidContact& contact : result.contacts) {
            renumber(a, contact.feature_a);
            renumber(b, contact.feature_b);
        }
        return result;
    }

    /// How much nearer the origin the bodies' start translations must come for near_origin to move the world.
    constexpr double NEAR_SHARE = 1.0 / 64.0;
    /// Share of eps times the bodies' speed (per step) beyond which the rounding of their coordinates counts: the
    /// convex path slows down from about a tenth (boxes 1e7 out), and the answers come early by about the rounding over
    /// the speed.
    constexpr double ROUNDING_SHARE = 1.0 / 128.0;

    /// A bound on the distance of the body's points from its centre of mass.
    double reach_of(const RigidBody& body)
    {
        const double from_origin = body.shape.is_implicit() ? body.shape.implicit_shape().bounding_radius()
                                                            : body.shape.mesh_data().origin_radius;
        return from_origin + body.motion.center_of_mass().norm();
    }

    /// Where the bodies lie so far out that the rounding of their coordinates (a few dozen ulps of the largest) counts
    /// against eps times their speed (ROUNDING_SHARE), side by side: a point from which each start translation differs
    /// exactly (per coordinate b's, where a's less it is exact, else 0), when that brings them NEAR_SHARE as near the
    /// origin or nearer. The question moved there is the same, exactly, and its rounding that of bodies near the
    /// origin. None otherwise (bodies at rest included: their speed is 0).
    std::optional<Eigen::Vector3d> near_origin(const RigidBody& a, const RigidBody& b, double eps)
    {
        const Eigen::Vector3d& from_a = a.motion.start().translation;
        const Eigen::Vector3d& from_b = b.motion.start().translation;
        const double far = std::max(from_a.cwiseAbs().maxCoeff(), from_b.cwiseAbs().maxCoeff());
        const double speed = a.motion.step_travel() + b.motion.step_travel() + a.motion.step_angle() * reach_of(a)
            + b.motion.step_angle() * reach_of(b);
        if (!(64.0 * details::UNIT_ROUNDOFF * far > ROUNDING_SHARE * eps * speed) || !(speed > 0.0)) {
            return std::nullopt;
        }
        Eigen::Vector3d origin = Eigen::Vector3d::Zero();
        for (Eigen::Index k = 0; k < 3; ++k) {
            // (Knuth's two-sum: the difference's rounding error, exactly.)
            const double difference = from_a[k] - from_b[k];
            const double taken = difference - from_a[k];
            const double error = (from_a[k] - (difference - taken)) + (-from_b[k] - taken);
            origin[k] = error == 0.0 ? from_b[k] : 0.0;
        }
        const double near = std::max((from_a - origin).cwiseAbs().maxCoeff(), (from_b - origin).cwiseAbs().maxCoeff());
        return near <= NEAR_SHARE * far ? std::optional<Eigen::Vector3d>(origin) : std::nullopt;
    }

    RigidCcdResult time_of_contact(const RigidBody& a, const RigidBody& b, const RigidCcdOptions& options)
    {
        if (b.shape.is_implicit()) {
            return details::surface_time_of_contact(a, b, options);
        }
        if (a.shape.is_implicit()) {
            return details::with_roles_exchanged(details::surface_time_of_contact(b, a, options));
        }
        return details::mesh_time_of_contact(a, b, options);
    }

} // namespace

RigidCcdResult rigid_time_of_contact(const RigidBody& a, const RigidBody& b, const RigidCcdOptions& options)
{
    check_rigid_ccd_options(options);
    if (a.motion.duration() != b.motion.duration()) {
        throw std::invalid_argument("rigid time of contact: the two bodies' steps differ in length");
    }
    const details::IeeeArithmeticScope ieee; // the certified distances and steps assume gradual underflow
    // Far out, moving bodies meet in a frame near them (near_origin): boxes 4e7 out had taken 12 times as long as
    // near the origin and answered 3e-6 early (eps 1e-6). Where that finds no contact, the bodies as placed decide,
    // with the allowance of their coordinates' rounding: a box resting far out on another and sliding along it still
    // touches at the start where its rounded pose leaves a hair between them.
    if (const auto origin = near_origin(a, b, options.eps)) {
        RigidCcdResult result = time_of_contact(
            { a.shape, a.motion.translated(-*origin) }, { b.shape, b.motion.translated(-*origin) }, options);
        if (result.hit) {
            for (RigidContact& contact : result.contacts) {
                contact.point += *origin;
            }
            return with_given_vertices(std::move(result), a.shape, b.shape);
        }
    }
    return with_given_vertices(time_of_contact(a, b, options), a.shape, b.shape);
}

} // namespace ccdkit
