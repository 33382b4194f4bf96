// Kernels whose threads run as vector lanes (issue 14, compiler/passes/lane_vectors.h): the
// matmul sample's 8x4 and 4x4 register-tiled kernels and an elementwise kernel with a uniform
// loop, compiled with the lane form (METALCPU_LANE_VECTORS=1) and without it (0), run on the
// same inputs over groups of 1, 7, 33, 64 and 100 threads (1-D and 2-D) in grids the groups do
// not divide and that reach past the matrix (those threads return): the two outputs are
// compared bit for bit, canary words around each. A whole row of a block runs as lanes, the
// rest (partial blocks, blocks across a row's end, blocks with a returning lane) as before,
// so every group size mixes both forms.
#include "guarded_buffer.h"
#include "metal_test.h"

#include "support/config.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

struct MatMulParams {
    uint rows;
    uint cols;
    uint inner;
};

kernel void mat_mul_register_4x4(device const float* A, device const float* B, device float* C,
                                 constant MatMulParams& params, uint2 gid [[thread_position_in_grid]])
{
    const uint i = gid.y * 4;
    const uint j = gid.x * 4;
    if (i >= params.rows || j >= params.cols) {
        return;
    }
    float4x4 acc(0.0f);
    for (uint k = 0; k < params.inner; k += 4) {
        float4x4 at(*(device const float4*)(A + (i + 0) * params.inner + k),
                    *(device const float4*)(A + (i + 1) * params.inner + k),
                    *(device const float4*)(A + (i + 2) * params.inner + k),
                    *(device const float4*)(A + (i + 3) * params.inner + k));
        float4x4 bt(*(device const float4*)(B + (k + 0) * params.cols + j),
                    *(device const float4*)(B + (k + 1) * params.cols + j),
                    *(device const float4*)(B + (k + 2) * params.cols + j),
                    *(device const float4*)(B + (k + 3) * params.cols + j));
        acc += bt * at;
    }
    for (uint r = 0; r < 4; ++r) {
        *(device float4*)(C + (i + r) * params.cols + j) = acc[r];
    }
}

kernel void mat_mul_register_8x4(device const float* A, device const float* B, device float* C,
                                 constant MatMulParams& params, uint2 gid [[thread_position_in_grid]])
{
    const uint i = gid.y * 8;
    const uint j = gid.x * 4;
    if (i >= params.rows || j >= params.cols) {
        return;
    }
    float4x4 top(0.0f);
    float4x4 bottom(0.0f);
    for (uint k = 0; k < params.inner; k += 4) {
        float4x4 bt(*(device const float4*)(B + (k + 0) * params.cols + j),
                    *(device const float4*)(B + (k + 1) * params.cols + j),
                    *(device const float4*)(B + (k + 2) * params.cols + j),
                    *(device const float4*)(B + (k + 3) * params.cols + j));
        float4x4 upper(*(device const float4*)(A + (i + 0) * params.inner + k),
                       *(device const float4*)(A + (i + 1) * params.inner + k),
                       *(device const float4*)(A + (i + 2) * params.inner + k),
                       *(device const float4*)(A + (i + 3) * params.inner + k));
        float4x4 lower(*(device const float4*)(A + (i + 4) * params.inner + k),
                       *(device const float4*)(A + (i + 5) * params.inner + k),
                       *(device const float4*)(A + (i + 6) * params.inner + k),
                       *(device const float4*)(A + (i + 7) * params.inner + k));
        top += bt * upper;
        bottom += bt * lower;
    }
    for (uint r = 0; r < 4; ++r) {
        *(device float4*)(C + (i + r) * params.cols + j) = top[r];
        *(device float4*)(C + (i + 4 + r) * params.cols + j) = bottom[r];
    }
}

struct Polynomial {
    uint count;
    uint terms;
};

// Elementwise with a uniform loop: Horner's rule, a compound store, the thread's index scaled.
kernel void horner(device const float* x, device const float* coefficients, device float* y,
                   constant Polynomial& p, uint gid [[thread_position_in_grid]])
{
    if (gid >= p.count) return;
    const float v = x[gid];
    const uint twice = gid * 2;
    float acc = 0.0f;
    for (uint k = 0; k < p.terms; ++k) {
        acc = acc * v + coefficients[k];
    }
    y[gid] += acc + float(p.terms) * x[twice % p.count == twice ? 0 : 1];
}
)";

// The same kernel without the conditional (the lane form refuses `?:` of per-thread values):
// the elementwise kernel that takes it.
std::string lanesSource() {
    std::string source = kKernels;
    const std::string from = " + float(p.terms) * x[twice % p.count == twice ? 0 : 1]";
    source.replace(source.find(from), from.size(), " + x[twice - gid]");
    return source;
}

class LaneVectors : public MetalTest, public ::testing::WithParamInterface<unsigned> {
protected:
    /// The library compiled with METALCPU_LANE_VECTORS set to `lanes` (read when translating;
    /// part of the cache key, so each setting has its own compile).
    static MTL::Library* compileWithLanes(const std::string& source, bool lanes) {
        setenv("METALCPU_LANE_VECTORS", lanes ? "1" : "0", 1);
        support::reloadConfig();
        MTL::Library* library = compile(source);
        unsetenv("METALCPU_LANE_VECTORS");
        support::reloadConfig();
        return library;
    }

    /// Runs `kernel` of each library over `grid` in groups of `group` with `inputs` bound first
    /// and the output (of `outputFloats`, filled with `initial`) after them, then `bytes`;
    /// returns each output.
    std::vector<std::vector<float>> runBoth(const std::string& source, const char* kernel,
                                            const std::vector<std::vector<float>>& inputs, std::size_t outputFloats,
                                            float initial, const void* bytes, std::size_t byteCount, MTL::Size grid,
                                            MTL::Size group) {
        std::vector<std::vector<float>> results;
        for (const bool lanes : {false, true}) {
            SCOPED_TRACE(lanes ? "lanes" : "interleaved");
            MTL::Library* library = compileWithLanes(source, lanes);
            MTL::ComputePipelineState* state = pipeline(library, kernel);
            if (library) library->release();
            if (!state) return {};
            std::vector<MTL::Buffer*> buffers;
            for (const std::vector<float>& in : inputs)
                buffers.push_back(device_->newBuffer(in.data(), in.size() * 4, MTL::ResourceStorageModeShared));
            GuardedBuffer out(device_, outputFloats * 4);
            std::fill(out.data<float>(), out.data<float>() + outputFloats, initial);
            MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
            MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
            encoder->setComputePipelineState(state);
            for (std::size_t b = 0; b < buffers.size(); ++b) encoder->setBuffer(buffers[b], 0, b);
            out.bind(encoder, buffers.size());
            encoder->setBytes(bytes, byteCount, buffers.size() + 1);
            encoder->dispatchThreads(grid, group);
            encoder->endEncoding();
            EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
            out.expectCanariesIntact();
            results.emplace_back(out.data<float>(), out.data<float>() + outputFloats);
            for (MTL::Buffer* b : buffers) b->release();
            state->release();
        }
        return results;
    }

    static std::vector<float> values(std::size_t count, unsigned seed) {
        std::vector<float> v(count);
        for (std::size_t i = 0; i < count; ++i) v[i] = float(int((i * 37 + seed * 11) % 23) - 11) / 8.0f + 0.013f * float(i % 7);
        return v;
    }

    static void expectSameBits(const std::vector<std::vector<float>>& results) {
        ASSERT_EQ(results.size(), 2u);
        ASSERT_EQ(results[0].size(), results[1].size());
        unsigned failures = 0;
        for (std::size_t i = 0; i < results[0].size() && failures < 10; ++i) {
            if (std::memcmp(&results[0][i], &results[1][i], 4) == 0) continue;
            ADD_FAILURE() << "element " << i << ": interleaved " << results[0][i] << ", lanes " << results[1][i];
            ++failures;
        }
    }
};

// Test the register-tiled kernels through both forms on matrices whose edges the grid passes
// (threads past them return), in one-row groups and in groups of two and more rows.
TEST_P(LaneVectors, RegisterTiledMatmulsHaveTheInterleavedBits) {
    const unsigned size = GetParam();
    struct Shape {
        std::uint32_t rows, cols, inner;
    } shape{24, 136, 12};
    const std::vector<float> a = values(shape.rows * shape.inner, 1), b = values(shape.inner * shape.cols, 2);
    for (const char* kernel : {"mat_mul_register_8x4", "mat_mul_register_4x4"}) {
        const unsigned tile = kernel[16] == '8' ? 8 : 4;
        for (const MTL::Size group : {MTL::Size(size, 1, 1), MTL::Size(size > 1 ? (size + 1) / 2 : 1, size > 1 ? 2 : 1, 1)}) {
            SCOPED_TRACE(std::string(kernel) + " " + std::to_string(group.width) + "x" + std::to_string(group.height));
            const MTL::Size grid(shape.cols / 4 + 3, shape.rows / tile + 1, 1);
            const auto results =
                runBoth(kKernels, kernel, {a, b}, shape.rows * shape.cols, -7.0f, &shape, sizeof shape, grid, group);
            expectSameBits(results);
            if (results.size() == 2) {
                EXPECT_NE(results[1][0], -7.0f); // the kernel ran
            }
        }
    }
}

// Test an elementwise kernel with a uniform loop and a load-add-store through the thread's
// index, on a grid the groups do not divide and a count short of the grid (those threads return).
TEST_P(LaneVectors, ElementwiseHasTheInterleavedBits) {
    const unsigned size = GetParam();
    struct Polynomial {
        std::uint32_t count, terms;
    } p{3 * size + size / 2 + 5, 6};
    const std::vector<float> x = values(2 * p.count + 8, 3), coefficients = values(p.terms, 4);
    const auto results = runBoth(lanesSource(), "horner", {x, coefficients}, p.count + 9, 0.5f, &p, sizeof p,
                                 MTL::Size(p.count + 9, 1, 1), MTL::Size(size, 1, 1));
    expectSameBits(results);
    if (results.size() == 2) {
        EXPECT_NE(results[1][0], 0.5f);
        EXPECT_EQ(results[1][p.count], 0.5f); // returned
    }
}

INSTANTIATE_TEST_SUITE_P(Groups, LaneVectors, ::testing::Values(1u, 7u, 33u, 64u, 100u),
                         [](const ::testing::TestParamInfo<unsigned>& info) { return "group" + std::to_string(info.param); });

} // namespace
} // namespace metalcpu::testing
