// SPDX-License-Identifier: MIT
// A surface against an implicit solid. The surface is covered by regions (its mesh faces, or octree cells
// that straddle an implicit surface), each with a centre and a radius holding it. Over a time interval every
// point of a region stays within radius + speed * width / 2 of the centre's position at the middle of the
// interval (rigid motions keep distances), so a clearance of the solid at that position larger than this
// proves the region apart from the solid throughout. Regions that cannot be proven apart are split in space
// (while they are larger than both the resolution and the distance they travel) and the interval in time
// (earlier half first) until it is narrower than eps and they travel no farther than the resolution in it.
#include "rigid/details/contact_searches.hpp"
#include "rigid/details/local_surface.hpp"
#include "rigid/details/mesh_shape_data.hpp"
#include "rigid/details/near_points.hpp"
#include "rigid/details/rounding.hpp"
#include "rigid/details/solid_containment.hpp"

#include <ccdkit/distance/closest_offset.hpp>
#include <ccdkit/rigid/relative_motion.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <vector>

namespace ccdkit::details {

namespace {

    /// Part of the surface body: a triangle (a mesh face or a piece of one) or a cube cell (implicit).
    struct SurfaceRegion {
        std::array<Eigen::Vector3d, 3> corners; ///< triangle corners; a cell's centre is corners[0]
        double half_size = 0.0; ///< a cell's half edge; 0 for a triangle
        Eigen::Vector3d center = Eigen::Vector3d::Zero();
        double radius = 0.0; ///< every point of the region is within this of `center`
        std::int32_t face = -1; ///< the mesh face it is part of; -1 for a cell

        [[nodiscard]] bool is_cell() const { return half_size > 0.0; }
    };

    /// Children computed from a parent (midpoints, offset centres) cover it only up to the rounding of their
    /// coordinates: a few ulps of the centre's magnitude, added to every region's radius.
    double rounding_of(const Eigen::Vector3d& center) { return 4.0 * UNIT_ROUNDOFF * center.cwiseAbs().maxCoeff(); }

    SurfaceRegion
    triangle_region(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c, std::int32_t face)
    {
        SurfaceRegion r;
        r.corners = { a, b, c };
        r.center = (a + b + c) / 3.0;
        r.radius = rounded_up(std::max({ (a - r.center).norm(), (b - r.center).norm(), (c - r.center).norm() }))
            + rounding_of(r.center);
        r.face = face;
        return r;
    }

    SurfaceRegion cell_region(const Eigen::Vector3d& center, double half_size)
    {
        SurfaceRegion r;
        r.corners = { center, center, center };
        r.half_size = half_size;
        r.center = center;
        r.radius = rounded_up(half_size * std::sqrt(3.0)) + rounding_of(center);
        return r;
    }

    /// The regions that start the search: every face of a mesh, or one cube around an implicit shape.
    std::vector<SurfaceRegion> root_regions(const RigidShape& shape)
    {
        std::vector<SurfaceRegion> out;
        if (shape.is_implicit()) {
            const Aabb box = shape.implicit_shape().bounds();
            const Eigen::Vector3d center = ((box.min + box.max) / 2).matrix();
            out.push_back(cell_region(center, rounded_up(((box.max - box.min) / 2).maxCoeff())));
            return out;
        }
        const auto& v = shape.mesh_data().vertices;
        const auto& f = shape.mesh_data().faces;
        for (Eigen::Index k = 0; k < f.rows(); ++k) {
            out.push_back(triangle_region(
                v.row(f(k, 0)).transpose(), v.row(f(k, 1)).transpose(), v.row(f(k, 2)).transpose(),
                static_cast<std::int32_t>(k)));
        }
        return out;
    }

    /// A size of the shape: its radius about `center`, or half its bounding box's diagonal where smaller (a shape
    /// placed far from its body's origin or centre of mass is no larger for it).
    double size_of(const RigidShape& shape, const Eigen::Vector3d& center)
    {
        Eigen::Array3d low, high;
        if (shape.is_implicit()) {
            const Aabb box = shape.implicit_shape().bounds();
            low = box.min;
            high = box.max;
        } else {
            low = shape.mesh_data().vertices.colwise().minCoeff().transpose().array();
            high = shape.mesh_data().vertices.colwise().maxCoeff().transpose().array();
        }
        const double half_diagonal = rounded_up(0.5 * (high - low).matrix().norm());
        const double radius = shape.radius_about(center);
        return std::isfinite(half_diagonal) ? std::min(radius, half_diagonal) : radius;
    }

    /// Points of a shape's surface, at least one on every connected part: a mesh's component vertices; an
    /// implicit shape's surface samples at an eighth of its size (size_of about its origin; parts smaller than that
    /// may have none: a documented limit of the start-inside check, not of the search), finer where that gives none
    /// (a lens of two spheres' intersection keeps only the children's samples on its own surface).
    std::vector<Eigen::Vector3d> part_points(const RigidShape& shape)
    {
        std::vector<Eigen::Vector3d> out;
        if (!shape.is_implicit()) {
            for (const std::int32_t v : shape.mesh_data().component_vertices) {
                out.push_back(shape.mesh_data().vertices.row(v).transpose());
            }
            return out;
        }
        constexpr double SPACING_FRACTION = 1.0 / 8.0;
        constexpr int FINER_TRIES = 3; // (each halves the spacing: up to 1/64 of the size, 64 times the samples)
        const ImplicitShape& implicit = shape.implicit_shape();
        double spacing = SPACING_FRACTION * size_of(shape, Eigen::Vector3d::Zero());
        for (int k = 0; k <= FINER_TRIES && out.empty() && spacing > 0.0; ++k, spacing *= 0.5) {
            for (const SurfaceSample& sample : implicit.sample_surface(spacing)) {
                out.push_back(sample.point);
            }
        }
        return out;
    }

    /// Whether `p` (the solid body's coordinates) lies inside that body.
    bool inside(const RigidShape& shape, const Eigen::Vector3d& p)
    {
        if (shape.is_implicit()) {
            return shape.implicit_shape().signed_distance(p) < 0.0;
        }
        return shape.is_solid() && inside_solid(p, shape.mesh_data().vertices, shape.mesh_data().faces);
    }

    struct Found {
        double lower = 0.0;
        double upper = 0.0;
        std::vector<SurfaceRegion> regions;
    };

    class SurfaceSearch {
    public:
        SurfaceSearch(const RigidBody& surface, const RigidBody& solid, const RigidCcdOptions& options)
            : surface_(surface)
            , solid_(solid)
            , implicit_(solid.shape.implicit_shape())
            , options_(options)
            , motion_(surface.motion, solid.motion)
        {
            const double smaller = std::min(
                size_of(surface.shape, surface.motion.center_of_mass()),
                size_of(solid.shape, solid.motion.center_of_mass()));
            constexpr double DEFAULT_RESOLUTION = 1e-2;
            resolution_ = options.surface_resolution > 0.0 ? options.surface_resolution : DEFAULT_RESOLUTION * smaller;
        }

        RigidCcdResult run()
        {
            stats_.surface_resolution = resolution_;
            if (is_empty(surface_.shape) || is_empty(solid_.shape)) {
                // An empty implicit solid (bounds with min > max: the intersection of disjoint shapes) touches
                // nothing; its bounds would give the search a region centred at NaN that no clearance rules out.
                return details::result_of(
                    std::optional<Found>(), options_, stats_, [](const Found&) { return std::vector<RigidContact>(); });
            }
            std::optional<Found> found = starts_inside();
            if (!found) {
                found = search();
            }
            stats_.surface_resolution = resolution_;
            return details::result_of(found, options_, stats_, [this](const Found& f) { return contacts_at(f); });
        }

    private:
        [[nodiscard]] static bool is_empty(const RigidShape& shape)
        {
            if (!shape.is_implicit()) {
                return false;
            }
            const Aabb box = shape.implicit_shape().bounds();
            return (box.min > box.max).any(); // (strictly: bounds that are not numbers prove nothing)
        }

        /// The surface starts inside the solid (whole, or the regions would have touched), or the solid inside a
        /// solid surface body: a contact at t = 0 at the first part point found inside (a region of no extent, so
        /// that it carries a point and the implicit normal like any other contact).
        std::optional<Found> starts_inside() const
        {
            // A part of the surface body inside the solid is also found by the search (its regions cannot be
            // proven apart); testing the parts here answers exactly t = 0.
            for (const Eigen::Vector3d& p : part_points(surface_.shape)) {
                if (inside(solid_.shape, motion_.point_at(p, 0.0))) {
                    return Found { 0.0, 0.0, { point_region(p) } };
                }
            }
            if (!surface_.shape.is_solid()) {
                return std::nullopt;
            }
            const RelativeMotion solid_in_surface(solid_.motion, surface_.motion);
            for (const Eigen::Vector3d& q : part_points(solid_.shape)) {
                const Eigen::Vector3d p = solid_in_surface.point_at(q, 0.0);
                if (inside(surface_.shape, p)) {
                    return Found { 0.0, 0.0, { point_region(p) } };
                }
            }
            return std::nullopt;
        }

        /// A region of no extent at surface-body point p, part of the mesh face nearest it (none for an implicit
        /// surface).
        SurfaceRegion point_region(const Eigen::Vector3d& p) const
        {
            std::int32_t nearest = -1;
            if (!surface_.shape.is_implicit()) {
                const auto& v = surface_.shape.mesh_data().vertices;
                const auto& f = surface_.shape.mesh_data().faces;
                double distance = std::numeric_limits<double>::infinity();
                for (Eigen::Index k = 0; k < f.rows(); ++k) {
                    const double d
                        = point_triangle_closest_offset<double>(
                              p, v.row(f(k, 0)).transpose(), v.row(f(k, 1)).transpose(), v.row(f(k, 2)).transpose())
                              .norm();
                    if (d < distance) {
                        distance = d;
                        nearest = static_cast<std::int32_t>(k);
                    }
                }
            }
            return triangle_region(p, p, p, nearest);
        }

        /// The first interval with a contact. Where the regions at the resolution would exceed the options'
        /// max_surface_regions, or its tests max_surface_tests, the search starts over at a coarser resolution
        /// (start_over).
        std::optional<Found> search()
        {
            const int count = top_interval_count(surface_, solid_, options_.t_max);
            for (;;) {
                store_ = root_regions(surface_.shape);
                std::vector<std::uint32_t> roots(store_.size());
                std::iota(roots.begin(), roots.end(), 0U);
                restart_resolution_ = 0.0;
                tests_at_start_ = stats_.pair_tests;
                finest_split_ = std::numeric_limits<double>::infinity();
                std::optional<Found> found;
                for (int k = 0; k < count && !found && !starting_over(); ++k) {
                    const double sa = options_.t_max * k / count;
                    const double sb = k + 1 == count ? options_.t_max : options_.t_max * (k + 1) / count;
                    found = refine(sa, sb, roots);
                }
                if (!starting_over()) {
                    return found;
                }
                resolution_ = restart_resolution_;
                ++stats_.surface_restarts;
            }
        }

        /// The regions (positions in store_) that may touch the solid in [sa, sb], split where needed; then the
        /// earlier half first. Regions split here are appended to store_ and dropped again when the interval holds
        /// no contact: the store holds only the regions of the intervals being refined (a region at the resolution
        /// is held once, however many halvings of time keep it), so memory grows with the regions at the contact,
        /// not with them times the halvings.
        std::optional<Found> refine(double sa, double sb, const std::vector<std::uint32_t>& regions)
        {
            ++stats_.intervals;
            const std::size_t mark = store_.size();
            const RigidPlacement middle = motion_.placement_at(sa + 0.5 * (sb - sa));
            std::vector<std::uint32_t> survivors;
            std::vector<SurfaceRegion> pending; // split regions still to test
            double largest_travel = 0.0; // of the survivors
            // How far a region may reach over the interval, and whether it must be split first.
            struct Test {
                bool clear;
                bool split;
                double travel;
            };
            const auto test = [&](const SurfaceRegion& region) {
                ++stats_.pair_tests;
                const double arm = (region.center - surface_.motion.center_of_mass()).norm() + region.radius;
                const double travel = motion_.speed_bound(arm, sa, sb) * (sb - sa) / 2.0;
                const double reach = region.radius + travel + motion_.point_error_bound(arm);
                const bool clear = implicit_.clearance(middle.apply(region.center)) > rounded_up(reach);
                const bool split = !clear && region.radius > resolution_ && region.radius > travel;
                if (split) {
                    finest_split_ = std::min(finest_split_, region.radius);
                }
                if (split && store_.size() + pending.size() >= max_regions_) {
                    start_over(region.radius); // (out of room: the regions of this size are too many)
                } else if (
                    stats_.pair_tests - tests_at_start_ > options_.max_surface_tests && std::isfinite(finest_split_)) {
                    // Out of time: the next search splits no region as small as this one's smallest split (where
                    // nothing was split, a coarser resolution would test the same regions: the search goes on).
                    start_over(finest_split_);
                }
                return Test { clear, split, travel };
            };
            const auto keep = [&](std::uint32_t index, double travel) {
                survivors.push_back(index);
                largest_travel = std::max(largest_travel, travel);
            };
            // (The last first, as the search did when it kept the regions on a stack: ties among the contacts' gaps
            // keep their order.)
            for (auto r = regions.rbegin(); r != regions.rend() && !starting_over(); ++r) {
                const std::uint32_t index = *r;
                const Test t = test(store_[index]);
                if (t.split) {
                    split(store_[index], pending);
                } else if (!t.clear) {
                    keep(index, t.travel);
                }
                while (!pending.empty() && !starting_over()) {
                    const SurfaceRegion region = pending.back();
                    pending.pop_back();
                    const Test u = test(region);
                    if (u.split) {
                        split(region, pending);
                    } else if (!u.clear) {
                        store_.push_back(region);
                        keep(static_cast<std::uint32_t>(store_.size() - 1), u.travel);
                    }
                }
            }
            if (survivors.empty() || starting_over()) {
                store_.resize(mark);
                return std::nullopt;
            }
            // Narrower than eps, and the survivors travel within the resolution over the interval: their reach (so
            // how early a contact is reported) is then about the resolution, not the distance covered in eps.
            const double mid = sa + 0.5 * (sb - sa);
            if ((sb - sa <= options_.eps && largest_travel <= resolution_) || !(mid > sa && mid < sb)) {
                Found found { sa, sb, {} };
                found.regions.reserve(survivors.size());
                for (const std::uint32_t index : survivors) {
                    found.regions.push_back(store_[index]);
                }
                return found;
            }
            if (auto found = refine(sa, mid, survivors)) {
                return found;
            }
            if (starting_over()) {
                return std::nullopt; // (the search starts over)
            }
            if (auto found = refine(mid, sb, survivors)) {
                return found;
            }
            store_.resize(mark);
            return std::nullopt;
        }

        /// Four triangles from the sides' midpoints, or eight sub-cubes of which those that may hold some of the
        /// implicit surface (neither clear of the solid nor deep inside it).
        void split(const SurfaceRegion& region, std::vector<SurfaceRegion>& out) const
        {
            if (!region.is_cell()) {
                const auto& [a, b, c] = region.corners;
                const Eigen::Vector3d ab = (a + b) / 2.0, bc = (b + c) / 2.0, ca = (c + a) / 2.0;
                out.push_back(triangle_region(a, ab, ca, region.face));
                out.push_back(triangle_region(ab, b, bc, region.face));
                out.push_back(triangle_region(ca, bc, c, region.face));
                out.push_back(triangle_region(ab, bc, ca, region.face));
                return;
            }
            const ImplicitShape& own = surface_.shape.implicit_shape();
            const double half = region.half_size / 2.0;
            for (int k = 0; k < 8; ++k) {
                const Eigen::Vector3d offset((k & 1 ? half : -half), (k & 2 ? half : -half), (k & 4 ? half : -half));
                SurfaceRegion child = cell_region(region.center + offset, half);
                if (own.clearance(child.center) > child.radius || own.depth(child.center) > child.radius) {
                    continue;
                }
                out.push_back(child);
            }
        }

        /// One contact per surface region left at the end, closest first, those within twice the resolution
        /// of a closer one merged into it.
        std::vector<RigidContact> contacts_at(const Found& found) const
        {
            const RigidPlacement at = motion_.placement_at(found.upper);
            const Eigen::Matrix3d solid_rotation = solid_.motion.rotation_at(found.upper);
            std::vector<std::pair<double, const SurfaceRegion*>> ordered;
            for (const SurfaceRegion& region : found.regions) {
                const double gap = implicit_.signed_distance(at.apply(region.center)) - region.radius;
                ordered.emplace_back(std::max(gap, 0.0), &region);
            }
            std::sort(ordered.begin(), ordered.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
            std::vector<RigidContact> contacts;
            const double merge = 2.0 * resolution_;
            NearPoints kept(merge);
            for (const auto& [gap, region] : ordered) {
                const Eigen::Vector3d local = at.apply(region->center);
                if (kept.any_within(local, merge)) {
                    continue;
                }
                kept.insert(local);
                RigidContact c;
                c.point = surface_.motion.point_at(region->center, found.upper);
                c.normal = solid_rotation * contact_normal(*region, local, at.rotation);
                c.gap = gap;
                c.feature_a = region->face >= 0 ? RigidFeature { RigidFeatureKind::FACE, region->face }
                                                : RigidFeature { RigidFeatureKind::SURFACE, -1 };
                c.feature_b = { RigidFeatureKind::SURFACE, -1 };
                contacts.push_back(c);
            }
            return contacts;
        }

        /// The normal at a region's contact (`local`: its centre in the solid's coordinates; `turn`: the surface body's
        /// rotation into them), out of the solid (local_surface.hpp). The solid's own normal alone, which runs sideways
        /// beside its corners and edges, was off the exact contact's by a median of 12 degrees (56% over 10) between
        /// two implicit boxes turned at random.
        [[nodiscard]] Eigen::Vector3d
        contact_normal(const SurfaceRegion& region, const Eigen::Vector3d& local, const Eigen::Matrix3d& turn) const
        {
            const LocalSurface solid = implicit_surface_near(implicit_, local, region.radius);
            if (region.is_cell()) {
                return contact_normal_between(
                    solid,
                    implicit_surface_near(surface_.shape.implicit_shape(), region.center, region.radius).turned(turn),
                    surface_.shape.is_solid());
            }
            if (region.face >= 0 && !surface_.shape.is_implicit()) {
                return contact_normal_between(
                    solid,
                    face_surface_near(surface_.shape.mesh_data(), region.face, region.center, region.radius)
                        .turned(turn),
                    surface_.shape.is_solid());
            }
            return solid.normal;
        }

        const RigidBody& surface_;
        const RigidBody& solid_;
        const ImplicitShape& implicit_;
        RigidCcdOptions options_;
        RelativeMotion motion_; ///< the surface body in the solid body's coordinates
        double resolution_ = 0.0;
        std::vector<SurfaceRegion> store_; ///< the regions of the intervals being refined (refine)
        /// The options' max_surface_regions, within the 32-bit positions of store_ that refine passes on.
        std::size_t max_regions_ = std::min<std::size_t>(options_.max_surface_regions, std::size_t { 1 } << 31);
        /// The resolution the search starts over at, once it has run out of room (max_surface_regions) or time
        /// (max_surface_tests) at the present one: at least twice that, and at least the size of the regions it could
        /// not split (room) or of the smallest it split (time), so that every start splits less (0: not starting
        /// over). It ends: once the resolution exceeds every region's size nothing is split, and then neither limit
        /// starts it over.
        double restart_resolution_ = 0.0;
        std::int64_t tests_at_start_ = 0; ///< stats_.pair_tests when the present resolution's search began
        double finest_split_ = std::numeric_limits<double>::infinity(); ///< the smallest radius of a region split at
                                                                        ///< the present resolution (inf: none)
        [[nodiscard]] bool starting_over() const { return restart_resolution_ > 0.0; }
        void start_over(double region_radius)
        {
            restart_resolution_ = std::max(
                { restart_resolution_, 2.0 * resolution_, region_radius, std::numeric_limits<double>::min() });
        }
        RigidCcdStats stats_;
    };

} // namespace

RigidCcdResult surface_time_of_contact(const RigidBody& surface, const RigidBody& solid, const RigidCcdOptions& options)
{
    return SurfaceSearch(surface, solid, options).run();
}

} // namespace ccdkit::details
