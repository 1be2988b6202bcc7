// SPDX-License-Identifier: MIT
#pragma once
// The reference time of contact of the rigid-body comparison benchmark, independent of every method it judges.
//
// Overlap at one time is decided exactly for the posed double coordinates: the two closed surfaces meet (exact
// triangle-triangle test, exact_overlap.hpp) or one solid contains a vertex of the other (ray parity). The time of
// contact is the first of K + 1 evenly spaced samples s_k = k / K at which the bodies overlap, refined by bisection
// between s_(k-1) and s_k to `tolerance`. Samples are skipped only where separation is proven: at a separated
// sample with distance d, no point moves faster than the speed bound L, so nothing touches before s + d / L (half
// of that is used, for rounding); the answer is the one testing every sample would give.
//
// Limitation: a contact that begins and ends between two samples (a graze shorter than 1 / K of the step) is
// missed, and where the overlap comes and goes within (s_(k-1), s_k] bisection finds one of its starts, not
// necessarily the first. The benchmark reports queries where a method finds a contact that the reference does not
// ("ref miss?").

#include "scene.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace ccdkit::bench {

/// Axis-aligned bounding boxes over a mesh's triangles (body coordinates), at most 4 triangles a leaf.
class TriangleTree {
public:
    struct Node {
        Eigen::Vector3d lo, hi;
        std::int32_t left = -1; ///< children left and left + 1; -1 for a leaf
        std::int32_t first = 0; ///< leaf: range [first, first + count) of order()
        std::int32_t count = 0;
    };
    explicit TriangleTree(const Mesh& mesh);
    [[nodiscard]] const std::vector<Node>& nodes() const { return nodes_; }
    [[nodiscard]] const std::vector<std::int32_t>& order() const { return order_; }

private:
    void build(
        const Mesh& mesh,
        const std::vector<Eigen::Vector3d>& centroids,
        std::int32_t node,
        std::int32_t first,
        std::int32_t count);
    std::vector<Node> nodes_;
    std::vector<std::int32_t> order_;
};

/// Overlap and distance of the two bodies of a shape pair at any pose.
class ReferenceScene {
public:
    explicit ReferenceScene(const ShapePair& pair);

    struct Separation {
        bool overlap = false; ///< exact, for the posed double coordinates
        double distance = 0.0; ///< between the surfaces when they do not overlap (double precision)
        Eigen::Vector3d offset = Eigen::Vector3d::Zero(); ///< closest point of a - closest point of b
    };
    /// Overlap of the two bodies at the given poses; the distance only when asked and separated.
    [[nodiscard]] Separation separation(const RigidPose& a, const RigidPose& b, bool want_distance) const;
    [[nodiscard]] Separation at(const Query& query, double s, bool want_distance) const;
    /// Bound on the speed (per unit fraction of the step) of every point of either body relative to the world.
    [[nodiscard]] double speed_bound(const Query& query) const;
    [[nodiscard]] const ShapePair& pair() const { return pair_; }

private:
    ShapePair pair_;
    TriangleTree tree_a_, tree_b_;
    double reach_a_ = 0.0, reach_b_ = 0.0; ///< largest vertex distance from each body origin
};

struct ReferenceOptions {
    std::int32_t samples = 4096; ///< K
    double tolerance = 1e-9; ///< bisection width
};

struct ReferenceToc {
    bool hit = false;
    double toi_lower = 1.0; ///< separated here (a sample or a bisection point)
    double toi_upper = 1.0; ///< overlapping here; toi_upper - toi_lower <= tolerance
    /// Unit direction from b's closest point to a's at toi_lower (the closest feature pair just before contact).
    Eigen::Vector3d normal = Eigen::Vector3d::Zero();
    std::int64_t overlap_tests = 0;
};

[[nodiscard]] ReferenceToc
reference_time_of_contact(const ReferenceScene& scene, const Query& query, const ReferenceOptions& options);

} // namespace ccdkit::bench
