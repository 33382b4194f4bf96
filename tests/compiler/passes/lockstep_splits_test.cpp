// Where kernels split into work-item loops get a piece boundary for SIMD-group lockstep: the
// threads run a piece one after another, so a lane-0 store to threadgroup memory after reads of
// it in the same piece needs the piece split before the store's `if` (passes/lockstep_points.h,
// passes/work_item_loops.h). Counted against a control kernel that stores to device memory
// instead, which must have exactly the pieces it had before.
#include "compiler/passes/lockstep_points.h"
#include "compiler/passes/work_item_loops.h"

#include "compiler/compiler_test_util.h"
#include "compiler/findings.h"
#include "compiler/pipeline.h"
#include "compiler/translate.h"
#include "compiler/unit.h"

#include <gtest/gtest.h>

#include <string>

namespace metalcpu::msl {
namespace {

/// How kernel `k` of `source` is split: its pieces, or -1 when it is not split into work-item
/// loops; `loops` counts its loops that run once per group.
struct Split {
    long pieces = -1;
    long loops = 0;
};

Split splitOf(const std::string& source) {
    auto p = testing::parse(source);
    const Unit unit(p->tokens, p->partner, p->module);
    const Findings found = analyse(unit, p->module, TranslateOptions{}, p->diagnostics);
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
    Split s;
    for (const WorkItemKernel& k : found.workItemKernels)
        if (p->module.functions[k.function].name == "k") {
            s.pieces = static_cast<long>(k.regions.size());
            s.loops = static_cast<long>(k.loopBodies.size());
        }
    return s;
}

/// Kernel `k` with `body`, and `helpers` before it. `ss` is threadgroup memory, `o` device
/// memory, `lane` and `sg` per-thread builtins, `n` a uniform count.
std::string kernel(const std::string& body, const std::string& helpers = "") {
    return helpers + "kernel void k(device float* o [[buffer(0)]], constant uint& n [[buffer(1)]],\n"
                     "              threadgroup float* ss [[threadgroup(0)]],\n"
                     "              ushort lane [[thread_index_in_simdgroup]],\n"
                     "              ushort sg [[simdgroup_index_in_threadgroup]]) {\n"
                     "    ss[lane] = o[lane];\n"
                     "    const float s = simd_sum(o[lane]);\n"
                     "    float acc = 0.0f;\n" +
           body + "    o[lane] = acc + s;\n}\n";
}

/// Expects `more` pieces in the kernel with `body` than in the one with `control` (the same
/// with the threadgroup stores made stores to device memory).
void expectSplit(const std::string& body, const std::string& control, long more, bool loopsToo = false) {
    const Split with = splitOf(kernel(body));
    const Split without = splitOf(kernel(control));
    ASSERT_GE(without.pieces, 0) << control;
    EXPECT_EQ(with.pieces, without.pieces + more) << body;
    if (loopsToo) {
        EXPECT_GT(with.loops, without.loops) << body;
    }
}

// Test llama.cpp's shape, as its flash attention has it in one piece: every lane reads `ss`,
// then lane 0 overwrites it: the `if` starts a piece.
TEST(LockstepSplits, BeforeALaneStoreAfterReadsInThePiece) {
    expectSplit("    for (uint c = 0; c < 32; ++c) acc += ss[c];\n"
                "    if (lane == 0) { ss[0] = -1.0f; ss[1] = -1.0f; }\n",
                "    for (uint c = 0; c < 32; ++c) acc += ss[c];\n"
                "    if (lane == 0) { o[0] = -1.0f; o[1] = -1.0f; }\n",
                1);
}

// Test a store in the same loop as the reads, which the piece would otherwise run whole per
// thread: the loop runs once per group, its body split before the `if` (three pieces where
// there was one: before the loop, the loop body's two, after it).
TEST(LockstepSplits, InALoopThatReads) {
    expectSplit("    for (uint r = 0; r < n; ++r) {\n"
                "        acc += ss[r];\n"
                "        if (lane == 0) { ss[0] = acc; }\n"
                "    }\n",
                "    for (uint r = 0; r < n; ++r) {\n"
                "        acc += ss[r];\n"
                "        if (lane == 0) { o[0] = acc; }\n"
                "    }\n",
                3, /*loopsToo=*/true);
}

// Test stores the front end sees only through what the address spaces say: a helper that
// writes through its threadgroup pointer or reference parameter (or one of a template type),
// and `auto` and declared pointers and references into `ss`. (An `auto` variable cannot live
// across pieces, so those are declared in the `if`.)
TEST(LockstepSplits, StoresThroughHelpersAndPointers) {
    const std::string helpers = "void put(threadgroup float* p, float x) { p[0] = x; }\n"
                                "void set(threadgroup float& r, float x) { r = x; }\n"
                                "template <typename P> void any(P p, float x) { p[0] = x; }\n"
                                "void deduced(auto p, float x) { p[0] = x; }\n";
    const std::string read = "    threadgroup float* p = ss + 4;\n    for (uint c = 0; c < 32; ++c) acc += ss[c];\n";
    const Split without = splitOf(kernel(read + "    if (lane == 0) { o[0] = acc; }\n", helpers));
    ASSERT_GE(without.pieces, 0);
    for (const std::string store :
         {"if (lane == 0) { put(ss, acc); }", "if (lane == 0) { set(ss[1], acc); }", "if (lane == 0) { any(ss + 1, acc); }",
          "if (lane == 0) { deduced(ss, acc); }",
          "if (lane == 0) { auto q = ss + 1; q[0] = acc; }", "if (lane == 0) { auto* r = &ss[2]; *r += acc; }",
          "if (lane == 0) { auto& t = ss[3]; t = acc; }", "if (lane == 0) { p[1] = acc; }"})
        EXPECT_EQ(splitOf(kernel(read + "    " + store + "\n", helpers)).pieces, without.pieces + 1) << store;
}

// Test the negatives, which keep their pieces: no read of threadgroup memory before the store in
// its piece (reads in an earlier piece, or after the store), a uniform condition, helpers that
// take a pointer to const (of a template type too), a value read from `ss` into an `auto`
// variable, a loop lanes may leave by `break` (not every lane reaches the store), and a store
// to device memory.
TEST(LockstepSplits, NotWhereNoReadComesFirstInThePiece) {
    const std::string helpers = "float get(threadgroup const float* p, float x) { return p[0] + x; }\n"
                                "template <typename T> T first(threadgroup const T* p) { return p[0]; }\n";
    for (const std::string body : {
             "    if (lane == 0) { ss[0] = s; }\n    acc += ss[0];\n",
             "    for (uint c = 0; c < 32; ++c) acc += ss[c];\n    if (n > 4) { ss[0] = s; }\n",
             "    for (uint c = 0; c < 32; ++c) acc += ss[c];\n    if (lane == 0) { acc = get(ss, acc); }\n",
             "    for (uint c = 0; c < 32; ++c) acc += ss[c];\n    if (lane == 0) { acc = first(ss); }\n",
             "    auto v = ss[1];\n    if (lane == 0) { v = 2.0f; }\n    acc += v;\n",
             "    for (uint r = 0; r < n; ++r) { if (r == 3) break; acc += ss[r]; if (lane == 0) ss[0] = acc; }\n",
             "    for (uint c = 0; c < 32; ++c) acc += ss[c];\n    if (lane == 0) { o[1] = s; }\n",
         }) {
        const Split with = splitOf(kernel(body, helpers));
        // The same kernel with the `if`s taken out of the picture: a uniform condition.
        std::string control = body;
        for (std::size_t at = control.find("if (lane == 0)"); at != std::string::npos;
             at = control.find("if (lane == 0)"))
            control.replace(at, 14, "if (n == 0u)");
        const Split without = splitOf(kernel(control, helpers));
        ASSERT_GE(without.pieces, 0) << control;
        EXPECT_EQ(with.pieces, without.pieces) << body;
    }
}

// Test that a kernel whose lockstep split the planner cannot make (the loop around the store
// starts at the lane, which differs within the SIMD-group, so it can run neither once per group
// nor as a divergent loop) is still split into work-item loops as it was, not refused; from the
// SIMD-group's index, uniform in the SIMD-group, the loop is a divergent loop and split there.
TEST(LockstepSplits, WithoutTheSplitWhereItCannotBeMade) {
    const std::string loop = "; r < n; r += 4) {\n"
                             "        acc += ss[r];\n"
                             "        if (lane == 0) { ss[0] = acc; }\n"
                             "    }\n";
    Split s = splitOf(kernel("    for (uint r = lane" + loop));
    EXPECT_EQ(s.pieces, 3) << "the store, the sum's two loops, and the rest";
    s = splitOf(kernel("    for (uint r = sg" + loop));
    EXPECT_GT(s.pieces, 3) << "split in the loop too";
}

// Test that a translation lists the `if`s a work-item kernel's pieces are split for, as it lists
// a fiber kernel's points (what the library compiler logs at debug level): the one in a loop and
// the one after a read after it, not the one with no read before it in its piece, nor one in a
// loop that reads and holds a barrier (split there anyway).
TEST(LockstepSplits, Listed) {
    TranslateOptions options;
    options.mainFile = "s.metal";
    const Translation t = translate(kernel("    if (lane == 1) { ss[1] = s; }\n"
                                           "    for (uint r = 0; r < n; ++r) {\n"
                                           "        threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                                           "        if (lane == 3) { ss[3] = ss[4]; }\n"
                                           "    }\n"
                                           "    for (uint r = 0; r < n; ++r) {\n"
                                           "        acc += ss[r];\n"
                                           "        if (lane == 0) { ss[0] = acc; }\n"
                                           "    }\n"
                                           "    acc += ss[5];\n"
                                           "    if (lane == 2) { ss[2] = acc; }\n"),
                                    options);
    ASSERT_EQ(t.kernels.size(), 1u);
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops);
    EXPECT_EQ(t.kernels[0].lockstepPoints, (std::vector<std::string>{"s.metal:15:9", "s.metal:18:5"}));
}

// Test what the pass hands the planner: the `if`s, and which names point into threadgroup
// memory (declared so, or `auto` pointers and references initialised from one, not values).
TEST(LockstepSplits, ThreadgroupNames) {
    auto p = testing::parse(kernel("    auto q = ss + 1;\n    auto v = ss[1];\n    threadgroup float* r = q;\n"
                                   "    auto& t = r[0];\n    if (lane == 0) { t = v; }\n"));
    const Unit unit(p->tokens, p->partner, p->module);
    const Findings found = analyse(unit, p->module, TranslateOptions{}, p->diagnostics);
    const std::size_t k = found.parameters.begin()->first;
    const LockstepIfs ifs = findLockstepIfs(unit, k, found.parameters.at(k));
    EXPECT_EQ(ifs.threadgroupNames, (std::set<std::string>{"ss", "q", "r", "t"}));
    EXPECT_EQ(ifs.ifs.size(), 1u);
    EXPECT_EQ(ifs.addressInitializers.size(), 3u) << "q's, r's and t's";
}

} // namespace
} // namespace metalcpu::msl
