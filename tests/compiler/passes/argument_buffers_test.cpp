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

std::vector<ArgumentStruct> dataStructsOf(std::string_view source) {
    auto p = testing::parse(source);
    const Unit unit(p->tokens, p->partner, p->module);
    return findDataStructs(unit);
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

// Test Apple's implied ids for members whose type is an argument-buffer struct (each takes
// that struct's highest id + 1, per element) and for SPIRV-Cross's spvUnsafeArray<T, N> (N ids).
TEST(ArgumentBuffers, ImpliedIdsOfStructAndWrapperMembers) {
    const std::vector<ArgumentStruct> found =
        structsOf("struct My_Indexed_AB { texture2d<float> texA [[id(1)]]; texture2d<float> texB [[id(3)]]; };\n"
                  "struct My_Aggregate_AB { My_Indexed_AB abX; My_Indexed_AB abY; My_Indexed_AB list[2]; "
                  "float after [[id(20)]]; };\n"
                  "struct spvDescriptorSetBuffer0 { spvUnsafeArray<device SSBO*, 3> blocks [[id(0)]]; "
                  "const device SSBO* inputs [[id(3)]][2]; uint count; };\n");
    ASSERT_EQ(found.size(), 3u);
    EXPECT_EQ(ids(found[1]), "abX=0 abY=4 list=8 after=20 ");
    EXPECT_EQ(ids(found[2]), "blocks=0 inputs=3 count=5 ");
}

// Test which structs count without any [[id]]: one holding a texture or sampler that a kernel's
// buffer points at (Metal 3 style), or that a pointer member of an argument buffer points at;
// not one of plain data, nor one no kernel buffer points at.
TEST(ArgumentBuffers, ImpliedIdStructsThatBuffersPointAt) {
    const std::vector<ArgumentStruct> found =
        structsOf("struct Leaf { sampler s; texture2d<float> t; };\n"
                  "struct Bindless { texture2d<float> image; sampler pick; device float* out; constant Leaf* leaf; };\n"
                  "struct Local { texture2d<float> t; sampler s; };\n"
                  "struct Data { float a; device float* b; };\n"
                  "kernel void k(constant Bindless& b [[buffer(0)]], device Data const* d [[buffer(1)]]) {}\n");
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].name, "Leaf");
    EXPECT_EQ(found[1].name, "Bindless");
    EXPECT_EQ(ids(found[1]), "image=0 pick=1 out=2 leaf=3 ");
    EXPECT_EQ(found[1].members[3].pointee, "Leaf");
    EXPECT_EQ(found[1].members[2].pointee, "") << "a pointer at floats";
}

// Test the structs a parameter's struct reaches through pointer members: each once, a struct
// that points at itself included once.
TEST(ArgumentBuffers, NestedStructs) {
    const std::vector<ArgumentStruct> found =
        structsOf("struct Inner { device float* data [[id(0)]]; constant struct Node* list [[id(1)]]; };\n"
                  "struct Node { device int* v [[id(0)]]; constant Node* next [[id(1)]]; };\n"
                  "struct Outer { device float* out [[id(0)]]; constant Inner* inner [[id(3)]]; "
                  "spvUnsafeArray<constant Inner*, 2> more [[id(4)]]; };\n");
    ASSERT_EQ(found.size(), 3u);
    const std::vector<NestedArguments> nested = nestedArgumentStructs(found, found[2]);
    ASSERT_EQ(nested.size(), 2u);
    EXPECT_EQ(nested[0].name, "Inner");
    EXPECT_EQ(nested[1].name, "Node");
    const std::vector<NestedArguments> list = nestedArgumentStructs(found, found[1]);
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0].name, "Node");
    EXPECT_TRUE(nestedArgumentStructs(found, found[0]).size() == 1u);
}

// Test which structs a buffer parameter's type names.
TEST(ArgumentBuffers, ParameterTypes) {
    const std::vector<ArgumentStruct> found = structsOf("struct Args { device float* p [[id(0)]]; };\n");
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(argumentStructOf(found, "device Args&"), &found[0]);
    EXPECT_EQ(argumentStructOf(found, "constant const ns::Args*"), &found[0]);
    EXPECT_EQ(argumentStructOf(found, "device Args const&"), &found[0]);
    EXPECT_EQ(argumentStructOf(found, "device float*"), nullptr);
    EXPECT_EQ(argumentStructOf(found, "device MyArgs*"), nullptr);
}

// Test that the sampler members of an argument-buffer struct become 8-byte references, written
// plainly, qualified, in arrays, with implied ids too; a struct no buffer points at and a local
// sampler keep theirs.
TEST(ArgumentBuffers, SamplerMembers) {
    auto p = testing::parse("struct Set { sampler s [[id(0)]]; metal::sampler t[2]; array<sampler, 2> u; };\n"
                            "struct Implied { texture2d<float> t; sampler s; };\n"
                            "struct Values { sampler s; };\n"
                            "kernel void k(device Set& set [[buffer(0)]], constant Implied* i [[buffer(1)]]) "
                            "{ sampler local = set.s; }\n");
    EXPECT_EQ(testing::runPass(*p, rewriteArgumentBufferSamplers),
              "struct Set { sampler_reference s [[id(0)]]; metal::sampler_reference t[2]; "
              "array<sampler_reference, 2> u; };\n"
              "struct Implied { texture2d<float> t; sampler_reference s; };\n"
              "struct Values { sampler s; };\n"
              "kernel void k(device Set& set [[buffer(0)]], constant Implied* i [[buffer(1)]]) "
              "{ sampler local = set.s; }");
}

// Test the structs a buffer's struct type can describe: each data member in order, with the
// struct it holds by name (for nested struct types; a keyword type such as `float` names none); an
// `alignas` member is one.
TEST(ArgumentBuffers, DataStructMembers) {
    const std::vector<ArgumentStruct> found = dataStructsOf("struct Inner { float a; uint b; };\n"
                                                            "struct Params {\n"
                                                            "  float scale;\n"
                                                            "  alignas(16) float4 colour;\n"
                                                            "  Inner inner;\n"
                                                            "  const Inner pair[2];\n"
                                                            "  device Inner* next;\n"
                                                            "  float weights[3];\n"
                                                            "  float twice() const { return 2 * scale; }\n"
                                                            "  struct Local { int x; };\n"
                                                            "};\n");
    ASSERT_EQ(found.size(), 3u);
    EXPECT_EQ(found[1].name, "Params");
    std::string members;
    for (const ArgumentMember& m : found[1].members) members += m.name + ":" + m.held + ":" + m.pointee + " ";
    EXPECT_EQ(members, "scale:: colour:float4: inner:Inner: pair:Inner: next::Inner weights:: ");
}

// Test the structs whose members as read would not be all they have, which get no struct type
// rather than a wrong one: a base class, a bit-field, two names in one declaration, an
// anonymous or elaborated member; and two structs of one name, of which a member's type may
// be either.
TEST(ArgumentBuffers, DataStructsNotDescribed) {
    const std::vector<ArgumentStruct> found = dataStructsOf("struct Base { float a; };\n"
                                                            "struct Derived : Base { float b; };\n"
                                                            "struct Bits { uint low : 4; uint high : 4; };\n"
                                                            "struct Two { float x, y; };\n"
                                                            "struct Anonymous { union { float f; int i; }; };\n"
                                                            "struct Elaborated { struct Base base; };\n"
                                                            "struct Named { struct Kind { int k; } kind; };\n"
                                                            "struct Typed { struct Kind2 { int k; }; float after; };\n"
                                                            "namespace n { struct Twice { float a; }; }\n"
                                                            "struct Twice { int b; };\n");
    std::string names;
    for (const ArgumentStruct& s : found) names += s.name + " ";
    EXPECT_EQ(names, "Base Kind Typed Kind2 ");
}

} // namespace
} // namespace metalcpu::msl
