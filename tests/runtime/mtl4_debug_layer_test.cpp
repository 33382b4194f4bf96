// API validation of the Metal 4 command model: every check of runtime/mtl4_*.cpp has a
// negative test with the exact report; MistakeFreeFrameReportsNothing is the positive twin
// of them all (it passes every check once). The layer is on in-process (nslog mode). The
// buffer the fixture binds is in a committed residency set of the queue, as Metal 4 wants.
#include "mtl4_test.h"

#include "runtime/debug_layer.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using rt::DebugLayer;

const char* const kKernels = R"(
kernel void store(device uint* out [[buffer(0)]], device uint* more [[buffer(1)]],
                  uint i [[thread_position_in_grid]]) {
    out[i] = i;
    more[i] = i;
}
)";

class Mtl4DebugLayerTest : public Mtl4Test {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }
    void SetUp() override {
        Mtl4Test::SetUp();
        DebugLayer::setForTesting(DebugLayer::Mode::NSLog, [this](const std::string& line) { reports_.push_back(line); });
        store_ = own(pipeline(library_, "store"));
        out_ = buffer(64 * 4);
        queue4_->addResidencySet(residencySet({out_}));
        table_ = table(2);
        table_->setAddress(out_->gpuAddress(), 0);
        table_->setAddress(out_->gpuAddress(), 1);
    }
    void TearDown() override {
        DebugLayer::setForTesting(DebugLayer::Mode::Off);
        Mtl4Test::TearDown();
    }

    /// Commits `buffers` and returns the error the feedback carried ("" for none).
    std::string commitError(std::vector<MTL4::CommandBuffer*> buffers) { return commit(std::move(buffers)).error; }
    /// A command buffer begun, encoded with one correct dispatch, ended.
    MTL4::CommandBuffer* recorded(MTL4::CommandBuffer* buffer, MTL4::CommandAllocator* allocator) {
        buffer->beginCommandBuffer(allocator);
        MTL4::ComputeCommandEncoder* encoder = buffer->computeCommandEncoder();
        encoder->setComputePipelineState(store_);
        encoder->setArgumentTable(table_);
        encoder->dispatchThreads(MTL::Size(64, 1, 1), MTL::Size(16, 1, 1));
        encoder->endEncoding();
        buffer->endCommandBuffer();
        return buffer;
    }
    void expectReports(const std::vector<std::string>& expected) {
        EXPECT_EQ(reports_, expected);
        reports_.clear();
    }

    static inline MTL::Library* library_ = nullptr;
    std::vector<std::string> reports_;
    MTL::ComputePipelineState* store_ = nullptr;
    MTL::Buffer* out_ = nullptr;
    MTL4::ArgumentTable* table_ = nullptr;
};

// Test that a frame without mistakes passes every check silently (the positive twin).
TEST_F(Mtl4DebugLayerTest, MistakeFreeFrameReportsNothing) {
    for (int frame = 0; frame < 2; ++frame) {
        allocator_->reset();
        EXPECT_EQ(commitError({recorded(commandBuffer_, allocator_)}), "");
    }
    expectReports({});
}

TEST_F(Mtl4DebugLayerTest, BeginTwice) {
    commandBuffer_->beginCommandBuffer(allocator_);
    commandBuffer_->beginCommandBuffer(allocator_);
    expectReports({"-[MTL4DebugCommandBuffer beginCommandBufferWithAllocator:options:]:210: failed assertion "
                   "`beginCommandBufferWithAllocator has already been called.'"});
    commandBuffer_->endCommandBuffer();
}

TEST_F(Mtl4DebugLayerTest, AllocatorWithAnotherOpenCommandBuffer) {
    MTL4::CommandBuffer* other = own(device_->newCommandBuffer());
    commandBuffer_->setLabel(MTLSTR("first"));
    other->setLabel(MTLSTR("second"));
    commandBuffer_->beginCommandBuffer(allocator_);
    other->beginCommandBuffer(allocator_);
    expectReports({"-[MTL4DebugCommandBuffer beginCommandBufferWithAllocator:options:]:215: failed assertion "
                   "`Failed to begin command buffer (label: second) as command allocator (label: (null)) already has "
                   "an open command buffer (label: first).'"});
    commandBuffer_->endCommandBuffer();
}

TEST_F(Mtl4DebugLayerTest, EncoderBeforeBegin) {
    EXPECT_EQ(commandBuffer_->computeCommandEncoder(), nullptr);
    expectReports({"-[MTL4DebugCommandBuffer computeCommandEncoder]:301: failed assertion "
                   "`Call beginCommandBufferWithAllocator before creating a command encoder.'"});
}

TEST_F(Mtl4DebugLayerTest, SecondOpenEncoder) {
    commandBuffer_->beginCommandBuffer(allocator_);
    MTL4::ComputeCommandEncoder* encoder = commandBuffer_->computeCommandEncoder();
    EXPECT_EQ(commandBuffer_->computeCommandEncoder(), nullptr);
    expectReports({"-[MTL4DebugCommandBuffer computeCommandEncoder]:304: failed assertion "
                   "`Command buffer already has an open command encoder.'"});
    encoder->endEncoding();
    commandBuffer_->endCommandBuffer();
}

TEST_F(Mtl4DebugLayerTest, EndWithOpenEncoder) {
    commandBuffer_->beginCommandBuffer(allocator_);
    commandBuffer_->computeCommandEncoder();
    commandBuffer_->endCommandBuffer();
    expectReports({"-[MTL4DebugCommandBuffer endCommandBuffer]:263: failed assertion "
                   "`All associated command encoders must be ended before endCommandBuffer is called.'"});
}

TEST_F(Mtl4DebugLayerTest, EndBeforeBegin) {
    commandBuffer_->endCommandBuffer();
    expectReports({"-[MTL4DebugCommandBuffer endCommandBuffer]:260: failed assertion "
                   "`beginCommandBufferWithAllocator must be called before endCommandBuffer.'"});
}

TEST_F(Mtl4DebugLayerTest, CommitWithoutEnd) {
    MTL4::CommandBuffer* good = recorded(own(device_->newCommandBuffer()), own(device_->newCommandAllocator()));
    commandBuffer_->beginCommandBuffer(allocator_);
    const std::string message = "endCommandBuffer must be called before committing the command buffer (at index 1).";
    EXPECT_EQ(commitError({good, commandBuffer_}), message);
    expectReports({"-[MTL4DebugCommandQueue commit:count:options:]:412: failed assertion `" + message + "'"});
    // Nothing of a refused commit runs, not even its valid command buffers.
    EXPECT_EQ(static_cast<const std::uint32_t*>(out_->contents())[5], 0u);
    commandBuffer_->endCommandBuffer();
}

TEST_F(Mtl4DebugLayerTest, SameCommandBufferTwiceInOneCommit) {
    recorded(commandBuffer_, allocator_);
    const std::string message = "Command buffer (found at indices 0 and 1) can only be committed once.";
    EXPECT_EQ(commitError({commandBuffer_, commandBuffer_}), message);
    expectReports({"-[MTL4DebugCommandQueue commit:count:options:]:404: failed assertion `" + message + "'"});
}

TEST_F(Mtl4DebugLayerTest, CommitAgainWithoutBegin) {
    EXPECT_EQ(commitError({recorded(commandBuffer_, allocator_)}), "");
    const std::string message = "Command buffer has already been committed. Call beginCommandBufferWithAllocator to "
                                "reuse the command buffer (at index 0).";
    EXPECT_EQ(commitError({commandBuffer_}), message);
    expectReports({"-[MTL4DebugCommandQueue commit:count:options:]:408: failed assertion `" + message + "'"});
}

TEST_F(Mtl4DebugLayerTest, AllocatorResetBeforeCommit) {
    recorded(commandBuffer_, allocator_);
    allocator_->reset();
    const std::string message = "Command allocator for command buffer (at index 0) was reset or released before the "
                                "command buffer was committed.";
    EXPECT_EQ(commitError({commandBuffer_}), message);
    expectReports({"-[MTL4DebugCommandQueue commit:count:options:]:416: failed assertion `" + message + "'"});
}

TEST_F(Mtl4DebugLayerTest, DispatchWithoutArgumentTable) {
    commandBuffer_->beginCommandBuffer(allocator_);
    MTL4::ComputeCommandEncoder* encoder = commandBuffer_->computeCommandEncoder();
    encoder->setComputePipelineState(store_);
    encoder->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(4, 1, 1));
    encoder->endEncoding();
    commandBuffer_->endCommandBuffer();
    expectReports({"-[MTL4DebugComputeCommandEncoder dispatchThreads:threadsPerThreadgroup:]:1140: failed assertion "
                   "`No argument table was set on the encoder'"});
    EXPECT_EQ(commitError({commandBuffer_}), "No argument table was set on the encoder");
}

/// `store` through MTL4::Compiler with requiredThreadsPerThreadgroup `required`.
MTL::ComputePipelineState* requiredSizePipeline(MTL::Device* device, MTL::Library* library, MTL::Size required) {
    MTL4::CompilerDescriptor* compilerDescriptor = MTL4::CompilerDescriptor::alloc()->init();
    NS::Error* error = nullptr;
    MTL4::Compiler* compiler = device->newCompiler(compilerDescriptor, &error);
    compilerDescriptor->release();
    if (!compiler) return nullptr;
    MTL4::LibraryFunctionDescriptor* function = MTL4::LibraryFunctionDescriptor::alloc()->init();
    function->setLibrary(library);
    function->setName(MTLSTR("store"));
    MTL4::ComputePipelineDescriptor* descriptor = MTL4::ComputePipelineDescriptor::alloc()->init();
    descriptor->setComputeFunctionDescriptor(function);
    descriptor->setRequiredThreadsPerThreadgroup(required);
    MTL::ComputePipelineState* made = compiler->newComputePipelineState(descriptor, nullptr, &error);
    descriptor->release();
    function->release();
    compiler->release();
    return made;
}

// Test that a pipeline made with requiredThreadsPerThreadgroup (64, 1, 1) takes a dispatch of
// exactly that size, per dimension: (32, 2, 1) has the same 64 threads but is reported and
// dropped, so the kernel does not run; (64, 1, 1) runs silently (the positive twin).
TEST_F(Mtl4DebugLayerTest, RequiredThreadgroupSizeIsMatchedPerDimension) {
    MTL::ComputePipelineState* required = own(requiredSizePipeline(device_, library_, MTL::Size(64, 1, 1)));
    ASSERT_NE(required, nullptr);
    EXPECT_EQ(required->requiredThreadsPerThreadgroup().width, 64u);
    EXPECT_EQ(required->maxTotalThreadsPerThreadgroup(), 64u);
    auto ran = [&](MTL::Size group) {
        std::memset(out_->contents(), 0xff, 64 * 4);
        allocator_->reset();
        record(required, table_, MTL::Size(64, 2, 1), group);
        const std::string error = commitError({commandBuffer_});
        return error.empty() && static_cast<const std::uint32_t*>(out_->contents())[63] == 63u;
    };
    EXPECT_FALSE(ran(MTL::Size(32, 2, 1)));
    expectReports({"-[MTL4DebugComputeCommandEncoder dispatchThreads:threadsPerThreadgroup:]:1155: failed assertion "
                   "`(threadsPerThreadgroup.width(32) * threadsPerThreadgroup.height(2) * "
                   "threadsPerThreadgroup.depth(1))(64) must match the pipeline's "
                   "(requiredThreadsPerThreadgroup.width(64) * requiredThreadsPerThreadgroup.height(1) * "
                   "requiredThreadsPerThreadgroup.depth(1))(64).'"});
    EXPECT_TRUE(ran(MTL::Size(64, 1, 1)));
    expectReports({});
}

TEST_F(Mtl4DebugLayerTest, DispatchWithoutPipeline) {
    commandBuffer_->beginCommandBuffer(allocator_);
    MTL4::ComputeCommandEncoder* encoder = commandBuffer_->computeCommandEncoder();
    encoder->setArgumentTable(table_);
    encoder->dispatchThreadgroups(MTL::Size(1, 1, 1), MTL::Size(4, 1, 1));
    encoder->endEncoding();
    commandBuffer_->endCommandBuffer();
    expectReports({"-[MTL4DebugComputeCommandEncoder dispatchThreadgroups:threadsPerThreadgroup:]:1139: failed "
                   "assertion `No pipeline state was set on the encoder'"});
    EXPECT_EQ(commitError({commandBuffer_}), "No pipeline state was set on the encoder");
}

TEST_F(Mtl4DebugLayerTest, NilArgumentTable) {
    commandBuffer_->beginCommandBuffer(allocator_);
    MTL4::ComputeCommandEncoder* encoder = commandBuffer_->computeCommandEncoder();
    encoder->setArgumentTable(nullptr);
    expectReports({"-[MTL4DebugComputeCommandEncoder setArgumentTable:]:120: failed assertion "
                   "`Argument table cannot be nil'"});
    encoder->endEncoding();
    commandBuffer_->endCommandBuffer();
}

TEST_F(Mtl4DebugLayerTest, BindingBeyondTableLimit) {
    table_->setAddress(out_->gpuAddress(), 2);
    expectReports({"-[MTL4DebugArgumentTable setAddress:atIndex:]:120: failed assertion "
                   "`Argument table only supports 2 buffer bindings'"});
}

TEST_F(Mtl4DebugLayerTest, BindingNeverSet) {
    MTL4::ArgumentTable* partial = table(2);
    partial->setAddress(out_->gpuAddress(), 0);
    commandBuffer_->beginCommandBuffer(allocator_);
    MTL4::ComputeCommandEncoder* encoder = commandBuffer_->computeCommandEncoder();
    encoder->setComputePipelineState(store_);
    encoder->setArgumentTable(partial);
    encoder->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(4, 1, 1));
    encoder->endEncoding();
    commandBuffer_->endCommandBuffer();
    expectReports({"validateComputeFunctionArguments:1023: failed assertion "
                   "`Compute Function(store): buffer binding at index 1 for more was never set.'"});
}

// Test that the error a refused table hands out is autoreleased, as Metal's are: the caller
// owns no reference, and the pool it was made in lets go of it (it leaked before).
TEST_F(Mtl4DebugLayerTest, TableErrorIsAutoreleased) {
    MTL4::ArgumentTableDescriptor* descriptor = MTL4::ArgumentTableDescriptor::alloc()->init();
    descriptor->setMaxBufferBindCount(32);
    NS::Error* error = nullptr;
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    EXPECT_EQ(device_->newArgumentTable(descriptor, &error), nullptr);
    ASSERT_NE(error, nullptr);
    error->retain();
    EXPECT_EQ(error->retainCount(), 2u);
    pool->release();
    EXPECT_EQ(error->retainCount(), 1u) << "the pool held the only other reference";
    error->release();
    descriptor->release();
}

TEST_F(Mtl4DebugLayerTest, TableDescriptorOverLimits) {
    MTL4::ArgumentTableDescriptor* descriptor = MTL4::ArgumentTableDescriptor::alloc()->init();
    descriptor->setMaxBufferBindCount(32);
    NS::Error* error = nullptr;
    EXPECT_EQ(device_->newArgumentTable(descriptor, &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(text(error->localizedDescription()), "max buffer bind count must not be more than 31.");
    descriptor->setMaxBufferBindCount(31);
    descriptor->setMaxSamplerStateBindCount(17);
    EXPECT_EQ(device_->newArgumentTable(descriptor, &error), nullptr);
    EXPECT_EQ(text(error->localizedDescription()), "max sampler state bind count must not be more than 16.");
    descriptor->setMaxSamplerStateBindCount(16);
    descriptor->setMaxTextureBindCount(128);
    MTL4::ArgumentTable* largest = device_->newArgumentTable(descriptor, &error);
    EXPECT_NE(largest, nullptr);
    if (largest) largest->release();
    descriptor->release();
    expectReports({"-[MTLDebugDevice newArgumentTableWithDescriptor:error:]:3120: failed assertion "
                   "`max buffer bind count must not be more than 31.'",
                   "-[MTLDebugDevice newArgumentTableWithDescriptor:error:]:3120: failed assertion "
                   "`max sampler state bind count must not be more than 16.'"});
}

/// A buffer bound next to the fixture's, in residency sets or not.
class Mtl4ResidencyTest : public Mtl4DebugLayerTest {
protected:
    void SetUp() override {
        Mtl4DebugLayerTest::SetUp();
        loose_ = buffer(64 * 4);
        loose_->setLabel(NS::String::string("loose", NS::UTF8StringEncoding));
        table_->setAddress(loose_->gpuAddress(), 1);
    }
    /// Records `store` over 4 threads into a command buffer that uses `sets`, commits it and
    /// returns the commit's error.
    std::string run(std::vector<const MTL::ResidencySet*> sets) {
        std::fill_n(static_cast<std::uint32_t*>(loose_->contents()), 64, 0xFFFFFFFFu);
        record(store_, table_, MTL::Size(4, 1, 1), MTL::Size(4, 1, 1), std::move(sets));
        return commitError({commandBuffer_});
    }
    bool kernelWroteLoose() const { return static_cast<const std::uint32_t*>(loose_->contents())[3] == 3u; }

    static constexpr const char* kLooseMessage =
        "Compute Function(store): the buffer bound at index 1 for more[0] (label: loose) is in no committed "
        "residency set of the command buffer or its command queue.";
    MTL::Buffer* loose_ = nullptr;
};

// Test that a dispatch reading a buffer that no residency set of its command buffer or queue
// holds is reported at commit, naming the kernel, binding and label, and fails there.
TEST_F(Mtl4ResidencyTest, BufferInNoResidencySetIsReported) {
    EXPECT_EQ(run({}), kLooseMessage);
    expectReports({std::string("-[MTL4DebugCommandQueue commit:count:options:]:440: failed assertion `") +
                   kLooseMessage + "'"});
    EXPECT_FALSE(kernelWroteLoose());
}

// Test that a set counts only once committed: additions staged after the last commit()
// do not make the buffer resident, and the report names the set that holds them uncommitted
// (the forgotten commit()), where a buffer in no set at all gets the plain message above.
TEST_F(Mtl4ResidencyTest, StagedAdditionsDoNotCount) {
    const std::string staged =
        "Compute Function(store): the buffer bound at index 1 for more[0] (label: loose) is in no committed "
        "residency set of the command buffer or its command queue: it was added to residency set (label: (null)), "
        "but that set was not committed since (call commit() after addAllocation).";
    EXPECT_EQ(run({residencySet({loose_}, false)}), staged);
    expectReports({"-[MTL4DebugCommandQueue commit:count:options:]:440: failed assertion `" + staged + "'"});
}

// Test the positive twins: the buffer in a committed set the command buffer uses, or one the
// queue has, is silent and the kernel runs; a set removed from the queue no longer counts,
// nor does one a previous recording used.
TEST_F(Mtl4ResidencyTest, ResidentThroughCommandBufferOrQueue) {
    EXPECT_EQ(run({residencySet({loose_})}), "");
    expectReports({});
    EXPECT_TRUE(kernelWroteLoose());

    MTL::ResidencySet* queueSet = residencySet({loose_});
    queue4_->addResidencySet(queueSet);
    EXPECT_EQ(run({}), "");
    expectReports({});
    EXPECT_TRUE(kernelWroteLoose());

    queue4_->removeResidencySet(queueSet);
    EXPECT_EQ(run({}), kLooseMessage);
    EXPECT_EQ(reports_.size(), 1u);
    reports_.clear();
}

// Test that a texture bound in no set is reported by its texture index, and that a texture made
// over a buffer is resident through the buffer's set.
TEST_F(Mtl4ResidencyTest, TextureResidentThroughItsBuffer) {
    const char* source = R"(
#include <metal_stdlib>
using namespace metal;
kernel void read_texel(texture2d<float, access::read> image [[texture(0)]], device float* out [[buffer(0)]]) {
    out[0] = image.read(uint2(1, 0)).r;
}
)";
    MTL::ComputePipelineState* read = own(pipeline(source, "read_texel"));
    ASSERT_NE(read, nullptr);
    MTL::Buffer* storage = buffer(256);
    static_cast<float*>(storage->contents())[1] = 7.5f;
    MTL::TextureDescriptor* descriptor =
        MTL::TextureDescriptor::texture2DDescriptor(MTL::PixelFormatR32Float, 4, 1, false);
    descriptor->setStorageMode(MTL::StorageModeShared);
    descriptor->setUsage(MTL::TextureUsageShaderRead);
    MTL::Texture* image = own(storage->newTexture(descriptor, 0, 256));
    ASSERT_NE(image, nullptr);
    MTL4::ArgumentTableDescriptor* tableDescriptor = MTL4::ArgumentTableDescriptor::alloc()->init();
    tableDescriptor->setMaxBufferBindCount(1);
    tableDescriptor->setMaxTextureBindCount(1);
    NS::Error* error = nullptr;
    MTL4::ArgumentTable* arguments = own(device_->newArgumentTable(tableDescriptor, &error));
    tableDescriptor->release();
    ASSERT_NE(arguments, nullptr);
    arguments->setAddress(out_->gpuAddress(), 0);
    arguments->setTexture(image->gpuResourceID(), 0);
    auto runRead = [&](std::vector<const MTL::ResidencySet*> sets) {
        record(read, arguments, MTL::Size(1, 1, 1), MTL::Size(1, 1, 1), std::move(sets));
        return commitError({commandBuffer_});
    };
    const std::string message = "Compute Function(read_texel): the texture bound at texture index 0 for image[0] "
                                "(label: (null)) is in no committed residency set of the command buffer or its "
                                "command queue.";
    EXPECT_EQ(runRead({}), message);
    expectReports({"-[MTL4DebugCommandQueue commit:count:options:]:440: failed assertion `" + message + "'"});
    EXPECT_EQ(runRead({residencySet({storage})}), "");
    expectReports({});
    EXPECT_EQ(static_cast<const float*>(out_->contents())[0], 7.5f);
}

TEST_F(Mtl4DebugLayerTest, EncoderUsedAfterEnd) {
    commandBuffer_->beginCommandBuffer(allocator_);
    MTL4::ComputeCommandEncoder* encoder = commandBuffer_->computeCommandEncoder();
    encoder->endEncoding();
    encoder->setComputePipelineState(store_);
    encoder->endEncoding();
    expectReports({"-[MTL4DebugComputeCommandEncoder setComputePipelineState:]:90: failed assertion "
                   "`Invalid usage because encoding has ended.'",
                   "-[MTL4DebugComputeCommandEncoder endEncoding]:95: failed assertion "
                   "`endEncoding was already called!'"});
    commandBuffer_->endCommandBuffer();
}

} // namespace
} // namespace metalcpu::testing
