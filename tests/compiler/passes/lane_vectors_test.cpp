#include "compiler/passes/lane_vectors.h"

#include "compiler/compiler_test_util.h"
#include "compiler/findings.h"
#include "compiler/pipeline.h"
#include "compiler/unit.h"

#include <gtest/gtest.h>

#include <string>

namespace metalcpu::msl {
namespace {

struct Result {
    bool lanes = false;  ///< kernel `k` has a lane form
    std::string refusal; ///< else why (empty when it is not interleaved either)
    std::string text;    ///< after the work-item loops
};

Result lanes(const std::string& body, bool enabled = true, bool validation = false,
             const std::string& helpers = "") {
    const std::string source = helpers +
                               "kernel void k(device float* a, device const float* b, constant uint& n, "
                               "uint i [[thread_position_in_grid]], uint s [[thread_index_in_simdgroup]]) {\n" +
                               body + "\n}";
    Result r;
    TranslateOptions options;
    options.laneVectors = enabled;
    options.validation = validation;
    {
        auto p = testing::parse(source);
        const Unit unit(p->tokens, p->partner, p->module);
        const Findings found = analyse(unit, p->module, options, p->diagnostics);
        r.lanes = !found.laneBodies.empty();
        for (const WorkItemRefusal& w : found.laneRefusals) r.refusal = w.reason;
        EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
    }
    if (r.lanes) {
        auto p = testing::parse(source);
        r.text = testing::runPassesUntil(*p, "work-item-loops", options);
    }
    return r;
}

const std::string kLoop = "  for (uint k = 0; k < n; ++k) {\n";

// Test the lane form's text: the block that says the kernel has one (so its interleaved pieces,
// which run only the other blocks, are not unrolled: work_items.h), the builtin from the
// block's first lane, the bounds test jumping to the interleaved pieces, a per-thread
// accumulator, a load and a store through the thread's index, the label after it.
TEST(LaneVectors, Form) {
    const Result r = lanes("  if (i >= n) return;\n  float t = 0;\n" + kLoop + "    t += b[k * n + i];\n  }\n  a[i] = t;");
    ASSERT_TRUE(r.lanes) << r.refusal;
    for (const char* expected :
         {"::metalcpu_kernel::lane_block<true, 8, true> __mc_wi(__mc_group);",
          "while (__mc_wi.next()) { if (::metalcpu_kernel::lane_whole_row(__mc_wi)) { using __mc_lb_i = decltype(i); "
          "const auto i = ::metalcpu_kernel::lane_builtin<8>(::metalcpu_kernel::builtin<__mc_lb_i, "
          "MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_wi.ids(0)));",
          "if (::metalcpu_kernel::lane_any(i >= n )) goto __mc_lanes_scalar;",
          "using __mc_lt_t = ::metalcpu_kernel::varying<float, 8>; __mc_lt_t t = ::metalcpu_kernel::lane_as<__mc_lt_t>(0);",
          "t += ::metalcpu_kernel::lane_load((b) + (k * n + i ));",
          "::metalcpu_kernel::lane_store((a) + (i ), t ); continue; } __mc_lanes_scalar: ;"})
        EXPECT_NE(r.text.find(expected), std::string::npos) << expected << "\n" << r.text;
}

// Test the lane form of a per-thread `if`: the condition's lanes as a mask (nested in the
// enclosing one for an else), each branch for the block when any lane takes it, assignments
// blended, loads and stores in the mask's lanes, calls and divisions per lane.
TEST(LaneVectors, MaskedForm) {
    const Result r = lanes("  float t = 0;\n" + kLoop +
                               "    if (b[k * n + i] > 0) t += f(b[i]) / float(k + 1);\n    else if (i % 2 == 1) a[i] = t;\n"
                               "  }\n  a[i] += t;",
                           true, false, "float f(float x) { return x * 2; }\n");
    ASSERT_TRUE(r.lanes) << r.refusal;
    for (const char* expected :
         {"{ const auto __mc_lm0 = ::metalcpu_kernel::lane_when<8>(::metalcpu_kernel::lane_every{}, "
          "::metalcpu_kernel::lane_load((b) + (k * n + i ))> 0 ); if (::metalcpu_kernel::any(__mc_lm0)) { "
          "::metalcpu_kernel::lane_set(t, t + (::metalcpu_kernel::lane_call<8>(__mc_lm0, [&](const auto&... __mc_a) "
          "{ return f(__mc_a...); }, ::metalcpu_kernel::lane_load((b) + (i ), __mc_lm0))/__mc_div->* float(k + 1) ), "
          "__mc_lm0); }",
          "const auto __mc_lm0e = ::metalcpu_kernel::lane_unless<8>(::metalcpu_kernel::lane_every{}, __mc_lm0); "
          "if (::metalcpu_kernel::any(__mc_lm0e)) { { const auto __mc_lm1 = ::metalcpu_kernel::lane_when<8>(__mc_lm0e, "
          "i %__mc_div->* 2 == 1 ); if (::metalcpu_kernel::any(__mc_lm1)) { ::metalcpu_kernel::lane_store((a) + (i ), t , "
          "__mc_lm1); } } } }",
          "::metalcpu_kernel::lane_store((a) + (i ), ::metalcpu_kernel::lane_load((a) + (i )) + (t ));"})
        EXPECT_NE(r.text.find(expected), std::string::npos) << expected << "\n" << r.text;
}

// Test the kernels that keep the interleaved form, and the reason each gives.
TEST(LaneVectors, Refusals) {
    const struct {
        std::string body;
        const char* reason;
        std::string helpers;
    } cases[] = {
        {"  float t = 0;\n" + kLoop + "    f(t, b[i]);\n  }\n  a[i] = t;", "an expression statement of per-thread values",
         "void f(thread float& t, float x) { t += x; }\n"},
        {"  float t = 0;\n" + kLoop + "    t += g(t, b[i]);\n  }\n  a[i] = t;", "it calls 'g', which takes a reference it may assign through",
         "float g(thread float& t, float x) { t += x; return t; }\n"},
        {"  float t = 0;\n" + kLoop + "    t += h(a);\n  }\n  a[i] = t;", "it calls 'h', which takes a pointer, with the same arguments",
         "float h(device float* p) { p[0] += 1; return p[1]; }\n"},
        {"  float t = 0;\n" + kLoop + "    t += b[i];\n  }\n  a[0] = t;", "it stores through an address every thread shares", ""},
        {"  float t = 0;\n" + kLoop + "    if (i + k < n && b[i + k] > 0) t += b[i];\n  }\n  a[i] = t;",
         "a per-thread condition loads, divides or calls after && or ||", ""},
        {"  float t = 0;\n" + kLoop + "    t += b[i];\n    if (k == 3) return;\n  }\n  a[i] = t;",
         "it returns elsewhere than in a leading bounds test", ""},
        {"  float4 t = 0;\n" + kLoop + "    t += b[i];\n  }\n  a[i] = dot(t.xy, t.zw);", "it takes a member of a per-thread value other than one component", ""},
        {"  float t = 0;\n" + kLoop + "    t += b[i + s];\n  }\n  a[i] = t;", "it names per-thread builtin 's'", ""},
        {"  float t = 0;\n" + kLoop + "    t += b[i] > 0 ? b[i] : 0;\n  }\n  a[i] = t;",
         "it compares per-thread values outside a leading bounds test", ""},
        {"  float t = 0;\n  device float* p = &a[i];\n" + kLoop + "    t += b[i];\n  }\n  *p = t;", "it takes an address", ""},
    };
    for (const auto& c : cases) {
        const Result r = lanes(c.body, true, false, c.helpers);
        EXPECT_FALSE(r.lanes) << c.body;
        EXPECT_NE(r.refusal.find(c.reason), std::string::npos) << c.body << "\nrefusal: " << r.refusal;
    }
    const std::string accumulate = "  float t = 0;\n" + kLoop + "    t += b[k + i];\n  }\n  a[i] = t;";
    EXPECT_TRUE(lanes(accumulate).lanes);
    EXPECT_EQ(lanes(accumulate, false).refusal, "vector lanes are turned off (METALCPU_LANE_VECTORS=0)");
    EXPECT_TRUE(lanes(accumulate, true, true).lanes);
}

// Test the validated flavour's lane form (the checked lane form, metalcpu/lane_checked.h): a
// block whose pieces stay unrolled (with the threadgroup watch on they run every block), the
// gate that also wants the watch off, a per-thread load and store checked by the lanes with
// the site the checked-accesses pass gave them, and a load the lanes share; in a loop stepping
// by two, at every step.
TEST(LaneVectors, CheckedForm) {
    const Result r = lanes("  if (i >= n) return;\n  float t = 0;\n  for (uint k = 0; k < n; k += 2) {\n"
                           "    t += b[k * n + i] * b[k];\n  }\n  a[i] = t;",
                           true, true);
    ASSERT_TRUE(r.lanes) << r.refusal;
    for (const char* expected :
         {"::metalcpu_kernel::lane_block<true, 8> __mc_wi(__mc_group);",
          "while (__mc_wi.next()) { if (::metalcpu_kernel::lane_whole_row_checked(__mc_wi)) {",
          "t += ::metalcpu_kernel::lane_checked_load(__mc_wi, (b) + (k * n + i ), ::__mc_sites[0])* "
          "::metalcpu_kernel::lane_uniform_load(__mc_wi, b, k, ::__mc_sites[1]) ;",
          "::metalcpu_kernel::lane_checked_store(__mc_wi, (a) + (i ), ::__mc_sites[2], t ); continue; } "
          "__mc_lanes_scalar: ;"})
        EXPECT_NE(r.text.find(expected), std::string::npos) << expected << "\n" << r.text;
    EXPECT_EQ(r.text.find("range_inside"), std::string::npos) << r.text;
}

// Test that the checked lane form checks the accesses of a loop stepping by one once, before
// the loop, for every lane of the block (passes/loop_ranges.h): the per-thread index as the
// lanes compute it and the shared one; the loop in two copies, whose flag is a constant; the
// store after the loop keeps its own check.
TEST(LaneVectors, CheckedFormOfACountedLoop) {
    const Result r = lanes("  if (i >= n) return;\n  float t = 0;\n" + kLoop + "    t += b[k * n + i] * b[k];\n  }\n  a[i] = t;",
                           true, true);
    ASSERT_TRUE(r.lanes) << r.refusal;
    const std::string loop = "for (uint k = 0; k < n; ++k) { t += ::metalcpu_kernel::lane_checked_load_in(__mc_range_N, "
                             "__mc_wi, (b) + (k * n + i ), ::__mc_sites[0])* ::metalcpu_kernel::lane_uniform_load_in("
                             "__mc_range_N, __mc_wi, b, k, ::__mc_sites[1]) ; } ";
    const std::size_t at = r.text.find("{ if (::metalcpu_kernel::range_inside");
    ASSERT_NE(at, std::string::npos) << r.text;
    const std::string flag = r.text.substr(r.text.find("__mc_range_", at), r.text.find(" =", at) - r.text.find("__mc_range_", at));
    const auto named = [&](std::string text) {
        for (std::size_t n; (n = text.find("__mc_range_N")) != std::string::npos;) text.replace(n, 12, flag);
        return text;
    };
    for (const std::string& expected :
         {std::string("{ if (::metalcpu_kernel::range_inside<uint>((0), (n), b, [&](uint k) { return (k * n + i ); }) & "
                      "::metalcpu_kernel::range_inside<uint>((0), (n), b, [&](uint k) { return (k); })) { constexpr bool ") +
              named("__mc_range_N = true; " + loop + "} else { constexpr bool __mc_range_N = false; " + loop + "} } "),
          std::string("::metalcpu_kernel::lane_checked_store(__mc_wi, (a) + (i ), ::__mc_sites[2], t ); continue; }")})
        EXPECT_NE(r.text.find(expected), std::string::npos) << expected << "\n" << r.text;
}

// Test that a compound store through a pointer keeps the validated flavour interleaved (the
// scalar form checks it as one access, a load and a store in one report) while the plain
// flavour takes the lanes.
TEST(LaneVectors, CheckedRefusal) {
    const std::string body = "  float t = 0;\n" + kLoop + "    t += b[k + i];\n  }\n  a[i] += t;";
    const Result r = lanes(body, true, true);
    EXPECT_FALSE(r.lanes);
    EXPECT_NE(r.refusal.find("a compound assignment through a pointer"), std::string::npos) << r.refusal;
    EXPECT_TRUE(lanes(body, true, false).lanes);
}

// Test that the checked lane form refuses what its accesses cannot mask or attribute: a
// per-thread if (the checked loads and stores take no mask, so a lane outside it would store)
// and a call of the program's function (its checks would name the block's current thread).
TEST(LaneVectors, CheckedRefusesMasksAndProgramCalls) {
    const std::string masked = "  float t = 0;\n" + kLoop + "    if (i % 2 == 0) t += b[k + i];\n  }\n  a[i] = t;";
    const Result m = lanes(masked, true, true);
    EXPECT_FALSE(m.lanes);
    EXPECT_NE(m.refusal.find("the checked lane form has no masks"), std::string::npos) << m.refusal;
    EXPECT_TRUE(lanes(masked, true, false).lanes);
    const std::string helper = "float twice(float x) { return 2 * x; }\n";
    const std::string called = "  float t = 0;\n" + kLoop + "    t += twice(b[k + i]);\n  }\n  a[i] = t;";
    const Result c = lanes(called, true, true, helper);
    EXPECT_FALSE(c.lanes);
    EXPECT_NE(c.refusal.find("whose accesses shader validation checks per thread"), std::string::npos) << c.refusal;
    EXPECT_TRUE(lanes(called, true, false, helper).lanes);
}

} // namespace
} // namespace metalcpu::msl
