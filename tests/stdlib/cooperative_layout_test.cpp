// Tests of metalcpu/cooperative_layout.h: every layout kind divides its tile exactly once among
// the threads of its scope, capacities are those documented, apple10 is the M5 lane map MLX
// hard-codes, apple9 is simdgroup_matrix's, shuffled resembles neither, and the reduction
// roles agree with the destination they come from.
#include <gtest/gtest.h>

#include <metal_simdgroup_matrix>
#include <metalcpu/cooperative_layout.h>

#include <set>
#include <utility>
#include <vector>

namespace {

namespace coop = metalcpu_cooperative;

constexpr mc_u32 kKinds[] = {MC_COOPERATIVE_LAYOUT_APPLE10, MC_COOPERATIVE_LAYOUT_APPLE9,
                             MC_COOPERATIVE_LAYOUT_SHUFFLED, MC_COOPERATIVE_LAYOUT_PADDED};
constexpr mc_u32 kExtents[] = {8, 16, 24, 32, 48, 64, 72, 128};
constexpr mc_u32 kThreads[] = {1, 32, 64, 128, 256};

struct Slot {
    bool valid;
    mc_u32 x, y;
};

Slot slot_of(const mc_cooperative_layout& layout, mc_u32 thread, mc_u32 slot) {
    Slot s{};
    s.valid = coop::coordinate(layout, thread, slot, &s.x, &s.y);
    return s;
}

// Compile-time use, as kernels size their storage with it.
static_assert(coop::make_layout(MC_COOPERATIVE_LAYOUT_APPLE10, MC_COOPERATIVE_DESTINATION, 16, 16, 32, 1).capacity == 8);
static_assert(coop::max_capacity(MC_COOPERATIVE_DESTINATION, 64, 64, 128) == 34);

TEST(CooperativeLayoutTest, EveryKindDividesItsTileExactlyOnce) {
    for (mc_u32 kind : kKinds)
        for (mc_u32 e0 : kExtents)
            for (mc_u32 e1 : kExtents)
                for (mc_u32 threads : kThreads)
                    for (mc_u32 role : {MC_COOPERATIVE_DESTINATION, MC_COOPERATIVE_LEFT, MC_COOPERATIVE_RIGHT}) {
                        const mc_cooperative_layout layout = coop::make_layout(kind, role, e0, e1, threads, 7);
                        ASSERT_LE(layout.capacity, coop::max_capacity(role, e0, e1, threads));
                        std::vector<int> hits(e0 * e1, 0);
                        for (mc_u32 t = 0; t < threads; ++t)
                            for (mc_u32 i = 0; i < layout.capacity; ++i) {
                                const Slot s = slot_of(layout, t, i);
                                if (!s.valid) {
                                    EXPECT_EQ(s.x, e0);
                                    EXPECT_EQ(s.y, e1);
                                    continue;
                                }
                                ASSERT_LT(s.x, e0);
                                ASSERT_LT(s.y, e1);
                                ++hits[s.y * e0 + s.x];
                            }
                        for (mc_u32 p = 0; p < e0 * e1; ++p)
                            ASSERT_EQ(hits[p], 1) << "kind " << kind << " role " << role << " tile " << e0 << "x"
                                                  << e1 << " threads " << threads << " element (" << p % e0
                                                  << ", " << p / e0 << ")";
                        // Nothing past the capacity, nor for a thread outside the scope.
                        EXPECT_FALSE(slot_of(layout, 0, layout.capacity).valid);
                        EXPECT_FALSE(slot_of(layout, threads, 0).valid);
                    }
}

TEST(CooperativeLayoutTest, CapacitiesAreTheDocumentedOnes) {
    auto capacity = [](mc_u32 kind, mc_u32 e0, mc_u32 e1, mc_u32 threads) {
        return coop::make_layout(kind, MC_COOPERATIVE_DESTINATION, e0, e1, threads, 1).capacity;
    };
    // apple10: 8 slots per 16x16 fragment, fragments dealt round-robin to the SIMD-groups.
    EXPECT_EQ(capacity(MC_COOPERATIVE_LAYOUT_APPLE10, 16, 16, 32), 8u);
    EXPECT_EQ(capacity(MC_COOPERATIVE_LAYOUT_APPLE10, 32, 16, 32), 16u);
    EXPECT_EQ(capacity(MC_COOPERATIVE_LAYOUT_APPLE10, 64, 64, 128), 32u);
    EXPECT_EQ(capacity(MC_COOPERATIVE_LAYOUT_APPLE10, 24, 8, 32), 16u); // 2 ragged fragments
    EXPECT_EQ(capacity(MC_COOPERATIVE_LAYOUT_APPLE10, 48, 16, 64), 16u); // 3 fragments over 2
    // apple9: 2 slots per 8x8 fragment.
    EXPECT_EQ(capacity(MC_COOPERATIVE_LAYOUT_APPLE9, 8, 8, 32), 2u);
    EXPECT_EQ(capacity(MC_COOPERATIVE_LAYOUT_APPLE9, 64, 64, 128), 32u);
    EXPECT_EQ(capacity(MC_COOPERATIVE_LAYOUT_APPLE9, 24, 8, 64), 4u);
    // shuffled: the tile shared evenly; padded: two more.
    EXPECT_EQ(capacity(MC_COOPERATIVE_LAYOUT_SHUFFLED, 64, 64, 128), 32u);
    EXPECT_EQ(capacity(MC_COOPERATIVE_LAYOUT_SHUFFLED, 72, 8, 128), 5u);
    EXPECT_EQ(capacity(MC_COOPERATIVE_LAYOUT_PADDED, 64, 64, 128), 34u);
    // One thread (execution_thread) holds the whole tile.
    EXPECT_EQ(capacity(MC_COOPERATIVE_LAYOUT_APPLE10, 16, 16, 1), 256u);
    EXPECT_EQ(capacity(MC_COOPERATIVE_LAYOUT_APPLE9, 16, 16, 1), 256u);
    EXPECT_EQ(capacity(MC_COOPERATIVE_LAYOUT_SHUFFLED, 16, 16, 1), 256u);
    // max_capacity covers every kind, whatever the role.
    EXPECT_EQ(coop::max_capacity(MC_COOPERATIVE_ROW_REDUCTION, 16, 16, 32), 10u);
    EXPECT_EQ(coop::max_capacity(MC_COOPERATIVE_LEFT, 48, 16, 64), 16u);
}

// MLX's NAX fragment (mlx/backend/metal/kernels/steel/gemm/nax.h) as it is written there:
// lane l holds rows fm and fm + 8, columns fn to fn + 3, element 4 * i + j at (fn + j, fm + 8 i);
// a 16x32 destination is two fragments side by side (ct[8 + i] = the right one), a 32x16
// operand two fragments stacked.
std::pair<mc_u32, mc_u32> mlx_coordinate(mc_u32 lane, mc_u32 index, bool fragments_side_by_side) {
    const mc_u32 qid = lane >> 2;
    const mc_u32 fm = (qid & 4) | ((lane >> 1) & 3);
    const mc_u32 fn = ((qid & 2) | (lane & 1)) * 4;
    const mc_u32 fragment = index / 8, i = (index % 8) / 4, j = index % 4;
    const mc_u32 x = fn + j + (fragments_side_by_side ? 16 * fragment : 0);
    const mc_u32 y = fm + 8 * i + (fragments_side_by_side ? 0 : 16 * fragment);
    return {x, y};
}

TEST(CooperativeLayoutTest, Apple10IsTheLaneMapMlxHardCodes) {
    struct Case {
        mc_u32 e0, e1;
        bool side_by_side;
    };
    for (const Case c : {Case{16, 16, true}, Case{32, 16, true}, Case{16, 32, false}}) {
        const mc_cooperative_layout layout =
            coop::make_layout(MC_COOPERATIVE_LAYOUT_APPLE10, MC_COOPERATIVE_DESTINATION, c.e0, c.e1, 32, 1);
        for (mc_u32 lane = 0; lane < 32; ++lane)
            for (mc_u32 i = 0; i < layout.capacity; ++i) {
                const Slot s = slot_of(layout, lane, i);
                ASSERT_TRUE(s.valid);
                const auto [x, y] = mlx_coordinate(lane, i, c.side_by_side);
                EXPECT_EQ(s.x, x) << c.e0 << "x" << c.e1 << " lane " << lane << " slot " << i;
                EXPECT_EQ(s.y, y) << c.e0 << "x" << c.e1 << " lane " << lane << " slot " << i;
            }
    }
}

TEST(CooperativeLayoutTest, Apple9IsSimdgroupMatrixLaneMap) {
    namespace sm = metalcpu_stdlib::simd_matrix;
    // One 8x8 fragment: slot e of lane l is thread_elements()[e] of a simdgroup_matrix.
    const mc_cooperative_layout one =
        coop::make_layout(MC_COOPERATIVE_LAYOUT_APPLE9, MC_COOPERATIVE_DESTINATION, 8, 8, 32, 1);
    // 16x16: fragments in column-major order, so slots 2-3 are the fragment below (rows 8-15).
    const mc_cooperative_layout four =
        coop::make_layout(MC_COOPERATIVE_LAYOUT_APPLE9, MC_COOPERATIVE_DESTINATION, 16, 16, 32, 1);
    for (mc_u32 lane = 0; lane < 32; ++lane)
        for (mc_u32 e = 0; e < 2; ++e) {
            const Slot s = slot_of(one, lane, e);
            ASSERT_TRUE(s.valid);
            EXPECT_EQ(s.x, sm::column_of(lane) + e);
            EXPECT_EQ(s.y, sm::row_of(lane));
            for (mc_u32 fragment = 0; fragment < 4; ++fragment) {
                const Slot f = slot_of(four, lane, 2 * fragment + e);
                EXPECT_EQ(f.x, 8 * (fragment / 2) + sm::column_of(lane) + e);
                EXPECT_EQ(f.y, 8 * (fragment % 2) + sm::row_of(lane));
            }
        }
}

TEST(CooperativeLayoutTest, ShuffledResemblesNoHardwareLayout) {
    struct Case {
        mc_u32 e0, e1, threads;
    };
    for (const Case c : {Case{16, 16, 32}, Case{64, 64, 128}, Case{32, 64, 64}}) {
        const auto apple10 = coop::make_layout(MC_COOPERATIVE_LAYOUT_APPLE10, MC_COOPERATIVE_DESTINATION, c.e0,
                                               c.e1, c.threads, 1);
        const auto shuffled = coop::make_layout(MC_COOPERATIVE_LAYOUT_SHUFFLED, MC_COOPERATIVE_DESTINATION, c.e0,
                                                c.e1, c.threads, 1);
        const auto reseeded = coop::make_layout(MC_COOPERATIVE_LAYOUT_SHUFFLED, MC_COOPERATIVE_DESTINATION, c.e0,
                                                c.e1, c.threads, 2);
        ASSERT_EQ(apple10.capacity, shuffled.capacity); // the same slots exist in both
        mc_u32 slots = 0, differ = 0, reseed_differ = 0;
        for (mc_u32 t = 0; t < c.threads; ++t)
            for (mc_u32 i = 0; i < shuffled.capacity; ++i) {
                const Slot a = slot_of(apple10, t, i), s = slot_of(shuffled, t, i), r = slot_of(reseeded, t, i);
                ++slots;
                differ += a.x != s.x || a.y != s.y;
                reseed_differ += r.x != s.x || r.y != s.y;
            }
        EXPECT_GE(differ * 10, slots * 9) << c.e0 << "x" << c.e1;
        EXPECT_GE(reseed_differ * 10, slots * 9) << "the seed keys the permutation";
    }
}

TEST(CooperativeLayoutTest, PaddedLeavesInvalidSlotsInEveryThread) {
    const auto padded = coop::make_layout(MC_COOPERATIVE_LAYOUT_PADDED, MC_COOPERATIVE_DESTINATION, 64, 64, 128, 3);
    mc_u32 invalid = 0;
    for (mc_u32 t = 0; t < 128; ++t)
        for (mc_u32 i = 0; i < padded.capacity; ++i) invalid += !slot_of(padded, t, i).valid;
    EXPECT_EQ(invalid, 128u * 2u); // exactly the two extra slots per thread, spread among threads
    mc_u32 threads_with_invalid = 0;
    for (mc_u32 t = 0; t < 128; ++t) {
        bool any = false;
        for (mc_u32 i = 0; i < padded.capacity; ++i) any = any || !slot_of(padded, t, i).valid;
        threads_with_invalid += any;
    }
    EXPECT_GT(threads_with_invalid, 64u);
}

TEST(CooperativeLayoutTest, ReductionsHoldTheLinesOfTheThreadsDestinationSlots) {
    for (mc_u32 kind : kKinds)
        for (mc_u32 e0 : {8u, 24u, 64u})
            for (mc_u32 e1 : {8u, 40u})
                // One thread holds the whole tile: reductions cost O(capacity^2) a slot.
                for (mc_u32 threads : {1u, 32u, 128u}) {
                    if (threads == 1 && e0 * e1 > 256) continue;
                    for (bool rows : {true, false}) {
                        const mc_u32 role = rows ? MC_COOPERATIVE_ROW_REDUCTION : MC_COOPERATIVE_COLUMN_REDUCTION;
                        const auto dest =
                            coop::make_layout(kind, MC_COOPERATIVE_DESTINATION, e0, e1, threads, 5);
                        const auto reduction = coop::make_layout(kind, role, e0, e1, threads, 5);
                        ASSERT_EQ(reduction.capacity, dest.capacity);
                        std::set<mc_u32> covered;
                        for (mc_u32 t = 0; t < threads; ++t) {
                            std::vector<mc_u32> expected; // distinct lines, in slot order
                            for (mc_u32 i = 0; i < dest.capacity; ++i) {
                                const Slot s = slot_of(dest, t, i);
                                const mc_u32 line = rows ? s.y : s.x;
                                if (!s.valid) continue;
                                bool seen = false;
                                for (mc_u32 l : expected) seen = seen || l == line;
                                if (!seen) expected.push_back(line);
                            }
                            for (mc_u32 i = 0; i < reduction.capacity; ++i) {
                                const Slot s = slot_of(reduction, t, i);
                                ASSERT_EQ(s.valid, i < expected.size()) << "thread " << t << " slot " << i;
                                if (!s.valid) {
                                    EXPECT_EQ(s.x, rows ? 1u : e0);
                                    EXPECT_EQ(s.y, rows ? e1 : 1u);
                                    continue;
                                }
                                EXPECT_EQ(rows ? s.x : s.y, 0u);
                                EXPECT_EQ(rows ? s.y : s.x, expected[i]);
                                covered.insert(expected[i]);
                            }
                        }
                        EXPECT_EQ(covered.size(), rows ? e1 : e0) << "every line reduced by some thread";
                    }
                }
}

} // namespace
