// API validation (MTL_DEBUG_LAYER): every check has a negative test that asserts the exact
// report and a positive twin that makes none. The layer is turned on in-process with
// DebugLayer::setForTesting(); debug_layer_env_test.cpp turns it on with the real variable.
#include "metal_test.h"

#include "runtime/debug_layer.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using rt::DebugLayer;

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

struct Uniforms { float4x4 transform; float4 tint; float4 extra; }; // 96 bytes

kernel void scale(device const float* input [[buffer(0)]],
                  device float* output [[buffer(1)]],
                  constant float& factor [[buffer(2)]],
                  uint i [[thread_position_in_grid]]) {
    output[i] = input[i] * factor;
}

kernel void f(device float* name [[buffer(5)]], uint i [[thread_position_in_grid]]) {
    name[i] = 1.0f;
}

kernel void vectors(device float4* data [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    data[i] *= 2.0f;
}

kernel void tinted(device float4* out [[buffer(0)]],
                   constant Uniforms& uniforms [[buffer(1)]],
                   uint i [[thread_position_in_grid]]) {
    out[i] = uniforms.tint;
}

kernel void group_sum(device uint* out [[buffer(0)]],
                      threadgroup uint* scratch [[threadgroup(0)]],
                      uint local [[thread_index_in_threadgroup]]) {
    scratch[local] = local;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (local == 0) out[0] = scratch[0] + scratch[1];
}

struct Tile { uint cells[64]; }; // 256 bytes
kernel void tile_ref(device uint* out [[buffer(0)]], threadgroup Tile& tile,
                     uint local [[thread_index_in_threadgroup]]) {
    tile.cells[local] = local;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (local == 0) out[0] = tile.cells[1];
}

kernel void two_scratch(device uint* out [[buffer(0)]],
                        threadgroup uint* a [[threadgroup(0)]],
                        threadgroup uint* b [[threadgroup(1)]],
                        uint local [[thread_index_in_threadgroup]]) {
    a[local] = local;
    b[local] = local;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (local == 0) out[0] = a[0] + b[0];
}

[[kernel, max_total_threads_per_threadgroup(768)]]
void limited(device uint* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i] = i;
}
)";

/// A report as Apple prints it: `-[class selector]:line: failed assertion `message'`.
std::string report(const char* where, const std::string& message) {
    return std::string(where) + ": failed assertion `" + message + "'";
}

/// Each test runs with the layer in nslog mode and collects its reports in `reports_`.
class DebugLayerTest : public MetalTest {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }

    void SetUp() override {
        MetalTest::SetUp();
        // Death tests start a fresh copy of the program: the executor's threads do not survive fork().
        GTEST_FLAG_SET(death_test_style, "threadsafe");
        DebugLayer::setForTesting(DebugLayer::Mode::NSLog, [this](const std::string& line) { reports_.push_back(line); });
    }
    void TearDown() override {
        DebugLayer::setForTesting(DebugLayer::Mode::Off);
        for (NS::Object* object : owned_) object->release();
        MetalTest::TearDown();
    }

    /// A pipeline for one kernel of kKernels, released after the test.
    MTL::ComputePipelineState* kernel(const char* name) {
        MTL::ComputePipelineState* made = pipeline(library_, name);
        if (made) owned_.push_back(made);
        return made;
    }
    MTL::Buffer* buffer(std::size_t bytes) {
        MTL::Buffer* made = device_->newBuffer(bytes, MTL::ResourceStorageModeShared);
        if (made) owned_.push_back(made);
        return made;
    }
    /// A compute encoder on a new command buffer (commandBuffer_) with `pipeline` set.
    MTL::ComputeCommandEncoder* encoder(MTL::ComputePipelineState* pipeline = nullptr) {
        commandBuffer_ = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* made = commandBuffer_->computeCommandEncoder();
        if (pipeline) made->setComputePipelineState(pipeline);
        return made;
    }
    /// Ends `encoder`, runs the command buffer and returns its status.
    MTL::CommandBufferStatus finish(MTL::ComputeCommandEncoder* encoder) {
        encoder->endEncoding();
        return run(commandBuffer_);
    }
    /// The reports so far, which are then forgotten.
    std::vector<std::string> takeReports() {
        std::vector<std::string> taken;
        taken.swap(reports_);
        return taken;
    }

    static MTL::Library* library_;
    std::vector<std::string> reports_;
    std::vector<NS::Object*> owned_;
    MTL::CommandBuffer* commandBuffer_ = nullptr;
};
MTL::Library* DebugLayerTest::library_ = nullptr;

using Reports = std::vector<std::string>;

// --- 1. Missing buffer binding ----------------------------------------------------------

// Test that a buffer argument the kernel uses but nobody bound is reported at dispatch and
// the command buffer fails.
TEST_F(DebugLayerTest, MissingBufferBinding) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("f"));
    compute->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(4, 1, 1));
    EXPECT_EQ(takeReports(), Reports{report("validateComputeFunctionArguments:1023",
                                            "Compute Function(f): missing buffer binding at index 5 for name[0].")});
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusError);
}

// Test that the same dispatch with the buffer bound makes no report.
TEST_F(DebugLayerTest, MissingBufferBinding_Positive) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("f"));
    compute->setBuffer(buffer(16), 0, 5);
    compute->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(4, 1, 1));
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(takeReports(), Reports{});
}

// --- 2. Buffer offset alignment ----------------------------------------------------------

// Test that a device buffer's offset must be a multiple of its element's alignment (16 for
// float4), checked at dispatch; the dispatch is dropped and the command buffer fails.
TEST_F(DebugLayerTest, DeviceOffsetAlignment) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("vectors"));
    compute->setBuffer(buffer(64), 4, 0);
    compute->dispatchThreads(MTL::Size(2, 1, 1), MTL::Size(2, 1, 1));
    EXPECT_EQ(takeReports(),
              Reports{report("validateComputeFunctionArguments:1040",
                             "Compute Function(vectors): the offset into the buffer data that is bound at buffer "
                             "index 0 must be a multiple of 16 but was set to 4.")});
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusError);
}

// Test that an aligned device offset makes no report.
TEST_F(DebugLayerTest, DeviceOffsetAlignment_Positive) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("vectors"));
    compute->setBuffer(buffer(64), 16, 0);
    compute->dispatchThreads(MTL::Size(2, 1, 1), MTL::Size(2, 1, 1));
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(takeReports(), Reports{});
}

// Test that a constant buffer's offset must be a multiple of 4.
TEST_F(DebugLayerTest, ConstantOffsetAlignment) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("scale"));
    compute->setBuffer(buffer(16), 0, 0);
    compute->setBuffer(buffer(16), 0, 1);
    compute->setBuffer(buffer(16), 2, 2);
    compute->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    EXPECT_EQ(takeReports(),
              Reports{report("validateComputeFunctionArguments:1040",
                             "Compute Function(scale): the offset into the buffer factor that is bound at buffer "
                             "index 2 must be a multiple of 4 but was set to 2.")});
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusError);
}

// Test that a constant offset that is a multiple of 4 makes no report.
TEST_F(DebugLayerTest, ConstantOffsetAlignment_Positive) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("scale"));
    compute->setBuffer(buffer(16), 0, 0);
    compute->setBuffer(buffer(16), 0, 1);
    compute->setBuffer(buffer(16), 4, 2);
    compute->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(takeReports(), Reports{});
}

// --- 3. Threadgroup size -----------------------------------------------------------------

// Test a threadgroup over the device's 1024 threads.
TEST_F(DebugLayerTest, ThreadgroupOverDeviceLimit) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("limited"));
    compute->setBuffer(buffer(8192), 0, 0);
    compute->dispatchThreads(MTL::Size(2048, 1, 1), MTL::Size(1025, 1, 1));
    EXPECT_EQ(takeReports(),
              Reports{report("-[MTLDebugComputeCommandEncoder dispatchThreads:threadsPerThreadgroup:]:1149",
                             "(threadsPerThreadgroup.width(1025) * threadsPerThreadgroup.height(1) * "
                             "threadsPerThreadgroup.depth(1))(1025) must be <= 1024. (device threadgroup size limit)")});
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusError);
}

// Test a threadgroup over the pipeline's limit ([[max_total_threads_per_threadgroup(768)]]).
TEST_F(DebugLayerTest, ThreadgroupOverKernelLimit) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("limited"));
    compute->setBuffer(buffer(8192), 0, 0);
    compute->dispatchThreadgroups(MTL::Size(2, 1, 1), MTL::Size(32, 32, 1));
    EXPECT_EQ(takeReports(),
              Reports{report("-[MTLDebugComputeCommandEncoder dispatchThreadgroups:threadsPerThreadgroup:]:1152",
                             "(threadsPerThreadgroup.width(32) * threadsPerThreadgroup.height(32) * "
                             "threadsPerThreadgroup.depth(1))(1024) must be <= 768. (kernel threadgroup size limit)")});
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusError);
}

// Test that a threadgroup at the pipeline's limit makes no report.
TEST_F(DebugLayerTest, ThreadgroupLimits_Positive) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("limited"));
    compute->setBuffer(buffer(8192), 0, 0);
    compute->dispatchThreads(MTL::Size(2048, 1, 1), MTL::Size(768, 1, 1));
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(takeReports(), Reports{});
}

// Test the other size checks at dispatch, which fail the command buffer with or without the
// layer: an empty threadgroup, a grid over UINT32_MAX threads, and too much threadgroup
// memory in total.
TEST_F(DebugLayerTest, OtherDispatchLimits) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("two_scratch"));
    compute->setBuffer(buffer(16), 0, 0);
    compute->setThreadgroupMemoryLength(32768, 0);
    compute->setThreadgroupMemoryLength(16, 1);
    compute->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(0, 1, 1));
    compute->dispatchThreads(MTL::Size(1ull << 32, 1, 1), MTL::Size(1, 1, 1));
    compute->dispatchThreadgroups(MTL::Size(1ull << 31, 1, 1), MTL::Size(4, 1, 1));
    compute->dispatchThreads(MTL::Size(2, 1, 1), MTL::Size(2, 1, 1));
    const std::string threads = "-[MTLDebugComputeCommandEncoder dispatchThreads:threadsPerThreadgroup:]";
    EXPECT_EQ(takeReports(),
              (Reports{report((threads + ":1146").c_str(),
                              "(threadsPerThreadgroup.width(0) * threadsPerThreadgroup.height(1) * "
                              "threadsPerThreadgroup.depth(1))(0) must not be 0."),
                       report((threads + ":1161").c_str(), "threadsPerGrid.width(4294967296) must be <= UINT32_MAX."),
                       report("-[MTLDebugComputeCommandEncoder dispatchThreadgroups:threadsPerThreadgroup:]:1161",
                              "(threadgroupsPerGrid.width(2147483648) * threadsPerThreadgroup.width(4)) must be <= "
                              "UINT32_MAX."),
                       report("validateComputeFunctionArguments:1080",
                              "Compute Function(two_scratch): total used threadgroupMemoryLength(32784) must be <= "
                              "32768.")}));
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusError);
}

// --- 4. setThreadgroupMemoryLength ---------------------------------------------------------

// Test a length that is not a multiple of 16: the call is dropped, so the dispatch then
// finds the threadgroup argument unbound.
TEST_F(DebugLayerTest, ThreadgroupMemoryNotMultipleOf16) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("group_sum"));
    compute->setBuffer(buffer(16), 0, 0);
    compute->setThreadgroupMemoryLength(4, 0);
    EXPECT_EQ(takeReports(), Reports{report("-[MTLDebugComputeCommandEncoder setThreadgroupMemoryLength:atIndex:]:817",
                                            "length(4) must be a multiple of 16 bytes.")});
    compute->dispatchThreads(MTL::Size(2, 1, 1), MTL::Size(2, 1, 1));
    EXPECT_EQ(takeReports(),
              Reports{report("validateComputeFunctionArguments:1072",
                             "Compute Function(group_sum): missing threadgroupMemory binding at index 0 for scratch[0].")});
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusError);
}

// Test a `threadgroup T&` argument (naga's workgroup variables) given less than sizeof(T):
// the kernel's stores would reach past it, so the layer refuses the dispatch.
TEST_F(DebugLayerTest, ThreadgroupReferenceShorterThanItsType) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("tile_ref"));
    compute->setBuffer(buffer(16), 0, 0);
    compute->setThreadgroupMemoryLength(240, 0);
    compute->dispatchThreads(MTL::Size(2, 1, 1), MTL::Size(2, 1, 1));
    EXPECT_EQ(takeReports(), Reports{report("validateComputeFunctionArguments:1074",
                                            "Compute Function(tile_ref): argument tile[0] from threadgroupMemory(0) "
                                            "with length(240) has space for 240 bytes, but argument has a "
                                            "length(256).")});
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusError);
}

// Test that the whole type's length (or more) makes no report, and the kernel runs.
TEST_F(DebugLayerTest, ThreadgroupReferenceWholeType_Positive) {
    for (NS::UInteger length : {256u, 512u}) {
        MTL::ComputeCommandEncoder* compute = encoder(kernel("tile_ref"));
        MTL::Buffer* out = buffer(16);
        compute->setBuffer(out, 0, 0);
        compute->setThreadgroupMemoryLength(length, 0);
        compute->dispatchThreads(MTL::Size(2, 1, 1), MTL::Size(2, 1, 1));
        EXPECT_EQ(finish(compute), MTL::CommandBufferStatusCompleted);
        EXPECT_EQ(takeReports(), Reports{});
        EXPECT_EQ(static_cast<std::uint32_t*>(out->contents())[0], 1u);
    }
}

// Test a length over the device's 32 KB.
TEST_F(DebugLayerTest, ThreadgroupMemoryOverLimit) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("group_sum"));
    compute->setThreadgroupMemoryLength(32784, 0);
    EXPECT_EQ(takeReports(), Reports{report("-[MTLDebugComputeCommandEncoder setThreadgroupMemoryLength:atIndex:]:814",
                                            "length(32784) must be <= 32768.")});
    compute->endEncoding();
}

// Test that multiples of 16 up to 32 KB make no report, and the kernel runs.
TEST_F(DebugLayerTest, ThreadgroupMemoryLength_Positive) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("group_sum"));
    MTL::Buffer* out = buffer(16);
    compute->setBuffer(out, 0, 0);
    compute->setThreadgroupMemoryLength(32768, 1);
    compute->setThreadgroupMemoryLength(16, 0);
    compute->dispatchThreads(MTL::Size(2, 1, 1), MTL::Size(2, 1, 1));
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(static_cast<std::uint32_t*>(out->contents())[0], 1u);
    EXPECT_EQ(takeReports(), Reports{});
}

// --- 5. setBytes over 4 KB -----------------------------------------------------------------

// Test setBytes over 4096 bytes (reported under Apple's attributeStride selector).
TEST_F(DebugLayerTest, SetBytesOver4096) {
    std::vector<unsigned char> data(4097);
    MTL::ComputeCommandEncoder* compute = encoder();
    compute->setBytes(data.data(), data.size(), 0);
    EXPECT_EQ(takeReports(),
              Reports{report("-[MTLDebugComputeCommandEncoder setBytes:length:attributeStride:atIndex:]:400",
                             "length(4097) must be <= 4096.")});
    compute->endEncoding();
}

// Test that exactly 4096 bytes make no report.
TEST_F(DebugLayerTest, SetBytesOver4096_Positive) {
    std::vector<unsigned char> data(4096);
    MTL::ComputeCommandEncoder* compute = encoder();
    compute->setBytes(data.data(), data.size(), 0);
    compute->endEncoding();
    EXPECT_EQ(takeReports(), Reports{});
}

// --- 6. Zero-sized grid ----------------------------------------------------------------------

// Test dispatchThreadgroups with no threadgroups (Apple's text says ".y").
TEST_F(DebugLayerTest, ZeroThreadgroupsPerGrid) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("vectors"));
    compute->setBuffer(buffer(64), 0, 0);
    compute->dispatchThreadgroups(MTL::Size(0, 1, 1), MTL::Size(1, 1, 1));
    EXPECT_EQ(takeReports(),
              Reports{report("-[MTLDebugComputeCommandEncoder dispatchThreadgroups:threadsPerThreadgroup:]:1158",
                             "(threadgroupsPerGrid.width(0) * threadgroupsPerGrid.y(1) * "
                             "threadgroupsPerGrid.depth(1))(0) must not be 0.")});
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusError);
}

// Test dispatchThreads with no threads.
TEST_F(DebugLayerTest, ZeroThreadsPerGrid) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("vectors"));
    compute->setBuffer(buffer(64), 0, 0);
    compute->dispatchThreads(MTL::Size(4, 0, 1), MTL::Size(4, 1, 1));
    EXPECT_EQ(takeReports(),
              Reports{report("-[MTLDebugComputeCommandEncoder dispatchThreads:threadsPerThreadgroup:]:1158",
                             "(threadsPerGrid.width(4) * threadsPerGrid.height(0) * "
                             "threadsPerGrid.depth(1))(0) must not be 0.")});
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusError);
}

// Test that a one-thread grid makes no report.
TEST_F(DebugLayerTest, ZeroGrid_Positive) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("vectors"));
    compute->setBuffer(buffer(64), 0, 0);
    compute->dispatchThreadgroups(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    compute->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(takeReports(), Reports{});
}

// --- 7. Zero-length and oversized buffers --------------------------------------------------

// Test newBuffer(0): reported, and nullptr as without the layer.
TEST_F(DebugLayerTest, ZeroLengthBuffer) {
    EXPECT_EQ(device_->newBuffer(0, MTL::ResourceStorageModeShared), nullptr);
    char byte = 0;
    EXPECT_EQ(device_->newBuffer(&byte, 0, MTL::ResourceStorageModeShared), nullptr);
    const std::string expected =
        report("-[MTLDebugDevice validateNewBufferArgs:options:]:365", "Cannot create buffer of zero length.");
    EXPECT_EQ(takeReports(), (Reports{expected, expected}));
}

// Test a buffer over maxBufferLength.
TEST_F(DebugLayerTest, BufferOverMaxLength) {
    const std::uint64_t limit = device_->maxBufferLength();
    EXPECT_EQ(device_->newBuffer(limit + 1, MTL::ResourceStorageModeShared), nullptr);
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(limit + 1));
    EXPECT_EQ(takeReports(), Reports{report("-[MTLDebugDevice validateNewBufferArgs:options:]:366",
                                            std::string("newBufferWith*:length ") + hex + " must not exceed " +
                                                std::to_string(limit >> 20) + " MB.")});
}

// Test newBuffer(bytesNoCopy) without memory or with zero length.
TEST_F(DebugLayerTest, NoCopyBufferArguments) {
    alignas(16) static char memory[64];
    EXPECT_EQ(device_->newBuffer(nullptr, 64, MTL::ResourceStorageModeShared, nullptr), nullptr);
    EXPECT_EQ(device_->newBuffer(memory, 0, MTL::ResourceStorageModeShared, nullptr), nullptr);
    EXPECT_EQ(takeReports(),
              (Reports{report("-[MTLDebugDevice newBufferWithBytesNoCopy:length:options:deallocator:]:412",
                              "pointer must not be nil."),
                       report("-[MTLDebugDevice validateNewBufferArgs:options:]:365",
                              "Cannot create buffer of zero length.")}));
}

// Test newBuffer(bytes) without bytes: reported, and nullptr as without the layer.
TEST_F(DebugLayerTest, NewBufferWithNullBytes) {
    EXPECT_EQ(device_->newBuffer(static_cast<const void*>(nullptr), 64, MTL::ResourceStorageModeShared), nullptr);
    EXPECT_EQ(takeReports(), Reports{report("-[MTLDebugDevice newBufferWithBytes:length:options:]:409",
                                            "pointer must not be nil.")});
}

// Test that a pipeline of a nil function is reported where Apple's framework asserts, and is
// still nil with an error (nslog mode returns); a real function makes no report.
TEST_F(DebugLayerTest, PipelineOfNilFunction) {
    NS::Error* error = nullptr;
    EXPECT_EQ(device_->newComputePipelineState(static_cast<const MTL::Function*>(nullptr), &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(takeReports(), Reports{report("-[MTLComputePipelineDescriptorInternal setComputeFunction:withType:]:722",
                                            "computeFunction must not be nil.")});
}
TEST_F(DebugLayerTest, PipelineOfNilFunction_Positive) {
    EXPECT_NE(kernel("scale"), nullptr);
    EXPECT_EQ(takeReports(), Reports{});
}

// Test that a one-byte buffer and a no-copy buffer over real memory make no report.
TEST_F(DebugLayerTest, BufferLength_Positive) {
    alignas(16) static char memory[64];
    EXPECT_NE(buffer(1), nullptr);
    MTL::Buffer* wrapped = device_->newBuffer(memory, sizeof memory, MTL::ResourceStorageModeShared, nullptr);
    ASSERT_NE(wrapped, nullptr);
    wrapped->release();
    EXPECT_EQ(takeReports(), Reports{});
}

// --- 8. Command buffer and encoder lifetime --------------------------------------------------

// Test committing twice: reported, and the second commit ignored.
TEST_F(DebugLayerTest, CommitTwice) {
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    commandBuffer->commit();
    commandBuffer->commit();
    commandBuffer->waitUntilCompleted();
    EXPECT_EQ(takeReports(), Reports{report("-[IOGPUMetalCommandBuffer validate]:214",
                                            "commit an already committed command buffer")});
    EXPECT_EQ(commandBuffer->status(), MTL::CommandBufferStatusCompleted);
}

// Test that one commit makes no report.
TEST_F(DebugLayerTest, CommitTwice_Positive) {
    EXPECT_EQ(run(queue_->commandBuffer()), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(takeReports(), Reports{});
}

// Test committing with an encoder still open: reported once; the encoder is ended, so
// releasing it later reports nothing more.
TEST_F(DebugLayerTest, CommitWithOpenEncoder) {
    NS::AutoreleasePool* inner = NS::AutoreleasePool::alloc()->init();
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer()->retain();
    MTL::ComputeCommandEncoder* compute = commandBuffer->computeCommandEncoder();
    ASSERT_NE(compute, nullptr);
    commandBuffer->commit();
    commandBuffer->waitUntilCompleted();
    inner->release();
    EXPECT_EQ(takeReports(), Reports{report("-[_MTLCommandBuffer commit]:691",
                                            "commit command buffer with uncommitted encoder")});
    EXPECT_EQ(commandBuffer->status(), MTL::CommandBufferStatusCompleted);
    commandBuffer->release();
}

// Test that ending the encoder before commit makes no report.
TEST_F(DebugLayerTest, CommitWithOpenEncoder_Positive) {
    MTL::ComputeCommandEncoder* compute = encoder();
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(takeReports(), Reports{});
}

// Test a second encoder while one is open: reported, and nullptr.
TEST_F(DebugLayerTest, SecondOpenEncoder) {
    MTL::ComputeCommandEncoder* compute = encoder();
    EXPECT_EQ(commandBuffer_->blitCommandEncoder(), nullptr);
    EXPECT_EQ(commandBuffer_->computeCommandEncoder(MTL::DispatchTypeConcurrent), nullptr);
    const std::string expected = "A command encoder is already encoding to this command buffer";
    EXPECT_EQ(takeReports(), (Reports{report("-[MTLDebugCommandBuffer blitCommandEncoder]:1015", expected),
                                      report("-[MTLDebugCommandBuffer computeCommandEncoderWithDispatchType:]:1015",
                                             expected)}));
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusCompleted);
}

// Test that encoders one after another make no report.
TEST_F(DebugLayerTest, SecondOpenEncoder_Positive) {
    MTL::ComputeCommandEncoder* compute = encoder();
    compute->endEncoding();
    MTL::BlitCommandEncoder* blit = commandBuffer_->blitCommandEncoder();
    ASSERT_NE(blit, nullptr);
    blit->endEncoding();
    EXPECT_EQ(run(commandBuffer_), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(takeReports(), Reports{});
}

// Test an encoder released without endEncoding.
TEST_F(DebugLayerTest, EncoderReleasedWithoutEndEncoding) {
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    NS::AutoreleasePool* inner = NS::AutoreleasePool::alloc()->init();
    ASSERT_NE(commandBuffer->blitCommandEncoder(), nullptr);
    inner->release();
    EXPECT_EQ(takeReports(), Reports{report("-[_MTLCommandEncoder dealloc]:131",
                                            "Command encoder released without endEncoding")});
    // The encoder was closed as it went, so the command buffer can still be used.
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
}

// Test that an ended encoder is released without a report.
TEST_F(DebugLayerTest, EncoderReleasedWithoutEndEncoding_Positive) {
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    NS::AutoreleasePool* inner = NS::AutoreleasePool::alloc()->init();
    commandBuffer->blitCommandEncoder()->endEncoding();
    inner->release();
    EXPECT_EQ(takeReports(), Reports{});
}

// Test that every compute setter and dispatch after endEncoding is reported and ignored.
TEST_F(DebugLayerTest, ComputeUseAfterEndEncoding) {
    MTL::ComputePipelineState* pipeline = kernel("vectors");
    MTL::Buffer* data = buffer(64);
    MTL::ComputeCommandEncoder* compute = encoder();
    compute->endEncoding();
    std::uint32_t word = 0;
    compute->setComputePipelineState(pipeline);
    compute->setBuffer(data, 0, 0);
    compute->setBufferOffset(0, 0);
    compute->setBytes(&word, sizeof word, 1);
    compute->setThreadgroupMemoryLength(16, 0);
    compute->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    compute->dispatchThreadgroups(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    compute->useResource(data, MTL::ResourceUsageRead);
    compute->memoryBarrier(MTL::BarrierScopeBuffers);
    Reports expected;
    for (const char* selector :
         {"setComputePipelineState:", "setBuffer:offset:atIndex:", "setBufferOffset:atIndex:",
          "setBytes:length:attributeStride:atIndex:", "setThreadgroupMemoryLength:atIndex:",
          "dispatchThreads:threadsPerThreadgroup:", "dispatchThreadgroups:threadsPerThreadgroup:",
          "useResource:usage:", "memoryBarrierWithScope:"})
        expected.push_back(report((std::string("-[MTLDebugComputeCommandEncoder ") + selector + "]:96").c_str(),
                                  "Invalid usage because encoding has ended."));
    EXPECT_EQ(takeReports(), expected);
    EXPECT_EQ(run(commandBuffer_), MTL::CommandBufferStatusCompleted);
}

// Test that blit commands after endEncoding are reported and ignored.
TEST_F(DebugLayerTest, BlitUseAfterEndEncoding) {
    MTL::Buffer* data = buffer(64);
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::BlitCommandEncoder* blit = commandBuffer->blitCommandEncoder();
    blit->endEncoding();
    blit->fillBuffer(data, NS::Range(0, 64), 1);
    blit->copyFromBuffer(data, 0, data, 32, 16);
    blit->synchronizeResource(data);
    const std::string message = "Invalid usage because encoding has ended.";
    EXPECT_EQ(takeReports(),
              (Reports{report("-[MTLDebugBlitCommandEncoder fillBuffer:range:value:]:96", message),
                       report("-[MTLDebugBlitCommandEncoder copyFromBuffer:sourceOffset:toBuffer:destinationOffset:"
                              "size:]:96",
                              message),
                       report("-[MTLDebugBlitCommandEncoder synchronizeResource:]:96", message)}));
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(static_cast<unsigned char*>(data->contents())[0], 0);
}

// Test calling endEncoding twice, on both kinds of encoder.
TEST_F(DebugLayerTest, EndEncodingTwice) {
    MTL::ComputeCommandEncoder* compute = encoder();
    compute->endEncoding();
    compute->endEncoding();
    MTL::BlitCommandEncoder* blit = commandBuffer_->blitCommandEncoder();
    blit->endEncoding();
    blit->endEncoding();
    EXPECT_EQ(takeReports(),
              (Reports{report("-[MTLDebugComputeCommandEncoder endEncoding]:91", "endEncoding was already called!"),
                       report("-[MTLDebugBlitCommandEncoder endEncoding]:91", "endEncoding was already called!")}));
    EXPECT_EQ(run(commandBuffer_), MTL::CommandBufferStatusCompleted);
}

// Test that calls before endEncoding, and one endEncoding, make no report.
TEST_F(DebugLayerTest, UseBeforeEndEncoding_Positive) {
    MTL::Buffer* data = buffer(64);
    MTL::ComputeCommandEncoder* compute = encoder(kernel("vectors"));
    compute->setBuffer(data, 0, 0);
    compute->setBufferOffset(16, 0);
    compute->useResource(data, MTL::ResourceUsageWrite);
    compute->memoryBarrier(MTL::BarrierScopeBuffers);
    compute->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    compute->endEncoding();
    MTL::BlitCommandEncoder* blit = commandBuffer_->blitCommandEncoder();
    blit->fillBuffer(data, NS::Range(0, 16), 1);
    blit->copyFromBuffer(data, 0, data, 32, 16);
    blit->synchronizeResource(data);
    blit->endEncoding();
    EXPECT_EQ(run(commandBuffer_), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(takeReports(), Reports{});
}

// Test asking a committed command buffer for an encoder.
TEST_F(DebugLayerTest, EncoderOnCommittedCommandBuffer) {
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    commandBuffer->commit();
    EXPECT_EQ(commandBuffer->computeCommandEncoder(), nullptr);
    EXPECT_EQ(takeReports(), Reports{report("-[IOGPUMetalCommandBuffer setCurrentCommandEncoder:]:323",
                                            "_status < MTLCommandBufferStatusCommitted")});
    commandBuffer->waitUntilCompleted();
}

// Test that an encoder before commit makes no report (the other positive tests cover more).
TEST_F(DebugLayerTest, EncoderOnCommittedCommandBuffer_Positive) {
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* compute = commandBuffer->computeCommandEncoder();
    ASSERT_NE(compute, nullptr);
    compute->endEncoding();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(takeReports(), Reports{});
}

// --- 9. Missing pipeline, read-only bytes --------------------------------------------------

// Test a dispatch without a pipeline.
TEST_F(DebugLayerTest, MissingPipeline) {
    MTL::ComputeCommandEncoder* compute = encoder();
    compute->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(4, 1, 1));
    EXPECT_EQ(takeReports(), Reports{report("-[MTLDebugComputeCommandEncoder dispatchThreads:threadsPerThreadgroup:]:1139",
                                            "No pipeline state was set on the encoder")});
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusError);
}

// Test setBytes bound to an argument the kernel may write.
TEST_F(DebugLayerTest, ReadOnlyBytesToWritableArgument) {
    float values[4] = {};
    float factor = 2;
    MTL::ComputeCommandEncoder* compute = encoder(kernel("scale"));
    compute->setBuffer(buffer(16), 0, 0);
    compute->setBytes(values, sizeof values, 1);
    compute->setBytes(&factor, sizeof factor, 2);
    compute->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(4, 1, 1));
    EXPECT_EQ(takeReports(),
              Reports{report("validateComputeFunctionArguments:1047",
                             "Compute Function(scale): Read-only bytes are being bound at index 1 to a shader argument "
                             "with write access enabled (did you mean to use const or constant in the shader?).")});
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusError);
}

// Test that setBytes for `constant` and `device const` arguments makes no report.
TEST_F(DebugLayerTest, ReadOnlyBytes_Positive) {
    float values[4] = {1, 2, 3, 4};
    float factor = 2;
    MTL::Buffer* out = buffer(16);
    MTL::ComputeCommandEncoder* compute = encoder(kernel("scale"));
    compute->setBytes(values, sizeof values, 0);
    compute->setBuffer(out, 0, 1);
    compute->setBytes(&factor, sizeof factor, 2);
    compute->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(4, 1, 1));
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(static_cast<float*>(out->contents())[3], 8.0f);
    EXPECT_EQ(takeReports(), Reports{});
}

// --- 10. Buffer size, offset and index -------------------------------------------------------

// Test a `constant Uniforms&` argument bound to a buffer too small for it.
TEST_F(DebugLayerTest, BufferTooSmallForArgument) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("tinted"));
    compute->setBuffer(buffer(16), 0, 0);
    compute->setBuffer(buffer(80), 0, 1);
    compute->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    EXPECT_EQ(takeReports(),
              Reports{report("validateComputeFunctionArguments:1055",
                             "Compute Function(tinted): argument uniforms[0] from Buffer(1) with offset(0) and "
                             "length(80) has space for 80 bytes, but argument has a length(96).")});
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusError);
}

// Test that a buffer that fits the argument makes no report.
TEST_F(DebugLayerTest, BufferTooSmallForArgument_Positive) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("tinted"));
    compute->setBuffer(buffer(16), 0, 0);
    compute->setBuffer(buffer(112), 16, 1);
    compute->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(takeReports(), Reports{});
}

// Test setBuffer and setBufferOffset with an offset at or past the buffer's end: reported
// and ignored, so the dispatch finds the argument unbound.
TEST_F(DebugLayerTest, OffsetBeyondBufferLength) {
    MTL::Buffer* data = buffer(64);
    MTL::ComputeCommandEncoder* compute = encoder(kernel("vectors"));
    compute->setBuffer(data, 64, 0);
    EXPECT_EQ(takeReports(), Reports{report("-[MTLDebugComputeCommandEncoder setBuffer:offset:atIndex:]:366",
                                            "offset(64) must be < [buffer length](64).")});
    compute->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    EXPECT_EQ(takeReports(), Reports{report("validateComputeFunctionArguments:1023",
                                            "Compute Function(vectors): missing buffer binding at index 0 for data[0].")});
    compute->setBuffer(data, 0, 0);
    compute->setBufferOffset(80, 0);
    EXPECT_EQ(takeReports(), Reports{report("-[MTLDebugComputeCommandEncoder setBufferOffset:atIndex:]:392",
                                            "offset(80) must be < [buffer length](64).")});
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusError);
}

// Test that offsets inside the buffer make no report.
TEST_F(DebugLayerTest, OffsetBeyondBufferLength_Positive) {
    MTL::Buffer* data = buffer(64);
    MTL::ComputeCommandEncoder* compute = encoder(kernel("vectors"));
    compute->setBuffer(data, 48, 0);
    compute->setBufferOffset(32, 0);
    compute->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(takeReports(), Reports{});
}

// Test binding index 31, one past the last of Metal's 31 slots, with every setter.
TEST_F(DebugLayerTest, BindingIndexOutOfRange) {
    std::uint32_t word = 0;
    MTL::ComputeCommandEncoder* compute = encoder();
    compute->setBuffer(buffer(16), 0, 31);
    compute->setBufferOffset(0, 31);
    compute->setBytes(&word, sizeof word, 31);
    compute->setThreadgroupMemoryLength(16, 31);
    EXPECT_EQ(takeReports(),
              (Reports{report("-[MTLDebugComputeCommandEncoder setBuffer:offset:atIndex:]:363", "index(31) must be < 31."),
                       report("-[MTLDebugComputeCommandEncoder setBufferOffset:atIndex:]:389", "index(31) must be < 31."),
                       report("-[MTLDebugComputeCommandEncoder setBytes:length:attributeStride:atIndex:]:397",
                              "index(31) must be < 31."),
                       report("-[MTLDebugComputeCommandEncoder setThreadgroupMemoryLength:atIndex:]:810",
                              "index(31) must be < 31.")}));
    compute->endEncoding();
}

// Test that index 30, the last slot, makes no report.
TEST_F(DebugLayerTest, BindingIndexOutOfRange_Positive) {
    std::uint32_t word = 0;
    MTL::ComputeCommandEncoder* compute = encoder();
    compute->setBuffer(buffer(16), 0, 30);
    compute->setBufferOffset(0, 30);
    compute->setBytes(&word, sizeof word, 30);
    compute->setThreadgroupMemoryLength(16, 30);
    compute->endEncoding();
    EXPECT_EQ(takeReports(), Reports{});
}

// --- Blit checks ---------------------------------------------------------------------------

// Test copies and fills that go past a buffer's end or name no buffer.
TEST_F(DebugLayerTest, BlitRanges) {
    MTL::Buffer* small = buffer(16);
    MTL::Buffer* large = buffer(64);
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::BlitCommandEncoder* blit = commandBuffer->blitCommandEncoder();
    blit->copyFromBuffer(small, 8, large, 0, 16);
    blit->copyFromBuffer(large, 0, small, 4, 16);
    blit->copyFromBuffer(nil<MTL::Buffer>(), 0, large, 0, 4);
    blit->fillBuffer(small, NS::Range(8, 16), 0);
    blit->fillBuffer(nil<MTL::Buffer>(), NS::Range(0, 1), 0);
    blit->endEncoding();
    const char* copy = "-[MTLDebugBlitCommandEncoder copyFromBuffer:sourceOffset:toBuffer:destinationOffset:size:]";
    const char* fill = "-[MTLDebugBlitCommandEncoder fillBuffer:range:value:]";
    EXPECT_EQ(takeReports(),
              (Reports{report((std::string(copy) + ":431").c_str(),
                              "(sourceOffset + size)(24) must be <= [sourceBuffer length](16)."),
                       report((std::string(copy) + ":433").c_str(),
                              "(destinationOffset + size)(20) must be <= [destinationBuffer length](16)."),
                       report((std::string(copy) + ":425").c_str(), "sourceBuffer must not be nil."),
                       report((std::string(fill) + ":615").c_str(),
                              "(range.location + range.length)(24) must be <= [buffer length](16)."),
                       report((std::string(fill) + ":612").c_str(), "buffer must not be nil.")}));
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusError);
}

// --- Error modes -----------------------------------------------------------------------------

// Test that assert mode prints the report and aborts, for a setter check.
TEST_F(DebugLayerTest, AssertModeAbortsOnSetter) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("group_sum"));
    EXPECT_DEATH(
        {
            DebugLayer::setForTesting(DebugLayer::Mode::Assert);
            compute->setThreadgroupMemoryLength(4, 0);
        },
        regexLiteral("-[MTLDebugComputeCommandEncoder setThreadgroupMemoryLength:atIndex:]:817: failed assertion "
                "`length(4) must be a multiple of 16 bytes.'"));
    compute->endEncoding();
}

// Test that assert mode aborts at a dispatch whose arguments are wrong.
TEST_F(DebugLayerTest, AssertModeAbortsOnDispatch) {
    MTL::ComputeCommandEncoder* compute = encoder(kernel("f"));
    EXPECT_DEATH(
        {
            DebugLayer::setForTesting(DebugLayer::Mode::Assert);
            compute->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(4, 1, 1));
        },
        regexLiteral("validateComputeFunctionArguments:1023: failed assertion "
                "`Compute Function(f): missing buffer binding at index 5 for name[0].'"));
    compute->endEncoding();
}

// Test that assert mode aborts when a command buffer is committed twice.
TEST_F(DebugLayerTest, AssertModeAbortsOnCommitTwice) {
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    commandBuffer->commit();
    EXPECT_DEATH(
        {
            DebugLayer::setForTesting(DebugLayer::Mode::Assert);
            commandBuffer->commit();
        },
        regexLiteral("-[IOGPUMetalCommandBuffer validate]:214: failed assertion "
                "`commit an already committed command buffer'"));
    commandBuffer->waitUntilCompleted();
}

// Test that assert mode aborts on newBuffer(0).
TEST_F(DebugLayerTest, AssertModeAbortsOnZeroLengthBuffer) {
    EXPECT_DEATH(
        {
            DebugLayer::setForTesting(DebugLayer::Mode::Assert);
            device_->newBuffer(0, MTL::ResourceStorageModeShared);
        },
        regexLiteral("-[MTLDebugDevice validateNewBufferArgs:options:]:365: failed assertion "
                "`Cannot create buffer of zero length.'"));
}

// Test that ignore mode reports nothing and behaves as without the layer: a length that is
// not a multiple of 16 is accepted and the kernel runs.
TEST_F(DebugLayerTest, IgnoreModeReportsNothing) {
    DebugLayer::setForTesting(DebugLayer::Mode::Ignore, [this](const std::string& line) { reports_.push_back(line); });
    MTL::Buffer* out = buffer(16);
    MTL::ComputeCommandEncoder* compute = encoder(kernel("group_sum"));
    compute->setBuffer(out, 0, 0);
    compute->setThreadgroupMemoryLength(8, 0);
    compute->dispatchThreads(MTL::Size(2, 1, 1), MTL::Size(2, 1, 1));
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(static_cast<std::uint32_t*>(out->contents())[0], 1u);
    EXPECT_EQ(device_->newBuffer(0, MTL::ResourceStorageModeShared), nullptr);
    EXPECT_EQ(takeReports(), Reports{});
}

// Test that with the layer off the same mistakes report nothing through it.
TEST_F(DebugLayerTest, OffReportsNothing) {
    DebugLayer::setForTesting(DebugLayer::Mode::Off, [this](const std::string& line) { reports_.push_back(line); });
    std::vector<unsigned char> data(5000);
    MTL::ComputeCommandEncoder* compute = encoder();
    compute->setBytes(data.data(), data.size(), 0);
    compute->setThreadgroupMemoryLength(4, 0);
    compute->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    EXPECT_EQ(finish(compute), MTL::CommandBufferStatusError); // no pipeline: refused in any case
    EXPECT_EQ(takeReports(), Reports{});
}

// Test the report's shape for both kinds of site.
TEST(DebugLayerFormat, AppleShape) {
    EXPECT_EQ(DebugLayer::format({"MTLDebugComputeCommandEncoder", "setBytes:length:attributeStride:atIndex:", 400},
                                 "length(5000) must be <= 4096."),
              "-[MTLDebugComputeCommandEncoder setBytes:length:attributeStride:atIndex:]:400: failed assertion "
              "`length(5000) must be <= 4096.'");
    EXPECT_EQ(DebugLayer::format({nullptr, "validateComputeFunctionArguments", 1023}, "Compute Function(f): x."),
              "validateComputeFunctionArguments:1023: failed assertion `Compute Function(f): x.'");
}

} // namespace
} // namespace metalcpu::testing
