// SPDX-License-Identifier: MIT
#include "ccdkit/io/query_file.hpp"
#include "oracle/linear_ccd_oracle.hpp"

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using ccdkit::query_dimension;
using ccdkit::query_kind_from_path;
using ccdkit::query_rows;
using ccdkit::QueryFile;
using ccdkit::QueryKind;
using ccdkit::read_query_file;
using ccdkit::read_query_paths;

/// Each test gets its own folder under the system temp dir, removed afterwards.
class QueryFileTest : public testing::Test {
protected:
    void SetUp() override
    {
        const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
        std::random_device random;
        dir_ = fs::temp_directory_path()
            / ("ccdkit_query_file_" + std::string(info->test_suite_name()) + "_" + info->name() + "_"
               + std::to_string(random()) + std::to_string(random()));
        fs::create_directories(dir_);
    }

    void TearDown() override
    {
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }

    /// Writes `text` byte for byte (no newline translation) to `relative` under the test folder.
    fs::path write(const fs::path& relative, const std::string& text) const
    {
        const fs::path path = dir_ / relative;
        fs::create_directories(path.parent_path());
        std::ofstream out(path, std::ios::binary);
        out << text;
        return path;
    }

    fs::path dir_;
};

using QueryFileRead = QueryFileTest;
using QueryFilePaths = QueryFileTest;

/// `count` copies of one row, each ended by '\n'.
std::string rows(const std::string& row, int count)
{
    std::string text;
    for (int i = 0; i < count; ++i) {
        text += row + "\n";
    }
    return text;
}

/// Runs `read` and checks that it throws std::runtime_error whose message holds every one of `parts`.
void expect_error(const std::function<void()>& read, std::initializer_list<std::string> parts)
{
    try {
        read();
        ADD_FAILURE() << "no exception thrown";
    } catch (const std::runtime_error& e) {
        const std::string message = e.what();
        for (const std::string& part : parts) {
            EXPECT_NE(message.find(part), std::string::npos) << "message '" << message << "' lacks '" << part << "'";
        }
    }
}

/// 2^exponent in decimal.
std::string power_of_two(unsigned long exponent)
{
    mpz_class value;
    mpz_ui_pow_ui(value.get_mpz_t(), 2, exponent);
    return value.get_str();
}

TEST_F(QueryFileRead, SevenColumnsValuesAndTruth)
{
    const std::string big = power_of_two(53);
    // Row 1 is (3/4, -5/8, 0/1); row 2 is (-0/7, (2^53 - 1)/2^53, 1/-2): a negative denominator is allowed.
    const std::string text = "3,4,-5,8,0,1,1\n-0,7,9007199254740991," + big + ",1,-2,1\n" + rows("1,1,2,1,3,1,1", 6)
        + rows("-1,1,-2,1,-3,1,0", 8);
    const fs::path path = write("data.csv", text);
    const QueryFile file = read_query_file(path, QueryKind::EDGE_EDGE);

    EXPECT_EQ(file.path, path);
    EXPECT_EQ(file.kind, QueryKind::EDGE_EDGE);
    ASSERT_EQ(file.queries.size(), 2u);
    const ccdkit::Query& first = file.queries[0];
    EXPECT_EQ(first.kind, QueryKind::EDGE_EDGE);
    EXPECT_EQ(first.line, 1u);
    EXPECT_EQ(first.truth, std::optional<bool>(true));
    EXPECT_EQ(first.points[0], Eigen::Vector3d(0.75, -0.625, 0.0));
    EXPECT_EQ(first.points[1], Eigen::Vector3d(0.0, 1.0 - std::ldexp(1.0, -53), -0.5));
    EXPECT_FALSE(std::signbit(first.points[1].x())); // the rational -0 is plain zero
    for (int i = 2; i < 8; ++i) {
        EXPECT_EQ(first.points[i], Eigen::Vector3d(1.0, 2.0, 3.0));
    }
    const ccdkit::Query& second = file.queries[1];
    EXPECT_EQ(second.line, 9u);
    EXPECT_EQ(second.truth, std::optional<bool>(false));
    EXPECT_EQ(second.points[7], Eigen::Vector3d(-1.0, -2.0, -3.0));
}

TEST_F(QueryFileRead, ExactValuesBeyondPlainDoubles)
{
    // The largest double, the smallest subnormal, and 6/4 which is exact once reduced.
    const mpz_class max_numerator = (mpz_class(1) << 53) - 1;
    const std::string dbl_max = mpz_class(max_numerator << 971).get_str();
    const std::string text = "-" + dbl_max + ",1,1," + power_of_two(1074) + ",6,4\n" + rows("0,1,0,1,0,1", 7);
    const QueryFile file = read_query_file(write("q.csv", text), QueryKind::VERTEX_FACE);
    ASSERT_EQ(file.queries.size(), 1u);
    EXPECT_EQ(file.queries[0].points[0].x(), -std::numeric_limits<double>::max());
    EXPECT_EQ(file.queries[0].points[0].y(), std::numeric_limits<double>::denorm_min());
    EXPECT_EQ(file.queries[0].points[0].z(), 1.5);
}

TEST_F(QueryFileRead, EmptyFileHasNoQueries)
{
    const QueryFile file = read_query_file(write("empty.csv", "\n \n"), QueryKind::EDGE_EDGE);
    EXPECT_TRUE(file.queries.empty());
}

TEST_F(QueryFileRead, SixColumnsTruthFromMmaBool)
{
    const fs::path path = write("set/queries/12ee.csv", rows("1,2,3,4,5,8", 16));
    write("set/mma_bool/12ee_mma_bool.json", "[true,\n false]\n");
    const QueryFile file = read_query_file(path, QueryKind::EDGE_EDGE);
    ASSERT_EQ(file.queries.size(), 2u);
    EXPECT_EQ(file.queries[0].truth, std::optional<bool>(true));
    EXPECT_EQ(file.queries[1].truth, std::optional<bool>(false));
    EXPECT_EQ(file.queries[1].points[3], Eigen::Vector3d(0.5, 0.75, 0.625));
}

TEST_F(QueryFileRead, SixColumnsWithoutMmaBoolHaveNoTruth)
{
    const fs::path path = write("set/queries/12vf.csv", rows("1,2,3,4,5,8", 8));
    write("set/mma_bool/other_mma_bool.json", "[true]");
    const QueryFile file = read_query_file(path, QueryKind::VERTEX_FACE);
    ASSERT_EQ(file.queries.size(), 1u);
    EXPECT_FALSE(file.queries[0].truth.has_value());
}

TEST_F(QueryFileRead, MmaBoolWrongLength)
{
    const fs::path path = write("set/queries/7ee.csv", rows("1,2,3,4,5,8", 16));
    write("set/mma_bool/7ee_mma_bool.json", "[true,false,true]");
    expect_error(
        [&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); },
        { "7ee_mma_bool.json:1:", "3 booleans", path.string(), "2 queries" });
}

TEST_F(QueryFileRead, MmaBoolMalformed)
{
    const fs::path path = write("set/queries/7ee.csv", rows("1,2,3,4,5,8", 16));
    write("set/mma_bool/7ee_mma_bool.json", "[true,1]");
    expect_error([&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); }, { "7ee_mma_bool.json:1:", "entry 1" });
    // Entries are located by line, past strings holding quotes, commas and brackets.
    write("set/mma_bool/7ee_mma_bool.json", "[true, \"a,[b\\\"\", \n  [true, \"],\"],\n  null\n]");
    expect_error(
        [&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); }, { "7ee_mma_bool.json:1: entry 1 is string" });
    write("set/mma_bool/7ee_mma_bool.json", "[true, false,\n  [true, \"],\"],\n  null\n]");
    expect_error(
        [&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); }, { "7ee_mma_bool.json:2: entry 2 is array" });
    write("set/mma_bool/7ee_mma_bool.json", "{\"a\": true}");
    expect_error([&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); }, { "7ee_mma_bool.json:1:", "array" });
    write("set/mma_bool/7ee_mma_bool.json", "[true,\nfalse,\n");
    expect_error(
        [&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); }, { "7ee_mma_bool.json:3:", "invalid JSON" });
}

TEST_F(QueryFileRead, SevenColumnsIgnoreMmaBool)
{
    const fs::path path = write("set/queries/5vf.csv", rows("1,2,3,4,5,8,1", 8));
    write("set/mma_bool/5vf_mma_bool.json", "[false,false]");
    const QueryFile file = read_query_file(path, QueryKind::VERTEX_FACE);
    ASSERT_EQ(file.queries.size(), 1u);
    EXPECT_EQ(file.queries[0].truth, std::optional<bool>(true));
}

TEST_F(QueryFileRead, TruncatedFileNamesItsLine)
{
    const fs::path path = write("short.csv", rows("1,1,1,1,1,1,0", 11));
    expect_error([&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); }, { path.string() + ":9:", "truncated" });
}

TEST_F(QueryFileRead, ZeroDenominator)
{
    const fs::path path = write("zero.csv", rows("1,1,1,1,1,1", 2) + "1,1,1,1,1,0\n" + rows("1,1,1,1,1,1", 5));
    expect_error(
        [&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); },
        { path.string() + ":3:", "field 6", "zero denominator" });
}

TEST_F(QueryFileRead, NonNumericFields)
{
    for (const std::string bad : { "abc", "1.5", "+1", "1e3", "--1", "-", "1 2", "0x10", "1/2" }) {
        SCOPED_TRACE(bad);
        const fs::path path
            = write("bad.csv", rows("1,1,1,1,1,1", 1) + "1,1," + bad + ",1,1,1\n" + rows("1,1,1,1,1,1", 6));
        expect_error(
            [&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); },
            { path.string() + ":2: field 3 '" + bad + "' is not an integer" });
    }
    const fs::path path = write("truth.csv", rows("1,1,1,1,1,1,2", 8));
    expect_error([&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); }, { path.string() + ":1:", "field 7 '2'" });
}

TEST_F(QueryFileRead, WrongFieldCount)
{
    for (const std::string bad : { "1,1,1,1,1", "1,1,1,1,1,1,1,1", "1", "1,1,1,1,1,1," }) {
        SCOPED_TRACE(bad);
        const fs::path path = write("count.csv", rows("1,1,1,1,1,1", 4) + bad + "\n" + rows("1,1,1,1,1,1", 3));
        expect_error([&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); }, { path.string() + ":5:" });
    }
    const fs::path path = write("empty_field.csv", rows("1,1,1,1,1,1", 4) + "1,1,,1,1,1\n" + rows("1,1,1,1,1,1", 3));
    expect_error(
        [&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); }, { path.string() + ":5:", "field 3 is empty" });
}

TEST_F(QueryFileRead, MixedColumnCounts)
{
    const fs::path path = write("mixed.csv", rows("1,1,1,1,1,1,0", 8) + rows("1,1,1,1,1,1", 8));
    expect_error(
        [&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); }, { path.string() + ":9:", "6 fields", "7" });
}

TEST_F(QueryFileRead, MixedTruthWithinQuery)
{
    const fs::path path
        = write("truth.csv", rows("1,1,1,1,1,1,1", 8) + rows("1,1,1,1,1,1,0", 5) + rows("1,1,1,1,1,1,1", 3));
    expect_error([&] { (void)read_query_file(path, QueryKind::VERTEX_FACE); }, { path.string() + ":14:", "line 9" });
}

TEST_F(QueryFileRead, OutOfRangeValues)
{
    const std::string huge = "1" + std::string(400, '0');
    const mpz_class max_numerator = (mpz_class(1) << 53) - 1;
    for (const std::string& field : { huge + ",1", "-" + huge + ",1", power_of_two(1024) + ",1",
                                      mpz_class((max_numerator << 971) + 1).get_str() + ",1" }) {
        SCOPED_TRACE(field.substr(0, 30));
        const fs::path path = write("huge.csv", rows("1,1,1,1,1,1", 7) + "1,1,1,1," + field + "\n");
        expect_error(
            [&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); },
            { path.string() + ":8:", "fields 5-6", "out of the range" });
    }
}

TEST_F(QueryFileRead, InexactValues)
{
    const std::string odd_60_bits = mpz_class((mpz_class(1) << 60) - 1).get_str();
    for (const std::string& field : { std::string("1,3"), odd_60_bits + ",1", odd_60_bits + "," + power_of_two(70),
                                      "1," + power_of_two(1075), std::string("-1,10") }) {
        SCOPED_TRACE(field);
        const fs::path path
            = write("inexact.csv", rows("1,1,1,1,1,1", 2) + field + ",1,1,1,1\n" + rows("1,1,1,1,1,1", 5));
        expect_error(
            [&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); },
            { path.string() + ":3:", "fields 1-2", "not exactly representable" });
    }
}

TEST_F(QueryFileRead, CrlfAndTrailingBlanksAccepted)
{
    std::string text;
    for (int i = 0; i < 8; ++i) {
        text += "1,2,-3,4,5,8,1 \t\r\n";
    }
    text += "\r\n  \r\n\n";
    const QueryFile file = read_query_file(write("crlf.csv", text), QueryKind::EDGE_EDGE);
    ASSERT_EQ(file.queries.size(), 1u);
    EXPECT_EQ(file.queries[0].truth, std::optional<bool>(true));
    EXPECT_EQ(file.queries[0].points[7], Eigen::Vector3d(0.5, -0.75, 0.625));

    // No final newline at all.
    const std::string bare = rows("1,2,-3,4,5,8", 7) + "1,2,-3,4,5,8";
    EXPECT_EQ(read_query_file(write("bare.csv", bare), QueryKind::EDGE_EDGE).queries.size(), 1u);
}

TEST_F(QueryFileRead, BlankLineInsideDataRejected)
{
    const fs::path path = write("gap.csv", rows("1,1,1,1,1,1", 8) + "\n" + rows("1,1,1,1,1,1", 8));
    expect_error([&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); }, { path.string() + ":9:", "blank" });
}

TEST_F(QueryFileRead, MissingFile)
{
    const fs::path path = dir_ / "absent.csv";
    expect_error([&] { (void)read_query_file(path, QueryKind::EDGE_EDGE); }, { path.string() });
}

TEST_F(QueryFileRead, PointEdgeFiveColumns)
{
    // Query 1: p_t0 = (3/4, -5/8), e0_t0 = (1/-2, 0), then four rows (1, 2); query 2 all (-1, -2).
    const std::string text = "3,4,-5,8,1\n1,-2,0,1,1\n" + rows("1,1,2,1,1", 4) + rows("-1,1,-2,1,0", 6);
    const fs::path path = write("point-edge/data.csv", text);
    const QueryFile file = read_query_file(path, QueryKind::POINT_EDGE);

    EXPECT_EQ(file.kind, QueryKind::POINT_EDGE);
    ASSERT_EQ(file.queries.size(), 2u);
    const ccdkit::Query& first = file.queries[0];
    EXPECT_EQ(first.kind, QueryKind::POINT_EDGE);
    EXPECT_EQ(first.line, 1u);
    EXPECT_EQ(first.truth, std::optional<bool>(true));
    EXPECT_EQ(first.points[0], Eigen::Vector3d(0.75, -0.625, 0.0));
    EXPECT_EQ(first.points[1], Eigen::Vector3d(-0.5, 0.0, 0.0));
    for (int i = 2; i < 6; ++i) {
        EXPECT_EQ(first.points[i], Eigen::Vector3d(1.0, 2.0, 0.0));
    }
    const ccdkit::Query& second = file.queries[1];
    EXPECT_EQ(second.line, 7u);
    EXPECT_EQ(second.truth, std::optional<bool>(false));
    for (int i = 0; i < 6; ++i) {
        EXPECT_EQ(second.points[i], Eigen::Vector3d(-1.0, -2.0, 0.0));
    }
    // The two slots a 2D query does not use are zero.
    for (const ccdkit::Query& query : file.queries) {
        EXPECT_EQ(query.points[6], Eigen::Vector3d::Zero());
        EXPECT_EQ(query.points[7], Eigen::Vector3d::Zero());
    }
}

TEST_F(QueryFileRead, PointEdgeFourColumnsTruthFromMmaBool)
{
    const fs::path path = write("set/queries/3pe.csv", rows("1,2,3,4", 18));
    write("set/mma_bool/3pe_mma_bool.json", "[false, true, false]");
    const QueryFile file = read_query_file(path, QueryKind::POINT_EDGE);
    ASSERT_EQ(file.queries.size(), 3u);
    EXPECT_EQ(file.queries[0].truth, std::optional<bool>(false));
    EXPECT_EQ(file.queries[1].truth, std::optional<bool>(true));
    EXPECT_EQ(file.queries[2].line, 13u);
    EXPECT_EQ(file.queries[2].points[5], Eigen::Vector3d(0.5, 0.75, 0.0));

    write("set/mma_bool/3pe_mma_bool.json", "[false, true]");
    expect_error(
        [&] { (void)read_query_file(path, QueryKind::POINT_EDGE); },
        { "3pe_mma_bool.json:1:", "2 booleans", "3 queries" });

    // Without the JSON file there is no truth.
    const fs::path bare = write("other/4pe.csv", rows("1,2,3,4", 6));
    const QueryFile no_truth = read_query_file(bare, QueryKind::POINT_EDGE);
    ASSERT_EQ(no_truth.queries.size(), 1u);
    EXPECT_FALSE(no_truth.queries[0].truth.has_value());
}

TEST_F(QueryFileRead, PointEdgeWrongFieldCount)
{
    // A 3D row, too few fields, one too many, a trailing comma.
    for (const std::string bad : { "1,1,1,1,1,1", "1,1,1", "1", "1,1,1,1,1,1,1", "1,1,1,1,1," }) {
        SCOPED_TRACE(bad);
        const std::string found = std::to_string(std::count(bad.begin(), bad.end(), ',') + 1);
        const fs::path path = write("count.csv", rows("1,1,1,1", 2) + bad + "\n" + rows("1,1,1,1", 3));
        expect_error(
            [&] { (void)read_query_file(path, QueryKind::POINT_EDGE); },
            { path.string() + ":3: expected 4 or 5 fields, found " + found });
    }
    // A 3D file read as point-edge, and a 2D file read as 3D.
    const fs::path path_3d = write("ee.csv", rows("1,1,1,1,1,1", 8));
    expect_error(
        [&] { (void)read_query_file(path_3d, QueryKind::POINT_EDGE); },
        { path_3d.string() + ":1: expected 4 or 5 fields, found 6" });
    const fs::path path_2d = write("pe.csv", rows("1,1,1,1,1", 6));
    expect_error(
        [&] { (void)read_query_file(path_2d, QueryKind::EDGE_EDGE); },
        { path_2d.string() + ":1: expected 6 or 7 fields, found 5" });

    const fs::path mixed = write("mixed.csv", rows("1,1,1,1", 6) + rows("1,1,1,1,0", 6));
    expect_error(
        [&] { (void)read_query_file(mixed, QueryKind::POINT_EDGE); },
        { mixed.string() + ":7: found 5 fields but line 1 has 4" });
    const fs::path empty = write("empty_field.csv", rows("1,1,1,1", 4) + "1,1,1,\n" + "1,1,1,1\n");
    expect_error(
        [&] { (void)read_query_file(empty, QueryKind::POINT_EDGE); }, { empty.string() + ":5:", "field 4 is empty" });
    // A trailing comma in a 5-column file: an empty truth field.
    const fs::path comma = write("comma.csv", rows("1,1,1,1,0", 2) + "1,1,1,1,\n" + rows("1,1,1,1,0", 3));
    expect_error(
        [&] { (void)read_query_file(comma, QueryKind::POINT_EDGE); }, { comma.string() + ":3:", "field 5 is empty" });
}

TEST_F(QueryFileRead, PointEdgeTruncated)
{
    // 8 rows: a whole 3D query but one 2D query and 2 rows of the next.
    const fs::path path = write("short.csv", rows("1,1,1,1,0", 8));
    expect_error(
        [&] { (void)read_query_file(path, QueryKind::POINT_EDGE); },
        { path.string() + ":7:",
          "truncated query: the file ends after 2 of its 6 rows (8 rows in all, not a multiple of 6)" });
    // Only part of the first query.
    const fs::path first = write("first.csv", rows("1,1,1,1", 5));
    expect_error(
        [&] { (void)read_query_file(first, QueryKind::POINT_EDGE); },
        { first.string() + ":1:", "after 5 of its 6 rows", "not a multiple of 6" });
    // The 3D message still names 8.
    const fs::path ee = write("short_ee.csv", rows("1,1,1,1,1,1", 6));
    expect_error(
        [&] { (void)read_query_file(ee, QueryKind::EDGE_EDGE); },
        { ee.string() + ":1:", "after 6 of its 8 rows", "not a multiple of 8" });
}

TEST_F(QueryFileRead, PointEdgeBadTruth)
{
    for (const std::string bad : { "2", "-1", "true", "01", "0.5" }) {
        SCOPED_TRACE(bad);
        const fs::path path = write("truth.csv", rows("1,1,1,1,0", 3) + "1,1,1,1," + bad + "\n" + rows("1,1,1,1,0", 2));
        expect_error(
            [&] { (void)read_query_file(path, QueryKind::POINT_EDGE); },
            { path.string() + ":4: field 5 '" + bad + "' is not a truth value 0 or 1" });
    }
    // The truth must be the same on all 6 rows of a query.
    const fs::path path = write("mixed.csv", rows("1,1,1,1,1", 6) + rows("1,1,1,1,0", 5) + "1,1,1,1,1\n");
    expect_error(
        [&] { (void)read_query_file(path, QueryKind::POINT_EDGE); },
        { path.string() + ":12: truth 1 differs from 0 on line 7" });
    // Coordinates are checked as in 3D, with 2D field numbers.
    const fs::path zero = write("zero.csv", rows("1,1,1,1", 2) + "1,1,1,0\n" + rows("1,1,1,1", 3));
    expect_error(
        [&] { (void)read_query_file(zero, QueryKind::POINT_EDGE); },
        { zero.string() + ":3: field 4: zero denominator" });
    const fs::path inexact = write("inexact.csv", rows("1,1,1,1", 5) + "1,1,1,3\n");
    expect_error(
        [&] { (void)read_query_file(inexact, QueryKind::POINT_EDGE); },
        { inexact.string() + ":6: fields 3-4", "not exactly representable" });
}

TEST(QueryFileKind, RowsAndDimension)
{
    EXPECT_EQ(query_rows(QueryKind::VERTEX_FACE), 8u);
    EXPECT_EQ(query_rows(QueryKind::EDGE_EDGE), 8u);
    EXPECT_EQ(query_rows(QueryKind::POINT_EDGE), 6u);
    EXPECT_EQ(query_dimension(QueryKind::VERTEX_FACE), 3);
    EXPECT_EQ(query_dimension(QueryKind::EDGE_EDGE), 3);
    EXPECT_EQ(query_dimension(QueryKind::POINT_EDGE), 2);
}

TEST(QueryFileKind, FromPath)
{
    using K = std::optional<QueryKind>;
    EXPECT_EQ(query_kind_from_path("a/vertex-face/data_0_0.csv"), K(QueryKind::VERTEX_FACE));
    EXPECT_EQ(query_kind_from_path("a/edge-edge/data_0_0.csv"), K(QueryKind::EDGE_EDGE));
    EXPECT_EQ(query_kind_from_path("queries/3036vf.csv"), K(QueryKind::VERTEX_FACE));
    EXPECT_EQ(query_kind_from_path("queries/3036ee.csv"), K(QueryKind::EDGE_EDGE));
    EXPECT_EQ(query_kind_from_path("/abs/vertex-face/x/y/z.csv"), K(QueryKind::VERTEX_FACE));
    EXPECT_EQ(query_kind_from_path("edge-edge"), K(QueryKind::EDGE_EDGE));
    EXPECT_EQ(query_kind_from_path("vertex-face/"), K(QueryKind::VERTEX_FACE));
    EXPECT_EQ(query_kind_from_path("edge-edge.csv"), K(QueryKind::EDGE_EDGE));
    // The file name wins over the folders, and the innermost folder over outer ones.
    EXPECT_EQ(query_kind_from_path("edge-edge/3036vf.csv"), K(QueryKind::VERTEX_FACE));
    EXPECT_EQ(query_kind_from_path("vertex-face/edge-edge/data.csv"), K(QueryKind::EDGE_EDGE));
    EXPECT_EQ(query_kind_from_path("edge-edge/vertex-face/data.csv"), K(QueryKind::VERTEX_FACE));
    // Only the file stem may end in vf/ee; folders must match exactly; no partial or case-insensitive match.
    EXPECT_EQ(query_kind_from_path("3036vf/data.csv"), K());
    EXPECT_EQ(query_kind_from_path("queries/3036.csv"), K());
    EXPECT_EQ(query_kind_from_path("vertex-faces/data.csv"), K());
    EXPECT_EQ(query_kind_from_path("Edge-Edge/data.csv"), K());
    EXPECT_EQ(query_kind_from_path("queries/3036VF.csv"), K());
    EXPECT_EQ(query_kind_from_path("queries/vf.csv.bak"), K());
    EXPECT_EQ(query_kind_from_path(""), K());
}

TEST(QueryFileKind, PointEdgeFromPath)
{
    using K = std::optional<QueryKind>;
    EXPECT_EQ(query_kind_from_path("a/point-edge/data_0_0.csv"), K(QueryKind::POINT_EDGE));
    EXPECT_EQ(query_kind_from_path("/abs/point-edge/x/y.csv"), K(QueryKind::POINT_EDGE));
    EXPECT_EQ(query_kind_from_path("queries/3036pe.csv"), K(QueryKind::POINT_EDGE));
    EXPECT_EQ(query_kind_from_path("point-edge.csv"), K(QueryKind::POINT_EDGE));
    EXPECT_EQ(query_kind_from_path("point-edge"), K(QueryKind::POINT_EDGE));
    EXPECT_EQ(query_kind_from_path("point-edge/"), K(QueryKind::POINT_EDGE));
    // The file name wins over the folders, and the innermost folder over outer ones.
    EXPECT_EQ(query_kind_from_path("vertex-face/12pe.csv"), K(QueryKind::POINT_EDGE));
    EXPECT_EQ(query_kind_from_path("point-edge/12ee.csv"), K(QueryKind::EDGE_EDGE));
    EXPECT_EQ(query_kind_from_path("edge-edge/point-edge/data.csv"), K(QueryKind::POINT_EDGE));
    EXPECT_EQ(query_kind_from_path("point-edge/vertex-face/data.csv"), K(QueryKind::VERTEX_FACE));
    // Folders must match exactly; only the file stem may end in pe; no case-insensitive match.
    EXPECT_EQ(query_kind_from_path("3036pe/data.csv"), K());
    EXPECT_EQ(query_kind_from_path("point-edges/data.csv"), K());
    EXPECT_EQ(query_kind_from_path("Point-Edge/data.csv"), K());
    EXPECT_EQ(query_kind_from_path("queries/3036PE.csv"), K());
    EXPECT_EQ(query_kind_from_path("queries/pe.csv.bak"), K());
}

TEST_F(QueryFilePaths, RecursesAndSorts)
{
    const std::string query = rows("1,1,1,1,1,1,1", 8);
    write("root/b/edge-edge/x.csv", query);
    write("root/a/vertex-face/sub/z.csv", query);
    write("root/a/vertex-face/y.csv", query + query);
    write("root/c/12ee.csv", query);
    write("root/a/vertex-face/notes.txt", "not a query file");
    const fs::path single = write("single/4vf.csv", query);

    const std::vector<QueryFile> files = read_query_paths({ dir_ / "root", single });
    std::vector<fs::path> expected = { dir_ / "root/a/vertex-face/sub/z.csv", dir_ / "root/a/vertex-face/y.csv",
                                       dir_ / "root/b/edge-edge/x.csv", dir_ / "root/c/12ee.csv", single };
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(files.size(), expected.size());
    for (std::size_t i = 0; i < files.size(); ++i) {
        EXPECT_EQ(files[i].path, expected[i]);
    }
    const auto find = [&](const fs::path& path) -> const QueryFile& {
        return *std::find_if(files.begin(), files.end(), [&](const QueryFile& f) { return f.path == path; });
    };
    EXPECT_EQ(find(dir_ / "root/a/vertex-face/y.csv").kind, QueryKind::VERTEX_FACE);
    EXPECT_EQ(find(dir_ / "root/a/vertex-face/y.csv").queries.size(), 2u);
    EXPECT_EQ(find(dir_ / "root/a/vertex-face/y.csv").queries[1].kind, QueryKind::VERTEX_FACE);
    EXPECT_EQ(find(dir_ / "root/a/vertex-face/sub/z.csv").kind, QueryKind::VERTEX_FACE);
    EXPECT_EQ(find(dir_ / "root/b/edge-edge/x.csv").kind, QueryKind::EDGE_EDGE);
    EXPECT_EQ(find(dir_ / "root/c/12ee.csv").kind, QueryKind::EDGE_EDGE);
    EXPECT_EQ(find(single).kind, QueryKind::VERTEX_FACE);

    // The same result whatever order the paths come in.
    const std::vector<QueryFile> again = read_query_paths({ single, dir_ / "root" });
    ASSERT_EQ(again.size(), files.size());
    for (std::size_t i = 0; i < files.size(); ++i) {
        EXPECT_EQ(again[i].path, files[i].path);
    }
}

TEST_F(QueryFilePaths, PointEdgeFolders)
{
    const std::string query_3d = rows("1,1,1,1,1,1,1", 8);
    const std::string query_2d = rows("1,1,1,1,0", 6);
    write("root/point-edge/a.csv", query_2d + query_2d);
    write("root/c/7pe.csv", query_2d);
    write("root/edge-edge/b.csv", query_3d);
    const std::vector<QueryFile> files = read_query_paths({ dir_ / "root" });
    ASSERT_EQ(files.size(), 3u);
    EXPECT_EQ(files[0].path, dir_ / "root/c/7pe.csv");
    EXPECT_EQ(files[0].kind, QueryKind::POINT_EDGE);
    EXPECT_EQ(files[0].queries.size(), 1u);
    EXPECT_EQ(files[1].path, dir_ / "root/edge-edge/b.csv");
    EXPECT_EQ(files[1].kind, QueryKind::EDGE_EDGE);
    EXPECT_EQ(files[2].path, dir_ / "root/point-edge/a.csv");
    EXPECT_EQ(files[2].kind, QueryKind::POINT_EDGE);
    ASSERT_EQ(files[2].queries.size(), 2u);
    EXPECT_EQ(files[2].queries[1].kind, QueryKind::POINT_EDGE);
    EXPECT_EQ(files[2].queries[1].line, 7u);

    // A 3D file in a point-edge folder is an error naming its line.
    const fs::path wrong = write("wrong/point-edge/x.csv", query_3d);
    expect_error(
        [&] { (void)read_query_paths({ dir_ / "wrong" }); },
        { wrong.string() + ":1: expected 4 or 5 fields, found 7" });
}

TEST_F(QueryFilePaths, UnknownKindRejected)
{
    const fs::path path = write("root/misc/data.csv", rows("1,1,1,1,1,1,1", 8));
    expect_error([&] { (void)read_query_paths({ dir_ / "root" }); }, { path.string(), "kind" });
}

TEST_F(QueryFilePaths, MissingPathRejected)
{
    const fs::path path = dir_ / "nowhere";
    expect_error([&] { (void)read_query_paths({ path }); }, { path.string() });
}

TEST_F(QueryFilePaths, ErrorsInsideFolderPropagate)
{
    const fs::path path = write("root/edge-edge/bad.csv", rows("1,1,1,1,1,1", 3));
    expect_error([&] { (void)read_query_paths({ dir_ / "root" }); }, { path.string() + ":1:", "truncated" });
}

// The committed 2D sample (tests/data/point-edge): its truth column is the linear model's answer, which the
// independent exact oracle gives as edge-edge CCD between the zero-length edge (p, p) and the edge, in z = 0.
TEST(QueryFileSampleData, PointEdgeTruthIsTheLinearModel)
{
    const fs::path dir = fs::path(CCDKIT_TEST_DATA_DIR) / "point-edge";
    const std::vector<QueryFile> files = read_query_paths({ dir });
    ASSERT_EQ(files.size(), 1u);
    EXPECT_EQ(files[0].kind, QueryKind::POINT_EDGE);
    std::size_t positives = 0;
    for (const ccdkit::Query& q : files[0].queries) {
        SCOPED_TRACE(files[0].path.string() + ":" + std::to_string(q.line));
        ASSERT_TRUE(q.truth.has_value());
        const auto& x = q.points;
        for (int i = 0; i < 8; ++i) {
            EXPECT_EQ(x[i].z(), 0.0);
        }
        const ccdkit::oracle::OracleResult oracle
            = ccdkit::oracle::edge_edge({ x[0], x[0], x[1], x[2], x[3], x[3], x[4], x[5] });
        EXPECT_EQ(oracle.hit, *q.truth);
        positives += *q.truth;
    }
    EXPECT_EQ(files[0].queries.size(), 211u);
    EXPECT_EQ(positives, 141u);
}

TEST(QueryFileSharedData, ReadsAllQueries)
{
#ifndef CCDKIT_QUERY_DIR
    GTEST_SKIP() << "CCDKIT_QUERY_DIR is not defined";
#else
    const fs::path root = CCDKIT_QUERY_DIR;
    if (!fs::is_directory(root)) {
        GTEST_SKIP() << "shared query folder " << root << " does not exist";
    }

    const auto start = std::chrono::steady_clock::now();
    const std::vector<QueryFile> files = read_query_paths({ root });
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;

    std::size_t handcrafted_ee = 0;
    std::size_t handcrafted_vf = 0;
    std::size_t belgrod = 0;
    std::size_t rows_read = 0;
    for (const QueryFile& file : files) {
        const std::string path = file.path.generic_string();
        rows_read += 8 * file.queries.size();
        for (const ccdkit::Query& query : file.queries) {
            EXPECT_TRUE(query.truth.has_value()) << file.path << ":" << query.line;
            EXPECT_EQ(query.kind, file.kind);
        }
        if (path.find("wang2021-handcrafted") != std::string::npos) {
            (file.kind == QueryKind::EDGE_EDGE ? handcrafted_ee : handcrafted_vf) += file.queries.size();
        } else if (path.find("belgrod2023") != std::string::npos) {
            EXPECT_NE(path.find("/queries/"), std::string::npos) << path;
            belgrod += file.queries.size();
        }
    }
    EXPECT_EQ(handcrafted_ee, 3694u);
    EXPECT_EQ(handcrafted_vf, 2585u);
    EXPECT_EQ(handcrafted_ee + handcrafted_vf, 6279u);
    EXPECT_EQ(belgrod, 5526u); // 4370 + 801 rod-twist, 263 + 92 cloth-funnel
    std::cout << "[          ] read " << files.size() << " files, " << rows_read << " rows, "
              << handcrafted_ee + handcrafted_vf << " handcrafted and " << belgrod << " belgrod2023 queries in "
              << elapsed.count() << " s\n";
#endif
}

} // namespace
