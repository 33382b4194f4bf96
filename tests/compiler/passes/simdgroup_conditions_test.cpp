// The work-item loop planner (passes/work_item_loops.h) on control flow that Metal asks to be
// uniform only across each SIMD-group: an if or a loop holding simdgroup_barriers or SIMD-group
// functions but no threadgroup barrier. Its condition must be each thread's (a divergent if:
// every thread takes its own branch), never the first thread's for the whole group.
// (The runtime's SimdgroupConditions tests run such kernels.)
#include "compiler/passes/work_item_loops.h"

#include "compiler/translate.h"

#include <gtest/gtest.h>

#include <string>

namespace metalcpu::msl {
namespace {

/// The translation of kernel `k` whose body is `body`: `a` a device float*, `n` a constant
/// uint&, `lid` the thread's index in the group, `sg` its SIMD-group's, `lane` its own in it.
Translation translateBody(const std::string& body, bool validation = false) {
    TranslateOptions options;
    options.mainFile = "s.metal";
    options.validation = validation;
    Translation t = translate("# 1 \"s.metal\"\n"
                              "kernel void k(device float* a [[buffer(0)]], constant uint& n [[buffer(1)]],\n"
                              "              uint lid [[thread_index_in_threadgroup]],\n"
                              "              uint sg [[simdgroup_index_in_threadgroup]],\n"
                              "              uint lane [[thread_index_in_simdgroup]]) {\n"
                              "    threadgroup float b[1024];\n" +
                                  body + "\n}\n",
                              options);
    EXPECT_TRUE(t.ok);
    EXPECT_EQ(t.kernels.size(), 1u);
    return t;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

const std::string kBranch = "        b[lid] = a[lid];\n"
                            "        simdgroup_barrier(mem_flags::mem_threadgroup);\n"
                            "        a[lid] = b[lid ^ 1u];\n";

// Test that an if holding a simdgroup_barrier whose condition differs per thread, the same
// across each SIMD-group or not (a variable holding the SIMD-group's index, the builtin itself,
// the lane), is split with a guard per thread: the condition runs for every thread into its
// slot, and both pieces of the branch (around the erased barrier) run for the threads that
// take it. No thread's value stands for the group's.
TEST(SimdgroupConditions, SimdgroupBarrierUnderPerThreadConditionIsGuarded) {
    for (const std::string condition : {"group == 1", "sg == 0", "lane < 16"}) {
        SCOPED_TRACE(condition);
        const Translation t =
            translateBody("    const uint group = sg;\n    if (" + condition + ") {\n" + kBranch + "    }\n");
        ASSERT_EQ(t.kernels.size(), 1u);
        EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
        EXPECT_NE(t.cpp.find("__mc_g0[__mc_t.slot] = bool"), std::string::npos) << t.cpp;
        EXPECT_NE(t.cpp.find("(" + condition + "); });"), std::string::npos) << t.cpp;
        EXPECT_EQ(occurrences(t.cpp, "if (!(__mc_g0[__mc_t.slot])) return;"), 2u) << t.cpp;
        EXPECT_EQ(t.cpp.find("__mc_wi.lead()"), std::string::npos) << t.cpp;
        EXPECT_EQ(t.cpp.find("simdgroup_barrier"), std::string::npos) << "erased: the pieces are the barrier\n"
                                                                      << t.cpp;
    }
    // With an else: its pieces run for the others.
    const Translation t = translateBody("    if (sg == 1) {\n" + kBranch + "    } else {\n" + kBranch + "    }\n");
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    EXPECT_EQ(occurrences(t.cpp, "if (!(!__mc_g0[__mc_t.slot])) return;"), 2u) << t.cpp;
}

// Test that an if holding a threadgroup_barrier still runs once per group on the first live
// thread's value (Metal asks the whole group to agree), and that a uniform condition around
// a simdgroup_barrier needs no guard.
TEST(SimdgroupConditions, ThreadgroupBarrierKeepsTheGroupsCondition) {
    Translation t = translateBody("    const uint group = sg;\n    if (group == 0) {\n" + kBranch +
                                  "        threadgroup_barrier(mem_flags::mem_threadgroup);\n    }\n");
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    EXPECT_NE(t.cpp.find("[__mc_wi.lead()]) == 0"), std::string::npos) << t.cpp;
    EXPECT_EQ(t.cpp.find("__mc_g0"), std::string::npos) << t.cpp;
    t = translateBody("    if (n > 2) {\n" + kBranch + "    }\n");
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    EXPECT_EQ(t.cpp.find("__mc_g0"), std::string::npos) << t.cpp;
}

// Test that a loop holding simdgroup_barriers but no threadgroup barrier, whose trips may
// differ between SIMD-groups (its header reads a per-thread variable), is not split: one
// evaluation per group cannot make each SIMD-group's trips. It falls back to coroutines and
// says why; a loop whose trips are the group's is split.
TEST(SimdgroupConditions, LoopTripsPerSimdgroupFallBack) {
    const std::string loop = "    for (uint k = 0; k < trips; ++k) {\n" + kBranch + "    }\n";
    Translation t = translateBody("    const uint trips = sg % 3 + 1;\n" + loop);
    EXPECT_FALSE(t.kernels[0].usesWorkItemLoops);
    EXPECT_TRUE(t.kernels[0].usesCoroutines);
    EXPECT_NE(t.kernels[0].workItemLoopsRefusal.find("a loop with SIMD-group functions or simdgroup_barriers but no "
                                                     "threadgroup barrier reads per-thread variable 'trips'"),
              std::string::npos)
        << t.kernels[0].workItemLoopsRefusal;
    t = translateBody("    const uint trips = n % 3 + 1;\n" + loop);
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    // With a threadgroup barrier in it, the whole group must make the same trips: the first
    // live thread's count is the group's (and shader validation asks every thread).
    t = translateBody("    const uint trips = sg % 3 + 1;\n    for (uint k = 0; k < trips; ++k) {\n" + kBranch +
                      "        threadgroup_barrier(mem_flags::mem_threadgroup);\n    }\n");
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
}

// Test the barrier-divergence check of the validated flavour: after such an if's condition,
// divergent_barriers() is told each thread's way (under an outer divergent if, -1 for the
// threads that do not take the outer branch), the simdgroup_barrier the branch reaches and
// the barrier after it; the plain flavour has none, and an if around SIMD-group functions
// alone (which may diverge) has none either.
TEST(SimdgroupConditions, ValidatedFlavourChecksEachSimdgroupAgrees) {
    const std::string body = "    if (sg < 2) {\n" + kBranch +
                             "        if (lane < 4) {\n            b[lid] = 1.0f;\n"
                             "            simdgroup_barrier(mem_flags::mem_none);\n        }\n    }\n"
                             "    threadgroup_barrier(mem_flags::mem_threadgroup);\n";
    Translation t = translateBody(body, true);
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    EXPECT_NE(t.cpp.find("::metalcpu_kernel::divergent_barriers(__mc_wi, [&](::mc_u32 __mc_l) "
                         "__attribute__((always_inline)) -> int { return __mc_g0[__mc_l] ? 1 : 0; }, "
                         "::mc_simd_site{__FILE__, 8, 9, MC_SIMD_BARRIER_KIND}, ::mc_simd_site{__FILE__, 15, 5, nullptr});"),
              std::string::npos)
        << t.cpp;
    EXPECT_NE(t.cpp.find("-> int { return !(__mc_g0[__mc_l]) ? -1 : __mc_g1[__mc_l] ? 1 : 0; }, "
                         "::mc_simd_site{__FILE__, 12, 13, MC_SIMD_BARRIER_KIND}, "
                         "::mc_simd_site{__FILE__, 15, 5, nullptr});"),
              std::string::npos)
        << t.cpp;
    EXPECT_EQ(translateBody(body).cpp.find("divergent_barriers"), std::string::npos);
    t = translateBody("    float v = a[lid];\n    if (lane < 4) {\n        v = simd_sum(v);\n    }\n    a[lid] = v;\n",
                      true);
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    EXPECT_EQ(t.cpp.find("divergent_barriers"), std::string::npos) << t.cpp;
}

} // namespace
} // namespace metalcpu::msl
