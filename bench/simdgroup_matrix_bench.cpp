// Milliseconds of a GEMM built on simdgroup_matrix, run through metalcpu, next to the same
// algorithm as plain C++ (simdgroup_matrix_twins.cpp, built with the kernels' flags). The
// kernel is written the way ggml writes its matrix products: each step of k stages an 8×8
// block of A and B's rows (B given as n×k) in threadgroup memory, each SIMD-group loads them
// (B transposed), multiply-accumulates into a float matrix and finally stores its 8×8 tile.
// A threadgroup has --simdgroups SIMD-groups and covers 8 rows and 8 columns per SIMD-group.
//
//   simdgroup_matrix_bench [--size 256] [--simdgroups 4] [--repeat 5] [--only metal|twin]
//
// Prints a Markdown table (best of --repeat) and exits with 1 when the product differs from
// the twin's. --only runs one side, for medians of whole-process runs (hyperfine, /usr/bin/time).
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include "pipelines.h"
#include "simdgroup_matrix_twins.h"
#include "timing.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

kernel void gemm_simdgroup_matrix(device const float* a [[buffer(0)]],
                                  device const float* b_rows [[buffer(1)]],
                                  device float* c [[buffer(2)]],
                                  constant uint3& mnk [[buffer(3)]],
                                  threadgroup float* staged [[threadgroup(0)]],
                                  uint group [[threadgroup_position_in_grid]],
                                  ushort lid [[thread_index_in_threadgroup]],
                                  ushort threads [[threads_per_threadgroup]],
                                  ushort sg [[simdgroup_index_in_threadgroup]],
                                  ushort simdgroups [[simdgroups_per_threadgroup]]) {
    const uint n = mnk.y, k = mnk.z, columns = 8 * simdgroups;
    const uint row0 = group / (n / columns) * 8, col0 = group % (n / columns) * columns;
    threadgroup float* sa = staged;
    threadgroup float* sb = staged + 64;
    simdgroup_float8x8 ma, mb;
    simdgroup_float8x8 mc = make_filled_simdgroup_matrix<float, 8>(0.f);
    for (uint k0 = 0; k0 < k; k0 += 8) {
        for (uint i = lid; i < 64 + 64 * simdgroups; i += threads) {
            if (i < 64) sa[i] = a[(row0 + i / 8) * k + k0 + i % 8];
            else sb[i - 64] = b_rows[(col0 + (i - 64) / 8) * k + k0 + (i - 64) % 8];
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        simdgroup_load(ma, sa, 8);
        simdgroup_load(mb, sb + 64 * sg, 8, 0, true);
        simdgroup_multiply_accumulate(mc, ma, mb, mc);
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    simdgroup_store(mc, c, n, ulong2(col0 + 8 * sg, row0));
}
)";

} // namespace

int main(int argc, char** argv) {
    unsigned size = 256, simdgroups = 4;
    int repeat = 5;
    std::string only;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--size")) size = unsigned(std::strtoul(argv[i + 1], nullptr, 10));
        else if (!std::strcmp(argv[i], "--simdgroups")) simdgroups = unsigned(std::strtoul(argv[i + 1], nullptr, 10));
        else if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--only")) only = argv[i + 1];
    }
    if (simdgroups < 1 || simdgroups > 4 || size % (8 * simdgroups) != 0) {
        std::fprintf(stderr, "--simdgroups is 1 to 4 and --size a multiple of 8 x simdgroups\n");
        return 2;
    }
    const bool runMetal = only != "twin", runTwin = only != "metal";

    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    MTL::CommandQueue* queue = device->newCommandQueue();
    MTL::ComputePipelineState* state = nullptr;
    if (runMetal) {
        state = bench::pipelineFromSource(device, kKernels, "gemm_simdgroup_matrix");
        if (!state) return 1;
    }
    const std::size_t elements = std::size_t(size) * size;
    MTL::Buffer* a = device->newBuffer(elements * 4, MTL::ResourceStorageModeShared);
    MTL::Buffer* b = device->newBuffer(elements * 4, MTL::ResourceStorageModeShared);
    MTL::Buffer* c = device->newBuffer(elements * 4, MTL::ResourceStorageModeShared);
    float* av = static_cast<float*>(a->contents());
    float* bv = static_cast<float*>(b->contents());
    for (std::size_t i = 0; i < elements; ++i) {
        av[i] = float(int(i % 33) - 16) / 16.0f;
        bv[i] = float(int(i * 7 % 31) - 15) / 16.0f;
    }
    std::vector<float> expected(elements);
    const unsigned mnk[4] = {size, size, size, 0};
    const unsigned groups = size / 8 * (size / (8 * simdgroups));

    double metal = 0, plain = 0;
    if (runMetal)
        metal = bench::bestSeconds(repeat, [&] {
            MTL::CommandBuffer* commandBuffer = queue->commandBuffer();
            MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
            encoder->setComputePipelineState(state);
            encoder->setBuffer(a, 0, 0);
            encoder->setBuffer(b, 0, 1);
            encoder->setBuffer(c, 0, 2);
            encoder->setBytes(mnk, sizeof mnk, 3);
            encoder->setThreadgroupMemoryLength(64 * (1 + simdgroups) * 4, 0);
            encoder->dispatchThreadgroups(MTL::Size(groups, 1, 1), MTL::Size(32 * simdgroups, 1, 1));
            encoder->endEncoding();
            commandBuffer->commit();
            commandBuffer->waitUntilCompleted();
        });
    if (runTwin)
        plain = bench::bestSeconds(repeat, [&] { twins::simdgroupGemm(av, bv, expected.data(), size, size, size, simdgroups); });
    int status = 0;
    if (runMetal && runTwin) {
        const float* got = static_cast<const float*>(c->contents());
        for (std::size_t i = 0; i < elements; ++i)
            if (std::fabs(got[i] - expected[i]) > 1e-3f * (1.0f + std::fabs(expected[i]))) {
                std::fprintf(stderr, "C[%zu] = %g, its twin %g\n", i, got[i], expected[i]);
                status = 1;
                break;
            }
    }
    std::printf("| kernel | size | SIMD-groups per threadgroup | metalcpu ms | plain C++ ms | plain / metalcpu |\n"
                "|---|---|---|---|---|---|\n");
    std::printf("| gemm_simdgroup_matrix | %u | %u | %.2f | %.2f | %.3f |\n", size, simdgroups, metal * 1e3, plain * 1e3,
                metal > 0 ? plain / metal : 0.0);
    if (state) state->release();
    a->release();
    b->release();
    c->release();
    queue->release();
    device->release();
    pool->release();
    return status;
}
