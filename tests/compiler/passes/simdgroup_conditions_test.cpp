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
// differ between SIMD-groups (its header reads a const set up from the SIMD-group's index), is
// a divergent loop: each round its condition runs per thread into the guard's slot, the body's
// pieces run for the threads whose guard holds, and the group goes round while any live thread
// does. Trips that may differ within a SIMD-group (from the lane) fall back and say why; trips
// that are the group's are a loop run once per group.
TEST(SimdgroupConditions, LoopTripsPerSimdgroupAreDivergentLoops) {
    const std::string loop = "    for (uint k = 0; k < trips; ++k) {\n" + kBranch + "    }\n";
    Translation t = translateBody("    const uint trips = sg % 3 + 1;\n" + loop);
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    EXPECT_NE(t.cpp.find("for (::mc_u32 __mc_i0 = 0;; ++__mc_i0) {"), std::string::npos) << t.cpp;
    // (The condition and the increment keep their lines: #line directives come between.)
    for (const char* part : {"const auto __mc_c0 = [&]() __attribute__((always_inline)) -> bool { return bool(",
                             "k < trips); }; if (__mc_i0 == 0 || __mc_g0[__mc_t.slot]) { if (__mc_i0 != 0) {",
                             "++k; } __mc_g0[__mc_t.slot] = __mc_c0(); }"})
        EXPECT_NE(t.cpp.find(part), std::string::npos) << part << "\n" << t.cpp;
    EXPECT_NE(t.cpp.find("if (!::metalcpu_kernel::any_thread(__mc_wi, [&](::mc_u32 __mc_l) __attribute__((always_inline)) "
                         "-> bool { return __mc_g0[__mc_l]; })) break;"),
              std::string::npos)
        << t.cpp;
    EXPECT_EQ(occurrences(t.cpp, "if (!(__mc_g0[__mc_t.slot])) return;"), 2u) << t.cpp;
    EXPECT_EQ(t.cpp.find("__mc_wi.lead()"), std::string::npos) << t.cpp;
    // The loop's own variable is the thread's: the init-statement is a piece that places it.
    t = translateBody("    for (uint k = sg; k < n; k += 4u) {\n" + kBranch + "    }\n");
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    EXPECT_NE(t.cpp.find("::metalcpu_kernel::place(__mc_v0[__mc_t.slot], k);"), std::string::npos) << t.cpp;
    EXPECT_NE(t.cpp.find("k += 4u; } __mc_g0[__mc_t.slot] = __mc_c0(); } } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], k); });"),
              std::string::npos)
        << t.cpp;
    // A while loop: its condition only.
    t = translateBody("    const uint m = sg + 2u;\n    while (m > n) {\n" + kBranch + "    }\n");
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    EXPECT_NE(t.cpp.find("__mc_g0[__mc_t.slot] = (__mc_i0 == 0 || __mc_g0[__mc_t.slot]) && bool("), std::string::npos)
        << t.cpp;
    // Trips that may differ within a SIMD-group.
    for (const std::string& setup : {std::string("    const uint trips = lane % 3 + 1;\n"),
                                     std::string("    uint trips = sg % 3 + 1;\n    trips += 0;\n")}) {
        t = translateBody(setup + loop);
        EXPECT_FALSE(t.kernels[0].usesWorkItemLoops);
        EXPECT_TRUE(t.kernels[0].usesCoroutines);
        EXPECT_NE(t.kernels[0].workItemLoopsRefusal.find("a loop with SIMD-group functions or simdgroup_barriers but "
                                                         "no threadgroup barrier reads 'trips' in its header or a "
                                                         "condition of its breaks, which may differ within a SIMD-group"),
                  std::string::npos)
            << t.kernels[0].workItemLoopsRefusal;
    }
    t = translateBody("    for (uint k = lid; k < n; k += 32u) {\n" + kBranch + "    }\n");
    EXPECT_FALSE(t.kernels[0].usesWorkItemLoops);
    EXPECT_NE(t.kernels[0].workItemLoopsRefusal.find("reads 'lid' in its header"), std::string::npos)
        << t.kernels[0].workItemLoopsRefusal;
    // The body may not write the loop's variable: itself, after a lambda whose parameter has
    // its name (which hides nothing past the lambda), or past the scopes of the body's own
    // variables of that name.
    for (const std::string tail : {"        k += 1u;\n",
                                   "        const auto twice = [](uint k) { return 2u * k; };\n"
                                   "        k += twice(1u);\n",
                                   "        for (uint k = 0u; k < 2u; ++k) a[lid] += float(k);\n"
                                   "        { uint k = 5u; a[lid] += float(k); }\n        k += 1u;\n"}) {
        t = translateBody("    for (uint k = sg; k < n; k += 4u) {\n" + kBranch + tail + "    }\n");
        EXPECT_FALSE(t.kernels[0].usesWorkItemLoops) << tail;
        EXPECT_NE(t.kernels[0].workItemLoopsRefusal.find("may write its variable 'k'"), std::string::npos)
            << tail << t.kernels[0].workItemLoopsRefusal;
    }
    // A variable of the body's own that hides the loop's is not it (MLX's sdpa_vector reads
    // its keys in loops over an `int i` inside its key loop over `i`): in a for header, in a
    // nested block, or from its declaration to the end of the body.
    t = translateBody("    for (uint k = sg; k < n; k += 4u) {\n" + kBranch +
                      "        for (uint k = 0u; k < 2u; ++k) a[lid] += float(k);\n"
                      "        { uint k = 5u; k += 1u; a[lid] += float(k); }\n"
                      "        uint k = 3u;\n        k += 1u;\n        a[lid] += float(k);\n    }\n");
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    // One that lives across the barrier has a slot of its own, which the piece after it reads.
    t = translateBody("    for (uint k = sg; k < n; k += 4u) {\n        uint k = 3u;\n" + kBranch +
                      "        a[lid] += float(k);\n    }\n");
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    EXPECT_NE(t.cpp.find("__mc_t1 k = __mc_v1[__mc_t.slot]; {"), std::string::npos) << t.cpp;
    EXPECT_EQ(t.cpp.find("__mc_t0 k = __mc_v0[__mc_t.slot]; __mc_t1 k"), std::string::npos) << t.cpp;
    // Nor may it leave the loop.
    t = translateBody("    for (uint k = sg; k < n; k += 4u) {\n" + kBranch + "        continue;\n    }\n");
    EXPECT_FALSE(t.kernels[0].usesWorkItemLoops);
    // A break whose condition may differ within the SIMD-group (a lane's value).
    t = translateBody("    for (uint k = sg;; k += 4u) {\n        const float x = a[lid];\n"
                      "        if (x > 0.0f) break;\n" + kBranch + "    }\n");
    EXPECT_FALSE(t.kernels[0].usesWorkItemLoops);
    EXPECT_NE(t.kernels[0].workItemLoopsRefusal.find("reads 'x'"), std::string::npos)
        << t.kernels[0].workItemLoopsRefusal;
    // Trips that are the group's: once per group, as before.
    t = translateBody("    const uint trips = n % 3 + 1;\n" + loop);
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    EXPECT_EQ(t.cpp.find("__mc_g0"), std::string::npos) << t.cpp;
    // With a threadgroup barrier in it, the whole group must make the same trips: the first
    // live thread's count is the group's (and shader validation asks every thread).
    t = translateBody("    const uint trips = sg % 3 + 1;\n    for (uint k = 0; k < trips; ++k) {\n" + kBranch +
                      "        threadgroup_barrier(mem_flags::mem_threadgroup);\n    }\n");
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    EXPECT_EQ(t.cpp.find("__mc_g0"), std::string::npos) << t.cpp;
}

// Test llama.cpp's vector flash attention loop: no condition, a break once the chunk from the
// SIMD-group's index is past the keys, under a condition on a variable the piece declares from
// the loop's (uniform across the SIMD-group). The break clears the thread's guard and leaves the
// piece past its statements, to the stores.
TEST(SimdgroupConditions, LoopLeftByBreak) {
    const Translation t = translateBody("    float o = 0.0f;\n"
                                        "    for (int ic0 = int(sg);; ic0 += 4) {\n"
                                        "        int ic = ic0 * 32;\n"
                                        "        if (ic >= int(n)) {\n"
                                        "            break;\n"
                                        "        }\n"
                                        "        o += 1.0f;\n"
                                        "        o = simd_sum(o);\n"
                                        "    }\n"
                                        "    a[lid] = o;\n");
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    EXPECT_NE(t.cpp.find("true); }; if (__mc_i0 == 0 || __mc_g0[__mc_t.slot])"), std::string::npos) << t.cpp;
    EXPECT_NE(t.cpp.find("goto __mc_break"), std::string::npos) << t.cpp;
    EXPECT_NE(t.cpp.find(": __mc_g0[__mc_t.slot] = false; } ::metalcpu_kernel::place("), std::string::npos) << t.cpp;
}

// Test MLX's sdpa_vector key loop: each SIMD-group takes every BN-th key from its own index,
// and a SIMD-group function in the body covers the lanes still in the loop (marked by the
// guard), under an outer divergent if too; the validated flavour checks each SIMD-group agrees
// where the loop holds a simdgroup_barrier.
TEST(SimdgroupConditions, SdpaKeyLoopIsDivergent) {
    Translation t = translateBody("    float o = 0.0f;\n"
                                  "    for (uint i = sg; i < n; i += 4u) {\n"
                                  "        const float q = a[i * 32u + lane];\n"
                                  "        float score = simd_sum(q);\n"
                                  "        o += score;\n"
                                  "    }\n"
                                  "    a[lid] = o;\n");
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    EXPECT_NE(t.cpp.find("::metalcpu_kernel::simd_mark(__mc_c0, __mc_wi, __mc_t, __mc_g0[__mc_t.slot]);"),
              std::string::npos)
        << t.cpp;
    t = translateBody("    if (sg < 2u) {\n"
                      "        for (uint i = sg; i < n; i += 2u) {\n" + kBranch + "        }\n"
                      "    }\n"
                      "    threadgroup_barrier(mem_flags::mem_threadgroup);\n",
                      true);
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    EXPECT_NE(t.cpp.find("return __mc_g0[__mc_l] && __mc_g1[__mc_l]; })) break;"), std::string::npos) << t.cpp;
    EXPECT_NE(t.cpp.find("::metalcpu_kernel::divergent_barriers(__mc_wi, [&](::mc_u32 __mc_l) "
                         "__attribute__((always_inline)) -> int { return !(__mc_g0[__mc_l]) ? -1 : __mc_g1[__mc_l] ? 1 : 0; }"),
              std::string::npos)
        << t.cpp;
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
