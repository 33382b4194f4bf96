// MTL::ComputePipelineReflection from newComputePipelineState(…, PipelineOptionBindingInfo,
// &reflection, …): a binding per buffer, threadgroup, texture, sampler and tensor parameter with its
// name, index, access and sizes; Device::newArgumentEncoder(bufferBinding) for an argument
// buffer's binding, which encodes what the kernel then reads. Without the option, or for a
// binding that is no argument buffer, nil (the latter with the debug layer's message).
#include "metal_test.h"
#include "reported_mistakes.h"

#include <Metal/MTLArgument.hpp>
#include <Metal/MTLArgumentEncoder.hpp>
#include <Metal/MTLTensor.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;
struct Lookup {
    device const float4* table [[id(0)]];
    float bias [[id(1)]];
};
kernel void reflected(constant Lookup& lookup [[buffer(0)]], device float4* out [[buffer(1)]],
                      threadgroup float* scratch [[threadgroup(0)]],
                      texture2d<half, access::read> image [[texture(2)]], sampler pick [[sampler(1)]],
                      device const uint* count [[buffer(3)]], uint i [[thread_position_in_grid]]) {
    if (i >= *count) return;
    out[i] = lookup.table[i] + lookup.bias;
}
)";

class PipelineReflectionTest : public ReportedMistakes<&kKernels> {
protected:
    void SetUp() override {
        ReportedMistakes::SetUp();
        if (!library_) return;
        function_ = library_->newFunction(MTLSTR("reflected"));
        ASSERT_NE(function_, nullptr);
    }
    void TearDown() override {
        for (NS::Object* object : owned_) object->release();
        if (function_) function_->release();
        ReportedMistakes::TearDown();
    }
    /// A pipeline made with `options`; its reflection (autoreleased) in `reflection`.
    MTL::ComputePipelineState* make(MTL::PipelineOption options, MTL::ComputePipelineReflection** reflection) {
        NS::Error* error = nullptr;
        MTL::ComputePipelineState* made = device_->newComputePipelineState(function_, options, reflection, &error);
        EXPECT_NE(made, nullptr) << text(error ? error->localizedDescription() : nullptr);
        if (made) owned_.push_back(made);
        return made;
    }

    MTL::Function* function_ = nullptr;
    std::vector<NS::Object*> owned_;
};

// Test the bindings: one per resource parameter in order (not the builtin), each with what the
// kernel declares.
TEST_F(PipelineReflectionTest, BindingsDescribeTheParameters) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::ComputePipelineReflection* reflection = nullptr;
    make(MTL::PipelineOptionBindingInfo, &reflection);
    ASSERT_NE(reflection, nullptr);
    NS::Array* bindings = reflection->bindings();
    ASSERT_NE(bindings, nullptr);
    ASSERT_EQ(bindings->count(), 6u);
    auto at = [&](NS::UInteger i) { return bindings->object<MTL::Binding>(i); };
    const char* names[6] = {"lookup", "out", "scratch", "image", "pick", "count"};
    const MTL::BindingType types[6] = {MTL::BindingTypeBuffer,  MTL::BindingTypeBuffer,
                                       MTL::BindingTypeThreadgroupMemory, MTL::BindingTypeTexture,
                                       MTL::BindingTypeSampler, MTL::BindingTypeBuffer};
    const NS::UInteger indices[6] = {0, 1, 0, 2, 1, 3};
    for (NS::UInteger i = 0; i < 6; ++i) {
        EXPECT_EQ(text(at(i)->name()), names[i]) << i;
        EXPECT_EQ(at(i)->type(), types[i]) << i;
        EXPECT_EQ(at(i)->index(), indices[i]) << i;
        EXPECT_TRUE(at(i)->isUsed()) << i;
        EXPECT_EQ(at(i)->isArgument(), i == 0) << i;
    }
    EXPECT_EQ(at(0)->access(), MTL::BindingAccessReadOnly); // constant
    EXPECT_EQ(at(1)->access(), MTL::BindingAccessReadWrite);
    EXPECT_EQ(at(5)->access(), MTL::BindingAccessReadOnly); // device const
    auto* lookup = static_cast<MTL::BufferBinding*>(at(0));
    EXPECT_EQ(lookup->bufferDataType(), MTL::DataTypeStruct);
    EXPECT_EQ(lookup->bufferDataSize(), 16u);
    EXPECT_EQ(lookup->bufferAlignment(), 8u);
    auto* out = static_cast<MTL::BufferBinding*>(at(1));
    EXPECT_EQ(out->bufferDataType(), MTL::DataTypeFloat4);
    EXPECT_EQ(out->bufferDataSize(), 16u);
    EXPECT_EQ(out->bufferAlignment(), 16u);
    EXPECT_EQ(static_cast<MTL::BufferBinding*>(at(5))->bufferDataType(), MTL::DataTypeUInt);
    EXPECT_EQ(static_cast<MTL::ThreadgroupBinding*>(at(2))->threadgroupMemoryDataSize(), 4u);
    auto* image = static_cast<MTL::TextureBinding*>(at(3));
    EXPECT_EQ(image->textureType(), MTL::TextureType2D);
    EXPECT_EQ(image->textureDataType(), MTL::DataTypeHalf);
    EXPECT_EQ(image->arrayLength(), 1u);
    EXPECT_FALSE(image->isDepthTexture());
    EXPECT_EQ(reflection->arguments(), nullptr); // the deprecated MTL::Argument form is not made
    pool->release();
}

// Test that without PipelineOptionBindingInfo the reflection is nil, with the option through the
// descriptor form too.
TEST_F(PipelineReflectionTest, ReflectionOnlyWhenAskedFor) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::ComputePipelineReflection* reflection = reinterpret_cast<MTL::ComputePipelineReflection*>(&reports_);
    make(MTL::PipelineOptionNone, &reflection);
    EXPECT_EQ(reflection, nullptr);
    auto descriptor = NS::TransferPtr(MTL::ComputePipelineDescriptor::alloc()->init());
    descriptor->setComputeFunction(function_);
    NS::Error* error = nullptr;
    auto state = NS::TransferPtr(
        device_->newComputePipelineState(descriptor.get(), MTL::PipelineOptionBufferTypeInfo, &reflection, &error));
    ASSERT_NE(state.get(), nullptr);
    ASSERT_NE(reflection, nullptr);
    EXPECT_EQ(reflection->bindings()->count(), 6u);
    pool->release();
}

// Test Device::newArgumentEncoder(bufferBinding): the argument buffer's layout (as the
// function's encoder has it), which a dispatch then reads; outputs keep their canaries.
TEST_F(PipelineReflectionTest, EncoderFromTheBinding) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::ComputePipelineReflection* reflection = nullptr;
    MTL::ComputePipelineState* state = make(MTL::PipelineOptionBindingInfo, &reflection);
    ASSERT_NE(reflection, nullptr);
    auto* binding = reflection->bindings()->object<MTL::BufferBinding>(0);
    MTL::ArgumentEncoder* encoder = device_->newArgumentEncoder(binding);
    pool->release(); // the encoder outlives the reflection
    ASSERT_NE(encoder, nullptr);
    owned_.push_back(encoder);
    auto reference = NS::TransferPtr(function_->newArgumentEncoder(0));
    EXPECT_EQ(encoder->encodedLength(), reference->encodedLength());
    EXPECT_EQ(encoder->alignment(), reference->alignment());

    const unsigned count = 13;
    auto buffer = [&](NS::UInteger bytes) {
        MTL::Buffer* made = device_->newBuffer(bytes, MTL::ResourceStorageModeShared);
        owned_.push_back(made);
        return made;
    };
    MTL::Buffer* table = buffer(count * 16);
    for (unsigned k = 0; k < count * 4; ++k) static_cast<float*>(table->contents())[k] = float(k);
    MTL::Buffer* out = buffer((count + 2) * 16);
    auto* words = static_cast<std::uint32_t*>(out->contents());
    for (unsigned w = 0; w < (count + 2) * 4; ++w) words[w] = 0xC0FFEE11u;
    MTL::Buffer* arguments = buffer(encoder->encodedLength());
    encoder->setArgumentBuffer(arguments, 0);
    encoder->setBuffer(table, 0, 0);
    *static_cast<float*>(encoder->constantData(1)) = 0.5f;
    MTL::Buffer* countBuffer = buffer(4);
    std::memcpy(countBuffer->contents(), &count, 4);
    auto imageDescriptor = NS::TransferPtr(MTL::TextureDescriptor::alloc()->init());
    imageDescriptor->setPixelFormat(MTL::PixelFormatR16Float);
    auto image = NS::TransferPtr(device_->newTexture(imageDescriptor.get()));
    auto samplerDescriptor = NS::TransferPtr(MTL::SamplerDescriptor::alloc()->init());
    auto sampler = NS::TransferPtr(device_->newSamplerState(samplerDescriptor.get()));
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* compute = commandBuffer->computeCommandEncoder();
    compute->setComputePipelineState(state);
    compute->setTexture(image.get(), 2);
    compute->setSamplerState(sampler.get(), 1);
    compute->setBuffer(arguments, 0, 0);
    compute->setBuffer(out, 16, 1);
    compute->setThreadgroupMemoryLength(64, 0);
    compute->setBuffer(countBuffer, 0, 3);
    compute->useResource(table, MTL::ResourceUsageRead);
    compute->dispatchThreads(MTL::Size(count + 3, 1, 1), MTL::Size(5, 1, 1));
    compute->endEncoding();
    ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
    for (unsigned w = 0; w < 4; ++w) EXPECT_EQ(words[w], 0xC0FFEE11u) << "canary before";
    const auto* values = reinterpret_cast<const float*>(words + 4);
    for (unsigned k = 0; k < count * 4; ++k) ASSERT_EQ(values[k], float(k) + 0.5f) << k;
    for (unsigned w = (count + 1) * 4; w < (count + 2) * 4; ++w) EXPECT_EQ(words[w], 0xC0FFEE11u) << "canary after";
}

// Test bindings no encoder can be made from: a buffer that is no argument buffer, and nil.
TEST_F(PipelineReflectionTest, NoEncoderForOtherBindings) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::ComputePipelineReflection* reflection = nullptr;
    make(MTL::PipelineOptionBindingInfo, &reflection);
    ASSERT_NE(reflection, nullptr);
    EXPECT_EQ(device_->newArgumentEncoder(reflection->bindings()->object<MTL::BufferBinding>(1)), nullptr);
    EXPECT_TRUE(reported("buffer binding 'out' (index 1) is not an argument buffer"))
        << ::testing::PrintToString(reports_);
    EXPECT_EQ(device_->newArgumentEncoder(static_cast<const MTL::BufferBinding*>(nullptr)), nullptr);
    EXPECT_TRUE(reported("bufferBinding must not be nil")) << ::testing::PrintToString(reports_);
    pool->release();
}

const char* const kTensorKernels = R"(
#include <metal_stdlib>
#include <metal_tensor>
using namespace metal;
kernel void scale(tensor<device const half, dextents<int32_t, 2>> in, tensor<device half, dextents<uint16_t, 3>> out,
                  device float* factor [[buffer(4)]]) {
    factor[0] = float(in.get_extent(0) + out.get_extent(2));
}
)";

/// The tensor kernels, compiled at MSL 4.0 (<metal_tensor> needs it).
class TensorBindingReflectionTest : public MetalTest {
protected:
    void SetUp() override {
        MetalTest::SetUp();
        auto options = NS::TransferPtr(MTL::CompileOptions::alloc()->init());
        options->setLanguageVersion(MTL::LanguageVersion4_0);
        NS::Error* error = nullptr;
        library_ = device_->newLibrary(NS::String::string(kTensorKernels, NS::UTF8StringEncoding), options.get(), &error);
        ASSERT_NE(library_, nullptr) << text(error ? error->localizedDescription() : nullptr);
    }
    void TearDown() override {
        if (library_) library_->release();
        MetalTest::TearDown();
    }
    MTL::Library* library_ = nullptr;
};

// Test a tensor parameter's binding (Metal 4): type Tensor at its buffer index, its element's
// tensor data type, its extents' index type, and dimensions of its rank whose every extent is
// -1, as Apple's reflection gives a shader-bound tensor (its extents are dynamic); a buffer
// beside it keeps its own binding.
TEST_F(TensorBindingReflectionTest, TensorParametersHaveTensorBindings) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    auto function = NS::TransferPtr(library_->newFunction(MTLSTR("scale")));
    ASSERT_NE(function.get(), nullptr);
    MTL::ComputePipelineReflection* reflection = nullptr;
    NS::Error* error = nullptr;
    auto state = NS::TransferPtr(
        device_->newComputePipelineState(function.get(), MTL::PipelineOptionBindingInfo, &reflection, &error));
    ASSERT_NE(state.get(), nullptr) << text(error ? error->localizedDescription() : nullptr);
    ASSERT_NE(reflection, nullptr);
    NS::Array* bindings = reflection->bindings();
    ASSERT_EQ(bindings->count(), 3u);
    struct Expected {
        const char* name;
        NS::UInteger index;
        MTL::BindingAccess access;
        MTL::TensorDataType data;
        MTL::DataType indexType;
        NS::UInteger rank;
    };
    const Expected tensors[2] = {
        {"in", 0, MTL::BindingAccessReadOnly, MTL::TensorDataTypeFloat16, MTL::DataTypeInt, 2},
        {"out", 1, MTL::BindingAccessReadWrite, MTL::TensorDataTypeFloat16, MTL::DataTypeUShort, 3},
    };
    for (NS::UInteger i = 0; i < 2; ++i) {
        auto* binding = bindings->object<MTL::TensorBinding>(i);
        EXPECT_EQ(text(binding->name()), tensors[i].name);
        EXPECT_EQ(binding->type(), MTL::BindingTypeTensor) << i;
        EXPECT_EQ(binding->index(), tensors[i].index) << i;
        EXPECT_EQ(binding->access(), tensors[i].access) << i;
        EXPECT_FALSE(binding->isArgument()) << i;
        EXPECT_EQ(binding->tensorDataType(), tensors[i].data) << i;
        EXPECT_EQ(binding->indexType(), tensors[i].indexType) << i;
        MTL::TensorExtents* dimensions = binding->dimensions();
        ASSERT_NE(dimensions, nullptr) << i;
        EXPECT_EQ(dimensions->rank(), tensors[i].rank) << i;
        for (NS::UInteger d = 0; d < tensors[i].rank; ++d) EXPECT_EQ(dimensions->extentAtDimensionIndex(d), -1) << i;
        EXPECT_EQ(binding->auxiliaryPlanes(), nullptr) << i;
    }
    auto* factor = bindings->object<MTL::BufferBinding>(2);
    EXPECT_EQ(factor->type(), MTL::BindingTypeBuffer);
    EXPECT_EQ(factor->index(), 4u);
    EXPECT_EQ(factor->bufferDataType(), MTL::DataTypeFloat);
    pool->release();
}

} // namespace
} // namespace metalcpu::testing
