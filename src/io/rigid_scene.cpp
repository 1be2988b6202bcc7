// SPDX-License-Identifier: MIT
#include "rigid/details/wide_range_length.hpp"

#include <ccdkit/io/rigid_scene.hpp>
#include <ccdkit/mesh/mesh_io.hpp>
#include <ccdkit/mesh/primitive_meshes.hpp>
#include <ccdkit/mesh/triangle_mesh.hpp>
#include <ccdkit/rigid/implicit_shape.hpp>
#include <ccdkit/rigid/signed_distance_grid.hpp>

#include <Eigen/Geometry>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <numbers>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ccdkit {

namespace {

    using nlohmann::json;

    /// Reads fields of one JSON object, naming `where` in every error.
    class Fields {
    public:
        Fields(const json& object, std::string where)
            : object_(object)
            , where_(std::move(where))
        {
            if (!object_.is_object()) {
                fail("is not a JSON object");
            }
        }

        [[noreturn]] void fail(const std::string& what) const { throw std::runtime_error(where_ + ": " + what); }

        [[nodiscard]] bool has(const char* key) const { return object_.contains(key); }

        [[nodiscard]] const json& at(const char* key) const
        {
            if (!has(key)) {
                fail(std::string("missing \"") + key + "\"");
            }
            return object_.at(key);
        }

        [[nodiscard]] double number(const char* key, double fallback) const
        {
            return has(key) ? number_of(at(key), key) : fallback;
        }

        /// A whole number that fits T (nlohmann's get<T> would wrap 4294967299 to 3).
        template <class T> [[nodiscard]] T integer(const char* key, T fallback) const
        {
            if (!has(key)) {
                return fallback;
            }
            const json& v = at(key);
            const bool fits = v.is_number_unsigned()
                ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                : v.is_number_integer() && std::in_range<T>(v.get<std::int64_t>());
            if (!fits) {
                fail(
                    std::string("\"") + key + "\" must be an integer in ["
                    + std::to_string(std::numeric_limits<T>::min()) + ", "
                    + std::to_string(std::numeric_limits<T>::max()) + "]");
            }
            return v.is_number_unsigned() ? static_cast<T>(v.get<std::uint64_t>())
                                          : static_cast<T>(v.get<std::int64_t>());
        }

        [[nodiscard]] Eigen::Vector3d vector(const char* key, const Eigen::Vector3d& fallback) const
        {
            if (!has(key)) {
                return fallback;
            }
            const json& v = at(key);
            if (!v.is_array() || v.size() != 3) {
                fail(std::string("\"") + key + "\" must be an array of 3 numbers");
            }
            return { number_of(v[0], key), number_of(v[1], key), number_of(v[2], key) };
        }

        [[nodiscard]] std::string text(const char* key, const std::string& fallback) const
        {
            if (!has(key)) {
                return fallback;
            }
            if (!at(key).is_string()) {
                fail(std::string("\"") + key + "\" must be a string");
            }
            return at(key).get<std::string>();
        }

        [[nodiscard]] const std::string& where() const { return where_; }

        /// Fails on a field not among `known` (a misspelt "positon" would otherwise leave the default silently);
        /// fields whose names start with "_" are comments.
        void only(std::initializer_list<std::string_view> known) const
        {
            only(std::span<const std::string_view>(known.begin(), known.size()));
        }
        void only(std::span<const std::string_view> known) const
        {
            for (const auto& [key, value] : object_.items()) {
                if (key.starts_with('_') || std::find(known.begin(), known.end(), key) != known.end()) {
                    continue;
                }
                std::string list;
                for (const std::string_view k : known) {
                    list += (list.empty() ? "" : ", ") + std::string(k);
                }
                fail("unknown field \"" + key + "\" (known here: " + list + "; \"_...\" for comments)");
            }
        }

    private:
        double number_of(const json& value, const char* key) const
        {
            if (!value.is_number()) {
                fail(std::string("\"") + key + "\" must be a number");
            }
            const double x = value.get<double>();
            if (!std::isfinite(x)) {
                fail(std::string("\"") + key + "\" is not finite");
            }
            return x;
        }

        const json& object_;
        std::string where_;
    };

    /// The first number in the text that the parser reads as 0 though its digits are not all zero (1e-400 underflows:
    /// a surface_resolution of 1e-400 would quietly mean the default), with the key it came under.
    class UnderflowFinder final : public nlohmann::json_sax<json> {
    public:
        std::string number;
        std::string key_of_number;

        bool number_float(number_float_t value, const string_t& text) override
        {
            if (value == 0.0 && number.empty() && text.find_first_of("123456789") < text.find_first_of("eE")) {
                number = text;
                key_of_number = last_key_;
            }
            return true;
        }
        bool key(string_t& name) override
        {
            last_key_ = name;
            return true;
        }
        bool null() override { return true; }
        bool boolean(bool /*value*/) override { return true; }
        bool number_integer(number_integer_t /*value*/) override { return true; }
        bool number_unsigned(number_unsigned_t /*value*/) override { return true; }
        bool string(string_t& /*value*/) override { return true; }
        bool binary(binary_t& /*value*/) override { return true; }
        bool start_object(std::size_t /*size*/) override { return true; }
        bool end_object() override { return true; }
        bool start_array(std::size_t /*size*/) override { return true; }
        bool end_array() override { return true; }
        bool parse_error(
            std::size_t /*position*/,
            const std::string& /*token*/,
            const nlohmann::detail::exception& /*error*/) override
        {
            return false; // (the parse proper reports it)
        }

    private:
        std::string last_key_;
    };

    RigidShape solid_of(const TriangleMesh& mesh) { return RigidShape::solid(mesh.vertices, mesh.faces); }

    bool flag(const Fields& fields, const char* key)
    {
        if (!fields.has(key)) {
            return false;
        }
        if (!fields.at(key).is_boolean()) {
            fields.fail(std::string("\"") + key + "\" must be true or false");
        }
        return fields.at(key).get<bool>();
    }

    /// The analytic solid of a primitive ("implicit": true, a capsule, a part of a Boolean shape).
    ImplicitShape primitive_of(const Fields& shape, std::string_view type)
    {
        if (type == "box") {
            return ImplicitShape::box(shape.vector("half_extents", Eigen::Vector3d::Zero()));
        }
        if (type == "sphere") {
            return ImplicitShape::sphere(shape.number("radius", 0.0));
        }
        if (type == "torus") {
            return ImplicitShape::torus(shape.number("major_radius", 0.0), shape.number("minor_radius", 0.0));
        }
        if (type == "capsule") {
            return ImplicitShape::capsule(shape.number("radius", 0.0), shape.number("half_length", 0.0));
        }
        shape.fail("no implicit form of shape type \"" + std::string(type) + "\" (box, sphere, torus or capsule)");
    }

    Eigen::Quaterniond rotation_of(const Fields& fields);

    /// A shape type: the fields it takes (beyond "type") and whether its form without "implicit" is implicit.
    struct ShapeType {
        std::string_view name;
        std::vector<std::string_view> fields;
        bool implicit;
    };
    const ShapeType* shape_type(std::string_view name)
    {
        static const std::vector<ShapeType> types {
            { "box", { "half_extents", "implicit" }, false },
            { "sphere", { "radius", "subdivisions", "implicit" }, false },
            { "torus", { "major_radius", "minor_radius", "rings", "sides", "implicit" }, false },
            { "capsule", { "radius", "half_length", "implicit" }, true },
            { "mesh", { "file", "solid" }, false },
            { "union", { "shapes" }, true },
            { "intersection", { "shapes" }, true },
            { "difference", { "shapes" }, true },
            { "distance_grid", { "of", "cell_size", "padding" }, true },
        };
        const auto known
            = std::find_if(types.begin(), types.end(), [name](const ShapeType& t) { return t.name == name; });
        return known == types.end() ? nullptr : &*known;
    }
    /// The fields that place a part of a Boolean shape in the whole's coordinates.
    constexpr std::array<std::string_view, 3> PLACEMENT { "position", "rotation", "quaternion" };

    /// A scene's shape, read from its JSON object: a mesh or an implicit solid (see rigid_scene.hpp). Parts of a
    /// Boolean shape (`part`) are implicit and may be placed in the whole's coordinates.
    class ShapeReader {
    public:
        explicit ShapeReader(std::filesystem::path base_dir)
            : base_dir_(std::move(base_dir))
        {
        }

        [[nodiscard]] RigidShape shape(const Fields& shape, int depth = 0) const
        {
            const ShapeType& type_of = checked_type(shape, false);
            const std::string_view type = type_of.name;
            if (implicit(shape, type_of)) {
                for (const char* mesh_only : { "subdivisions", "rings", "sides" }) {
                    if (shape.has(mesh_only)) {
                        shape.fail(
                            std::string("\"") + mesh_only + "\" is for the mesh form only (an implicit "
                            + std::string(type) + " is exact)");
                    }
                }
                return RigidShape::implicit(implicit_of(shape, type, depth));
            }
            if (type == "capsule") {
                shape.fail("a capsule has no mesh form (leave out \"implicit\": false)");
            }
            if (type == "box") {
                return solid_of(box_mesh(shape.vector("half_extents", Eigen::Vector3d::Zero())));
            }
            if (type == "sphere") {
                return solid_of(icosphere_mesh(shape.number("radius", 0.0), shape.integer("subdivisions", 3)));
            }
            if (type == "torus") {
                return solid_of(torus_mesh(
                    shape.number("major_radius", 0.0), shape.number("minor_radius", 0.0), shape.integer("rings", 48),
                    shape.integer("sides", 24)));
            }
            std::filesystem::path file = shape.text("file", "");
            if (file.empty()) {
                shape.fail("a mesh needs \"file\"");
            }
            if (file.is_relative()) {
                file = base_dir_ / file;
            }
            const TriangleMesh mesh = read_mesh(file);
            return flag(shape, "solid") ? RigidShape::solid(mesh.vertices, mesh.faces)
                                        : RigidShape::mesh(mesh.vertices, mesh.faces);
        }

    private:
        /// The shape's type, after checking that it is known and that the object has only its fields (and a part's
        /// placement).
        static const ShapeType& checked_type(const Fields& shape, bool part)
        {
            const std::string name = shape.text("type", "");
            const ShapeType* type = shape_type(name);
            if (type == nullptr) {
                shape.fail(
                    "unknown shape type \"" + name
                    + "\" (box, sphere, torus, capsule, mesh, union, intersection, difference or distance_grid)");
            }
            std::vector<std::string_view> fields { "type" };
            fields.insert(fields.end(), type->fields.begin(), type->fields.end());
            if (part) {
                fields.insert(fields.end(), PLACEMENT.begin(), PLACEMENT.end());
            }
            shape.only(fields);
            return *type;
        }

        static bool implicit(const Fields& shape, const ShapeType& type)
        {
            return shape.has("implicit") ? flag(shape, "implicit") : type.implicit;
        }

        /// The implicit solid of a shape whose type is checked: a primitive, a Boolean shape of its parts, or a
        /// distance grid.
        [[nodiscard]] ImplicitShape implicit_of(const Fields& shape, std::string_view type, int depth) const
        {
            const bool boolean = type == "union" || type == "intersection" || type == "difference";
            if ((boolean || type == "distance_grid") && depth >= MAX_DEPTH) {
                shape.fail("shapes nested more than " + std::to_string(MAX_DEPTH) + " deep");
            }
            if (boolean) {
                const json& parts = shape.at("shapes");
                if (!parts.is_array() || parts.size() < 2) {
                    shape.fail("\"shapes\" must be an array of at least 2 shapes");
                }
                std::vector<ImplicitShape> solids;
                for (std::size_t k = 0; k < parts.size(); ++k) {
                    solids.push_back(part(shape, parts, k, depth + 1));
                }
                if (type == "intersection") {
                    return combined(solids, 0, solids.size(), intersect);
                }
                if (type == "union") {
                    return combined(solids, 0, solids.size(), unite);
                }
                return subtract(solids.front(), combined(solids, 1, solids.size(), unite));
            }
            if (type == "distance_grid") {
                const Fields of(shape.at("of"), shape.where() + ", of");
                const RigidShape sampled = this->shape(of, depth + 1);
                const double cell_size = shape.number("cell_size", 0.0);
                const double padding = shape.number("padding", 2.0 * cell_size);
                if (sampled.is_implicit()) {
                    return ImplicitShape::grid(
                        SignedDistanceGrid::sample(sampled.implicit_shape(), cell_size, padding));
                }
                // A mesh's grid measures every face at every sample, with no progress to show: a request for minutes
                // of that is refused up front.
                const Aabb bounds = faces_bounds(sampled.vertices(), sampled.faces());
                const Eigen::Array3d extent = bounds.max - bounds.min;
                const double work = (((extent + 2.0 * padding) / cell_size).ceil() + 1.0).prod()
                    * static_cast<double>(sampled.faces().rows());
                if (cell_size > 0.0 && !(work <= MAX_GRID_WORK)) {
                    std::ostringstream message;
                    message << "a distance grid of a mesh measures every face at every sample: " << work
                            << " triangle distances at this cell_size, over " << MAX_GRID_WORK
                            << " (minutes); give a coarser cell_size";
                    shape.fail(message.str());
                }
                return ImplicitShape::grid(
                    SignedDistanceGrid::from_mesh(sampled.vertices(), sampled.faces(), cell_size, padding));
            }
            if (type == "mesh") {
                shape.fail("a mesh has no implicit form here: give {\"type\": \"distance_grid\", \"of\": {the mesh}, "
                           "\"cell_size\": h} instead");
            }
            return primitive_of(shape, type);
        }

        /// solids[begin, end) combined by `combine` as a balanced tree: a list of a thousand parts nests ten deep, not
        /// a thousand (ImplicitShape::MAX_DEPTH).
        template <class Combine>
        static ImplicitShape
        combined(const std::vector<ImplicitShape>& solids, std::size_t begin, std::size_t end, Combine&& combine)
        {
            if (end - begin == 1) {
                return solids[begin];
            }
            const std::size_t middle = begin + (end - begin) / 2;
            return combine(combined(solids, begin, middle, combine), combined(solids, middle, end, combine));
        }

        /// Part k of a Boolean shape, placed in the whole's coordinates.
        [[nodiscard]] ImplicitShape part(const Fields& whole, const json& parts, std::size_t k, int depth) const
        {
            const Fields shape(parts[k], whole.where() + ", shapes[" + std::to_string(k) + "]");
            const ShapeType& type = checked_type(shape, true);
            if (shape.has("implicit") && !flag(shape, "implicit")) {
                shape.fail("a part of a Boolean shape is implicit (\"implicit\": false is not possible here)");
            }
            const ImplicitShape solid = implicit_of(shape, type.name, depth);
            if (!shape.has("position") && !shape.has("rotation") && !shape.has("quaternion")) {
                return solid;
            }
            const Eigen::Quaterniond rotation = rotation_of(shape);
            if (!(rotation.coeffs().cwiseAbs().maxCoeff() > 0.0)) {
                shape.fail("\"quaternion\" must not be zero");
            }
            Eigen::Isometry3d placement = Eigen::Isometry3d::Identity();
            placement.linear() = Eigen::Quaterniond(details::unit_direction<4>(rotation.coeffs())).toRotationMatrix();
            placement.translation() = shape.vector("position", Eigen::Vector3d::Zero());
            return solid.transformed(placement);
        }

        /// Deepest nesting of Boolean shapes and grids (the reading and the shape's evaluation recurse).
        static constexpr int MAX_DEPTH = 32;
        /// Most triangle distances a mesh's distance grid may take (about ten seconds on two cores).
        static constexpr double MAX_GRID_WORK = 0x1p30;
        std::filesystem::path base_dir_;
    };

    /// "rotation": {"axis", "angle"} or "quaternion": [w, x, y, z], identity when neither is given.
    Eigen::Quaterniond rotation_of(const Fields& fields)
    {
        if (fields.has("quaternion")) {
            const json& q = fields.at("quaternion");
            if (!q.is_array() || q.size() != 4 || !q[0].is_number() || !q[1].is_number() || !q[2].is_number()
                || !q[3].is_number()) {
                fields.fail("\"quaternion\" must be an array of 4 numbers [w, x, y, z]");
            }
            return { q[0].get<double>(), q[1].get<double>(), q[2].get<double>(), q[3].get<double>() };
        }
        if (fields.has("rotation")) {
            const Fields rotation(fields.at("rotation"), fields.where() + ", rotation");
            rotation.only({ "axis", "angle" });
            const Eigen::Vector3d axis = rotation.vector("axis", Eigen::Vector3d::UnitZ());
            if (!(axis.cwiseAbs().maxCoeff() > 0.0)) {
                rotation.fail("\"axis\" must not be zero");
            }
            // (direction_of: normalized() took an axis of 1e200 to zero, no turn, and one of 1e-170 to "zero".)
            return Eigen::Quaterniond(Eigen::AngleAxisd(rotation.number("angle", 0.0), details::direction_of(axis)));
        }
        return Eigen::Quaterniond::Identity();
    }

    RigidPose pose_of(const Fields& fields)
    {
        return { rotation_of(fields), fields.vector("position", Eigen::Vector3d::Zero()) };
    }

    RigidMotion motion_of(const Fields& body, double duration)
    {
        const Eigen::Vector3d center = body.vector("center_of_mass", Eigen::Vector3d::Zero());
        const RigidPose start = pose_of(body);
        if (body.has("end")) {
            if (body.has("velocity") || body.has("angular_velocity")) {
                body.fail("give either \"end\" or the velocities, not both");
            }
            const Fields end(body.at("end"), body.where() + ", end");
            end.only({ "position", "rotation", "quaternion" });
            return RigidMotion::between(start, pose_of(end), duration, center);
        }
        return RigidMotion(
            start, body.vector("velocity", Eigen::Vector3d::Zero()),
            body.vector("angular_velocity", Eigen::Vector3d::Zero()), duration, center);
    }

} // namespace

RigidScene parse_rigid_scene(std::string_view json_text, const std::filesystem::path& base_dir)
{
    json document;
    try {
        document = json::parse(json_text);
    } catch (const json::exception& e) { // (a syntax error, or a number beyond double's range)
        throw std::runtime_error(std::string("malformed JSON: ") + e.what());
    }
    UnderflowFinder underflow;
    (void)json::sax_parse(json_text, &underflow);
    if (!underflow.number.empty()) {
        throw std::runtime_error(
            "\"" + underflow.key_of_number + "\": the number " + underflow.number
            + " is below double's range (it would read as 0)");
    }
    const Fields scene(document, "scene");
    scene.only({ "duration", "method", "eps", "t_max", "chord_tolerance", "surface_resolution", "max_surface_regions",
                 "max_surface_tests", "max_pair_tests", "contacts", "bodies" });
    RigidScene out;
    const double duration = scene.number("duration", 1.0);
    if (!std::isfinite(duration) || !(duration > 0.0)) {
        std::ostringstream message;
        message << "\"duration\" must be finite and > 0, got " << duration;
        scene.fail(message.str());
    }
    RigidCcdOptions& options = out.options;
    options.eps = scene.number("eps", options.eps);
    options.t_max = scene.number("t_max", options.t_max);
    options.chord_tolerance = scene.number("chord_tolerance", options.chord_tolerance);
    options.surface_resolution = scene.number("surface_resolution", options.surface_resolution);
    options.max_surface_regions = scene.integer("max_surface_regions", options.max_surface_regions);
    options.max_surface_tests = scene.integer("max_surface_tests", options.max_surface_tests);
    options.max_pair_tests = scene.integer("max_pair_tests", options.max_pair_tests);
    try {
        check_rigid_ccd_options(options);
    } catch (const std::invalid_argument& e) {
        scene.fail(e.what());
    }
    out.options.contacts = !scene.has("contacts") || flag(scene, "contacts");
    const std::string method = scene.text("method", "conservative");
    if (method == "chord") {
        out.options.method = RigidCcdMethod::CHORD;
    } else if (method != "conservative") {
        scene.fail("unknown method \"" + method + "\" (conservative or chord)");
    }
    const json& bodies = scene.at("bodies");
    if (!bodies.is_array() || bodies.size() < 2) {
        scene.fail("\"bodies\" must be an array of at least 2 bodies");
    }
    std::unordered_set<std::string> names;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const Fields body(bodies[i], "body " + std::to_string(i));
        const std::string name = body.text("name", "body" + std::to_string(i));
        const Fields named(bodies[i], "body " + std::to_string(i) + " (" + name + ")");
        named.only({ "name", "shape", "center_of_mass", "position", "rotation", "quaternion", "velocity",
                     "angular_velocity", "end" });
        if (!names.insert(name).second) {
            named.fail("another body has the same name (the names tell the pairs apart)");
        }
        try {
            out.bodies.push_back({ ShapeReader(base_dir).shape(Fields(named.at("shape"), named.where() + ", shape")),
                                   motion_of(named, duration) });
        } catch (const std::invalid_argument& e) {
            named.fail(e.what());
        }
        out.names.push_back(name);
    }
    return out;
}

RigidScene read_rigid_scene(const std::filesystem::path& path)
{
    std::ifstream in(path);
    if (!in) {
        throw std::runtime_error(path.string() + ": cannot open");
    }
    std::stringstream text;
    text << in.rdbuf();
    try {
        return parse_rigid_scene(text.str(), path.parent_path());
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(path.string() + ": " + e.what());
    }
}

RigidScene rod_into_gap_scene()
{
    // The gap between the boxes is 0.6 wide, the rod 2.4 long: it cannot pass while it spins.
    const RigidShape rod = solid_of(box_mesh({ 1.2, 0.05, 0.05 }));
    const RigidShape block = solid_of(box_mesh({ 1.0, 1.0, 0.5 }));
    RigidScene scene;
    scene.names = { "rod", "left block", "right block" };
    scene.bodies = {
        { rod, RigidMotion({ .translation = { 0.0, 3.0, 0.0 } }, { 0.0, -3.0, 0.0 }, { 0.0, 0.0, std::numbers::pi }) },
        { block, RigidMotion({ .translation = { -1.3, 0.0, 0.0 } }, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()) },
        { block, RigidMotion({ .translation = { 1.3, 0.0, 0.0 } }, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()) },
    };
    return scene;
}

} // namespace ccdkit
