// The types of what buffer bindings point at (newComputePipelineState with
// PipelineOptionBufferTypeInfo): BufferBinding::bufferStructType's members with the kernel's own
// offsets (those a host struct of the same MSL layout has), data types, nested struct and array
// types; bufferPointerType for a struct, a scalar and an argument buffer; nil for a struct the
// front end cannot describe (with a debug-level line) and without the option; the types live as
// long as the binding that returns them.
#include "log_capture.h"
#include "metal_test.h"

#include "foundation/object.h"

#include <Metal/MTLArgument.hpp>

#include <cstddef>
#include <string>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;
struct Inner {
    float a;
    uint b;
};
struct Params {
    float scale;
    float4 colour;
    uint count;
    Inner inner;
    float weights[3];
    packed_float3 packed;
};
struct Lookup {
    device const float4* table [[id(0)]];
    float bias [[id(1)]];
};
struct Derived : Inner {
    float c;
};
kernel void typed(device Params* p [[buffer(0)]], constant float& factor [[buffer(1)]],
                  constant Lookup& lookup [[buffer(2)]], device Derived* derived [[buffer(3)]],
                  uint i [[thread_position_in_grid]]) {
    if (i == 0) p->scale = factor * lookup.bias + derived->c + p->packed.y + p->inner.a;
}
)";

// Params as the kernel lays it out, written for the host: float4 is 16 bytes aligned to 16,
// packed_float3 12 bytes aligned to 4.
struct HostInner {
    float a;
    unsigned b;
};
struct alignas(16) HostFloat4 {
    float v[4];
};
struct HostParams {
    float scale;
    HostFloat4 colour;
    unsigned count;
    HostInner inner;
    float weights[3];
    float packed[3];
};

class BufferTypeReflectionTest : public MetalTest {
protected:
    void SetUp() override {
        MetalTest::SetUp();
        library_ = compile(kKernels);
        ASSERT_NE(library_, nullptr);
        function_ = library_->newFunction(MTLSTR("typed"));
        ASSERT_NE(function_, nullptr);
    }
    void TearDown() override {
        if (state_) state_->release();
        if (function_) function_->release();
        if (library_) library_->release();
        MetalTest::TearDown();
    }
    /// The (autoreleased) reflection of a pipeline made with `options`.
    MTL::ComputePipelineReflection* reflect(MTL::PipelineOption options) {
        MTL::ComputePipelineReflection* reflection = nullptr;
        NS::Error* error = nullptr;
        if (state_) state_->release();
        state_ = device_->newComputePipelineState(function_, options, &reflection, &error);
        EXPECT_NE(state_, nullptr) << text(error ? error->localizedDescription() : nullptr);
        return reflection;
    }
    static MTL::BufferBinding* buffer(MTL::ComputePipelineReflection* reflection, NS::UInteger i) {
        return reflection->bindings()->object<MTL::BufferBinding>(i);
    }
    static MTL::StructMember* member(MTL::StructType* type, NS::UInteger i) {
        return type->members()->object<MTL::StructMember>(i);
    }

    MTL::Library* library_ = nullptr;
    MTL::Function* function_ = nullptr;
    MTL::ComputePipelineState* state_ = nullptr;
};

// Test a struct's members: names in declaration order, the host layout's offsets, data types,
// the nested struct and the array.
TEST_F(BufferTypeReflectionTest, StructMembersHaveTheKernelsLayout) {
    MTL::ComputePipelineReflection* reflection = reflect(MTL::PipelineOptionBufferTypeInfo);
    ASSERT_NE(reflection, nullptr);
    MTL::BufferBinding* p = buffer(reflection, 0);
    EXPECT_EQ(p->bufferDataType(), MTL::DataTypeStruct);
    EXPECT_EQ(p->bufferDataSize(), sizeof(HostParams));
    MTL::StructType* params = p->bufferStructType();
    ASSERT_NE(params, nullptr);
    EXPECT_EQ(params->dataType(), MTL::DataTypeStruct);
    ASSERT_EQ(params->members()->count(), 6u);
    const char* names[6] = {"scale", "colour", "count", "inner", "weights", "packed"};
    const std::size_t offsets[6] = {offsetof(HostParams, scale),   offsetof(HostParams, colour),
                                    offsetof(HostParams, count),   offsetof(HostParams, inner),
                                    offsetof(HostParams, weights), offsetof(HostParams, packed)};
    const MTL::DataType types[6] = {MTL::DataTypeFloat, MTL::DataTypeFloat4, MTL::DataTypeUInt,
                                    MTL::DataTypeStruct, MTL::DataTypeArray, MTL::DataTypeFloat3};
    for (NS::UInteger i = 0; i < 6; ++i) {
        EXPECT_EQ(text(member(params, i)->name()), names[i]) << i;
        EXPECT_EQ(member(params, i)->offset(), offsets[i]) << names[i];
        EXPECT_EQ(member(params, i)->dataType(), types[i]) << names[i];
        EXPECT_EQ(member(params, i)->argumentIndex(), 0u) << names[i];
        EXPECT_EQ(member(params, i)->structType() != nullptr, i == 3) << names[i];
        EXPECT_EQ(member(params, i)->arrayType() != nullptr, i == 4) << names[i];
        EXPECT_EQ(member(params, i)->pointerType(), nullptr) << names[i];
    }
    MTL::StructType* inner = member(params, 3)->structType();
    ASSERT_NE(inner, nullptr);
    ASSERT_EQ(inner->members()->count(), 2u);
    EXPECT_EQ(text(member(inner, 0)->name()), "a");
    EXPECT_EQ(member(inner, 0)->offset(), offsetof(HostInner, a));
    EXPECT_EQ(member(inner, 0)->dataType(), MTL::DataTypeFloat);
    EXPECT_EQ(text(member(inner, 1)->name()), "b");
    EXPECT_EQ(member(inner, 1)->offset(), offsetof(HostInner, b));
    EXPECT_EQ(member(inner, 1)->dataType(), MTL::DataTypeUInt);
    MTL::ArrayType* weights = member(params, 4)->arrayType();
    ASSERT_NE(weights, nullptr);
    EXPECT_EQ(weights->dataType(), MTL::DataTypeArray);
    EXPECT_EQ(weights->arrayLength(), 3u);
    EXPECT_EQ(weights->stride(), sizeof(float));
    EXPECT_EQ(weights->elementType(), MTL::DataTypeFloat);
    EXPECT_EQ(weights->elementStructType(), nullptr);
    EXPECT_EQ(weights->elementPointerType(), nullptr);
}

// Test memberByName: the member of that name (the same object members() holds), nil for a name
// no member has and for nil.
TEST_F(BufferTypeReflectionTest, MemberByName) {
    MTL::ComputePipelineReflection* reflection = reflect(MTL::PipelineOptionBufferTypeInfo);
    ASSERT_NE(reflection, nullptr);
    MTL::StructType* params = buffer(reflection, 0)->bufferStructType();
    ASSERT_NE(params, nullptr);
    EXPECT_EQ(params->memberByName(MTLSTR("count")), member(params, 2));
    EXPECT_EQ(params->memberByName(MTLSTR("packed")), member(params, 5));
    EXPECT_EQ(params->memberByName(MTLSTR("missing")), nullptr);
    EXPECT_EQ(params->memberByName(MTLSTR("a")), nullptr); // Inner's, not Params'
    EXPECT_EQ(params->memberByName(nullptr), nullptr);
}

// Test bufferPointerType: of the struct (its element struct type described too), of the
// `constant float&` scalar, and of the argument buffer, whose members carry their ids.
TEST_F(BufferTypeReflectionTest, PointerTypes) {
    MTL::ComputePipelineReflection* reflection = reflect(MTL::PipelineOptionBindingInfo |
                                                         MTL::PipelineOptionBufferTypeInfo);
    ASSERT_NE(reflection, nullptr);
    MTL::PointerType* p = buffer(reflection, 0)->bufferPointerType();
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->dataType(), MTL::DataTypePointer);
    EXPECT_EQ(p->elementType(), MTL::DataTypeStruct);
    EXPECT_EQ(p->access(), MTL::BindingAccessReadWrite);
    EXPECT_EQ(p->alignment(), alignof(HostParams));
    EXPECT_EQ(p->dataSize(), sizeof(HostParams));
    EXPECT_FALSE(p->elementIsArgumentBuffer());
    ASSERT_NE(p->elementStructType(), nullptr);
    EXPECT_EQ(p->elementStructType()->members()->count(), 6u);
    EXPECT_EQ(p->elementArrayType(), nullptr);

    MTL::BufferBinding* factor = buffer(reflection, 1);
    EXPECT_EQ(factor->bufferDataType(), MTL::DataTypeFloat);
    EXPECT_EQ(factor->bufferStructType(), nullptr);
    MTL::PointerType* scalar = factor->bufferPointerType();
    ASSERT_NE(scalar, nullptr);
    EXPECT_EQ(scalar->elementType(), MTL::DataTypeFloat);
    EXPECT_EQ(scalar->access(), MTL::BindingAccessReadOnly);
    EXPECT_EQ(scalar->alignment(), 4u);
    EXPECT_EQ(scalar->dataSize(), 4u);
    EXPECT_FALSE(scalar->elementIsArgumentBuffer());
    EXPECT_EQ(scalar->elementStructType(), nullptr);

    MTL::BufferBinding* lookup = buffer(reflection, 2);
    EXPECT_TRUE(lookup->isArgument());
    ASSERT_NE(lookup->bufferPointerType(), nullptr);
    EXPECT_TRUE(lookup->bufferPointerType()->elementIsArgumentBuffer());
    MTL::StructType* arguments = lookup->bufferStructType();
    ASSERT_NE(arguments, nullptr);
    ASSERT_EQ(arguments->members()->count(), 2u);
    MTL::StructMember* table = member(arguments, 0);
    EXPECT_EQ(text(table->name()), "table");
    EXPECT_EQ(table->offset(), 0u);
    EXPECT_EQ(table->dataType(), MTL::DataTypePointer);
    EXPECT_EQ(table->argumentIndex(), 0u);
    ASSERT_NE(table->pointerType(), nullptr);
    EXPECT_EQ(table->pointerType()->elementType(), MTL::DataTypeFloat4);
    EXPECT_EQ(table->pointerType()->access(), MTL::BindingAccessReadOnly);
    EXPECT_EQ(table->pointerType()->dataSize(), 16u);
    EXPECT_EQ(table->pointerType()->alignment(), 16u);
    EXPECT_FALSE(table->pointerType()->elementIsArgumentBuffer());
    MTL::StructMember* bias = member(arguments, 1);
    EXPECT_EQ(text(bias->name()), "bias");
    EXPECT_EQ(bias->offset(), 8u);
    EXPECT_EQ(bias->dataType(), MTL::DataTypeFloat);
    EXPECT_EQ(bias->argumentIndex(), 1u);
}

// Test a struct the front end does not describe (its base class's members are not read): a
// nil struct type with a debug-level line, never a layout without the base's members; its
// pointer type is still there.
TEST_F(BufferTypeReflectionTest, UndescribedStructIsNil) {
    ScopedLogLevel debug(spdlog::level::debug);
    LogCapture log;
    MTL::ComputePipelineReflection* reflection = reflect(MTL::PipelineOptionBufferTypeInfo);
    ASSERT_NE(reflection, nullptr);
    MTL::BufferBinding* derived = buffer(reflection, 3);
    EXPECT_EQ(derived->bufferDataType(), MTL::DataTypeStruct);
    EXPECT_EQ(derived->bufferDataSize(), 12u);
    EXPECT_EQ(derived->bufferStructType(), nullptr);
    ASSERT_NE(derived->bufferPointerType(), nullptr);
    EXPECT_EQ(derived->bufferPointerType()->elementType(), MTL::DataTypeStruct);
    EXPECT_EQ(derived->bufferPointerType()->elementStructType(), nullptr);
    // One line for the binding's struct type, one for its pointer type's element struct type.
    EXPECT_EQ(log.count("the struct type of buffer 'derived' of kernel 'typed' is nil"), 2u) << log.text();
}

// Test that without PipelineOptionBufferTypeInfo the bindings have no types, as in Metal.
TEST_F(BufferTypeReflectionTest, TypesOnlyWithBufferTypeInfo) {
    MTL::ComputePipelineReflection* reflection = reflect(MTL::PipelineOptionBindingInfo);
    ASSERT_NE(reflection, nullptr);
    EXPECT_EQ(buffer(reflection, 0)->bufferDataType(), MTL::DataTypeStruct);
    EXPECT_EQ(buffer(reflection, 0)->bufferStructType(), nullptr);
    EXPECT_EQ(buffer(reflection, 0)->bufferPointerType(), nullptr);
}

// Test ownership: a binding the program retains keeps its types after the reflection is gone;
// releasing it frees every object the reflection made (counted around a second round, the first
// having made what the library keeps).
TEST_F(BufferTypeReflectionTest, TypesLiveWithTheirBinding) {
    auto round = [&] {
        MTL::BufferBinding* kept = nullptr;
        {
            NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
            MTL::ComputePipelineReflection* reflection = reflect(MTL::PipelineOptionBufferTypeInfo);
            ASSERT_NE(reflection, nullptr);
            kept = buffer(reflection, 0);
            kept->retain();
            // The pointer type makes its element type when first asked: freed with it too.
            ASSERT_NE(buffer(reflection, 2)->bufferPointerType()->elementStructType(), nullptr);
            pool->release();
        }
        MTL::StructType* params = kept->bufferStructType();
        ASSERT_NE(params, nullptr);
        MTL::StructType* inner = params->memberByName(MTLSTR("inner"))->structType();
        ASSERT_NE(inner, nullptr);
        EXPECT_EQ(text(member(inner, 1)->name()), "b");
        EXPECT_EQ(kept->bufferPointerType()->elementStructType()->members()->count(), 6u);
        kept->release();
    };
    round();
    const std::size_t before = ns::ObjectBase::liveObjectCount();
    round();
    EXPECT_EQ(ns::ObjectBase::liveObjectCount(), before);
}

} // namespace
} // namespace metalcpu::testing
