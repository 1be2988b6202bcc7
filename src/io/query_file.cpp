// SPDX-License-Identifier: MIT
#include "ccdkit/io/query_file.hpp"

#include <gmpxx.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace ccdkit {

namespace fs = std::filesystem;

namespace {

    /// The most fields a row has: three rational coordinates and the truth.
    constexpr std::size_t MAX_FIELDS = 7;

    /// The shape of a query file of one kind.
    struct RowLayout {
        std::size_t rows_per_query; ///< rows (points) per query
        std::size_t coordinate_fields; ///< two per coordinate: numerator, denominator
        std::size_t fields_with_truth; ///< coordinate_fields + 1
    };

    RowLayout row_layout(QueryKind kind)
    {
        const auto coordinate_fields = 2 * static_cast<std::size_t>(query_dimension(kind));
        return { query_rows(kind), coordinate_fields, coordinate_fields + 1 };
    }

    [[noreturn]] void fail(const fs::path& path, std::size_t line, const std::string& reason)
    {
        throw std::runtime_error(path.string() + ":" + std::to_string(line) + ": " + reason);
    }

    /// A field as it appears in messages; huge integers are cut so one bad value cannot flood a log.
    std::string shown(std::string_view text)
    {
        constexpr std::size_t MAX_SHOWN = 40;
        if (text.size() <= MAX_SHOWN) {
            return "'" + std::string(text) + "'";
        }
        return "'" + std::string(text.substr(0, MAX_SHOWN)) + "...' (" + std::to_string(text.size()) + " characters)";
    }

    bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

    std::string_view trim(std::string_view text)
    {
        while (!text.empty() && is_blank(text.front())) {
            text.remove_prefix(1);
        }
        while (!text.empty() && is_blank(text.back())) {
            text.remove_suffix(1);
        }
        return text;
    }

    std::string read_text(const fs::path& path)
    {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            throw std::runtime_error(path.string() + ": cannot open file");
        }
        std::ostringstream buffer;
        buffer << in.rdbuf();
        if (in.bad()) {
            throw std::runtime_error(path.string() + ": read error");
        }
        return std::move(buffer).str();
    }

    /// Turns decimal fields into exact doubles. The GMP objects live as long as the parser so that a file's
    /// ~600k fields do not each allocate.
    class RationalParser {
    public:
        explicit RationalParser(const fs::path& path)
            : path_(path)
        {
        }

        /// Parses `num_text/den_text` (fields `field` and `field + 1`, 1-based) into a double, or throws.
        double parse(std::string_view num_text, std::string_view den_text, std::size_t line, std::size_t field)
        {
            parse_integer(num_text, line, field, num_);
            parse_integer(den_text, line, field + 1, den_);
            if (sgn(den_) == 0) {
                fail(path_, line, "field " + std::to_string(field + 1) + ": zero denominator");
            }
            mpq_set_num(value_.get_mpq_t(), num_.get_mpz_t());
            mpq_set_den(value_.get_mpq_t(), den_.get_mpz_t());
            value_.canonicalize();

            const double result = value_.get_d();
            if (!std::isfinite(result)) {
                fail_value(line, field, "is out of the range of double");
            }
            // get_d truncates, so the round trip reproduces the rational only when the conversion was exact.
            check_ = result;
            if (check_ != value_) {
                check_ = std::numeric_limits<double>::max();
                fail_value(
                    line, field,
                    abs(value_) > check_ ? "is out of the range of double"
                                         : "is not exactly representable as a double");
            }
            return result;
        }

    private:
        void parse_integer(std::string_view text, std::size_t line, std::size_t field, mpz_class& out)
        {
            const std::string_view digits = !text.empty() && text.front() == '-' ? text.substr(1) : text;
            const bool valid = !digits.empty()
                && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
            if (!valid) {
                fail(path_, line, "field " + std::to_string(field) + " " + shown(text) + " is not an integer");
            }
            // Short integers (all of the shared data) skip GMP's string parser and its temporary buffers.
            if (digits.size() <= static_cast<std::size_t>(std::numeric_limits<long>::digits10)) {
                long magnitude = 0;
                for (const char c : digits) {
                    magnitude = magnitude * 10 + (c - '0');
                }
                out = digits.size() == text.size() ? magnitude : -magnitude;
                return;
            }
            buffer_.assign(text);
            if (out.set_str(buffer_, 10) != 0) {
                fail(path_, line, "field " + std::to_string(field) + " " + shown(text) + " is not an integer");
            }
        }

        [[noreturn]] void fail_value(std::size_t line, std::size_t field, const std::string& reason)
        {
            fail(
                path_, line,
                "fields " + std::to_string(field) + "-" + std::to_string(field + 1) + ": "
                    + shown(num_.get_str() + "/" + den_.get_str()) + " " + reason);
        }

        const fs::path& path_;
        mpz_class num_;
        mpz_class den_;
        mpq_class value_;
        mpq_class check_;
        std::string buffer_;
    };

    /// 1-based line of a byte offset in a text.
    std::size_t line_of(const std::string& text, std::size_t offset)
    {
        offset = std::min(offset, text.size());
        return 1
            + static_cast<std::size_t>(
                   std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    }

    /// Byte offset of entry `index` of the top-level array in valid JSON text; the parsed document keeps no
    /// positions, so errors about an entry find it again here.
    std::size_t array_entry_offset(const std::string& text, std::size_t index)
    {
        std::size_t depth = 0;
        std::size_t entry = 0;
        bool in_string = false;
        for (std::size_t i = 0; i < text.size(); ++i) {
            const char c = text[i];
            if (in_string) {
                if (c == '\\') {
                    ++i;
                } else if (c == '"') {
                    in_string = false;
                }
                continue;
            }
            if (depth == 1 && entry == index && c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != ',') {
                return i;
            }
            if (c == '"') {
                in_string = true;
            } else if (c == '[' || c == '{') {
                ++depth;
            } else if (c == ']' || c == '}') {
                --depth;
            } else if (c == ',' && depth == 1) {
                ++entry;
            }
        }
        return text.size();
    }

    /// `<dir>/../mma_bool/<stem>_mma_bool.json`, not normalized lexically: `<dir>` may be a symbolic link.
    fs::path mma_bool_path(const fs::path& csv_path)
    {
        return csv_path.parent_path() / ".." / "mma_bool" / (csv_path.stem().string() + "_mma_bool.json");
    }

    /// Ground truth of a file without a truth column from its mma_bool JSON; nothing when that file is absent.
    std::optional<std::vector<bool>> read_mma_bool(const fs::path& json_path)
    {
        std::error_code error;
        if (!fs::exists(json_path, error)) {
            return std::nullopt;
        }
        const std::string text = read_text(json_path);
        nlohmann::json json;
        try {
            json = nlohmann::json::parse(text);
        } catch (const nlohmann::json::parse_error& e) {
            fail(json_path, line_of(text, e.byte > 0 ? e.byte - 1 : 0), std::string("invalid JSON: ") + e.what());
        }
        if (!json.is_array()) {
            fail(
                json_path, line_of(text, text.find_first_not_of(" \t\r\n")),
                std::string("expected an array of booleans, found ") + json.type_name());
        }
        std::vector<bool> truth;
        truth.reserve(json.size());
        for (std::size_t i = 0; i < json.size(); ++i) {
            if (!json[i].is_boolean()) {
                fail(
                    json_path, line_of(text, array_entry_offset(text, i)),
                    "entry " + std::to_string(i) + " is " + json[i].type_name() + ", expected a boolean");
            }
            truth.push_back(json[i].get<bool>());
        }
        return truth;
    }

} // namespace

std::size_t query_rows(QueryKind kind)
{
    switch (kind) {
    case QueryKind::VERTEX_FACE:
    case QueryKind::EDGE_EDGE:
        return 8;
    case QueryKind::POINT_EDGE:
        return 6;
    }
    throw std::invalid_argument("query_rows: invalid QueryKind");
}

int query_dimension(QueryKind kind)
{
    switch (kind) {
    case QueryKind::VERTEX_FACE:
    case QueryKind::EDGE_EDGE:
        return 3;
    case QueryKind::POINT_EDGE:
        return 2;
    }
    throw std::invalid_argument("query_dimension: invalid QueryKind");
}

std::optional<QueryKind> query_kind_from_path(const fs::path& path)
{
    std::vector<std::string> names;
    for (const fs::path& part : path) {
        std::string name = part.string();
        if (!name.empty() && name != "." && name != ".." && !part.has_root_path()) {
            names.push_back(std::move(name));
        }
    }
    if (names.empty()) {
        return std::nullopt;
    }

    const auto named = [](const std::string& name) -> std::optional<QueryKind> {
        if (name == "vertex-face") {
            return QueryKind::VERTEX_FACE;
        }
        if (name == "edge-edge") {
            return QueryKind::EDGE_EDGE;
        }
        if (name == "point-edge") {
            return QueryKind::POINT_EDGE;
        }
        return std::nullopt;
    };

    // The file name first: its stem (`3036vf.csv`) is more specific than any folder it sits in.
    const std::string& file_name = names.back();
    if (const auto kind = named(file_name)) {
        return kind;
    }
    const std::string stem = fs::path(file_name).stem().string();
    if (const auto kind = named(stem)) {
        return kind;
    }
    if (stem.ends_with("vf")) {
        return QueryKind::VERTEX_FACE;
    }
    if (stem.ends_with("ee")) {
        return QueryKind::EDGE_EDGE;
    }
    if (stem.ends_with("pe")) {
        return QueryKind::POINT_EDGE;
    }
    for (auto it = std::next(names.rbegin()); it != names.rend(); ++it) {
        if (const auto kind = named(*it)) {
            return kind;
        }
    }
    return std::nullopt;
}

QueryFile read_query_file(const fs::path& path, QueryKind kind)
{
    const RowLayout layout = row_layout(kind);
    const auto dimension = static_cast<Eigen::Index>(query_dimension(kind));
    QueryFile file;
    file.path = path;
    file.kind = kind;

    const std::string text = read_text(path);
    file.queries.reserve(
        static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) / layout.rows_per_query + 1);

    RationalParser parser(path);
    std::array<std::string_view, MAX_FIELDS> fields;
    std::size_t field_count = 0; // of the file, fixed by its first row
    std::size_t first_row_line = 0; // where field_count was fixed
    std::size_t rows = 0;
    std::size_t blank_line = 0; // first blank line seen; only trailing ones are allowed
    Query query;
    query.kind = kind;
    // Coordinates a 2D file does not give (z) and points past its rows stay zero.
    query.points.fill(Eigen::Vector3d::Zero());

    std::size_t line = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view row = trim(std::string_view(text).substr(start, end - start));
        start = end + 1;
        ++line;

        if (row.empty()) {
            if (blank_line == 0) {
                blank_line = line;
            }
            continue;
        }
        if (blank_line != 0) {
            fail(path, blank_line, "blank line before more data (line " + std::to_string(line) + ")");
        }

        std::size_t count = 0;
        std::size_t field_start = 0;
        while (true) {
            const std::size_t comma = std::min(row.find(',', field_start), row.size());
            if (count < fields.size()) {
                fields[count] = trim(row.substr(field_start, comma - field_start));
            }
            ++count;
            if (comma == row.size()) {
                break;
            }
            field_start = comma + 1;
        }
        if (count != layout.coordinate_fields && count != layout.fields_with_truth) {
            fail(
                path, line,
                "expected " + std::to_string(layout.coordinate_fields) + " or "
                    + std::to_string(layout.fields_with_truth) + " fields, found " + std::to_string(count));
        }
        if (field_count == 0) {
            field_count = count;
            first_row_line = line;
        } else if (count != field_count) {
            fail(
                path, line,
                "found " + std::to_string(count) + " fields but line " + std::to_string(first_row_line) + " has "
                    + std::to_string(field_count));
        }
        for (std::size_t i = 0; i < count; ++i) {
            if (fields[i].empty()) {
                fail(path, line, "field " + std::to_string(i + 1) + " is empty");
            }
        }

        const std::size_t slot = rows % layout.rows_per_query;
        if (slot == 0) {
            query.line = line;
            query.truth.reset();
        }
        Eigen::Vector3d& point = query.points[slot];
        for (Eigen::Index axis = 0; axis < dimension; ++axis) {
            const auto field = 2 * static_cast<std::size_t>(axis);
            point[axis] = parser.parse(fields[field], fields[field + 1], line, field + 1);
        }
        if (count == layout.fields_with_truth) {
            const std::string_view truth_text = fields[layout.coordinate_fields];
            if (truth_text != "0" && truth_text != "1") {
                fail(
                    path, line,
                    "field " + std::to_string(layout.fields_with_truth) + " " + shown(truth_text)
                        + " is not a truth value 0 or 1");
            }
            const bool truth = truth_text == "1";
            if (slot == 0) {
                query.truth = truth;
            } else if (*query.truth != truth) {
                fail(
                    path, line,
                    "truth " + std::string(truth_text) + " differs from " + (*query.truth ? "1" : "0") + " on line "
                        + std::to_string(query.line) + ", the query's first row");
            }
        }
        if (slot == layout.rows_per_query - 1) {
            file.queries.push_back(query);
        }
        ++rows;
    }

    if (const std::size_t partial = rows % layout.rows_per_query; partial != 0) {
        fail(
            path, query.line,
            "truncated query: the file ends after " + std::to_string(partial) + " of its "
                + std::to_string(layout.rows_per_query) + " rows (" + std::to_string(rows)
                + " rows in all, not a multiple of " + std::to_string(layout.rows_per_query) + ")");
    }

    if (field_count == layout.coordinate_fields) {
        const fs::path json_path = mma_bool_path(path);
        if (const auto truth = read_mma_bool(json_path)) {
            if (truth->size() != file.queries.size()) {
                fail(
                    json_path, 1,
                    "holds " + std::to_string(truth->size()) + " booleans but " + path.string() + " has "
                        + std::to_string(file.queries.size()) + " queries");
            }
            for (std::size_t i = 0; i < truth->size(); ++i) {
                file.queries[i].truth = (*truth)[i];
            }
        }
    }
    return file;
}

std::vector<QueryFile> read_query_paths(const std::vector<fs::path>& paths)
{
    std::vector<fs::path> csv_paths;
    for (const fs::path& path : paths) {
        std::error_code error;
        const fs::file_status status = fs::status(path, error);
        if (!fs::exists(status)) {
            throw std::runtime_error(
                path.string() + ": " + (error ? error.message() : std::string("no such file or directory")));
        }
        if (fs::is_directory(status)) {
            for (const auto& entry : fs::recursive_directory_iterator(path)) {
                if (entry.is_regular_file() && entry.path().extension() == ".csv") {
                    csv_paths.push_back(entry.path());
                }
            }
        } else {
            csv_paths.push_back(path);
        }
    }
    // Directory iteration order is unspecified; sorting makes runs and reports reproducible.
    std::sort(csv_paths.begin(), csv_paths.end());
    csv_paths.erase(std::unique(csv_paths.begin(), csv_paths.end()), csv_paths.end());

    std::vector<QueryFile> files;
    files.reserve(csv_paths.size());
    for (const fs::path& path : csv_paths) {
        const auto kind = query_kind_from_path(path);
        if (!kind) {
            throw std::runtime_error(
                path.string()
                + ": cannot tell the query kind from the path (expected a folder named vertex-face, "
                  "edge-edge or point-edge, or a file name ending in vf, ee or pe)");
        }
        files.push_back(read_query_file(path, *kind));
    }
    return files;
}

} // namespace ccdkit
