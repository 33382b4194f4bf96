#include "metal_test.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

namespace metalcpu::testing {
namespace {

// One source for all dispatch tests, so the suite compiles kernels once.
const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

struct Params { uint count; float scale; };

kernel void scale_add(device const float* a [[buffer(0)]],
                      device const float* b [[buffer(1)]],
                      device float* out [[buffer(2)]],
                      constant Params& params [[buffer(3)]],
                      uint i [[thread_position_in_grid]]) {
    if (i >= params.count) return;
    out[i] = a[i] * params.scale + b[i];
}

// Every built-in a 2-D kernel can ask for, written out per thread (8 words each).
kernel void positions(device uint* out,
                      constant uint2& grid,
                      uint2 gid [[thread_position_in_grid]],
                      ushort2 local [[thread_position_in_threadgroup]],
                      uint2 group [[threadgroup_position_in_grid]],
                      uint2 size [[threads_per_threadgroup]],
                      uint flat [[thread_index_in_threadgroup]],
                      uint lane [[thread_index_in_simdgroup]],
                      uint simd [[simdgroup_index_in_threadgroup]]) {
    uint index = (gid.y * grid.x + gid.x) * 8;
    out[index + 0] = gid.x;
    out[index + 1] = gid.y;
    out[index + 2] = local.x + 1000 * local.y;
    out[index + 3] = group.x + 1000 * group.y;
    out[index + 4] = size.x + 1000 * size.y;
    out[index + 5] = flat;
    out[index + 6] = lane;
    out[index + 7] = simd;
}

// Reverses each threadgroup's slice through threadgroup memory; threads beyond the data
// return before the barrier, which must not deadlock the others.
kernel void reverse_groups(device const int* in [[buffer(0)]],
                           device int* out [[buffer(1)]],
                           constant uint& count [[buffer(2)]],
                           uint i [[thread_position_in_grid]],
                           uint local [[thread_index_in_threadgroup]],
                           uint size [[threads_per_threadgroup]],
                           uint group [[threadgroup_position_in_grid]],
                           uint width [[dispatch_threads_per_threadgroup]]) {
    threadgroup int slice[1024];
    slice[local] = in[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = slice[size - 1 - local];
    (void)group; (void)width; (void)count;
}

// Sums a group's values in [[threadgroup(0)]] memory sized by the host.
kernel void group_sums(device const uint* in [[buffer(0)]],
                       device uint* sums [[buffer(1)]],
                       threadgroup uint* scratch [[threadgroup(0)]],
                       uint i [[thread_position_in_grid]],
                       uint local [[thread_index_in_threadgroup]],
                       uint size [[threads_per_threadgroup]],
                       uint group [[threadgroup_position_in_grid]]) {
    scratch[local] = in[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (local == 0) {
        uint total = 0;
        for (uint k = 0; k < size; ++k) total += scratch[k];
        sums[group] = total;
    }
}

// Implicit buffer indices: declaration order, skipping the explicit one.
kernel void implicit_indices(device int* first,
                             device int* explicit_one [[buffer(0)]],
                             device int* second,
                             uint i [[thread_position_in_grid]]) {
    explicit_one[i] = 100;
    first[i] = 1;
    second[i] = 2;
}

// Vector and matrix types, swizzles and half.
kernel void vectors(device float4* out [[buffer(0)]], device half* halves [[buffer(1)]]) {
    float4 v = float4(1.0f, 2.0f, 3.0f, 4.0f);
    float4x4 m(2.0f);
    out[0] = m * v;
    out[1] = v.wzyx;
    out[2] = float4(v.xy, 5.0f, 6.0f);
    float4x4 n(float4(1, 0, 0, 0), float4(0, 1, 0, 0), float4(0, 0, 1, 0), float4(1, 2, 3, 1));
    out[3] = n * float4(0, 0, 0, 1);
    half h = 1.5h;
    halves[0] = h * h;
}
)";

class DispatchTest : public MetalTest {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }

    MTL::ComputePipelineState* kernel(const char* name) { return pipeline(library_, name); }

    MTL::Buffer* buffer(std::size_t bytes) { return device_->newBuffer(bytes, MTL::ResourceStorageModeShared); }

    static MTL::Library* library_;
};
MTL::Library* DispatchTest::library_ = nullptr;

// Canary words around output: a thread that writes outside its element shows up.
constexpr std::uint32_t kCanary = 0xC0FFEE11u;

struct LinearCase {
    unsigned count;
    unsigned groupWidth;
};

class LinearDispatch : public DispatchTest, public ::testing::WithParamInterface<LinearCase> {};

// Test a 1-D kernel over grids that do not divide evenly, with setBytes parameters.
TEST_P(LinearDispatch, ScaleAdd) {
    const LinearCase& param = GetParam();
    MTL::ComputePipelineState* state = kernel("scale_add");
    ASSERT_NE(state, nullptr);
    const unsigned guard = 8;
    MTL::Buffer* a = buffer(param.count * 4);
    MTL::Buffer* b = buffer(param.count * 4);
    MTL::Buffer* out = buffer((param.count + 2 * guard) * 4);
    auto* av = static_cast<float*>(a->contents());
    auto* bv = static_cast<float*>(b->contents());
    auto* ov = static_cast<std::uint32_t*>(out->contents());
    for (unsigned i = 0; i < param.count; ++i) {
        av[i] = float(i);
        bv[i] = float(2 * i + 1);
    }
    for (unsigned i = 0; i < param.count + 2 * guard; ++i) ov[i] = kCanary;
    struct Params {
        std::uint32_t count;
        float scale;
    } params{param.count, 0.5f};

    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(a, 0, 0);
    encoder->setBuffer(b, 0, 1);
    encoder->setBuffer(out, guard * 4, 2);
    encoder->setBytes(&params, sizeof params, 3);
    encoder->dispatchThreads(MTL::Size(param.count, 1, 1), MTL::Size(param.groupWidth, 1, 1));
    encoder->endEncoding();
    ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);

    const float* result = reinterpret_cast<const float*>(ov + guard);
    for (unsigned i = 0; i < param.count; ++i) ASSERT_EQ(result[i], 0.5f * float(i) + float(2 * i + 1)) << i;
    for (unsigned i = 0; i < guard; ++i) {
        EXPECT_EQ(ov[i], kCanary);
        EXPECT_EQ(ov[guard + param.count + i], kCanary);
    }
    for (MTL::Buffer* released : {a, b, out}) released->release();
    state->release();
}

INSTANTIATE_TEST_SUITE_P(Shapes, LinearDispatch,
                         ::testing::Values(LinearCase{1, 1}, LinearCase{100, 1}, LinearCase{1000, 7},
                                           LinearCase{1000, 33}, LinearCase{4097, 1024}, LinearCase{64, 64}),
                         [](const ::testing::TestParamInfo<LinearCase>& info) {
                             return "n" + std::to_string(info.param.count) + "_group" +
                                    std::to_string(info.param.groupWidth);
                         });

struct GridCase {
    unsigned width, height, groupWidth, groupHeight;
};

class GridDispatch : public DispatchTest, public ::testing::WithParamInterface<GridCase> {};

// Test every 2-D built-in, in uint2 and ushort2 forms, including partial edge groups.
TEST_P(GridDispatch, BuiltinsMatchTheGrid) {
    const GridCase& param = GetParam();
    MTL::ComputePipelineState* state = kernel("positions");
    ASSERT_NE(state, nullptr);
    MTL::Buffer* out = buffer(param.width * param.height * 8 * 4);
    std::uint32_t grid[2] = {param.width, param.height};
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(out, 0, 0);
    encoder->setBytes(grid, sizeof grid, 1);
    encoder->dispatchThreads(MTL::Size(param.width, param.height, 1), MTL::Size(param.groupWidth, param.groupHeight, 1));
    encoder->endEncoding();
    ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
    auto* values = static_cast<const std::uint32_t*>(out->contents());
    for (unsigned y = 0; y < param.height; ++y)
        for (unsigned x = 0; x < param.width; ++x) {
            const std::uint32_t* v = values + (y * param.width + x) * 8;
            unsigned lx = x % param.groupWidth, ly = y % param.groupHeight;
            unsigned sx = std::min(param.groupWidth, param.width - x / param.groupWidth * param.groupWidth);
            unsigned sy = std::min(param.groupHeight, param.height - y / param.groupHeight * param.groupHeight);
            unsigned flat = ly * sx + lx;
            ASSERT_EQ(v[0], x);
            ASSERT_EQ(v[1], y);
            ASSERT_EQ(v[2], lx + 1000 * ly);
            ASSERT_EQ(v[3], x / param.groupWidth + 1000 * (y / param.groupHeight));
            ASSERT_EQ(v[4], sx + 1000 * sy) << "threads_per_threadgroup is the actual size of an edge group";
            ASSERT_EQ(v[5], flat);
            ASSERT_EQ(v[6], flat % 32);
            ASSERT_EQ(v[7], flat / 32);
        }
    out->release();
    state->release();
}

INSTANTIATE_TEST_SUITE_P(Shapes, GridDispatch,
                         ::testing::Values(GridCase{1, 1, 1, 1}, GridCase{37, 19, 8, 8}, GridCase{33, 5, 33, 1},
                                           GridCase{64, 48, 16, 16}, GridCase{10, 100, 3, 7}),
                         [](const ::testing::TestParamInfo<GridCase>& info) {
                             const GridCase& c = info.param;
                             return std::to_string(c.width) + "x" + std::to_string(c.height) + "_group" +
                                    std::to_string(c.groupWidth) + "x" + std::to_string(c.groupHeight);
                         });

class BarrierDispatch : public DispatchTest, public ::testing::WithParamInterface<LinearCase> {};

// Test that a barrier kernel exchanges data through threadgroup memory in every group size.
TEST_P(BarrierDispatch, ReverseEachGroup) {
    const LinearCase& param = GetParam();
    MTL::ComputePipelineState* state = kernel("reverse_groups");
    ASSERT_NE(state, nullptr);
    MTL::Buffer* in = buffer(param.count * 4);
    MTL::Buffer* out = buffer(param.count * 4);
    auto* iv = static_cast<int*>(in->contents());
    for (unsigned i = 0; i < param.count; ++i) iv[i] = int(i * 3);
    std::uint32_t count = param.count;
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(in, 0, 0);
    encoder->setBuffer(out, 0, 1);
    encoder->setBytes(&count, sizeof count, 2);
    encoder->dispatchThreads(MTL::Size(param.count, 1, 1), MTL::Size(param.groupWidth, 1, 1));
    encoder->endEncoding();
    ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
    auto* ov = static_cast<const int*>(out->contents());
    for (unsigned i = 0; i < param.count; ++i) {
        unsigned start = i / param.groupWidth * param.groupWidth;
        unsigned size = std::min(param.groupWidth, param.count - start);
        unsigned mirrored = start + (size - 1 - (i - start));
        ASSERT_EQ(ov[i], int(mirrored * 3)) << i;
    }
    in->release();
    out->release();
    state->release();
}

INSTANTIATE_TEST_SUITE_P(Shapes, BarrierDispatch,
                         ::testing::Values(LinearCase{1, 1}, LinearCase{10, 1}, LinearCase{100, 7},
                                           LinearCase{1000, 33}, LinearCase{2048, 1024}, LinearCase{3000, 256}),
                         [](const ::testing::TestParamInfo<LinearCase>& info) {
                             return "n" + std::to_string(info.param.count) + "_group" +
                                    std::to_string(info.param.groupWidth);
                         });

// Test [[threadgroup(0)]] memory sized with setThreadgroupMemoryLength.
TEST_F(DispatchTest, ThreadgroupArgument) {
    MTL::ComputePipelineState* state = kernel("group_sums");
    ASSERT_NE(state, nullptr);
    const unsigned groups = 5, width = 64;
    MTL::Buffer* in = buffer(groups * width * 4);
    MTL::Buffer* sums = buffer(groups * 4);
    auto* iv = static_cast<std::uint32_t*>(in->contents());
    for (unsigned i = 0; i < groups * width; ++i) iv[i] = i;
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(in, 0, 0);
    encoder->setBuffer(sums, 0, 1);
    encoder->setThreadgroupMemoryLength(width * 4, 0);
    encoder->dispatchThreadgroups(MTL::Size(groups, 1, 1), MTL::Size(width, 1, 1));
    encoder->endEncoding();
    ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
    auto* sv = static_cast<const std::uint32_t*>(sums->contents());
    for (unsigned g = 0; g < groups; ++g) {
        std::uint32_t expected = 0;
        for (unsigned k = 0; k < width; ++k) expected += g * width + k;
        EXPECT_EQ(sv[g], expected);
    }
    in->release();
    sums->release();
    state->release();
}

// Test that parameters without [[buffer(n)]] take the first free index in order.
TEST_F(DispatchTest, ImplicitBufferIndices) {
    MTL::ComputePipelineState* state = kernel("implicit_indices");
    ASSERT_NE(state, nullptr);
    MTL::Buffer* buffers[3] = {buffer(4), buffer(4), buffer(4)};
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    const NS::UInteger offsets[3] = {0, 0, 0};
    encoder->setBuffers(buffers, offsets, NS::Range::Make(0, 3));
    encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    encoder->endEncoding();
    ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(*static_cast<int*>(buffers[0]->contents()), 100); // explicit [[buffer(0)]]
    EXPECT_EQ(*static_cast<int*>(buffers[1]->contents()), 1);   // first implicit
    EXPECT_EQ(*static_cast<int*>(buffers[2]->contents()), 2);   // second implicit
    for (MTL::Buffer* released : buffers) released->release();
    state->release();
}

// Test vector, matrix (column-major) and half arithmetic in a kernel.
TEST_F(DispatchTest, VectorsMatricesAndHalf) {
    MTL::ComputePipelineState* state = kernel("vectors");
    ASSERT_NE(state, nullptr);
    MTL::Buffer* out = buffer(4 * 16);
    MTL::Buffer* halves = buffer(16);
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(out, 0, 0);
    encoder->setBuffer(halves, 0, 1);
    encoder->dispatchThreadgroups(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    encoder->endEncoding();
    ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
    auto* f = static_cast<const float*>(out->contents());
    const float expected[16] = {2, 4, 6, 8, 4, 3, 2, 1, 1, 2, 5, 6, 1, 2, 3, 1};
    for (int i = 0; i < 16; ++i) EXPECT_EQ(f[i], expected[i]) << i;
    std::uint16_t bits;
    std::memcpy(&bits, halves->contents(), 2);
    EXPECT_EQ(bits, 0x4080u); // 2.25 in IEEE half
    out->release();
    halves->release();
    state->release();
}

// Test that a dispatch without a pipeline fails the command buffer with an error, not a crash.
TEST_F(DispatchTest, DispatchWithoutPipelineFails) {
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(4, 1, 1));
    encoder->endEncoding();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusError);
    ASSERT_NE(commandBuffer->error(), nullptr);
    EXPECT_NE(text(commandBuffer->error()->localizedDescription()).find("pipeline"), std::string::npos);
}

// Test that a threadgroup over 1024 threads fails the command buffer with Metal's message.
TEST_F(DispatchTest, ThreadgroupOver1024Fails) {
    MTL::ComputePipelineState* state = kernel("scale_add");
    ASSERT_NE(state, nullptr);
    MTL::Buffer* any = buffer(64);
    float params[2] = {0, 0};
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    for (int i = 0; i < 3; ++i) encoder->setBuffer(any, 0, i);
    encoder->setBytes(params, sizeof params, 3);
    encoder->dispatchThreads(MTL::Size(2048, 1, 1), MTL::Size(1025, 1, 1));
    encoder->endEncoding();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusError);
    ASSERT_NE(commandBuffer->error(), nullptr);
    EXPECT_NE(text(commandBuffer->error()->localizedDescription()).find("must be <= 1024"), std::string::npos)
        << text(commandBuffer->error()->localizedDescription());
    any->release();
    state->release();
}

// Test that, without the debug layer, a kernel reading an argument that has nothing bound
// fails the command buffer as the GPU's page fault would, naming the argument (Metal runs
// such a dispatch; tests/validation has the kernel that never touches it).
TEST_F(DispatchTest, ReadingAnUnboundArgumentFails) {
    MTL::ComputePipelineState* state = kernel("scale_add");
    ASSERT_NE(state, nullptr);
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(4, 1, 1));
    encoder->endEncoding();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusError);
    ASSERT_NE(commandBuffer->error(), nullptr);
    EXPECT_EQ(commandBuffer->error()->code(), MTL::CommandBufferErrorPageFault);
    EXPECT_NE(text(commandBuffer->error()->localizedDescription()).find("argument 'params' [[buffer(3)]]"),
              std::string::npos)
        << text(commandBuffer->error()->localizedDescription());
    state->release();
}

// Test that a `constant T&` argument bound to too small a buffer fails instead of reading past it.
TEST_F(DispatchTest, TooSmallBufferForReferenceFails) {
    MTL::ComputePipelineState* state = kernel("scale_add");
    ASSERT_NE(state, nullptr);
    MTL::Buffer* any = buffer(64);
    std::uint32_t tooShort = 4;
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    for (int i = 0; i < 3; ++i) encoder->setBuffer(any, 0, i);
    encoder->setBytes(&tooShort, sizeof tooShort, 3);
    encoder->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(4, 1, 1));
    encoder->endEncoding();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusError);
    any->release();
    state->release();
}

} // namespace
} // namespace metalcpu::testing
