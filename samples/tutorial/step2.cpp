// Tutorial step 2 (docs/tutorial.md): a sum, one partial sum per threadgroup, made in
// threadgroup memory. The blocks between "[tutorial:" markers are quoted in the tutorial.
//
//   tutorial_step2 [count [threads per threadgroup]]
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    const std::uint32_t count = argc > 1 ? std::uint32_t(std::strtoul(argv[1], nullptr, 10)) : 1000000;
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    MTL::Library* library = device->newDefaultLibrary();
    if (!library) return 1;
    MTL::Function* function = library->newFunction(NS::String::string("partial_sums", NS::UTF8StringEncoding));
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* pipeline = device->newComputePipelineState(function, &error);
    if (!pipeline) {
        std::fprintf(stderr, "%s\n", error->localizedDescription()->utf8String());
        return 1;
    }

    // [tutorial:group-size]
    NS::UInteger groupSize = pipeline->threadExecutionWidth() * 8;
    if (argc > 2) groupSize = std::strtoul(argv[2], nullptr, 10);
    groupSize = std::min(groupSize, pipeline->maxTotalThreadsPerThreadgroup());
    const NS::UInteger groups = (count + groupSize - 1) / groupSize;
    std::printf("%u values, %lu threadgroups of %lu threads\n", count, static_cast<unsigned long>(groups),
                static_cast<unsigned long>(groupSize));
    // [tutorial:end]

    MTL::Buffer* values = device->newBuffer(count * sizeof(float), MTL::ResourceStorageModeShared);
    MTL::Buffer* partials = device->newBuffer(groups * sizeof(float), MTL::ResourceStorageModeShared);
    float* input = static_cast<float*>(values->contents());
    double expected = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
        input[i] = float(i % 7);
        expected += input[i];
    }

    MTL::CommandQueue* queue = device->newCommandQueue();
    MTL::CommandBuffer* commands = queue->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(pipeline);
    encoder->setBuffer(values, 0, 0);
    encoder->setBuffer(partials, 0, 1);
    // [tutorial:dispatch]
    encoder->setBytes(&count, sizeof count, 2);
    const NS::UInteger scratchLength = (groupSize * sizeof(float) + 15) / 16 * 16; // Metal wants multiples of 16
    encoder->setThreadgroupMemoryLength(scratchLength, 0);
    encoder->dispatchThreadgroups(MTL::Size(groups, 1, 1), MTL::Size(groupSize, 1, 1));
    // [tutorial:end]
    encoder->endEncoding();
    commands->commit();
    commands->waitUntilCompleted();

    // [tutorial:results]
    const float* partial = static_cast<const float*>(partials->contents());
    double total = 0;
    for (NS::UInteger g = 0; g < groups; ++g) total += partial[g];
    std::printf("sum %.0f, expected %.0f\n", total, expected);
    // [tutorial:end]

    partials->release();
    values->release();
    queue->release();
    pipeline->release();
    function->release();
    library->release();
    device->release();
    pool->release();
    return total == expected ? 0 : 1;
}
