#include "compiler/passes/work_item_loops.h"

#include "compiler/compiler_test_util.h"
#include "compiler/findings.h"
#include "compiler/pipeline.h"
#include "compiler/unit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace metalcpu::msl {
namespace {

struct Result {
    std::string text;                    ///< after the passes up to the work-item loops
    std::vector<std::string> split;      ///< names of the kernels split into work-item loops
    std::vector<std::string> coroutines; ///< coroutine kernels that were not
    std::vector<std::string> messages;
};

// The real pipeline up to the work-item loops (so `device` and `thread` are gone and `%` is
// the division pass's checked operator); which kernels get which lowering, from analyse().
Result rewrite(std::string_view source) {
    Result r;
    {
        auto p = testing::parse(source);
        const Unit unit(p->tokens, p->partner, p->module);
        const Findings found = analyse(unit, p->module, TranslateOptions{}, p->diagnostics);
        for (const WorkItemKernel& k : found.workItemKernels) r.split.push_back(p->module.functions[k.function].name);
        for (const CoroutineKernel& c : found.coroutineKernels)
            r.coroutines.push_back(p->module.functions[c.function].name);
    }
    auto p = testing::parse(source);
    r.text = testing::runPassesUntil(*p, "work-item-loops");
    r.messages = p->messages();
    return r;
}

const std::string kGroup = "[[maybe_unused]] const ::mc_group* __mc_group";
const std::string kPiece = "::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& "
                           "__mc_t) __attribute__((always_inline)) { (void)__mc_t; ";

/// Whether `source` (one kernel `k`) is split into work-item loops, with the rewrite checked
/// to have happened only then.
bool splits(const std::string& source) {
    Result r = rewrite(source);
    EXPECT_TRUE(r.messages.empty()) << r.messages[0];
    const bool split = r.split == std::vector<std::string>{"k"};
    EXPECT_EQ(split, r.text.find("run_work_items") != std::string::npos) << r.text;
    EXPECT_EQ(split, r.coroutines.empty()) << "a barrier kernel is one or the other";
    return split;
}

/// Whether `source` (one kernel `k` with SIMD-group functions) keeps the fibers: neither split
/// into work-item loops nor a coroutine, untouched by the pass.
bool keepsFibers(const std::string& source) {
    Result r = rewrite(source);
    EXPECT_TRUE(r.messages.empty()) << r.messages[0];
    EXPECT_TRUE(r.coroutines.empty()) << "a kernel with SIMD-group functions is never a coroutine";
    return r.split.empty() && r.text.find("run_work_items") == std::string::npos;
}

/// A kernel body with `a` (device float*), `n` (constant uint&), `i` and `local` (per-thread
/// builtins) and `size` (a uniform builtin).
std::string kernel(const std::string& body) {
    return "kernel void k(device float* a, constant uint& n, uint i [[thread_index_in_threadgroup]],\n"
           "              uint2 local [[thread_position_in_threadgroup]], uint size [[threads_per_threadgroup]]) {\n" +
           body + "\n}";
}

/// `declaration`, then a kernel whose loop over `t` holds a barrier and `call`.
std::string loopCalling(const std::string& declaration, const std::string& call) {
    return declaration + "\n" +
           kernel("  for (uint t = 0; t < n; ++t) {\n    threadgroup_barrier(mem_flags::mem_none);\n    " + call + "\n  }");
}

// Test the rewrite of a kernel with one barrier: the setup after `{`, one piece per side of the
// barrier, the per-thread builtin rebound in each piece that names it, the variable that
// lives across the barrier placed in its slot by the piece declaring it, loaded and stored
// back by the next, and the barrier a call at group level that shader validation's threadgroup
// watch counts (nothing in the plain flavour).
TEST(WorkItemLoops, OneBarrier) {
    Result r = rewrite("kernel void k(device float* a, uint i [[thread_index_in_threadgroup]]) {\n"
                       "  float x = a[i];\n"
                       "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                       "  a[i + 1] = x;\n"
                       "}");
    EXPECT_EQ(r.split, std::vector<std::string>{"k"});
    const std::string rebind =
        "__mc_b1 i = ::metalcpu_kernel::builtin<__mc_b1, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__mc_group, __mc_t); ";
    EXPECT_EQ(r.text, "inline void k( float* a, uint i , " + kGroup + ") { "
                      "::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_b1 = decltype(i); "
                      "using __mc_t0 = float; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>();\n" +
                          kPiece + rebind + "{ float x = a[i]; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], x); } });\n"
                          "::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);\n" +
                          kPiece + rebind + "__mc_t0 x = __mc_v0[__mc_t.slot]; { a[i + 1] = x; } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], x); });\n"
                          "}");
    EXPECT_TRUE(r.messages.empty());
}

// Test that a loop holding barriers runs once per group: its header stays, per-thread
// variables read there come from the first live thread's slot, threadgroup declarations and
// constants stay outside the pieces, and a variable the loop writes is stored back.
TEST(WorkItemLoops, LoopHoldingBarriers) {
    Result r = rewrite(kernel("  constexpr uint kTile = 4;\n"
                              "  uint rounds = n;\n"
                              "  float acc = 0;\n"
                              "  for (uint t = 0; t < rounds; ++t) {\n"
                              "    threadgroup float tile[kTile];\n"
                              "    tile[i % kTile] = a[t];\n"
                              "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                              "    acc += tile[(i + 1) % kTile];\n"
                              "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                              "  }\n"
                              "  a[i] = acc;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"});
    EXPECT_NE(r.text.find("constexpr uint kTile = 4;\n" + kPiece), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("for (uint t = 0; t < (__mc_v0[__mc_wi.lead()]); ++t) {\n"
                          "auto& tile = ::metalcpu_kernel::threadgroup_variable<float[kTile], 0x100001ull>(__mc_group);\n" +
                          kPiece),
              std::string::npos)
        << r.text;
    // Pieces store back what they load, unless it is const.
    EXPECT_NE(r.text.find("__mc_t1 acc = __mc_v1[__mc_t.slot]; { acc += tile[(i + 1) %__mc_div->* kTile]; } "
                          "::metalcpu_kernel::place(__mc_v1[__mc_t.slot], acc); });"),
              std::string::npos)
        << r.text;
    EXPECT_NE(r.text.find("__mc_t1 acc = __mc_v1[__mc_t.slot]; { a[i] = acc; } "
                          "::metalcpu_kernel::place(__mc_v1[__mc_t.slot], acc); });\n}"),
              std::string::npos)
        << r.text;
    // No thread returns, so nothing tracks returns.
    EXPECT_NE(r.text.find("work_items<false>"), std::string::npos);
    EXPECT_EQ(r.text.find("all_returned"), std::string::npos);
}

// Test that with a return, threads drop out: `return` retires the thread and every loop that
// runs once per group stops when all threads have returned.
TEST(WorkItemLoops, ReturnsRetireTheThread) {
    Result r = rewrite(kernel("  if (i >= n) return;\n"
                              "  while (true) {\n"
                              "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                              "    if (a[i] > 0) { return; }\n"
                              "  }"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"});
    EXPECT_NE(r.text.find("work_items<true> __mc_wi(__mc_group);"), std::string::npos);
    EXPECT_NE(r.text.find("{ if (i >= n) return __mc_wi.retire(__mc_t); } });"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("while (true) { if (__mc_wi.all_returned()) break;"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("{ if (a[i] > 0) { return __mc_wi.retire(__mc_t); } } });"), std::string::npos) << r.text;
}

// Test that only builtins that differ per thread are rebound, and only in pieces naming them.
TEST(WorkItemLoops, UniformBuiltinsAreNotRebound) {
    Result r = rewrite(kernel("  a[size] = 1;\n"
                              "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                              "  a[local.x] = 2;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"});
    EXPECT_EQ(r.text.find("decltype(size)"), std::string::npos) << r.text;
    EXPECT_EQ(r.text.find("decltype(i)"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find(kPiece + "{ a[size] = 1; } });"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find(kPiece + "__mc_b3 local = ::metalcpu_kernel::builtin<__mc_b3, "
                                   "MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__mc_group, __mc_t); { a[local.x] = 2; } });"),
              std::string::npos)
        << r.text;
}

// Test that loaded variables are stored back at the end of the piece, however the piece
// writes them (through a reference, a member, `>>=`), except const ones.
TEST(WorkItemLoops, StoredBackUnlessConst) {
    Result r = rewrite("void f(thread float& x);\n" +
                       kernel("  const uint j = i;\n"
                              "  float x = 0; float2 v = 0; uint s = 8;\n"
                              "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                              "  thread float& r = x; r += 1; v.y = a[j]; s >>= 1;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"});
    EXPECT_NE(r.text.find("__mc_t1 x = __mc_v1[__mc_t.slot]; __mc_t2 v = __mc_v2[__mc_t.slot]; __mc_t0 j = "
                          "__mc_v0[__mc_t.slot]; __mc_t3 s = __mc_v3[__mc_t.slot]; "
                          "{ float& r = x; r += 1; v.y = a[j]; s >>= 1; } "
                          "::metalcpu_kernel::place(__mc_v1[__mc_t.slot], x); "
                          "::metalcpu_kernel::place(__mc_v2[__mc_t.slot], v); "
                          "::metalcpu_kernel::place(__mc_v3[__mc_t.slot], s); });"),
              std::string::npos)
        << r.text;
    EXPECT_NE(r.text.find("using __mc_t0 = const uint;"), std::string::npos);
}

// Test the variables kept in their slots: an array, and a variable whose address is taken, is
// declared as a reference to the thread's slot, constructed there from its initializer (a
// braced list, an expression, a parenthesised list, or default-initialised without one), and
// every later piece binds the slot by reference and stores nothing back; the other
// declarators of the declaration stay copies.
TEST(WorkItemLoops, KeptInPlace) {
    Result r = rewrite(kernel("  float v[4] = {a[i]}, x = 1, m[2][3], s(2);\n"
                              "  float4 w[2]{1, 2};\n"
                              "  threadgroup_barrier(mem_flags::mem_none);\n"
                              "  thread float* p = &s; *p += v[0] + x + m[1][2] + w[1].x;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"});
    EXPECT_NE(r.text.find("using __mc_t0 = float [4]; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); "
                          "using __mc_t1 = float; auto* const __mc_v1 = __mc_wi.slots<__mc_t1>(); "
                          "using __mc_t2 = float [2][3]; auto* const __mc_v2 = __mc_wi.slots<__mc_t2>(); "
                          "using __mc_t3 = float; auto* const __mc_v3 = __mc_wi.slots<__mc_t3>(); "
                          "using __mc_t4 = float4 [2];"),
              std::string::npos)
        << r.text;
    EXPECT_NE(r.text.find("{ float (&v)[4] = ::metalcpu_kernel::emplace(__mc_v0[__mc_t.slot], __mc_t0{a[i]}), "
                          "x = 1, (&m)[2][3] = ::metalcpu_kernel::emplace(__mc_v2[__mc_t.slot]), "
                          "&s = ::metalcpu_kernel::emplace(__mc_v3[__mc_t.slot], __mc_t3(2));\n"
                          "float4 (&w)[2] = ::metalcpu_kernel::emplace(__mc_v4[__mc_t.slot], __mc_t4{1, 2}); "
                          "(void)v; ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], x); (void)m; (void)s; (void)w; } });"),
              std::string::npos)
        << r.text;
    EXPECT_NE(r.text.find("__mc_t3& s = __mc_v3[__mc_t.slot]; __mc_t0& v = __mc_v0[__mc_t.slot]; "
                          "__mc_t1 x = __mc_v1[__mc_t.slot]; __mc_t2& m = __mc_v2[__mc_t.slot]; "
                          "__mc_t4& w = __mc_v4[__mc_t.slot]; { float* p = &s;"),
              std::string::npos)
        << r.text;
    EXPECT_NE(r.text.find("} ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], x); });"), std::string::npos) << r.text;

    // Several declarators of pointers: each its own type. (The parameter `a`, alone in a
    // braced list, which could initialise an aggregate holding a reference, counts as written:
    // it has slots too, first.)
    r = rewrite(kernel("  device float *p = a, q = 0, *u[2] = {a, a};\n"
                       "  threadgroup_barrier(mem_flags::mem_none);\n  *p = q + *u[1];"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"});
    EXPECT_NE(r.text.find("using __mc_t1 = float *; auto* const __mc_v1 = __mc_wi.slots<__mc_t1>(); "
                          "using __mc_t2 = float; auto* const __mc_v2 = __mc_wi.slots<__mc_t2>(); "
                          "using __mc_t3 = float * [2];"),
              std::string::npos)
        << r.text;
}

// Test that const variables initialised from nothing thread-specific run once per group, so
// that threadgroup declarations and later constant expressions can use them.
TEST(WorkItemLoops, ConstantsRunOncePerGroup) {
    Result r = rewrite(kernel("  const uint kTile = 4 * 2;\n"
                              "  threadgroup float tile[kTile];\n"
                              "  const uint j = i % kTile;\n"
                              "  tile[j] = 0;\n"
                              "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                              "  vec<float, kTile> v = 0; a[j] = tile[kTile - 1 - j] + v[0];"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"});
    EXPECT_NE(r.text.find("slots<__mc_t0>();\nconst uint kTile = 4 * 2;\nauto& tile = "
                          "::metalcpu_kernel::threadgroup_variable"),
              std::string::npos)
        << r.text;
    EXPECT_NE(r.text.find("{ const uint j = i %__mc_div->* kTile;"), std::string::npos) << r.text; // per thread

    // A const initialised by a call (an atomic, say) runs in every thread.
    r = rewrite(kernel("  threadgroup atomic_uint count;\n"
                       "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                       "  const uint slot = atomic_fetch_add_explicit(&count, 1u, memory_order_relaxed);\n"
                       "  const uint twice = slot * 2;\n"
                       "  a[slot] = twice;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"});
    EXPECT_NE(r.text.find("{ const uint slot = atomic_fetch_add_explicit(&count, 1u, memory_order_relaxed);\n"
                          "const uint twice = slot * 2;\na[slot] = twice; } });"),
              std::string::npos)
        << r.text;
    // So does a declaration of several constants, one of them by a call.
    r = rewrite(kernel("  threadgroup atomic_uint count;\n"
                       "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                       "  const uint slot = atomic_fetch_add_explicit(&count, 1u, memory_order_relaxed), two = 2;\n"
                       "  a[slot] = two;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"});
    EXPECT_NE(r.text.find("{ const uint slot = atomic_fetch_add_explicit(&count, 1u, memory_order_relaxed), two = 2;"),
              std::string::npos)
        << r.text;
    // So does one that writes with a compound assignment (`+=`, `>>=` lexed `>` `>=`): the
    // unit's assignment roles see them, where the spellings `=` and `++` did not.
    for (const std::string write : {"+=", ">>="}) {
        r = rewrite(kernel("  threadgroup uint total;\n"
                           "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                           "  const uint mine = (total " + write + " 1u);\n"
                           "  a[i] = mine;"));
        ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << write;
        EXPECT_NE(r.text.find("{ const uint mine = (total " + write + " 1u);"), std::string::npos) << r.text;
    }
}

// Test the shapes that are split: if/else and do-while holding barriers, break and continue
// inside loops of one piece, switch with break, writes through pointer arguments, a loop
// variable read in the pieces.
TEST(WorkItemLoops, SplitShapes) {
    EXPECT_TRUE(splits(kernel("  if (n > 1) {\n    threadgroup_barrier(mem_flags::mem_none);\n  } else {\n"
                              "    a[i] = 0;\n    threadgroup_barrier(mem_flags::mem_none);\n  }")));
    EXPECT_TRUE(splits(kernel("  uint k = 0;\n  do {\n    threadgroup_barrier(mem_flags::mem_none);\n    ++k;\n"
                              "  } while (k < n);")));
    EXPECT_TRUE(splits(kernel("  for (uint t = 0; t < n; ++t) {\n    for (uint j = 0; j < 4; ++j) {\n"
                              "      if (j == t) continue;\n      if (j > t) break;\n      a[i] += a[j];\n    }\n"
                              "    switch (t) { case 0: break; default: a[t] = 1; }\n"
                              "    threadgroup_barrier(mem_flags::mem_device);\n  }")));
    EXPECT_TRUE(splits(kernel("  {\n    float x = a[0];\n    threadgroup_barrier(mem_flags::mem_none);\n"
                              "    a[i] = x;\n  }\n  a[i] += 1;")));
    EXPECT_TRUE(splits(kernel("  device float* p = a + i;\n  threadgroup_barrier(mem_flags::mem_none);\n"
                              "  *p = 1; p[1] = 2;")));
    // A loop whose own variable halves in its header, and a condition read from a per-thread
    // variable and a uniform builtin.
    EXPECT_TRUE(splits(kernel("  uint left = n;\n  for (uint s = size / 2; s > 0 && left > 0; s >>= 1) {\n"
                              "    threadgroup_barrier(mem_flags::mem_none);\n    left--;\n  }")));
    // Several plain names in one declaration live across a barrier, each with the type.
    EXPECT_TRUE(splits(kernel("  float x = a[i], y = 2;\n  threadgroup_barrier(mem_flags::mem_none);\n"
                              "  a[i] = x + y;")));
    // Loops and branches without braces holding barriers, nested, and an else-if chain.
    EXPECT_TRUE(splits(kernel("  a[i] = 1;\n  if (n > 1) threadgroup_barrier(mem_flags::mem_none);\n  a[i] += 1;")));
    EXPECT_TRUE(splits(kernel("  for (uint t = 0; t < n; ++t)\n    for (uint u = 0; u < t; ++u)\n"
                              "      threadgroup_barrier(mem_flags::mem_none);\n  a[i] = 0;")));
    EXPECT_TRUE(splits(kernel("  if (n == 0) {\n    a[i] = 0;\n  } else if (n == 1) {\n"
                              "    threadgroup_barrier(mem_flags::mem_none);\n    a[i] = 1;\n"
                              "  } else\n    threadgroup_barrier(mem_flags::mem_none);")));
}

// Test per-thread variables whose type names a constant of the body's own block: their slots
// are made once per group just before the piece that declares them, after the constant.
TEST(WorkItemLoops, SlotsAfterBodyConstants) {
    Result r = rewrite(kernel("  constexpr uint N = 2;\n  const uint M = N + 1;\n  float x[N] = {a[i]};\n"
                              "  vec<float, M> v = a[i];\n  threadgroup_barrier(mem_flags::mem_none);\n"
                              "  a[i] = x[1] + v[2];"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    const std::size_t constant = r.text.find("const uint M = N + 1;");
    const std::size_t slots = r.text.find("using __mc_t0 = float [N]; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); "
                                          "using __mc_t1 = vec<float, M>; auto* const __mc_v1 = __mc_wi.slots<__mc_t1>(); " + kPiece);
    ASSERT_NE(slots, std::string::npos) << r.text;
    EXPECT_LT(constant, slots);
    const std::size_t made = r.text.find("__mc_wi.slots<__mc_t0>");
    EXPECT_EQ(r.text.find("__mc_wi.slots<__mc_t0>", made + 1), std::string::npos) << "made once" << r.text;
}

// Test arrays whose bound comes from their braced initializer: the elements are counted for
// the slot's type and the declarator (a trailing comma, nested braces and template arguments
// with commas included).
TEST(WorkItemLoops, BoundsCountedFromInitializers) {
    Result r = rewrite(kernel("  float x[] = {a[i], float(vec<float, 2>(1, 2).y), 0,};\n"
                              "  float y[][2] = {{1, 2}, {a[i], 4}};\n"
                              "  threadgroup_barrier(mem_flags::mem_none);\n  a[i] = x[2] + y[1][0];"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_NE(r.text.find("using __mc_t0 = float [3];"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("float (&x)[3] = ::metalcpu_kernel::emplace(__mc_v0[__mc_t.slot], __mc_t0{"),
              std::string::npos)
        << r.text;
    EXPECT_NE(r.text.find("using __mc_t1 = float [2][2];"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("float (&y)[2][2] = "), std::string::npos) << r.text;
}

// Test that a loop's own variable may be passed to what cannot write it: a file function
// taking it by value or const reference (every overload of the name), a library function, a
// type conversion, a template with explicit arguments that are not references.
TEST(WorkItemLoops, LoopVariablesPassedByValue) {
    const std::vector<std::pair<std::string, std::string>> readers = {
        {"void take(device float* a, uint k, threadgroup float* d);", "take(a, t, nullptr);"},
        {"void take(float x); void take(const thread uint& k);", "take(t);"},
        {"void take(thread const uint& k);", "take(t);"},
        {"void take(const thread uint* p, uint k);", "take(nullptr, t);"},
        {"template <class T> void take(T k);", "take<uint>(t);"},
        {"namespace ns { void take(uint k); }", "ns::take(t);"},
        {"", "a[i] = min(t, n) + metal::max(t, 1u) + float(t) + uint2(t, t).y;"},
        {"", "a[i] = modf(a[i], a[1]) + sincos(float(t), a[2]);"},
    };
    for (const auto& [declaration, call] : readers)
        EXPECT_TRUE(splits(loopCalling(declaration, call))) << declaration << " " << call;
}

// Test the shapes that stay coroutines, one per rule.
TEST(WorkItemLoops, CoroutineShapes) {
    // A barrier in a switch.
    EXPECT_FALSE(splits(kernel("  switch (n) { case 1: threadgroup_barrier(mem_flags::mem_none); break; }")));
    // Leaving a loop that holds barriers from a piece; goto and labels.
    EXPECT_FALSE(splits(kernel("  for (;;) {\n    threadgroup_barrier(mem_flags::mem_none);\n    if (a[0] > 0) break;\n  }")));
    EXPECT_FALSE(splits(kernel("  while (n > 0) {\n    if (a[i] > 0) continue;\n    threadgroup_barrier(mem_flags::mem_none);\n  }")));
    EXPECT_FALSE(splits(kernel("  again:\n  threadgroup_barrier(mem_flags::mem_none);\n  if (a[i] > 0) goto again;")));
    // Variables living across a barrier that cannot have slots.
    const std::vector<std::string> declarations = {
        "auto x = a[i];", "device float& x = a[i];", "float y[2]; thread float* x = y;",
        "struct S { float v; }; S x{1};", "static float x = 0;", "float x[][2] = {1, 2};",
        "float x[] = {[1] = 2};",
        "float y = 0, &x = y;"};
    for (const std::string& d : declarations)
        EXPECT_FALSE(splits(kernel("  " + d + "\n  threadgroup_barrier(mem_flags::mem_none);\n  a[i] = x;"))) << d;
    // ... also when a loop or an if holding barriers follows (its header check once overwrote
    // the failure, and the piece ran once per group: issue 10's per-thread array miscompile and
    // its flash-attention kernel's `'__mc_t' was not declared`).
    EXPECT_FALSE(splits(kernel("  float x[][2] = {a[i], 0};\n  for (uint t = 0; t < n; ++t) {\n"
                               "    threadgroup_barrier(mem_flags::mem_none);\n    a[i] += x[0][t % 2];\n  }")));
    EXPECT_FALSE(splits(kernel("  if (size > 64) return;\n  float y = 0, &x = y;\n  while (n > 0) {\n"
                               "    threadgroup_barrier(mem_flags::mem_none);\n    y += x;\n"
                               "    threadgroup_barrier(mem_flags::mem_none);\n  }")));
    EXPECT_FALSE(splits(kernel("  float x[][2] = {a[i], 0};\n  if (n > 0) {\n"
                               "    threadgroup_barrier(mem_flags::mem_none);\n    a[i] = x[0][1];\n  }")));
    // A loop header writing a per-thread variable; a piece writing the loop's own variable.
    EXPECT_FALSE(splits(kernel("  uint t = 0;\n  for (; t < n; ++t) {\n    threadgroup_barrier(mem_flags::mem_none);\n  }")));
    EXPECT_FALSE(splits(kernel("  for (uint t = 0; t < n;) {\n    threadgroup_barrier(mem_flags::mem_none);\n    t += 2;\n  }")));
    // Loop and if headers: set up from a per-thread builtin or variable, naming a per-thread
    // builtin, declaring a variable in an if or while.
    EXPECT_FALSE(splits(kernel("  for (uint k = i; k < 64; k += 16) {\n    threadgroup_barrier(mem_flags::mem_none);\n  }")));
    EXPECT_FALSE(splits(kernel("  uint base = i * 4;\n  for (uint k = base; k < 4; ++k) {\n"
                               "    threadgroup_barrier(mem_flags::mem_none);\n  }")));
    EXPECT_FALSE(splits(kernel("  while (i < n) {\n    threadgroup_barrier(mem_flags::mem_none);\n  }")));
    EXPECT_FALSE(splits(kernel("  if (uint m = n; m > 0) {\n    threadgroup_barrier(mem_flags::mem_none);\n  }")));
    EXPECT_FALSE(splits(kernel("  while (uint m = n) {\n    threadgroup_barrier(mem_flags::mem_none);\n  }")));
    // A loop variable a piece may write through a reference: a parameter of the file's
    // function (any overload of the name), a pack, a library out-parameter, a member
    // function, a callable or type of the file, a reference bound to it.
    const std::vector<std::pair<std::string, std::string>> writers = {
        {"void bump(thread uint& k);", "bump(t);"},
        {"void bump(float x); void bump(thread uint& k);", "bump(t);"},
        {"void bump(float x, thread uint& k);", "bump(1.0f, t);"},
        {"void bump(thread uint (&k)[1]);", "bump(t);"},
        {"template <class... T> void bump(T&&... k);", "bump(t);"},
        {"template <class T> void bump(T k);", "bump<thread uint&>(t);"},
        {"namespace ns { void bump(thread uint& k); }", "ns::bump(t);"},
        {"struct Bumper { void operator()(thread uint& k) const; };\nconstant Bumper bump{};", "bump(t);"},
        {"struct Bump { thread uint& r; };", "(void)Bump{t};"},
        {"", "(void)metal::modf(1.5f, t);"},
        {"", "a[0] = sincos(a[0], t);"},
        {"", "auto bump = [](thread uint& k) { k += 1; };\n    bump(t);"},
    };
    for (const auto& [declaration, call] : writers)
        EXPECT_FALSE(splits(loopCalling(declaration, call))) << declaration << " " << call;
    EXPECT_FALSE(splits("struct C { void bump(thread uint& k) thread; };\n" +
                        kernel("  C c;\n  for (uint t = 0; t < n; ++t) {\n    threadgroup_barrier(mem_flags::mem_none);\n"
                               "    c.bump(t);\n  }")));
    EXPECT_FALSE(splits(kernel("  for (uint t = 0; t < n; ++t) {\n    threadgroup_barrier(mem_flags::mem_none);\n"
                               "    thread uint& r = t; r = 5;\n  }")));
    // Declarations the pass cannot follow: decltype, structured bindings, a local type, a
    // per-thread variable whose type names a constant of the body.
    EXPECT_FALSE(splits(kernel("  decltype(n) m = n;\n  threadgroup_barrier(mem_flags::mem_none);\n  a[m] = 0;")));
    EXPECT_FALSE(splits(kernel("  auto [p, q] = uint2(1, 2);\n  threadgroup_barrier(mem_flags::mem_none);\n  a[p] = q;")));
    EXPECT_FALSE(splits(kernel("  struct P { uint x; };\n  P p{i};\n  threadgroup_barrier(mem_flags::mem_none);\n"
                               "  a[p.x] = 0;")));
    EXPECT_FALSE(splits(kernel("  for (uint t = 0; t < n; ++t) {\n    constexpr uint N = 2;\n    vec<float, N> v = a[i];\n"
                               "    threadgroup_barrier(mem_flags::mem_none);\n    a[i] = v[0];\n  }")));
    EXPECT_FALSE(splits(kernel("  struct S { float x; };\n  threadgroup_barrier(mem_flags::mem_none);\n"
                               "  S s = {a[i]}; a[i] = s.x;")));
    EXPECT_FALSE(splits(kernel("  enum Sizes { kTile = 16 };\n  const uint tile = kTile;\n"
                               "  threadgroup float t[16];\n  t[i % tile] = 1;\n"
                               "  threadgroup_barrier(mem_flags::mem_none);\n  a[i] = t[(i + 1) % tile];")));
    // A loop condition that may write a per-thread variable (a reference parameter).
    EXPECT_FALSE(splits("bool advance(thread uint& k);\n" +
                        kernel("  uint step = 0;\n  while (advance(step)) {\n"
                               "    threadgroup_barrier(mem_flags::mem_none);\n    a[i] += step;\n  }")));
    // A written builtin with slots named in a header that runs once per group (it differs per
    // thread, as the builtin does).
    EXPECT_FALSE(splits(kernel("  i += 1;\n  while (i < n) {\n    threadgroup_barrier(mem_flags::mem_none);\n  }")));
    // A texture parameter written: only pointers and builtins get slots.
    EXPECT_FALSE(splits("kernel void k(texture2d<float> t [[texture(0)]], texture2d<float> u [[texture(1)]]) {\n"
                        "  t = u;\n  threadgroup_barrier(mem_flags::mem_none);\n}"));
}

// Test parameters the body writes: each gets a slot per thread, typed as the parameter,
// filled before the first piece with the parameter's value (for a builtin that differs per
// thread, the thread's own), and loaded and stored back like a per-thread variable by the
// pieces that name it, instead of rebound. A reference parameter written is memory, which
// the threads share: no slot.
TEST(WorkItemLoops, WrittenParameters) {
    Result r = rewrite(kernel("  a += i * n;\n  local.x += 1;\n"
                              "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                              "  a[local.x] = 1;\n  i++;\n"
                              "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                              "  a[i] = size;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_NE(r.text.find("using __mc_t0 = decltype(a); auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); "
                          "using __mc_t1 = decltype(local); auto* const __mc_v1 = __mc_wi.slots<__mc_t1>(); "
                          "using __mc_t2 = decltype(i); auto* const __mc_v2 = __mc_wi.slots<__mc_t2>(); " +
                          kPiece +
                          "::metalcpu_kernel::place(__mc_v0[__mc_t.slot], a); "
                          "::metalcpu_kernel::place(__mc_v1[__mc_t.slot], ::metalcpu_kernel::builtin<decltype(local), "
                          "MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__mc_group, __mc_t)); "
                          "::metalcpu_kernel::place(__mc_v2[__mc_t.slot], ::metalcpu_kernel::builtin<decltype(i), "
                          "MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__mc_group, __mc_t)); });"),
              std::string::npos)
        << r.text;
    // The parameters in the order of their first write: a, local, i.
    EXPECT_NE(r.text.find(kPiece + "__mc_t0 a = __mc_v0[__mc_t.slot]; __mc_t2 i = __mc_v2[__mc_t.slot]; "
                                   "__mc_t1 local = __mc_v1[__mc_t.slot]; { a += i * n;\nlocal.x += 1; } "
                                   "::metalcpu_kernel::place(__mc_v0[__mc_t.slot], a); "
                                   "::metalcpu_kernel::place(__mc_v2[__mc_t.slot], i); "
                                   "::metalcpu_kernel::place(__mc_v1[__mc_t.slot], local); });"),
              std::string::npos)
        << r.text;
    // Neither builtin is rebound; the uniform one keeps the parameter.
    EXPECT_EQ(r.text.find("__mc_b"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("{ a[i] = size; }"), std::string::npos) << r.text;

    // Passed where a non-const reference may bind it, or its address taken (kept in place).
    r = rewrite("void advance(device float*& p);\n" +
                kernel("  advance(a);\n  threadgroup_barrier(mem_flags::mem_none);\n  a[0] = 1;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_NE(r.text.find("using __mc_t0 = decltype(a);"), std::string::npos) << r.text;
    r = rewrite(kernel("  device float** p = &a;\n  *p += 1;\n  threadgroup_barrier(mem_flags::mem_none);\n"
                       "  a[0] = 1;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_NE(r.text.find(kPiece + "__mc_t0& a = __mc_v0[__mc_t.slot]; { a[0] = 1; } });"), std::string::npos)
        << r.text;

    // A texture handed to a helper that may take it by reference: a handle, not judged
    // written (only assigning it is an obstacle).
    EXPECT_TRUE(splits("kernel void k(texture2d<float> t [[texture(0)]], device float* a,\n"
                       "              uint i [[thread_index_in_threadgroup]]) {\n"
                       "  auto width = [](texture2d<float> u) { return float(u.get_width()); };\n"
                       "  a[i] = width(t);\n  threadgroup_barrier(mem_flags::mem_none);\n  a[i] += 1;\n}"));

    // Read only, through elements, or a reference: no slot.
    r = rewrite("kernel void k(device float* a, device uint& total, uint i [[thread_index_in_threadgroup]]) {\n"
                "  a[i] = 0;\n  if (i == 0) total = 1;\n  threadgroup_barrier(mem_flags::mem_none);\n  total += a[i];\n}");
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_EQ(r.text.find("slots<"), std::string::npos) << r.text;
}

// Test SIMD-group function statements under an `if` whose condition differs per thread (MLX's
// second reduction stage): the condition runs once per thread into a guard slot before the
// branches, every piece of a branch is skipped by the threads that do not take it, and the
// collective's first loop marks which threads take part. An if holding a barrier, a condition
// that writes or declares, a branch without braces and a loop inside reading per-thread state
// keep the fibers.
TEST(WorkItemLoops, DivergentIfs) {
    const std::string mlx = "  threadgroup float partial[32];\n  partial[i % 32] = a[i];\n"
                            "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                            "  if (i < 32) {\n    float s = i < n ? partial[i] : 0;\n    s = simd_sum(s);\n"
                            "    if (i == 0) a[0] = s;\n  }";
    Result r = rewrite(kernel(mlx));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_NE(r.text.find("bool* const __mc_g0 = __mc_wi.slots<bool>();"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("__mc_g0[__mc_t.slot] = bool(i < 32); });"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("::metalcpu_kernel::simd_mark(__mc_c0, __mc_wi, __mc_t, __mc_g0[__mc_t.slot]); "
                          "if (!(__mc_g0[__mc_t.slot])) return;"),
              std::string::npos)
        << r.text;
    EXPECT_EQ(r.text.find("if (i < 32"), std::string::npos) << r.text;

    r = rewrite(kernel("  float s = a[i];\n  if (i % 3 == 0) {\n    s = simd_sum(s);\n  } else {\n"
                       "    s = simd_max(s);\n    if (local.y == 0) {\n      s = simd_min(s);\n    }\n  }\n"
                       "  a[i] = s;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_NE(r.text.find("if (!(!__mc_g0[__mc_t.slot])) return;"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("if (!(!__mc_g0[__mc_t.slot])) return; __mc_b3 local"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("if (!(!__mc_g0[__mc_t.slot] && __mc_g1[__mc_t.slot])) return;"), std::string::npos)
        << r.text;
    EXPECT_EQ(r.text.find("else"), std::string::npos) << r.text;

    // Uniform conditions keep running once per group.
    r = rewrite(kernel("  float s = a[i];\n  if (n > 2 && size > 1) {\n    s = simd_sum(s);\n  }\n  a[i] = s;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_EQ(r.text.find("__mc_g0"), std::string::npos) << r.text;
    // ... but a condition that calls something runs per thread: it can differ per thread
    // without naming per-thread state (an atomic counter, a helper reading memory).
    r = rewrite(kernel("  float s = a[i];\n  if (pick(n) > 2) {\n    s = simd_sum(s);\n  }\n  a[i] = s;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_NE(r.text.find("__mc_g0[__mc_t.slot] = bool(pick(n) > 2);"), std::string::npos) << r.text;

    EXPECT_TRUE(keepsFibers(kernel("  if (i < 32) {\n    float s = simd_sum(a[i]);\n"
                               "    threadgroup_barrier(mem_flags::mem_none);\n    a[i] = s;\n  }")));
    EXPECT_TRUE(keepsFibers(kernel("  uint x = i;\n  if (x++ > 0) {\n    float s = simd_sum(a[i]);\n    a[i] = s;\n  }")));
    EXPECT_TRUE(keepsFibers(kernel("  uint x = i;\n  if ((x = 2) > 0) {\n    float s = simd_sum(a[i]);\n    a[i] = s;\n  }")));
    EXPECT_TRUE(keepsFibers(kernel("  if (uint m = i % 2; m > 0) {\n    float s = simd_sum(a[i]);\n    a[i] = s;\n  }")));
    EXPECT_TRUE(keepsFibers(kernel("  float s = a[i];\n  if (i < 32) {\n    s = simd_sum(s);\n  } else if (i < 64) {\n"
                               "    s = simd_max(s);\n  }\n  a[i] = s;")));
    // Branches without braces: a statement after `else` is a collective statement as one
    // after `if (...)` is, and neither splits.
    EXPECT_TRUE(keepsFibers(kernel("  float s = a[i];\n  if (i < 32)\n    s = simd_sum(s);\n  else\n"
                               "    s = simd_max(s);\n  a[i] = s;")));
    EXPECT_TRUE(keepsFibers(kernel("  float s = a[i];\n  uint m = i % 4;\n  if (i < 32) {\n"
                               "    for (uint k = 0; k < m; ++k) {\n      s = simd_sum(s);\n    }\n  }\n  a[i] = s;")));
}

// Test that under a divergent if nothing that can fault runs once per group: when no thread
// takes the branch, the original never evaluates a division or an index there. A constant
// that divides is declared per thread, in the guarded piece; a group loop whose header
// divides keeps the fibers. (SimdgroupKernels.DivergentBranchesEvaluateOnlyWhereTaken runs
// kernels of this shape.)
TEST(WorkItemLoops, DivergentBranchesRunNothingFaultingOncePerGroup) {
    Result r = rewrite(kernel("  const uint m = 4;\n  float s = a[i];\n  if (i < m) {\n    const uint c = 2;\n"
                              "    const uint q = 64 / m;\n    s = simd_sum(s);\n    a[i] = s * q * c;\n  }"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    const std::size_t guarded = r.text.find("if (!(__mc_g0[__mc_t.slot])) return;");
    ASSERT_NE(guarded, std::string::npos) << r.text;
    EXPECT_GT(r.text.find("const uint q"), guarded) << r.text;
    EXPECT_LT(r.text.find("const uint c"), guarded) << "a harmless constant still runs once per group\n" << r.text;
    EXPECT_TRUE(keepsFibers(kernel("  const uint m = 4;\n  float s = a[i];\n  if (i < m) {\n"
                                   "    for (uint k = 0; k < 64 / m; ++k) {\n      s = simd_sum(s);\n    }\n  }\n"
                                   "  a[i] = s;")));
    EXPECT_TRUE(splits(kernel("  const uint m = 4;\n  float s = a[i];\n  if (i < m) {\n"
                              "    for (uint k = 0; k < m; ++k) {\n      s = simd_sum(s);\n    }\n  }\n  a[i] = s;")));
    // A dereference reads memory as an index does: `*a` and `p->n` in such a header keep the
    // fibers too, where the same header outside the if splits.
    for (const char* bound : {"*a", "a[0]"}) {
        const std::string loop = std::string("    for (uint k = 0; k < ") + bound + "; ++k) {\n      s = simd_sum(s);\n    }\n";
        EXPECT_TRUE(keepsFibers(kernel("  float s = a[i];\n  if (i < 4) {\n" + loop + "  }\n  a[i] = s;"))) << bound;
        EXPECT_TRUE(splits(kernel("  float s = a[i];\n" + loop + "  a[i] = s;"))) << bound;
    }
}

// Test the SIMD-group function statements the unit's assignment roles let the planner see
// right: `x >>= simd_f(...)` (lexed `>` `>=`) is a whole statement's value and splits, and an
// argument that writes with `>>=` keeps the kernel off the work-item loops (the first loop
// would write a copy of the variable that the second never sees).
TEST(WorkItemLoops, ShiftAssignmentsAroundCollectives) {
    Result r = rewrite(kernel("  uint x = a[i];\n  x >>= simd_shuffle_down(x, 1u);\n  a[i] = x;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_NE(r.text.find("{ x >>= ::metalcpu_kernel::simd_collect<"), std::string::npos) << r.text;

    r = rewrite(kernel("  uint x = a[i];\n  uint y = simd_sum(x >>= 1);\n  a[i] = x + y;"));
    EXPECT_TRUE(r.split.empty()) << r.text;
    EXPECT_TRUE(r.coroutines.empty()) << "SIMD-group functions keep the fibers";
    EXPECT_EQ(r.text.find("run_work_items"), std::string::npos) << r.text;
}

// Test that a collective helper (a function whose body is `return simd_f(params);`) called as
// a whole statement is split at like the collective itself: free and member helpers, the
// member's object handed in first, the helper called on a copy under simd_helper_scope; and
// what keeps the fibers: a helper in an operand, one taking a reference, one named as a value.
// Helpers of several statements or collectives are staged helpers (collective_helpers_test.cpp).
TEST(WorkItemLoops, CollectiveHelperStatements) {
    const std::string helpers = "float scan(float x) { return simd_prefix_inclusive_sum(x); }\n"
                                "struct Sum { float total(float x, ushort d) { return metal::simd_shuffle_down(x, d); } };\n";
    Result r = rewrite(helpers + kernel("  Sum op;\n  float x = a[i];\n  float y = scan(x);\n"
                                        "  x = op.total(y, 1);\n  a[i] = x + y;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_TRUE(r.messages.empty()) << r.messages[0];
    EXPECT_NE(r.text.find("{ const ::metalcpu_kernel::simd_helper_scope __mc_h(__mc_w); return scan(__mc_a...); }, "
                          "__mc_wi, __mc_t, x); });"),
              std::string::npos)
        << r.text;
    EXPECT_NE(r.text.find("float y = ::metalcpu_kernel::simd_collect<decltype(::metalcpu_kernel::simd_arguments(x))>"),
              std::string::npos)
        << r.text;
    EXPECT_NE(r.text.find("[](const ::metalcpu_kernel::simd_site& __mc_w, const auto& __mc_o, const auto&... __mc_a) "
                          "__attribute__((always_inline)) { const ::metalcpu_kernel::simd_helper_scope __mc_h(__mc_w); "
                          "auto __mc_s = __mc_o; return __mc_s.total(__mc_a...); }, __mc_wi, __mc_t, op, y, 1); });"),
              std::string::npos)
        << r.text;
    EXPECT_EQ(r.text.find("simd_call_site"), std::string::npos) << "a split helper call is not a fiber's call: " << r.text;
    // A member spelt like Metal's functions, as MLX's Op structs name theirs.
    r = rewrite("struct CumSum { float simd_scan(float x) { return simd_prefix_inclusive_sum(x); } };\n" +
                kernel("  CumSum op;\n  float y = op.simd_scan(a[i]);\n  a[i] = y;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_NE(r.text.find("return __mc_s.simd_scan(__mc_a...); }, __mc_wi, __mc_t, op, a[i]); });"), std::string::npos)
        << r.text;

    const std::string scan = "float scan(float x) { return simd_prefix_inclusive_sum(x); }\n";
    EXPECT_TRUE(keepsFibers(scan + kernel("  a[i] = 2.0f * scan(a[i]);")));
    // Helpers of more than one collective or statement run staged (collective_helpers_test.cpp).
    EXPECT_FALSE(keepsFibers("float scan(float x) { x += 1.0f; return simd_prefix_inclusive_sum(x); }\n" +
                            kernel("  float y = scan(a[i]);\n  a[i] = y;")));
    EXPECT_FALSE(keepsFibers("float scan(float x) { return simd_prefix_inclusive_sum(x++); }\n" +
                            kernel("  float y = scan(a[i]);\n  a[i] = y;")));
    EXPECT_FALSE(keepsFibers("float scan(float x) { return simd_prefix_inclusive_sum(abs(x)); }\n" +
                            kernel("  float y = scan(a[i]);\n  a[i] = y;")));
    EXPECT_TRUE(keepsFibers("float scan(thread float& x) { return simd_prefix_inclusive_sum(x); }\n" +
                            kernel("  float x = a[i];\n  float y = scan(x);\n  a[i] = y;")));
    EXPECT_FALSE(keepsFibers(scan + "float outer(float x) { return scan(x); }\n" +
                            kernel("  float y = scan(a[i]);\n  float z = outer(y);\n  a[i] = z;")));
    EXPECT_TRUE(keepsFibers(scan + "constant auto fn = &scan;\n" + kernel("  float y = scan(a[i]);\n  a[i] = y;")));
    EXPECT_FALSE(keepsFibers(scan + "struct Max { float scan(float x) { for (int k = 1; k < 32; k *= 2) "
                                   "x = max(x, simd_shuffle_up(x, ushort(k))); return x; } };\n" +
                            kernel("  Max op;\n  float y = op.scan(a[i]);\n  a[i] = y;")));
}

// Test that a SIMD-group function statement whose tokens an earlier pass rewrote (the
// division pass, in its argument) is taken over whole: the arguments carry that rewrite into
// both loops, and no overlap is reported.
TEST(WorkItemLoops, CollectiveTakesOverEarlierRewrites) {
    Result r = rewrite(kernel("  float s = simd_sum(a[i] / n);\n  threadgroup_barrier(mem_flags::mem_none);\n"
                              "  a[i] = s;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_TRUE(r.messages.empty()) << r.messages[0];
    const std::string divided = "a[i] /__mc_div->* n";
    EXPECT_NE(r.text.find("__mc_wi, __mc_t, " + divided + "); });"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("simd_arguments(" + divided + "))>(__mc_c0"), std::string::npos) << r.text;
}

// Test that variables used only between two barriers stay locals of their piece, and a
// variable shadowed in a nested loop is not loaded there.
TEST(WorkItemLoops, PieceLocalsStayLocal) {
    Result r = rewrite(kernel("  float x = a[i];\n  a[i] = x;\n"
                              "  threadgroup_barrier(mem_flags::mem_none);\n"
                              "  float y = a[0];\n  a[i] = y;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"});
    EXPECT_EQ(r.text.find("slots"), std::string::npos) << r.text;
}

// Test that the pieces next to a product run in its two loops (tinygrad's WMMA loop body: the
// operands set, the product, the result read back): the piece before it opens its first loop
// and hands in the operands after its own statements, the piece after it takes the result
// first and closes the second loop, each in a block of its own; no other loop is left. A
// piece with something between it and the product (the loop's header) keeps its loop.
TEST(WorkItemLoops, PiecesNextToAProductRunInItsLoops) {
    const auto loops = [](const std::string& text, const std::string& runner) {
        std::size_t n = 0;
        for (std::size_t at = text.find(runner); at != std::string::npos; at = text.find(runner, at + 1)) ++n;
        return n;
    };
    Result r = rewrite(kernel("  float2 acc = float2(0.0f);\n  for (uint t = 0; t < n; ++t) {\n"
                              "    simdgroup_float8x8 x, y;\n    x.thread_elements() = float2(a[i], a[i + 1]);\n"
                              "    y.thread_elements() = acc;\n    simdgroup_multiply_accumulate(y, x, x, y);\n"
                              "    acc = y.thread_elements();\n  }\n  a[i] = acc.x;"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_EQ(loops(r.text, "::metalcpu_kernel::run_deposit_work_items(__mc_wi, __mc_c0, "), 1u) << r.text;
    EXPECT_EQ(loops(r.text, "::metalcpu_kernel::run_product_collect_work_items(__mc_wi, __mc_c0, "), 1u) << r.text;
    // The declaration of acc before the loop and its store after it: a loop each.
    EXPECT_EQ(loops(r.text, "::metalcpu_kernel::run_work_items(__mc_wi, "), 2u) << r.text;
    const std::size_t deposit = r.text.find("run_deposit_work_items"), handIn = r.text.find("simd_deposit_product");
    const std::size_t collect = r.text.find("run_product_collect_work_items"), take = r.text.find("simd_collect_product");
    EXPECT_LT(deposit, r.text.find("x.thread_elements() = float2(a[i], a[i + 1]);"));
    EXPECT_LT(r.text.find("y.thread_elements() = acc;"), handIn);
    EXPECT_LT(handIn, collect);
    EXPECT_LT(take, r.text.find("acc = y.thread_elements();"));
    EXPECT_NE(r.text.find("{ acc = y.thread_elements(); } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], acc); "
                          "::metalcpu_kernel::place(__mc_v2[__mc_t.slot], y); } });"),
              std::string::npos)
        << r.text;

    // The piece after a loop whose body is the product, written without braces, is not in that
    // body (no `}` between them): it keeps its loop, after the product's.
    r = rewrite(kernel("  simdgroup_float8x8 x, y;\n  x.thread_elements() = float2(a[i], a[i + 1]);\n"
                       "  for (uint t = 0; t < n; ++t)\n    simdgroup_multiply_accumulate(y, x, x, y);\n"
                       "  a[i] = y.thread_elements()[0];"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_EQ(loops(r.text, "::metalcpu_kernel::run_work_items(__mc_wi, "), 2u) << r.text;
    EXPECT_NE(r.text.find("}); }\n::metalcpu_kernel::run_work_items(__mc_wi, "), std::string::npos) << r.text;

    // A piece that loads or stores a matrix (it learns its lanes) keeps its loop: in the
    // product's, simdgroup_matrix_bench took 23% more instructions.
    r = rewrite(kernel("  simdgroup_float8x8 x, y;\n  simdgroup_load(x, a);\n  simdgroup_multiply(y, x, x);\n"
                       "  simdgroup_store(y, a + 64);"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_EQ(loops(r.text, "::metalcpu_kernel::run_work_items(__mc_wi, "), 2u) << r.text;
}

// Test that the product of a matrix's vec<T, 64> storage (metal-flash-attention's
// `t = __metal_simdgroup_matrix_8x8_multiply_accumulate(a.t, b.t, t, storage_type());`) is a
// collective statement when it is an assignment's whole value, and keeps the fibers in an operand.
TEST(WorkItemLoops, StorageProductsAreCollectiveStatements) {
    const std::string setup = "  vec<float, 64> x, y;\n"
                              "  *reinterpret_cast<thread float2*>(&x) = float2(a[i], a[i + 1]);\n  y = x;\n";
    Result r = rewrite(kernel(setup +
                              "  y = __metal_simdgroup_matrix_8x8_multiply_accumulate(x, x, y, vec<float, 64>());\n"
                              "  a[i] = (*reinterpret_cast<thread float2*>(&y))[0];"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_NE(r.text.find("::metalcpu_kernel::simd_deposit(__mc_c0, [](const ::metalcpu_kernel::simd_site& __mc_w, "
                          "const auto&... __mc_a) __attribute__((always_inline)) { return "
                          "__metal_simdgroup_matrix_8x8_multiply_accumulate(__mc_a..., __mc_w); }"),
              std::string::npos)
        << r.text;
    EXPECT_TRUE(keepsFibers(kernel(setup + "  y = 2.0f * __metal_simdgroup_matrix_8x8_multiply_accumulate(x, x, y, "
                                           "vec<float, 64>());\n  a[i] = y[0];")));
}

// Test that a SIMD-group matrix product as a call statement is a collective statement: the
// first loop hands in every argument but the first, with the first's type (which product it
// is), the second writes each thread's result to the first; the pieces that load and store
// learn their lanes, the others do not.
TEST(WorkItemLoops, MatrixProductsAreCollectiveStatements) {
    Result r = rewrite(kernel("  simdgroup_float8x8 x, y;\n  simdgroup_load(x, a);\n"
                              "  simdgroup_load(y, a, 8, 0, true);\n  metal::simdgroup_multiply_accumulate(y, x, y, y);\n"
                              "  simdgroup_store(y, a + 64);"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_NE(r.text.find("::metalcpu_kernel::simd_deposit_product<decltype(::metalcpu_kernel::simd_destination(y))>("
                          "__mc_c0, __mc_wi, __mc_t, x, y, y); });"),
              std::string::npos)
        << r.text;
    EXPECT_NE(r.text.find("{ ::metalcpu_kernel::simd_collect_product(y, __mc_c0, __mc_t) ; }"), std::string::npos)
        << r.text;
    const std::string lane = "simd_lane_scope __mc_lane(__mc_wi, __mc_t);";
    const std::size_t first = r.text.find(lane);
    ASSERT_NE(first, std::string::npos) << r.text;
    EXPECT_LT(first, r.text.find("simdgroup_load(x, a)"));
    EXPECT_GT(r.text.find(lane, first + 1), r.text.find("simd_collect_product")) << "the store's piece";
    EXPECT_EQ(r.text.find(lane, r.text.find(lane, first + 1) + 1), std::string::npos) << "only those two" << r.text;

    // Products in loops and branches without braces: each body gets braces around its pieces.
    r = rewrite(kernel("  simdgroup_float8x8 x(1.0f), y(0.0f);\n  if (n > 0) simdgroup_multiply(y, x, x);\n"
                       "  for (uint t = 0; t < n; ++t)\n    for (uint u = 0; u < 2; ++u)\n"
                       "      simdgroup_multiply_accumulate(y, x, x, y);\n  simdgroup_store(y, a);"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    // (A statement's pieces run in its site's loops, over generic lambdas.)
    const auto depositPiece = [](const std::string& site) {
        return "::metalcpu_kernel::run_deposit_work_items(__mc_wi, " + site +
               ", [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; ";
    };
    EXPECT_NE(r.text.find("if (n > 0) { " + depositPiece("__mc_c0")), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("for (uint t = 0; t < n; ++t)\n{ for (uint u = 0; u < 2; ++u)\n{ " + depositPiece("__mc_c1")),
              std::string::npos)
        << r.text;
    EXPECT_NE(r.text.find("}); } }\n"), std::string::npos) << r.text;


    // A kernel with loads, stores and diagonals but no barrier or product is one piece.
    r = rewrite(kernel("  simdgroup_float8x8 x(2.0f);\n  simdgroup_float8x8 y;\n  simdgroup_load(y, a);\n"
                       "  simdgroup_store(y, a + 64);\n  simdgroup_store(x, a);"));
    ASSERT_EQ(r.split, std::vector<std::string>{"k"}) << r.text;
    EXPECT_NE(r.text.find(lane), std::string::npos) << r.text;
}

// Test the matrix forms that keep the fibers: a product as an operand or in a lambda, a load
// in a lambda or in the header of a loop that runs once per group, a product writing a
// loop's own variable, a matrix function in a helper.
TEST(WorkItemLoops, MatrixFormsThatKeepFibers) {
    const std::string declare = "  simdgroup_float8x8 x, y;\n  simdgroup_load(x, a);\n";
    EXPECT_TRUE(keepsFibers(kernel(declare + "  auto f = [&] { simdgroup_multiply(y, x, x); };\n  f();\n"
                                             "  simdgroup_store(y, a);")));
    EXPECT_TRUE(keepsFibers(kernel(declare + "  auto f = [&] { simdgroup_load(y, a); };\n  f();")));
    EXPECT_TRUE(keepsFibers(kernel(declare + "  for (simdgroup_load(y, a); n > 0;) {\n"
                                             "    threadgroup_barrier(mem_flags::mem_none);\n  }")));
    EXPECT_TRUE(keepsFibers(kernel("  for (simdgroup_float8x8 x; n > 0;) {\n    simdgroup_multiply(x, x, x);\n  }")));
    EXPECT_TRUE(keepsFibers("void load(device float* a, thread simdgroup_float8x8& x) { simdgroup_load(x, a); }\n" +
                            kernel("  simdgroup_float8x8 x;\n  load(a, x);\n  simdgroup_store(x, a);")));
}

// Test that kernels outside the coroutine rules (a barrier in a helper) are not considered.
TEST(WorkItemLoops, OnlyCoroutineKernels) {
    Result r = rewrite("void sync() { threadgroup_barrier(mem_flags::mem_threadgroup); }\n"
                       "kernel void k() {\n  sync();\n}");
    EXPECT_TRUE(r.split.empty());
    EXPECT_EQ(r.text.find("run_work_items"), std::string::npos);
}

} // namespace
} // namespace metalcpu::msl
