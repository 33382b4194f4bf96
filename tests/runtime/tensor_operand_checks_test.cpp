// Tensor operations whose operands or scope do not match what the descriptor says:
//  - execution_simdgroups<N> in a threadgroup of fewer SIMD-groups than N, which Apple leaves
//    undefined and a GPU turns into a partial result, fails its command buffer naming it
//    (the executor used to compute the full tile with the SIMD-groups present), beside the
//    correct twin that runs;
//  - matmul2d with a dynamic k whose operands disagree on K is Apple's edge checking, not a
//    mistake: elements past the shorter operand read as zero (llama.cpp's mul_mm relies on it).
// Both lowerings that gather a scope are covered: a `run` in the kernel body makes a coroutine
// kernel, one behind a helper's barrier stays on fibers. The kernels are compiled through
// MTL4::Compiler without options, which compiles at Metal 4.0 as Apple's does.
#include "lowering.h"
#include "metal_test.h"

#include <Metal/Metal.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>
using namespace metal;
using namespace mpp::tensor_ops;

struct Depths { int left, right; };

// Overloaded, so that the front end does not inline it before the barrier split
// (docs/compiler.md, "Restrictions"): the barrier stays in a helper and its caller on fibers.
struct Fibers {
    static void stay() { threadgroup_barrier(mem_flags::mem_none); }
    static void stay(int) { threadgroup_barrier(mem_flags::mem_none); }
};

// Apple's sample: one 32x32 tile of D = A x B per threadgroup of 4 SIMD-groups, K from the
// operands (A is (K, 32), B is (32, K), innermost first).
kernel void tile_in_body(device float* a [[buffer(0)]], device float* b [[buffer(1)]], device float* d [[buffer(2)]],
                         constant Depths& k [[buffer(3)]]) {
    auto A = tensor(a, dextents<int32_t, 2>(k.left, 32));
    auto B = tensor(b, dextents<int32_t, 2>(32, k.right));
    auto D = tensor(d, dextents<int32_t, 2>(32, 32));
    matmul2d<matmul2d_descriptor(32, 32, dynamic_length_v<int>), execution_simdgroups<4>> op;
    op.run(A, B, D);
}

kernel void tile_on_fibers(device float* a [[buffer(0)]], device float* b [[buffer(1)]], device float* d [[buffer(2)]],
                           constant Depths& k [[buffer(3)]]) {
    auto A = tensor(a, dextents<int32_t, 2>(k.left, 32));
    auto B = tensor(b, dextents<int32_t, 2>(32, k.right));
    auto D = tensor(d, dextents<int32_t, 2>(32, 32));
    matmul2d<matmul2d_descriptor(32, 32, dynamic_length_v<int>), execution_simdgroups<4>> op;
    Fibers::stay();
    op.run(A, B, D);
}
)";

struct Depths {
    std::int32_t left, right;
};

constexpr int kMaxDepth = 64;
constexpr float kCanary = -7.0f;

class TensorOperandChecks : public MetalTest, public ::testing::WithParamInterface<const char*> {
protected:
    static void SetUpTestSuite() {
        NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
        MTL::Device* device = MTL::CreateSystemDefaultDevice();
        MTL4::CompilerDescriptor* compilerDescriptor = MTL4::CompilerDescriptor::alloc()->init();
        NS::Error* error = nullptr;
        MTL4::Compiler* compiler = device->newCompiler(compilerDescriptor, &error);
        compilerDescriptor->release();
        if (compiler) {
            MTL4::LibraryDescriptor* descriptor = MTL4::LibraryDescriptor::alloc()->init();
            descriptor->setSource(NS::String::string(kKernels, NS::UTF8StringEncoding));
            library_ = compiler->newLibrary(descriptor, &error); // no options: Metal 4.0
            descriptor->release();
            compiler->release();
        }
        if (!library_) ADD_FAILURE() << "compile failed: " << text(error ? error->localizedDescription() : nullptr);
        device->release();
        pool->release();
    }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }

    struct Outcome {
        MTL::CommandBufferStatus status = MTL::CommandBufferStatusError;
        std::string error;
        std::vector<float> d; ///< the 32x32 destination, then its canaries
    };

    /// Runs GetParam() over one grid of 2 threadgroups of `threads` (or, given `gridThreads`,
    /// dispatchThreads of that many), with A and B all ones of K extents `depths` (so that
    /// each element of D is the K used).
    Outcome run(std::uint32_t threads, Depths depths, std::uint32_t gridThreads = 0) {
        Outcome outcome;
        MTL::ComputePipelineState* state = pipeline(library_, GetParam());
        if (!state) return outcome;
        MTL::Buffer* a = ones(kMaxDepth * 32);
        MTL::Buffer* b = ones(kMaxDepth * 32);
        constexpr int kCanaries = 16;
        MTL::Buffer* d = device_->newBuffer((32 * 32 + kCanaries) * sizeof(float), MTL::ResourceStorageModeShared);
        float* dv = static_cast<float*>(d->contents());
        for (int i = 0; i < 32 * 32 + kCanaries; ++i) dv[i] = kCanary;
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(a, 0, 0);
        encoder->setBuffer(b, 0, 1);
        encoder->setBuffer(d, 0, 2);
        encoder->setBytes(&depths, sizeof depths, 3);
        if (gridThreads)
            encoder->dispatchThreads(MTL::Size(gridThreads, 1, 1), MTL::Size(threads, 1, 1));
        else
            encoder->dispatchThreadgroups(MTL::Size(2, 1, 1), MTL::Size(threads, 1, 1));
        encoder->endEncoding();
        outcome.status = MetalTest::run(commands);
        outcome.error = commands->error() ? text(commands->error()->localizedDescription()) : "";
        outcome.d.assign(dv, dv + 32 * 32 + kCanaries);
        state->release();
        a->release();
        b->release();
        d->release();
        return outcome;
    }
    MTL::Buffer* ones(int count) {
        MTL::Buffer* buffer = device_->newBuffer(count * sizeof(float), MTL::ResourceStorageModeShared);
        for (int i = 0; i < count; ++i) static_cast<float*>(buffer->contents())[i] = 1.0f;
        return buffer;
    }
    /// How many elements of the tile are not `value`, and of the canaries not kCanary.
    static int wrong(const Outcome& outcome, float value) {
        int count = 0;
        for (std::size_t i = 0; i < outcome.d.size(); ++i) count += outcome.d[i] != (i < 32 * 32 ? value : kCanary);
        return count;
    }

    static inline MTL::Library* library_ = nullptr;
};

// Test that the two kernels take the lowerings this suite means to cover.
TEST_F(TensorOperandChecks, KernelsCoverBothScopeGatherings) {
    expectLowerings({{"tile_in_body", MC_KERNEL_COROUTINES}, {"tile_on_fibers", MC_KERNEL_USES_BARRIERS}},
                    [&](const char* name) { return pipeline(library_, name); });
}

// Test the correct twin: 4 SIMD-groups (128 threads) for execution_simdgroups<4>, and 8 (two
// whole scopes, each computing the tile) run and give K everywhere, canaries intact.
TEST_P(TensorOperandChecks, WholeScopesRun) {
    for (std::uint32_t threads : {128u, 256u}) {
        const Outcome outcome = run(threads, {48, 48});
        EXPECT_EQ(outcome.status, MTL::CommandBufferStatusCompleted) << threads << ": " << outcome.error;
        EXPECT_EQ(wrong(outcome, 48.0f), 0) << threads;
    }
}

// Test that the size checked is the one dispatched: dispatchThreads of 200 threads in groups
// of 128 makes an edge group of 72 threads (3 SIMD-groups), which is the grid's shape, not a
// mistake, and runs.
TEST_P(TensorOperandChecks, EdgeGroupsOfDispatchThreadsRun) {
    const Outcome outcome = run(128, {48, 48}, 200);
    EXPECT_EQ(outcome.status, MTL::CommandBufferStatusCompleted) << outcome.error;
    EXPECT_EQ(wrong(outcome, 48.0f), 0);
}

// Test that a threadgroup of 1, 3 or 5 SIMD-groups (1 and 3: too few for the scope; 5: its
// second scope has one) fails the command buffer naming the scope and the threadgroup, where
// it used to compute the full tile with the SIMD-groups present.
TEST_P(TensorOperandChecks, ScopeLargerThanTheThreadgroupFails) {
    for (std::uint32_t threads : {32u, 96u, 160u}) {
        const Outcome outcome = run(threads, {48, 48});
        EXPECT_EQ(outcome.status, MTL::CommandBufferStatusError) << threads;
        const std::string simdgroups = std::to_string((threads + 31) / 32);
        EXPECT_NE(outcome.error.find("matmul2d with execution_simdgroups<4> ran in a threadgroup of " +
                                     std::to_string(threads) + " threads (" + simdgroups + " SIMD-group"),
                  std::string::npos)
            << threads << ": " << outcome.error;
        EXPECT_NE(outcome.error.find("dispatch 4 x 32 threads per threadgroup"), std::string::npos) << outcome.error;
    }
    EXPECT_NE(run(32, {48, 48}).error.find("which holds fewer than 4 SIMD-groups"), std::string::npos);
    EXPECT_NE(run(160, {48, 48}).error.find("which holds a last scope of fewer than 4"), std::string::npos);
}

// Test that operands disagreeing on K under a dynamic k (48 and 40, all ones) give the product
// over the shorter K, as Apple's edge checking reads zeros past an operand's extent: 40 in
// every element, canaries intact.
TEST_P(TensorOperandChecks, DynamicKOperandsThatDisagreeReadZerosPastTheShorter) {
    for (const Depths depths : {Depths{48, 40}, Depths{40, 48}}) {
        const Outcome outcome = run(128, depths);
        EXPECT_EQ(outcome.status, MTL::CommandBufferStatusCompleted) << outcome.error;
        EXPECT_EQ(wrong(outcome, 40.0f), 0) << depths.left << " " << depths.right;
    }
}

INSTANTIATE_TEST_SUITE_P(Lowerings, TensorOperandChecks, ::testing::Values("tile_in_body", "tile_on_fibers"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

} // namespace
} // namespace metalcpu::testing
