// SPDX-License-Identifier: MIT
// The narrow phase under a caller's flush-to-zero / denormals-are-zero mode (as every -ffast-math program sets at
// startup): the queries must still get the exact answer, and the caller's mode must come back unchanged.
#include "narrow/ccd_test_support.hpp"
#include "support/flush_to_zero_mode.hpp"

#include <ccdkit/narrow/additive_ccd.hpp>

#include <gtest/gtest.h>

using namespace ccdkit;
using test::Points;

#if defined(__SSE2__)
using test::FlushToZeroMode;

namespace {

struct Case {
    bool vertex_face;
    Points x;
    CcdOptions options;
};

} // namespace

TEST(IeeeArithmeticScope, ContactsAreFoundUnderTheCallersFlushToZeroMode)
{
    // Each touches (exact oracle) but was missed with FTZ/DAZ on: tiny differences of point coordinates flushed
    // to zero made the filter certify wrong signs.
    const Case cases[] = {
        { false,
          { { { 0x1p-1021, 0x1p-1021, 0x1.56p-1021 },
              { -0x1p-1021, -0x1.fffffffffffffp-1021, -0x1.56p-1022 },
              { 0x0p+0, -0x1p-1021, 0x1.56p-1021 },
              { 0x1p-1020, -0x1p-1020, 0x0p+0 },
              { 0x1p-1021, 0x1p-1020, -0x1.54p-1022 },
              { 0x0p+0, -0x1p-1021, 0x0.aap-1022 },
              { 0x0p+0, 0x0p+0, -0x1.54p-1022 },
              { -0x1p-1021, 0x0p+0, 0x0p+0 } } },
          { .t_max = 1.0, .tolerance = 0x1p-27 } },
        { false,
          { { { -0x0.8p-1022, 0x0p+0, -0x0.8p-1022 },
              { 0x0.8p-1022, 0x0.8p-1022, 0x1p-1022 },
              { 0x0p+0, -0x1.8p-1022, -0x1.8p-1022 },
              { 0x1.8p-1022, 0x0.8p-1022, 0x1p-1021 },
              { 0x0.8p-1022, 0x1.8p-1022, 0x1p-1021 },
              { 0x1.8p-1022, -0x1p-1022, 0x0.8p-1022 },
              { 0x1.8p-1022, 0x1.8p-1022, 0x1.8p-1021 },
              { 0x1.8p-1022, -0x1p-1022, 0x0.8p-1022 } } },
          { .t_max = 0.5 } },
        { true,
          { { { 0x0p+0, 0x0p+0, 0x0p+0 },
              { -0x1.8p-3, 0x1.4p-920, -0x0.0000000000001p-1022 },
              { -0x1p-3, -0x1p+899, 0x1p-144 },
              { 0x1p-4, 0x0p+0, 0x0p+0 },
              { 0x1.8p-3, -0x1p-4, 0x0p+0 },
              { -0x1.8p-3, 0x1p-3, 0x0p+0 },
              { 0x1p-4, -0x1.000000000002p-3, 0x0p+0 },
              { -0x1.8p-3, 0x1.8p-3, -0x0.0000000000001p-1022 } } },
          {} },
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(test::describe(c.x));
        CcdResult r;
        unsigned mode_after = 0;
        {
            const FlushToZeroMode flush;
            r = test::run(c.vertex_face, c.x, c.options);
            mode_after = _mm_getcsr();
        }
        EXPECT_EQ(mode_after & FlushToZeroMode::FLUSH_BITS, FlushToZeroMode::FLUSH_BITS)
            << "caller's mode not restored";
        EXPECT_TRUE(r.hit);
        EXPECT_TRUE(test::agrees_with_oracle(c.vertex_face, c.x, c.options)); // and with plain IEEE arithmetic
    }
}

TEST(IeeeArithmeticScope, AdditiveCcdIgnoresTheCallersFlushToZeroMode)
{
    // A vertex falling onto a face at subnormal scale: under denormals-are-zero every coordinate would read as 0
    // (a vertex already on the face). The answer must be the plain IEEE one, and the caller's mode must return.
    const double s = 0x1p-1060;
    const VertexFaceMotion m { .p_t0 = Eigen::Vector3d(0.25, 0.25, 1.0) * s,
                               .t0_t0 = Eigen::Vector3d(0, 0, 0),
                               .t1_t0 = Eigen::Vector3d(1, 0, 0) * s,
                               .t2_t0 = Eigen::Vector3d(0, 1, 0) * s,
                               .p_t1 = Eigen::Vector3d(0.25, 0.25, -1.0) * s,
                               .t0_t1 = Eigen::Vector3d(0, 0, 0),
                               .t1_t1 = Eigen::Vector3d(1, 0, 0) * s,
                               .t2_t1 = Eigen::Vector3d(0, 1, 0) * s };
    const AdditiveCcdResult plain = additive_vertex_face_ccd(m, {});
    ASSERT_TRUE(plain.hit);
    ASSERT_GT(plain.toi, 0.0);
    AdditiveCcdResult flushed;
    unsigned mode_after = 0;
    {
        const FlushToZeroMode flush;
        flushed = additive_vertex_face_ccd(m, {});
        mode_after = _mm_getcsr();
    }
    EXPECT_EQ(mode_after & FlushToZeroMode::FLUSH_BITS, FlushToZeroMode::FLUSH_BITS) << "caller's mode not restored";
    EXPECT_EQ(flushed.hit, plain.hit);
    EXPECT_EQ(flushed.toi, plain.toi);
    EXPECT_EQ(flushed.status, plain.status);
}
#endif
