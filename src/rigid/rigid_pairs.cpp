// SPDX-License-Identifier: MIT
#include "rigid/details/rounding.hpp"

#include <ccdkit/broad/broad_phase.hpp>
#include <ccdkit/rigid/rigid_pairs.hpp>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>

namespace ccdkit {

namespace {

    void check_durations(std::span<const RigidBody> bodies)
    {
        for (std::size_t i = 1; i < bodies.size(); ++i) {
            if (bodies[i].motion.duration() != bodies[0].motion.duration()) {
                throw std::invalid_argument(
                    "rigid pairs: body " + std::to_string(i) + "'s step differs in length from body 0's");
            }
        }
    }

} // namespace

Aabb rigid_swept_box(const RigidBody& body, double t_max)
{
    if (!(t_max > 0.0 && t_max <= 1.0)) { // (NaN too: its box had held the start alone)
        throw std::invalid_argument("rigid swept box: t_max must be in (0, 1], got " + std::to_string(t_max));
    }
    const RigidMotion& motion = body.motion;
    const double radius = body.shape.radius_about(motion.center_of_mass());
    // The exact centre of mass moves on the segment between its exact ends, each within the motion's error
    // bound of the computed one; the shape stays within `radius` of it.
    const double reach = details::rounded_up(radius + motion.point_error_bound(radius));
    const Eigen::Array3d start = motion.center_at(0.0).array(), end = motion.center_at(t_max).array();
    Aabb box { start.min(end) - reach, start.max(end) + reach };
    for (int k = 0; k < 3; ++k) {
        box.min[k] = details::next_below(box.min[k]); // (each bound is one rounded sum: a step out covers it)
        box.max[k] = -details::next_below(-box.max[k]);
    }
    return box;
}

std::vector<RigidPairContact> rigid_pairs_time_of_contact(
    std::span<const RigidBody> bodies,
    const RigidCcdOptions& options,
    const std::function<void(std::size_t done, std::size_t total)>& progress)
{
    check_rigid_ccd_options(options);
    if (bodies.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max() - 1)) {
        throw std::invalid_argument("rigid pairs: more than 2^31 - 2 bodies");
    }
    check_durations(bodies);

    std::vector<Aabb> boxes;
    boxes.reserve(bodies.size());
    for (const RigidBody& body : bodies) {
        boxes.push_back(rigid_swept_box(body, options.t_max));
    }
    std::vector<CandidatePair> candidates;
    const auto broad = make_broad_phase(BroadPhaseMethod::BVH);
    broad->build(boxes);
    broad->query(boxes, 0, candidates, QueryScope::SELF_PAIRS);
    std::sort(candidates.begin(), candidates.end());

    std::vector<RigidPairContact> out(candidates.size());
    for (std::size_t k = 0; k < candidates.size(); ++k) {
        out[k].a = candidates[k].first;
        out[k].b = candidates[k].second;
    }
    // One pair per task: a pair of fine meshes can take seconds where others take microseconds.
    std::atomic<std::size_t> done { 0 };
    std::mutex reporting;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, out.size(), 1), [&](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t k = r.begin(); k != r.end(); ++k) {
            RigidPairContact& pair = out[k];
            const auto start = std::chrono::steady_clock::now();
            pair.result = rigid_time_of_contact(
                bodies[static_cast<std::size_t>(pair.a)], bodies[static_cast<std::size_t>(pair.b)], options);
            pair.milliseconds
                = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            const std::size_t answered = ++done;
            // (A thread that finds another reporting goes on: the next pair reports.)
            if (progress && reporting.try_lock()) {
                const std::lock_guard<std::mutex> unlock_after(reporting, std::adopt_lock);
                progress(answered, out.size());
            }
        }
    });
    if (progress) {
        progress(out.size(), out.size());
    }
    return out;
}

} // namespace ccdkit
