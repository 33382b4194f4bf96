// Kernels in the shapes real libraries write them (MLX, ggml, PyTorch MPS, metal-cpp
// samples), each a construct the front end once failed on, run against a CPU reference at
// several threadgroup sizes, plain and with shader validation.

#include "runtime/guarded_buffer.h"
#include "runtime/metal_test.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

namespace metalcpu::testing {
namespace {

// Every kernel takes `device float* out [[buffer(0)]]`, `device const float* in [[buffer(1)]]`
// and its position in the grid, and writes out[i] from in[i].
const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

// MLX reduction/ops.h: member templates chosen by a comparison inside template arguments.
template <typename U>
struct Sum {
    template <typename T, metal::enable_if_t<sizeof(T) < 8, bool> = true>
    T reduce(T val) { return val + T(1); }
    template <typename T, metal::enable_if_t<sizeof(T) == 8, bool> = true>
    T reduce(T val) { return val + T(2); }
    template <typename T, metal::enable_if_t<(sizeof(T) > 8), bool> = true>
    T reduce(T val) { return val + T(3); }
};

kernel void comparison_in_template_arguments(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
                                             uint i [[thread_position_in_grid]]) {
    Sum<float> s;
    long wide = long(in[i]);
    out[i] = s.reduce(in[i]) + float(s.reduce(wide)) * 10.0f;
}
)";

/// A kernel and what it computes from one input element.
struct Shape {
    const char* kernel;
    std::function<float(float)> reference;
};

const std::vector<Shape>& shapes() {
    static const std::vector<Shape> all = {
        {"comparison_in_template_arguments", [](float x) { return (x + 1) + float(long(x) + 2) * 10; }},
    };
    return all;
}

/// (threads per group, shader validation on)
using ShapeCase = std::tuple<unsigned, bool>;

class RealCodeShapes : public MetalTest, public ::testing::WithParamInterface<ShapeCase> {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }

    /// The pipeline (+1) for `name`, with shader validation as the parameter says.
    MTL::ComputePipelineState* kernel(const char* name) {
        return pipeline(library_, name,
                        std::get<1>(GetParam()) ? MTL::ShaderValidationEnabled : MTL::ShaderValidationDisabled);
    }

    static MTL::Library* library_;
};
MTL::Library* RealCodeShapes::library_ = nullptr;

// Test every kernel against its reference over a grid that no group size divides evenly.
TEST_P(RealCodeShapes, MatchReference) {
    constexpr unsigned kCount = 101;
    for (const Shape& shape : shapes()) {
        SCOPED_TRACE(shape.kernel);
        MTL::ComputePipelineState* state = kernel(shape.kernel);
        if (!state) continue;
        GuardedBuffer out(device_, kCount * 4), in(device_, kCount * 4);
        for (unsigned i = 0; i < kCount; ++i) in.data<float>()[i] = float(int(i % 17) - 5) * 0.5f;
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        out.bind(encoder, 0);
        in.bind(encoder, 1);
        encoder->dispatchThreads(MTL::Size(kCount, 1, 1), MTL::Size(std::get<0>(GetParam()), 1, 1));
        encoder->endEncoding();
        ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted)
            << text(commandBuffer->error() ? commandBuffer->error()->localizedDescription() : nullptr);
        for (unsigned i = 0; i < kCount; ++i)
            EXPECT_FLOAT_EQ(out.data<float>()[i], shape.reference(in.data<float>()[i])) << "thread " << i;
        out.expectCanariesIntact();
        state->release();
    }
}

INSTANTIATE_TEST_SUITE_P(GroupSizes, RealCodeShapes,
                         ::testing::Combine(::testing::Values(1u, 7u, 32u, 64u), ::testing::Bool()));

} // namespace
} // namespace metalcpu::testing
