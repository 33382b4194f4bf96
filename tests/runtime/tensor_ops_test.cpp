// Metal 4 tensors and cooperative tensors in kernels compiled through the public API
// (newLibrary with MTL::LanguageVersion4_0), over ordinary buffers (tensor_inline): what runs
// without the tensor operations' executor. Each kernel moves a ragged matrix through
// cooperative tensors and stores it clipped, under each emulated layout (the device's test
// hook), plain and shader-validated, with canaries around the output.
//  - portable_tile: one 32x32 tile per threadgroup of 2 SIMD-groups (execution_simdgroups<2>),
//    changed through get_multidimensional_index: the portable way, so every layout must give
//    the same result.
//  - thread_tiles: one 8x4 tile per thread (execution_thread), any threadgroup size.
#include "guarded_buffer.h"
#include "metal_test.h"

#include "runtime/device.h"
#include "runtime/gpu_family.h"

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

struct Shape { int width, height; };

kernel void portable_tile(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                          constant Shape& shape [[buffer(2)]], uint2 tg [[threadgroup_position_in_grid]]) {
    auto In = tensor(in, dextents<int32_t, 2>(shape.width, shape.height));
    auto Out = tensor(out, dextents<int32_t, 2>(shape.width, shape.height));
    const int x0 = int(tg.x) * 32, y0 = int(tg.y) * 32;
    auto source = In.slice<32, 32>(x0, y0);
    auto destination = Out.slice<32, 32>(x0, y0);
    constexpr auto desc = matmul2d_descriptor(32, 32, 16);
    matmul2d<desc, execution_simdgroups<2>> op;
    // Until the front end counts tensor operations as collectives, a barrier keeps the
    // kernel off plain loops (cooperative tensors find their thread by the lowering).
    threadgroup_barrier(mem_flags::mem_none);
    auto ct = op.get_destination_cooperative_tensor<decltype(source), decltype(source), float>();
    ct.load(source);
    for (uint16_t i = 0; i < ct.get_capacity(); ++i) {
        if (!ct.is_valid_element(i)) continue;
        auto idx = ct.get_multidimensional_index(i);
        ct[i] = ct[i] * 2.0f + float(idx[0]) + 100.0f * float(idx[1]);
    }
    ct.store(destination);
}

kernel void thread_tiles(device const half* in [[buffer(0)]], device half* out [[buffer(1)]],
                         constant Shape& shape [[buffer(2)]], uint gid [[thread_position_in_grid]]) {
    const int tiles_x = (shape.width + 7) / 8;
    auto In = tensor(in, dextents<int32_t, 2>(shape.width, shape.height), array<int32_t, 2>({1, shape.width}));
    auto Out = tensor(out, dextents<int32_t, 2>(shape.width, shape.height));
    const int x0 = int(gid) % tiles_x * 8, y0 = int(gid) / tiles_x * 4;
    matmul2d<matmul2d_descriptor(4, 8), execution_thread> op;
    auto ct = op.get_destination_cooperative_tensor<decltype(In), decltype(In), half>();
    ct.load(In.slice(x0, y0));
    for (auto it = ct.begin(); it != ct.end(); ++it)
        if (it.is_valid_element()) *it = *it + half(1);
    ct.store(Out.slice<8, 4>(x0, y0));
}
)";

struct Shape {
    std::int32_t width, height;
};

/// (cooperative layout, shader validation on).
using LayoutShape = std::tuple<mc_u32, bool>;

class TensorKernels : public MetalTest, public ::testing::WithParamInterface<LayoutShape> {
protected:
    static void SetUpTestSuite() {
        NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
        MTL::Device* device = MTL::CreateSystemDefaultDevice();
        MTL::CompileOptions* options = MTL::CompileOptions::alloc()->init();
        options->setLanguageVersion(MTL::LanguageVersion4_0);
        NS::Error* error = nullptr;
        library_ = device->newLibrary(NS::String::string(kKernels, NS::UTF8StringEncoding), options, &error);
        if (!library_) ADD_FAILURE() << "compile failed: " << text(error ? error->localizedDescription() : nullptr);
        options->release();
        device->release();
        pool->release();
    }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }
    void SetUp() override {
        MetalTest::SetUp();
        rt::GpuEmulation emulation;
        emulation.cooperativeLayout = std::get<0>(GetParam());
        emulation.cooperativeSeed = 5;
        ns::implOf<rt::Device>(device_)->setEmulationForTesting(emulation);
    }

    /// Runs `name` over `in` into `out` (guarded) in `groups` groups of `threads`, or over
    /// `threads` threads in groups of `groupSize` when `groups` is empty.
    void run(const char* name, MTL::Buffer* in, GuardedBuffer& out, Shape shape, MTL::Size grid, MTL::Size group,
             bool byThreads) {
        MTL::ComputePipelineState* state = pipeline(library_, name, std::get<1>(GetParam()));
        ASSERT_NE(state, nullptr);
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(in, 0, 0);
        out.bind(encoder, 1);
        encoder->setBytes(&shape, sizeof shape, 2);
        if (byThreads)
            encoder->dispatchThreads(grid, group);
        else
            encoder->dispatchThreadgroups(grid, group);
        encoder->endEncoding();
        EXPECT_EQ(MetalTest::run(commands), MTL::CommandBufferStatusCompleted)
            << text(commands->error() ? commands->error()->localizedDescription() : nullptr);
        state->release();
    }

    inline static MTL::Library* library_ = nullptr;
};

// Test the portable kernel on a matrix that no tile divides: every element inside the matrix
// is its input times 2 plus its tile-local coordinate, whatever the layout, and nothing is
// written outside the matrix (the clipped static slices).
TEST_P(TensorKernels, PortableTileIsTheSameUnderEveryLayout) {
    const Shape shape{70, 45};
    const unsigned count = unsigned(shape.width * shape.height);
    std::vector<float> input(count);
    for (unsigned i = 0; i < count; ++i) input[i] = float(int(i % 23) - 11) * 0.25f;
    MTL::Buffer* in = device_->newBuffer(input.data(), count * 4, MTL::ResourceStorageModeShared);
    GuardedBuffer out(device_, count * 4);
    run("portable_tile", in, out, shape, MTL::Size(3, 2, 1), MTL::Size(64, 1, 1), false);
    for (int y = 0; y < shape.height; ++y)
        for (int x = 0; x < shape.width; ++x) {
            const float expected = input[unsigned(y * shape.width + x)] * 2.0f + float(x % 32) + 100.0f * float(y % 32);
            ASSERT_EQ(out.data<float>()[y * shape.width + x], expected) << x << "," << y;
        }
    out.expectCanariesIntact();
    in->release();
}

// Test per-thread cooperative tensors (execution_thread) in groups of 1, 7, 33 and 64
// threads over a grid the groups do not divide: each element is its input plus one.
TEST_P(TensorKernels, ThreadTilesInAnyGroupSize) {
    const Shape shape{37, 22};  // 5 x 6 tiles of 8 x 4, the last column and row ragged
    const unsigned count = unsigned(shape.width * shape.height), tiles = 5 * 6;
    std::vector<_Float16> input(count);
    for (unsigned i = 0; i < count; ++i) input[i] = _Float16(float(i % 61) * 0.5f);
    MTL::Buffer* in = device_->newBuffer(input.data(), count * 2, MTL::ResourceStorageModeShared);
    for (unsigned group : {1u, 7u, 33u, 64u}) {
        GuardedBuffer out(device_, count * 2);
        run("thread_tiles", in, out, shape, MTL::Size(tiles, 1, 1), MTL::Size(group, 1, 1), true);
        for (unsigned i = 0; i < count; ++i)
            ASSERT_EQ(float(out.data<_Float16>()[i]), float(input[i]) + 1.0f) << "element " << i << ", groups of " << group;
        out.expectCanariesIntact();
    }
    in->release();
}

std::string layoutShapeName(const ::testing::TestParamInfo<LayoutShape>& info) {
    return rt::GpuEmulation::layoutName(std::get<0>(info.param)) + (std::get<1>(info.param) ? "_validated" : "");
}

INSTANTIATE_TEST_SUITE_P(Layouts, TensorKernels,
                         ::testing::Combine(::testing::Values(mc_u32(MC_COOPERATIVE_LAYOUT_APPLE10),
                                                              mc_u32(MC_COOPERATIVE_LAYOUT_APPLE9),
                                                              mc_u32(MC_COOPERATIVE_LAYOUT_SHUFFLED),
                                                              mc_u32(MC_COOPERATIVE_LAYOUT_PADDED)),
                                            ::testing::Bool()),
                         layoutShapeName);

} // namespace
} // namespace metalcpu::testing
