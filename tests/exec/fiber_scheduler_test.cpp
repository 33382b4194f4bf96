#include "exec/fiber_scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace metalcpu::exec {
namespace {

// The per-test state the thread functions reach through globals: thread functions are
// plain function pointers, as kernels are.
struct Trace {
    std::vector<int> events; // thread*1000 + phase
    std::uint32_t returnEarlyEvery = 0;
    int phases = 3;
};
Trace g_trace;

void phasedThread(const mc_group*, mc_u32 i) {
    if (g_trace.returnEarlyEvery && i % g_trace.returnEarlyEvery == 0) return;
    for (int phase = 0; phase < g_trace.phases; ++phase) {
        g_trace.events.push_back(static_cast<int>(i) * 1000 + phase);
        FiberScheduler::current()->barrier();
    }
}

/// Checks that no thread recorded phase p+1 before every live thread recorded phase p.
void expectPhasesInOrder(std::uint32_t threads) {
    int lastPhase = 0;
    std::vector<int> perPhase(g_trace.phases, 0);
    for (int event : g_trace.events) {
        int phase = event % 1000;
        ASSERT_GE(phase, lastPhase) << "a thread ran ahead of a barrier";
        lastPhase = phase;
        ++perPhase[phase];
    }
    std::uint32_t live = threads;
    if (g_trace.returnEarlyEvery) live -= (threads + g_trace.returnEarlyEvery - 1) / g_trace.returnEarlyEvery;
    for (int count : perPhase) EXPECT_EQ(count, static_cast<int>(live));
}

class FiberSchedulerSizes : public ::testing::TestWithParam<std::uint32_t> {};

// Test that barriers separate phases for every group size, from one thread to 1024.
TEST_P(FiberSchedulerSizes, BarriersSeparatePhases) {
    g_trace = Trace{};
    FiberScheduler scheduler;
    scheduler.runGroup(nullptr, &phasedThread, GetParam());
    expectPhasesInOrder(GetParam());
    EXPECT_EQ(scheduler.barriersCompleted(), 3u);
}

// Test that threads that return early count as arrived, so the others do not deadlock.
TEST_P(FiberSchedulerSizes, EarlyReturnsCountAsArrived) {
    g_trace = Trace{};
    g_trace.returnEarlyEvery = 3;
    FiberScheduler scheduler;
    scheduler.runGroup(nullptr, &phasedThread, GetParam());
    expectPhasesInOrder(GetParam());
}

// Each live thread hands in its index three times; records what every round showed it.
struct SimdTrace {
    std::uint32_t returnEarlyEvery = 0;
    std::vector<std::vector<std::uint64_t>> seen; // per thread: active mask, then sum of values, per round
};
SimdTrace g_simd;

void simdThread(const mc_group*, mc_u32 i) {
    if (g_simd.returnEarlyEvery && i % g_simd.returnEarlyEvery == 1) return;
    for (int round = 0; round < 3; ++round) {
        const std::uint32_t value = i * 10 + round;
        mc_simd_round r;
        FiberScheduler::current()->simdExchange(&value, sizeof value, &r);
        std::uint64_t sum = 0;
        for (std::uint32_t lane = 0; lane < r.width; ++lane) {
            if (!((r.active >> lane) & 1)) continue;
            std::uint32_t v;
            std::memcpy(&v, r.values + lane * METALCPU_SIMD_VALUE_BYTES, sizeof v);
            sum += v;
        }
        g_simd.seen[i].push_back(r.active);
        g_simd.seen[i].push_back(sum);
        EXPECT_EQ(r.lane, i % 32);
    }
}

// Test that a SIMD-group exchange meets the live threads of the caller's SIMD-group only, with
// each thread's value of the same round (two buffers in turn), threads that returned left out.
TEST_P(FiberSchedulerSizes, SimdExchangeMeetsTheSimdgroup) {
    const std::uint32_t threads = GetParam();
    for (std::uint32_t every : {0u, 3u}) {
        g_simd = SimdTrace{};
        g_simd.returnEarlyEvery = every;
        g_simd.seen.assign(threads, {});
        FiberScheduler scheduler;
        scheduler.runGroup(nullptr, &simdThread, threads);
        for (std::uint32_t i = 0; i < threads; ++i) {
            const bool returned = every && i % every == 1;
            if (returned) {
                EXPECT_TRUE(g_simd.seen[i].empty());
                continue;
            }
            const std::uint32_t first = i / 32 * 32, end = std::min(first + 32, threads);
            std::uint64_t active = 0, base = 0, live = 0;
            for (std::uint32_t t = first; t < end; ++t) {
                if (every && t % every == 1) continue;
                active |= std::uint64_t(1) << (t - first);
                base += t * 10;
                ++live;
            }
            ASSERT_EQ(g_simd.seen[i].size(), 6u);
            for (std::uint64_t round = 0; round < 3; ++round) {
                EXPECT_EQ(g_simd.seen[i][round * 2], active) << "thread " << i << " round " << round;
                EXPECT_EQ(g_simd.seen[i][round * 2 + 1], base + live * round) << "thread " << i << " round " << round;
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Sizes, FiberSchedulerSizes, ::testing::Values(1u, 2u, 7u, 31u, 32u, 33u, 100u, 1024u));

// Test that the scheduler can be reused for many groups (stacks are recycled).
TEST(FiberScheduler, RunsManyGroupsInARow) {
    FiberScheduler scheduler;
    for (int group = 0; group < 200; ++group) {
        g_trace = Trace{};
        scheduler.runGroup(nullptr, &phasedThread, 64);
        ASSERT_EQ(g_trace.events.size(), 64u * 3u);
    }
}

// Test that current() is set only while a group runs.
TEST(FiberScheduler, CurrentIsSetOnlyInsideAGroup) {
    EXPECT_EQ(FiberScheduler::current(), nullptr);
    FiberScheduler scheduler;
    static FiberScheduler* seen = nullptr;
    scheduler.runGroup(nullptr, [](const mc_group*, mc_u32) { seen = FiberScheduler::current(); }, 2);
    EXPECT_EQ(seen, &scheduler);
    EXPECT_EQ(FiberScheduler::current(), nullptr);
}

} // namespace
} // namespace metalcpu::exec
