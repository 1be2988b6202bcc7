// SPDX-License-Identifier: MIT
#pragma once

// The features of a convex body that reach below a height (FeatureSlab): the candidates for its contacts.

#include "rigid/details/feature_slab.hpp"
#include "rigid/details/mesh_shape_data.hpp"

#include <Eigen/Core>

#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <memory_resource>
#include <span>

namespace ccdkit::details {

/// A set of a mesh's elements (edges or faces), one bit per row in `words` (zeroed, one per 64 rows): marked
/// through the vertices that hold them, visited in increasing row order.
struct ElementSet {
    std::span<std::uint64_t> words;

    /// Adds the elements of a set of the same rows.
    void insert(std::span<const std::uint64_t> elements) const
    {
        for (std::size_t w = 0; w < words.size(); ++w) {
            words[w] |= elements[w];
        }
    }
    template <class Visit> void for_each(Visit&& visit) const
    {
        for (std::size_t w = 0; w < words.size(); ++w) {
            for (std::uint64_t bits = words[w]; bits != 0; bits &= bits - 1) {
                visit(static_cast<std::int32_t>(64 * w + static_cast<std::size_t>(std::countr_zero(bits))));
            }
        }
    }
};

/// One body's features near a contact (FeatureSlab::clip boxes): its kept vertices, edges, then faces (once
/// gathered: gather_faces).
struct NearFeatures {
    std::span<ClippedFeature> all;
    std::size_t edges_begin = 0;
    std::size_t faces_begin = 0;

    [[nodiscard]] std::span<const ClippedFeature> vertices() const { return all.first(edges_begin); }
    [[nodiscard]] std::span<const ClippedFeature> edges() const
    {
        return all.subspan(edges_begin, faces_begin - edges_begin);
    }
    [[nodiscard]] std::span<const ClippedFeature> faces() const { return all.subspan(faces_begin); }
    /// The vertices and edges: their boxes enclose the faces' too (a face's box is its clipped sides' union).
    [[nodiscard]] std::span<const ClippedFeature> vertices_and_edges() const { return all.first(faces_begin); }

    /// Appends each face around the kept vertices, in index order, as the union of its clipped sides' boxes (the
    /// corners of its clipped part, kept corners and crossings, all lie on them). Apart, as only pairs with the other
    /// body's vertices use them: the contact search gathers them only where some of those vertices come near.
    void gather_faces();

    // What gather_faces reads: the mesh's faces' sides, the faces around the kept vertices (one bit per face) and
    // where each clipped edge lies in `all` (-1 for edges outside the set).
    const MeshShapeData* mesh = nullptr;
    ElementSet face_set;
    const std::int32_t* edge_slots = nullptr;
};

/// The box enclosing the features' boxes, each widened by `reach` (min +inf, max -inf for none).
[[nodiscard]] inline ClippedFeature enclosing_box(std::span<const ClippedFeature> features, double reach)
{
    constexpr double INFINITE = std::numeric_limits<double>::infinity();
    ClippedFeature out { -1, Eigen::Array3d::Constant(INFINITE), Eigen::Array3d::Constant(-INFINITE) };
    for (const ClippedFeature& x : features) {
        out.min = out.min.min(x.min - reach);
        out.max = out.max.max(x.max + reach);
    }
    return out;
}

/// Some of a run of features (one kind of a NearFeatures): the run and the positions in it of those taken, in order.
struct FeatureSelection {
    std::span<const ClippedFeature> run;
    std::span<const std::uint32_t> taken;
};

/// The features of `run` whose boxes, widened by `reach`, meet `box`, their positions written to `positions` (room for
/// run.size()). Where a pair test widens x's box by r and meets y's (box_meets(x.min - r, x.max + r, y), as
/// rounded), x meets, so widened, the box enclosing all the y (enclosing_box(ys, 0)), and y meets the box enclosing
/// all the x widened (enclosing_box(xs, r)): the same roundings, so no pair that meets is lost.
[[nodiscard]] inline FeatureSelection
features_meeting(std::span<const ClippedFeature> run, const ClippedFeature& box, double reach, std::uint32_t* positions)
{
    std::size_t taken = 0;
    for (std::size_t k = 0; k < run.size(); ++k) {
        positions[taken] = static_cast<std::uint32_t>(k);
        taken += box_meets(run[k].min - reach, run[k].max + reach, box) ? 1 : 0; // (no branch: no pattern)
    }
    return { run, { positions, taken } };
}

/// One body's kept vertices (at heights up to the slab's limit), then its edges clipped to the slab, each in index
/// order, in one allocation with room for the faces (NearFeatures::gather_faces). A feature reaches the slab exactly
/// when one of its corners lies in it (FeatureSlab::clip's test), so only the edges and faces around the kept
/// vertices are visited.
[[nodiscard]] inline NearFeatures
near_features(const FeatureSlab& slab, const MeshShapeData& mesh, std::pmr::memory_resource* arena)
{
    // The edge set's words and the face set's (zeroed), then where each clipped edge lies in the output (-1 for edges
    // outside the set), in one allocation.
    const auto words = [](Eigen::Index rows) { return (static_cast<std::size_t>(rows) + 63) / 64; };
    const std::size_t edge_words = words(mesh.edges.rows()), face_words = words(mesh.faces.rows());
    const std::size_t mark_bytes = (edge_words + face_words) * sizeof(std::uint64_t);
    const std::size_t slot_bytes = static_cast<std::size_t>(mesh.edges.rows()) * sizeof(std::int32_t);
    auto* const memory = static_cast<std::byte*>(arena->allocate(mark_bytes + slot_bytes, alignof(std::uint64_t)));
    std::memset(memory, 0, mark_bytes);
    std::memset(memory + mark_bytes, 0xff, slot_bytes); // (all bits set: -1)
    auto* const marks = static_cast<std::uint64_t*>(static_cast<void*>(memory));
    auto* const slot = static_cast<std::int32_t*>(static_cast<void*>(memory + mark_bytes));
    const ElementSet edges { { marks, edge_words } }, faces { { marks + edge_words, face_words } };
    // Every feature is written in place (no growth, no copies), into room for all the mesh's elements.
    const std::size_t room = slab.points.size() + static_cast<std::size_t>(mesh.edges.rows() + mesh.faces.rows());
    auto* const storage
        = static_cast<ClippedFeature*>(arena->allocate(room * sizeof(ClippedFeature), alignof(ClippedFeature)));
    std::uninitialized_default_construct_n(storage, room); // (no code: nothing to initialize)
    ClippedFeature* next = storage;
    for (std::size_t v = 0; v < slab.points.size(); ++v) {
        if (slab.heights[v] <= slab.limit) {
            next->index = static_cast<std::int32_t>(v);
            next->min = slab.points[v].array();
            next->max = next->min;
            ++next;
            edges.insert(mesh.vertex_edges.bits_at(v));
            faces.insert(mesh.vertex_faces.bits_at(v));
        }
    }
    NearFeatures out;
    out.edges_begin = static_cast<std::size_t>(next - storage);
    edges.for_each([&](std::int32_t e) {
        [[maybe_unused]] const bool clipped = slab.clip_edge(
            static_cast<std::size_t>(mesh.edges(e, 0)), static_cast<std::size_t>(mesh.edges(e, 1)), e, *next);
        assert(clipped); // a corner lies in the slab
        slot[static_cast<std::size_t>(e)] = static_cast<std::int32_t>(next - storage);
        ++next;
    });
    out.faces_begin = static_cast<std::size_t>(next - storage);
    out.all = { storage, out.faces_begin };
    out.mesh = &mesh;
    out.face_set = faces;
    out.edge_slots = slot;
    return out;
}

inline void NearFeatures::gather_faces()
{
    ClippedFeature* const storage = all.data();
    ClippedFeature* next = storage + faces_begin;
    face_set.for_each([&](std::int32_t f) {
        ClippedFeature& feature = *next++;
        feature.index = -1;
        for (Eigen::Index c = 0; c < 3; ++c) {
            const std::int32_t k = edge_slots[static_cast<std::size_t>(mesh->face_edges(f, c))];
            if (k < 0) {
                continue; // (the side opposite the face's only kept corner)
            }
            const ClippedFeature& side = storage[static_cast<std::size_t>(k)];
            if (feature.index < 0) {
                feature.index = f;
                feature.min = side.min;
                feature.max = side.max;
            } else {
                feature.min = feature.min.min(side.min);
                feature.max = feature.max.max(side.max);
            }
        }
    });
    all = { storage, static_cast<std::size_t>(next - storage) };
}

} // namespace ccdkit::details
