// MTL::Library::reflectionForFunction: a function's bindings without a pipeline (the bindings a
// pipeline's reflection gives, with their buffers' types) and its Metal 4 [[user_annotation]],
// on a kernel, after its parameters, on a kernel template and overridden by an instantiation.
// Nil for a name the library does not hold: unknown, nil, or a render function.
#include "metal_test.h"

#include <Metal/MTLArgument.hpp>

#include <string>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;
struct Scale {
    float factor;
    uint count;
};
[[user_annotation("scales a row")]]
kernel void annotated(device float* data [[buffer(0)]], constant Scale& scale [[buffer(1)]],
                      uint i [[thread_position_in_grid]]) {
    if (i < scale.count) data[i] *= scale.factor;
}
kernel void plain(device uint* out [[buffer(2)]], threadgroup uint* scratch [[threadgroup(0)]],
                  uint i [[thread_position_in_grid]], uint t [[thread_index_in_threadgroup]]) {
    scratch[t] = i;
    out[i] = scratch[t];
}
kernel void after(device float* out [[buffer(0)]]) [[user_annotation("said \"after\" the parameters")]] {
    out[0] = 1.0f;
}
template <typename T>
[[user_annotation("fills")]] kernel void fill(device T* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i] = T(i);
}
template [[host_name("fill_float")]] kernel void fill<float>(device float*, uint);
template [[host_name("fill_int"), user_annotation("fills ints")]] kernel void fill<int>(device int*, uint);
vertex float4 draw(uint v [[vertex_id]]) { return float4(float(v)); }
)";

class FunctionReflectionTest : public SuiteLibraryTest<kKernels> {
protected:
    void SetUp() override {
        SuiteLibraryTest::SetUp();
        ASSERT_NE(library_, nullptr);
    }
    static MTL::FunctionReflection* reflect(const char* name) {
        return library_->reflectionForFunction(NS::String::string(name, NS::UTF8StringEncoding));
    }
};

// Test the bindings: one per resource parameter in order (no builtin), with name, type, index
// and access, as a pipeline's reflection gives them.
TEST_F(FunctionReflectionTest, BindingsDescribeTheParameters) {
    MTL::FunctionReflection* reflection = reflect("plain");
    ASSERT_NE(reflection, nullptr);
    NS::Array* bindings = reflection->bindings();
    ASSERT_NE(bindings, nullptr);
    ASSERT_EQ(bindings->count(), 2u);
    auto* out = bindings->object<MTL::BufferBinding>(0);
    EXPECT_EQ(text(out->name()), "out");
    EXPECT_EQ(out->type(), MTL::BindingTypeBuffer);
    EXPECT_EQ(out->index(), 2u);
    EXPECT_EQ(out->access(), MTL::BindingAccessReadWrite);
    EXPECT_EQ(out->bufferDataType(), MTL::DataTypeUInt);
    EXPECT_EQ(out->bufferDataSize(), 4u);
    auto* scratch = bindings->object<MTL::ThreadgroupBinding>(1);
    EXPECT_EQ(text(scratch->name()), "scratch");
    EXPECT_EQ(scratch->type(), MTL::BindingTypeThreadgroupMemory);
    EXPECT_EQ(scratch->index(), 0u);

    // The same as the pipeline's.
    auto function = NS::TransferPtr(library_->newFunction(MTLSTR("plain")));
    MTL::ComputePipelineReflection* pipelineReflection = nullptr;
    NS::Error* error = nullptr;
    auto state = NS::TransferPtr(
        device_->newComputePipelineState(function.get(), MTL::PipelineOptionBindingInfo, &pipelineReflection, &error));
    ASSERT_NE(pipelineReflection, nullptr);
    ASSERT_EQ(pipelineReflection->bindings()->count(), bindings->count());
    for (NS::UInteger i = 0; i < bindings->count(); ++i) {
        auto* a = bindings->object<MTL::Binding>(i);
        auto* b = pipelineReflection->bindings()->object<MTL::Binding>(i);
        EXPECT_EQ(text(a->name()), text(b->name())) << i;
        EXPECT_EQ(a->type(), b->type()) << i;
        EXPECT_EQ(a->index(), b->index()) << i;
        EXPECT_EQ(a->access(), b->access()) << i;
    }
}

// Test that a buffer binding holds the type of what it points at, with no option to ask.
TEST_F(FunctionReflectionTest, BufferBindingsHaveTheirTypes) {
    MTL::FunctionReflection* reflection = reflect("annotated");
    ASSERT_NE(reflection, nullptr);
    ASSERT_EQ(reflection->bindings()->count(), 2u);
    auto* scale = reflection->bindings()->object<MTL::BufferBinding>(1);
    EXPECT_EQ(text(scale->name()), "scale");
    EXPECT_EQ(scale->access(), MTL::BindingAccessReadOnly);
    EXPECT_EQ(scale->bufferDataType(), MTL::DataTypeStruct);
    EXPECT_EQ(scale->bufferDataSize(), 8u);
    MTL::StructType* type = scale->bufferStructType();
    ASSERT_NE(type, nullptr);
    ASSERT_EQ(type->members()->count(), 2u);
    EXPECT_EQ(text(type->members()->object<MTL::StructMember>(0)->name()), "factor");
    EXPECT_EQ(type->members()->object<MTL::StructMember>(1)->dataType(), MTL::DataTypeUInt);
    EXPECT_EQ(type->members()->object<MTL::StructMember>(1)->offset(), 4u);
    ASSERT_NE(scale->bufferPointerType(), nullptr);
    EXPECT_EQ(scale->bufferPointerType()->elementType(), MTL::DataTypeStruct);
}

// Test the user annotations: on the kernel, after its parameters (quotes unescaped), a
// template's inherited by its instantiation or replaced by the instantiation's own; nil where
// none is written.
TEST_F(FunctionReflectionTest, UserAnnotations) {
    const struct {
        const char* function;
        const char* annotation; // nullptr: none
    } cases[] = {
        {"annotated", "scales a row"},
        {"after", "said \"after\" the parameters"},
        {"fill_float", "fills"},
        {"fill_int", "fills ints"},
        {"plain", nullptr},
    };
    for (const auto& c : cases) {
        MTL::FunctionReflection* reflection = reflect(c.function);
        ASSERT_NE(reflection, nullptr) << c.function;
        if (c.annotation)
            EXPECT_EQ(text(reflection->userAnnotation()), c.annotation) << c.function;
        else
            EXPECT_EQ(reflection->userAnnotation(), nullptr) << c.function;
    }
}

// Test that names the library does not hold have no reflection: unknown, nil, and a render
// function (listed by functionNames(), not held).
TEST_F(FunctionReflectionTest, NoReflectionForOtherNames) {
    EXPECT_EQ(reflect("missing"), nullptr);
    EXPECT_EQ(library_->reflectionForFunction(nullptr), nullptr);
    EXPECT_EQ(reflect("draw"), nullptr);
}

// Test that a reflection keeps what it reads loaded: its bindings answer after the library is
// gone.
TEST_F(FunctionReflectionTest, OutlivesItsLibrary) {
    MTL::Library* library = compile(kKernels);
    ASSERT_NE(library, nullptr);
    MTL::FunctionReflection* reflection = library->reflectionForFunction(MTLSTR("annotated"))->retain();
    library->release();
    EXPECT_EQ(text(reflection->userAnnotation()), "scales a row");
    ASSERT_EQ(reflection->bindings()->count(), 2u);
    EXPECT_EQ(text(reflection->bindings()->object<MTL::Binding>(0)->name()), "data");
    EXPECT_EQ(reflection->bindings()->object<MTL::BufferBinding>(1)->bufferStructType()->members()->count(), 2u);
    reflection->release();
}

} // namespace
} // namespace metalcpu::testing
