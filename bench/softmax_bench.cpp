// Milliseconds of a row softmax written the way MLX writes its looped one (softmax_rows.metal:
// simd_max and simd_sum in two stages through threadgroup memory, the second under
// `if (simd_group == 0)`), one threadgroup per row, run through metalcpu, next to the same
// algorithm as plain C++ (softmax_twins.cpp, built with the kernels' flags).
//
//   softmax_bench [--elements 4194304] [--row-lengths 1024,8192] [--threads 256,1024] [--repeat 5]
//                 [--only metal|twin]
//
// Each row length gets elements / length rows. Prints a Markdown table (best of --repeat) and
// exits with 1 when an output differs from the twin's by more than 1e-5 relative. --only runs
// one side, for whole-process medians of each.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include "arguments.h"
#include "pipelines.h"
#include "softmax_twins.h"
#include "timing.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    unsigned elements = 1u << 22;
    std::vector<unsigned> rowLengths = {1024, 8192}, threadCounts = {256, 1024};
    int repeat = 5;
    std::string only;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--elements")) elements = unsigned(std::strtoul(argv[i + 1], nullptr, 10));
        else if (!std::strcmp(argv[i], "--row-lengths")) rowLengths = bench::parseList(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--threads")) threadCounts = bench::parseList(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--only")) only = argv[i + 1];
    }
    const bool runMetal = only != "twin", runTwin = only != "metal";

    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    MTL::CommandQueue* queue = device->newCommandQueue();
    MTL::ComputePipelineState* state = nullptr;
    if (runMetal) {
        state = bench::pipelineFromSource(device, bench::readFile(METALCPU_SOFTMAX_ROWS_METAL).c_str(), "softmax_rows");
        if (!state) return 1;
    }
    MTL::Buffer* in = device->newBuffer(std::size_t(elements) * 4, MTL::ResourceStorageModeShared);
    MTL::Buffer* out = device->newBuffer(std::size_t(elements) * 4, MTL::ResourceStorageModeShared);
    float* values = static_cast<float*>(in->contents());
    for (unsigned i = 0; i < elements; ++i) values[i] = float(i * 2654435761u % 4096u) / 256.0f - 8.0f;
    std::vector<float> expected(elements);

    std::printf("| row length | threads per group | metalcpu ms | plain C++ ms | plain / metalcpu |\n|---|---|---|---|---|\n");
    int status = 0;
    for (unsigned n : rowLengths) {
        const unsigned rows = elements / n;
        for (unsigned threads : threadCounts) {
            double metal = 0, plain = 0;
            if (runMetal)
                metal = bench::bestSeconds(repeat, [&] { bench::dispatchOnce(queue, state, in, out, n, rows, threads); });
            if (runTwin)
                plain = bench::bestSeconds(repeat, [&] { twins::softmaxRows(values, expected.data(), rows, n, threads); });
            if (runMetal && runTwin) {
                const float* got = static_cast<const float*>(out->contents());
                for (std::size_t i = 0; i < std::size_t(rows) * n; ++i)
                    if (std::fabs(got[i] - expected[i]) > 1e-5f * expected[i]) {
                        std::fprintf(stderr, "row %zu element %zu: %g, its twin %g\n", i / n, i % n, got[i], expected[i]);
                        status = 1;
                        break;
                    }
            }
            std::printf("| %u | %u | %.2f | %.2f | %.2f |\n", n, threads, metal * 1e3, plain * 1e3,
                        metal > 0 ? plain / metal : 0.0);
        }
    }
    in->release();
    out->release();
    if (state) state->release();
    queue->release();
    device->release();
    pool->release();
    return status;
}
