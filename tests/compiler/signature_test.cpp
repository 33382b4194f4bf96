#include "compiler/signature.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

using testing::parse;

struct Signature {
    std::unique_ptr<testing::Parsed> parsed;
    std::vector<ParamInfo> params;
    std::vector<std::string> messages() const { return parsed->messages(); }
};

Signature signatureOf(std::string_view source) {
    Signature s;
    s.parsed = parse(source);
    for (const FunctionDecl& f : s.parsed->module.functions) {
        if (f.isKernel) {
            s.params = parseKernelParameters(s.parsed->tokens, s.parsed->partner, f, s.parsed->diagnostics);
            break;
        }
    }
    return s;
}

// Test that array parameters are buffers, as the pointers they decay to.
TEST(Signature, ArrayParameters) {
    Signature s = signatureOf("kernel void k(device float out[] [[buffer(2)]], constant int table[4],\n"
                              "              uint i [[thread_position_in_grid]]) {}");
    ASSERT_TRUE(s.messages().empty());
    ASSERT_EQ(s.params.size(), 3u);
    EXPECT_EQ(s.params[0].name, "out");
    EXPECT_EQ(s.params[0].typeText, "device float*");
    EXPECT_EQ(s.params[0].kind, ParamKind::Buffer);
    EXPECT_EQ(s.params[0].index, 2u);
    EXPECT_EQ(s.params[0].access, Access::ReadWrite);
    EXPECT_EQ(s.params[0].column, 28);
    EXPECT_EQ(s.params[1].name, "table");
    EXPECT_EQ(s.params[1].kind, ParamKind::Buffer);
    EXPECT_EQ(s.params[1].index, 0u);
    EXPECT_EQ(s.params[1].access, Access::ReadOnly);
}

// Test the reflection of Apple's add_arrays: implicit buffers, const pointees, a builtin.
TEST(Signature, AddArrays) {
    Signature s = signatureOf("kernel void add_arrays(device const float* inA,\n"
                              "                       device const float* inB,\n"
                              "                       device float* result,\n"
                              "                       uint index [[thread_position_in_grid]]) {}");
    ASSERT_TRUE(s.messages().empty());
    ASSERT_EQ(s.params.size(), 4u);
    EXPECT_EQ(s.params[0].name, "inA");
    EXPECT_EQ(s.params[0].typeText, "device const float*");
    EXPECT_EQ(s.params[0].kind, ParamKind::Buffer);
    EXPECT_EQ(s.params[0].index, 0u);
    EXPECT_FALSE(s.params[0].explicitIndex);
    EXPECT_EQ(s.params[0].addressSpace, AddressSpace::Device);
    EXPECT_EQ(s.params[0].access, Access::ReadOnly);
    EXPECT_FALSE(s.params[0].isReference);
    EXPECT_EQ(s.params[0].line, 1);
    EXPECT_EQ(s.params[0].column, 44);
    EXPECT_EQ(s.params[1].index, 1u);
    EXPECT_EQ(s.params[2].typeText, "device float*");
    EXPECT_EQ(s.params[2].access, Access::ReadWrite);
    EXPECT_EQ(s.params[2].index, 2u);
    EXPECT_EQ(s.params[3].kind, ParamKind::Builtin);
    EXPECT_EQ(s.params[3].builtin, Builtin::ThreadPositionInGrid);
    EXPECT_EQ(s.params[3].typeText, "uint");
    EXPECT_EQ(s.params[3].line, 4);
    EXPECT_EQ(s.params[3].column, 29);
}

// Test that implicit indices take the first index no parameter names explicitly, in order.
TEST(Signature, ImplicitIndicesAvoidExplicitOnes) {
    Signature s = signatureOf("kernel void k(device float* a,\n"
                              "              constant float& b [[buffer(0)]],\n"
                              "              device float* c,\n"
                              "              device float* d [[buffer(2)]],\n"
                              "              constant uint& e,\n"
                              "              threadgroup float* t,\n"
                              "              threadgroup int* u [[threadgroup(0)]]) {}");
    ASSERT_TRUE(s.messages().empty());
    std::vector<std::uint32_t> indices;
    for (const ParamInfo& p : s.params) indices.push_back(p.index);
    EXPECT_EQ(indices, (std::vector<std::uint32_t>{1, 0, 3, 2, 4, 1, 0}));
    EXPECT_TRUE(s.params[1].explicitIndex);
    EXPECT_EQ(s.params[1].addressSpace, AddressSpace::Constant);
    EXPECT_EQ(s.params[1].access, Access::ReadOnly);
    EXPECT_TRUE(s.params[1].isReference);
    EXPECT_EQ(s.params[5].kind, ParamKind::Threadgroup);
    EXPECT_EQ(s.params[5].addressSpace, AddressSpace::Threadgroup);
}

// Test that Metal 4 tensors are parameters by value, in the buffers' index space (explicit or
// implicit, as the Apple sample binds them without attributes), with the address space and
// access of their element type and their type as written; and that a pointer to one, or one
// bound as something other than a buffer, is an error.
TEST(Signature, Tensors) {
    Signature s = signatureOf("kernel void k(tensor<device half, dextents<int, 2>> A,\n"
                              "              device float* out,\n"
                              "              metal::tensor<device const float, extents<int32_t, 4, 4>> B [[buffer(0)]],\n"
                              "              ::metal::tensor<constant half, dextents<int, 3>, tensor_inline> C,\n"
                              "              uint2 tg [[threadgroup_position_in_grid]]) {}");
    ASSERT_TRUE(s.messages().empty()) << s.messages()[0];
    ASSERT_EQ(s.params.size(), 5u);
    std::vector<std::uint32_t> indices;
    for (const ParamInfo& p : s.params) indices.push_back(p.index);
    EXPECT_EQ(indices, (std::vector<std::uint32_t>{1, 2, 0, 3, 0}));
    for (std::size_t i : {0, 2, 3}) {
        EXPECT_EQ(s.params[i].kind, ParamKind::Tensor) << i;
        EXPECT_FALSE(s.params[i].isReference) << i;
    }
    EXPECT_EQ(s.params[1].kind, ParamKind::Buffer);
    EXPECT_EQ(s.params[0].typeText, "tensor<device half, dextents<int, 2>>");
    EXPECT_EQ(s.params[0].name, "A");
    EXPECT_EQ(s.params[0].addressSpace, AddressSpace::Device);
    EXPECT_EQ(s.params[0].access, Access::ReadWrite);
    EXPECT_EQ(s.params[2].access, Access::ReadOnly);
    EXPECT_TRUE(s.params[2].explicitIndex);
    EXPECT_EQ(s.params[3].addressSpace, AddressSpace::Constant);
    EXPECT_EQ(s.params[3].access, Access::ReadOnly);

    Signature bad = signatureOf("kernel void k(tensor<device half, dextents<int, 2>>& A,\n"
                                "              tensor<device half, dextents<int, 2>> B [[texture(0)]],\n"
                                "              tensor<device half, dextents<int, 2>> C [[buffer(0)]],\n"
                                "              device float* D [[buffer(0)]]) {}");
    EXPECT_EQ(bad.messages(),
              (std::vector<std::string>{
                  "test.metal:1:54: error: tensor parameter 'A' of kernel 'k' must be passed by value",
                  "test.metal:2:53: error: tensor parameter 'B' of kernel 'k' must be bound with [[buffer(n)]]",
                  "test.metal:4:33: error: buffer index 0 is used by more than one parameter of kernel 'k'",
                  "test.metal:3:57: note: index 0 is first used here"}));
}

// Test that a built-in input of a floating type (float, half, their vectors) is an error at the
// type, as MSL allows only ushort and uint (and their vectors) there, while uint and ushort2
// are accepted.
TEST(Signature, BuiltinOfAFloatingTypeIsAnError) {
    EXPECT_EQ(signatureOf("kernel void k(device float* out [[buffer(0)]], float i [[thread_position_in_grid]],\n"
                          "              half2 g [[threadgroup_position_in_grid]], uint t [[thread_index_in_threadgroup]],\n"
                          "              ushort2 s [[threads_per_threadgroup]]) {}")
                  .messages(),
              (std::vector<std::string>{
                  "test.metal:1:48: error: type 'float' is not valid for attribute 'thread_position_in_grid': built-in "
                  "positions and counts are ushort or uint (or their vectors)",
                  "test.metal:2:15: error: type 'half2' is not valid for attribute 'threadgroup_position_in_grid': "
                  "built-in positions and counts are ushort or uint (or their vectors)"}));
}

// Test every builtin attribute, in scalar and vector forms.
TEST(Signature, Builtins) {
    Signature s = signatureOf(
        "kernel void k(uint a [[thread_position_in_grid]],\n"
        "  uint2 b [[thread_position_in_threadgroup]], uint3 c [[thread_index_in_threadgroup]],\n"
        "  ushort d [[threadgroup_position_in_grid]], ushort2 e [[threads_per_threadgroup]],\n"
        "  ushort3 f [[dispatch_threads_per_threadgroup]], uint3 g [[threads_per_grid]],\n"
        "  uint3 h [[threadgroups_per_grid]], uint i [[thread_execution_width]],\n"
        "  uint j [[threads_per_simdgroup]], ushort k [[thread_index_in_simdgroup]],\n"
        "  uint l [[simdgroup_index_in_threadgroup]], uint m [[simdgroups_per_threadgroup]],\n"
        "  uint n [[dispatch_simdgroups_per_threadgroup]], uint o [[thread_index_in_quadgroup]],\n"
        "  uint p [[quadgroup_index_in_threadgroup]], uint q [[quadgroups_per_threadgroup]],\n"
        "  uint3 r [[grid_origin]], uint3 s [[grid_size]], uint t [[dispatch_quadgroups_per_threadgroup]]) {}");
    ASSERT_TRUE(s.messages().empty());
    ASSERT_EQ(s.params.size(), 20u);
    for (std::size_t i = 0; i < s.params.size(); ++i) {
        EXPECT_EQ(s.params[i].kind, ParamKind::Builtin);
        EXPECT_EQ(static_cast<std::size_t>(s.params[i].builtin), i + 1) << s.params[i].name;
        EXPECT_EQ(s.params[i].addressSpace, AddressSpace::None);
    }
    EXPECT_EQ(s.params[1].typeText, "uint2");
    EXPECT_EQ(s.params[4].typeText, "ushort2");
    EXPECT_EQ(s.params[5].typeText, "ushort3");
}

// Test unnamed parameters, attributes written with spaces, and MSL type names that are not names.
TEST(Signature, UnnamedParameters) {
    Signature s = signatureOf("kernel void k(device float*, const uint [[ thread_position_in_grid ]]) {}");
    ASSERT_TRUE(s.messages().empty());
    ASSERT_EQ(s.params.size(), 2u);
    EXPECT_EQ(s.params[0].name, "");
    EXPECT_EQ(s.params[0].typeText, "device float*");
    EXPECT_EQ(s.params[1].name, "");
    EXPECT_EQ(s.params[1].typeText, "const uint");
}

// Test that templated and qualified types are kept whole, commas in template arguments included.
TEST(Signature, TemplateTypes) {
    Signature s = signatureOf("template <typename T> kernel void k(device vec<T, 4>* a [[buffer(3)]],\n"
                              "    constant metal::array<int, 2>& dims, const device T* const b) {}");
    ASSERT_TRUE(s.messages().empty());
    ASSERT_EQ(s.params.size(), 3u);
    EXPECT_EQ(s.params[0].typeText, "device vec<T, 4>*");
    EXPECT_EQ(s.params[0].index, 3u);
    EXPECT_EQ(s.params[1].typeText, "constant metal::array<int, 2>&");
    EXPECT_EQ(s.params[1].index, 0u);
    EXPECT_EQ(s.params[2].typeText, "const device T* const");
    EXPECT_EQ(s.params[2].access, Access::ReadOnly);
}

// Test that a const pointer to a writable pointee is read-write.
TEST(Signature, ConstPointerIsReadWrite) {
    Signature s = signatureOf("kernel void k(device float* const a) {}");
    ASSERT_EQ(s.params.size(), 1u);
    EXPECT_EQ(s.params[0].access, Access::ReadWrite);
}

// Test that textures and samplers bind as Metal assigns them: explicit indices kept, implicit
// ones in declaration order per kind; the type, element and access go to reflection.
TEST(Signature, TexturesAndSamplers) {
    Signature s = signatureOf("kernel void k(texture2d<half, access::write> out [[texture(0)]], sampler s,\n"
                              "              texture3d<uint, access::read_write> v, texture2d_array<float> a,\n"
                              "              sampler t [[sampler(4)]], device float* b) {}");
    ASSERT_TRUE(s.messages().empty());
    ASSERT_EQ(s.params.size(), 6u);
    EXPECT_EQ(s.params[0].kind, ParamKind::Texture);
    EXPECT_EQ(s.params[0].typeText, "texture2d<half, access::write>");
    EXPECT_EQ(s.params[0].textureType, 2u);      // MTLTextureType2D
    EXPECT_EQ(s.params[0].textureDataType, 16u); // MTLDataTypeHalf
    EXPECT_EQ(s.params[0].access, Access::WriteOnly);
    EXPECT_EQ(s.params[1].kind, ParamKind::Sampler);
    EXPECT_EQ(s.params[1].index, 0u);
    EXPECT_EQ(s.params[2].kind, ParamKind::Texture);
    EXPECT_EQ(s.params[2].index, 1u);
    EXPECT_EQ(s.params[2].textureType, 7u); // MTLTextureType3D
    EXPECT_EQ(s.params[2].access, Access::ReadWrite);
    EXPECT_EQ(s.params[3].index, 2u);
    EXPECT_EQ(s.params[3].textureType, 3u); // MTLTextureType2DArray
    EXPECT_EQ(s.params[3].access, Access::ReadOnly);
    EXPECT_EQ(s.params[4].kind, ParamKind::Sampler);
    EXPECT_EQ(s.params[4].index, 4u);
    EXPECT_EQ(s.params[5].kind, ParamKind::Buffer);
    EXPECT_EQ(s.params[5].index, 0u);
}

// Test that resource types metalcpu does not bind yet are recorded as unsupported, and that a
// sampler index beyond the 16 slots is an error.
TEST(Signature, UnsupportedResources) {
    Signature s = signatureOf("kernel void k(texturecube<float> c [[texture(0)]], depth2d<float> d,\n"
                              "              sampler s [[sampler(16)]]) {}");
    ASSERT_EQ(s.params.size(), 3u);
    EXPECT_EQ(s.params[0].kind, ParamKind::Unsupported);
    EXPECT_EQ(s.params[1].kind, ParamKind::Unsupported);
    EXPECT_EQ(s.messages(),
              (std::vector<std::string>{"test.metal:2:27: error: sampler index 16 of parameter 's' is out of range "
                                        "(0 to 15)"}));
}

// Test that a duplicate explicit index is reported at the second use, with a note at the first.
TEST(Signature, DuplicateIndex) {
    Signature s =
        signatureOf("kernel void k(device float* a [[buffer(1)]], device float* b [[buffer(1)]]) {}");
    EXPECT_EQ(s.messages(),
              (std::vector<std::string>{
                  "test.metal:1:64: error: buffer index 1 is used by more than one parameter of kernel 'k'",
                  "test.metal:1:33: note: index 1 is first used here",
              }));
}

// Test that indices above 30 are reported, the largest valid one is not.
TEST(Signature, IndexOutOfRange) {
    Signature ok = signatureOf("kernel void k(device float* a [[buffer(30)]]) {}");
    EXPECT_TRUE(ok.messages().empty());
    Signature s = signatureOf("kernel void k(device float* a [[buffer(31)]]) {}");
    EXPECT_EQ(s.messages(),
              (std::vector<std::string>{
                  "test.metal:1:33: error: buffer index 31 of parameter 'a' is out of range (0 to 30)"}));
}

// Test that an index that is not an integer constant is reported.
TEST(Signature, IndexNotConstant) {
    Signature s = signatureOf("kernel void k(device float* a [[buffer(kIndex)]]) {}");
    EXPECT_EQ(s.messages(),
              (std::vector<std::string>{
                  "test.metal:1:33: error: the index in [[buffer]] of parameter 'a' must be an integer "
                  "constant"}));
}

// Test that a buffer passed by value is reported.
TEST(Signature, BufferByValue) {
    Signature s = signatureOf("kernel void k(constant float scale [[buffer(0)]]) {}");
    EXPECT_EQ(s.messages(),
              (std::vector<std::string>{
                  "test.metal:1:30: error: buffer parameter 'scale' of kernel 'k' must be a pointer or "
                  "a reference"}));
}

// Test that a buffer attribute on a pointer without an address space is reported.
TEST(Signature, BufferWithoutAddressSpace) {
    Signature s = signatureOf("kernel void k(float* a [[buffer(0)]]) {}");
    EXPECT_EQ(s.messages(),
              (std::vector<std::string>{
                  "test.metal:1:22: error: buffer parameter 'a' of kernel 'k' must be in the device or "
                  "constant address space"}));
}

// Test that a plain value without an attribute is reported.
TEST(Signature, ValueWithoutAttribute) {
    Signature s = signatureOf("kernel void k(uint n) {}");
    EXPECT_EQ(s.messages(),
              (std::vector<std::string>{
                  "test.metal:1:20: error: parameter 'n' of kernel 'k' must be a device, constant or "
                  "threadgroup pointer or reference, or have an attribute such as "
                  "[[thread_position_in_grid]]"}));
}

// Test that an unknown attribute is reported with the parameter and kernel names.
TEST(Signature, UnknownAttribute) {
    Signature s = signatureOf("kernel void k(device float* a [[buffer(0), raster_order_group(0)]]) {}");
    EXPECT_EQ(s.messages(),
              (std::vector<std::string>{
                  "test.metal:1:44: error: unknown attribute 'raster_order_group' on parameter 'a' of "
                  "kernel 'k'"}));
}

// Test that more than 31 implicit buffers are reported.
TEST(Signature, TooManyBuffers) {
    std::string source = "kernel void k(";
    for (int i = 0; i < 32; ++i) source += (i ? ", device float* b" : "device float* b") + std::to_string(i);
    source += ") {}";
    Signature s = signatureOf(source);
    ASSERT_EQ(s.messages().size(), 1u);
    EXPECT_NE(s.messages()[0].find("error: kernel 'k' has more than 31 buffer parameters"),
              std::string::npos);
}

// Test that a parameter of qualifiers and a type alone is unnamed: `const T`, `thread half`
// name no parameter `T` or `half`; `const T a` names `a`.
TEST(Signature, QualifiedTypeAloneIsUnnamed) {
    auto p = parse("void f(const T, thread half, const T a, device float* b);");
    const FunctionDecl& f = p->module.functions[0];
    const std::vector<TokenRange> params = splitParameters(p->tokens, p->partner, f.parametersOpen, f.parametersClose);
    ASSERT_EQ(params.size(), 4u);
    EXPECT_EQ(parameterName(p->tokens, p->partner, params[0]), kNoToken);
    EXPECT_EQ(parameterName(p->tokens, p->partner, params[1]), kNoToken);
    ASSERT_NE(parameterName(p->tokens, p->partner, params[2]), kNoToken);
    EXPECT_EQ(p->tokens[parameterName(p->tokens, p->partner, params[2])].spelling, "a");
    ASSERT_NE(parameterName(p->tokens, p->partner, params[3]), kNoToken);
    EXPECT_EQ(p->tokens[parameterName(p->tokens, p->partner, params[3])].spelling, "b");
}

// Test that kernel attributes give the host name and a literal thread limit.
TEST(Signature, KernelAttributes) {
    auto p =
        parse("[[kernel, max_total_threads_per_threadgroup(2 * 64)]] [[host_name(\"other\")]] void k() {}");
    KernelAttributes a = parseKernelAttributes(p->tokens, p->module.functions[0], p->diagnostics);
    EXPECT_TRUE(p->messages().empty());
    EXPECT_EQ(a.hostName, "other");
    EXPECT_EQ(a.maxThreads, 128u);
    EXPECT_FALSE(a.maxThreadsExpression);
}

// Test that a Metal 4 user annotation is read, before the kernel or after its parameters,
// escapes decoded; a kernel without one has none.
TEST(Signature, UserAnnotation) {
    auto p = parse("[[user_annotation(\"scales \\\"a\\\" row\")]] kernel void k() {}\n"
                   "kernel void after() [[user_annotation(\"after\")]] {}\n"
                   "kernel void none() {}");
    ASSERT_EQ(p->module.functions.size(), 3u);
    const KernelAttributes k = parseKernelAttributes(p->tokens, p->module.functions[0], p->diagnostics);
    const KernelAttributes after = parseKernelAttributes(p->tokens, p->module.functions[1], p->diagnostics);
    const KernelAttributes none = parseKernelAttributes(p->tokens, p->module.functions[2], p->diagnostics);
    EXPECT_TRUE(p->messages().empty()) << ::testing::PrintToString(p->messages());
    EXPECT_EQ(k.userAnnotation, std::optional<std::string>("scales \"a\" row"));
    EXPECT_EQ(after.userAnnotation, std::optional<std::string>("after"));
    EXPECT_FALSE(none.userAnnotation);
}

// Test that a user annotation without a string literal is reported at the attribute.
TEST(Signature, UserAnnotationNeedsAString) {
    auto p = parse("[[user_annotation(3)]] kernel void k() {}\n[[user_annotation]] kernel void m() {}");
    for (const FunctionDecl& f : p->module.functions) parseKernelAttributes(p->tokens, f, p->diagnostics);
    EXPECT_EQ(p->messages(), (std::vector<std::string>{
                                 "test.metal:1:3: error: [[user_annotation]] needs a string literal",
                                 "test.metal:2:3: error: [[user_annotation]] needs a string literal",
                             }));
}

// Test that a thread limit depending on template parameters is kept as an expression.
TEST(Signature, KernelAttributesExpression) {
    auto p = parse("template <int WM> [[kernel, max_total_threads_per_threadgroup(WM * 32)]] void k() {}");
    KernelAttributes a = parseKernelAttributes(p->tokens, p->module.functions[0], p->diagnostics);
    EXPECT_EQ(a.maxThreads, 0u);
    ASSERT_TRUE(a.maxThreadsExpression);
    EXPECT_EQ(sourceText(p->tokens, a.maxThreadsExpression->begin, a.maxThreadsExpression->end), "WM * 32");
}

// Test that an out-of-range thread limit and an unknown kernel attribute are reported.
TEST(Signature, KernelAttributesErrors) {
    auto p = parse("[[kernel, max_total_threads_per_threadgroup(2048), vertex_id]] void k() {}");
    parseKernelAttributes(p->tokens, p->module.functions[0], p->diagnostics);
    EXPECT_EQ(p->messages(),
              (std::vector<std::string>{
                  "test.metal:1:11: error: max_total_threads_per_threadgroup of kernel 'k' must be "
                  "between 1 and 1024, not 2048",
                  "test.metal:1:52: error: unknown attribute 'vertex_id' on kernel 'k'",
              }));
}

} // namespace
} // namespace metalcpu::msl
