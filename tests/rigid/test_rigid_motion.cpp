// SPDX-License-Identifier: MIT
#include <ccdkit/rigid/relative_motion.hpp>
#include <ccdkit/rigid/rigid_motion.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

namespace ccdkit {
namespace {

    using Vec = Eigen::Matrix<long double, 3, 1>;
    using Mat = Eigen::Matrix<long double, 3, 3>;

    /// Rodrigues' formula in long double: the reference the double evaluation is held to.
    Mat rotation_long(const Eigen::Vector3d& w, long double angle)
    {
        const Vec w_long = w.cast<long double>();
        const long double speed = w_long.norm();
        if (speed == 0.0L) {
            return Mat::Identity();
        }
        const Vec k = w_long / speed;
        Mat cross;
        cross << 0, -k.z(), k.y(), k.z(), 0, -k.x(), -k.y(), k.x(), 0;
        return Mat::Identity() + std::sin(angle) * cross + (1.0L - std::cos(angle)) * cross * cross;
    }

    /// The exact motion p(s, u) of rigid_motion.hpp, in long double.
    Vec reference_point(const RigidMotion& m, const Eigen::Vector3d& u, long double s)
    {
        const Mat r0 = m.start().rotation.toRotationMatrix().cast<long double>();
        const Vec c0 = r0 * m.center_of_mass().cast<long double>() + m.start().translation.cast<long double>();
        const long double duration = m.duration();
        const Vec arm = r0 * (u.cast<long double>() - m.center_of_mass().cast<long double>());
        const Mat turn
            = rotation_long(m.angular_velocity(), s * duration * m.angular_velocity().cast<long double>().norm());
        return c0 + s * duration * m.linear_velocity().cast<long double>() + turn * arm;
    }

    /// The exact position of `moving`'s body point in `frame`'s body coordinates, in long double.
    Vec reference_relative(const RigidMotion& moving, const RigidMotion& frame, const Eigen::Vector3d& u, long double s)
    {
        const Vec world = reference_point(moving, u, s);
        const Mat r0 = frame.start().rotation.toRotationMatrix().cast<long double>();
        const long double duration = frame.duration();
        const Mat rotation
            = rotation_long(
                  frame.angular_velocity(), s * duration * frame.angular_velocity().cast<long double>().norm())
            * r0;
        const Vec center = reference_point(frame, frame.center_of_mass(), s);
        return rotation.transpose() * (world - center) + frame.center_of_mass().cast<long double>();
    }

    struct MotionGenerator {
        std::mt19937_64 rng { 7 };
        double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
        Eigen::Vector3d vector(double scale)
        {
            return Eigen::Vector3d(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)) * scale;
        }
        Eigen::Quaterniond rotation()
        {
            return Eigen::Quaterniond(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)).normalized();
        }
        /// A motion at `scale` turning by up to `max_angle` over the step.
        RigidMotion motion(double scale, double max_angle)
        {
            const double duration = uniform(0.1, 3.0);
            const Eigen::Vector3d w = vector(1.0).normalized() * uniform(0.0, max_angle) / duration;
            return RigidMotion(
                { rotation(), vector(scale) }, vector(scale) / duration, w, duration, vector(scale * 0.3));
        }
    };

    TEST(RigidMotion, StartsAtItsPoseAndTurnsExactly)
    {
        const RigidPose start { Eigen::Quaterniond(Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitY())), { 1, 2, 3 } };
        // Half a turn per unit time about z, for two units of time: one full turn, back where it started.
        const RigidMotion motion(start, { 1, 0, 0 }, { 0, 0, std::numbers::pi }, 2.0);
        const Eigen::Vector3d u(1, 0.5, -0.25);
        const Eigen::Vector3d at_start = start.rotation * u + start.translation;
        EXPECT_LT((motion.point_at(u, 0.0) - at_start).norm(), 1e-15);
        EXPECT_LT((motion.point_at(u, 1.0) - (at_start + Eigen::Vector3d(2, 0, 0))).norm(), 1e-14);
        // Half the step: a half turn about z through the (moving) centre of mass, the body origin here.
        const Eigen::Vector3d center = start.translation + Eigen::Vector3d(1, 0, 0);
        const Eigen::Vector3d arm = start.rotation * u;
        const Eigen::Vector3d expected = center + Eigen::Vector3d(-arm.x(), -arm.y(), arm.z());
        EXPECT_LT((motion.point_at(u, 0.5) - expected).norm(), 1e-14);
        EXPECT_DOUBLE_EQ(motion.step_angle(), 2.0 * std::numbers::pi);
        const RigidPose half = motion.pose_at(0.5);
        EXPECT_LT((half.rotation * u + half.translation - expected).norm(), 1e-14);
    }

    TEST(RigidMotion, PointsStayWithinTheirErrorBoundOfTheExactMotion)
    {
        MotionGenerator gen;
        for (const double scale : { 1e-8, 1.0, 1e8 }) {
            for (int k = 0; k < 500; ++k) {
                const RigidMotion motion = gen.motion(scale, k % 5 == 0 ? 200.0 : 4.0);
                const Eigen::Vector3d u = gen.vector(scale);
                const double bound = motion.point_error_bound((u - motion.center_of_mass()).norm());
                for (const double s : { 0.0, 0.37, 1.0, gen.uniform(0, 1) }) {
                    const Vec error = motion.point_at(u, s).cast<long double>() - reference_point(motion, u, s);
                    ASSERT_LE(static_cast<double>(error.norm()), bound)
                        << "scale " << scale << " k " << k << " s " << s;
                }
            }
        }
    }

    /// rotation_at(0) is the start rotation itself (the turn there is the identity, so the formula gives the same
    /// matrix; it skips the sine and cosine), and just after it the formula takes over continuously: within a few
    /// ulps of Rodrigues' formula in long double at tiny and ordinary s, for turning and still motions alike.
    TEST(RigidMotion, RotationAtTheStartIsTheStartRotation)
    {
        MotionGenerator gen;
        for (int k = 0; k < 500; ++k) {
            const RigidMotion motion = gen.motion(1.0, k % 5 == 0 ? 0.0 : 4.0);
            const Eigen::Matrix3d start = motion.start().rotation.toRotationMatrix();
            ASSERT_EQ(motion.rotation_at(0.0), start) << "k " << k;
            for (const double s : { 1e-300, 1e-12, 0.5 }) {
                const long double angle = s * motion.duration() * motion.angular_velocity().cast<long double>().norm();
                const Mat exact = rotation_long(motion.angular_velocity(), angle) * start.cast<long double>();
                const Mat error = motion.rotation_at(s).cast<long double>() - exact;
                ASSERT_LE(static_cast<double>(error.cwiseAbs().maxCoeff()), 1e-15) << "k " << k << " s " << s;
            }
        }
    }

    /// translated() moves the whole motion and nothing else: the same rotations bit for bit, every point moved by the
    /// offset (within the rounding of the start's sum), and the same error bound where the offset is none.
    TEST(RigidMotion, TranslatedMovesEveryPointByTheOffset)
    {
        MotionGenerator gen;
        for (int k = 0; k < 200; ++k) {
            const RigidMotion motion = gen.motion(1.0, k % 5 == 0 ? 0.0 : 4.0);
            const Eigen::Vector3d offset = Eigen::Vector3d(1024.0, -512.0, 256.0) * (k % 7);
            const RigidMotion moved = motion.translated(offset);
            EXPECT_EQ(moved.start().translation, motion.start().translation + offset);
            EXPECT_EQ(moved.start().rotation.coeffs(), motion.start().rotation.coeffs());
            EXPECT_EQ(moved.linear_velocity(), motion.linear_velocity());
            EXPECT_EQ(moved.angular_velocity(), motion.angular_velocity());
            if (k % 7 == 0) {
                EXPECT_EQ(moved.point_error_bound(1.0), motion.point_error_bound(1.0));
            }
            const Eigen::Vector3d u(0.3, -0.2, 0.1);
            for (const double s : { 0.0, 0.25, 1.0 }) {
                EXPECT_EQ(moved.rotation_at(s), motion.rotation_at(s));
                EXPECT_LT((moved.point_at(u, s) - motion.point_at(u, s) - offset).norm(), 1e-9) << "k " << k;
            }
        }
    }

    TEST(RigidMotion, BetweenTwoPosesEndsAtTheSecond)
    {
        MotionGenerator gen;
        for (int k = 0; k < 1000; ++k) {
            const RigidPose start { gen.rotation(), gen.vector(5) };
            RigidPose end { gen.rotation(), gen.vector(5) };
            if (k % 10 == 0) {
                // A half turn exactly (either sense is the same rotation) and a turn of almost nothing.
                end.rotation = start.rotation
                    * Eigen::Quaterniond(Eigen::AngleAxisd(std::numbers::pi, gen.vector(1).normalized()));
            } else if (k % 10 == 1) {
                end.rotation
                    = start.rotation * Eigen::Quaterniond(Eigen::AngleAxisd(1e-12, gen.vector(1).normalized()));
            }
            const RigidMotion motion = RigidMotion::between(start, end, gen.uniform(0.01, 10), gen.vector(1));
            EXPECT_LE(motion.step_angle(), std::numbers::pi + 1e-12);
            for (int corner = 0; corner < 4; ++corner) {
                const Eigen::Vector3d u = gen.vector(2);
                const Eigen::Vector3d expected = end.rotation.normalized() * u + end.translation;
                ASSERT_LT((motion.point_at(u, 1.0) - expected).norm(), 1e-12) << k;
            }
        }
    }

    /// A quaternion is a rotation at any scale (fuzzing review, twenty-eighth session: the norm of components near
    /// 1e300 overflowed, the quaternion was divided down to zero and turned nothing; components near 1e-170 were
    /// rejected as a zero quaternion).
    TEST(RigidMotion, QuaternionsOfAnyScaleAreTheirRotation)
    {
        const Eigen::Matrix3d expected = Eigen::Quaterniond(1, 0, 1, 0).normalized().toRotationMatrix();
        for (const double scale : { 1.0, 1e300, 1e-170, 1e-320 }) {
            SCOPED_TRACE(testing::Message() << "scale " << scale);
            const RigidMotion still(
                { .rotation = Eigen::Quaterniond(scale, 0, scale, 0) }, Eigen::Vector3d::Zero(),
                Eigen::Vector3d::Zero());
            EXPECT_LT((still.rotation_at(0.0) - expected).norm(), 1e-15);
            const RigidMotion turn = RigidMotion::between(
                {}, { .rotation = Eigen::Quaterniond(scale, 0, 0, scale) }); // (a quarter turn about z)
            EXPECT_NEAR(turn.step_angle(), std::numbers::pi / 2.0, 1e-15);
        }
    }

    TEST(RigidMotion, RejectsBadInput)
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        const Eigen::Vector3d zero = Eigen::Vector3d::Zero();
        const RigidPose pose;
        EXPECT_THROW(RigidMotion(pose, { nan, 0, 0 }, { 0, 0, 0 }), std::invalid_argument);
        EXPECT_THROW(RigidMotion(pose, { 0, 0, 0 }, { 0, inf, 0 }), std::invalid_argument);
        EXPECT_THROW(RigidMotion({ Eigen::Quaterniond(0, 0, 0, 0), zero }, zero, zero), std::invalid_argument);
        EXPECT_THROW(RigidMotion({ pose.rotation, { 0, nan, 0 } }, zero, zero), std::invalid_argument);
        EXPECT_THROW(RigidMotion(pose, zero, zero, 0.0), std::invalid_argument);
        EXPECT_THROW(RigidMotion(pose, zero, zero, -1.0), std::invalid_argument);
        EXPECT_THROW(RigidMotion(pose, { 1e300, 0, 0 }, zero, 1e300), std::invalid_argument);
        // Beyond 1e150, each quantity the bounds multiply is named.
        const auto message_of = [&](const Eigen::Vector3d& position, const Eigen::Vector3d& velocity,
                                    const Eigen::Vector3d& angular, double duration, const Eigen::Vector3d& center) {
            try {
                (void)RigidMotion({ pose.rotation, position }, velocity, angular, duration, center);
            } catch (const std::invalid_argument& e) {
                return std::string(e.what());
            }
            return std::string("no error");
        };
        const std::pair<std::string, std::string> messages[] = {
            { message_of(zero, { 0, 0, -1e155 }, zero, 1e-20, zero), "the linear velocity is 1e+155" },
            { message_of(zero, zero, { 1e160, 0, 0 }, 1e-20, zero), "the angular velocity is 1e+160" },
            { message_of(zero, { 0, -1e100, 0 }, zero, 1e60, zero),
              "the step's displacement (linear velocity times duration) is 1e+160" },
            { message_of(zero, zero, { 0, 0, 1e100 }, 1e60, zero),
              "the step's angle (angular speed times duration) is 1e+160" },
            { message_of(zero, zero, zero, 1.0, { 0, 2e150, 0 }), "the centre of mass is 2e+150" },
            { message_of({ 3e150, 0, 0 }, zero, zero, 1.0, zero),
              "the centre of mass at the start (its position plus the rotated centre) is 3e+150" },
        };
        for (const auto& [message, expected] : messages) {
            EXPECT_NE(message.find(expected), std::string::npos) << message;
        }
        EXPECT_THROW(RigidMotion::between(pose, { Eigen::Quaterniond(nan, 0, 0, 0), zero }), std::invalid_argument);
        EXPECT_THROW(
            RelativeMotion(RigidMotion(pose, zero, zero, 1.0), RigidMotion(pose, zero, zero, 2.0)),
            std::invalid_argument);
    }

    TEST(ArcChordDeviation, IsTheSagittaForSmallAnglesAndCoversEveryAngle)
    {
        // Up to 2 pi the largest departure is the sagitta r (1 - cos(angle / 2)), at the middle of the interval.
        for (const double angle : { 1e-6, 0.1, 1.0, 3.0, std::numbers::pi, 4.0, 6.0, 2.0 * std::numbers::pi }) {
            const double sagitta = 2.0 * 2.0 * std::pow(std::sin(angle / 4.0), 2); // 2 (1 - cos(angle / 2))
            const double bound = arc_chord_deviation(2.0, angle);
            EXPECT_GE(bound, sagitta) << angle;
            EXPECT_LE(bound, 1.42 * sagitta) << angle;
        }
        EXPECT_DOUBLE_EQ(
            arc_chord_deviation(1.0, 100.0), 2.0 * (1.0 + 8.0 * std::numeric_limits<double>::epsilon()) + 1e-300);
    }

    /// Samples the exact relative positions over [sa, sb] and checks the chord and speed bounds.
    void check_interval_bounds(
        const RigidMotion& moving, const RigidMotion& frame, const Eigen::Vector3d& u, double sa, double sb)
    {
        const RelativeMotion relative(moving, frame);
        const double radius = (u - moving.center_of_mass()).norm();
        const double deviation = relative.chord_deviation_bound(radius, sa, sb);
        const double speed = relative.speed_bound(radius, sa, sb);
        const Vec start = reference_relative(moving, frame, u, sa);
        const Vec end = reference_relative(moving, frame, u, sb);
        Vec previous = start;
        constexpr int SAMPLES = 64;
        for (int k = 1; k <= SAMPLES; ++k) {
            const long double l = static_cast<long double>(k) / SAMPLES;
            const long double s = sa + l * (static_cast<long double>(sb) - sa);
            const Vec p = reference_relative(moving, frame, u, s);
            ASSERT_LE(static_cast<double>((p - ((1 - l) * start + l * end)).norm()), deviation)
                << "at l = " << double(l);
            ASSERT_LE(static_cast<double>((p - previous).norm() / ((sb - sa) / SAMPLES)), speed * (1 + 1e-12));
            previous = p;
        }
        // The computed position is within the error bound of the exact one.
        const Vec error = relative.point_at(u, sb).cast<long double>() - end;
        ASSERT_LE(static_cast<double>(error.norm()), relative.point_error_bound(radius));
    }

    TEST(RelativeMotion, ChordAndSpeedBoundsHoldForTurningFrames)
    {
        MotionGenerator gen;
        for (int k = 0; k < 300; ++k) {
            const RigidMotion moving = gen.motion(1.0, k % 3 == 0 ? 6.0 : 1.0);
            RigidMotion frame = gen.motion(1.0, k % 2 == 0 ? 3.0 : 0.0);
            frame = RigidMotion(
                frame.start(), frame.linear_velocity(), frame.angular_velocity(), moving.duration(),
                frame.center_of_mass());
            const Eigen::Vector3d u = gen.vector(2.0);
            const double sa = gen.uniform(0, 0.9);
            const double sb = sa + gen.uniform(1e-4, 1.0 - sa);
            SCOPED_TRACE(k);
            check_interval_bounds(moving, frame, u, sa, sb);
        }
    }

    TEST(RelativeMotion, SeesTheFrameBodyStandStill)
    {
        MotionGenerator gen;
        const RigidMotion motion = gen.motion(1.0, 2.0);
        const RelativeMotion self(motion, motion);
        const Eigen::Vector3d u(0.3, -0.2, 0.9);
        for (const double s : { 0.0, 0.5, 1.0 }) {
            EXPECT_LT((self.point_at(u, s) - u).norm(), 1e-14);
        }
    }

} // namespace
} // namespace ccdkit
