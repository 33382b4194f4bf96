#include "compiler/passes/argument_buffers.h"

#include "compiler/compiler_test_util.h"
#include "compiler/unit.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::vector<ArgumentStruct> structsOf(std::string_view source) {
    auto p = testing::parse(source);
    const Unit unit(p->tokens, p->partner, p->module);
    return findArgumentStructs(unit);
}

std::string ids(const ArgumentStruct& s) {
    std::string out;
    for (const ArgumentMember& m : s.members) out += m.name + "=" + std::to_string(m.id) + " ";
    return out;
}

// Test the ids of an argument-buffer struct's members: written ones, and for a member without
// [[id]] the id after the previous member's, an array (C array or array<T, N>) taking one per
// element; functions, types, static members and access specifiers are no members.
TEST(ArgumentBuffers, MemberIds) {
    const std::vector<ArgumentStruct> found = structsOf("struct Plain { float a; device int* b; };\n"
                                                        "struct Set {\n"
                                                        "public:\n"
                                                        "  device float* out [[id(2)]];\n"
                                                        "  texture2d<float, access::read> images[3];\n"
                                                        "  array<sampler, 2> modes;\n"
                                                        "  static constant int kTable = 3;\n"
                                                        "  using T = float;\n"
                                                        "  float size() const { return 1; }\n"
                                                        "  float gain [[id(10)]];\n"
                                                        "  uint2 extent;\n"
                                                        "};\n");
    ASSERT_EQ(found.size(), 1u) << "a struct without [[id]] is no argument buffer";
    EXPECT_EQ(found[0].name, "Set");
    EXPECT_EQ(ids(found[0]), "out=2 images=3 modes=6 gain=10 extent=11 ");
}

// Test which structs a buffer parameter's type names.
TEST(ArgumentBuffers, ParameterTypes) {
    const std::vector<ArgumentStruct> found = structsOf("struct Args { device float* p [[id(0)]]; };\n");
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(argumentStructOf(found, "device Args&"), &found[0]);
    EXPECT_EQ(argumentStructOf(found, "constant const ns::Args*"), &found[0]);
    EXPECT_EQ(argumentStructOf(found, "device float*"), nullptr);
    EXPECT_EQ(argumentStructOf(found, "device MyArgs*"), nullptr);
}

// Test that the sampler members of an argument-buffer struct become 8-byte references, written
// plainly, qualified, in arrays; a struct without [[id]] and a local sampler keep theirs.
TEST(ArgumentBuffers, SamplerMembers) {
    auto p = testing::parse("struct Set { sampler s [[id(0)]]; metal::sampler t[2]; array<sampler, 2> u; };\n"
                            "struct Values { sampler s; };\n"
                            "kernel void k(device Set& set [[buffer(0)]]) { sampler local = set.s; }\n");
    EXPECT_EQ(testing::runPass(*p, rewriteArgumentBufferSamplers),
              "struct Set { sampler_reference s [[id(0)]]; metal::sampler_reference t[2]; "
              "array<sampler_reference, 2> u; };\n"
              "struct Values { sampler s; };\n"
              "kernel void k(device Set& set [[buffer(0)]]) { sampler local = set.s; }");
}

} // namespace
} // namespace metalcpu::msl
