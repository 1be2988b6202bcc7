// SPDX-License-Identifier: MIT
#include "core/details/ieee_arithmetic_scope.hpp"
#include "rigid/details/contact_searches.hpp"
#include "rigid/details/mesh_shape_data.hpp"

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

    /// Where both bodies lie far out, side by side, and one of them moves: a point from which each start translation
    /// differs exactly (per coordinate b's, where a's less it is exact, else 0), when that brings them NEAR_SHARE as
    /// near the origin or nearer. The question moved there is the same, exactly, and the bounds' rounding (a few ulps
    /// of the coordinates) is that of bodies near the origin. None otherwise: bodies at rest keep the allowance of
    /// their coordinates' rounding, so that a stack placed far out touches where its rounded poses leave a hair
    /// between.
    std::optional<Eigen::Vector3d> near_origin(const RigidMotion& a, const RigidMotion& b)
    {
        const auto still = [](const RigidMotion& m) { return m.step_angle() == 0.0 && m.step_travel() == 0.0; };
        if (still(a) && still(b)) {
            return std::nullopt;
        }
        const Eigen::Vector3d& from_a = a.start().translation;
        const Eigen::Vector3d& from_b = b.start().translation;
        Eigen::Vector3d origin = Eigen::Vector3d::Zero();
        for (Eigen::Index k = 0; k < 3; ++k) {
            // (Knuth's two-sum: the difference's rounding error, exactly.)
            const double difference = from_a[k] - from_b[k];
            const double taken = difference - from_a[k];
            const double error = (from_a[k] - (difference - taken)) + (-from_b[k] - taken);
            origin[k] = error == 0.0 ? from_b[k] : 0.0;
        }
        const double far = std::max(from_a.cwiseAbs().maxCoeff(), from_b.cwiseAbs().maxCoeff());
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
    // near the origin and answered 3e-6 early (eps 1e-6), the rounding of their coordinates exceeding eps times their
    // speed.
    if (const auto origin = near_origin(a.motion, b.motion)) {
        RigidCcdResult result = time_of_contact(
            { a.shape, a.motion.translated(-*origin) }, { b.shape, b.motion.translated(-*origin) }, options);
        for (RigidContact& contact : result.contacts) {
            contact.point += *origin;
        }
        return with_given_vertices(std::move(result), a.shape, b.shape);
    }
    return with_given_vertices(time_of_contact(a, b, options), a.shape, b.shape);
}

} // namespace ccdkit
