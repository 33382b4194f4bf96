// MTL::CompileOptions' threadgroup settings (requiredThreadsPerThreadgroup,
// maxTotalThreadsPerThreadgroup): every pipeline of the library's kernels takes them, reports
// them, and runs dispatches of the required size; the debug layer reports any other size, as
// it does for the pipeline descriptor's and MTL4's setting. A descriptor that asks for another
// required size, or a size over the maximum, gets nullptr and an NS::Error.
#include "metal_test.h"

#include "runtime/debug_layer.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using rt::DebugLayer;

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;
kernel void store(device uint* out [[buffer(0)]], uint2 gid [[thread_position_in_grid]],
                  uint2 grid [[threads_per_grid]]) {
    out[gid.y * grid.x + gid.x] = gid.y * grid.x + gid.x + 1000;
}
)";

constexpr std::uint32_t kCanary = 0xC0FFEE11u;

class CompileOptionsThreadgroups : public MetalTest {
protected:
    void SetUp() override {
        MetalTest::SetUp();
        DebugLayer::setForTesting(DebugLayer::Mode::NSLog, [this](const std::string& r) { reports_.push_back(r); });
    }
    void TearDown() override {
        DebugLayer::setForTesting(DebugLayer::Mode::Off);
        for (NS::Object* object : owned_) object->release();
        MetalTest::TearDown();
    }

    /// kKernels compiled with `options` (+0, released after the test).
    MTL::Library* library(MTL::CompileOptions* options) {
        NS::Error* error = nullptr;
        MTL::Library* made =
            device_->newLibrary(NS::String::string(kKernels, NS::UTF8StringEncoding), options, &error);
        EXPECT_NE(made, nullptr) << text(error ? error->localizedDescription() : nullptr);
        if (made) owned_.push_back(made);
        return made;
    }
    MTL::CompileOptions* options(MTL::Size required, NS::UInteger maxTotal = 0) {
        MTL::CompileOptions* made = MTL::CompileOptions::alloc()->init();
        owned_.push_back(made);
        made->setRequiredThreadsPerThreadgroup(required);
        made->setMaxTotalThreadsPerThreadgroup(maxTotal);
        return made;
    }
    /// A pipeline for `store` through a descriptor asking for `required`; nullptr with the
    /// error's text in `why`.
    MTL::ComputePipelineState* pipeline(MTL::Library* from, MTL::Size required, std::string* why = nullptr) {
        MTL::Function* function = from->newFunction(MTLSTR("store"));
        owned_.push_back(function);
        MTL::ComputePipelineDescriptor* descriptor = MTL::ComputePipelineDescriptor::alloc()->init();
        owned_.push_back(descriptor);
        descriptor->setComputeFunction(function);
        descriptor->setRequiredThreadsPerThreadgroup(required);
        NS::Error* error = nullptr;
        MTL::ComputePipelineState* made =
            device_->newComputePipelineState(descriptor, MTL::PipelineOptionNone, nullptr, &error);
        if (made) owned_.push_back(made);
        if (why) *why = text(error ? error->localizedDescription() : nullptr);
        return made;
    }
    /// Runs `state` over a 24 x 3 grid in groups of `group`: whether the command buffer
    /// completed with every output written and both canaries kept.
    bool ran(MTL::ComputePipelineState* state, MTL::Size group) {
        const unsigned W = 24, H = 3;
        MTL::Buffer* out = device_->newBuffer((W * H + 2) * 4, MTL::ResourceStorageModeShared);
        owned_.push_back(out);
        auto* words = static_cast<std::uint32_t*>(out->contents());
        for (unsigned i = 0; i < W * H + 2; ++i) words[i] = kCanary;
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(out, 4, 0);
        encoder->dispatchThreads(MTL::Size(W, H, 1), group);
        encoder->endEncoding();
        if (run(commandBuffer) != MTL::CommandBufferStatusCompleted) return false;
        if (words[0] != kCanary || words[W * H + 1] != kCanary) return false;
        for (unsigned i = 0; i < W * H; ++i)
            if (words[1 + i] != i + 1000) return false;
        return true;
    }

    std::vector<std::string> reports_;
    std::vector<NS::Object*> owned_;
};

// Test the options' properties: unset by default (0, 0, 0 and 0), kept as set, and copied.
TEST_F(CompileOptionsThreadgroups, Properties) {
    MTL::CompileOptions* made = MTL::CompileOptions::alloc()->init();
    owned_.push_back(made);
    EXPECT_EQ(made->requiredThreadsPerThreadgroup().width, 0u);
    EXPECT_EQ(made->requiredThreadsPerThreadgroup().height, 0u);
    EXPECT_EQ(made->requiredThreadsPerThreadgroup().depth, 0u);
    EXPECT_EQ(made->maxTotalThreadsPerThreadgroup(), 0u);
    made->setRequiredThreadsPerThreadgroup(MTL::Size(8, 4, 2));
    made->setMaxTotalThreadsPerThreadgroup(128);
    EXPECT_EQ(made->requiredThreadsPerThreadgroup().height, 4u);
    auto* copy = static_cast<MTL::CompileOptions*>(made->copy());
    owned_.push_back(copy);
    EXPECT_EQ(copy->requiredThreadsPerThreadgroup().width, 8u);
    EXPECT_EQ(copy->requiredThreadsPerThreadgroup().depth, 2u);
    EXPECT_EQ(copy->maxTotalThreadsPerThreadgroup(), 128u);
}

// Test a library compiled with requiredThreadsPerThreadgroup (8, 3, 1): its pipeline reports
// the size and its 24 threads as the maximum, runs a dispatch of that size, and the debug layer
// reports one of the same 24 threads in another shape (which does not run).
TEST_F(CompileOptionsThreadgroups, RequiredSizeReachesEveryPipeline) {
    MTL::Library* required = library(options(MTL::Size(8, 3, 1)));
    ASSERT_NE(required, nullptr);
    MTL::ComputePipelineState* state = pipeline(required, MTL::Size(0, 0, 0));
    ASSERT_NE(state, nullptr);
    EXPECT_EQ(state->requiredThreadsPerThreadgroup().width, 8u);
    EXPECT_EQ(state->requiredThreadsPerThreadgroup().height, 3u);
    EXPECT_EQ(state->requiredThreadsPerThreadgroup().depth, 1u);
    EXPECT_EQ(state->maxTotalThreadsPerThreadgroup(), 24u);
    EXPECT_TRUE(ran(state, MTL::Size(8, 3, 1)));
    EXPECT_EQ(reports_, std::vector<std::string>{});
    EXPECT_FALSE(ran(state, MTL::Size(24, 1, 1)));
    ASSERT_EQ(reports_.size(), 1u);
    EXPECT_NE(reports_[0].find("dispatchThreads:threadsPerThreadgroup:]:1155"), std::string::npos) << reports_[0];
    EXPECT_NE(reports_[0].find("must match the pipeline's (requiredThreadsPerThreadgroup.width(8) * "
                               "requiredThreadsPerThreadgroup.height(3) * requiredThreadsPerThreadgroup.depth(1))(24)"),
              std::string::npos)
        << reports_[0];

    // The function form of newComputePipelineState takes it too; a library without the option
    // takes any size.
    MTL::Function* function = required->newFunction(MTLSTR("store"));
    owned_.push_back(function);
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* plain = device_->newComputePipelineState(function, &error);
    ASSERT_NE(plain, nullptr);
    owned_.push_back(plain);
    EXPECT_EQ(plain->requiredThreadsPerThreadgroup().width, 8u);
    MTL::ComputePipelineState* anySize = pipeline(library(nullptr), MTL::Size(0, 0, 0));
    ASSERT_NE(anySize, nullptr);
    EXPECT_EQ(anySize->requiredThreadsPerThreadgroup().width, 0u);
    EXPECT_EQ(anySize->maxTotalThreadsPerThreadgroup(), 1024u);
    reports_.clear();
    EXPECT_TRUE(ran(anySize, MTL::Size(5, 2, 1)));
    EXPECT_EQ(reports_, std::vector<std::string>{});
}

// Test maxTotalThreadsPerThreadgroup from the options: the pipeline's maximum, which the debug
// layer enforces (1152) as it does the kernel attribute's.
TEST_F(CompileOptionsThreadgroups, MaximumFromOptions) {
    MTL::ComputePipelineState* state = pipeline(library(options(MTL::Size(0, 0, 0), 32)), MTL::Size(0, 0, 0));
    ASSERT_NE(state, nullptr);
    EXPECT_EQ(state->maxTotalThreadsPerThreadgroup(), 32u);
    EXPECT_TRUE(ran(state, MTL::Size(7, 3, 1)));
    EXPECT_FALSE(ran(state, MTL::Size(12, 3, 1)));
    ASSERT_EQ(reports_.size(), 1u);
    EXPECT_NE(reports_[0].find("must be <= 32. (kernel threadgroup size limit)"), std::string::npos) << reports_[0];
}

// Test the descriptor's own required size beside the options': the same size is fine, another
// is nullptr and an error naming both; a required size over the maximum is refused too.
TEST_F(CompileOptionsThreadgroups, ConflictsAreErrors) {
    MTL::Library* required = library(options(MTL::Size(8, 3, 1)));
    ASSERT_NE(required, nullptr);
    EXPECT_NE(pipeline(required, MTL::Size(8, 3, 1)), nullptr);
    std::string why;
    EXPECT_EQ(pipeline(required, MTL::Size(24, 1, 1), &why), nullptr);
    EXPECT_NE(why.find("requiredThreadsPerThreadgroup (24, 1, 1) differs from the (8, 3, 1) its library was "
                       "compiled with"),
              std::string::npos)
        << why;
    EXPECT_EQ(pipeline(library(options(MTL::Size(64, 32, 1))), MTL::Size(0, 0, 0), &why), nullptr);
    EXPECT_NE(why.find("requiredThreadsPerThreadgroup (64, 32, 1) holds more threads than the pipeline's maximum "
                       "(1024)"),
              std::string::npos)
        << why;
    EXPECT_EQ(pipeline(library(options(MTL::Size(16, 4, 1), 32)), MTL::Size(0, 0, 0), &why), nullptr);
    EXPECT_NE(why.find("maximum (32)"), std::string::npos) << why;
    EXPECT_EQ(pipeline(library(nullptr), MTL::Size(8, 0, 1), &why), nullptr);
    EXPECT_NE(why.find("(8, 0, 1) has a dimension of 0"), std::string::npos) << why;
}

} // namespace
} // namespace metalcpu::testing
