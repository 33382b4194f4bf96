#pragma once

// The fixture of tests that run texture kernels: one library per suite compiled from `*Source`,
// pipelines with shader validation on or off as the parameter says, textures and buffers
// released after the test, and dispatches at the parameter's threadgroup shape.

#include "metal_test.h"

#include <cstring>
#include <tuple>
#include <vector>

namespace metalcpu::testing {

/// (threads per group in x and y, shader validation on)
using TextureCase = std::tuple<MTL::Size, bool>;

template <const char* const* Source>
class TextureFixture : public MetalTest, public ::testing::WithParamInterface<TextureCase> {
protected:
    static void SetUpTestSuite() { library_ = compile(*Source); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }
    void TearDown() override {
        for (NS::Object* object : owned_) object->release();
        MetalTest::TearDown();
    }

    template <class T>
    T* own(T* object) {
        owned_.push_back(object);
        return object;
    }

    MTL::ComputePipelineState* kernel(const char* name) {
        if (!library_) return nullptr;
        MTL::Function* function = own(library_->newFunction(NS::String::string(name, NS::UTF8StringEncoding)));
        std::string why;
        MTL::ComputePipelineState* state =
            pipelineOf(device_, function, shaderValidation(std::get<1>(GetParam())), &why);
        if (!state) ADD_FAILURE() << "pipeline failed: " << why;
        return state ? own(state) : nullptr;
    }

    MTL::Texture* texture(MTL::TextureType type, MTL::PixelFormat format, NS::UInteger width, NS::UInteger height,
                          NS::UInteger depthOrSlices = 1, NS::UInteger levels = 1) {
        auto d = NS::TransferPtr(MTL::TextureDescriptor::alloc()->init());
        d->setTextureType(type);
        d->setPixelFormat(format);
        d->setWidth(width);
        d->setHeight(height);
        if (type == MTL::TextureType3D) d->setDepth(depthOrSlices);
        else d->setArrayLength(depthOrSlices);
        d->setMipmapLevelCount(levels);
        d->setUsage(MTL::TextureUsageShaderRead | MTL::TextureUsageShaderWrite);
        MTL::Texture* made = device_->newTexture(d.get());
        EXPECT_NE(made, nullptr);
        return own(made);
    }

    MTL::Buffer* buffer(NS::UInteger length) {
        MTL::Buffer* made = own(device_->newBuffer(length, MTL::ResourceStorageModeShared));
        std::memset(made->contents(), 0, length);
        return made;
    }

    /// Dispatches `state` over `grid` threads with the parameter's group shape; `bind` sets
    /// the arguments. Fails the test if the command buffer fails.
    template <class Bind>
    void dispatch(MTL::ComputePipelineState* state, MTL::Size grid, Bind bind) {
        ASSERT_NE(state, nullptr);
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        bind(encoder);
        MTL::Size group = std::get<0>(GetParam());
        if (grid.depth > 1) group.depth = 2;
        encoder->dispatchThreads(grid, group);
        encoder->endEncoding();
        ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted)
            << text(commandBuffer->error() ? commandBuffer->error()->localizedDescription() : nullptr);
    }

    static inline MTL::Library* library_ = nullptr;
    std::vector<NS::Object*> owned_;
};

} // namespace metalcpu::testing
