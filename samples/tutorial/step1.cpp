// Tutorial step 1 (docs/tutorial.md): add two arrays with a kernel. The blocks between
// "[tutorial:" markers are quoted in the tutorial; tests/docs checks that they match.
//
//   tutorial_step1 [count]
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    const NS::UInteger count = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000000;

    // [tutorial:device]
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    std::printf("device: %s\n", device->name()->utf8String());
    // [tutorial:end]

    // [tutorial:library]
    MTL::Library* library = device->newDefaultLibrary();
    if (!library) {
        std::fprintf(stderr, "no default library\n");
        return 1;
    }
    MTL::Function* function = library->newFunction(NS::String::string("add_arrays", NS::UTF8StringEncoding));
    // [tutorial:end]

    // [tutorial:pipeline]
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* pipeline = device->newComputePipelineState(function, &error);
    if (!pipeline) {
        std::fprintf(stderr, "%s\n", error->localizedDescription()->utf8String());
        return 1;
    }
    // [tutorial:end]

    // [tutorial:buffers]
    const NS::UInteger length = count * sizeof(float);
    MTL::Buffer* a = device->newBuffer(length, MTL::ResourceStorageModeShared);
    MTL::Buffer* b = device->newBuffer(length, MTL::ResourceStorageModeShared);
    MTL::Buffer* sum = device->newBuffer(length, MTL::ResourceStorageModeShared);
    float* aValues = static_cast<float*>(a->contents());
    float* bValues = static_cast<float*>(b->contents());
    for (NS::UInteger i = 0; i < count; ++i) {
        aValues[i] = float(i);
        bValues[i] = 2.0f * float(i);
    }
    // [tutorial:end]

    // [tutorial:command-buffer]
    MTL::CommandQueue* queue = device->newCommandQueue();
    MTL::CommandBuffer* commands = queue->commandBuffer();
    // [tutorial:end]

    // [tutorial:encoder]
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(pipeline);
    encoder->setBuffer(a, 0, 0);
    encoder->setBuffer(b, 0, 1);
    encoder->setBuffer(sum, 0, 2);
    const NS::UInteger groupWidth = std::min<NS::UInteger>(pipeline->maxTotalThreadsPerThreadgroup(), 256);
    encoder->dispatchThreads(MTL::Size(count, 1, 1), MTL::Size(groupWidth, 1, 1));
    encoder->endEncoding();
    // [tutorial:end]

    // [tutorial:commit]
    commands->commit();
    commands->waitUntilCompleted();
    if (commands->status() != MTL::CommandBufferStatusCompleted) {
        std::fprintf(stderr, "%s\n", commands->error()->localizedDescription()->utf8String());
        return 1;
    }
    // [tutorial:end]

    // [tutorial:results]
    const float* sums = static_cast<const float*>(sum->contents());
    NS::UInteger wrong = 0;
    for (NS::UInteger i = 0; i < count; ++i)
        if (sums[i] != 3.0f * float(i)) ++wrong;
    std::printf("%lu sums, %lu wrong\n", static_cast<unsigned long>(count), static_cast<unsigned long>(wrong));
    // [tutorial:end]

    // [tutorial:release]
    sum->release();
    b->release();
    a->release();
    queue->release();
    pipeline->release();
    function->release();
    library->release();
    device->release();
    pool->release();
    // [tutorial:end]
    return wrong == 0 ? 0 : 1;
}
