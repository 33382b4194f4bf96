// Tests of validation/dispatch_counts: the dispatches counted for dispatchCounts().
#include "validation_fixture.h"

#include "validation/settings.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(#include <metal_stdlib>
using namespace metal;

kernel void fill(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i] = 1.0f;
}
kernel void fill_two(device float* out [[buffer(0)]], device float* unused [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    out[i] = 2.0f;
}
)";

class DispatchCounting : public KernelFixture {
protected:
    void SetUp() override {
        KernelFixture::SetUp();
        library_ = compile(kKernels);
    }
    void TearDown() override {
        if (library_) library_->release();
        KernelFixture::TearDown();
    }

    /// Encodes `pipeline` over 64 threads writing `out` (and nothing at [[buffer(1)]]).
    MTL::CommandBuffer* encode(MTL::ComputePipelineState* pipeline, MTL::Buffer* out) {
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(pipeline);
        encoder->setBuffer(out, 0, 0);
        encoder->dispatchThreads(MTL::Size(64, 1, 1), MTL::Size(64, 1, 1));
        encoder->endEncoding();
        return commands;
    }

    MTL::Library* library_ = nullptr;
};

// Test that every dispatch is counted, and as validated only when its pipeline has shader
// validation (not when it runs the instrumented flavour only to guard an unbound argument).
TEST_F(DispatchCounting, DispatchCountsTellValidatedFromPlain) {
    MTL::Buffer* out = buffer(64 * sizeof(float));
    MTL::ComputePipelineState* plain = pipeline(library_, "fill", nullptr, MTL::ShaderValidationDisabled);
    MTL::ComputePipelineState* checked = pipeline(library_, "fill", nullptr, MTL::ShaderValidationEnabled);
    MTL::ComputePipelineState* unbound = pipeline(library_, "fill_two", nullptr, MTL::ShaderValidationDisabled);

    validation::DispatchCounts before = validation::dispatchCounts();
    run(encode(plain, out));
    validation::DispatchCounts after = validation::dispatchCounts();
    EXPECT_EQ(after.total, before.total + 1);
    EXPECT_EQ(after.validated, before.validated);

    run(encode(checked, out));
    before = after;
    after = validation::dispatchCounts();
    EXPECT_EQ(after.total, before.total + 1);
    EXPECT_EQ(after.validated, before.validated + 1);

    run(encode(unbound, out)); // [[buffer(1)]] has nothing bound: instrumented, not validated
    before = after;
    after = validation::dispatchCounts();
    EXPECT_EQ(after.total, before.total + 1);
    EXPECT_EQ(after.validated, before.validated);
}

// Test that the hint for unvalidated dispatches names what left them out: validation off, the
// default state none, the DISABLE list, or the descriptors.
TEST(WhyDispatchesWereNotValidated, NamesTheSwitch) {
    val::ShaderValidationSettings settings;
    settings.enabled = false;
    val::overrideShaderValidationSettings(settings);
    EXPECT_EQ(validation::whyDispatchesWereNotValidated(), "Run with MTL_SHADER_VALIDATION=1");
    settings.enabled = true;
    settings.defaultOn = false;
    val::overrideShaderValidationSettings(settings);
    EXPECT_THAT(validation::whyDispatchesWereNotValidated(),
                ::testing::StartsWith("MTL_SHADER_VALIDATION_DEFAULT_STATE=none validates only the pipelines named in "
                                      "MTL_SHADER_VALIDATION_ENABLE_PIPELINES"));
    settings.defaultOn = true;
    settings.disabledPipelines = {"skip me"};
    val::overrideShaderValidationSettings(settings);
    EXPECT_THAT(validation::whyDispatchesWereNotValidated(), ::testing::StartsWith("MTL_SHADER_VALIDATION_DISABLE_PIPELINES"));
    settings.disabledPipelines.clear();
    val::overrideShaderValidationSettings(settings);
    EXPECT_EQ(validation::whyDispatchesWereNotValidated(), "The pipelines' descriptors say ShaderValidationDisabled");
    val::overrideShaderValidationSettings(std::nullopt);
}

} // namespace
} // namespace metalcpu::testing
