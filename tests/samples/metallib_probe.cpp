// Prints what kernel `value` of a library file writes into an int:
//   metalcpu_metallib_probe <file.metallib>
// header_rebuild_test.cmake runs it to see which version of a header a library was built from.
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: metalcpu_metallib_probe <file.metallib>\n");
        return 2;
    }
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    NS::Error* error = nullptr;
    MTL::Library* library = device->newLibrary(NS::String::string(argv[1], NS::UTF8StringEncoding), &error);
    MTL::Function* function =
        library ? library->newFunction(NS::String::string("value", NS::UTF8StringEncoding)) : nullptr;
    MTL::ComputePipelineState* pipeline = function ? device->newComputePipelineState(function, &error) : nullptr;
    int status = 1;
    if (pipeline) {
        MTL::Buffer* out = device->newBuffer(sizeof(int), MTL::ResourceStorageModeShared);
        MTL::CommandQueue* queue = device->newCommandQueue();
        MTL::CommandBuffer* commandBuffer = queue->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(pipeline);
        encoder->setBuffer(out, 0, 0);
        encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
        encoder->endEncoding();
        commandBuffer->commit();
        commandBuffer->waitUntilCompleted();
        if (commandBuffer->status() == MTL::CommandBufferStatusCompleted) {
            std::printf("value=%d\n", *static_cast<int*>(out->contents()));
            status = 0;
        }
        queue->release();
        out->release();
        pipeline->release();
    } else {
        std::fprintf(stderr, "cannot run kernel `value` of %s: %s\n", argv[1],
                     error ? error->localizedDescription()->utf8String() : "no such kernel");
    }
    if (function) function->release();
    if (library) library->release();
    device->release();
    pool->release();
    return status;
}
