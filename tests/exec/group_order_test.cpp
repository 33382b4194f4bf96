#include "exec/group_order.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::exec {
namespace {

struct OrderShape {
    std::uint32_t groups[3];
    std::uint32_t tile[2];
};

std::string orderName(const ::testing::TestParamInfo<OrderShape>& info) {
    const OrderShape& s = info.param;
    return "groups" + std::to_string(s.groups[0]) + "x" + std::to_string(s.groups[1]) + "x" +
           std::to_string(s.groups[2]) + "_tile" + std::to_string(s.tile[0]) + "x" + std::to_string(s.tile[1]);
}

std::uint64_t linearIndex(const OrderShape& s, const std::uint32_t* p) {
    return p[0] + std::uint64_t(s.groups[0]) * (p[1] + std::uint64_t(s.groups[1]) * p[2]);
}

class GroupOrderShapes : public ::testing::TestWithParam<OrderShape> {};

// Test that stepping from the first group visits every group of the grid exactly once, inside
// the grid, and then wraps to the first again.
TEST_P(GroupOrderShapes, StepsVisitEveryGroupOnce) {
    const OrderShape& s = GetParam();
    GroupOrder order(s.groups, s.tile[0], s.tile[1]);
    ASSERT_EQ(order.count(), std::uint64_t(s.groups[0]) * s.groups[1] * s.groups[2]);
    std::vector<int> visits(order.count(), 0);
    std::uint32_t p[3];
    order.seek(0, p);
    EXPECT_EQ(linearIndex(s, p), 0u) << "the order starts at the grid's first group";
    for (std::uint64_t i = 0; i < order.count(); ++i) {
        ASSERT_LT(p[0], s.groups[0]) << "step " << i;
        ASSERT_LT(p[1], s.groups[1]) << "step " << i;
        ASSERT_LT(p[2], s.groups[2]) << "step " << i;
        ++visits[linearIndex(s, p)];
        order.next(p);
    }
    for (std::uint64_t g = 0; g < visits.size(); ++g) ASSERT_EQ(visits[g], 1) << "group " << g;
    EXPECT_EQ(linearIndex(s, p), 0u) << "past the last group the order wraps to the first";
}

// Test that seeking to any index lands where stepping from the start gets (the executor seeks
// at the start of each worker's range and steps from there).
TEST_P(GroupOrderShapes, SeekAgreesWithSteps) {
    const OrderShape& s = GetParam();
    GroupOrder walked(s.groups, s.tile[0], s.tile[1]);
    GroupOrder sought(s.groups, s.tile[0], s.tile[1]);
    std::uint32_t walk[3], seek[3];
    walked.seek(0, walk);
    for (std::uint64_t i = 0; i < walked.count(); ++i) {
        sought.seek(i, seek);
        for (int d = 0; d < 3; ++d) ASSERT_EQ(seek[d], walk[d]) << "index " << i << " dim " << d;
        // And stepping on from a sought position continues the same order.
        sought.next(seek);
        walked.next(walk);
        for (int d = 0; d < 3; ++d) ASSERT_EQ(seek[d], walk[d]) << "after index " << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, GroupOrderShapes,
                         ::testing::Values(OrderShape{{1, 1, 1}, {8, 8}},     // one group
                                           OrderShape{{1, 50, 1}, {8, 8}},    // one column of groups
                                           OrderShape{{50, 1, 1}, {8, 8}},    // one row
                                           OrderShape{{64, 32, 1}, {8, 8}},   // whole tiles only
                                           OrderShape{{25, 18, 3}, {8, 8}},   // uneven, 3-D
                                           OrderShape{{9, 10, 11}, {4, 3}},   // uneven tiles, 3-D
                                           OrderShape{{7, 5, 2}, {100, 100}}, // a tile larger than the grid
                                           OrderShape{{13, 11, 1}, {1, 1}},   // tiles of one group
                                           OrderShape{{6, 9, 4}, {0, 0}},     // tiles of 0 taken as 1
                                           OrderShape{{130, 1, 17}, {8, 8}}),
                         orderName);

// Test that the executor's order runs a compact block of 8 x 8 groups before leaving it: the
// point of the order (a row-major order would pass the tests above).
TEST(GroupOrder, ExecutorOrderRunsTilesOfEightByEight) {
    const std::uint32_t groups[3] = {64, 32, 1};
    GroupOrder order = GroupOrder::forGrid(groups);
    std::uint32_t p[3];
    order.seek(0, p);
    for (std::uint32_t i = 0; i < 64; ++i) {
        EXPECT_EQ(p[0], i % 8) << "group " << i;
        EXPECT_EQ(p[1], i / 8) << "group " << i;
        order.next(p);
    }
    // The next tile is to the right of the first.
    EXPECT_EQ(p[0], 8u);
    EXPECT_EQ(p[1], 0u);
    // The last tile of a band, narrower at the grid's right edge, comes before the next band.
    const std::uint32_t uneven[3] = {20, 20, 1};
    GroupOrder edge = GroupOrder::forGrid(uneven);
    edge.seek(2 * 64, p); // past the two whole tiles of the first band
    EXPECT_EQ(p[0], 16u);
    EXPECT_EQ(p[1], 0u);
    edge.seek(2 * 64 + 4 * 8, p); // past the 4-wide edge tile: the second band
    EXPECT_EQ(p[0], 0u);
    EXPECT_EQ(p[1], 8u);
}

} // namespace
} // namespace metalcpu::exec
