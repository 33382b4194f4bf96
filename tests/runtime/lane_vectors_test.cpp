// Kernels whose threads run as vector lanes (issue 14, compiler/passes/lane_vectors.h): the
// matmul sample's 8x4 and 4x4 register-tiled kernels and an elementwise kernel with a uniform
// loop, compiled with the lane form (METALCPU_LANE_VECTORS=1) and without it (0), run on the
// same inputs over groups of 1, 7, 33, 64 and 100 threads (1-D and 2-D) in grids the groups do
// not divide and that reach past the matrix (those threads return): the two outputs are
// compared bit for bit, canary words around each. A whole row of a block runs as lanes, the
// rest (partial blocks, blocks across a row's end, blocks with a returning lane) as the
// interleaved pieces, a loop over the lanes rather than unrolled as in the library without
// lanes (work_items.h), so every group size mixes both forms, and groups of 1 and 7 run only
// the pieces.
#include "guarded_buffer.h"
#include "metal_test.h"

#include "jit/kernel_compiler.h"
#include "log_capture.h"
#include "support/config.h"
#include "support/files.h"

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

// Kernels with what the lane form takes beyond straight-line code (issue 14): an `if` whose
// condition differs between threads (nested, with else-if and else; stores and loads in a
// branch, for the lanes that take it), float and integer divisions per lane (integer divisors
// of 0 and -1 among them, which give what the division pass gives), calls of the program's
// function and of the library's per lane, a conversion and a vector's components. `masked`
// has no leading bounds test: per-thread `if`s guard its loads and its store.
const char* const kMaskedKernels = R"(
#include <metal_stdlib>
using namespace metal;

struct Counts {
    uint count;
    uint terms;
};

float scaled(float x, uint k) { return x * float(k + 1) - 0.25f; }

kernel void branches(device const float* x, device const int* d, device float* y,
                     constant Counts& p, uint gid [[thread_position_in_grid]])
{
    if (gid >= p.count) return;
    float acc = 0.0f;
    int q = 1;
    for (uint k = 0; k < p.terms; ++k) {
        const float v = x[gid + k];
        if (v > 0.5f) {
            acc += v / float(k + 2);
        } else if (v < -0.5f) {
            acc -= max(scaled(v, k), -3.0f);
            q += d[gid + k] / int(k + 1);
        } else {
            acc = acc * 0.5f;
            q = q % 7 - d[gid];
        }
    }
    const int quotient = (int(gid) - 40) / d[gid];
    if (gid % 3u == 1u) {
        y[gid] = acc + float(quotient) + float(q);
    } else {
        y[gid] += float(gid / 3u) + float(quotient % 5) - float(uint(q) >> 1);
    }
}

kernel void masked(device const float4* x, device float* y, constant Counts& p,
                   uint gid [[thread_position_in_grid]])
{
    float4 acc = 0.0f;
    for (uint k = 0; k < p.terms; ++k) {
        if (gid < p.count) {
            acc += x[gid + k] * float(k + 1);
        }
    }
    if (gid < p.count) {
        y[gid] = acc.y - acc.x + acc.w / acc.z;
    }
}
)";

// A kernel whose lane form the host compiler rejects: a call per lane that returns a struct
// (lanes hold scalars, vectors and matrices), whose result another call takes. It has to
// run as it would without lanes.
const char* const kUncompiledLaneForm = R"(
#include <metal_stdlib>
using namespace metal;

struct Pair {
    float a;
    float b;
};
Pair split(float x) { return Pair{x * 0.5f, x - 1.0f}; }
float join(Pair p) { return p.a * p.b; }

kernel void pairs(device const float* x, device float* y, constant uint& terms,
                  uint gid [[thread_position_in_grid]])
{
    float acc = 0.0f;
    for (uint k = 0; k < terms; ++k) {
        acc += join(split(x[gid + k]));
    }
    y[gid] = acc;
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

// Test per-thread ifs, divisions and calls through both forms, on a grid the groups do not
// divide and a count short of it; the integer divisors include 0 and -1.
TEST_P(LaneVectors, MaskedBranchesDivisionsAndCallsHaveTheInterleavedBits) {
    const unsigned size = GetParam();
    struct Counts {
        std::uint32_t count, terms;
    } p{3 * size + size / 2 + 5, 5};
    const std::vector<float> x = values(4 * (p.count + p.terms), 5);
    std::vector<float> divisors(p.count + p.terms);
    for (std::size_t i = 0; i < divisors.size(); ++i) {
        const int d = i % 5 == 0 ? 0 : i % 7 == 0 ? -1 : int(i % 9) - 4;
        std::memcpy(&divisors[i], &d, 4);
    }
    for (const char* kernel : {"branches", "masked"}) {
        SCOPED_TRACE(kernel);
        const bool branches = kernel[0] == 'b';
        const auto results = branches ? runBoth(kMaskedKernels, kernel, {x, divisors}, p.count + 9, 0.5f, &p, sizeof p,
                                                MTL::Size(p.count + 9, 1, 1), MTL::Size(size, 1, 1))
                                      : runBoth(kMaskedKernels, kernel, {x}, p.count + 9, 0.5f, &p, sizeof p,
                                                MTL::Size(p.count + 9, 1, 1), MTL::Size(size, 1, 1));
        expectSameBits(results);
        if (results.size() == 2) {
            EXPECT_NE(results[1][1], 0.5f);
            EXPECT_EQ(results[1][p.count], 0.5f); // past the count
        }
    }
}

// Test that a kernel whose lane form does not compile runs as it does without lanes.
TEST_P(LaneVectors, ALaneFormThatDoesNotCompileRunsWithoutIt) {
    const unsigned size = GetParam();
    const std::uint32_t terms = 4;
    const std::uint32_t count = 2 * size + 3;
    const std::vector<float> x = values(count + terms, 6);
    const auto results = runBoth(kUncompiledLaneForm, "pairs", {x}, count, 0.5f, &terms, sizeof terms,
                                 MTL::Size(count, 1, 1), MTL::Size(size, 1, 1));
    expectSameBits(results);
    if (results.size() == 2) {
        EXPECT_NE(results[1][0], 0.5f);
    }
}

INSTANTIATE_TEST_SUITE_P(Groups, LaneVectors, ::testing::Values(1u, 7u, 33u, 64u, 100u),
                         [](const ::testing::TestParamInfo<unsigned>& info) { return "group" + std::to_string(info.param); });

// Test that the kernels above compile with their lane forms at every level (a lane form the
// host compiler rejected would fall back and leave the bit comparisons comparing the
// interleaved form with itself), and that the one whose lane form does not compile is
// compiled without it, with a warning naming the compiler's error. Through the compile
// itself: a library from the kernel cache is not translated again and says nothing.
TEST(LaneVectorsCompile, TestKernelsKeepTheirLanesAndAFailedLaneFormFallsBack) {
    const std::string dir = support::makeTemporaryDirectory("metalcpu-lanes-test-");
    ASSERT_FALSE(dir.empty());
    const struct {
        const char* name;
        std::string source;
        std::vector<const char*> kernels;
        bool lanesCompile;
    } files[] = {{"tiled.metal", kKernels, {"mat_mul_register_4x4", "mat_mul_register_8x4"}, true},
                 {"horner.metal", lanesSource(), {"horner"}, true},
                 {"masked.metal", kMaskedKernels, {"branches", "masked"}, true},
                 {"pairs.metal", kUncompiledLaneForm, {"pairs"}, false}};
    for (const auto& f : files) {
        SCOPED_TRACE(f.name);
        const std::string path = dir + "/" + f.name;
        ASSERT_TRUE(support::writeFileAtomically(path, f.source));
        const ScopedLogLevel debug(spdlog::level::debug);
        const LogCapture log;
        const jit::CompileResult result = jit::translateAndCompile(path, {}, {}, path + ".cpp", path + ".air", false);
        EXPECT_TRUE(result.ok) << result.diagnostics;
        for (const char* kernel : f.kernels)
            EXPECT_EQ(log.count(std::string("kernel '") + kernel + "' runs its threads as vector lanes"), 1u) << log.text();
        EXPECT_EQ(log.count("did not compile, so they run without it"), f.lanesCompile ? 0u : 1u) << log.text();
    }
    support::removeTree(dir);
}

} // namespace
} // namespace metalcpu::testing
