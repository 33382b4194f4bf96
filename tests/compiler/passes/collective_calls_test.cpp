#include "compiler/passes/collective_calls.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source) {
    auto p = testing::parse(source);
    std::string out = testing::runPass(*p, markCollectiveCalls);
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
    return out;
}

constexpr std::string_view kSite = "(::metalcpu_kernel::simd_call_site(), ";

std::string wrapped(std::string_view call) { return std::string(kSite) + std::string(call) + ")"; }

// Test that calls of functions reaching a collective, directly or through another function,
// carry their site, and that the collectives themselves, functions reaching none and
// functions with only a threadgroup barrier are left alone.
TEST(CollectiveCalls, WrapsCallsOfFunctionsReachingCollectives) {
    const std::string out = rewrite("uint direct(uint x) { return simd_sum(x); }\n"
                                    "uint indirect(uint x) { return direct(x) + 1; }\n"
                                    "uint plain(uint x) { return x * 2; }\n"
                                    "void fence() { threadgroup_barrier(mem_flags::mem_none); }\n"
                                    "kernel void k(device uint* o, uint i [[thread_position_in_grid]]) {\n"
                                    "    o[i] = indirect(plain(i)); fence(); o[i] += simd_max(i);\n"
                                    "}\n");
    EXPECT_NE(out.find("return " + wrapped("direct(x)") + " + 1;"), std::string::npos) << out;
    EXPECT_NE(out.find("o[i] = " + wrapped("indirect(plain(i))") + "; fence(); o[i] += simd_max(i);"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("return simd_sum(x);"), std::string::npos) << out;
}

// Test that a local object declared with parentheses, named like a function that reaches a
// collective (candle's `block_reducer<T, OP, N> reduce(shared);` inside a function `reduce`),
// stays a declaration, and that calling it is marked as a call.
TEST(CollectiveCalls, DirectInitialisedObjectNamedLikeAFunction) {
    const std::string out =
        rewrite("template <typename T, ushort N> struct block_reducer {\n"
                "    threadgroup T* shared;\n"
                "    block_reducer(threadgroup T* s) { shared = s; }\n"
                "    T operator()(T v) { return simd_sum(v); }\n"
                "};\n"
                "template <typename T, ushort N> T reduce(threadgroup T* shared, T v) {\n"
                "    block_reducer<T, N> reduce(shared);\n"
                "    return reduce(v);\n"
                "}\n"
                "kernel void k(device float* o, uint i [[thread_position_in_grid]]) {\n"
                "    threadgroup float s[64];\n"
                "    o[i] = reduce<float, 64>(s, o[i]);\n"
                "}\n");
    EXPECT_NE(out.find("block_reducer<T, N> reduce(shared);"), std::string::npos) << out;
    EXPECT_NE(out.find("return " + wrapped("reduce(v)") + ";"), std::string::npos) << out;
    EXPECT_NE(out.find("o[i] = " + wrapped("reduce<float, 64>(s, o[i])") + ";"), std::string::npos) << out;
}

// Test that qualified calls and calls with template arguments are wrapped whole, from their
// qualification on.
TEST(CollectiveCalls, QualifiedAndTemplateCalls) {
    const std::string out = rewrite("namespace ns { template <int N> float r(float x) { return simd_sum(x) * N; } }\n"
                                    "template <class T> struct S { static T r(T x) { return simd_max(x); } };\n"
                                    "kernel void k(device float* o, uint i [[thread_position_in_grid]]) {\n"
                                    "    o[i] = ns::r<4>(o[i]) + ::ns::r<2>(1.0f) + S<float>::r(o[i]);\n"
                                    "}\n");
    EXPECT_NE(out.find("o[i] = " + wrapped("ns::r<4>(o[i])") + " + " + wrapped("::ns::r<2>(1.0f)") + " + " +
                       wrapped("S<float>::r(o[i])") + ";"),
              std::string::npos)
        << out;
}

// Test that a member call is wrapped from the start of the object it is called on, through
// subscripts, calls, members, `this`, parentheses and named casts.
TEST(CollectiveCalls, MemberCallsFromTheirObject) {
    const std::string out = rewrite("struct Op { float reduce(float x) const { return simd_sum(x); }\n"
                                    "  template <class T> T each(T x) const { return simd_max(x); }\n"
                                    "  float twice(float x) const { return this->reduce(x) * 2; } };\n"
                                    "struct Holder { Op op[2]; const Op* p;\n"
                                    "  const Op& get() const { return op[0]; } };\n"
                                    "kernel void k(device float* o, uint i [[thread_position_in_grid]]) {\n"
                                    "    Op op; Holder h;\n"
                                    "    o[i] = op.reduce(o[i]);\n"
                                    "    o[i] = h.op[1].template each<float>(o[i]);\n"
                                    "    o[i] = h.get().reduce(1.0f) + h.p->reduce(2.0f) + (*h.p).reduce(3.0f);\n"
                                    "    o[i] = static_cast<const Op&>(op).reduce(4.0f);\n"
                                    "}\n");
    EXPECT_NE(out.find("return " + wrapped("this->reduce(x)") + " * 2;"), std::string::npos) << out;
    EXPECT_NE(out.find("o[i] = " + wrapped("op.reduce(o[i])") + ";"), std::string::npos) << out;
    EXPECT_NE(out.find("o[i] = " + wrapped("h.op[1].template each<float>(o[i])") + ";"), std::string::npos) << out;
    EXPECT_NE(out.find("o[i] = " + wrapped("h.get().reduce(1.0f)") + " + " + wrapped("h.p->reduce(2.0f)") + " + " +
                       wrapped("(*h.p).reduce(3.0f)")),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("o[i] = " + wrapped("static_cast<const Op&>(op).reduce(4.0f)") + ";"), std::string::npos)
        << out;
}

// Test that calls in unevaluated operands make no rendezvous and are left alone, and that a
// call in a local class's member body (inside the kernel's body) is wrapped once. (The
// scanner does not list a local class's members, so calls of them stay as they are.)
TEST(CollectiveCalls, UnevaluatedOperandsAndNestedBodies) {
    const std::string out = rewrite("float r(float x) { return simd_sum(x); }\n"
                                    "kernel void k(device float* o, uint i [[thread_position_in_grid]]) {\n"
                                    "    decltype(r(1.0f)) a = r(o[i]);\n"
                                    "    struct L { float f(float x) { return r(x); } } l;\n"
                                    "    o[i] = a + sizeof(r(a)) + l.f(a);\n"
                                    "}\n");
    EXPECT_NE(out.find("decltype(r(1.0f)) a = " + wrapped("r(o[i])") + ";"), std::string::npos) << out;
    EXPECT_NE(out.find("{ return " + wrapped("r(x)") + "; }"), std::string::npos) << out;
    EXPECT_EQ(out.find(std::string(kSite) + std::string(kSite)), std::string::npos) << out;
    EXPECT_NE(out.find("o[i] = a + sizeof(r(a)) + l.f(a);"), std::string::npos) << out;
}

} // namespace
} // namespace metalcpu::msl
