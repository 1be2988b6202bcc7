// SPDX-License-Identifier: MIT
#pragma once

// A dense regular grid of signed distances with trilinear interpolation: the solid of a body given only by
// samples (a scanned part, a mesh turned into a field, a shape too complex for the analytic primitives).
//
// Why a dense grid of our own rather than OpenVDB: OpenVDB is not among the Debian packages the project
// builds from, and the rigid bodies of a CCD scene are bounded: a body of a few hundred cells a side fits
// in memory (8 bytes a sample: 128^3 samples are 16 MiB, 256^3 are 128 MiB) and a dense array gives
// branch-free O(1) lookups and a Lipschitz constant read straight off the samples, which the certified
// clearance needs. A sparse narrow band would save memory for large, finely resolved bodies; the cap below
// (MAX_SAMPLES) turns a request that would not fit into an error instead.

#include <ccdkit/broad/aabb.hpp>
#include <ccdkit/rigid/surface_sample.hpp>

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace ccdkit {

class ImplicitShape;

/// How SignedDistanceGrid::from_mesh signs the distance to the nearest triangle.
enum class MeshDistanceSign : std::uint8_t {
    SIGNED, ///< negative inside (generalized winding number); the mesh must be closed and edge-manifold
    UNSIGNED, ///< the distance itself everywhere: any triangle soup, but the solid is then (nearly) empty
};

/// Samples `values` of a field at the lattice points origin + cell_size * (i, j, k), 0 <= i < dims.x() etc.,
/// and the trilinear interpolant phi of them over the lattice box D = [origin, origin + cell_size * (dims - 1)].
/// The solid is the closed set {x in D : phi(x) <= 0}; nothing outside D belongs to it.
///
/// phi is Lipschitz with the constant lipschitz_constant(): inside one cell each component of the gradient is
/// multilinear and does not depend on its own coordinate, so |gradient|^2 is convex along every axis and its
/// largest value is at a corner of the cell, where the gradient is the three one-sided sample differences
/// over cell_size; phi is continuous across cells. That gives clearance() without assuming the samples are an
/// exact distance. The constant of each cell is kept too (4 bytes a cell), so that near the surface the
/// clearance uses the constant of the cells around the point rather than the grid's worst (a sampled distance
/// has slope up to sqrt(3) in the cells at its kinks, e.g. the centre of a sampled sphere).
class SignedDistanceGrid {
public:
    /// The most samples a grid may hold (8 bytes each: 512 MiB).
    static constexpr std::int64_t MAX_SAMPLES = std::int64_t { 1 } << 26;

    /// @param[in] origin position of sample (0, 0, 0), coordinates at most 1e150 in magnitude
    /// @param[in] cell_size spacing of the lattice, > 0 and at most 1e150, such that the slopes between neighbouring
    /// values stay finite
    /// @param[in] dims samples along each axis, each >= 2, product <= MAX_SAMPLES
    /// @param[in] values dims.prod() values at most 1e150 in magnitude, x fastest: value(i, j, k) = values[i + dims.x()
    /// * (j + dims.y() * k)] (the limits keep the slopes and their bounds finite, as for meshes' coordinates)
    /// @throws std::invalid_argument naming the offending argument.
    SignedDistanceGrid(
        const Eigen::Vector3d& origin, double cell_size, const Eigen::Vector3i& dims, std::vector<double> values);

    /// The signed distance of `shape` sampled over its bounds grown by `padding` on every side (use at least
    /// one cell so that the zero set closes inside the lattice box).
    /// @throws std::invalid_argument for cell_size <= 0, padding < 0, either non-finite, an empty shape, or
    /// more than MAX_SAMPLES samples.
    [[nodiscard]] static SignedDistanceGrid sample(const ImplicitShape& shape, double cell_size, double padding);

    /// The distance from each lattice point to the nearest triangle of a mesh, over the mesh's bounds grown by
    /// `padding`. SIGNED makes it negative where the generalized winding number is at least 1/2 in magnitude
    /// (so an inside-out mesh is signed like an outward one). Costs O(samples * faces): meant for the modest
    /// meshes of rigid bodies.
    /// @throws std::invalid_argument for bad cell_size / padding (as sample()), an invalid or empty mesh, and,
    /// when SIGNED, a mesh that is not closed, not edge-manifold or not consistently oriented (naming the edge).
    [[nodiscard]] static SignedDistanceGrid from_mesh(
        const Eigen::MatrixX3d& vertices,
        const Eigen::MatrixX3i& faces,
        double cell_size,
        double padding,
        MeshDistanceSign sign = MeshDistanceSign::SIGNED);

    [[nodiscard]] const Eigen::Vector3d& origin() const { return origin_; }
    [[nodiscard]] double cell_size() const { return cell_size_; }
    [[nodiscard]] const Eigen::Vector3i& dims() const { return dims_; }
    [[nodiscard]] const std::vector<double>& values() const { return values_; }
    /// The sample at lattice index (i, j, k); indices are not checked.
    [[nodiscard]] double value(int i, int j, int k) const { return values_[index(i, j, k)]; }

    /// The lattice box D, rounded outward.
    [[nodiscard]] Aabb domain() const { return outer_; }
    /// An upper bound of the Lipschitz constant of phi (at least the smallest normal double, never 0).
    [[nodiscard]] double lipschitz_constant() const { return lipschitz_; }

    /// phi at the point of D nearest to x (phi itself for x in D).
    [[nodiscard]] double interpolate(const Eigen::Vector3d& x) const;
    /// An estimate of the signed distance: phi in D; outside D, sqrt(d^2 + max(phi(p), 0)^2) with p the
    /// nearest point of D and d = |x - p|.
    [[nodiscard]] double signed_distance(const Eigen::Vector3d& x) const;
    /// Certified lower bound of the distance from x to the solid (see ImplicitShape::clearance): phi(x) / L
    /// minus the rounding of evaluating phi in D; outside D, sqrt(d^2 + c^2) with c >= 0 the clearance at
    /// the nearest point p of D (every point s of the box has (x - p).(s - p) <= 0, so |x - s|^2 >= d^2 +
    /// |p - s|^2; the sum d + c would not be a bound). +infinity-like values when the solid is empty.
    [[nodiscard]] double clearance(const Eigen::Vector3d& x) const;
    /// Certified lower bound of the distance from x to the closure of the solid's complement (the points of
    /// D where phi >= 0, and everything outside D): min(-phi(x) / L, distance to the boundary of D) minus
    /// rounding. <= 0 when x may be outside the solid.
    [[nodiscard]] double depth(const Eigen::Vector3d& x) const;
    /// Unit gradient of signed_distance() by central differences (half a cell); +z where it vanishes.
    [[nodiscard]] Eigen::Vector3d normal(const Eigen::Vector3d& x) const;
    /// A box holding the solid: the cells with a sample <= 0, rounded outward; empty (min > max) when no
    /// sample is <= 0 (then the solid is empty).
    [[nodiscard]] Aabb solid_bounds() const { return solid_bounds_; }
    /// Radius about the origin of a ball holding the solid (the cells with a sample <= 0); 0 when it is empty.
    [[nodiscard]] double bounding_radius() const { return bounding_radius_; }

    /// Points where the zero set of phi crosses the edges of a sub-lattice of spacing at most spacing / 2
    /// (phi is linear along an axis-parallel segment inside a cell, so each crossing is a root of a linear
    /// function), with normal(). Every part of the zero set that crosses a sub-lattice edge in a sub-cell is
    /// within that sub-cell's diagonal (< spacing) of a sample; features smaller than a sub-cell may be missed.
    /// @throws std::invalid_argument for spacing <= 0 or non-finite.
    [[nodiscard]] std::vector<SurfaceSample> sample_surface(double spacing) const;

private:
    [[nodiscard]] std::size_t index(int i, int j, int k) const
    {
        return static_cast<std::size_t>(i)
            + static_cast<std::size_t>(dims_.x())
            * (static_cast<std::size_t>(j) + static_cast<std::size_t>(dims_.y()) * static_cast<std::size_t>(k));
    }
    /// Trilinear value, with a bound on its distance to phi(x) (rounding of locating x and of the lerps),
    /// in units of phi; x is clamped to D.
    struct Evaluation {
        double value;
        double error;
    };
    [[nodiscard]] Evaluation evaluate(const Eigen::Vector3d& x) const;
    /// clearance() for a point of the outer box.
    [[nodiscard]] double clearance_in_domain(const Eigen::Vector3d& x) const;
    /// A lower bound of the distance from x (in the outer box) to the points where phi has the other sign,
    /// given a certified lower bound `lower` of |phi(x)| on x's side: lower / L, improved with the constants
    /// of the cells near x.
    [[nodiscard]] double field_bound(const Eigen::Vector3d& x, double lower) const;
    [[nodiscard]] std::size_t cell_index(int i, int j, int k) const
    {
        return static_cast<std::size_t>(i)
            + static_cast<std::size_t>(dims_.x() - 1)
            * (static_cast<std::size_t>(j) + static_cast<std::size_t>(dims_.y() - 1) * static_cast<std::size_t>(k));
    }
    /// How far around a point, in cells, the local Lipschitz constants are read.
    static constexpr double LOCAL_WINDOW_CELLS = 3;

    Eigen::Vector3d origin_;
    double cell_size_;
    Eigen::Vector3i dims_;
    std::vector<double> values_;
    double lipschitz_ = 0.0;
    std::vector<float> cell_lipschitz_; ///< upper bounds per cell (floats: a third of the memory of the samples)
    Aabb outer_; ///< D rounded outward
    Aabb inner_; ///< D rounded inward
    Aabb solid_bounds_;
    double bounding_radius_ = 0.0;
    double position_slack_ = 0.0; ///< rounding of the lattice box's far corner, per axis
};

} // namespace ccdkit
