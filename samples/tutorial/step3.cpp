// Tutorial step 3 (docs/tutorial.md): a kernel that reaches past the end of its buffer, and
// what shader validation says about it. The blocks between "[tutorial:" markers are quoted
// in the tutorial.
//
//   MTL_SHADER_VALIDATION=1 MTL_SHADER_VALIDATION_REPORT_TO_STDERR=1 tutorial_step3 [--fixed]
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
    const bool fixed = argc > 1 && std::strcmp(argv[1], "--fixed") == 0;
    const std::uint32_t count = 1000;
    const float factor = 2.0f;
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    MTL::Library* library = device->newDefaultLibrary();
    if (!library) return 1;
    const char* kernel = fixed ? "scale_checked" : "scale";
    MTL::Function* function = library->newFunction(NS::String::string(kernel, NS::UTF8StringEncoding));
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* pipeline = device->newComputePipelineState(function, &error);
    if (!pipeline) {
        std::fprintf(stderr, "%s\n", error->localizedDescription()->utf8String());
        return 1;
    }
    MTL::Buffer* values = device->newBuffer(count * sizeof(float), MTL::ResourceStorageModeShared);
    float* contents = static_cast<float*>(values->contents());
    for (std::uint32_t i = 0; i < count; ++i) contents[i] = float(i);

    MTL::CommandQueue* queue = device->newCommandQueue();
    MTL::CommandBuffer* commands = queue->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(pipeline);
    encoder->setBuffer(values, 0, 0);
    encoder->setBytes(&factor, sizeof factor, 1);
    encoder->setBytes(&count, sizeof count, 2);
    // [tutorial:dispatch]
    // 16 threadgroups of 64 threads: 1024 threads for 1000 values.
    const NS::UInteger groupSize = 64, groups = (count + groupSize - 1) / groupSize;
    encoder->dispatchThreadgroups(MTL::Size(groups, 1, 1), MTL::Size(groupSize, 1, 1));
    // [tutorial:end]
    encoder->endEncoding();
    commands->commit();
    commands->waitUntilCompleted();

    std::uint32_t wrong = 0;
    for (std::uint32_t i = 0; i < count; ++i)
        if (contents[i] != float(i) * factor) ++wrong;
    std::printf("%s: %u values scaled, %u wrong\n", kernel, count, wrong);

    values->release();
    queue->release();
    pipeline->release();
    function->release();
    library->release();
    device->release();
    pool->release();
    return wrong == 0 ? 0 : 1;
}
