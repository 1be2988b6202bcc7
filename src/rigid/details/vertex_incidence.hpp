// SPDX-License-Identifier: MIT
#pragma once

// For each vertex of a mesh, the elements (edges or faces) that hold it, in compressed rows. On a convex body the
// features that reach below a plane are exactly those with a corner below it (a feature is the hull of its
// corners), so the features near a contact are those of the vertices near it, found without visiting the others.

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

namespace ccdkit::details {

struct VertexIncidence {
    /// Vertex v's elements are elements[offsets[v]] up to elements[offsets[v + 1]] (excluded).
    std::vector<std::int32_t> offsets;
    /// Rows of the element matrix, increasing for each vertex.
    std::vector<std::int32_t> elements;
    /// The same as bit sets where added (add_bit_rows): vertex v's elements are the bits set in
    /// words[v * words_per_vertex] onwards (bit e % 64 of word e / 64), for marking a few vertices' elements a word
    /// at a time.
    std::vector<std::uint64_t> words;
    std::size_t words_per_vertex = 0;

    /// The incidence of the rows of `elements` (each row an element's distinct corners) on `vertex_count` vertices.
    template <class Elements>
    [[nodiscard]] static VertexIncidence of(const Elements& elements, Eigen::Index vertex_count)
    {
        VertexIncidence out;
        out.offsets.assign(static_cast<std::size_t>(vertex_count) + 1, 0);
        for (Eigen::Index e = 0; e < elements.rows(); ++e) {
            for (Eigen::Index c = 0; c < elements.cols(); ++c) {
                ++out.offsets[static_cast<std::size_t>(elements(e, c)) + 1];
            }
        }
        std::partial_sum(out.offsets.begin(), out.offsets.end(), out.offsets.begin());
        out.elements.resize(static_cast<std::size_t>(out.offsets.back()));
        std::vector<std::int32_t> next(out.offsets.begin(), out.offsets.end() - 1);
        for (Eigen::Index e = 0; e < elements.rows(); ++e) {
            for (Eigen::Index c = 0; c < elements.cols(); ++c) {
                const auto v = static_cast<std::size_t>(elements(e, c));
                out.elements[static_cast<std::size_t>(next[v]++)] = static_cast<std::int32_t>(e);
            }
        }
        return out;
    }

    /// The elements that hold vertex v.
    [[nodiscard]] std::span<const std::int32_t> at(std::size_t v) const
    {
        const auto begin = static_cast<std::size_t>(offsets[v]);
        return { elements.data() + begin, static_cast<std::size_t>(offsets[v + 1]) - begin };
    }
    /// Adds the bit rows (bits_at), for `element_count` elements: vertices times elements / 64 words, for small
    /// meshes only (the convex path's).
    void add_bit_rows(Eigen::Index element_count)
    {
        words_per_vertex = (static_cast<std::size_t>(element_count) + 63) / 64;
        const std::size_t vertex_count = offsets.size() - 1;
        words.assign(vertex_count * words_per_vertex, 0);
        for (std::size_t v = 0; v < vertex_count; ++v) {
            for (const std::int32_t e : at(v)) {
                const auto bit = static_cast<std::size_t>(e);
                words[v * words_per_vertex + bit / 64] |= std::uint64_t { 1 } << (bit % 64);
            }
        }
    }
    /// The elements that hold vertex v, as bits. Precondition: add_bit_rows was called.
    [[nodiscard]] std::span<const std::uint64_t> bits_at(std::size_t v) const
    {
        return { words.data() + v * words_per_vertex, words_per_vertex };
    }
};

} // namespace ccdkit::details
