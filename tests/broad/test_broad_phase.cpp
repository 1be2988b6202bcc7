// SPDX-License-Identifier: MIT
#include <ccdkit/broad/brute_force.hpp>
#include <ccdkit/broad/bvh.hpp>
#include <ccdkit/broad/spatial_order.hpp>
#include <ccdkit/broad/sweep_and_prune.hpp>

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

using namespace ccdkit;

namespace {
std::vector<CandidatePair> sorted(std::vector<CandidatePair> pairs)
{
    std::sort(pairs.begin(), pairs.end());
    return pairs;
}

std::vector<CandidatePair> pairs_of(const BroadPhase& broad, const std::vector<Aabb>& queries, std::size_t block = 0)
{
    std::vector<CandidatePair> out;
    if (block == 0) {
        broad.query(queries, 0, out, QueryScope::ALL_PAIRS);
        return sorted(out);
    }
    for (std::size_t first = 0; first < queries.size(); first += block) {
        const std::size_t n = std::min(block, queries.size() - first);
        broad.query(std::span<const Aabb>(queries).subspan(first, n), first, out, QueryScope::ALL_PAIRS);
    }
    return sorted(out);
}

std::vector<CandidatePair> reference(const std::vector<Aabb>& built, const std::vector<Aabb>& queries)
{
    BruteForceBroadPhase brute;
    brute.build(built);
    return pairs_of(brute, queries);
}

/// Boxes at random places in [0, 1]^3 with random sizes up to `size`; a fraction `huge` of them are
/// stretched across the whole scene (a primitive flung far in one step) and a fraction `point` are
/// single points (primitives that do not move).
std::vector<Aabb> random_boxes(std::mt19937& rng, int count, double size, double huge = 0.0, double point = 0.0)
{
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<Aabb> boxes;
    for (int i = 0; i < count; ++i) {
        Aabb b;
        for (int a = 0; a < 3; ++a) {
            b.min[a] = unit(rng);
            b.max[a] = b.min[a] + size * unit(rng);
        }
        const double kind = unit(rng);
        if (kind < huge) {
            b.min[0] = -10.0;
            b.max[0] = 10.0;
        } else if (kind < huge + point) {
            b.max = b.min;
        }
        boxes.push_back(b);
    }
    return boxes;
}

/// Self pairs (each unordered pair once, first < second) of `boxes`, by brute force.
std::vector<CandidatePair> reference_self(const std::vector<Aabb>& boxes)
{
    std::vector<CandidatePair> self;
    for (const auto& p : reference(boxes, boxes)) {
        if (p.first < p.second) {
            self.push_back(p);
        }
    }
    return self;
}

/// Boxes that only the double bounds tell apart or that a single-precision center misplaces: centers that
/// coincide in float (a chain of boxes 2^-40 apart that touch only their neighbours), centers beyond float range
/// (|c| up to the largest double), signed zeros, identical boxes, and boxes unbounded on both sides (NaN center),
/// shuffled.
std::vector<Aabb> adversarial_boxes(std::mt19937& rng)
{
    constexpr double INF = std::numeric_limits<double>::infinity();
    const double big = std::numeric_limits<double>::max();
    std::vector<Aabb> boxes;
    const auto add = [&](const Eigen::Array3d& lo, const Eigen::Array3d& hi) { boxes.push_back({ lo, hi }); };
    for (int k = 0; k < 40; ++k) {
        const double x = 1.0 + k * std::ldexp(1.0, -40);
        add({ x, 0.5, 0.5 }, { x + std::ldexp(1.0, -40), 0.5, 0.5 }); // touches k - 1 and k + 1 only
    }
    for (int k = 0; k < 30; ++k) {
        const double s = (k % 2 == 0 ? 1.0 : -1.0) * std::ldexp(1.0, 990 + k);
        add({ s, s, 1.0 }, { s + std::abs(s) * 1e-10, s, 1.0 });
        add({ s, s, 1.0 }, { s, s, 1.0 }); // a point inside the previous box
    }
    add(Eigen::Array3d::Constant(big / 2), Eigen::Array3d::Constant(big));
    add(Eigen::Array3d::Constant(-big), Eigen::Array3d::Constant(-big / 2));
    add(Eigen::Array3d::Constant(big), Eigen::Array3d::Constant(INF));
    for (int k = 0; k < 6; ++k) {
        add(Eigen::Array3d::Constant(k % 2 == 0 ? -0.0 : 0.0), Eigen::Array3d::Constant(k % 3 == 0 ? -0.0 : 0.0));
    }
    for (int k = 0; k < 23; ++k) {
        add({ 0.25, 0.25, 0.25 }, { 0.5, 0.5, 0.5 });
    }
    add({ -INF, 2.0, 2.0 }, { INF, 2.0, 2.0 });
    add({ 2.0, -INF, -INF }, { 2.0, INF, INF });
    add(Eigen::Array3d::Constant(-INF), Eigen::Array3d::Constant(INF));
    std::shuffle(boxes.begin(), boxes.end(), rng);
    return boxes;
}

std::unique_ptr<BroadPhase> make(BroadPhaseMethod m) { return make_broad_phase(m); }

class BroadPhaseAgreesWithBruteForce : public testing::TestWithParam<BroadPhaseMethod> { };

TEST_P(BroadPhaseAgreesWithBruteForce, RandomScenes)
{
    std::mt19937 rng(7);
    for (const int count : { 0, 1, 2, 5, 37, 300, 2000 }) {
        for (const double size : { 0.0, 0.01, 0.1, 0.5 }) {
            const auto built = random_boxes(rng, count, size);
            const auto queries = random_boxes(rng, count / 2 + 3, size);
            auto broad = make(GetParam());
            broad->build(built);
            EXPECT_EQ(pairs_of(*broad, queries), reference(built, queries)) << count << " boxes of size " << size;
        }
    }
}

TEST_P(BroadPhaseAgreesWithBruteForce, ZeroMotionPointsAndDuplicates)
{
    // Points on a coarse lattice: many coincide exactly and touch only their duplicates.
    std::mt19937 rng(11);
    std::uniform_int_distribution<int> cell(0, 4);
    std::vector<Aabb> points;
    for (int i = 0; i < 500; ++i) {
        const Eigen::Array3d p(cell(rng), cell(rng), cell(rng));
        points.push_back({ p, p });
    }
    auto broad = make(GetParam());
    broad->build(points);
    const auto got = pairs_of(*broad, points);
    EXPECT_EQ(got, reference(points, points));
    EXPECT_GT(got.size(), points.size()); // duplicates exist, so more than the diagonal
}

TEST_P(BroadPhaseAgreesWithBruteForce, HugeMotion)
{
    std::mt19937 rng(13);
    const auto built = random_boxes(rng, 1500, 0.02, 0.05, 0.1);
    const auto queries = random_boxes(rng, 700, 0.02, 0.05, 0.1);
    auto broad = make(GetParam());
    broad->build(built);
    EXPECT_EQ(pairs_of(*broad, queries), reference(built, queries));
}

TEST_P(BroadPhaseAgreesWithBruteForce, FaceToFaceTouchingGrid)
{
    // Unit cubes of a grid share faces, edges and corners exactly: each touches its 26 neighbours.
    std::vector<Aabb> cubes;
    for (int x = 0; x < 6; ++x) {
        for (int y = 0; y < 6; ++y) {
            for (int z = 0; z < 6; ++z) {
                const Eigen::Array3d lo(x, y, z);
                cubes.push_back({ lo, lo + 1.0 });
            }
        }
    }
    auto broad = make(GetParam());
    broad->build(cubes);
    const auto got = pairs_of(*broad, cubes);
    EXPECT_EQ(got, reference(cubes, cubes));
    const std::size_t interior = 4 * 4 * 4;
    EXPECT_GE(got.size(), interior * 27);
}

TEST_P(BroadPhaseAgreesWithBruteForce, HugeAndTinyCoordinates)
{
    std::vector<Aabb> boxes;
    for (const double scale : { 1e-300, 1e-20, 1.0, 1e20, 1e300 }) {
        for (int i = 0; i < 20; ++i) {
            const Eigen::Array3d lo = Eigen::Array3d(i, -i, 2 * i) * scale;
            boxes.push_back({ lo, lo + 1.5 * scale });
            boxes.push_back({ -lo - 1.5 * scale, -lo });
        }
    }
    const double big = std::numeric_limits<double>::max();
    boxes.push_back({ Eigen::Array3d::Constant(-big), Eigen::Array3d::Constant(big) });
    auto broad = make(GetParam());
    broad->build(boxes);
    EXPECT_EQ(pairs_of(*broad, boxes), reference(boxes, boxes));
}

TEST_P(BroadPhaseAgreesWithBruteForce, InfiniteBounds)
{
    // Boxes unbounded on one or both sides of an axis: their centers are infinite or NaN (-inf + inf), which
    // a build that orders boxes by center must still place somewhere valid.
    constexpr double INF = std::numeric_limits<double>::infinity();
    std::mt19937 rng(19);
    auto boxes = random_boxes(rng, 600, 0.05);
    for (std::size_t i = 0; i < boxes.size(); i += 7) {
        const auto a = static_cast<Eigen::Index>(i % 3);
        switch (i % 4) {
        case 0:
            boxes[i].min[a] = -INF;
            boxes[i].max[a] = INF;
            break;
        case 1:
            boxes[i].max[a] = INF;
            break;
        case 2:
            boxes[i].min[a] = -INF;
            break;
        default:
            boxes[i].min = Eigen::Array3d::Constant(-INF);
            boxes[i].max = Eigen::Array3d::Constant(INF);
        }
    }
    auto broad = make(GetParam());
    broad->build(boxes);
    EXPECT_EQ(pairs_of(*broad, boxes), reference(boxes, boxes));
}

TEST_P(BroadPhaseAgreesWithBruteForce, AdversarialCentersAtEverySize)
{
    // Every size from 0 to 13 boxes and around multiples of the leaf size: the last leaf of the tree holds 1 to
    // LEAF_SIZE boxes. Centers only steer a split, so no pair may depend on them.
    std::mt19937 rng(41);
    const std::vector<Aabb> all = adversarial_boxes(rng);
    std::vector<std::size_t> sizes(14);
    std::iota(sizes.begin(), sizes.end(), 0);
    sizes.insert(sizes.end(), { 31, 32, 33, 63, 64, 65, 66, 67, all.size() });
    auto broad = make(GetParam());
    for (const std::size_t size : sizes) {
        SCOPED_TRACE(size);
        const std::vector<Aabb> boxes(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(size));
        broad->build(boxes);
        std::vector<CandidatePair> self;
        broad->query(boxes, 0, self, QueryScope::SELF_PAIRS);
        EXPECT_EQ(pairs_of(*broad, boxes), reference(boxes, boxes));
        EXPECT_EQ(sorted(self), reference_self(boxes));
    }
    // The float-twin chain: each box meets itself and its two neighbours (the ends one).
    const std::vector<CandidatePair> got = pairs_of(*broad, all);
    EXPECT_GT(got.size(), all.size() + 2 * 39);
}

TEST_P(BroadPhaseAgreesWithBruteForce, AllBoxesIdentical)
{
    for (const int count : { 1, 2, 3, 4, 5, 9, 1030 }) {
        SCOPED_TRACE(count);
        const std::vector<Aabb> boxes(
            static_cast<std::size_t>(count), Aabb { Eigen::Array3d(1.0, 2.0, 3.0), Eigen::Array3d(1.0, 2.0, 3.5) });
        auto broad = make(GetParam());
        broad->build(boxes);
        std::vector<CandidatePair> all, self;
        broad->query(boxes, 0, all, QueryScope::ALL_PAIRS);
        broad->query(boxes, 0, self, QueryScope::SELF_PAIRS);
        const auto n = static_cast<std::size_t>(count);
        EXPECT_EQ(all.size(), n * n);
        EXPECT_EQ(sorted(self), reference_self(boxes));
    }
}

TEST_P(BroadPhaseAgreesWithBruteForce, QueriesInBlocksKeepTheirIds)
{
    std::mt19937 rng(17);
    const auto built = random_boxes(rng, 800, 0.05);
    const auto queries = random_boxes(rng, 1000, 0.05);
    auto broad = make(GetParam());
    broad->build(built);
    EXPECT_EQ(pairs_of(*broad, queries, 64), reference(built, queries));
}

TEST_P(BroadPhaseAgreesWithBruteForce, NanBoxIsAnError)
{
    std::mt19937 rng(37);
    auto boxes = random_boxes(rng, 100, 0.1);
    boxes[42].max[1] = std::numeric_limits<double>::quiet_NaN();
    auto broad = make(GetParam());
    try {
        broad->build(boxes);
        FAIL() << "no error";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("box 42"), std::string::npos) << e.what();
    }
}

TEST_P(BroadPhaseAgreesWithBruteForce, RebuildReplacesTheSet)
{
    std::mt19937 rng(19);
    auto broad = make(GetParam());
    broad->build(random_boxes(rng, 500, 0.1));
    const auto second = random_boxes(rng, 50, 0.1);
    broad->build(second);
    const auto queries = random_boxes(rng, 200, 0.1);
    EXPECT_EQ(pairs_of(*broad, queries), reference(second, queries));
    EXPECT_GT(broad->memory_bytes(), 0U);
}

TEST_P(BroadPhaseAgreesWithBruteForce, SelfPairsOnceEach)
{
    std::mt19937 rng(31);
    for (const double huge : { 0.0, 0.05 }) {
        const auto boxes = random_boxes(rng, 1200, 0.04, huge, 0.1);
        std::vector<CandidatePair> expected;
        for (const auto& p : reference(boxes, boxes)) {
            if (p.first < p.second) {
                expected.push_back(p);
            }
        }
        auto broad = make(GetParam());
        broad->build(boxes);
        std::vector<CandidatePair> got;
        for (std::size_t first = 0; first < boxes.size(); first += 100) {
            broad->query(
                std::span<const Aabb>(boxes).subspan(first, std::min<std::size_t>(100, boxes.size() - first)), first,
                got, QueryScope::SELF_PAIRS);
        }
        EXPECT_EQ(sorted(got), expected);
    }
}

TEST_P(BroadPhaseAgreesWithBruteForce, SpatiallyOrderedQueriesInUnevenBlocks)
{
    // Queries in spatial order, as mesh_ccd passes them: neighbouring queries overlap the same boxes (the BVH
    // walks consecutive queries as a group), and blocks of uneven sizes split such groups anywhere.
    std::mt19937 rng(37);
    std::vector<Aabb> boxes = random_boxes(rng, 2000, 0.03, 0.01, 0.1);
    const std::vector<std::int32_t> order = spatial_order(boxes);
    std::vector<Aabb> ordered;
    for (const std::int32_t i : order) {
        ordered.push_back(boxes[static_cast<std::size_t>(i)]);
    }
    auto broad = make(GetParam());
    broad->build(ordered);
    std::vector<CandidatePair> expected_self;
    const std::vector<CandidatePair> expected = reference(ordered, ordered);
    for (const auto& p : expected) {
        if (p.first < p.second) {
            expected_self.push_back(p);
        }
    }
    for (const std::size_t block : { 1, 7, 9, 13, 2000 }) {
        SCOPED_TRACE(block);
        std::vector<CandidatePair> all, self;
        for (std::size_t first = 0; first < ordered.size(); first += block) {
            const auto queries = std::span<const Aabb>(ordered).subspan(first, std::min(block, ordered.size() - first));
            broad->query(queries, first, all, QueryScope::ALL_PAIRS);
            broad->query(queries, first, self, QueryScope::SELF_PAIRS);
        }
        EXPECT_EQ(sorted(all), expected);
        EXPECT_EQ(sorted(self), expected_self);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Methods,
    BroadPhaseAgreesWithBruteForce,
    testing::Values(BroadPhaseMethod::BVH, BroadPhaseMethod::SWEEP_AND_PRUNE, BroadPhaseMethod::BRUTE_FORCE),
    [](const testing::TestParamInfo<BroadPhaseMethod>& method) {
        std::string name(name_of(method.param));
        std::erase(name, '-');
        return name;
    });

TEST(Bvh, RefitAfterMotionStaysExact)
{
    std::mt19937 rng(23);
    auto boxes = random_boxes(rng, 3000, 0.02);
    Bvh bvh;
    bvh.build(boxes);
    // Move every box by a random offset, some far: the tree's shape no longer fits, its answers must.
    std::normal_distribution<double> offset(0.0, 0.3);
    for (Aabb& b : boxes) {
        const Eigen::Array3d d(offset(rng), offset(rng), offset(rng));
        b.min += d;
        b.max += d;
    }
    bvh.refit(boxes);
    const auto queries = random_boxes(rng, 1000, 0.05);
    EXPECT_EQ(pairs_of(bvh, queries), reference(boxes, queries));
    EXPECT_THROW(bvh.refit(std::span<const Aabb>(boxes).first(10)), std::invalid_argument);
}

/// Raw query output (unsorted: the tree's shape decides the order) over both scopes.
std::vector<CandidatePair> raw_pairs(const Bvh& bvh, const std::vector<Aabb>& queries)
{
    std::vector<CandidatePair> out;
    bvh.query(queries, 0, out, QueryScope::ALL_PAIRS);
    bvh.query(queries, 0, out, QueryScope::SELF_PAIRS);
    return out;
}

TEST(Bvh, RebuiltOnShrinkingAndGrowingSetsIsAFreshTree)
{
    // One tree rebuilt in its memory on sets that shrink and grow (through 0 and sizes that leave a partial last
    // leaf), then refitted to moved boxes: it answers exactly what a fresh tree answers, in the same order.
    std::mt19937 rng(43);
    constexpr double INF = std::numeric_limits<double>::infinity();
    const std::vector<Aabb> everywhere { { Eigen::Array3d::Constant(-INF), Eigen::Array3d::Constant(INF) } };
    Bvh reused;
    for (const int count : { 2000, 3, 0, 5, 4097, 1, 6001, 8, 0, 6 }) {
        SCOPED_TRACE(count);
        auto boxes = random_boxes(rng, count, 0.03, 0.005, 0.1);
        reused.build(boxes);
        Bvh fresh;
        fresh.build(boxes);
        EXPECT_EQ(raw_pairs(reused, boxes), raw_pairs(fresh, boxes));
        EXPECT_EQ(pairs_of(reused, boxes), reference(boxes, boxes));
        // A query box over all space meets every built box once: none missed, and none left from a former set.
        EXPECT_EQ(pairs_of(reused, everywhere), reference(boxes, everywhere));
        const auto moved = random_boxes(rng, count, 0.05, 0.005, 0.1);
        reused.refit(moved);
        fresh.refit(moved);
        EXPECT_EQ(raw_pairs(reused, moved), raw_pairs(fresh, moved));
        EXPECT_EQ(pairs_of(reused, moved), reference(moved, moved));
        EXPECT_EQ(pairs_of(reused, everywhere), reference(moved, everywhere));
    }
}

TEST(Bvh, SameTreeOnOneThreadOrMany)
{
    // Subtrees above the parallel threshold are built as tasks: the tree, so the order of the pairs, must not
    // depend on how many threads took them. Points on a coarse lattice tie their centers.
    std::mt19937 rng(47);
    auto boxes = random_boxes(rng, 20000, 0.01, 0.0, 0.1);
    std::uniform_int_distribution<int> cell(0, 9);
    for (std::size_t i = 0; i < boxes.size(); i += 3) {
        boxes[i].min = Eigen::Array3d(cell(rng), cell(rng), cell(rng)) / 10.0;
        boxes[i].max = boxes[i].min;
    }
    const auto built_on = [&](std::size_t threads) {
        const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
        Bvh bvh;
        bvh.build(boxes);
        return raw_pairs(bvh, boxes);
    };
    const auto one = built_on(1);
    EXPECT_EQ(one, built_on(2));
    EXPECT_EQ(one, built_on(4));
}

TEST(Bvh, SizesAroundLeafAndTaskThresholds)
{
    // The depth-first layout places each right child from subtree sizes computed ahead; sizes around
    // the leaf size and the parallel-build threshold exercise that bookkeeping.
    std::mt19937 rng(29);
    for (const int count : { 1, 3, 4, 5, 8, 9, 1000, 4095, 4096, 4097, 70001 }) {
        Bvh bvh;
        const auto boxes = random_boxes(rng, count, 0.0);
        bvh.build(boxes);
        const auto got = pairs_of(bvh, boxes);
        EXPECT_EQ(got.size(), static_cast<std::size_t>(count)) << "each point only meets itself";
    }
}

TEST(Bvh, ReservedThenBuiltOnFewerAndMoreStaysExact)
{
    // Whole-mesh CCD reserves for its larger set and builds on the smaller one first, in the same tree.
    std::mt19937 rng(31);
    const auto small = random_boxes(rng, 700, 0.05), large = random_boxes(rng, 5000, 0.02);
    const auto queries = random_boxes(rng, 500, 0.05);
    Bvh bvh;
    bvh.reserve(large.size());
    const std::size_t reserved = bvh.memory_bytes();
    for (const auto* boxes : { &small, &large, &small }) {
        bvh.build(*boxes);
        EXPECT_EQ(pairs_of(bvh, queries), reference(*boxes, queries));
        EXPECT_EQ(bvh.memory_bytes(), reserved) << "no new allocation up to the reserved size";
    }
    bvh.reserve(std::size_t { 1 } << 40U); // more than build() accepts: ignored
    EXPECT_EQ(bvh.memory_bytes(), reserved);
}

TEST(BroadPhaseNames, RoundTrip)
{
    for (const auto m : { BroadPhaseMethod::BVH, BroadPhaseMethod::SWEEP_AND_PRUNE, BroadPhaseMethod::BRUTE_FORCE }) {
        EXPECT_EQ(broad_phase_method_from_name(name_of(m)), m);
    }
    EXPECT_FALSE(broad_phase_method_from_name("octree"));
}
} // namespace
