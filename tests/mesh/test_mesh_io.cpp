// SPDX-License-Identifier: MIT
#include "support/make_faces.hpp"
#include "support/shared_data.hpp"

#include <ccdkit/mesh/mesh_io.hpp>

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace {

namespace fs = std::filesystem;
using ccdkit::read_mesh;
using ccdkit::TriangleMesh;
using ccdkit::write_mesh;

/// Each test gets its own folder under the system temp dir, removed afterwards.
class MeshIo : public testing::Test {
protected:
    void SetUp() override
    {
        const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
        std::random_device random;
        dir_ = fs::temp_directory_path()
            / ("ccdkit_mesh_io_" + std::string(info->name()) + "_" + std::to_string(random())
               + std::to_string(random()));
        fs::create_directories(dir_);
    }

    void TearDown() override
    {
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }

    /// Writes `bytes` unchanged (no newline translation) to `name` in the test folder.
    [[nodiscard]] fs::path write(const std::string& name, const std::string& bytes) const
    {
        fs::path path = dir_ / name;
        std::ofstream out(path, std::ios::binary);
        out << bytes;
        return path;
    }

    [[nodiscard]] std::string read_bytes(const fs::path& path) const
    {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        return bytes.str();
    }

    fs::path dir_;
};

/// Runs `action` and checks that it throws `Error` whose message holds every one of `parts`.
template <typename Error = std::runtime_error>
void expect_error(const std::function<void()>& action, std::initializer_list<std::string> parts)
{
    try {
        action();
        ADD_FAILURE() << "no exception thrown";
    } catch (const Error& error) {
        const std::string message = error.what();
        for (const std::string& part : parts) {
            EXPECT_NE(message.find(part), std::string::npos) << "message: " << message << "\nlacks: " << part;
        }
    }
}

/// read_mesh must fail on `path` with a message holding every one of `parts`.
void expect_read_error(const fs::path& path, std::initializer_list<std::string> parts)
{
    expect_error([&] { static_cast<void>(read_mesh(path)); }, parts);
}

using ccdkit::test::make_faces;

/// Coordinates that a lossy writer would not reproduce: thirds, tiny and huge magnitudes, subnormals, -0.
TriangleMesh awkward_mesh()
{
    TriangleMesh mesh;
    mesh.vertices.resize(5, 3);
    mesh.vertices << 0.1, 1.0 / 3.0, -2.0 / 7.0, //
        1e-300, 5e-324, -0.0, //
        1.7976931348623157e308, -123456789.125, 0.30000000000000004, //
        -1.0, 2.0, std::nextafter(1.0, 2.0), //
        3.0, -4.5e-17, 1e22;
    mesh.faces = make_faces({ { 0, 1, 2 }, { 2, 3, 0 }, { 4, 3, 2 }, { 1, 4, 0 } });
    return mesh;
}

void expect_same_mesh(const TriangleMesh& actual, const TriangleMesh& expected)
{
    ASSERT_EQ(actual.vertices.rows(), expected.vertices.rows());
    ASSERT_EQ(actual.faces.rows(), expected.faces.rows());
    for (Eigen::Index v = 0; v < expected.vertices.rows(); ++v) {
        for (int c = 0; c < 3; ++c) {
            // Bit for bit, so that -0.0 and 0.0 differ.
            EXPECT_EQ(
                std::bit_cast<std::uint64_t>(actual.vertices(v, c)),
                std::bit_cast<std::uint64_t>(expected.vertices(v, c)))
                << "vertex " << v << " coordinate " << c << ": " << actual.vertices(v, c) << " vs "
                << expected.vertices(v, c);
        }
    }
    EXPECT_EQ(actual.faces, expected.faces);
}

// ---------------------------------------------------------------------------------------------------------------
// Round trips and extensions

TEST_F(MeshIo, ObjRoundTripIsExact)
{
    const fs::path path = dir_ / "mesh.obj";
    write_mesh(path, awkward_mesh());
    expect_same_mesh(read_mesh(path), awkward_mesh());
}

TEST_F(MeshIo, PlyRoundTripIsExactBinaryLittleEndian)
{
    const fs::path path = dir_ / "mesh.ply";
    const TriangleMesh mesh = awkward_mesh();
    write_mesh(path, mesh);
    expect_same_mesh(read_mesh(path), mesh);

    const std::string bytes = read_bytes(path);
    EXPECT_EQ(bytes.rfind("ply\nformat binary_little_endian 1.0\n", 0), 0U);
    const std::string end_header = "end_header\n";
    const std::size_t data = bytes.find(end_header) + end_header.size();
    constexpr std::size_t VERTEX_BYTES = 3 * sizeof(double);
    constexpr std::size_t FACE_BYTES = 1 + 3 * sizeof(std::int32_t);
    EXPECT_EQ(bytes.size() - data, 5 * VERTEX_BYTES + 4 * FACE_BYTES);
    // The first coordinate, little-endian whatever the host.
    std::uint64_t first = 0;
    for (int b = 7; b >= 0; --b) {
        first = (first << 8) | static_cast<unsigned char>(bytes[data + static_cast<std::size_t>(b)]);
    }
    EXPECT_EQ(first, std::bit_cast<std::uint64_t>(0.1));
}

TEST_F(MeshIo, EmptyMeshRoundTrips)
{
    for (const std::string name : { "empty.obj", "empty.ply" }) {
        SCOPED_TRACE(name);
        write_mesh(dir_ / name, TriangleMesh {});
        const TriangleMesh mesh = read_mesh(dir_ / name);
        EXPECT_EQ(mesh.vertices.rows(), 0);
        EXPECT_EQ(mesh.faces.rows(), 0);
    }
}

TEST_F(MeshIo, ExtensionIsCaseInsensitive)
{
    for (const std::string name : { "MESH.OBJ", "Mesh.Ply", "mesh.pLy" }) {
        SCOPED_TRACE(name);
        write_mesh(dir_ / name, awkward_mesh());
        expect_same_mesh(read_mesh(dir_ / name), awkward_mesh());
    }
}

TEST_F(MeshIo, UnknownExtensionIsAnError)
{
    const fs::path stl = write("mesh.stl", "solid x\n");
    expect_read_error(stl, { stl.string() + ": unknown mesh format '.stl'" });
    const fs::path none = write("mesh", "v 0 0 0\n");
    expect_read_error(none, { none.string() + ": unknown mesh format (no extension)" });
    expect_error([&] { write_mesh(dir_ / "mesh.off", awkward_mesh()); }, { "mesh.off", "unknown mesh format" });
}

TEST_F(MeshIo, MissingFileIsAnError)
{
    expect_read_error(dir_ / "absent.ply", { (dir_ / "absent.ply").string() + ": cannot open file" });
}

TEST_F(MeshIo, WriteRejectsWhatCannotBeReadBack)
{
    TriangleMesh mesh = awkward_mesh();
    mesh.faces(2, 1) = 5;
    expect_error<std::invalid_argument>(
        [&] { write_mesh(dir_ / "bad.ply", mesh); }, { "face 2", "vertex index 5 out of range (5 vertices)" });
    mesh = awkward_mesh();
    mesh.vertices(3, 0) = std::numeric_limits<double>::quiet_NaN();
    expect_error<std::invalid_argument>(
        [&] { write_mesh(dir_ / "bad.obj", mesh); }, { "vertex 3", "non-finite coordinate" });
    EXPECT_FALSE(fs::exists(dir_ / "bad.ply"));
    EXPECT_FALSE(fs::exists(dir_ / "bad.obj"));

    // Degenerate faces are kept as they are.
    mesh = awkward_mesh();
    mesh.faces.row(0) << 1, 1, 2;
    write_mesh(dir_ / "degenerate.ply", mesh);
    expect_same_mesh(read_mesh(dir_ / "degenerate.ply"), mesh);
}

TEST_F(MeshIo, WriteToMissingFolderIsAnError)
{
    const fs::path path = dir_ / "no" / "such" / "folder" / "mesh.obj";
    expect_error([&] { write_mesh(path, awkward_mesh()); }, { path.string() + ": cannot open file for writing" });
}

// ---------------------------------------------------------------------------------------------------------------
// OBJ

TEST_F(MeshIo, ObjIgnoresOtherStatementsAndAcceptsAllFaceForms)
{
    const fs::path path = write(
        "forms.obj",
        "# exported by hand\r\n"
        "mtllib scene.mtl\r\n"
        "o thing\r\n"
        "\r\n"
        "v 1e-400 0 0 1.0\r\n"
        "v\t1 0 0\r\n"
        "v 1 +1 0   # trailing comment\r\n"
        "v 0 1 0 0.5 0.25 0.125\r\n"
        "vt 0 0\r\n"
        "vt 1 0\r\n"
        "vn 0 0 1\r\n"
        "vp 0.5\r\n"
        "g group\r\n"
        "usemtl red\r\n"
        "s off\r\n"
        "f 1/1/1 2/2/1 3/1/1\r\n"
        "f 1//1 3//1 4//1\r\n"
        "s 1\r\n"
        "f 4/1 3/2 2/1\r\n"
        "l 1 2\r\n"
        "  f   2 4 1  \r\n"
        "f 1 2 3"); // no final newline
    const TriangleMesh mesh = read_mesh(path);
    Eigen::MatrixX3d vertices(4, 3);
    vertices << 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0;
    EXPECT_EQ(mesh.vertices, vertices);
    EXPECT_EQ(mesh.faces, make_faces({ { 0, 1, 2 }, { 0, 2, 3 }, { 3, 2, 1 }, { 1, 3, 0 }, { 0, 1, 2 } }));
}

TEST_F(MeshIo, ObjPolygonsAreFanTriangulated)
{
    const fs::path path = write(
        "polygons.obj",
        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0.5 1.5 0\n"
        "f 1 2 3 4\n"
        "f 1 2 3 5 4\n");
    const TriangleMesh mesh = read_mesh(path);
    EXPECT_EQ(mesh.faces, make_faces({ { 0, 1, 2 }, { 0, 2, 3 }, { 0, 1, 2 }, { 0, 2, 4 }, { 0, 4, 3 } }));
}

TEST_F(MeshIo, ObjNegativeIndicesCountBackFromLatestVertex)
{
    const fs::path path = write(
        "relative.obj",
        "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
        "f -3 -2 -1\n"
        "v 1 1 0\nv 2 2 0\n"
        "f -1/-1/-1 -3//-2 -4/-1\n" // vertices 5, 3, 2 (1-based)
        "f 1 -1 2\n");
    const TriangleMesh mesh = read_mesh(path);
    EXPECT_EQ(mesh.vertices.rows(), 5);
    EXPECT_EQ(mesh.faces, make_faces({ { 0, 1, 2 }, { 4, 2, 1 }, { 0, 4, 1 } }));
}

TEST_F(MeshIo, ObjFacesMayNameLaterVertices)
{
    const fs::path path = write("forward.obj", "f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\n");
    EXPECT_EQ(read_mesh(path).faces, make_faces({ { 0, 1, 2 } }));
}

TEST_F(MeshIo, ObjErrorsNameFileLineAndReason)
{
    const std::string eight_vertices = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 0 0 1\nv 1 0 1\nv 0 1 1\nv 1 1 1\n";
    struct Case {
        std::string text;
        std::string expected; ///< after "<path>:"
    };
    const std::vector<Case> cases {
        { eight_vertices + "# faces\n\n\nf 1 2 3\nf 1 2 9\n", "13: face index 9 out of range (8 vertices)" },
        { "f 1 2 4\n" + eight_vertices.substr(0, 24), "1: face index 4 out of range (3 vertices)" },
        { eight_vertices + "f 1 0 2\n", "9: face index 0 is invalid" },
        { "v 0 0 0\nv 1 0 0\nf -1 -2 -3\n", "3: face index -3 out of range (2 vertices so far)" },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999999999999\n",
          "4: face index '99999999999999999999' out of range" },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2/x 3\n", "4: malformed face vertex '2/x'" },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3/1/1/1\n", "4: malformed face vertex '3/1/1/1'" },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3//\n", "4: malformed face vertex '3//'" },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf a b c\n", "4: malformed face vertex 'a'" },
        { "v 0 0 0\nv 1 0 0\nf 1 2\n", "3: face needs at least 3 vertices, found 2" },
        { "v 0 0 0\nf\n", "2: face needs at least 3 vertices, found 0" },
        { "v 0 0 0\nv 1 0 0.5x\n", "2: malformed number '0.5x'" },
        { "v 0 0 0\nv 1,0 0 0\n", "2: malformed number '1,0'" },
        { "v 0 0 0\nv 1\x01 0 0\n", "2: malformed number '1\\x01'" },
        { "v 0 0\n", "1: vertex needs 3 coordinates (v x y z), found 2" },
        { "v 0 0 0\nv 0 nan 0\n", "2: vertex 2 has a non-finite coordinate (0, nan, 0)" },
        { "v 0 0 0\nv 0 0 -inf\n", "2: vertex 2 has a non-finite coordinate" },
        { "v 0 0 1e999\n", "1: number '1e999' out of the range of double" },
        { "v 0 0 1e\n", "1: malformed number '1e'" },
        { "v 0 0 0x1p3\n", "1: malformed number '0x1p3'" },
    };
    for (std::size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE(cases[i].text);
        const fs::path path = write("case" + std::to_string(i) + ".obj", cases[i].text);
        expect_read_error(path, { path.string() + ":" + cases[i].expected });
    }
}

// ---------------------------------------------------------------------------------------------------------------
// PLY

/// One property value of a hand-made PLY file: its declared type name and its value.
struct PlyValue {
    std::string_view type;
    double value;
};
/// The values of one element instance, list counts included, in file order.
using PlyInstance = std::vector<PlyValue>;

/// Writes `value` as the PLY scalar `type` in the given byte order.
void append_binary(std::string& bytes, PlyValue value, bool big_endian)
{
    const std::string_view t = value.type;
    std::uint64_t raw = 0;
    std::size_t size = 0;
    if (t == "float" || t == "float32") {
        raw = std::bit_cast<std::uint32_t>(static_cast<float>(value.value));
        size = 4;
    } else if (t == "double" || t == "float64") {
        raw = std::bit_cast<std::uint64_t>(value.value);
        size = 8;
    } else {
        raw = static_cast<std::uint64_t>(static_cast<std::int64_t>(value.value)); // two's complement
        size = t == "char" || t == "uchar" || t == "int8" || t == "uint8"    ? 1
            : t == "short" || t == "ushort" || t == "int16" || t == "uint16" ? 2
                                                                             : 4;
    }
    for (std::size_t b = 0; b < size; ++b) {
        const std::size_t shift = 8 * (big_endian ? size - 1 - b : b);
        bytes += static_cast<char>((raw >> shift) & 0xFFU);
    }
}

/// A PLY file in `format` from the header lines after `format` up to `end_header`, and the instances of every
/// element in file order (ascii: one line each).
std::string encode_ply(std::string_view format, std::string_view header, const std::vector<PlyInstance>& instances)
{
    std::string bytes = "ply\nformat " + std::string(format) + " 1.0\n" + std::string(header) + "end_header\n";
    for (const PlyInstance& instance : instances) {
        if (format == "ascii") {
            for (std::size_t i = 0; i < instance.size(); ++i) {
                std::array<char, 32> text {};
                const auto [end, error] = std::to_chars(text.data(), text.data() + text.size(), instance[i].value);
                if (i > 0) {
                    bytes += ' ';
                }
                bytes.append(text.data(), end);
            }
            bytes += '\n';
        } else {
            for (const PlyValue& value : instance) {
                append_binary(bytes, value, format == "binary_big_endian");
            }
        }
    }
    return bytes;
}

const std::array<std::string_view, 3> PLY_FORMATS { "ascii", "binary_little_endian", "binary_big_endian" };

TEST_F(MeshIo, PlyAllEncodingsSkipExtraPropertiesAndElements)
{
    // Coordinates of several types among normals, colours and a list; an extra element with a list before the
    // faces and one after; faces with the `vertex_index` name, other properties around it, and polygons.
    const std::string header = "comment made by hand\n"
                               "obj_info nothing to see\n"
                               "element vertex 5\n"
                               "property float x\n"
                               "property float32 nx\n"
                               "property double y\n"
                               "property list uint8 float texcoord\n"
                               "property short z\n"
                               "property uchar red\n"
                               "property int8 flag\n"
                               "element material 2\n"
                               "property list int uint16 ids\n"
                               "property float64 shininess\n"
                               "element face 3\n"
                               "property uint8 flags\n"
                               "property list ushort uint vertex_index\n"
                               "property list uchar int32 texnumber\n"
                               "element trailer 1\n"
                               "property list uint int8 junk\n";
    const std::vector<PlyInstance> instances {
        // vertices: x, nx, y, [n, items...], z, red, flag
        { { "float", 0 },
          { "float", 0.5 },
          { "double", 0.1 },
          { "uint8", 2 },
          { "float", 0 },
          { "float", 1 },
          { "short", -3 },
          { "uchar", 255 },
          { "int8", -128 } },
        { { "float", 1.5 },
          { "float", 0 },
          { "double", 0 },
          { "uint8", 0 },
          { "short", 0 },
          { "uchar", 0 },
          { "int8", 1 } },
        { { "float", 1 },
          { "float", 0 },
          { "double", 1 },
          { "uint8", 1 },
          { "float", 0.25 },
          { "short", 32767 },
          { "uchar", 7 },
          { "int8", 0 } },
        { { "float", -0.25 },
          { "float", 0 },
          { "double", 1 },
          { "uint8", 0 },
          { "short", 0 },
          { "uchar", 0 },
          { "int8", 0 } },
        { { "float", 0.5 },
          { "float", 0 },
          { "double", 1.5 },
          { "uint8", 0 },
          { "short", -32768 },
          { "uchar", 0 },
          { "int8", 0 } },
        // materials
        { { "int", 3 }, { "uint16", 1 }, { "uint16", 2 }, { "uint16", 65535 }, { "float64", 0.75 } },
        { { "int", 0 }, { "float64", 1 } },
        // faces: flags, [n, indices...], [n, texnumbers...]
        { { "uint8", 1 },
          { "ushort", 4 },
          { "uint", 0 },
          { "uint", 1 },
          { "uint", 2 },
          { "uint", 3 },
          { "uchar", 1 },
          { "int32", -7 } },
        { { "uint8", 0 }, { "ushort", 3 }, { "uint", 3 }, { "uint", 2 }, { "uint", 4 }, { "uchar", 0 } },
        { { "uint8", 0 },
          { "ushort", 5 },
          { "uint", 0 },
          { "uint", 1 },
          { "uint", 2 },
          { "uint", 4 },
          { "uint", 3 },
          { "uchar", 2 },
          { "int32", 1 },
          { "int32", 2 } },
        // trailer
        { { "uint", 3 }, { "int8", -1 }, { "int8", 0 }, { "int8", 1 } },
    };
    TriangleMesh expected;
    expected.vertices.resize(5, 3);
    expected.vertices << 0, 0.1, -3, //
        1.5, 0, 0, //
        1, 1, 32767, //
        -0.25, 1, 0, //
        0.5, 1.5, -32768;
    expected.faces = make_faces({ { 0, 1, 2 }, { 0, 2, 3 }, { 3, 2, 4 }, { 0, 1, 2 }, { 0, 2, 4 }, { 0, 4, 3 } });

    for (const std::string_view format : PLY_FORMATS) {
        SCOPED_TRACE(format);
        const fs::path path = write(std::string(format) + ".ply", encode_ply(format, header, instances));
        expect_same_mesh(read_mesh(path), expected);
    }
}

TEST_F(MeshIo, PlyAsciiToleratesCrlfAndBlankLines)
{
    const fs::path path = write(
        "crlf.ply",
        "ply\r\nformat ascii 1.0\r\ncomment x\r\nelement vertex 3\r\nproperty double x\r\nproperty double y\r\n"
        "property double z\r\nelement face 1\r\nproperty list uchar int vertex_indices\r\nend_header\r\n"
        "0 0 0\r\n\r\n1e0 +0 0\r\n  0\t1 0  \r\n3 0 1 2\r\n\r\n");
    const TriangleMesh mesh = read_mesh(path);
    EXPECT_EQ(mesh.vertices.rows(), 3);
    EXPECT_EQ(mesh.vertices(1, 0), 1.0);
    EXPECT_EQ(mesh.faces, make_faces({ { 0, 1, 2 } }));
}

TEST_F(MeshIo, PlyWithoutFacesIsAnEmptyMesh)
{
    for (const std::string_view format : PLY_FORMATS) {
        SCOPED_TRACE(format);
        const std::string header = "element vertex 2\nproperty float x\nproperty float y\nproperty float z\n";
        const fs::path path = write(
            std::string(format) + ".ply",
            encode_ply(
                format, header,
                { { { "float", 1 }, { "float", 2 }, { "float", 3 } },
                  { { "float", 4 }, { "float", 5 }, { "float", 6 } } }));
        const TriangleMesh mesh = read_mesh(path);
        EXPECT_EQ(mesh.vertices.rows(), 2);
        EXPECT_EQ(mesh.faces.rows(), 0);

        const fs::path empty = write(
            "empty_" + std::string(format) + ".ply",
            encode_ply(
                format,
                "element vertex 0\nproperty double x\nproperty double y\nproperty double z\n"
                "element face 0\nproperty list uchar int vertex_indices\n",
                {}));
        EXPECT_EQ(read_mesh(empty).vertices.rows(), 0);
    }
}

const std::string TRIANGLE_HEADER = "element vertex 3\n"
                                    "property double x\n"
                                    "property double y\n"
                                    "property double z\n"
                                    "element face 1\n"
                                    "property list uchar int vertex_indices\n";

std::vector<PlyInstance> triangle_instances(double x1 = 1.0, double third_index = 2, double face_size = 3)
{
    std::vector<PlyInstance> instances {
        { { "double", 0 }, { "double", 0 }, { "double", 0 } },
        { { "double", x1 }, { "double", 0 }, { "double", 0 } },
        { { "double", 0 }, { "double", 1 }, { "double", 0 } },
        { { "uchar", face_size }, { "int", 0 }, { "int", 1 } },
    };
    for (int k = 2; k < static_cast<int>(face_size); ++k) {
        instances.back().push_back({ "int", k == 2 ? third_index : k });
    }
    return instances;
}

TEST_F(MeshIo, PlyHeaderErrorsNameTheLine)
{
    struct Case {
        std::string text;
        std::string expected; ///< after "<path>"
    };
    const std::string triangle = encode_ply("ascii", TRIANGLE_HEADER, triangle_instances());
    const auto replaced = [&](std::string_view from, std::string_view to) {
        std::string text = triangle;
        text.replace(text.find(from), from.size(), to);
        return text;
    };
    const std::vector<Case> cases {
        { "solid x\n", ":1: not a PLY file" },
        { replaced("format ascii 1.0", "format binary_middle_endian 1.0"),
          ":2: unknown PLY format 'binary_middle_endian'" },
        { replaced("format ascii 1.0", "format ascii 2.0"), ":2: unsupported PLY format line 'format ascii 2.0'" },
        { replaced("format ascii 1.0\n", ""), ": the PLY header has no format line" },
        { replaced("property double y", "property quad y"), ":5: unknown property type 'quad'" },
        { replaced("list uchar int", "list float int"), ":8: list count type 'float' is not an integer type" },
        { replaced("element vertex 3", "element vertex -3"), ":3: malformed element line 'element vertex -3'" },
        { replaced("element vertex 3", "element vertex three"), ":3: malformed element line" },
        { replaced("element face 1", "element vertex 1"), ":7: duplicate element 'vertex'" },
        { replaced("property double z", "property double y"), ":6: duplicate property 'y' in element 'vertex'" },
        { replaced("element vertex", "commentary\nelement vertex"), ":3: unknown header keyword 'commentary'" },
        { replaced("ply\n", "ply 1\n"), ":1: not a PLY file" },
        { "ply\nformat ascii 1.0\nproperty double x\nend_header\n", ":3: property before any element" },
        { "ply\nformat ascii 1.0\nelement vertex 3\nproperty double x\n", ": file ends in the header" },
        { replaced("element vertex 3\nproperty double x\nproperty double y\nproperty double z\n", ""),
          ": the PLY header has no vertex element" },
        { replaced("property double z", "property double w"), ": the vertex element has no property 'z'" },
        { replaced("property double x", "property list uchar double x"),
          ": the vertex element has no scalar property 'x'" },
        { replaced("vertex_indices", "corners"), ": the face element has no list property 'vertex_indices'" },
        { replaced("list uchar int vertex_indices", "list uchar float vertex_indices"),
          ": face property 'vertex_indices' has items of a floating-point type" },
    };
    for (std::size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE(cases[i].text);
        const fs::path path = write("case" + std::to_string(i) + ".ply", cases[i].text);
        expect_read_error(path, { path.string() + cases[i].expected });
    }
}

TEST_F(MeshIo, PlyAsciiDataErrorsNameLineAndElement)
{
    // The header takes lines 1-9; vertices are on lines 10-12 and the face on line 13.
    const std::string header = "ply\nformat ascii 1.0\n" + TRIANGLE_HEADER + "end_header\n";
    struct Case {
        std::string data;
        std::string expected; ///< after "<path>:"
    };
    const std::vector<Case> cases {
        { "0 0 0\n1 0 0.5x\n0 1 0\n3 0 1 2\n", "11: vertex 1: malformed number '0.5x'" },
        { "0 0 0\n1 0\n0 1 0\n3 0 1 2\n", "11: vertex 1: too few values on the line" },
        { "0 0 0\n1 0 0 7\n0 1 0\n3 0 1 2\n", "11: vertex 1: unexpected value '7' after the last property" },
        { "0 0 0\n1 0 0\n0 inf 0\n3 0 1 2\n", "12: vertex 2: non-finite coordinate (0, inf, 0)" },
        { "0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n", "13: face 0: face index 3 out of range (3 vertices)" },
        { "0 0 0\n1 0 0\n0 1 0\n3 0 -1 2\n", "13: face 0: face index -1 out of range (3 vertices)" },
        { "0 0 0\n1 0 0\n0 1 0\n2 0 1\n", "13: face 0: face needs at least 3 vertices, found 2" },
        { "0 0 0\n1 0 0\n0 1 0\n300 0 1 2\n", "13: face 0: value '300' out of the range of its type" },
        { "0 0 0\n1 0 0\n0 1 0\n3 0 1.5 2\n", "13: face 0: malformed integer '1.5'" },
        { "0 0 0\n1 0 0\n0 1 0\n3 0 1\n", "13: face 0: too few values on the line" },
        { "0 0 0\n1 0 0\n", "12: vertex 2: file ends early" },
        { "0 0 0\n1 0 0\n0 1 0\n", "13: face 0: file ends early" },
        { "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n\n1 2 3\n", "15: unexpected data after the last element" },
    };
    for (std::size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE(cases[i].data);
        const fs::path path = write("case" + std::to_string(i) + ".ply", header + cases[i].data);
        expect_read_error(path, { path.string() + ":" + cases[i].expected });
    }
}

TEST_F(MeshIo, PlyBinaryDataErrorsNameElementAndIndex)
{
    for (const std::string_view format : { "binary_little_endian", "binary_big_endian" }) {
        SCOPED_TRACE(format);
        const std::string name = std::string(format) + ".ply";
        const auto expect = [&](const std::string& bytes, const std::string& expected) {
            const fs::path path = write(name, bytes);
            expect_read_error(path, { path.string() + ": " + expected });
        };
        const std::string good = encode_ply(format, TRIANGLE_HEADER, triangle_instances());
        constexpr std::size_t VERTEX_BYTES = 3 * sizeof(double);
        constexpr std::size_t FACE_BYTES = 1 + 3 * sizeof(std::int32_t);
        const std::size_t data = good.size() - 3 * VERTEX_BYTES - FACE_BYTES;

        expect(good.substr(0, data + VERTEX_BYTES + 10), "vertex 1: file ends early");
        expect(good.substr(0, data + 3 * VERTEX_BYTES), "face 0: file ends early");
        expect(good.substr(0, good.size() - 1), "face 0: file ends early");
        expect(good + "xyz", "3 bytes of unexpected data after the last element");
        expect(
            encode_ply(format, TRIANGLE_HEADER, triangle_instances(std::numeric_limits<double>::quiet_NaN())),
            "vertex 1: non-finite coordinate (nan, 0, 0)");
        expect(
            encode_ply(format, TRIANGLE_HEADER, triangle_instances(1.0, 9)),
            "face 0: face index 9 out of range (3 vertices)");
        expect(encode_ply(format, TRIANGLE_HEADER, triangle_instances(1.0, -5)), "face 0: face index -5 out of range");
        expect(
            encode_ply(format, TRIANGLE_HEADER, triangle_instances(1.0, 2, 2)),
            "face 0: face needs at least 3 vertices, found 2");

        // A count that no file of this size could hold fails on the first missing vertex, without allocating.
        std::string huge = good;
        huge.replace(huge.find("vertex 3"), 8, "vertex 999999999");
        expect(huge, "vertex 3: file ends early");

        // Other elements with lists are skipped by their contents, so a short one is caught too.
        const std::string extra_header = TRIANGLE_HEADER + "element extra 1\nproperty list int double values\n";
        std::vector<PlyInstance> extra = triangle_instances();
        extra.push_back({ { "int", 3 }, { "double", 1 }, { "double", 2 } });
        expect(encode_ply(format, extra_header, extra), "extra 0: file ends early");
        extra.back().push_back({ "double", 3 });
        const fs::path path = write(name, encode_ply(format, extra_header, extra));
        EXPECT_EQ(read_mesh(path).faces.rows(), 1);

        extra.back()[0].value = -1;
        expect(encode_ply(format, extra_header, extra), "extra 0: negative list length -1");
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The shared Belgrod frames

/// Every integer in a text, in order (enough for the boxes JSON and the query CSV).
std::vector<std::int64_t> integers_in(const std::string& text)
{
    std::vector<std::int64_t> values;
    const char* p = text.data();
    const char* end = p + text.size();
    while (p < end) {
        if ((*p >= '0' && *p <= '9') || *p == '-') {
            std::int64_t value = 0;
            const auto [next, error] = std::from_chars(p, end, value);
            if (error == std::errc()) {
                values.push_back(value);
                p = next;
                continue;
            }
        }
        ++p;
    }
    return values;
}

/// Row `row` of a benchmark query CSV (six integers per row: x = n/d, y, z). Every denominator is a power of
/// two and every numerator fits in 53 bits, so the division is exact.
Eigen::RowVector3d query_point(const std::vector<std::int64_t>& csv, std::size_t row)
{
    Eigen::RowVector3d point;
    for (std::size_t c = 0; c < 3; ++c) {
        point(static_cast<Eigen::Index>(c))
            = static_cast<double>(csv[6 * row + 2 * c]) / static_cast<double>(csv[6 * row + 2 * c + 1]);
    }
    return point;
}

TEST_F(MeshIo, ReadsSharedRodTwistFramesWithBelgrodIds)
{
    const fs::path set = ccdkit::test::shared_query_dir() / "belgrod2023" / "rod-twist";
    if (!fs::exists(set / "frames" / "3036.ply")) {
        GTEST_SKIP() << "shared frames not found at " << set << " (set CCDKIT_QUERY_DIR)";
    }
    const auto start = std::chrono::steady_clock::now();
    const TriangleMesh t0 = read_mesh(set / "frames" / "3036.ply");
    const TriangleMesh t1 = read_mesh(set / "frames" / "3037.ply");
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::cout << "read two frames of " << t0.vertices.rows() << " vertices and " << t0.faces.rows() << " faces in "
              << ms << " ms\n";

    ASSERT_EQ(t0.vertices.rows(), t1.vertices.rows());
    ASSERT_EQ(t0.faces.rows(), t1.faces.rows());
    EXPECT_EQ(t0.faces, t1.faces);
    EXPECT_NO_THROW(ccdkit::validate(t0));
    EXPECT_NO_THROW(ccdkit::validate(t1));
    EXPECT_GT(t0.faces.rows(), 0);

    const Eigen::MatrixX2i edges = ccdkit::edges_from_faces(t0.faces);
    const std::int64_t v_count = t0.vertices.rows();
    const std::int64_t e_count = edges.rows();
    const std::int64_t f_count = t0.faces.rows();

    // Each query of a box list names the primitives it came from; its eight rows are their positions at t0
    // (frame 3036) then t1 (frame 3037). Matching them checks the whole id convention, not just the counts.
    const auto vertex_at = [&](const TriangleMesh& mesh, std::int64_t v) -> Eigen::RowVector3d {
        return mesh.vertices.row(static_cast<Eigen::Index>(v));
    };
    const auto read_text = [&](const fs::path& path) {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    };

    const std::vector<std::int64_t> ee_ids = integers_in(read_text(set / "boxes" / "3036ee.json"));
    const std::vector<std::int64_t> ee_rows = integers_in(read_text(set / "queries" / "3036ee.csv"));
    ASSERT_GT(ee_ids.size(), 0U);
    ASSERT_EQ(ee_ids.size() % 2, 0U);
    ASSERT_EQ(ee_rows.size(), ee_ids.size() / 2 * 8 * 6);
    std::size_t mismatches = 0;
    for (std::size_t q = 0; q < ee_ids.size() / 2; ++q) {
        for (std::size_t side = 0; side < 2; ++side) {
            const std::int64_t id = ee_ids[2 * q + side];
            ASSERT_GE(id, v_count) << "query " << q;
            ASSERT_LT(id, v_count + e_count) << "query " << q;
            const auto e = static_cast<Eigen::Index>(id - v_count);
            for (std::size_t end = 0; end < 2; ++end) {
                const int v = edges(e, static_cast<Eigen::Index>(end));
                mismatches += query_point(ee_rows, 8 * q + 2 * side + end) != vertex_at(t0, v);
                mismatches += query_point(ee_rows, 8 * q + 4 + 2 * side + end) != vertex_at(t1, v);
            }
        }
    }
    EXPECT_EQ(mismatches, 0U) << "edge-edge query rows that differ from the edges their ids name";

    const std::vector<std::int64_t> vf_ids = integers_in(read_text(set / "boxes" / "3036vf.json"));
    const std::vector<std::int64_t> vf_rows = integers_in(read_text(set / "queries" / "3036vf.csv"));
    ASSERT_GT(vf_ids.size(), 0U);
    ASSERT_EQ(vf_rows.size(), vf_ids.size() / 2 * 8 * 6);
    mismatches = 0;
    for (std::size_t q = 0; q < vf_ids.size() / 2; ++q) {
        const std::int64_t vertex = vf_ids[2 * q];
        const std::int64_t face = vf_ids[2 * q + 1];
        ASSERT_GE(vertex, 0) << "query " << q;
        ASSERT_LT(vertex, v_count) << "query " << q;
        ASSERT_GE(face, v_count + e_count) << "query " << q;
        ASSERT_LT(face, v_count + e_count + f_count) << "query " << q;
        mismatches += query_point(vf_rows, 8 * q) != vertex_at(t0, vertex);
        mismatches += query_point(vf_rows, 8 * q + 4) != vertex_at(t1, vertex);
        const auto f = static_cast<Eigen::Index>(face - v_count - e_count);
        for (int c = 0; c < 3; ++c) {
            mismatches
                += query_point(vf_rows, 8 * q + 1 + static_cast<std::size_t>(c)) != vertex_at(t0, t0.faces(f, c));
            mismatches
                += query_point(vf_rows, 8 * q + 5 + static_cast<std::size_t>(c)) != vertex_at(t1, t0.faces(f, c));
        }
    }
    EXPECT_EQ(mismatches, 0U) << "vertex-face query rows that differ from the primitives their ids name";
}

} // namespace
