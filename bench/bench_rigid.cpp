// SPDX-License-Identifier: MIT
// Google Benchmark of rigid-body time of contact (rigid_contact.hpp): microseconds per query for convex pairs (two
// boxes) under translation, rotation, screw and large-angle motions, over a set of 256 pairs cycled and over 2,048
// distinct pairs, and milliseconds per query for non-convex meshes of about 10k triangles each (two tori), both
// methods; resting contact (a box on another, face to face, touching at t = 0) against the same pairs a hair apart;
// implicit shapes (a sphere, a capsule and boxes; blocks face to face); many bodies at once against a loop over
// every pair. The box pairs also for the times of contact
// alone (no contacts). Counters: fraction of queries with a contact,
// intervals and feature-pair tests per query.
#include <ccdkit/mesh/primitive_meshes.hpp>
#include <ccdkit/rigid/rigid_contact.hpp>
#include <ccdkit/rigid/rigid_pairs.hpp>

#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include <numbers>
#include <optional>
#include <random>
#include <vector>

using namespace ccdkit;

namespace {

enum class MotionSet { TRANSLATION, ROTATION, SCREW, LARGE_ANGLE };

struct Query {
    RigidBody a;
    RigidBody b;
};

/// Body a starts left of b and heads towards it; b turns in place for the rotation sets. Most pairs meet.
std::vector<Query> queries(const RigidShape& shape_a, const RigidShape& shape_b, double reach, MotionSet set, int count)
{
    std::mt19937_64 rng(5);
    const auto uniform = [&rng](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    const auto unit = [&]() -> Eigen::Vector3d {
        return Eigen::Vector3d(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)).normalized();
    };
    const auto rotation = [&]() -> Eigen::Quaterniond {
        return Eigen::Quaterniond(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)).normalized();
    };
    std::vector<Query> out;
    for (int k = 0; k < count; ++k) {
        const Eigen::Vector3d start(-2.0 * reach, uniform(-0.3, 0.3) * reach, uniform(-0.3, 0.3) * reach);
        Eigen::Vector3d velocity = Eigen::Vector3d(uniform(1.5, 3.0) * reach, 0, 0);
        Eigen::Vector3d spin_a = Eigen::Vector3d::Zero(), spin_b = Eigen::Vector3d::Zero();
        switch (set) {
        case MotionSet::TRANSLATION:
            break;
        case MotionSet::ROTATION:
            spin_a = unit() * uniform(0.2, 1.5);
            spin_b = unit() * uniform(0.0, 0.5);
            break;
        case MotionSet::SCREW:
            spin_a = Eigen::Vector3d(uniform(0.5, 1.5), 0, 0); // about the direction of travel
            break;
        case MotionSet::LARGE_ANGLE:
            spin_a = unit() * uniform(std::numbers::pi / 2, std::numbers::pi);
            break;
        }
        out.push_back(
            { { shape_a, RigidMotion({ rotation(), start }, velocity, spin_a) },
              { shape_b, RigidMotion({ rotation(), Eigen::Vector3d::Zero() }, Eigen::Vector3d::Zero(), spin_b) } });
    }
    return out;
}

/// `contacts`: RigidCcdOptions::contacts (false: the times of contact alone).
void run(benchmark::State& state, const std::vector<Query>& set, RigidCcdMethod method, bool contacts = true)
{
    RigidCcdOptions options;
    options.method = method;
    options.contacts = contacts;
    std::size_t k = 0;
    std::int64_t hits = 0, intervals = 0, tests = 0, runs = 0;
    for (auto _ : state) {
        const RigidCcdResult r = rigid_time_of_contact(set[k].a, set[k].b, options);
        benchmark::DoNotOptimize(r.toi_lower);
        hits += r.hit;
        intervals += r.stats.intervals;
        tests += r.stats.pair_tests;
        ++runs;
        k = (k + 1) % set.size();
    }
    state.counters["hit_fraction"] = static_cast<double>(hits) / static_cast<double>(runs);
    state.counters["intervals"] = static_cast<double>(intervals) / static_cast<double>(runs);
    state.counters["pair_tests"] = static_cast<double>(tests) / static_cast<double>(runs);
}

RigidShape solid(const TriangleMesh& mesh) { return RigidShape::solid(mesh.vertices, mesh.faces); }

void box_box(benchmark::State& state, MotionSet set, RigidCcdMethod method)
{
    static const RigidShape box = solid(box_mesh({ 0.5, 0.3, 0.2 }));
    run(state, queries(box, box, 0.6, set, 256), method);
}

/// The same motions over 2,048 distinct pairs, each met once per pass. Cycling 256 pairs, the processor's branch
/// predictor learns some of each query's path (on the machine here turning queries ran about 20% faster than
/// distinct ones when this was written, 7-9% faster on 2026-11-28; longer sets than 1,024 pairs change nothing
/// more); a simulator's pairs are new each time.
void box_box_distinct(benchmark::State& state, MotionSet set)
{
    static const RigidShape box = solid(box_mesh({ 0.5, 0.3, 0.2 }));
    run(state, queries(box, box, 0.6, set, 2048), RigidCcdMethod::CONSERVATIVE);
}

/// The cycled and the distinct sets' times of contact alone, without the contacts (RigidCcdOptions::contacts).
void box_box_times(benchmark::State& state, MotionSet set)
{
    static const RigidShape box = solid(box_mesh({ 0.5, 0.3, 0.2 }));
    run(state, queries(box, box, 0.6, set, 256), RigidCcdMethod::CONSERVATIVE, false);
}
void box_box_times_distinct(benchmark::State& state, MotionSet set)
{
    static const RigidShape box = solid(box_mesh({ 0.5, 0.3, 0.2 }));
    run(state, queries(box, box, 0.6, set, 2048), RigidCcdMethod::CONSERVATIVE, false);
}

void torus_torus(benchmark::State& state, RigidCcdMethod method)
{
    // 100 x 50 x 2 = 10,000 triangles each.
    static const RigidShape torus = solid(torus_mesh(1.0, 0.3, 100, 50));
    static const std::vector<Query> set = queries(torus, torus, 1.3, MotionSet::ROTATION, 16);
    run(state, set, method);
}

enum class ImplicitSet { SPHERE_ON_MESH_BOX, CAPSULE_ON_BOX, BOX_ON_BOX, FACE_TO_FACE };

/// Implicit shapes (surface regions against a certified clearance, at the default resolution: 1% of the smaller
/// body's radius) under the rotation set's motions: an implicit sphere against a mesh box, a capsule against an
/// implicit box, two implicit boxes; and two implicit blocks meeting face to face, level (the costliest case: the
/// whole face comes within the resolution at once).
void implicit(benchmark::State& state, ImplicitSet set)
{
    static const RigidShape sphere = RigidShape::implicit(ImplicitShape::sphere(0.3));
    static const RigidShape capsule = RigidShape::implicit(ImplicitShape::capsule(0.1, 0.4));
    static const RigidShape implicit_box = RigidShape::implicit(ImplicitShape::box({ 0.5, 0.3, 0.2 }));
    static const RigidShape mesh_box = solid(box_mesh({ 0.5, 0.3, 0.2 }));
    static const RigidShape block = RigidShape::implicit(ImplicitShape::box({ 0.5, 0.5, 0.5 }));
    static const std::vector<Query> sphere_set = queries(sphere, mesh_box, 0.6, MotionSet::ROTATION, 64);
    static const std::vector<Query> capsule_set = queries(capsule, implicit_box, 0.6, MotionSet::ROTATION, 64);
    static const std::vector<Query> box_set = queries(implicit_box, implicit_box, 0.6, MotionSet::ROTATION, 64);
    static const std::vector<Query> face_set
        = { { { block, RigidMotion({ .translation = { 0, 0, 1.5 } }, { 0, 0, -1 }, Eigen::Vector3d::Zero()) },
              { block, RigidMotion({}, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()) } } };
    run(state,
        set == ImplicitSet::SPHERE_ON_MESH_BOX   ? sphere_set
            : set == ImplicitSet::CAPSULE_ON_BOX ? capsule_set
            : set == ImplicitSet::BOX_ON_BOX     ? box_set
                                                 : face_set,
        RigidCcdMethod::CONSERVATIVE);
}

enum class RestingSet { ALIGNED_STACK, FACE_ON_FACE, NEAR_MISS };

/// A box resting on another's top face under a random pose: equal boxes stacked rim on rim (ALIGNED_STACK), a
/// smaller box at a random offset and turn (FACE_ON_FACE), or that box lifted by 1e-3 of its size and sliding
/// sideways, never touching (NEAR_MISS). Both at rest otherwise: the contact starts at t = 0.
std::vector<Query> resting_queries(RestingSet set, int count)
{
    std::mt19937_64 rng(7);
    const auto uniform = [&rng](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    const auto rotation = [&]() -> Eigen::Quaterniond {
        return Eigen::Quaterniond(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)).normalized();
    };
    static const RigidShape lower_box = solid(box_mesh({ 0.5, 0.5, 0.5 }));
    static const RigidShape upper_box = solid(box_mesh({ 0.25, 0.25, 0.25 }));
    const bool aligned = set == RestingSet::ALIGNED_STACK;
    const RigidShape& upper = aligned ? lower_box : upper_box;
    const double height = aligned ? 1.0 : 0.75 + (set == RestingSet::NEAR_MISS ? 5e-4 : 0.0);
    std::vector<Query> out;
    for (int k = 0; k < count; ++k) {
        const Eigen::Quaterniond pose = aligned ? Eigen::Quaterniond::Identity() : rotation();
        const Eigen::Quaterniond turn(Eigen::AngleAxisd(aligned ? 0.0 : uniform(-3, 3), Eigen::Vector3d::UnitZ()));
        const Eigen::Vector3d offset
            = aligned ? Eigen::Vector3d(0, 0, height) : Eigen::Vector3d(uniform(-0.2, 0.2), uniform(-0.2, 0.2), height);
        const Eigen::Vector3d slide = set == RestingSet::NEAR_MISS
            ? Eigen::Vector3d(uniform(-0.2, 0.2), uniform(-0.2, 0.2), 0)
            : Eigen::Vector3d::Zero();
        const Eigen::Vector3d origin(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
        out.push_back(
            { { upper, RigidMotion({ pose * turn, origin + pose * offset }, pose * slide, Eigen::Vector3d::Zero()) },
              { lower_box, RigidMotion({ pose, origin }, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()) } });
    }
    return out;
}

void resting(benchmark::State& state, RestingSet set)
{
    static const std::vector<Query> stack = resting_queries(RestingSet::ALIGNED_STACK, 1);
    static const std::vector<Query> face = resting_queries(RestingSet::FACE_ON_FACE, 64);
    static const std::vector<Query> miss = resting_queries(RestingSet::NEAR_MISS, 64);
    run(state,
        set == RestingSet::ALIGNED_STACK      ? stack
            : set == RestingSet::FACE_ON_FACE ? face
                                              : miss,
        RigidCcdMethod::CONSERVATIVE);
}

enum class ManyBodies { EVERY_PAIR, PAIRS_ONE_THREAD, PAIRS };

/// 400 boxes tumbling at random in a cube of side 12 (79,800 pairs; a few hundred meet): every pair queried in a
/// loop (the baseline) against rigid_pairs_time_of_contact on one thread and on all.
void many_bodies(benchmark::State& state, ManyBodies how)
{
    static const RigidShape box = solid(box_mesh({ 0.5, 0.3, 0.2 }));
    static const std::vector<RigidBody> bodies = [] {
        std::mt19937_64 rng(9);
        const auto uniform
            = [&rng](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
        const auto vector = [&](double scale) -> Eigen::Vector3d {
            return Eigen::Vector3d(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)) * scale;
        };
        std::vector<RigidBody> out;
        for (int k = 0; k < 400; ++k) {
            const Eigen::Quaterniond turn
                = Eigen::Quaterniond(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)).normalized();
            out.push_back({ box, RigidMotion({ turn, vector(6.0) }, vector(2.0), vector(3.0)) });
        }
        return out;
    }();
    std::optional<tbb::global_control> one_thread;
    if (how == ManyBodies::PAIRS_ONE_THREAD) {
        one_thread.emplace(tbb::global_control::max_allowed_parallelism, 1);
    }
    std::int64_t hits = 0, searched = 0;
    for (auto _ : state) {
        hits = 0;
        searched = 0;
        if (how == ManyBodies::EVERY_PAIR) {
            for (std::size_t i = 0; i < bodies.size(); ++i) {
                for (std::size_t j = i + 1; j < bodies.size(); ++j) {
                    hits += rigid_time_of_contact(bodies[i], bodies[j]).hit;
                    ++searched;
                }
            }
        } else {
            for (const RigidPairContact& pair : rigid_pairs_time_of_contact(bodies)) {
                hits += pair.result.hit;
                ++searched;
            }
        }
        benchmark::DoNotOptimize(hits);
    }
    state.counters["hits"] = static_cast<double>(hits);
    state.counters["pairs_searched"] = static_cast<double>(searched);
}

constexpr auto CONSERVATIVE = RigidCcdMethod::CONSERVATIVE;
constexpr auto CHORD = RigidCcdMethod::CHORD;

BENCHMARK_CAPTURE(box_box, translation / conservative, MotionSet::TRANSLATION, CONSERVATIVE)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box, rotation / conservative, MotionSet::ROTATION, CONSERVATIVE)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box, screw / conservative, MotionSet::SCREW, CONSERVATIVE)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box, large_angle / conservative, MotionSet::LARGE_ANGLE, CONSERVATIVE)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box, translation / chord, MotionSet::TRANSLATION, CHORD)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box, rotation / chord, MotionSet::ROTATION, CHORD)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box, screw / chord, MotionSet::SCREW, CHORD)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box, large_angle / chord, MotionSet::LARGE_ANGLE, CHORD)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box_distinct, translation / conservative, MotionSet::TRANSLATION)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box_distinct, rotation / conservative, MotionSet::ROTATION)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box_distinct, screw / conservative, MotionSet::SCREW)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box_distinct, large_angle / conservative, MotionSet::LARGE_ANGLE)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box_times, translation / conservative, MotionSet::TRANSLATION)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box_times, rotation / conservative, MotionSet::ROTATION)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box_times, screw / conservative, MotionSet::SCREW)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box_times, large_angle / conservative, MotionSet::LARGE_ANGLE)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box_times_distinct, translation / conservative, MotionSet::TRANSLATION)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box_times_distinct, rotation / conservative, MotionSet::ROTATION)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box_times_distinct, screw / conservative, MotionSet::SCREW)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(box_box_times_distinct, large_angle / conservative, MotionSet::LARGE_ANGLE)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(resting, aligned_stack, RestingSet::ALIGNED_STACK)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(resting, face_on_face, RestingSet::FACE_ON_FACE)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(resting, near_miss, RestingSet::NEAR_MISS)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(implicit, sphere_on_mesh_box, ImplicitSet::SPHERE_ON_MESH_BOX)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(implicit, capsule_on_box, ImplicitSet::CAPSULE_ON_BOX)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(implicit, box_on_box, ImplicitSet::BOX_ON_BOX)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(implicit, face_to_face, ImplicitSet::FACE_TO_FACE)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(many_bodies, every_pair, ManyBodies::EVERY_PAIR)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(many_bodies, rigid_pairs_one_thread, ManyBodies::PAIRS_ONE_THREAD)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(many_bodies, rigid_pairs, ManyBodies::PAIRS)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(torus_torus, conservative, CONSERVATIVE)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(torus_torus, chord, CHORD)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
