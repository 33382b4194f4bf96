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
        FiberScheduler::current()->simdExchange(&value, sizeof value, nullptr, &r);
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

// Scope operations: each live thread hands in a record whose slot points at its value
// (thread * 10 + op); every run of an operation records who ran it and whose records it got.
struct ScopeTrace {
    std::vector<std::uint32_t> simdgroups; // N of each operation, in order
    std::uint32_t returnEarlyEvery = 0;
    struct Event {
        int kind; // 0 before the operation, 1 its run, 2 after
        std::uint32_t thread;
        int op;
        std::vector<std::uint32_t> members; // a run: the threads whose records it got
    };
    std::vector<Event> events;
    std::vector<std::uint32_t> values;
};
ScopeTrace g_scope;
int g_ops[8] = {0, 1, 2, 3, 4, 5, 6, 7};

void scopeRun(void* context, const mc_scope_record* records, mc_u32 count) {
    const int op = *static_cast<int*>(context);
    ScopeTrace::Event run{1, FiberScheduler::current()->currentThread(), op, {}};
    for (mc_u32 r = 0; r < count; ++r) {
        const std::uint32_t value = *static_cast<const std::uint32_t*>(records[r].storage[MC_SCOPE_LEFT]);
        EXPECT_EQ(value % 10, std::uint32_t(op)) << "a record from another operation";
        const std::uint32_t thread = value / 10;
        EXPECT_EQ(records[r].thread, thread % (32 * g_scope.simdgroups[op]));
        run.members.push_back(thread);
    }
    g_scope.events.push_back(run);
}

void scopeThread(const mc_group*, mc_u32 i) {
    if (g_scope.returnEarlyEvery && i % g_scope.returnEarlyEvery == 2) return;
    for (int op = 0; op < int(g_scope.simdgroups.size()); ++op) {
        g_scope.events.push_back({0, i, op, {}});
        g_scope.values[i] = i * 10 + std::uint32_t(op);
        mc_scope_record record{};
        record.thread = i % (32 * g_scope.simdgroups[op]);
        record.storage[MC_SCOPE_LEFT] = &g_scope.values[i];
        FiberScheduler::current()->scopeCall(g_scope.simdgroups[op], &record, &scopeRun, &g_ops[op]);
        g_scope.events.push_back({2, i, op, {}});
    }
}

/// Checks that each operation ran once per scope with exactly its live threads, after every
/// one of them arrived and before any went on, on the last arriver's fiber (or, when a
/// returning thread completed the scope, on that one's).
void expectScopesRanOnce(std::uint32_t threads) {
    const auto live = [&](std::uint32_t t) { return !(g_scope.returnEarlyEvery && t % g_scope.returnEarlyEvery == 2); };
    for (int op = 0; op < int(g_scope.simdgroups.size()); ++op) {
        const std::uint32_t scopeThreads = 32 * g_scope.simdgroups[op];
        for (std::uint32_t first = 0; first < threads; first += scopeThreads) {
            std::vector<std::uint32_t> expected;
            for (std::uint32_t t = first; t < std::min(threads, first + scopeThreads); ++t)
                if (live(t)) expected.push_back(t);
            std::size_t runAt = g_scope.events.size(), runs = 0, lastBefore = 0, firstAfter = g_scope.events.size();
            std::uint32_t lastArriver = ~0u;
            for (std::size_t e = 0; e < g_scope.events.size(); ++e) {
                const ScopeTrace::Event& event = g_scope.events[e];
                const bool member = event.thread >= first && event.thread < first + scopeThreads;
                if (event.op != op) continue;
                if (event.kind == 1 && !event.members.empty() && event.members[0] >= first &&
                    event.members[0] < first + scopeThreads) {
                    std::vector<std::uint32_t> got = event.members;
                    std::sort(got.begin(), got.end());
                    EXPECT_EQ(got, expected) << "op " << op << " scope at " << first;
                    // The last arriver, or a thread of the scope whose return completed it.
                    const bool returned = !live(event.thread) && event.thread >= first && event.thread < first + scopeThreads;
                    EXPECT_TRUE(event.thread == lastArriver || returned)
                        << "op " << op << " scope at " << first << " ran on " << event.thread;
                    runAt = e;
                    ++runs;
                }
                if (event.kind == 0 && member) lastBefore = e, lastArriver = event.thread;
                if (event.kind == 2 && member) firstAfter = std::min(firstAfter, e);
            }
            EXPECT_EQ(runs, expected.empty() ? 0u : 1u) << "op " << op << " scope at " << first;
            if (expected.empty()) continue;
            EXPECT_LT(lastBefore, runAt) << "ran before every thread of the scope arrived";
            EXPECT_LT(runAt, firstAfter) << "a thread went on before the operation ran";
        }
    }
}

// Test that a scope operation runs once per scope of 1, 2 or 4 SIMD-groups, with the records of
// the scope's live threads (partial SIMD-groups, threads that returned), on the last arriver.
TEST_P(FiberSchedulerSizes, ScopeCallRunsOncePerScope) {
    const std::uint32_t threads = GetParam();
    for (std::uint32_t every : {0u, 3u}) {
        g_scope = ScopeTrace{};
        g_scope.simdgroups = {1, 2, 4, 1};
        g_scope.returnEarlyEvery = every;
        g_scope.values.assign(threads, 0);
        FiberScheduler scheduler;
        scheduler.runGroup(nullptr, &scopeThread, threads);
        expectScopesRanOnce(threads);
    }
}

// Test that a thread returning while the rest of its scope waits completes the scope.
TEST(FiberScheduler, ReturningThreadCompletesAScope) {
    g_scope = ScopeTrace{};
    g_scope.simdgroups = {1};
    g_scope.values.assign(32, 0);
    FiberScheduler scheduler;
    // Thread 31 is the last of the ring to start: every other thread waits in the scope then.
    scheduler.runGroup(nullptr, [](const mc_group* group, mc_u32 i) { if (i != 31) scopeThread(group, i); }, 32);
    ASSERT_EQ(scheduler.scopeCallsCompleted(), 1u);
    std::size_t afters = 0;
    for (const ScopeTrace::Event& event : g_scope.events) {
        if (event.kind == 1) {
            EXPECT_EQ(event.members.size(), 31u);
        }
        afters += event.kind == 2;
    }
    EXPECT_EQ(afters, 31u);
}

// Two collectives at different sites, and a threadgroup barrier: lanes below 5 of each
// SIMD-group are at site A, the others at site B, then every thread reaches the barrier, where
// lanes 5 and up of the SIMD-group wait while some of its lanes are still at A.
struct SiteTrace {
    std::vector<std::uint64_t> active; // per thread: the mask of its round
    std::vector<std::uint32_t> before; // per thread: threads past the first phase when it passed the barrier
    std::uint32_t pastFirstPhase = 0;
};
SiteTrace g_sites;
constexpr mc_simd_site kSiteA{"k.metal", 3, 9, nullptr}, kSiteB{"k.metal", 3, 30, nullptr};

void sitedThread(const mc_group*, mc_u32 i) {
    FiberScheduler* scheduler = FiberScheduler::current();
    const std::uint32_t value = i;
    mc_simd_round r;
    if (i % 32 < 5) {
        scheduler->simdExchange(&value, sizeof value, &kSiteA, &r);
    } else {
        // Copy the site: lanes at one site compare equal by value, not by address.
        const mc_simd_site b = kSiteB;
        scheduler->simdExchange(&value, sizeof value, &b, &r);
    }
    g_sites.active[i] = r.active;
    ++g_sites.pastFirstPhase;
    scheduler->barrier();
    g_sites.before[i] = g_sites.pastFirstPhase;
}

// Test that lanes at different sites meet in different rounds, each seeing only its own lanes,
// and that the barrier opens only when every thread is past its collective.
TEST_P(FiberSchedulerSizes, LanesMeetPerSite) {
    const std::uint32_t threads = GetParam();
    g_sites = SiteTrace{};
    g_sites.active.assign(threads, 0);
    g_sites.before.assign(threads, 0);
    FiberScheduler scheduler;
    scheduler.runGroup(nullptr, &sitedThread, threads);
    for (std::uint32_t i = 0; i < threads; ++i) {
        const std::uint32_t first = i / 32 * 32, end = std::min(first + 32, threads);
        std::uint64_t expected = 0;
        for (std::uint32_t t = first; t < end; ++t)
            if ((t % 32 < 5) == (i % 32 < 5)) expected |= std::uint64_t(1) << (t - first);
        EXPECT_EQ(g_sites.active[i], expected) << "thread " << i;
        EXPECT_EQ(g_sites.before[i], threads) << "thread " << i << " passed the barrier early";
    }
    EXPECT_EQ(scheduler.barriersCompleted(), 1u);
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
