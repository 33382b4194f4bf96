// Custom kernels written for MLX's mx.fast.metal_kernel, generated and run with metal-cpp.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include "custom_kernel.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// MLX's documentation example, unchanged: the body of an elementwise exp.
constexpr const char* kExpBody = R"(
    uint elem = thread_position_in_grid.x;
    T tmp = inp[elem];
    out[elem] = metal::exp(tmp);
)";

// The same over a strided input (MLX with ensure_row_contiguous=False).
constexpr const char* kStridedExpBody = R"(
    uint elem = thread_position_in_grid.x;
    int64_t loc = elem_to_loc(elem, inp_shape, inp_strides, inp_ndim);
    out[elem] = metal::exp(inp[loc]);
)";

// A histogram into atomic outputs that the host initialises (atomic_outputs=True,
// init_value=0); the last bin counts the threads, one simd_sum per SIMD-group.
constexpr const char* kHistogramHeader = "constant constexpr uint kBins = 16;\n";
constexpr const char* kHistogramBody = R"(
    uint elem = thread_position_in_grid.x;
    uint bin = uint(values[elem]) % kBins;
    atomic_fetch_add_explicit(&bins[bin], T(1), memory_order_relaxed);
    float lanes = simd_sum(1.0f);
    if (thread_index_in_simdgroup == 0) atomic_fetch_add_explicit(&bins[kBins], lanes, memory_order_relaxed);
)";

int failures = 0;

void check(bool ok, const char* what, std::size_t at, double got, double want) {
    if (ok) return;
    if (++failures <= 5) std::fprintf(stderr, "%s: element %zu is %g, expected %g\n", what, at, got, want);
}

bool close(float got, double want) { return std::fabs(got - want) <= 1e-6 * std::fabs(want) + 1e-30; }

} // namespace

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000000;
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();

    MTL::Buffer* input = device->newBuffer(n * sizeof(float), MTL::ResourceStorageModeShared);
    float* values = static_cast<float*>(input->contents());
    for (std::size_t i = 0; i < n; ++i) values[i] = float(i % 97) / 16.0f - 3.0f;
    const MTL::Size grid(n, 1, 1), threadgroup(256, 1, 1);

    CustomKernel exp(device, "myexp", {"inp"}, {"out"}, kExpBody);
    std::vector<MTL::Buffer*> out = exp.run("float", {{input, {int(n)}, {1}}}, {{n}}, grid, threadgroup);
    for (std::size_t i = 0; i < n && !out.empty(); ++i) {
        const float got = static_cast<float*>(out[0]->contents())[i];
        check(close(got, std::exp(double(values[i]))), "myexp", i, got, std::exp(double(values[i])));
    }
    failures += out.empty();
    for (MTL::Buffer* b : out) b->release();

    // The input read as its transpose: rows x columns stored row-major, viewed columns x rows.
    const int rows = 7, columns = int(n / 7);
    CustomKernel stridedExp(device, "strided_exp", {"inp"}, {"out"}, kStridedExpBody);
    const std::size_t viewed = std::size_t(rows) * columns;
    out = stridedExp.run("float", {{input, {columns, rows}, {1, columns}}}, {{viewed}}, MTL::Size(viewed, 1, 1), threadgroup);
    for (std::size_t i = 0; i < viewed && !out.empty(); ++i) {
        const double want = std::exp(double(values[(i % rows) * columns + i / rows]));
        const float got = static_cast<float*>(out[0]->contents())[i];
        check(close(got, want), "strided_exp", i, got, want);
    }
    failures += out.empty();
    for (MTL::Buffer* b : out) b->release();

    CustomKernel histogram(device, "histogram", {"values"}, {"bins"}, kHistogramBody, kHistogramHeader,
                           /*atomicOutputs=*/true);
    MTL::Buffer* samples = device->newBuffer(n * sizeof(float), MTL::ResourceStorageModeShared);
    float* sampled = static_cast<float*>(samples->contents());
    for (std::size_t i = 0; i < n; ++i) sampled[i] = float(i * 7 % 23);
    out = histogram.run("float", {{samples, {int(n)}, {1}}}, {{17}}, grid, threadgroup, /*initValue=*/0.0f);
    std::vector<double> bins(17, 0.0);
    for (std::size_t i = 0; i < n; ++i) bins[std::size_t(sampled[i]) % 16] += 1.0, bins[16] += 1.0;
    samples->release();
    for (std::size_t b = 0; b < bins.size() && !out.empty(); ++b) {
        const float got = static_cast<float*>(out[0]->contents())[b];
        check(got == bins[b], "histogram", b, got, bins[b]);
    }
    failures += out.empty();
    for (MTL::Buffer* b : out) b->release();

    input->release();
    device->release();
    pool->release();
    std::printf("mlx_custom_kernel: %zu elements, 3 kernels, %s\n", n, failures ? "FAILED" : "all results match the CPU");
    return failures ? 1 : 0;
}
