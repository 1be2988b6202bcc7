// SPDX-License-Identifier: MIT
#include "core/details/ieee_arithmetic_scope.hpp"
#include "rigid/details/contact_searches.hpp"
#include "rigid/details/mesh_shape_data.hpp"

#include <ccdkit/rigid/rigid_contact.hpp>

#include <cmath>
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
    return with_given_vertices(time_of_contact(a, b, options), a.shape, b.shape);
}

} // namespace ccdkit
