// SPDX-License-Identifier: MIT
// A sampled grid as a node of an implicit shape: every query is the grid's own.
#include "rigid/details/implicit_node.hpp"

#include <utility>

namespace ccdkit::details {

namespace {
    using Eigen::Vector3d;

    class GridNode final : public ImplicitNode {
    public:
        explicit GridNode(SignedDistanceGrid grid)
            : grid_(std::move(grid))
        {
        }
        [[nodiscard]] double signed_distance(const Vector3d& x) const override { return grid_.signed_distance(x); }
        [[nodiscard]] CertifiedDistances certified_distances(const Vector3d& x) const override
        {
            return { grid_.clearance(x), grid_.depth(x) };
        }
        [[nodiscard]] Vector3d normal(const Vector3d& x) const override { return grid_.normal(x); }
        [[nodiscard]] Aabb bounds() const override { return grid_.solid_bounds(); }
        [[nodiscard]] double bounding_radius() const override { return grid_.bounding_radius(); }
        void sample_surface(double spacing, std::vector<SurfaceSample>& out) const override
        {
            const std::vector<SurfaceSample> samples = grid_.sample_surface(spacing);
            out.insert(out.end(), samples.begin(), samples.end());
        }

    private:
        SignedDistanceGrid grid_;
    };
} // namespace

NodePtr make_grid_node(SignedDistanceGrid grid) { return std::make_shared<GridNode>(std::move(grid)); }

} // namespace ccdkit::details
