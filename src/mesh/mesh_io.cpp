// SPDX-License-Identifier: MIT
#include "ccdkit/mesh/mesh_io.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

namespace ccdkit {

namespace fs = std::filesystem;

namespace {

    using RowMajorX3d = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
    using RowMajorX3i = Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>;

    // Face indices are `int`, so no mesh may have more vertices than an int can index.
    constexpr std::uint64_t MAX_VERTICES = static_cast<std::uint64_t>(std::numeric_limits<int>::max());

    [[noreturn]] void fail_file(const fs::path& path, const std::string& reason)
    {
        throw std::runtime_error(path.string() + ": " + reason);
    }

    [[noreturn]] void fail_line(const fs::path& path, std::size_t line, const std::string& reason)
    {
        throw std::runtime_error(path.string() + ":" + std::to_string(line) + ": " + reason);
    }

    /// A token as it appears in messages: long ones are cut so one bad value cannot flood a log, and bytes that
    /// are not printable ASCII (a binary file read as text) are escaped.
    std::string shown(std::string_view text)
    {
        constexpr std::size_t MAX_SHOWN = 40;
        std::string result = "'";
        for (const char c : text.substr(0, MAX_SHOWN)) {
            const auto byte = static_cast<unsigned char>(c);
            if (byte >= 0x20 && byte < 0x7F) {
                result += c;
            } else {
                constexpr std::string_view HEX = "0123456789abcdef";
                result += "\\x";
                result += HEX[byte >> 4U];
                result += HEX[byte & 0xFU];
            }
        }
        return result + (text.size() > MAX_SHOWN ? "...'" : "'");
    }

    bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

    std::string lowercase_extension(const fs::path& path)
    {
        std::string extension = path.extension().string();
        std::transform(extension.begin(), extension.end(), extension.begin(), [](char c) {
            return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
        });
        return extension;
    }

    [[noreturn]] void fail_extension(const fs::path& path)
    {
        const std::string extension = path.extension().string();
        fail_file(
            path,
            "unknown mesh format " + (extension.empty() ? std::string("(no extension)") : shown(extension))
                + " (expected .obj or .ply)");
    }

    /// The whole file in memory: parsing a buffer is much faster than reading through a stream.
    std::string read_file(const fs::path& path)
    {
        std::ifstream in(path, std::ios::binary | std::ios::ate);
        if (!in) {
            fail_file(path, "cannot open file");
        }
        const std::streamoff size = in.tellg();
        if (size < 0) {
            fail_file(path, "cannot read file size");
        }
        std::string text(static_cast<std::size_t>(size), '\0');
        in.seekg(0);
        in.read(text.data(), size);
        if (in.gcount() != size) {
            fail_file(path, "read error");
        }
        return text;
    }

    void write_file(const fs::path& path, const std::string& bytes)
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        if (!out) {
            fail_file(path, "cannot open file for writing");
        }
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out) {
            fail_file(path, "write error");
        }
    }

    /// Splits text into whitespace-separated tokens.
    class Tokens {
    public:
        explicit Tokens(std::string_view text)
            : text_(text)
        {
        }

        /// The next token, or an empty view at the end.
        std::string_view next()
        {
            std::size_t begin = 0;
            while (begin < text_.size() && is_blank(text_[begin])) {
                ++begin;
            }
            std::size_t end = begin;
            while (end < text_.size() && !is_blank(text_[end])) {
                ++end;
            }
            const std::string_view token = text_.substr(begin, end - begin);
            text_.remove_prefix(end);
            return token;
        }

        /// What is left after the tokens read so far, without leading blanks.
        std::string_view rest()
        {
            while (!text_.empty() && is_blank(text_.front())) {
                text_.remove_prefix(1);
            }
            return text_;
        }

    private:
        std::string_view text_;
    };

    /// Splits text into lines ('\n', or "\r\n" since '\r' counts as blank), counting them from 1.
    class Lines {
    public:
        explicit Lines(std::string_view text)
            : text_(text)
        {
        }

        /// The next line without its '\n'; false at the end of the text.
        bool next(std::string_view& line)
        {
            if (pos_ >= text_.size()) {
                return false;
            }
            const std::size_t end = std::min(text_.find('\n', pos_), text_.size());
            line = text_.substr(pos_, end - pos_);
            pos_ = end + 1;
            ++number_;
            return true;
        }

        [[nodiscard]] std::size_t number() const { return number_; }
        /// Offset just past the last line returned.
        [[nodiscard]] std::size_t offset() const { return std::min(pos_, text_.size()); }

    private:
        std::string_view text_;
        std::size_t pos_ = 0;
        std::size_t number_ = 0;
    };

    /// Whole-token parse: invalid_argument for malformed text, result_out_of_range for a magnitude beyond double.
    /// from_chars rejects the leading '+' that some writers emit, so it is skipped here.
    std::errc parse_double(std::string_view token, double& value)
    {
        if (token.size() > 1 && token.front() == '+') {
            token.remove_prefix(1);
        }
        const char* end = token.data() + token.size();
        const auto [ptr, error] = std::from_chars(token.data(), end, value);
        if (ptr != end) {
            return std::errc::invalid_argument;
        }
        if (error == std::errc::result_out_of_range) {
            // from_chars reports underflow too; like strtod, read it as the nearest double (zero or subnormal).
            const std::string copy(token);
            value = std::strtod(copy.c_str(), nullptr);
            return std::isinf(value) ? std::errc::result_out_of_range : std::errc();
        }
        return error;
    }

    /// The message for a number parse_double() refused.
    std::string number_error(std::string_view token, std::errc error)
    {
        return error == std::errc::result_out_of_range ? "number " + shown(token) + " out of the range of double"
                                                       : "malformed number " + shown(token);
    }

    /// Whole-token parse of a decimal integer; a value beyond 64 bits is result_out_of_range.
    std::errc parse_integer(std::string_view token, std::int64_t& value)
    {
        if (token.size() > 1 && token.front() == '+') {
            token.remove_prefix(1);
        }
        const char* end = token.data() + token.size();
        const auto [ptr, error] = std::from_chars(token.data(), end, value);
        if (error == std::errc() && ptr != end) {
            return std::errc::invalid_argument;
        }
        return error;
    }

    std::string format_coordinates(double x, double y, double z)
    {
        std::string text = "(";
        for (const double value : { x, y, z }) {
            if (text.size() > 1) {
                text += ", ";
            }
            std::array<char, 32> buffer {};
            const auto [ptr, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
            text.append(buffer.data(), error == std::errc() ? ptr : buffer.data());
        }
        return text + ")";
    }

    TriangleMesh make_mesh(const std::vector<double>& coordinates, const std::vector<int>& indices)
    {
        TriangleMesh mesh;
        mesh.vertices
            = Eigen::Map<const RowMajorX3d>(coordinates.data(), static_cast<Eigen::Index>(coordinates.size() / 3), 3);
        mesh.faces = Eigen::Map<const RowMajorX3i>(indices.data(), static_cast<Eigen::Index>(indices.size() / 3), 3);
        return mesh;
    }

    /// Appends the fan of a polygon: (p0, p1, p2), (p0, p2, p3), ...
    void append_fan(const std::vector<int>& polygon, std::vector<int>& indices)
    {
        for (std::size_t k = 1; k + 1 < polygon.size(); ++k) {
            indices.push_back(polygon[0]);
            indices.push_back(polygon[k]);
            indices.push_back(polygon[k + 1]);
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // OBJ

    /// Checks the `i`, `i/j`, `i//k` and `i/j/k` forms and returns the text of `i`; nothing when malformed.
    std::optional<std::string_view> obj_vertex_index(std::string_view token)
    {
        const auto is_integer = [](std::string_view text) {
            std::int64_t ignored = 0;
            return parse_integer(text, ignored) == std::errc();
        };
        const std::size_t slash = token.find('/');
        const std::string_view index = token.substr(0, slash);
        if (slash == std::string_view::npos) {
            return index;
        }
        const std::string_view rest = token.substr(slash + 1);
        const std::size_t second_slash = rest.find('/');
        const std::string_view texture = rest.substr(0, second_slash);
        const bool valid = second_slash == std::string_view::npos
            ? is_integer(texture)
            : (texture.empty() || is_integer(texture)) && is_integer(rest.substr(second_slash + 1));
        return valid ? std::optional(index) : std::nullopt;
    }

    TriangleMesh read_obj(const fs::path& path, std::string_view text)
    {
        std::vector<double> coordinates;
        std::vector<int> indices;
        std::vector<int> polygon;
        // Positive indices may name vertices defined further down; those are checked once all are known.
        struct ForwardIndex {
            std::size_t line;
            std::int64_t index;
        };
        std::vector<ForwardIndex> forward;

        Lines lines(text);
        std::string_view line;
        while (lines.next(line)) {
            line = line.substr(0, line.find('#'));
            Tokens tokens(line);
            const std::string_view keyword = tokens.next();
            if (keyword == "v") {
                const std::size_t vertex = coordinates.size() / 3;
                if (vertex >= MAX_VERTICES) {
                    fail_line(path, lines.number(), "too many vertices");
                }
                std::array<double, 3> xyz {};
                std::size_t count = 0;
                for (std::string_view token = tokens.next(); !token.empty(); token = tokens.next(), ++count) {
                    double value = 0.0;
                    if (const std::errc error = parse_double(token, value); error != std::errc()) {
                        fail_line(path, lines.number(), number_error(token, error));
                    }
                    if (count < 3) {
                        xyz[count] = value;
                    }
                }
                if (count < 3) {
                    fail_line(
                        path, lines.number(), "vertex needs 3 coordinates (v x y z), found " + std::to_string(count));
                }
                if (!std::isfinite(xyz[0]) || !std::isfinite(xyz[1]) || !std::isfinite(xyz[2])) {
                    fail_line(
                        path, lines.number(),
                        "vertex " + std::to_string(vertex + 1) + " has a non-finite coordinate "
                            + format_coordinates(xyz[0], xyz[1], xyz[2]));
                }
                coordinates.insert(coordinates.end(), xyz.begin(), xyz.end());
            } else if (keyword == "f") {
                const auto vertex_count = static_cast<std::int64_t>(coordinates.size() / 3);
                polygon.clear();
                for (std::string_view token = tokens.next(); !token.empty(); token = tokens.next()) {
                    const std::optional<std::string_view> index_text = obj_vertex_index(token);
                    std::int64_t index = 0;
                    const std::errc error
                        = index_text ? parse_integer(*index_text, index) : std::errc::invalid_argument;
                    if (error == std::errc::result_out_of_range) {
                        fail_line(path, lines.number(), "face index " + shown(*index_text) + " out of range");
                    }
                    if (error != std::errc()) {
                        fail_line(path, lines.number(), "malformed face vertex " + shown(token));
                    }
                    if (index == 0) {
                        fail_line(path, lines.number(), "face index 0 is invalid (OBJ indices start at 1)");
                    }
                    if (index < 0) {
                        if (index < -vertex_count) {
                            fail_line(
                                path, lines.number(),
                                "face index " + std::to_string(index) + " out of range (" + std::to_string(vertex_count)
                                    + " vertices so far)");
                        }
                        index += vertex_count;
                    } else {
                        if (index > static_cast<std::int64_t>(MAX_VERTICES)) {
                            fail_line(path, lines.number(), "face index " + std::to_string(index) + " out of range");
                        }
                        if (index > vertex_count) {
                            forward.push_back({ lines.number(), index });
                        }
                        index -= 1;
                    }
                    polygon.push_back(static_cast<int>(index));
                }
                if (polygon.size() < 3) {
                    fail_line(
                        path, lines.number(),
                        "face needs at least 3 vertices, found " + std::to_string(polygon.size()));
                }
                append_fan(polygon, indices);
            }
            // Every other statement (vt, vn, o, g, s, usemtl, mtllib, l, ...) says nothing about the triangles.
        }

        const auto vertex_count = static_cast<std::int64_t>(coordinates.size() / 3);
        for (const ForwardIndex& entry : forward) {
            if (entry.index > vertex_count) {
                fail_line(
                    path, entry.line,
                    "face index " + std::to_string(entry.index) + " out of range (" + std::to_string(vertex_count)
                        + " vertices)");
            }
        }
        return make_mesh(coordinates, indices);
    }

    std::string format_obj(const TriangleMesh& mesh)
    {
        std::string text = "# ccdkit: " + std::to_string(mesh.vertices.rows()) + " vertices, "
            + std::to_string(mesh.faces.rows()) + " triangles\n";
        text.reserve(
            text.size() + static_cast<std::size_t>(mesh.vertices.rows()) * 64
            + static_cast<std::size_t>(mesh.faces.rows()) * 24);
        std::array<char, 32> buffer {};
        const auto append = [&](auto value) {
            // Shortest form that parses back to the same double: the file round-trips exactly.
            const auto [ptr, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
            text.append(buffer.data(), ptr);
        };
        for (Eigen::Index v = 0; v < mesh.vertices.rows(); ++v) {
            text += 'v';
            for (int c = 0; c < 3; ++c) {
                text += ' ';
                append(mesh.vertices(v, c));
            }
            text += '\n';
        }
        for (Eigen::Index f = 0; f < mesh.faces.rows(); ++f) {
            text += 'f';
            for (int c = 0; c < 3; ++c) {
                text += ' ';
                append(mesh.faces(f, c) + 1);
            }
            text += '\n';
        }
        return text;
    }

    // ---------------------------------------------------------------------------------------------------------
    // PLY

    enum class PlyType : std::uint8_t { INT8, UINT8, INT16, UINT16, INT32, UINT32, FLOAT32, FLOAT64 };

    std::optional<PlyType> ply_type(std::string_view name)
    {
        struct Name {
            std::string_view name;
            PlyType type;
        };
        static constexpr std::array<Name, 16> NAMES { {
            { "char", PlyType::INT8 },
            { "uchar", PlyType::UINT8 },
            { "short", PlyType::INT16 },
            { "ushort", PlyType::UINT16 },
            { "int", PlyType::INT32 },
            { "uint", PlyType::UINT32 },
            { "float", PlyType::FLOAT32 },
            { "double", PlyType::FLOAT64 },
            { "int8", PlyType::INT8 },
            { "uint8", PlyType::UINT8 },
            { "int16", PlyType::INT16 },
            { "uint16", PlyType::UINT16 },
            { "int32", PlyType::INT32 },
            { "uint32", PlyType::UINT32 },
            { "float32", PlyType::FLOAT32 },
            { "float64", PlyType::FLOAT64 },
        } };
        for (const Name& entry : NAMES) {
            if (entry.name == name) {
                return entry.type;
            }
        }
        return std::nullopt;
    }

    std::size_t type_size(PlyType type)
    {
        switch (type) {
        case PlyType::INT8:
        case PlyType::UINT8:
            return 1;
        case PlyType::INT16:
        case PlyType::UINT16:
            return 2;
        case PlyType::INT32:
        case PlyType::UINT32:
        case PlyType::FLOAT32:
            return 4;
        case PlyType::FLOAT64:
            return 8;
        }
        return 0;
    }

    bool is_integer_type(PlyType type) { return type != PlyType::FLOAT32 && type != PlyType::FLOAT64; }

    /// Inclusive range of an integer type.
    std::pair<std::int64_t, std::int64_t> integer_range(PlyType type)
    {
        switch (type) {
        case PlyType::INT8:
            return { std::numeric_limits<std::int8_t>::min(), std::numeric_limits<std::int8_t>::max() };
        case PlyType::UINT8:
            return { 0, std::numeric_limits<std::uint8_t>::max() };
        case PlyType::INT16:
            return { std::numeric_limits<std::int16_t>::min(), std::numeric_limits<std::int16_t>::max() };
        case PlyType::UINT16:
            return { 0, std::numeric_limits<std::uint16_t>::max() };
        case PlyType::INT32:
            return { std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max() };
        case PlyType::UINT32:
        default:
            return { 0, std::numeric_limits<std::uint32_t>::max() };
        }
    }

    enum class PlyFormat : std::uint8_t { ASCII, BINARY_LITTLE_ENDIAN, BINARY_BIG_ENDIAN };

    struct PlyProperty {
        std::string name;
        PlyType type = PlyType::FLOAT64; ///< of the items, for a list
        bool is_list = false;
        PlyType count_type = PlyType::UINT8; ///< lists only
    };

    struct PlyElement {
        std::string name;
        std::uint64_t count = 0;
        std::vector<PlyProperty> properties;
    };

    struct PlyHeader {
        PlyFormat format = PlyFormat::ASCII;
        std::vector<PlyElement> elements;
        std::size_t data_offset = 0; ///< first byte after "end_header\n"
        std::size_t data_line = 0; ///< line number of that byte in an ascii file
    };

    std::string_view trimmed(std::string_view line)
    {
        while (!line.empty() && is_blank(line.back())) {
            line.remove_suffix(1);
        }
        return Tokens(line).rest();
    }

    bool is_single_word(std::string_view line, std::string_view word)
    {
        Tokens tokens(line);
        return tokens.next() == word && tokens.rest().empty();
    }

    PlyHeader read_ply_header(const fs::path& path, std::string_view text)
    {
        PlyHeader header;
        Lines lines(text);
        std::string_view line;
        if (!lines.next(line) || !is_single_word(line, "ply")) {
            fail_line(path, 1, "not a PLY file (the first line is not 'ply')");
        }
        bool has_format = false;
        while (true) {
            if (!lines.next(line)) {
                fail_file(path, "file ends in the header (no end_header line)");
            }
            const std::size_t number = lines.number();
            Tokens tokens(line);
            const std::string_view keyword = tokens.next();
            if (keyword == "end_header") {
                break;
            }
            if (keyword == "comment" || keyword == "obj_info" || keyword.empty()) {
                continue;
            }
            if (keyword == "format") {
                const std::string_view name = tokens.next();
                const std::string_view version = tokens.next();
                if (name == "ascii") {
                    header.format = PlyFormat::ASCII;
                } else if (name == "binary_little_endian") {
                    header.format = PlyFormat::BINARY_LITTLE_ENDIAN;
                } else if (name == "binary_big_endian") {
                    header.format = PlyFormat::BINARY_BIG_ENDIAN;
                } else {
                    fail_line(path, number, "unknown PLY format " + shown(name));
                }
                if (version != "1.0" || !tokens.rest().empty()) {
                    fail_line(path, number, "unsupported PLY format line " + shown(trimmed(line)));
                }
                has_format = true;
            } else if (keyword == "element") {
                PlyElement element;
                element.name = std::string(tokens.next());
                const std::string_view count_text = tokens.next();
                std::int64_t count = 0;
                if (element.name.empty() || parse_integer(count_text, count) != std::errc() || count < 0
                    || !tokens.rest().empty()) {
                    fail_line(path, number, "malformed element line " + shown(trimmed(line)));
                }
                for (const PlyElement& other : header.elements) {
                    if (other.name == element.name) {
                        fail_line(path, number, "duplicate element " + shown(element.name));
                    }
                }
                element.count = static_cast<std::uint64_t>(count);
                header.elements.push_back(std::move(element));
            } else if (keyword == "property") {
                if (header.elements.empty()) {
                    fail_line(path, number, "property before any element");
                }
                PlyProperty property;
                std::string_view type_name = tokens.next();
                if (type_name == "list") {
                    property.is_list = true;
                    const std::string_view count_name = tokens.next();
                    const std::optional<PlyType> count_type = ply_type(count_name);
                    if (!count_type) {
                        fail_line(path, number, "unknown property type " + shown(count_name));
                    }
                    if (!is_integer_type(*count_type)) {
                        fail_line(path, number, "list count type " + shown(count_name) + " is not an integer type");
                    }
                    property.count_type = *count_type;
                    type_name = tokens.next();
                }
                const std::optional<PlyType> type = ply_type(type_name);
                if (!type) {
                    fail_line(path, number, "unknown property type " + shown(type_name));
                }
                property.type = *type;
                property.name = std::string(tokens.next());
                if (property.name.empty() || !tokens.rest().empty()) {
                    fail_line(path, number, "malformed property line " + shown(trimmed(line)));
                }
                PlyElement& element = header.elements.back();
                for (const PlyProperty& other : element.properties) {
                    if (other.name == property.name) {
                        fail_line(
                            path, number,
                            "duplicate property " + shown(property.name) + " in element " + shown(element.name));
                    }
                }
                element.properties.push_back(std::move(property));
            } else {
                fail_line(path, number, "unknown header keyword " + shown(keyword));
            }
        }
        if (!has_format) {
            fail_file(path, "the PLY header has no format line");
        }
        header.data_offset = lines.offset();
        header.data_line = lines.number() + 1;
        return header;
    }

    /// Reads ascii PLY data: one element instance per line, values separated by blanks.
    class AsciiPlyReader {
    public:
        AsciiPlyReader(const fs::path& path, std::string_view text, std::size_t first_line)
            : path_(path)
            , text_(text)
            , line_number_(first_line - 1)
        {
        }

        /// Each value takes at least one character and one separator: bounds what a count can promise.
        [[nodiscard]] std::uint64_t max_instances(const PlyElement& element) const
        {
            return (text_.size() - std::min(pos_, text_.size()))
                / std::max<std::size_t>(1, 2 * element.properties.size());
        }

        void begin_instance(const PlyElement& element, std::uint64_t index)
        {
            element_ = &element;
            index_ = index;
            // Blank lines between instances carry nothing.
            do {
                if (pos_ >= text_.size()) {
                    line_number_ += 1;
                    fail("file ends early");
                }
                const std::size_t end = std::min(text_.find('\n', pos_), text_.size());
                line_ = Tokens(text_.substr(pos_, end - pos_));
                pos_ = end + 1;
                ++line_number_;
            } while (line_.rest().empty());
        }

        void end_instance()
        {
            const std::string_view extra = line_.rest();
            if (!extra.empty()) {
                fail("unexpected value " + shown(Tokens(extra).next()) + " after the last property");
            }
        }

        double read_real(PlyType type)
        {
            const std::string_view token = next_token();
            if (is_integer_type(type)) {
                return static_cast<double>(parse_integer_of(type, token));
            }
            double value = 0.0;
            if (const std::errc error = parse_double(token, value); error != std::errc()) {
                fail(number_error(token, error));
            }
            return value;
        }

        std::int64_t read_integer(PlyType type) { return parse_integer_of(type, next_token()); }

        void skip(PlyType type) { static_cast<void>(read_real(type)); }

        void finish()
        {
            const std::string_view rest = Tokens(text_.substr(std::min(pos_, text_.size()))).rest();
            const auto blank_or_newline = [](char c) { return is_blank(c) || c == '\n'; };
            const auto extra = std::find_if_not(rest.begin(), rest.end(), blank_or_newline);
            if (extra != rest.end()) {
                const std::size_t line
                    = line_number_ + 1 + static_cast<std::size_t>(std::count(rest.begin(), extra, '\n'));
                fail_line(path_, line, "unexpected data after the last element");
            }
        }

        [[noreturn]] void fail(const std::string& reason) const
        {
            fail_line(path_, line_number_, element_->name + " " + std::to_string(index_) + ": " + reason);
        }

    private:
        std::string_view next_token()
        {
            const std::string_view token = line_.next();
            if (token.empty()) {
                fail("too few values on the line");
            }
            return token;
        }

        std::int64_t parse_integer_of(PlyType type, std::string_view token)
        {
            std::int64_t value = 0;
            if (parse_integer(token, value) != std::errc()) {
                fail("malformed integer " + shown(token));
            }
            const auto [low, high] = integer_range(type);
            if (value < low || value > high) {
                fail("value " + shown(token) + " out of the range of its type");
            }
            return value;
        }

        const fs::path& path_;
        std::string_view text_;
        std::size_t pos_ = 0;
        std::size_t line_number_;
        Tokens line_ { std::string_view() };
        const PlyElement* element_ = nullptr;
        std::uint64_t index_ = 0;
    };

    /// Reads binary PLY data in the byte order `ORDER`.
    template <std::endian ORDER> class BinaryPlyReader {
    public:
        BinaryPlyReader(const fs::path& path, std::string_view data)
            : path_(path)
            , data_(data)
        {
        }

        [[nodiscard]] std::uint64_t max_instances(const PlyElement& element) const
        {
            std::size_t bytes = 0;
            for (const PlyProperty& property : element.properties) {
                bytes += type_size(property.is_list ? property.count_type : property.type);
            }
            return (data_.size() - pos_) / std::max<std::size_t>(1, bytes);
        }

        void begin_instance(const PlyElement& element, std::uint64_t index)
        {
            element_ = &element;
            index_ = index;
        }

        void end_instance() { }

        double read_real(PlyType type)
        {
            return read_as(type, [](auto value) { return static_cast<double>(value); });
        }

        std::int64_t read_integer(PlyType type)
        {
            return read_as(type, [this](auto value) -> std::int64_t {
                if constexpr (std::is_floating_point_v<decltype(value)>) {
                    fail("a float cannot be a count or an index"); // the header check keeps this from happening
                } else {
                    return value;
                }
            });
        }

        void skip(PlyType type)
        {
            const std::size_t size = type_size(type);
            if (data_.size() - pos_ < size) {
                fail("file ends early");
            }
            pos_ += size;
        }

        void finish()
        {
            if (pos_ != data_.size()) {
                fail_file(
                    path_, std::to_string(data_.size() - pos_) + " bytes of unexpected data after the last element");
            }
        }

        [[noreturn]] void fail(const std::string& reason) const
        {
            fail_file(path_, element_->name + " " + std::to_string(index_) + ": " + reason);
        }

    private:
        /// Reads one value stored as `type` and passes it, as that C++ type, to `use`.
        template <class Use> auto read_as(PlyType type, Use use)
        {
            switch (type) {
            case PlyType::INT8:
                return use(read<std::int8_t>());
            case PlyType::UINT8:
                return use(read<std::uint8_t>());
            case PlyType::INT16:
                return use(read<std::int16_t>());
            case PlyType::UINT16:
                return use(read<std::uint16_t>());
            case PlyType::INT32:
                return use(read<std::int32_t>());
            case PlyType::UINT32:
                return use(read<std::uint32_t>());
            case PlyType::FLOAT32:
                return use(read<float>());
            case PlyType::FLOAT64:
                return use(read<double>());
            }
            fail("unknown property type");
        }

        template <typename T> T read()
        {
            if (data_.size() - pos_ < sizeof(T)) {
                fail("file ends early");
            }
            std::array<char, sizeof(T)> bytes {};
            std::memcpy(bytes.data(), data_.data() + pos_, sizeof(T));
            pos_ += sizeof(T);
            if constexpr (ORDER != std::endian::native) {
                std::reverse(bytes.begin(), bytes.end());
            }
            return std::bit_cast<T>(bytes);
        }

        const fs::path& path_;
        std::string_view data_;
        std::size_t pos_ = 0;
        const PlyElement* element_ = nullptr;
        std::uint64_t index_ = 0;
    };

    /// Where the mesh lives in a header's elements.
    struct PlyLayout {
        const PlyElement* vertex = nullptr;
        std::array<std::size_t, 3> xyz {}; ///< property positions of x, y, z in the vertex element
        const PlyElement* face = nullptr;
        std::size_t indices = 0; ///< property position of the index list in the face element
    };

    PlyLayout find_layout(const fs::path& path, const PlyHeader& header)
    {
        PlyLayout layout;
        for (const PlyElement& element : header.elements) {
            if (element.name == "vertex") {
                layout.vertex = &element;
            } else if (element.name == "face") {
                layout.face = &element;
            }
        }
        if (layout.vertex == nullptr) {
            fail_file(path, "the PLY header has no vertex element");
        }
        if (layout.vertex->count > MAX_VERTICES) {
            fail_file(path, "too many vertices (" + std::to_string(layout.vertex->count) + ")");
        }
        const auto find = [](const PlyElement& element, std::string_view name) -> const PlyProperty* {
            for (const PlyProperty& property : element.properties) {
                if (property.name == name) {
                    return &property;
                }
            }
            return nullptr;
        };
        const std::array<std::string_view, 3> axes { "x", "y", "z" };
        for (std::size_t axis = 0; axis < 3; ++axis) {
            const PlyProperty* property = find(*layout.vertex, axes[axis]);
            if (property == nullptr || property->is_list) {
                fail_file(
                    path,
                    "the vertex element has no " + std::string(property == nullptr ? "" : "scalar ") + "property "
                        + shown(axes[axis]));
            }
            layout.xyz[axis] = static_cast<std::size_t>(property - layout.vertex->properties.data());
        }
        if (layout.face != nullptr) {
            const PlyProperty* property = find(*layout.face, "vertex_indices");
            if (property == nullptr) {
                property = find(*layout.face, "vertex_index");
            }
            if (property == nullptr || !property->is_list) {
                fail_file(path, "the face element has no list property 'vertex_indices' (or 'vertex_index')");
            }
            if (!is_integer_type(property->type)) {
                fail_file(path, "face property " + shown(property->name) + " has items of a floating-point type");
            }
            layout.indices = static_cast<std::size_t>(property - layout.face->properties.data());
        }
        return layout;
    }

    template <typename Reader> TriangleMesh read_ply_data(const fs::path& path, const PlyHeader& header, Reader& reader)
    {
        const PlyLayout layout = find_layout(path, header);
        std::vector<double> coordinates;
        std::vector<int> indices;
        std::vector<int> polygon;
        const auto vertex_count = static_cast<std::int64_t>(layout.vertex->count);

        for (const PlyElement& element : header.elements) {
            if (element.properties.empty()) {
                continue; // instances without properties take no space
            }
            const bool is_vertex = &element == layout.vertex;
            const bool is_face = &element == layout.face;
            // A count no file of this size could hold must fail on its first missing instance, not on a
            // huge allocation.
            const std::uint64_t expected = std::min(element.count, reader.max_instances(element));
            if (is_vertex) {
                coordinates.reserve(static_cast<std::size_t>(3 * expected));
            } else if (is_face) {
                indices.reserve(static_cast<std::size_t>(3 * expected));
            }
            for (std::uint64_t index = 0; index < element.count; ++index) {
                reader.begin_instance(element, index);
                std::array<double, 3> xyz {};
                for (std::size_t p = 0; p < element.properties.size(); ++p) {
                    const PlyProperty& property = element.properties[p];
                    if (!property.is_list) {
                        if (is_vertex && (p == layout.xyz[0] || p == layout.xyz[1] || p == layout.xyz[2])) {
                            xyz[p == layout.xyz[0] ? 0 : p == layout.xyz[1] ? 1 : 2] = reader.read_real(property.type);
                        } else {
                            reader.skip(property.type);
                        }
                        continue;
                    }
                    const std::int64_t count = reader.read_integer(property.count_type);
                    if (count < 0) {
                        reader.fail("negative list length " + std::to_string(count));
                    }
                    if (!(is_face && p == layout.indices)) {
                        for (std::int64_t k = 0; k < count; ++k) {
                            reader.skip(property.type);
                        }
                        continue;
                    }
                    if (count < 3) {
                        reader.fail("face needs at least 3 vertices, found " + std::to_string(count));
                    }
                    polygon.clear();
                    for (std::int64_t k = 0; k < count; ++k) {
                        const std::int64_t vertex = reader.read_integer(property.type);
                        if (vertex < 0 || vertex >= vertex_count) {
                            reader.fail(
                                "face index " + std::to_string(vertex) + " out of range ("
                                + std::to_string(vertex_count) + " vertices)");
                        }
                        polygon.push_back(static_cast<int>(vertex));
                    }
                    append_fan(polygon, indices);
                }
                reader.end_instance();
                if (is_vertex) {
                    if (!std::isfinite(xyz[0]) || !std::isfinite(xyz[1]) || !std::isfinite(xyz[2])) {
                        reader.fail("non-finite coordinate " + format_coordinates(xyz[0], xyz[1], xyz[2]));
                    }
                    coordinates.insert(coordinates.end(), xyz.begin(), xyz.end());
                }
            }
        }
        reader.finish();
        return make_mesh(coordinates, indices);
    }

    TriangleMesh read_ply(const fs::path& path, std::string_view text)
    {
        const PlyHeader header = read_ply_header(path, text);
        const std::string_view data = text.substr(header.data_offset);
        switch (header.format) {
        case PlyFormat::ASCII: {
            AsciiPlyReader reader(path, data, header.data_line);
            return read_ply_data(path, header, reader);
        }
        case PlyFormat::BINARY_LITTLE_ENDIAN: {
            BinaryPlyReader<std::endian::little> reader(path, data);
            return read_ply_data(path, header, reader);
        }
        case PlyFormat::BINARY_BIG_ENDIAN:
        default: {
            BinaryPlyReader<std::endian::big> reader(path, data);
            return read_ply_data(path, header, reader);
        }
        }
    }

    template <typename T> void append_little_endian(std::string& bytes, T value)
    {
        auto raw = std::bit_cast<std::array<char, sizeof(T)>>(value);
        if constexpr (std::endian::native != std::endian::little) {
            std::reverse(raw.begin(), raw.end());
        }
        bytes.append(raw.data(), raw.size());
    }

    std::string format_ply(const TriangleMesh& mesh)
    {
        std::string bytes = "ply\n"
                            "format binary_little_endian 1.0\n"
                            "comment written by ccdkit\n"
                            "element vertex "
            + std::to_string(mesh.vertices.rows())
            + "\n"
              "property double x\n"
              "property double y\n"
              "property double z\n"
              "element face "
            + std::to_string(mesh.faces.rows())
            + "\n"
              "property list uchar int vertex_indices\n"
              "end_header\n";
        bytes.reserve(
            bytes.size() + static_cast<std::size_t>(mesh.vertices.rows()) * 3 * sizeof(double)
            + static_cast<std::size_t>(mesh.faces.rows()) * (1 + 3 * sizeof(std::int32_t)));
        for (Eigen::Index v = 0; v < mesh.vertices.rows(); ++v) {
            for (int c = 0; c < 3; ++c) {
                append_little_endian(bytes, mesh.vertices(v, c));
            }
        }
        for (Eigen::Index f = 0; f < mesh.faces.rows(); ++f) {
            bytes += static_cast<char>(3);
            for (int c = 0; c < 3; ++c) {
                append_little_endian(bytes, static_cast<std::int32_t>(mesh.faces(f, c)));
            }
        }
        return bytes;
    }

    /// Only what the readers would reject: degenerate faces are written as they are.
    void check_writable(const TriangleMesh& mesh)
    {
        for (Eigen::Index v = 0; v < mesh.vertices.rows(); ++v) {
            if (!mesh.vertices.row(v).allFinite()) {
                throw std::invalid_argument(
                    "write_mesh: vertex " + std::to_string(v) + " has a non-finite coordinate "
                    + format_coordinates(mesh.vertices(v, 0), mesh.vertices(v, 1), mesh.vertices(v, 2)));
            }
        }
        const Eigen::Index vertex_count = mesh.vertices.rows();
        for (Eigen::Index f = 0; f < mesh.faces.rows(); ++f) {
            for (int c = 0; c < 3; ++c) {
                const int index = mesh.faces(f, c);
                if (index < 0 || index >= vertex_count) {
                    throw std::invalid_argument(
                        "write_mesh: face " + std::to_string(f) + ": vertex index " + std::to_string(index)
                        + " out of range (" + std::to_string(vertex_count) + " vertices)");
                }
            }
        }
    }

} // namespace

TriangleMesh read_mesh(const fs::path& path)
{
    const std::string extension = lowercase_extension(path);
    if (extension != ".obj" && extension != ".ply") {
        fail_extension(path);
    }
    const std::string text = read_file(path);
    return extension == ".obj" ? read_obj(path, text) : read_ply(path, text);
}

void write_mesh(const fs::path& path, const TriangleMesh& mesh)
{
    const std::string extension = lowercase_extension(path);
    if (extension != ".obj" && extension != ".ply") {
        fail_extension(path);
    }
    check_writable(mesh);
    write_file(path, extension == ".obj" ? format_obj(mesh) : format_ply(mesh));
}

} // namespace ccdkit
