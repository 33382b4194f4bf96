// Runs kernels that each write one int into buffer(0) and prints `<kernel>=<value>`:
//   run_kernels default <kernel>...          the library newDefaultLibrary() finds
//   run_kernels <file.metallib> <kernel>...
// The consumer tests build it against an installed metalcpu (CMake or pkg-config) and read
// which values their kernels were compiled with; the build's own copy is
// header_rebuild_test.cmake's probe (metalcpu_metallib_probe).
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <cstdio>
#include <cstring>

#include "shared_constants.h"

namespace {

NS::String* string(const char* text) { return NS::String::string(text, NS::UTF8StringEncoding); }

// Runs `name` on one thread; false (with a message) when the library has no such kernel or
// the dispatch fails.
bool runKernel(MTL::Device* device, MTL::Library* library, const char* name) {
    NS::Error* error = nullptr;
    MTL::Function* function = library->newFunction(string(name));
    MTL::ComputePipelineState* pipeline = function ? device->newComputePipelineState(function, &error) : nullptr;
    bool ran = false;
    if (pipeline) {
        MTL::Buffer* out = device->newBuffer(sizeof(int), MTL::ResourceStorageModeShared);
        *static_cast<int*>(out->contents()) = -1;
        MTL::CommandQueue* queue = device->newCommandQueue();
        MTL::CommandBuffer* commandBuffer = queue->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(pipeline);
        encoder->setBuffer(out, 0, 0);
        encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
        encoder->endEncoding();
        commandBuffer->commit();
        commandBuffer->waitUntilCompleted();
        ran = commandBuffer->status() == MTL::CommandBufferStatusCompleted;
        if (ran) std::printf("%s=%d\n", name, *static_cast<int*>(out->contents()));
        queue->release();
        out->release();
        pipeline->release();
    }
    if (!ran) {
        std::fprintf(stderr, "cannot run kernel `%s`: %s\n", name,
                     error ? error->localizedDescription()->utf8String() : "no such kernel");
    }
    if (function) function->release();
    return ran;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: run_kernels default|<file.metallib> <kernel>...\n");
        return 2;
    }
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    NS::Error* error = nullptr;
    MTL::Library* library = std::strcmp(argv[1], "default") == 0 ? device->newDefaultLibrary()
                                                                  : device->newLibrary(string(argv[1]), &error);
    int status = library ? 0 : 1;
    if (!library) {
        std::fprintf(stderr, "cannot load library %s: %s\n", argv[1],
                     error ? error->localizedDescription()->utf8String() : "not found");
    }
    for (int i = 2; library && i < argc; ++i) {
        if (!runKernel(device, library, argv[i])) status = 1;
    }
    // The host side of the constant the kernels share through INCLUDE_DIRECTORIES_FROM.
    std::printf("host_shared_constant=%d\n", SHARED_CONSTANT);
    if (library) library->release();
    device->release();
    pool->release();
    return status;
}
