// SPDX-License-Identifier: MIT
#include "rigid/details/mesh_shape_data.hpp"
#include "rigid/details/rounding.hpp"
#include "rigid/details/wide_range_length.hpp"

#include <ccdkit/broad/aabb.hpp>
#include <ccdkit/mesh/triangle_mesh.hpp>
#include <ccdkit/rigid/rigid_shape.hpp>

#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace ccdkit {

namespace {

    /// Row f: the rows of `edges` (ordered by larger, then smaller vertex index) that are face f's sides.
    Eigen::MatrixX3i face_edges(const Eigen::MatrixX3i& faces, const Eigen::MatrixX2i& edges)
    {
        Eigen::MatrixX3i out(faces.rows(), 3);
        for (Eigen::Index f = 0; f < faces.rows(); ++f) {
            for (int k = 0; k < 3; ++k) {
                const auto [i, j] = std::minmax(faces(f, k), faces(f, (k + 1) % 3));
                Eigen::Index lo = 0, hi = edges.rows();
                while (lo < hi) {
                    const Eigen::Index mid = (lo + hi) / 2;
                    const bool before = edges(mid, 1) < j || (edges(mid, 1) == j && edges(mid, 0) < i);
                    (before ? lo : hi) = before ? mid + 1 : mid;
                }
                out(f, k) = static_cast<int>(lo);
            }
        }
        return out;
    }

    /// One vertex per connected component of the faces (union-find over the faces' corners).
    std::vector<std::int32_t> component_vertices(const Eigen::MatrixX3i& faces, Eigen::Index vertex_count)
    {
        std::vector<std::int32_t> parent(static_cast<std::size_t>(vertex_count));
        std::iota(parent.begin(), parent.end(), 0);
        const auto root = [&parent](std::int32_t v) {
            while (parent[static_cast<std::size_t>(v)] != v) {
                v = parent[static_cast<std::size_t>(v)]
                    = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(v)])];
            }
            return v;
        };
        for (Eigen::Index f = 0; f < faces.rows(); ++f) {
            for (int c = 1; c < 3; ++c) {
                parent[static_cast<std::size_t>(root(faces(f, c)))] = root(faces(f, 0));
            }
        }
        std::vector<bool> seen(parent.size(), false);
        std::vector<std::int32_t> out;
        for (Eigen::Index f = 0; f < faces.rows(); ++f) {
            const auto r = static_cast<std::size_t>(root(faces(f, 0)));
            if (!seen[r]) {
                seen[r] = true;
                out.push_back(faces(f, 0));
            }
        }
        return out;
    }

    /// Sets owned_vertices / owned_edges: each vertex and edge belongs to the first face that holds it.
    void mark_owners(details::MeshShapeData& data)
    {
        const auto face_count = static_cast<std::size_t>(data.faces.rows());
        data.owned_vertices.assign(face_count, 0);
        data.owned_edges.assign(face_count, 0);
        std::vector<bool> vertex_taken(static_cast<std::size_t>(data.vertices.rows()), false);
        std::vector<bool> edge_taken(static_cast<std::size_t>(data.edges.rows()), false);
        for (std::size_t f = 0; f < face_count; ++f) {
            for (int c = 0; c < 3; ++c) {
                const auto row = static_cast<Eigen::Index>(f);
                const auto v = static_cast<std::size_t>(data.faces(row, c));
                const auto e = static_cast<std::size_t>(data.face_edges(row, c));
                if (!vertex_taken[v]) {
                    vertex_taken[v] = true;
                    data.owned_vertices[f] |= static_cast<std::uint8_t>(1U << c);
                }
                if (!edge_taken[e]) {
                    edge_taken[e] = true;
                    data.owned_edges[f] |= static_cast<std::uint8_t>(1U << c);
                }
            }
        }
    }

    /// The vertices about their bounding box's centre, scaled by the power of two that brings the box's size near 1
    /// (exact but for the centring): the volume's and convexity's products of three and four coordinates stay in
    /// double's range for meshes of any size (a cube of size 1e-110 had a volume of 0, a torus of size 1e80 passed
    /// as convex, its normals' squares infinite).
    Eigen::MatrixX3d unit_sized_about_center(const Eigen::MatrixX3d& vertices)
    {
        const Eigen::RowVector3d low = vertices.colwise().minCoeff(), high = vertices.colwise().maxCoeff();
        const Eigen::RowVector3d center = 0.5 * (low + high);
        const double extent = (high - low).maxCoeff();
        Eigen::MatrixX3d out = vertices.rowwise() - center;
        if (extent > 0.0 && std::isfinite(extent)) {
            const int exponent = std::ilogb(extent);
            out = out.unaryExpr([exponent](double x) { return std::scalbn(x, -exponent); });
        }
        return out;
    }

    /// The length CONVEX_TOLERANCE is relative to (flat_edges, is_convex), at the scale of `unit`
    /// (unit_sized_about_center(vertices)): the mesh's size, or its largest coordinate where that is larger, up to
    /// `spread` sizes. The coordinates' own rounding leaves a turned box's faces out of plane by ulps of them: 1e4
    /// sizes from the origin, a box had no flat edge, and at 1e4-1e7 sizes half its turns were not convex (the general
    /// search took 4-9 times as long).
    double tolerance_length(const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3d& unit, double spread)
    {
        const double original_size = (vertices.colwise().maxCoeff() - vertices.colwise().minCoeff()).norm();
        const double size = (unit.colwise().maxCoeff() - unit.colwise().minCoeff()).norm();
        const double largest = original_size > 0.0 ? vertices.cwiseAbs().maxCoeff() * (size / original_size) : 0.0;
        return std::max(size, std::min(largest, spread * size));
    }

    constexpr double UNCAPPED = std::numeric_limits<double>::infinity();

    /// MeshShapeData::flat_edges: per edge with exactly two faces, whether the second face's far corner lies in the
    /// first's plane (within CONVEX_TOLERANCE of tolerance_length, however far from the origin: a flat edge only keeps
    /// its pairs out of the contacts at t = 0) and on the other side of the edge. On the vertices about their centre,
    /// scaled (unit_sized_about_center), so that the products stay in range at any scale.
    std::vector<std::uint8_t> flat_edges(const details::MeshShapeData& data)
    {
        const auto edge_count = static_cast<std::size_t>(data.edges.rows());
        std::vector<std::int32_t> face_count(edge_count, 0);
        std::vector<std::array<Eigen::Index, 2>> far_corner(edge_count); // (of the first two faces)
        for (Eigen::Index f = 0; f < data.faces.rows(); ++f) {
            for (int c = 0; c < 3; ++c) {
                const auto e = static_cast<std::size_t>(data.face_edges(f, c));
                if (face_count[e] < 2) {
                    far_corner[e][static_cast<std::size_t>(face_count[e])] = data.faces(f, (c + 2) % 3);
                }
                ++face_count[e];
            }
        }
        const Eigen::MatrixX3d unit = unit_sized_about_center(data.vertices);
        const double tolerance = details::CONVEX_TOLERANCE * tolerance_length(data.vertices, unit, UNCAPPED);
        const auto point = [&unit](Eigen::Index v) { return Eigen::Vector3d(unit.row(v).transpose()); };
        std::vector<std::uint8_t> flat(edge_count, 0);
        for (std::size_t e = 0; e < edge_count; ++e) {
            if (face_count[e] != 2) {
                continue;
            }
            const auto row = static_cast<Eigen::Index>(e);
            const Eigen::Vector3d p = point(data.edges(row, 0)), q = point(data.edges(row, 1));
            const Eigen::Vector3d r = point(far_corner[e][0]), s = point(far_corner[e][1]);
            const Eigen::Vector3d side_r = (q - p).cross(r - p), side_s = (q - p).cross(s - p);
            const double length = side_r.norm();
            flat[e]
                = length > 0.0 && std::abs(side_r.dot(s - p)) <= tolerance * length && side_r.dot(side_s) < 0.0 ? 1 : 0;
        }
        return flat;
    }

    /// Leaves out the vertices that no face uses, where there are any: `data` then holds the others in order and the
    /// faces re-indexed to them, with each one's row as given and the mesh as given (MeshShapeData::input_rows).
    /// Edges are numbered by their vertices' order, which the re-indexing keeps: the same numbering either way.
    void
    take_used_vertices(details::MeshShapeData& data, const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces)
    {
        std::vector<std::int32_t> row_of(static_cast<std::size_t>(vertices.rows()), -1);
        for (Eigen::Index f = 0; f < faces.rows(); ++f) {
            for (Eigen::Index c = 0; c < 3; ++c) {
                row_of[static_cast<std::size_t>(faces(f, c))] = 0;
            }
        }
        std::int32_t used = 0;
        for (std::int32_t& row : row_of) {
            row = row < 0 ? -1 : used++;
        }
        if (used == vertices.rows()) {
            data.vertices = vertices;
            data.faces = faces;
            return;
        }
        data.input_rows.reserve(static_cast<std::size_t>(used));
        for (std::size_t v = 0; v < row_of.size(); ++v) {
            if (row_of[v] >= 0) {
                data.input_rows.push_back(static_cast<std::int32_t>(v));
            }
        }
        data.vertices.resize(used, 3);
        for (Eigen::Index k = 0; k < used; ++k) {
            data.vertices.row(k) = vertices.row(data.input_rows[static_cast<std::size_t>(k)]);
        }
        data.faces = faces.unaryExpr([&row_of](int v) { return row_of[static_cast<std::size_t>(v)]; });
        data.given_vertices = vertices;
        data.given_faces = faces;
    }

    std::shared_ptr<details::MeshShapeData>
    prepare(const Eigen::MatrixX3d& given_vertices, const Eigen::MatrixX3i& given_faces)
    {
        if (given_faces.rows() == 0) {
            throw std::invalid_argument("rigid shape: the mesh has no faces");
        }
        validate(TriangleMesh { given_vertices, given_faces });
        if (given_vertices.rows() > 0 && given_vertices.cwiseAbs().maxCoeff() > details::MAX_COORDINATE) {
            throw std::invalid_argument(
                "rigid shape: a coordinate exceeds 1e150 in magnitude (the bounds would overflow)");
        }
        auto data = std::make_shared<details::MeshShapeData>();
        take_used_vertices(*data, given_vertices, given_faces);
        const Eigen::MatrixX3d& vertices = data->vertices;
        const Eigen::MatrixX3i& faces = data->faces;
        if (const double size = (vertices.colwise().maxCoeff() - vertices.colwise().minCoeff()).maxCoeff();
            !(size >= details::MIN_SIZE)) {
            std::ostringstream message; // (1e-160 as such)
            message << "rigid shape: the mesh's size (its bounding box's largest side) is " << size
                    << ", below 1e-150 (its bounds' squares would underflow)";
            throw std::invalid_argument(message.str());
        }
        data->origin_radius = details::rounded_up(vertices.rowwise().norm().maxCoeff());
        data->edges = edges_from_faces(faces);
        if (!data->input_rows.empty()) {
            data->given_edges
                = data->edges.unaryExpr([&data](int v) { return data->input_rows[static_cast<std::size_t>(v)]; });
        }
        data->face_edges = face_edges(faces, data->edges);
        data->vertex_edges = details::VertexIncidence::of(data->edges, vertices.rows());
        data->vertex_faces = details::VertexIncidence::of(faces, vertices.rows());
        mark_owners(*data);
        data->component_vertices = component_vertices(faces, vertices.rows());
        double total = 0.0;
        for (Eigen::Index e = 0; e < data->edges.rows(); ++e) {
            total
                += details::length_of((vertices.row(data->edges(e, 0)) - vertices.row(data->edges(e, 1))).transpose());
        }
        data->mean_edge_length = data->edges.rows() > 0 ? total / static_cast<double>(data->edges.rows()) : 0.0;
        data->face_normals.resize(static_cast<std::size_t>(faces.rows()));
        for (Eigen::Index f = 0; f < faces.rows(); ++f) {
            data->face_normals[static_cast<std::size_t>(f)] = details::unit_face_normal(vertices, faces, f);
        }
        data->edge_normals.assign(static_cast<std::size_t>(data->edges.rows()), Eigen::Vector3d::Zero());
        for (Eigen::Index f = 0; f < faces.rows(); ++f) {
            for (Eigen::Index c = 0; c < 3; ++c) {
                data->edge_normals[static_cast<std::size_t>(data->face_edges(f, c))]
                    += data->face_normals[static_cast<std::size_t>(f)];
            }
        }
        // Each edge's direction counts as one in solid_outward, however sharp the edge (a wafer's rim sums two
        // nearly opposite normals); a sum within rounding of zero (a flat fold) has no direction.
        constexpr double LEAST_SUM = 1e-9;
        for (Eigen::Vector3d& normal : data->edge_normals) {
            normal = normal.norm() > LEAST_SUM ? details::direction_of(normal) : Eigen::Vector3d::Zero();
        }
        data->flat_edges = flat_edges(*data);
        data->tree.build(vertices, faces);
        return data;
    }

    /// Every directed edge of the faces appears once and its reverse once: a closed, edge-manifold surface with
    /// consistent orientation.
    void check_closed_and_oriented(const Eigen::MatrixX3i& faces)
    {
        std::map<std::pair<int, int>, int> uses;
        for (Eigen::Index f = 0; f < faces.rows(); ++f) {
            for (int k = 0; k < 3; ++k) {
                ++uses[{ faces(f, k), faces(f, (k + 1) % 3) }];
            }
        }
        for (const auto& [edge, count] : uses) {
            const auto reverse = uses.find({ edge.second, edge.first });
            const int reverse_count = reverse == uses.end() ? 0 : reverse->second;
            if (count != 1 || reverse_count != 1) {
                const std::string name
                    = "edge (" + std::to_string(edge.first) + ", " + std::to_string(edge.second) + ")";
                throw std::invalid_argument(
                    "rigid shape: not a closed solid: " + name
                    + (reverse_count == 0 ? " borders only one face (the mesh is open)"
                                          : " is not shared by exactly two consistently oriented faces"));
            }
        }
    }

    double signed_volume(const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces)
    {
        double six_volume = 0.0;
        for (Eigen::Index f = 0; f < faces.rows(); ++f) {
            const Eigen::Vector3d a = vertices.row(faces(f, 0));
            const Eigen::Vector3d b = vertices.row(faces(f, 1));
            const Eigen::Vector3d c = vertices.row(faces(f, 2));
            six_volume += a.dot(b.cross(c));
        }
        return six_volume / 6.0;
    }

    /// Every vertex of `unit` (unit_sized_about_center(vertices)) within CONVEX_TOLERANCE of tolerance_length below
    /// every face's plane (computed normal and offsets carry a few ulps of |normal| |size|, far inside the tolerance).
    /// Faces of zero area: not convex.
    bool is_convex(const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3d& unit, const Eigen::MatrixX3i& faces)
    {
        if (unit.rows() > details::MAX_CONVEX_VERTICES) {
            return false;
        }
        const double scale = tolerance_length(vertices, unit, details::TOLERATED_SPREAD);
        for (Eigen::Index f = 0; f < faces.rows(); ++f) {
            const Eigen::Vector3d a = unit.row(faces(f, 0));
            const Eigen::Vector3d normal
                = (Eigen::Vector3d(unit.row(faces(f, 1))) - a).cross(Eigen::Vector3d(unit.row(faces(f, 2))) - a);
            const double length = normal.norm();
            if (!(length > 0.0)) {
                return false;
            }
            const double tolerance = details::CONVEX_TOLERANCE * scale * length;
            for (Eigen::Index v = 0; v < unit.rows(); ++v) {
                if (normal.dot(unit.row(v).transpose() - a) > tolerance) {
                    return false;
                }
            }
        }
        return true;
    }

} // namespace

RigidShape RigidShape::mesh(const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces)
{
    return RigidShape(prepare(vertices, faces));
}

RigidShape RigidShape::solid(const Eigen::MatrixX3d& vertices, const Eigen::MatrixX3i& faces)
{
    auto data = prepare(vertices, faces);
    check_closed_and_oriented(faces); // (as given: an edge is named by the vertices the caller knows)
    const Eigen::MatrixX3d unit_vertices = unit_sized_about_center(data->vertices);
    const double volume = signed_volume(unit_vertices, data->faces); // (its sign; its size relative to the box's)
    if (!(volume > 0.0)) {
        throw std::invalid_argument(
            "rigid shape: not a solid: the enclosed volume is "
            + std::string(volume < 0.0 ? "negative (faces wound inwards?)" : "zero"));
    }
    data->solid = true;
    data->convex = is_convex(data->vertices, unit_vertices, data->faces);
    if (data->convex) {
        // The convex path marks the features around a few vertices (at most MAX_CONVEX_VERTICES of them).
        data->vertex_edges.add_bit_rows(data->edges.rows());
        data->vertex_faces.add_bit_rows(data->faces.rows());
    }
    return RigidShape(std::move(data));
}

RigidShape RigidShape::implicit(ImplicitShape shape) { return RigidShape(std::move(shape)); }

namespace {
    /// What the mesh accessors return for an implicit shape.
    const details::MeshShapeData& no_mesh()
    {
        static const details::MeshShapeData empty;
        return empty;
    }
} // namespace

// (As given: where some vertices were left out, the copies kept of the mesh given.)
const Eigen::MatrixX3d& RigidShape::vertices() const
{
    const details::MeshShapeData& data = mesh_ ? *mesh_ : no_mesh();
    return data.input_rows.empty() ? data.vertices : data.given_vertices;
}
const Eigen::MatrixX3i& RigidShape::faces() const
{
    const details::MeshShapeData& data = mesh_ ? *mesh_ : no_mesh();
    return data.input_rows.empty() ? data.faces : data.given_faces;
}
const Eigen::MatrixX2i& RigidShape::edges() const
{
    const details::MeshShapeData& data = mesh_ ? *mesh_ : no_mesh();
    return data.input_rows.empty() ? data.edges : data.given_edges;
}
bool RigidShape::is_solid() const { return !mesh_ || mesh_->solid; }

double RigidShape::radius_about(const Eigen::Vector3d& center) const
{
    if (implicit_) {
        return details::rounded_up(implicit_->bounding_radius() + center.norm());
    }
    return details::rounded_up((mesh_->vertices.rowwise() - center.transpose()).rowwise().norm().maxCoeff());
}

} // namespace ccdkit
