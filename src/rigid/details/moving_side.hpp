// SPDX-License-Identifier: MIT
#pragma once

#include "rigid/details/mesh_shape_data.hpp"

#include <ccdkit/rigid/relative_motion.hpp>

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace ccdkit::details {

/// One body's vertices followed in the other body's coordinates over a time interval: their positions at
/// the interval's ends (computed on first use) and the separation that covers both the arcs' departure from
/// their chords and the rounding of the computed ends.
class MovingSide {
public:
    /// `shape`'s vertices moving in `fixed`'s coordinates.
    MovingSide(const MeshShapeData& shape, const MeshShapeData& fixed, const RelativeMotion& motion)
        : shape_(shape)
        , fixed_(fixed)
        , motion_(motion)
        , radius_((shape.vertices.rowwise() - motion.moving().center_of_mass().transpose()).rowwise().norm().maxCoeff())
        , rounding_(motion.point_error_bound(radius_))
        , start_(static_cast<std::size_t>(shape.vertices.rows()))
        , end_(start_.size())
        , stamp_(start_.size(), 0)
    {
    }

    /// Starts an interval [sa, sb] (fractions of the step).
    void set_interval(double sa, double sb)
    {
        ++current_;
        start_placement_ = motion_.placement_at(sa);
        end_placement_ = motion_.placement_at(sb);
        separation_ = motion_.chord_deviation_bound(radius_, sa, sb) + 2.0 * rounding_;
    }

    /// Position of vertex v at the interval's start / end (the other body's coordinates).
    [[nodiscard]] const Eigen::Vector3d& start(std::int32_t v) { return fetch(v).first; }
    [[nodiscard]] const Eigen::Vector3d& end(std::int32_t v) { return fetch(v).second; }

    /// Every true position of every vertex (and of every point of an edge or face, an affine combination)
    /// during the interval lies within this distance of the linear motion between the computed ends.
    [[nodiscard]] double separation() const { return separation_; }
    /// Largest distance from the centre of mass to a vertex.
    [[nodiscard]] double radius() const { return radius_; }
    [[nodiscard]] const RelativeMotion& motion() const { return motion_; }
    /// The moving body's placement in the other's coordinates at the interval's start and end.
    [[nodiscard]] const RigidPlacement& start_placement() const { return start_placement_; }
    [[nodiscard]] const RigidPlacement& end_placement() const { return end_placement_; }
    [[nodiscard]] const MeshShapeData& shape() const { return shape_; }
    /// The body whose coordinates these are.
    [[nodiscard]] const MeshShapeData& fixed() const { return fixed_; }

private:
    std::pair<const Eigen::Vector3d&, const Eigen::Vector3d&> fetch(std::int32_t v)
    {
        const auto k = static_cast<std::size_t>(v);
        if (stamp_[k] != current_) {
            place(k);
        }
        return { start_[k], end_[k] };
    }
    /// Places vertex k for the current interval. Kept out of fetch()'s inlined fast path (most fetches find the
    /// vertex placed), so that the callers' code does not depend on how much else their file inlines.
    [[gnu::noinline]] void place(std::size_t k)
    {
        const Eigen::Vector3d u = shape_.vertices.row(static_cast<Eigen::Index>(k));
        start_[k] = start_placement_.apply(u);
        end_[k] = end_placement_.apply(u);
        stamp_[k] = current_;
    }

    const MeshShapeData& shape_;
    const MeshShapeData& fixed_;
    RelativeMotion motion_;
    double radius_;
    double rounding_;
    double separation_ = 0.0;
    RigidPlacement start_placement_;
    RigidPlacement end_placement_;
    std::vector<Eigen::Vector3d> start_;
    std::vector<Eigen::Vector3d> end_;
    std::vector<std::uint32_t> stamp_;
    std::uint32_t current_ = 0;
};

} // namespace ccdkit::details
