// The Metal 4 command model (runtime/mtl4_*.h): argument tables bound by GPU address,
// command allocators reused across frames, MTL4 command buffers committed to an MTL4 queue,
// and the commit's feedback, textures bound by resource ID, barriers between dependent
// dispatches. Kernels are plain (no tensors); outputs carry canary words.
#include "guarded_buffer.h"
#include "mtl4_test.h"

#include <cstdint>
#include <thread>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

kernel void affine(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                   constant uint& count [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    if (i < count) out[i] = in[i] * 2.0f + 1.0f;
}

kernel void broadcast(device const uint* value [[buffer(0)]], device uint* out [[buffer(1)]],
                      uint i [[thread_position_in_grid]]) {
    out[i] = value[0];
}

kernel void increment(device uint* counters [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    counters[i] += 1;
}

kernel void group_reverse(device const uint* in [[buffer(0)]], device uint* out [[buffer(1)]],
                          threadgroup uint* scratch [[threadgroup(0)]], uint i [[thread_position_in_grid]],
                          uint t [[thread_position_in_threadgroup]], uint n [[threads_per_threadgroup]]) {
    scratch[t] = in[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = scratch[n - 1 - t];
}

kernel void texel_scale(texture2d<float, access::read> image [[texture(0)]], device float* out [[buffer(0)]],
                        uint2 p [[thread_position_in_grid]]) {
    if (p.x < image.get_width() && p.y < image.get_height())
        out[p.y * image.get_width() + p.x] = image.read(p).r * 3.0f;
}
)";

class Mtl4CommandsTest : public Mtl4Test {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }
    MTL::ComputePipelineState* kernel(const char* name) { return own(pipeline(library_, name)); }
    /// Begins commandBuffer_ on allocator_ and opens a compute encoder on it.
    MTL4::ComputeCommandEncoder* begin() {
        commandBuffer_->beginCommandBuffer(allocator_);
        return commandBuffer_->computeCommandEncoder();
    }
    /// Ends `encoder` and commandBuffer_, commits it and waits for the commit's feedback.
    CommitResult finish(MTL4::ComputeCommandEncoder* encoder) {
        encoder->endEncoding();
        commandBuffer_->endCommandBuffer();
        return commit({commandBuffer_});
    }
    static inline MTL::Library* library_ = nullptr;
};

// Test that a kernel runs with its buffers bound by GPU address, one of them at an offset
// into its buffer (setAddress(gpuAddress + offset)), over grids that do not divide evenly.
TEST_F(Mtl4CommandsTest, RunsKernelThroughArgumentTable) {
    MTL::ComputePipelineState* affine = kernel("affine");
    ASSERT_NE(affine, nullptr);
    for (const unsigned count : {1u, 33u, 100u}) {
        for (const unsigned group : {1u, 7u, 32u}) {
            MTL::Buffer* in = buffer(count * sizeof(float));
            auto* values = static_cast<float*>(in->contents());
            for (unsigned i = 0; i < count; ++i) values[i] = float(i) - 10.0f;
            GuardedBuffer out(device_, count * sizeof(float));
            MTL::Buffer* countBuffer = buffer(sizeof(std::uint32_t));
            *static_cast<std::uint32_t*>(countBuffer->contents()) = count;
            MTL4::ArgumentTable* bindings = table(3);
            bindings->setAddress(in->gpuAddress(), 0);
            bindings->setAddress(out.buffer()->gpuAddress() + GuardedBuffer::offset(), 1);
            bindings->setAddress(countBuffer->gpuAddress(), 2);

            MTL4::ComputeCommandEncoder* encoder = begin();
            ASSERT_NE(encoder, nullptr);
            encoder->setComputePipelineState(affine);
            encoder->setArgumentTable(bindings);
            encoder->dispatchThreads(MTL::Size(count, 1, 1), MTL::Size(group, 1, 1));
            CommitResult feedback = finish(encoder);
            ASSERT_FALSE(feedback.failed) << feedback.error;
            EXPECT_LE(feedback.start, feedback.end);
            EXPECT_GT(feedback.start, 0.0);
            for (unsigned i = 0; i < count; ++i)
                ASSERT_EQ(out.data<float>()[i], (float(i) - 10.0f) * 2.0f + 1.0f) << i << " of " << count;
            out.expectCanariesIntact();
        }
    }
}

// Test that each dispatch sees the argument table as it was when it was encoded, not as
// it is when the command buffer runs.
TEST_F(Mtl4CommandsTest, DispatchSnapshotsArgumentTable) {
    MTL::ComputePipelineState* broadcast = kernel("broadcast");
    MTL::Buffer* seven = buffer(4);
    MTL::Buffer* nine = buffer(4);
    *static_cast<std::uint32_t*>(seven->contents()) = 7;
    *static_cast<std::uint32_t*>(nine->contents()) = 9;
    GuardedBuffer first(device_, 16 * 4), second(device_, 16 * 4);
    MTL4::ArgumentTable* bindings = table(2);

    MTL4::ComputeCommandEncoder* encoder = begin();
    encoder->setComputePipelineState(broadcast);
    encoder->setArgumentTable(bindings);
    bindings->setAddress(seven->gpuAddress(), 0);
    bindings->setAddress(first.buffer()->gpuAddress() + GuardedBuffer::offset(), 1);
    encoder->dispatchThreads(MTL::Size(16, 1, 1), MTL::Size(16, 1, 1));
    bindings->setAddress(nine->gpuAddress(), 0);
    bindings->setAddress(second.buffer()->gpuAddress() + GuardedBuffer::offset(), 1);
    encoder->dispatchThreadgroups(MTL::Size(2, 1, 1), MTL::Size(8, 1, 1));
    bindings->setAddress(0, 0); // after the last dispatch: changes nothing recorded
    CommitResult feedback = finish(encoder);
    ASSERT_FALSE(feedback.failed) << feedback.error;
    for (unsigned i = 0; i < 16; ++i) {
        EXPECT_EQ(first.data<std::uint32_t>()[i], 7u) << i;
        EXPECT_EQ(second.data<std::uint32_t>()[i], 9u) << i;
    }
    first.expectCanariesIntact();
    second.expectCanariesIntact();
}

// Test that one allocator and one command buffer serve frame after frame: reset, begin,
// encode, end, commit, and that allocatedSize counts what a frame recorded.
TEST_F(Mtl4CommandsTest, AllocatorAndCommandBufferReusedAcrossFrames) {
    MTL::ComputePipelineState* increment = kernel("increment");
    MTL::Buffer* counters = buffer(50 * 4);
    MTL4::ArgumentTable* bindings = table(1);
    bindings->setAddress(counters->gpuAddress(), 0);
    for (int frame = 1; frame <= 3; ++frame) {
        allocator_->reset();
        EXPECT_EQ(allocator_->allocatedSize(), 0u);
        MTL4::ComputeCommandEncoder* encoder = begin();
        encoder->setComputePipelineState(increment);
        encoder->setArgumentTable(bindings);
        encoder->dispatchThreads(MTL::Size(50, 1, 1), MTL::Size(16, 1, 1));
        EXPECT_GT(allocator_->allocatedSize(), 0u);
        CommitResult feedback = finish(encoder);
        ASSERT_FALSE(feedback.failed) << feedback.error;
        const auto* values = static_cast<const std::uint32_t*>(counters->contents());
        for (unsigned i = 0; i < 50; ++i) ASSERT_EQ(values[i], std::uint32_t(frame)) << i;
    }
}

// Test that the encoder's threadgroup memory lengths reach the kernel.
TEST_F(Mtl4CommandsTest, ThreadgroupMemoryLengthFromEncoder) {
    MTL::ComputePipelineState* reverse = kernel("group_reverse");
    MTL::Buffer* in = buffer(40 * 4);
    auto* values = static_cast<std::uint32_t*>(in->contents());
    for (unsigned i = 0; i < 40; ++i) values[i] = i;
    GuardedBuffer out(device_, 40 * 4);
    MTL4::ArgumentTable* bindings = table(2);
    bindings->setAddress(in->gpuAddress(), 0);
    bindings->setAddress(out.buffer()->gpuAddress() + GuardedBuffer::offset(), 1);
    MTL4::ComputeCommandEncoder* encoder = begin();
    encoder->setComputePipelineState(reverse);
    encoder->setArgumentTable(bindings);
    encoder->setThreadgroupMemoryLength(16 * 4, 0);
    encoder->dispatchThreadgroups(MTL::Size(4, 1, 1), MTL::Size(10, 1, 1));
    CommitResult feedback = finish(encoder);
    ASSERT_FALSE(feedback.failed) << feedback.error;
    for (unsigned i = 0; i < 40; ++i) EXPECT_EQ(out.data<std::uint32_t>()[i], i / 10 * 10 + 9 - i % 10) << i;
    out.expectCanariesIntact();
}

// Test that a texture bound by setTexture(gpuResourceID) reaches a kernel that reads it, in
// groups that do not divide the image, and that only the image's elements are written.
TEST_F(Mtl4CommandsTest, KernelReadsTextureFromArgumentTable) {
    MTL::ComputePipelineState* scale = kernel("texel_scale");
    ASSERT_NE(scale, nullptr);
    const unsigned width = 13, height = 5;
    MTL::TextureDescriptor* descriptor =
        MTL::TextureDescriptor::texture2DDescriptor(MTL::PixelFormatR32Float, width, height, false);
    descriptor->setUsage(MTL::TextureUsageShaderRead);
    descriptor->setStorageMode(MTL::StorageModeShared);
    MTL::Texture* image = own(device_->newTexture(descriptor));
    ASSERT_NE(image, nullptr);
    std::vector<float> texels(width * height);
    for (unsigned i = 0; i < texels.size(); ++i) texels[i] = float(i) * 0.5f - 7.0f;
    image->replaceRegion(MTL::Region(0, 0, width, height), 0, texels.data(), width * sizeof(float));
    MTL4::ArgumentTableDescriptor* tableDescriptor = MTL4::ArgumentTableDescriptor::alloc()->init();
    tableDescriptor->setMaxBufferBindCount(1);
    tableDescriptor->setMaxTextureBindCount(1);
    NS::Error* error = nullptr;
    MTL4::ArgumentTable* bindings = own(device_->newArgumentTable(tableDescriptor, &error));
    tableDescriptor->release();
    ASSERT_NE(bindings, nullptr) << text(error ? error->localizedDescription() : nullptr);
    bindings->setTexture(image->gpuResourceID(), 0);
    for (const MTL::Size group : {MTL::Size(1, 1, 1), MTL::Size(4, 3, 1), MTL::Size(16, 2, 1)}) {
        GuardedBuffer out(device_, texels.size() * sizeof(float));
        bindings->setAddress(out.buffer()->gpuAddress() + GuardedBuffer::offset(), 0);
        MTL4::ComputeCommandEncoder* encoder = begin();
        encoder->setComputePipelineState(scale);
        encoder->setArgumentTable(bindings);
        encoder->dispatchThreads(MTL::Size(width, height, 1), group);
        CommitResult feedback = finish(encoder);
        ASSERT_FALSE(feedback.failed) << feedback.error;
        for (unsigned i = 0; i < texels.size(); ++i)
            ASSERT_EQ(out.data<float>()[i], texels[i] * 3.0f) << i << ", groups of " << group.width << "x" << group.height;
        out.expectCanariesIntact();
    }
}

// Test that a dispatch reading what the previous one wrote, with barrierAfterEncoderStages
// between them (as Metal 4 requires), sees all of it: the second affine map of the first.
TEST_F(Mtl4CommandsTest, BarrierBetweenDependentDispatches) {
    MTL::ComputePipelineState* affine = kernel("affine");
    const unsigned count = 1000;
    MTL::Buffer* in = buffer(count * sizeof(float));
    MTL::Buffer* middle = buffer(count * sizeof(float));
    GuardedBuffer out(device_, count * sizeof(float));
    MTL::Buffer* countBuffer = buffer(sizeof(std::uint32_t));
    *static_cast<std::uint32_t*>(countBuffer->contents()) = count;
    for (unsigned i = 0; i < count; ++i) static_cast<float*>(in->contents())[i] = float(i % 97);
    MTL4::ArgumentTable* bindings = table(3);
    bindings->setAddress(countBuffer->gpuAddress(), 2);
    MTL4::ComputeCommandEncoder* encoder = begin();
    encoder->setComputePipelineState(affine);
    encoder->setArgumentTable(bindings);
    bindings->setAddress(in->gpuAddress(), 0);
    bindings->setAddress(middle->gpuAddress(), 1);
    encoder->dispatchThreads(MTL::Size(count, 1, 1), MTL::Size(64, 1, 1));
    encoder->barrierAfterEncoderStages(MTL::StageDispatch, MTL::StageDispatch, MTL4::VisibilityOptionDevice);
    bindings->setAddress(middle->gpuAddress(), 0);
    bindings->setAddress(out.buffer()->gpuAddress() + GuardedBuffer::offset(), 1);
    encoder->dispatchThreads(MTL::Size(count, 1, 1), MTL::Size(33, 1, 1));
    CommitResult feedback = finish(encoder);
    ASSERT_FALSE(feedback.failed) << feedback.error;
    for (unsigned i = 0; i < count; ++i)
        ASSERT_EQ(out.data<float>()[i], (float(i % 97) * 2.0f + 1.0f) * 2.0f + 1.0f) << i;
    out.expectCanariesIntact();
}

// Test that the compute encoder's copyFromBuffer and fillBuffer run in order with dispatches.
TEST_F(Mtl4CommandsTest, CopiesAndFillsInOrder) {
    MTL::Buffer* source = buffer(64);
    MTL::Buffer* destination = buffer(64);
    auto* bytes = static_cast<std::uint8_t*>(source->contents());
    for (unsigned i = 0; i < 64; ++i) bytes[i] = std::uint8_t(i);
    MTL4::ComputeCommandEncoder* encoder = begin();
    encoder->fillBuffer(destination, NS::Range(0, 64), 0xAB);
    encoder->copyFromBuffer(source, 8, destination, 16, 32);
    encoder->fillBuffer(destination, NS::Range(40, 4), 0x5C);
    CommitResult feedback = finish(encoder);
    ASSERT_FALSE(feedback.failed) << feedback.error;
    const auto* result = static_cast<const std::uint8_t*>(destination->contents());
    for (unsigned i = 0; i < 64; ++i) {
        std::uint8_t expected = i < 16 || i >= 48 ? 0xAB : std::uint8_t(i - 8);
        if (i >= 40 && i < 44) expected = 0x5C;
        EXPECT_EQ(result[i], expected) << i;
    }
}

// Test that a commit's feedback carries the error of a command buffer that failed, and
// comes once for a commit of several command buffers, after the last.
TEST_F(Mtl4CommandsTest, FeedbackReportsErrorOfCommit) {
    MTL::ComputePipelineState* increment = kernel("increment");
    MTL::Buffer* counters = buffer(8 * 4);
    MTL4::ArgumentTable* bindings = table(1);
    bindings->setAddress(counters->gpuAddress(), 0);
    MTL4::CommandBuffer* failing = own(device_->newCommandBuffer());
    MTL4::CommandAllocator* secondAllocator = own(device_->newCommandAllocator());

    MTL4::ComputeCommandEncoder* encoder = begin();
    encoder->setComputePipelineState(increment);
    encoder->setArgumentTable(bindings);
    encoder->dispatchThreads(MTL::Size(8, 1, 1), MTL::Size(8, 1, 1));
    encoder->endEncoding();
    commandBuffer_->endCommandBuffer();

    failing->beginCommandBuffer(secondAllocator);
    MTL4::ComputeCommandEncoder* broken = failing->computeCommandEncoder();
    broken->setArgumentTable(bindings);
    broken->dispatchThreads(MTL::Size(8, 1, 1), MTL::Size(8, 1, 1)); // no pipeline
    broken->endEncoding();
    failing->endCommandBuffer();

    CommitResult feedback = commit({commandBuffer_, failing});
    EXPECT_TRUE(feedback.failed);
    EXPECT_NE(feedback.error.find("No pipeline state was set on the encoder"), std::string::npos) << feedback.error;
    EXPECT_LE(feedback.start, feedback.end);
    const auto* values = static_cast<const std::uint32_t*>(counters->contents());
    for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(values[i], 1u) << i; // the first command buffer ran
}

// Test that an address that lies in no buffer fails the dispatch, naming the kernel.
TEST_F(Mtl4CommandsTest, AddressOutsideEveryBufferFailsDispatch) {
    MTL::ComputePipelineState* increment = kernel("increment");
    std::uint32_t notABuffer[4] = {};
    MTL4::ArgumentTable* bindings = table(1);
    bindings->setAddress(reinterpret_cast<MTL::GPUAddress>(notABuffer), 0);
    MTL4::ComputeCommandEncoder* encoder = begin();
    encoder->setComputePipelineState(increment);
    encoder->setArgumentTable(bindings);
    encoder->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(4, 1, 1));
    CommitResult feedback = finish(encoder);
    EXPECT_TRUE(feedback.failed);
    EXPECT_NE(feedback.error.find("kernel 'increment'"), std::string::npos) << feedback.error;
    EXPECT_NE(feedback.error.find("is in no live buffer"), std::string::npos) << feedback.error;
    EXPECT_EQ(notABuffer[0], 0u);
}

// Test that signalEvent sets the event after the work committed before it has run.
TEST_F(Mtl4CommandsTest, SignalEventAfterCommittedWork) {
    MTL::ComputePipelineState* increment = kernel("increment");
    MTL::Buffer* counters = buffer(32 * 4);
    MTL4::ArgumentTable* bindings = table(1);
    bindings->setAddress(counters->gpuAddress(), 0);
    MTL::SharedEvent* event = own(device_->newSharedEvent());
    ASSERT_NE(event, nullptr);
    MTL4::ComputeCommandEncoder* encoder = begin();
    encoder->setComputePipelineState(increment);
    encoder->setArgumentTable(bindings);
    encoder->dispatchThreads(MTL::Size(32, 1, 1), MTL::Size(8, 1, 1));
    encoder->endEncoding();
    commandBuffer_->endCommandBuffer();
    MTL4::CommandBuffer* batch[] = {commandBuffer_};
    queue4_->commit(batch, 1);
    queue4_->signalEvent(event, 5);
    ASSERT_TRUE(event->waitUntilSignaledValue(5, 60000));
    const auto* values = static_cast<const std::uint32_t*>(counters->contents());
    for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(values[i], 1u) << i;
}

// Test that a queue's wait holds the work committed after it until another queue signals:
// the copy on the waiting queue, committed first, sees what the other queue wrote.
TEST_F(Mtl4CommandsTest, WaitOrdersWorkAcrossQueues) {
    MTL::ComputePipelineState* broadcast = kernel("broadcast");
    MTL::Buffer* value = buffer(4);
    *static_cast<std::uint32_t*>(value->contents()) = 42;
    MTL::Buffer* produced = buffer(16 * 4);
    MTL::Buffer* copied = buffer(16 * 4);
    MTL::Event* event = own(device_->newEvent());
    MTL4::CommandQueue* consumer = own(device_->newMTL4CommandQueue());
    MTL4::CommandBuffer* copyBuffer = own(device_->newCommandBuffer());
    MTL4::CommandAllocator* copyAllocator = own(device_->newCommandAllocator());

    copyBuffer->beginCommandBuffer(copyAllocator);
    MTL4::ComputeCommandEncoder* copy = copyBuffer->computeCommandEncoder();
    copy->copyFromBuffer(produced, 0, copied, 0, 16 * 4);
    copy->endEncoding();
    copyBuffer->endCommandBuffer();
    consumer->wait(event, 1);
    CommitResult copyResult;
    std::thread waiter([&] { copyResult = commit({copyBuffer}, consumer); });

    MTL4::ArgumentTable* bindings = table(2);
    bindings->setAddress(value->gpuAddress(), 0);
    bindings->setAddress(produced->gpuAddress(), 1);
    MTL4::ComputeCommandEncoder* encoder = begin();
    encoder->setComputePipelineState(broadcast);
    encoder->setArgumentTable(bindings);
    encoder->dispatchThreads(MTL::Size(16, 1, 1), MTL::Size(16, 1, 1));
    EXPECT_FALSE(finish(encoder).failed);
    queue4_->signalEvent(event, 1);
    waiter.join();
    ASSERT_FALSE(copyResult.failed) << copyResult.error;
    const auto* values = static_cast<const std::uint32_t*>(copied->contents());
    for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(values[i], 42u) << i;
}

// Test that a classic command buffer's encodeSignalEvent runs after the encoders before it.
TEST_F(Mtl4CommandsTest, ClassicEncodeSignalEvent) {
    MTL::ComputePipelineState* increment = kernel("increment");
    MTL::Buffer* counters = buffer(16 * 4);
    MTL::SharedEvent* event = own(device_->newSharedEvent());
    MTL::CommandBuffer* classic = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = classic->computeCommandEncoder();
    encoder->setComputePipelineState(increment);
    encoder->setBuffer(counters, 0, 0);
    encoder->dispatchThreads(MTL::Size(16, 1, 1), MTL::Size(16, 1, 1));
    encoder->endEncoding();
    classic->encodeSignalEvent(event, 3);
    classic->commit();
    ASSERT_TRUE(event->waitUntilSignaledValue(3, 60000));
    const auto* values = static_cast<const std::uint32_t*>(counters->contents());
    for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(values[i], 1u) << i;
    classic->waitUntilCompleted();
}

// Test that the factories and accessors of the command objects answer as Metal does.
TEST_F(Mtl4CommandsTest, ObjectsKnowTheirDeviceAndLabel) {
    MTL4::CommandQueueDescriptor* queueDescriptor = MTL4::CommandQueueDescriptor::alloc()->init();
    queueDescriptor->setLabel(MTLSTR("frames"));
    NS::Error* error = nullptr;
    MTL4::CommandQueue* labelled = own(device_->newMTL4CommandQueue(queueDescriptor, &error));
    queueDescriptor->release();
    ASSERT_NE(labelled, nullptr);
    EXPECT_EQ(text(labelled->label()), "frames");
    EXPECT_EQ(labelled->device(), device_);
    EXPECT_EQ(allocator_->device(), device_);
    EXPECT_EQ(commandBuffer_->device(), device_);
    commandBuffer_->setLabel(MTLSTR("frame"));
    EXPECT_EQ(text(commandBuffer_->label()), "frame");
    MTL4::ComputeCommandEncoder* encoder = begin();
    EXPECT_EQ(encoder->commandBuffer(), commandBuffer_);
    EXPECT_NE(encoder->stages() & MTL::StageDispatch, 0u);
    EXPECT_FALSE(finish(encoder).failed);
    EXPECT_EQ(table(4)->device(), device_);
}

} // namespace
} // namespace metalcpu::testing
