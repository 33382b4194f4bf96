// What a command buffer costs on its own: commit + wait of one empty dispatch, one after
// another, and many small command buffers committed back to back (every 1000th waited for).
// Run it once per METALCPU_ISOLATION mode to compare the device process with running kernels
// in the program itself (bench/README.md).
//
//   command_buffer_bench [--single N] [--many N] [--repeat R]
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include "pipelines.h"
#include "timing.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

const char* const kSource = R"(
#include <metal_stdlib>
kernel void empty() {}
kernel void add_one(device int* data [[buffer(0)]], uint i [[thread_position_in_grid]]) { data[i] += 1; }
)";

/// One command buffer with one dispatch of `state` over `threads` threads.
MTL::CommandBuffer* encode(MTL::CommandQueue* queue, MTL::ComputePipelineState* state, MTL::Buffer* data,
                           unsigned threads) {
    MTL::CommandBuffer* commands = queue->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    if (data) encoder->setBuffer(data, 0, 0);
    encoder->dispatchThreads(MTL::Size(threads, 1, 1), MTL::Size(std::min(threads, 64u), 1, 1));
    encoder->endEncoding();
    return commands;
}

} // namespace

int main(int argc, char** argv) {
    int single = 20000, many = 100000, repeat = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--single")) single = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--many")) many = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[i + 1]);
    }
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    // The second compile of the same source loads from the kernel cache.
    MTL::ComputePipelineState* empty = bench::pipelineFromSource(device, kSource, "empty");
    MTL::ComputePipelineState* addOne = bench::pipelineFromSource(device, kSource, "add_one");
    if (!empty || !addOne) return 1;
    MTL::CommandQueue* queue = device->newCommandQueue();
    MTL::Buffer* data = device->newBuffer(256 * sizeof(int), MTL::ResourceStorageModeShared);
    const char* mode = std::getenv("METALCPU_ISOLATION");
    std::printf("METALCPU_ISOLATION=%s\n", mode ? mode : "(unset)");

    // Warm up: the device process starts, the library loads.
    for (int i = 0; i < 100; ++i) {
        MTL::CommandBuffer* commands = encode(queue, empty, nullptr, 1);
        commands->commit();
        commands->waitUntilCompleted();
    }

    const double singleSeconds = bench::bestSeconds(repeat, [&] {
        for (int i = 0; i < single; ++i) {
            NS::AutoreleasePool* inner = NS::AutoreleasePool::alloc()->init();
            MTL::CommandBuffer* commands = encode(queue, empty, nullptr, 1);
            commands->commit();
            commands->waitUntilCompleted();
            inner->release();
        }
    });
    std::printf("commit + wait, one empty dispatch: %.2f us per command buffer (%d in a row, best of %d)\n",
                singleSeconds / single * 1e6, single, repeat);

    const double manySeconds = bench::bestSeconds(repeat, [&] {
        NS::AutoreleasePool* inner = NS::AutoreleasePool::alloc()->init();
        for (int i = 0; i < many; ++i) {
            MTL::CommandBuffer* commands = encode(queue, addOne, data, 256);
            commands->commit();
            // Every 1000th is waited for, to bound the autoreleased command buffers held at once.
            if (i % 1000 == 999 || i == many - 1) {
                commands->waitUntilCompleted();
                inner->release();
                inner = NS::AutoreleasePool::alloc()->init();
            }
        }
        inner->release();
    });
    std::printf("%d small command buffers (256 threads each) back to back: %.2f us per command buffer, %.2f s in all\n",
                many, manySeconds / many * 1e6, manySeconds);

    data->release();
    queue->release();
    addOne->release();
    empty->release();
    device->release();
    pool->release();
    return 0;
}
