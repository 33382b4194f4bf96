// The hazard check between dispatches (METALCPU_SHADER_VALIDATION_CHECKS=hazards,
// validation/dispatch_hazards.h): device memory one dispatch stores to and another of the
// same concurrent encoder touches with no barrier between them. Every hazard has a silent
// twin: the barrier that orders the pair, a serial encoder, disjoint bytes, two atomics, the
// check off. Each test runs over grids of 1, 37 (groups of 8, the last one partial), 100
// (groups of 33) and 256 threads (groups of 64), with canary words around the buffers.
#include "validation_fixture.h"

#include <Metal/Metal.hpp>
#include <gmock/gmock.h>

#include <cstdint>
#include <future>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using validation::Access;
using validation::ReportKind;
using validation::ShaderValidationReport;

// Line numbers matter: the tests assert them.
constexpr const char* kKernels = R"(#include <metal_stdlib>
using namespace metal;
kernel void produce(device float* data [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    data[i] = float(i) + 1.0f;
}
kernel void consume(device const float* data [[buffer(0)]], device float* out [[buffer(1)]],
                    uint i [[thread_position_in_grid]]) {
    out[i] = data[i] * 2.0f;
}
kernel void count(device atomic_uint* counter [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    atomic_fetch_add_explicit(counter, 1u, memory_order_relaxed);
}
kernel void read_count(device const uint* counter [[buffer(0)]], device float* out [[buffer(1)]],
                       uint i [[thread_position_in_grid]]) {
    out[i] = float(counter[0]);
}
)";

constexpr unsigned kProduceLine = 4, kConsumeLine = 8, kCountLine = 11, kReadCountLine = 15;

class DispatchHazards : public ShapedValidationFixture<&kKernels> {
protected:
    void SetUp() override {
        ShapedValidationFixture::SetUp();
        configure(withHazards(true));
    }
    static val::ShaderValidationSettings withHazards(bool on) {
        val::ShaderValidationSettings settings;
        settings.enabled = true;
        settings.extraChecks.hazards = on;
        return settings;
    }

    std::uint32_t count() const { return static_cast<std::uint32_t>(GetParam().count); }
    /// An output of count() floats between canaries (ShapedValidationFixture::output), zeroed.
    MTL::Buffer* floatsBuffer() { return output(count(), 0); }

    /// One step of an encoder: a kernel, its buffers (bound one word past the leading canary)
    /// and what comes before its dispatch.
    struct Step {
        const char* kernel;
        std::vector<MTL::Buffer*> buffers;
        enum class Before { Nothing, BufferBarrier, TextureBarrier, ResourceBarrier } before = Before::Nothing;
    };

    /// Runs `steps` in one classic compute encoder of `type`; the reports.
    std::vector<ShaderValidationReport> runClassic(MTL::DispatchType type, const std::vector<Step>& steps) {
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder(type);
        for (const Step& step : steps) {
            MTL::ComputePipelineState* state = pipeline(library_, step.kernel, nullptr, MTL::ShaderValidationEnabled);
            if (!state) return {};
            switch (step.before) {
            case Step::Before::Nothing: break;
            case Step::Before::BufferBarrier: encoder->memoryBarrier(MTL::BarrierScopeBuffers); break;
            case Step::Before::TextureBarrier: encoder->memoryBarrier(MTL::BarrierScopeTextures); break;
            case Step::Before::ResourceBarrier: {
                std::vector<const MTL::Resource*> resources(step.buffers.begin(), step.buffers.end());
                encoder->memoryBarrier(resources.data(), resources.size());
                break;
            }
            }
            encoder->setComputePipelineState(state);
            for (std::size_t b = 0; b < step.buffers.size(); ++b)
                encoder->setBuffer(step.buffers[b], sizeof(std::uint32_t), b);
            encoder->dispatchThreads(MTL::Size(count(), 1, 1), MTL::Size(GetParam().group, 1, 1));
        }
        encoder->endEncoding();
        run(commands);
        EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
        return reports();
    }

    void expectProduced(MTL::Buffer* data, float scale = 1.0f) {
        for (std::uint32_t i = 0; i < count(); ++i) EXPECT_EQ(floats(data)[1 + i], scale * (float(i) + 1.0f)) << i;
        expectCanaries(data, count());
    }

    /// The one report expected: a hazard of `kernel` (dispatch `dispatch`) at `line`, against
    /// dispatch `otherDispatch` of `otherKernel`, once per thread.
    void expectHazard(const std::vector<ShaderValidationReport>& got, const char* kind, const char* kernel,
                      std::uint64_t dispatch, unsigned line, const char* otherKernel, std::uint64_t otherDispatch) {
        ASSERT_EQ(got.size(), 1u) << ::testing::PrintToString(got);
        const ShaderValidationReport& r = got[0];
        EXPECT_EQ(r.kind, ReportKind::DispatchHazard);
        EXPECT_STREQ(r.raceKind(), kind);
        EXPECT_EQ(r.kernel, kernel);
        EXPECT_EQ(r.dispatchIndex, dispatch);
        EXPECT_EQ(r.location.line, line);
        EXPECT_EQ(r.otherDispatch.kernel, otherKernel);
        EXPECT_EQ(r.otherDispatch.dispatchIndex, otherDispatch);
        EXPECT_EQ(r.count, count()) << "one per thread";
        EXPECT_EQ(r.threadPositionInGrid.x, 0u) << "the first thread in dispatch order";
        EXPECT_EQ(r.bindingIndex, 0);
        EXPECT_EQ(r.bufferLabel, "out");
        EXPECT_EQ(r.offset, sizeof(std::uint32_t)) << "thread 0's element, past the leading canary";
        EXPECT_THAT(r.text(), ::testing::HasSubstr(std::string("Dispatch hazard (") + kind + ")"));
        EXPECT_THAT(r.text(), ::testing::HasSubstr("with no barrier between the two dispatches"));
        EXPECT_THAT(r.json(), ::testing::HasSubstr(std::string("\"hazard\":\"") + kind + "\""));
    }
};

// Test that a dispatch reading what the one before it in a concurrent encoder stored, with no
// barrier between them, is reported as a read-after-write hazard at the load, naming the
// storing dispatch, while the results are those of the two run in order.
TEST_P(DispatchHazards, ReadAfterWriteInConcurrentEncoder) {
    MTL::Buffer* data = floatsBuffer();
    MTL::Buffer* out = floatsBuffer();
    const auto got = runClassic(MTL::DispatchTypeConcurrent, {{"produce", {data}}, {"consume", {data, out}}});
    expectHazard(got, "read-after-write", "consume", 1, kConsumeLine, "produce", 0);
    EXPECT_EQ(got.empty() ? Access::Store : got[0].other.access, Access::Store);
    expectProduced(data);
    expectProduced(out, 2.0f);
}

// Test that the barriers that order buffers silence it (memoryBarrier with the buffer scope, or
// naming the buffers), that a barrier over textures only does not, and that a serial encoder
// has no such hazard.
TEST_P(DispatchHazards, BarrierOrSerialEncoderOrdersThem) {
    using Before = Step::Before;
    for (Before before : {Before::BufferBarrier, Before::ResourceBarrier}) {
        MTL::Buffer* data = floatsBuffer();
        MTL::Buffer* out = floatsBuffer();
        Step consume{"consume", {data, out}, before};
        EXPECT_THAT(runClassic(MTL::DispatchTypeConcurrent, {{"produce", {data}}, consume}), ::testing::IsEmpty());
        expectProduced(out, 2.0f);
    }
    MTL::Buffer* data = floatsBuffer();
    MTL::Buffer* out = floatsBuffer();
    const auto textures =
        runClassic(MTL::DispatchTypeConcurrent, {{"produce", {data}}, {"consume", {data, out}, Before::TextureBarrier}});
    expectHazard(textures, "read-after-write", "consume", 1, kConsumeLine, "produce", 0);
    EXPECT_THAT(runClassic(MTL::DispatchTypeSerial, {{"produce", {data}}, {"consume", {data, out}}}),
                ::testing::IsEmpty());
}

// Test that a store to bytes an earlier dispatch of the span loaded is a write-after-read
// hazard, and two dispatches storing the same bytes a write-after-write one.
TEST_P(DispatchHazards, WriteAfterReadAndWriteAfterWrite) {
    MTL::Buffer* data = floatsBuffer();
    MTL::Buffer* out = floatsBuffer();
    // consume reads `data` (the zeroes it starts with), then produce stores to it.
    const auto war = runClassic(MTL::DispatchTypeConcurrent, {{"consume", {data, out}}, {"produce", {data}}});
    expectHazard(war, "write-after-read", "produce", 1, kProduceLine, "consume", 0);
    EXPECT_EQ(war.empty() ? Access::Load : war[0].access, Access::Store);
    EXPECT_EQ(war.empty() ? Access::Store : war[0].other.access, Access::Load);
    expectProduced(data);

    MTL::Buffer* twice = floatsBuffer();
    const auto waw = runClassic(MTL::DispatchTypeConcurrent, {{"produce", {twice}}, {"produce", {twice}}});
    expectHazard(waw, "write-after-write", "produce", 1, kProduceLine, "produce", 0);
}

// Test that dispatches touching disjoint parts of one buffer (each bound at its own offset),
// dispatches that only read the same bytes, and two dispatches of atomics on the same counter
// are silent; that a plain load of a counter an earlier dispatch updated atomically is not, nor
// an atomic update of a counter an earlier dispatch loaded plainly.
TEST_P(DispatchHazards, DisjointBytesReadsAndAtomicsAreNoHazard) {
    const std::uint32_t n = count();
    MTL::Buffer* both = output(2 * n, 0);
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder(MTL::DispatchTypeConcurrent);
    MTL::ComputePipelineState* produce = pipeline(library_, "produce", nullptr, MTL::ShaderValidationEnabled);
    ASSERT_NE(produce, nullptr);
    encoder->setComputePipelineState(produce);
    for (std::uint32_t half = 0; half < 2; ++half) {
        encoder->setBuffer(both, sizeof(std::uint32_t) * (1 + half * n), 0);
        encoder->dispatchThreads(MTL::Size(n, 1, 1), MTL::Size(GetParam().group, 1, 1));
    }
    encoder->endEncoding();
    run(commands);
    EXPECT_THAT(reports(), ::testing::IsEmpty()) << "each half stored by one dispatch";
    for (std::uint32_t i = 0; i < 2 * n; ++i) EXPECT_EQ(floats(both)[1 + i], float(i % n) + 1.0f) << i;
    expectCanaries(both, 2 * n);

    MTL::Buffer* data = floatsBuffer();
    MTL::Buffer* out1 = floatsBuffer();
    MTL::Buffer* out2 = floatsBuffer();
    EXPECT_THAT(runClassic(MTL::DispatchTypeConcurrent, {{"consume", {data, out1}}, {"consume", {data, out2}}}),
                ::testing::IsEmpty())
        << "two loads";

    MTL::Buffer* counter = output(1, 0);
    EXPECT_THAT(runClassic(MTL::DispatchTypeConcurrent, {{"count", {counter}}, {"count", {counter}}}),
                ::testing::IsEmpty())
        << "two atomics";
    EXPECT_EQ(words(counter)[1], 2 * n);
    MTL::Buffer* out = floatsBuffer();
    const auto mixed = runClassic(MTL::DispatchTypeConcurrent, {{"count", {counter}}, {"read_count", {counter, out}}});
    ASSERT_EQ(mixed.size(), 1u) << ::testing::PrintToString(mixed);
    EXPECT_EQ(mixed[0].kind, ReportKind::DispatchHazard);
    EXPECT_STREQ(mixed[0].raceKind(), "read-after-write");
    EXPECT_EQ(mixed[0].location.line, kReadCountLine);
    EXPECT_TRUE(mixed[0].other.atomic);
    EXPECT_EQ(mixed[0].otherDispatch.kernel, "count");
    EXPECT_THAT(mixed[0].text(), ::testing::HasSubstr("atomically stored to these bytes"));
    // And the other way round: an atomic update of bytes an earlier dispatch loaded plainly.
    const auto war = runClassic(MTL::DispatchTypeConcurrent, {{"read_count", {counter, out}}, {"count", {counter}}});
    ASSERT_EQ(war.size(), 1u) << ::testing::PrintToString(war);
    EXPECT_STREQ(war[0].raceKind(), "write-after-read");
    EXPECT_EQ(war[0].location.line, kCountLine);
    EXPECT_FALSE(war[0].other.atomic);
    EXPECT_EQ(war[0].otherDispatch.kernel, "read_count");
}

// Test that without the check (METALCPU_SHADER_VALIDATION_CHECKS not naming hazards) the
// same pair is silent.
TEST_P(DispatchHazards, OffWithoutTheCheck) {
    configure(withHazards(false));
    MTL::Buffer* data = floatsBuffer();
    MTL::Buffer* out = floatsBuffer();
    EXPECT_THAT(runClassic(MTL::DispatchTypeConcurrent, {{"produce", {data}}, {"consume", {data, out}}}),
                ::testing::IsEmpty());
    expectProduced(out, 2.0f);
}

// Test that a Metal 4 compute encoder, whose dispatches run concurrently unless a barrier
// orders them, has the hazard without barrierAfterEncoderStages from and to the dispatch
// stage, and not with it.
TEST_P(DispatchHazards, Metal4EncoderNeedsAnEncoderBarrier) {
    MTL4::CommandQueue* queue4 = device_->newMTL4CommandQueue();
    MTL4::CommandAllocator* allocator = device_->newCommandAllocator();
    MTL4::ArgumentTableDescriptor* descriptor = MTL4::ArgumentTableDescriptor::alloc()->init();
    descriptor->setMaxBufferBindCount(2);
    NS::Error* error = nullptr;
    MTL4::ArgumentTable* producing = device_->newArgumentTable(descriptor, &error);
    MTL4::ArgumentTable* consuming = device_->newArgumentTable(descriptor, &error);
    descriptor->release();
    ASSERT_NE(producing, nullptr);
    ASSERT_NE(consuming, nullptr);
    MTL::ComputePipelineState* produce = pipeline(library_, "produce", nullptr, MTL::ShaderValidationEnabled);
    MTL::ComputePipelineState* consume = pipeline(library_, "consume", nullptr, MTL::ShaderValidationEnabled);
    ASSERT_NE(produce, nullptr);
    ASSERT_NE(consume, nullptr);
    for (bool barrier : {false, true}) {
        MTL::Buffer* data = floatsBuffer();
        MTL::Buffer* out = floatsBuffer();
        producing->setAddress(data->gpuAddress() + sizeof(std::uint32_t), 0);
        consuming->setAddress(data->gpuAddress() + sizeof(std::uint32_t), 0);
        consuming->setAddress(out->gpuAddress() + sizeof(std::uint32_t), 1);
        MTL4::CommandBuffer* commands = device_->newCommandBuffer();
        commands->beginCommandBuffer(allocator);
        MTL4::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        const MTL::Size grid(count(), 1, 1), group(GetParam().group, 1, 1);
        encoder->setComputePipelineState(produce);
        encoder->setArgumentTable(producing);
        encoder->dispatchThreads(grid, group);
        if (barrier) encoder->barrierAfterEncoderStages(MTL::StageDispatch, MTL::StageDispatch, MTL4::VisibilityOptionDevice);
        encoder->setComputePipelineState(consume);
        encoder->setArgumentTable(consuming);
        encoder->dispatchThreads(grid, group);
        encoder->endEncoding();
        commands->endCommandBuffer();
        const MTL4::CommandBuffer* list[] = {commands};
        std::promise<void> done;
        MTL4::CommitOptions* options = MTL4::CommitOptions::alloc()->init();
        options->addFeedbackHandler([&done](MTL4::CommitFeedback*) { done.set_value(); });
        queue4->commit(list, 1, options);
        options->release();
        done.get_future().wait();
        commands->release();
        const auto got = reports();
        if (barrier) EXPECT_THAT(got, ::testing::IsEmpty());
        else expectHazard(got, "read-after-write", "consume", 1, kConsumeLine, "produce", 0);
        expectProduced(out, 2.0f);
    }
    producing->release();
    consuming->release();
    allocator->release();
    queue4->release();
}

INSTANTIATE_TEST_SUITE_P(Shapes, DispatchHazards,
                         ::testing::Values(Shape{1, 1}, Shape{37, 8}, Shape{100, 33}, Shape{256, 64}), shapeName);

} // namespace
} // namespace metalcpu::testing
