#include "compiler/passes/interleaved_threads.h"

#include "compiler/compiler_test_util.h"
#include "compiler/findings.h"
#include "compiler/pipeline.h"
#include "compiler/unit.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace metalcpu::msl {
namespace {

struct Result {
    std::string text;                 ///< after the passes up to the work-item loops
    bool interleaved = false;         ///< kernel `k` has its threads interleaved
    unsigned lanes = 0;               ///< how many at a time
    std::string refusal;              ///< else why, when it has a loop with a uniform header
};

Result interleave(const std::string& body, bool enabled = true,
                  const std::string& parameters = "device float* a, constant uint& n, device uint& m, "
                                                  "uint i [[thread_position_in_grid]]",
                  unsigned lanes = 0) {
    const std::string source = "kernel void k(" + parameters + ") {\n" + body + "\n}";
    Result r;
    TranslateOptions options;
    options.interleaveThreads = enabled;
    options.interleaveLanes = lanes;
    {
        auto p = testing::parse(source);
        const Unit unit(p->tokens, p->partner, p->module);
        const Findings found = analyse(unit, p->module, options, p->diagnostics);
        for (const WorkItemKernel& k : found.workItemKernels) {
            r.interleaved = r.interleaved || k.interleaved;
            if (k.interleaved) r.lanes = k.lanes;
        }
        for (const WorkItemRefusal& w : found.interleavingRefusals) r.refusal = w.reason;
        EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
    }
    if (r.interleaved) {
        auto p = testing::parse(source);
        r.text = testing::runPassesUntil(*p, "work-item-loops", options);
    }
    return r;
}

// Test the shape of the rewrite: blocks of eight lanes, a local array per variable, the loop once
// per block, its body a piece per lane, a return that retires the lane.
TEST(InterleavedThreads, Rewrite) {
    const Result r = interleave("  if (i >= n) return;\n  float s = 0;\n"
                                "  for (uint k = 0; k < n; ++k) {\n    s += a[k * n + i];\n  }\n  a[i] = s;");
    ASSERT_TRUE(r.interleaved) << r.refusal;
    EXPECT_EQ(r.lanes, 8u);
    // It has a lane form too (LaneVectors.Form), so its pieces are the lane form's fallback.
    EXPECT_NE(r.text.find("::metalcpu_kernel::lane_block<true, 8, true> __mc_wi(__mc_group);"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("::metalcpu_kernel::lane_slots<__mc_t0, 8> __mc_s0; auto* const __mc_v0 = __mc_s0.lanes; "
                          "while (__mc_wi.next()) {"),
              std::string::npos)
        << r.text;
    EXPECT_NE(r.text.find("for (uint k = 0; k < n; ++k) { if (__mc_wi.all_returned()) break;"), std::string::npos)
        << r.text;
    EXPECT_NE(r.text.find("return __mc_wi.retire(__mc_t);"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("__mc_t0 s = __mc_v0[__mc_t.slot]; { s += a[k * n + i]; } "
                          "::metalcpu_kernel::place(__mc_v0[__mc_t.slot], s); });"),
              std::string::npos)
        << r.text;
}

// Test that a continue of the uniform loop leaves a do { } while (false), so that the lane's
// variables are stored back after it; a continue of an inner loop needs none.
TEST(InterleavedThreads, Continue) {
    const Result r = interleave("  float s = 0;\n  for (uint k = 0; k < n; ++k) {\n"
                                "    if (a[k] < 0) continue;\n    s += a[k];\n  }\n  a[i] = s;");
    ASSERT_TRUE(r.interleaved) << r.refusal;
    EXPECT_NE(r.text.find("do { if (a[k] < 0) continue;\ns += a[k]; } while (false); "
                          "::metalcpu_kernel::place(__mc_v0[__mc_t.slot], s);"),
              std::string::npos)
        << r.text;
    const Result inner = interleave("  float s = 0;\n  for (uint k = 0; k < n; ++k) {\n"
                                    "    for (uint j = 0; j < 2; ++j) { if (a[j] < 0) continue; s += a[j]; }\n  }\n"
                                    "  a[i] = s;");
    ASSERT_TRUE(inner.interleaved) << inner.refusal;
    EXPECT_EQ(inner.text.find("do {"), std::string::npos) << inner.text;
}

// Test the lane count: eight neighbouring threads at a time unless the options name another
// count (METALCPU_INTERLEAVE_LANES), which every interleaved kernel then takes, down to one.
TEST(InterleavedThreads, LaneCount) {
    const std::string body = "  float4x4 acc(0.0f);\n  for (uint k = 0; k < n; ++k) acc[k % 4] += a[k];\n"
                             "  a[i] = acc[0][0];";
    const std::string parameters = "device float* a, constant uint& n, uint i [[thread_position_in_grid]]";
    const Result chosen = interleave(body, true, parameters);
    ASSERT_TRUE(chosen.interleaved) << chosen.refusal;
    EXPECT_EQ(chosen.lanes, 8u);
    for (unsigned lanes : {1u, 2u, 4u, 16u}) {
        SCOPED_TRACE(lanes);
        const Result r = interleave(body, true, parameters, lanes);
        ASSERT_TRUE(r.interleaved) << r.refusal;
        EXPECT_EQ(r.lanes, lanes);
        const std::string n = std::to_string(lanes);
        // ", true": the kernel has a lane form of that many lanes too (all but one lane).
        EXPECT_NE(r.text.find("::metalcpu_kernel::lane_block<false, " + n + (lanes > 1 ? ", true" : "") +
                              "> __mc_wi(__mc_group);"),
                  std::string::npos)
            << r.text;
        EXPECT_NE(r.text.find("::metalcpu_kernel::lane_slots<__mc_t0, " + n + "> __mc_s0;"), std::string::npos) << r.text;
    }
}

// Test the kernels that keep one thread after another, and why.
TEST(InterleavedThreads, Refusals) {
    const struct {
        const char* body;
        const char* reason;
    } cases[] = {
        {"  for (uint k = i; k < n; ++k) a[k] = 0;", "its header names per-thread builtin 'i'"},
        {"  for (uint k = 0; k < m; ++k) a[k] = 0;", "a reference into memory threads may write"},
        {"  for (uint k = 0; k < uint(a[0]); ++k) a[k] = 0;", "its header calls a function"},
        {"  for (uint k = 0; k < a[0]; ++k) a[k] = 0;", "reads memory through a pointer"},
        {"  uint e = n;\n  for (uint k = 0; k < e; ++k) a[k] = 0;", "its header names 'e', which the body declares"},
        {"  for (uint k = 0; k < 4; ++k) a[i * 4 + k] = 0;", "the host compiler's to unroll: its bounds are known"},
        {"  for (uint k = 0; k < n; ++k) { if (a[k] > 0) break; a[i] += 1; }", "a break, goto or label"},
        {"  for (uint k = 0; k < n; ++k) atomic_fetch_add_explicit((device atomic_uint*)a, 1u, memory_order_relaxed);",
         "it uses atomics"},
        {"  for (uint k = 0; k < n; ++k) a[i] += 1;", "turned off"},
    };
    for (const auto& c : cases) {
        const bool on = std::string(c.reason) != "turned off";
        const Result r = interleave(c.body, on);
        EXPECT_FALSE(r.interleaved) << c.body;
        EXPECT_NE(r.refusal.find(c.reason), std::string::npos) << c.body << "\n" << r.refusal;
    }
    // No loop at all, or barriers (the work-item loops' business): no refusal either.
    for (const char* body : {"  a[i] = 0;", "  for (uint k = 0; k < n; ++k) threadgroup_barrier(mem_flags::mem_none);"}) {
        const Result r = interleave(body);
        EXPECT_FALSE(r.interleaved) << body;
        EXPECT_TRUE(r.refusal.empty()) << body << ": " << r.refusal;
    }
}

// Test that uniform builtins, by-value and constant parameters and the loop's own variables
// keep a header uniform, and so do while and do loops.
TEST(InterleavedThreads, UniformHeaders) {
    for (const char* body : {"  for (uint k = 0, e = n * s; k < e; k += s) a[i] += 1;",
                             "  for (uint k = 0; k < n; ++k) a[i] += 1;\n  while (n > 4) { a[i] += 1; break; }",
                             "  uint t = 0;\n  do { t += 1; } while (n < 2);\n  a[i] = t;"})
        EXPECT_TRUE(interleave(body, true,
                               "device float* a, constant uint& n, uint s [[threads_per_threadgroup]], "
                               "uint i [[thread_position_in_grid]]")
                        .interleaved)
            << body;
}

} // namespace
} // namespace metalcpu::msl
