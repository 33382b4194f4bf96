#include "exec/fiber_scheduler.h"

#include <gtest/gtest.h>

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
