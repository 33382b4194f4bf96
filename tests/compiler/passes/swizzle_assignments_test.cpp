#include "compiler/passes/swizzle_assignments.h"

#include "compiler/compiler_test_util.h"
#include "compiler/passes/member_overloads.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source) {
    auto p = testing::parse(source);
    return testing::runPass(*p, rewriteSwizzleAssignments);
}

// Test that the names of two to four components of one name set are swizzles, and nothing else.
TEST(SwizzleAssignments, SwizzleNames) {
    for (const char* name : {"xy", "yx", "zw", "xyz", "wzyx", "xx", "rg", "bgr", "rgba", "aaaa"})
        EXPECT_TRUE(isSwizzleName(name)) << name;
    for (const char* name : {"x", "r", "xyzwx", "xg", "rz", "xq", "data", "s0", ""})
        EXPECT_FALSE(isSwizzleName(name)) << name;
}

// Test that the `=` of every assignment to a member named like a swizzle goes through __mc_swz,
// whatever the left side's object is: a variable, a pointer, an element, a parenthesised access.
TEST(SwizzleAssignments, LeftSides) {
    EXPECT_EQ(rewrite("void f(float4 v, float4* p, float4* a, int i) { v.xy = v.zw; p->zw = 1; a[i].yx = a[i].xy; "
                      "(v.bgr) = float3(0); a[i + 1].rgba = v; }"),
              "void f(float4 v, float4* p, float4* a, int i) { v.xy ->*__mc_swz= v.zw; p->zw ->*__mc_swz= 1; "
              "a[i].yx ->*__mc_swz= a[i].xy; (v.bgr) ->*__mc_swz= float3(0); a[i + 1].rgba ->*__mc_swz= v; }");
}

// Test that chained assignments, assignments inside expressions, template functions and member
// functions are rewritten too, and that repeated components are (their target refuses them).
TEST(SwizzleAssignments, EveryAssignment) {
    EXPECT_EQ(rewrite("template <class V> void f(V v, V w) { v.xy = w.xy = V(0).xy; g(v.xx = 1); }\n"
                      "struct S { float4 c; void set(float2 x) { c.zw = x; this->c.xy = x; } };"),
              "template <class V> void f(V v, V w) { v.xy ->*__mc_swz= w.xy ->*__mc_swz= V(0).xy; "
              "g(v.xx ->*__mc_swz= 1); }\n"
              "struct S { float4 c; void set(float2 x) { c.zw ->*__mc_swz= x; this->c.xy ->*__mc_swz= x; } };");
}

// Test that single components, compound assignments, reads, comparisons, members of swizzles,
// declarations and designators are left alone.
TEST(SwizzleAssignments, LeftAlone) {
    const std::string source =
        "struct P { float2 xy; };\n"
        "void f(float4 v, float2 w) { v.x = 1; v.xy += w; v.zw *= 2; w = v.xy; bool b = v.xy == w; "
        "v.xy.x = 0; float2 xy = w; xy = w; ++v.x; P p = {.xy = w}; }";
    EXPECT_EQ(rewrite(source), source);
}

// Test that the assignments of a declaration an earlier pass erased (an address-space overload
// collapsed away) are left to it: no second rewrite, so no overlap report.
TEST(SwizzleAssignments, SkipsErasedDeclarations) {
    auto p = testing::parse(
        "struct S { float4 v; void f(float2 a) device { v.xy = a; } void f(float2 a) thread { v.xy = a; } };");
    EXPECT_EQ(testing::runPasses(*p, {collapseAddressSpaceOverloads, rewriteSwizzleAssignments}),
              "struct S { float4 v; void f(float2 a) thread { v.xy ->*__mc_swz= a; } };");
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
}

} // namespace
} // namespace metalcpu::msl
