// How a GoogleTest suite catches invalid accesses: the same buggy kernel as main.cpp, run with a
// validated pipeline (the descriptor asks for shader validation, so no environment variable is
// needed here; a real suite runs with MTL_SHADER_VALIDATION=1). Linked with
// metalcpu::gtest_main, whose listener fails any test whose kernels made a report nobody
// expected, at the kernel's line; a test that expects reports takes them with a collector and
// checks them with metalcpu's GoogleMock matchers.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>
#include <metalcpu/ValidationTesting.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using namespace metalcpu::testing;

const char* kSource = R"(#include <metal_stdlib>
using namespace metal;

kernel void sum_sincos(constant float* x [[buffer(0)]],
                       device float* out [[buffer(1)]],
                       uint index [[thread_position_in_grid]]) {
    out[index + OFFSET] = sin(x[index]) + cos(x[index]);
}
)";

/// Runs sum_sincos over `count` elements, built with OFFSET=offset, with shader validation.
void runSumSincos(NS::UInteger count, int offset) {
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    MTL::CompileOptions* options = MTL::CompileOptions::alloc()->init();
    NS::Dictionary* macros = NS::Dictionary::dictionary(NS::String::string(std::to_string(offset).c_str(), NS::UTF8StringEncoding),
                                                        NS::String::string("OFFSET", NS::UTF8StringEncoding));
    options->setPreprocessorMacros(macros);
    NS::Error* error = nullptr;
    MTL::Library* library = device->newLibrary(NS::String::string(kSource, NS::UTF8StringEncoding), options, &error);
    ASSERT_NE(library, nullptr);
    MTL::Function* function = library->newFunction(NS::String::string("sum_sincos", NS::UTF8StringEncoding));
    MTL::ComputePipelineDescriptor* descriptor = MTL::ComputePipelineDescriptor::alloc()->init();
    descriptor->setComputeFunction(function);
    descriptor->setShaderValidation(MTL::ShaderValidationEnabled);
    MTL::ComputePipelineState* pipeline =
        device->newComputePipelineState(descriptor, MTL::PipelineOptionNone, nullptr, &error);
    ASSERT_NE(pipeline, nullptr) << error->localizedDescription()->utf8String();

    MTL::Buffer* x = device->newBuffer(count * sizeof(float), MTL::ResourceStorageModeShared);
    MTL::Buffer* out = device->newBuffer(count * sizeof(float), MTL::ResourceStorageModeShared);
    MTL::CommandQueue* queue = device->newCommandQueue();
    MTL::CommandBuffer* commands = queue->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(pipeline);
    encoder->setBuffer(x, 0, 0);
    encoder->setBuffer(out, 0, 1);
    encoder->dispatchThreads(MTL::Size(count, 1, 1), MTL::Size(32, 1, 1));
    encoder->endEncoding();
    commands->commit();
    commands->waitUntilCompleted();
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted); // Metal completes it normally

    for (NS::Object* object : {static_cast<NS::Object*>(out), static_cast<NS::Object*>(x),
                               static_cast<NS::Object*>(queue), static_cast<NS::Object*>(pipeline),
                               static_cast<NS::Object*>(descriptor), static_cast<NS::Object*>(function),
                               static_cast<NS::Object*>(library), static_cast<NS::Object*>(options)})
        object->release();
}

// The correct kernel: nothing to report, so the listener lets the test pass. (With the
// tutorial's bug here, runSumSincos(100, 1), the test would fail at program_source:7.)
TEST(ValidationExample, CorrectKernelIsSilent) {
    runSumSincos(100, 0);
}

// The tutorial's bug, expected: the last thread stores one element past the end of `out`. The
// collector takes the report, so the listener does not fail the test on it.
TEST(ValidationExample, OffByOneStoreIsReported) {
    ValidationReportCollector reports;
    runSumSincos(100, 1);
    EXPECT_THAT(reports.take(), ElementsAre(AllOf(InvalidStore("sum_sincos", 1), ThroughArgument("out"), AtLine(7),
                                                  AtOffset(400), AtThread(99))));
}

// The same check scoped to a block, without the listener: the guard fails the test on the
// test's thread, so EXPECT_NONFATAL_FAILURE sees it.
TEST(ValidationExample, GuardFailsOnTheOffByOne) {
    EXPECT_NONFATAL_FAILURE(
        {
            FailOnValidationReports guard;
            runSumSincos(100, 1);
        },
        "Invalid device store at offset 400");
    ValidationReportCollector none;
    runSumSincos(100, 0);
    EXPECT_THAT(none.take(), IsEmpty());
}

} // namespace
