// Milliseconds of the steel-shaped GEMM (steel_gemm.metal: MLX's tile loader and tile multiplier
// as class templates whose member functions the kernel calls) in its two lowerings, the same
// code: steel_gemm, whose multiplier call the front end inlines so that the kernel runs as
// work-item loops, and steel_gemm_on_fibers, which makes that call through a pointer and so keeps
// the fibers.
//
//   steel_gemm_bench [--sizes 256,250] [--repeat 5] [--cpu-time]
//
// A size s multiplies s x s by s x s (250 leaves partial tiles at every edge). Prints a Markdown
// table (best of --repeat) and exits with 1 when the two lowerings' results differ in any bit.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include "arguments.h"
#include "pipelines.h"
#include "timing.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    std::vector<unsigned> sizes = {256, 250};
    int repeat = 5;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--cpu-time")) bench::useCpuTime() = true;
        else if (i + 1 < argc && !std::strcmp(argv[i], "--sizes")) sizes = bench::parseList(argv[++i]);
        else if (i + 1 < argc && !std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[++i]);
    }

    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    MTL::CommandQueue* queue = device->newCommandQueue();
    const std::string source = bench::readFile(METALCPU_STEEL_GEMM_METAL);
    MTL::ComputePipelineState* loops = bench::pipelineFromSource(device, source.c_str(), "steel_gemm");
    MTL::ComputePipelineState* fibers = bench::pipelineFromSource(device, source.c_str(), "steel_gemm_on_fibers");
    if (!loops || !fibers) return 1;

    int status = 0;
    std::printf("| kernel | size | fibers ms | work-item loops ms | speed-up |\n|---|---|---|---|---|\n");
    for (unsigned size : sizes) {
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
        const std::int32_t mnk[4] = {std::int32_t(size), std::int32_t(size), std::int32_t(size), 0};
        const auto run = [&](MTL::ComputePipelineState* state) {
            MTL::CommandBuffer* commandBuffer = queue->commandBuffer();
            MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
            encoder->setComputePipelineState(state);
            encoder->setBuffer(a, 0, 0);
            encoder->setBuffer(b, 0, 1);
            encoder->setBuffer(c, 0, 2);
            encoder->setBytes(mnk, sizeof mnk, 3);
            encoder->dispatchThreadgroups(MTL::Size((size + 31) / 32, (size + 31) / 32, 1), MTL::Size(128, 1, 1));
            encoder->endEncoding();
            commandBuffer->commit();
            commandBuffer->waitUntilCompleted();
        };
        const double fibersSeconds = bench::bestSeconds(repeat, [&] { run(fibers); });
        const std::vector<float> onFibers(static_cast<const float*>(c->contents()),
                                          static_cast<const float*>(c->contents()) + elements);
        const double loopsSeconds = bench::bestSeconds(repeat, [&] { run(loops); });
        if (std::memcmp(onFibers.data(), c->contents(), elements * 4) != 0) {
            std::fprintf(stderr, "size %u: the work-item loops' product differs from the fibers'\n", size);
            status = 1;
        }
        std::printf("| steel_gemm | %u | %.2f | %.2f | %.1fx |\n", size, fibersSeconds * 1e3, loopsSeconds * 1e3,
                    loopsSeconds > 0 ? fibersSeconds / loopsSeconds : 0.0);
        a->release();
        b->release();
        c->release();
    }
    loops->release();
    fibers->release();
    queue->release();
    device->release();
    pool->release();
    return status;
}
