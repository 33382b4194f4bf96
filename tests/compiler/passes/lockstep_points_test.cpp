#include "compiler/passes/lockstep_points.h"

#include "compiler/compiler_test_util.h"
#include "compiler/translate.h"

#include <gtest/gtest.h>

#include <string>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source) {
    auto p = testing::parse(source);
    std::string out = testing::runPass(*p, insertLockstepPoints);
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
    return out;
}

constexpr std::string_view kPoint = "::metal::simdgroup_barrier(::metal::mem_flags::mem_none); ";

std::size_t points(const std::string& out) {
    std::size_t n = 0;
    for (std::size_t at = out.find(kPoint); at != std::string::npos; at = out.find(kPoint, at + 1)) ++n;
    return n;
}

// The parameters of the kernels below: a fiber kernel (its collective is an operand).
constexpr std::string_view kHead =
    "kernel void k(device float* o, threadgroup float* ss [[threadgroup(0)]], constant uint& n [[buffer(1)]],\n"
    "              ushort lane [[thread_index_in_simdgroup]], ushort sg [[simdgroup_index_in_threadgroup]]) {\n"
    "    float acc = 0.0f;\n";

// Test the shape llama.cpp's flash attention has: every lane reads `ss`, then after a loop that
// lanes leave by `break`, and in a `{}` block, lane 0 overwrites it: the lanes meet before the
// `if`, and only there.
TEST(LockstepPoints, BeforeALaneStoreAfterReads) {
    const std::string out = rewrite(std::string(kHead) +
                                    "    for (uint it = 0; ; ++it) {\n"
                                    "        if (it >= n) break;\n"
                                    "        acc += simd_sum(ss[lane]) + ss[0];\n"
                                    "    }\n"
                                    "    {\n"
                                    "        if (lane == 0) { ss[0] = acc; ss[1] = 2.0f; }\n"
                                    "    }\n"
                                    "    o[lane] = acc;\n"
                                    "}\n");
    EXPECT_NE(out.find(std::string(kPoint) + "if (lane == 0) { ss[0] = acc;"), std::string::npos) << out;
    EXPECT_EQ(points(out), 1u) << out;
}

// Test the reduce of llama.cpp's flash attention: the `if` sits in a loop with a uniform header
// (its own variable, a constant reference) and under an `if` on the SIMD-group's index, uniform
// across the SIMD-group; the stores go through a `threadgroup` pointer declared in the body,
// by compound assignment, increment and dereference.
TEST(LockstepPoints, UnderUniformLoopsAndIfs) {
    const std::string out = rewrite(std::string(kHead) +
                                    "    threadgroup float* row = ss + 4;\n"
                                    "    for (uint r = n / 2; r > 0; r >>= 1) {\n"
                                    "        if (sg < r) {\n"
                                    "            acc += row[0] + simd_max(acc);\n"
                                    "            if (lane == 0) row[0] += acc;\n"
                                    "            if (lane == 1) { ++row[1]; }\n"
                                    "            if (lane == 2) { *row = 1.0f; }\n"
                                    "        }\n"
                                    "    }\n"
                                    "    o[lane] = acc;\n"
                                    "}\n");
    EXPECT_NE(out.find(std::string(kPoint) + "if (lane == 0) row[0] += acc;"), std::string::npos) << out;
    EXPECT_NE(out.find(std::string(kPoint) + "if (lane == 1) { ++row[1]; }"), std::string::npos) << out;
    EXPECT_NE(out.find(std::string(kPoint) + "if (lane == 2) { *row = 1.0f; }"), std::string::npos) << out;
    EXPECT_EQ(points(out), 3u) << out;
}

// Test the negatives: no rendezvous where some lanes may not reach the `if` (under a
// per-lane `if`, in a loop with a `break` or with a per-lane bound, in a loop whose variable
// the body writes, an unbraced body), nor where it writes no threadgroup memory (device memory,
// a local, a read of `ss`, a declaration initialised from `ss`), nor where its condition is
// uniform across the SIMD-group. The per-lane `if` around a store is a point itself (every
// lane reaches it), and the last `if` is the control: the only two rendezvous.
TEST(LockstepPoints, NotWhereLanesMayNotAllComeOrNothingSharedIsWritten) {
    const std::string out = rewrite(std::string(kHead) +
                                    "    acc += simd_sum(acc) * 2.0f;\n"
                                    "    if (lane < 16) { if (lane == 0) ss[0] = 1.0f; }\n"
                                    "    for (uint i = 0; i < n; ++i) { if (i == 3) break; if (lane == 0) ss[1] = 1.0f; }\n"
                                    "    for (uint i = 0; i < lane; ++i) { if (lane == 0) ss[2] = 1.0f; }\n"
                                    "    for (uint i = 0; i < n; ++i) { i += 1; if (lane == 0) ss[3] = 1.0f; }\n"
                                    "    for (uint i = 0; i < n; ++i) if (lane == 0) ss[4] = 1.0f;\n"
                                    "    if (lane == 0) { o[0] = ss[0]; acc = ss[1]; }\n"
                                    "    if (lane == 0) { threadgroup float* p = ss; acc += p[0]; }\n"
                                    "    if (sg == 0) { ss[5] = acc; }\n"
                                    "    if (lane == 0) { ss[6] = acc; }\n"
                                    "    o[lane] = acc;\n"
                                    "}\n");
    EXPECT_NE(out.find(std::string(kPoint) + "if (lane < 16) { if (lane == 0) ss[0] = 1.0f; }"), std::string::npos)
        << out;
    EXPECT_NE(out.find(std::string(kPoint) + "if (lane == 0) { ss[6] = acc; }"), std::string::npos) << out;
    EXPECT_EQ(points(out), 2u) << out;
}

// Test stores the pass sees through what it knows of pointers and helpers: an `auto` pointer
// into `ss`, a helper of the file taking a non-const threadgroup pointer, and a lambda calling
// it; not a helper taking a pointer to const, nor an `auto` value read from `ss`.
TEST(LockstepPoints, StoresThroughPointersAndHelpers) {
    const std::string out = rewrite("void put(threadgroup float* p, float x) { p[0] = x; }\n"
                                    "float get(threadgroup const float* p) { return p[0]; }\n" +
                                    std::string(kHead) +
                                    "    acc += simd_sum(ss[lane]) * 2.0f;\n"
                                    "    auto p = ss + 1;\n"
                                    "    auto v = ss[2];\n"
                                    "    auto keep = [&](float x) { put(ss, x); };\n"
                                    "    if (lane == 0) { p[0] = acc; }\n"
                                    "    if (lane == 1) { put(ss, acc); }\n"
                                    "    if (lane == 2) { keep(acc); }\n"
                                    "    if (lane == 3) { acc += get(ss); }\n"
                                    "    if (lane == 4) { v = acc; }\n"
                                    "    o[lane] = acc + v;\n"
                                    "}\n");
    for (const char* stored : {"if (lane == 0) { p[0]", "if (lane == 1) { put", "if (lane == 2) { keep"})
        EXPECT_NE(out.find(std::string(kPoint) + stored), std::string::npos) << stored << "\n" << out;
    EXPECT_EQ(points(out), 3u) << out;
}

// Test that kernels on other lowerings are left alone: one without barriers or collectives (a
// loop over its threads, with no rendezvous to call), one split into work-item loops (a
// collective statement), and a kernel whose body has a `goto`.
TEST(LockstepPoints, OnlyFiberKernels) {
    const std::string out = rewrite(
        "kernel void plain(threadgroup float* ss [[threadgroup(0)]], ushort lane [[thread_index_in_simdgroup]]) {\n"
        "    float a = ss[1];\n"
        "    if (lane == 0) ss[1] = a + 1.0f;\n"
        "}\n"
        "kernel void split(threadgroup float* ss [[threadgroup(0)]], device float* o,\n"
        "                  ushort lane [[thread_index_in_simdgroup]]) {\n"
        "    float a = simd_sum(ss[lane]);\n"
        "    if (lane == 0) ss[1] = a;\n"
        "    o[lane] = a;\n"
        "}\n"
        "kernel void jumps(threadgroup float* ss [[threadgroup(0)]], device float* o,\n"
        "                  ushort lane [[thread_index_in_simdgroup]]) {\n"
        "    float a = 0.0f;\n"
        "again:\n"
        "    a += simd_sum(ss[lane]) * 2.0f;\n"
        "    if (lane == 0) ss[1] = a;\n"
        "    if (a < 10.0f) goto again;\n"
        "    o[lane] = a;\n"
        "}\n");
    EXPECT_EQ(points(out), 0u) << out;
}

// Test that a translation lists each kernel's lockstep points by place (what the library
// compiler logs at debug level), and none for a kernel without them.
TEST(LockstepPoints, ListedPerKernel) {
    TranslateOptions options;
    options.mainFile = "l.metal";
    const Translation t = translate(std::string(kHead) +
                                        "    acc += simd_sum(ss[lane] + lane) * 2.0f;\n"
                                        "    if (lane == 0) ss[0] = acc;\n"
                                        "    o[lane] = acc;\n"
                                        "}\n"
                                        "kernel void none(device float* o, ushort lane [[thread_index_in_simdgroup]]) {\n"
                                        "    o[lane] = simd_sum(o[lane]) * 2.0f;\n"
                                        "}\n",
                                    options);
    ASSERT_TRUE(t.ok) << testing::messages(t.diagnostics)[0];
    ASSERT_EQ(t.kernels.size(), 2u);
    EXPECT_EQ(t.kernels[0].lockstepPoints, std::vector<std::string>{"l.metal:5:5"});
    EXPECT_TRUE(t.kernels[1].lockstepPoints.empty());
}

} // namespace
} // namespace metalcpu::msl
