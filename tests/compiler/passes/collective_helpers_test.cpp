#include "compiler/passes/collective_helpers.h"

#include "compiler/compiler_test_util.h"
#include "compiler/findings.h"
#include "compiler/pipeline.h"
#include "compiler/unit.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace metalcpu::msl {
namespace {

/// What `judge(unit, graph, f)` says of the (first) function `f` named `name` in `source`.
template <class Judge>
auto judged(const std::string& source, const std::string& name, Judge judge) {
    auto p = testing::parse(source);
    const Unit unit(p->tokens, p->partner, p->module);
    const Findings found = analyse(unit, p->module, TranslateOptions{}, p->diagnostics);
    for (std::size_t f = 0; f < p->module.functions.size(); ++f)
        if (p->module.functions[f].name == name && p->module.functions[f].hasBody) return judge(unit, found.graph, f);
    ADD_FAILURE() << "no function " << name;
    return decltype(judge(unit, found.graph, 0)){};
}

/// stagedCollectiveCount() of the (first) function named `name` in `source`.
std::optional<unsigned> stagedCount(const std::string& source, const std::string& name) {
    return judged(source, name, stagedCollectiveCount);
}

/// whyNotCollectiveHelper() of the (first) function named `name` in `source`.
std::string whyNot(const std::string& source, const std::string& name) {
    return judged(source, name, whyNotCollectiveHelper);
}

/// `struct S { float f(float x) { BODY } };`
std::string member(const std::string& body) { return "struct S { float f(float x) { " + body + " } };\n"; }

// Test the count of collectives over MLX's Op members: a loop of five shuffles, then one more
// (a call of the first), a single collective, and a function that makes none.
TEST(CollectiveHelpers, CountsCollectivesOverLoops) {
    const std::string cumMax = "template <typename U> struct CumMax {\n"
                               "  static constexpr constant U init = U(0);\n"
                               "  U simd_scan(U x) {\n"
                               "    for (int i = 1; i <= 16; i *= 2) {\n"
                               "      U other = simd_shuffle_up(x, i);\n"
                               "      x = (x >= other) ? x : other;\n"
                               "    }\n"
                               "    return x;\n"
                               "  }\n"
                               "  U simd_exclusive_scan(U x) {\n"
                               "    x = simd_scan(x);\n"
                               "    return simd_shuffle_and_fill_up(x, init, 1);\n"
                               "  }\n"
                               "};\n";
    EXPECT_EQ(stagedCount(cumMax, "simd_scan"), 5u);
    EXPECT_EQ(stagedCount(cumMax, "simd_exclusive_scan"), 6u);
    EXPECT_EQ(stagedCount(member("return simd_sum(x);"), "f"), 1u);
    EXPECT_EQ(stagedCount(member("float y = abs(x) * 2.0f; return max(y, x);"), "f"), 0u);
    // Loops of every counted form.
    EXPECT_EQ(stagedCount(member("for (uint k = 0; k < 3; ++k) x += simd_sum(x); return x;"), "f"), 3u);
    EXPECT_EQ(stagedCount(member("for (short k = 8; k > 0; k -= 2) { x = simd_shuffle_down(x, k); } return x;"), "f"),
              4u);
    EXPECT_EQ(stagedCount(member("for (int a = 0; a != 2; a++) for (int b = 0; b < 3; b++) x = simd_max(x); return x;"),
                          "f"),
              6u);
    // 32 collectives at most (METALCPU_SIMD_MAX_STAGES).
    EXPECT_EQ(stagedCount(member("for (int k = 0; k < 32; ++k) x = simd_sum(x); return x;"), "f"), 32u);
    EXPECT_EQ(stagedCount(member("for (int k = 0; k < 33; ++k) x = simd_sum(x); return x;"), "f"), std::nullopt);
    EXPECT_EQ(whyNot(member("for (int k = 0; k < 33; ++k) x = simd_sum(x); return x;"), "f"),
              "it makes more than 32 SIMD-group functions a call");
    // Helpers, plain and staged, have no reason.
    EXPECT_EQ(whyNot(cumMax, "simd_exclusive_scan"), "");
    EXPECT_EQ(whyNot(member("return simd_sum(x);"), "f"), "");
    EXPECT_EQ(whyNot(member("return max(x, 1.0f);"), "f"), "it makes no SIMD-group function");
}

// Test what a staged helper may not do: an effect beyond its value, a collective only some
// lanes make, a loop whose trips are not counted, a division, a call it cannot judge; and
// the reason each gives (whyNotCollectiveHelper(), which a kernel's fibers reason quotes).
TEST(CollectiveHelpers, RefusesWhatRunningAgainWouldChange) {
    std::string reason; // what the next refusals give
    const auto refused = [&](const std::string& source, const char* why) {
        EXPECT_EQ(stagedCount(source, "f"), std::nullopt) << why;
        EXPECT_EQ(whyNot(source, "f"), reason) << why;
    };
    reason = "a parameter is a reference, a pointer or an array";
    // Effects.
    refused("float f(device float* p, float x) { p[0] = x; return simd_sum(x); }", "a pointer parameter");
    refused("float f(thread float& x) { return simd_sum(x); }", "a reference parameter");
    reason = "it writes 'acc', which outlives the call";
    refused("struct S { float acc; float f(float x) { acc += x; return simd_sum(x); } };", "writes a member");
    reason = "it writes 'g', which outlives the call";
    refused("float g;\nfloat f(float x) { g = x; return simd_sum(x); }", "writes a global");
    reason = "'q' is a pointer or a reference";
    refused(member("thread float* q = &x; return simd_sum(*q);"), "takes an address");
    reason = "it uses `static`";
    refused(member("static float c = 0; return simd_sum(x + c);"), "a static local");
    reason = "it calls 'atomic_fetch_add_explicit', which has an effect";
    refused(member("atomic_fetch_add_explicit(nullptr, 1, memory_order_relaxed); return simd_sum(x);"), "an atomic");
    reason = "it calls 'sincos', which has an effect";
    refused(member("float c; float s = sincos(x, c); return simd_sum(s + c);"), "an output parameter");
    reason = "it returns before its end (a lane that returns skips the collectives after)";
    refused(member("if (x < 0.0f) return x; return simd_sum(x);"), "an early return, after which some lanes skip the collective");
    reason = "it calls 'h', which is not one either";
    refused("struct T { float n; float h(float x) { n += x; return n; } };\n"
            "struct S { T t; float f(float x) { return simd_sum(t.h(x)); } };",
            "calls a member that writes its object");
    reason = "it calls 'other', a member function or a functor";
    refused(member("S other; return simd_sum(other(x));"), "calls a functor");
    // Collectives that not every lane makes.
    reason = "a SIMD-group function is under an `if` (some lanes skip it)";
    refused(member("if (x > 0.0f) x = simd_sum(x); return x;"), "under an if");
    reason = "a SIMD-group function is in a statement with `?:`, `&&` or `||` (some lanes skip it)";
    refused(member("float y = x > 0.0f ? simd_sum(x) : x; return y;"), "in a ?: statement");
    refused(member("bool b = x > 0.0f && simd_any(x > 1.0f); return b ? 1.0f : 0.0f;"), "after &&");
    // Loops whose trips are not counted.
    reason = "it has a `while`, `do`, `switch` or `goto`, whose trips are not counted";
    refused(member("while (x < 10.0f) x += simd_sum(x); return x;"), "a while loop");
    refused(member("do { x = simd_sum(x); } while (x < 10.0f); return x;"), "a do loop");
    reason = "a `for` does not count its own variable between literals with a body that only reads it";
    refused("float f(float x, int n) { for (int k = 0; k < n; ++k) x = simd_sum(x); return x; }", "a bound not a literal");
    refused(member("for (int k = 0; k < 4; ++k) { x = simd_sum(x); k += 1; } return x;"), "the body writes the variable");
    refused(member("for (int k = 1; k < 4; k <<= 1) x = simd_sum(x); return x;"), "a step not counted");
    // Made-up values of a pass's later collectives may not divide.
    reason = "it uses `/`";
    refused(member("float s = simd_sum(x); return x / s;"), "a division");
    // Recursion.
    reason = "it calls itself";
    refused("float f(float x) { return x > 0.0f ? f(x - 1.0f) : simd_sum(x); }", "recursive");
}

/// The collective statements of the kernels split into work-item loops, by kernel name: how
/// many, and how many staged.
std::map<std::string, std::pair<unsigned, unsigned>> splitCollectives(const std::string& source) {
    auto p = testing::parse(source);
    const Unit unit(p->tokens, p->partner, p->module);
    const Findings found = analyse(unit, p->module, TranslateOptions{}, p->diagnostics);
    std::map<std::string, std::pair<unsigned, unsigned>> out;
    for (const WorkItemKernel& k : found.workItemKernels) {
        auto& [all, staged] = out[p->module.functions[k.function].name];
        for (const CollectiveStatement& c : k.collectives) {
            ++all;
            staged += c.staged ? 1 : 0;
        }
    }
    return out;
}

// Test that a kernel template calling `op.scan(x)` is split into work-item loops when the name
// has a staged helper among single-collective ones (every call of the name then runs staged),
// and that the emitted statement is the staged one; a name whose functions are all single
// collectives keeps the record and replay.
TEST(CollectiveHelpers, KernelsSplitAtStagedHelpers) {
    const std::string ops = "struct Add { float scan(float x) { return simd_prefix_inclusive_sum(x); } };\n"
                            "struct Max { float scan(float x) { for (ushort k = 1; k < 32; k *= 2) "
                            "x = max(x, simd_shuffle_up(x, k)); return x; } };\n"
                            "struct Sub { float total(float x) { return simd_sum(x); } };\n";
    const std::string kernels = "template <typename Op>\n"
                                "kernel void scanned(device float* a [[buffer(0)]], uint i [[thread_index_in_threadgroup]]) {\n"
                                "    Op op;\n"
                                "    float v = op.scan(a[i]);\n"
                                "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                                "    a[i] = v;\n"
                                "}\n"
                                "template [[host_name(\"scanned_max\")]] kernel void scanned<Max>(device float*, uint);\n"
                                "kernel void totalled(device float* a [[buffer(0)]], uint i [[thread_index_in_threadgroup]]) {\n"
                                "    Sub op;\n"
                                "    float v = op.total(a[i]);\n"
                                "    a[i] = v;\n"
                                "}\n";
    const auto split = splitCollectives(ops + kernels);
    ASSERT_EQ(split.count("scanned"), 1u);
    EXPECT_EQ(split.at("scanned"), std::make_pair(1u, 1u));
    ASSERT_EQ(split.count("totalled"), 1u);
    EXPECT_EQ(split.at("totalled"), std::make_pair(1u, 0u));

    auto p = testing::parse(ops + kernels);
    const std::string text = testing::runPassesUntil(*p, "work-item-loops");
    EXPECT_NE(text.find("float v = ::metalcpu_kernel::simd_staged_collect<"), std::string::npos) << text;
    EXPECT_NE(text.find("float v = ::metalcpu_kernel::simd_collect<"), std::string::npos) << text;
    // The staged statement's first loop hands in the object and the argument, without the function.
    EXPECT_NE(text.find("::metalcpu_kernel::simd_deposit(__mc_c0, __mc_wi, __mc_t, op, a[i]); });"), std::string::npos)
        << text;
}

// Test that a staged helper whose collective is under an if keeps its callers on fibers, with
// the reason the kernel gives.
TEST(CollectiveHelpers, KernelKeepsFibersForAnUnstagedHelper) {
    const std::string source = "struct Max { float scan(float x) { if (x > 0.0f) x = simd_max(x); return x; } };\n"
                               "kernel void k(device float* a [[buffer(0)]], uint i [[thread_index_in_threadgroup]]) {\n"
                               "    Max op;\n"
                               "    float v = op.scan(a[i]);\n"
                               "    a[i] = v;\n"
                               "}\n";
    EXPECT_TRUE(splitCollectives(source).empty());
}

} // namespace
} // namespace metalcpu::msl
