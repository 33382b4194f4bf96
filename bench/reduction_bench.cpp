// Milliseconds of two reduction kernels built on simd_sum, run through metalcpu, next to the
// same algorithm as plain C++ (reduction_twins.cpp, built with the kernels' flags):
//   reduce_simdgroup    threadgroup = one SIMD-group of 32 threads, one simd_sum
//   reduce_threadgroup  256 threads = 8 SIMD-groups: simd_sum, partials in threadgroup
//                       memory, a barrier, and a second simd_sum in every SIMD-group
//   reduce_threadgroup_if  the same with the second simd_sum in SIMD-group 0 alone
//                       (`if (sg == 0)`, as MLX writes it): guarded work-item loops
// Each thread first sums a run of --per-thread floats (more per thread hides the cost of the
// collective).
//
//   reduction_bench [--elements 4194304] [--per-thread 4,64] [--repeat 5] [--only metal|twin]
//                   [--kernel reduce_simdgroup]
//
// Prints a Markdown table (best of --repeat) and exits with 1 when a kernel's sums differ from
// its twin's. --only runs one side, for medians of whole-process runs (hyperfine, /usr/bin/time).
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include "arguments.h"
#include "pipelines.h"
#include "reduction_twins.h"
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

kernel void reduce_simdgroup(device const float* in [[buffer(0)]],
                             device float* out [[buffer(1)]],
                             constant uint& per_thread [[buffer(2)]],
                             uint gid [[thread_position_in_grid]],
                             uint group [[threadgroup_position_in_grid]],
                             uint lane [[thread_index_in_simdgroup]]) {
    device const float* p = in + gid * per_thread;
    float s = 0.0f;
    for (uint i = 0; i < per_thread; ++i) s += p[i];
    s = simd_sum(s);
    if (lane == 0) out[group] = s;
}

kernel void reduce_threadgroup(device const float* in [[buffer(0)]],
                               device float* out [[buffer(1)]],
                               constant uint& per_thread [[buffer(2)]],
                               uint gid [[thread_position_in_grid]],
                               uint group [[threadgroup_position_in_grid]],
                               uint lane [[thread_index_in_simdgroup]],
                               uint sg [[simdgroup_index_in_threadgroup]],
                               uint sgs [[simdgroups_per_threadgroup]],
                               uint lid [[thread_index_in_threadgroup]]) {
    threadgroup float partial[32];
    device const float* p = in + gid * per_thread;
    float s = 0.0f;
    for (uint i = 0; i < per_thread; ++i) s += p[i];
    s = simd_sum(s);
    if (lane == 0) partial[sg] = s;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    s = lane < sgs ? partial[lane] : 0.0f;
    s = simd_sum(s);
    if (lid == 0) out[group] = s;
}

kernel void reduce_threadgroup_if(device const float* in [[buffer(0)]],
                               device float* out [[buffer(1)]],
                               constant uint& per_thread [[buffer(2)]],
                               uint gid [[thread_position_in_grid]],
                               uint group [[threadgroup_position_in_grid]],
                               uint lane [[thread_index_in_simdgroup]],
                               uint sg [[simdgroup_index_in_threadgroup]],
                               uint sgs [[simdgroups_per_threadgroup]]) {
    threadgroup float partial[32];
    device const float* p = in + gid * per_thread;
    float s = 0.0f;
    for (uint i = 0; i < per_thread; ++i) s += p[i];
    s = simd_sum(s);
    if (lane == 0) partial[sg] = s;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (sg == 0) {
        s = lane < sgs ? partial[lane] : 0.0f;
        s = simd_sum(s);
        if (lane == 0) out[group] = s;
    }
}
)";

struct KernelCase {
    const char* name;
    unsigned threadsPerGroup;
};
const KernelCase kCases[] = {{"reduce_simdgroup", 32}, {"reduce_threadgroup", 256}, {"reduce_threadgroup_if", 256}};

} // namespace

int main(int argc, char** argv) {
    unsigned elements = 1u << 22;
    std::vector<unsigned> perThreads = {4, 64};
    int repeat = 5;
    std::string only, kernel;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--elements")) elements = unsigned(std::strtoul(argv[i + 1], nullptr, 10));
        else if (!std::strcmp(argv[i], "--per-thread")) perThreads = bench::parseList(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--only")) only = argv[i + 1];
        else if (!std::strcmp(argv[i], "--kernel")) kernel = argv[i + 1];
    }
    const bool runMetal = only != "twin", runTwin = only != "metal";

    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    MTL::CommandQueue* queue = device->newCommandQueue();
    NS::Error* error = nullptr;
    MTL::Library* library = runMetal ? bench::compileLibrary(device, kKernels) : nullptr;
    if (runMetal && !library) return 1;
    MTL::Buffer* in = device->newBuffer(std::size_t(elements) * 4, MTL::ResourceStorageModeShared);
    float* values = static_cast<float*>(in->contents());
    for (unsigned i = 0; i < elements; ++i) values[i] = float(i % 17) - 8.0f;

    std::printf("| kernel | floats per thread | metalcpu ms | plain C++ ms | plain / metalcpu |\n|---|---|---|---|---|\n");
    int status = 0;
    for (const KernelCase& c : kCases) {
        if (!kernel.empty() && kernel != c.name) continue;
        MTL::ComputePipelineState* state = nullptr;
        if (runMetal) {
            MTL::Function* function = library->newFunction(NS::String::string(c.name, NS::UTF8StringEncoding));
            state = device->newComputePipelineState(function, &error);
            function->release();
            if (!state) return 1;
        }
        for (unsigned perThread : perThreads) {
            const unsigned groups = elements / perThread / c.threadsPerGroup;
            MTL::Buffer* out = device->newBuffer(std::size_t(groups) * 4, MTL::ResourceStorageModeShared);
            std::vector<float> expected(groups);
            double metal = 0, plain = 0;
            if (runMetal)
                metal = bench::bestSeconds(repeat, [&] {
                    bench::dispatchOnce(queue, state, in, out, perThread, groups, c.threadsPerGroup);
                });
            if (runTwin)
                plain = bench::bestSeconds(repeat, [&] { twins::reduceGroups(values, expected.data(), groups, c.threadsPerGroup, perThread); });
            if (runMetal && runTwin) {
                const float* got = static_cast<const float*>(out->contents());
                for (unsigned g = 0; g < groups; ++g)
                    if (std::fabs(got[g] - expected[g]) > 1e-3f * (1.0f + std::fabs(expected[g]))) {
                        std::fprintf(stderr, "%s: group %u sums to %g, its twin to %g\n", c.name, g, got[g], expected[g]);
                        status = 1;
                        break;
                    }
            }
            std::printf("| %s | %u | %.2f | %.2f | %.2f |\n", c.name, perThread, metal * 1e3, plain * 1e3,
                        metal > 0 ? plain / metal : 0.0);
            out->release();
        }
        if (state) state->release();
    }
    in->release();
    if (library) library->release();
    queue->release();
    device->release();
    pool->release();
    return status;
}
