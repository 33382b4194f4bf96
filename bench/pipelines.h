#pragma once

// Kernels compiled from source at run time, as the benchmarks make them. Include after
// <Metal/Metal.hpp>.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace bench {

/// The text of the file at `path` (a kernel source beside the benchmark), empty when unread.
inline std::string readFile(const char* path) {
    std::ifstream file(path);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

/// The library (+1) of MSL `source`, or nullptr after printing the compiler's message.
inline MTL::Library* compileLibrary(MTL::Device* device, const char* source) {
    NS::Error* error = nullptr;
    MTL::Library* library = device->newLibrary(NS::String::string(source, NS::UTF8StringEncoding), nullptr, &error);
    if (!library) std::fprintf(stderr, "compile failed: %s\n", error ? error->localizedDescription()->utf8String() : "?");
    return library;
}

/// A pipeline (+1) for `kernel` of MSL `source`, or nullptr after printing why there is none.
inline MTL::ComputePipelineState* pipelineFromSource(MTL::Device* device, const char* source, const char* kernel) {
    MTL::Library* library = compileLibrary(device, source);
    if (!library) return nullptr;
    MTL::Function* function = library->newFunction(NS::String::string(kernel, NS::UTF8StringEncoding));
    library->release();
    if (!function) {
        std::fprintf(stderr, "no kernel %s\n", kernel);
        return nullptr;
    }
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* state = device->newComputePipelineState(function, &error);
    function->release();
    if (!state) std::fprintf(stderr, "pipeline failed: %s\n", error ? error->localizedDescription()->utf8String() : "?");
    return state;
}

/// Runs `state` once and waits: `in` at [[buffer(0)]], `out` at 1, `constant` at 2, `groups`
/// threadgroups of `threads` threads.
template <class T>
void dispatchOnce(MTL::CommandQueue* queue, MTL::ComputePipelineState* state, MTL::Buffer* in, MTL::Buffer* out,
                  const T& constant, unsigned groups, unsigned threads) {
    MTL::CommandBuffer* commandBuffer = queue->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(in, 0, 0);
    encoder->setBuffer(out, 0, 1);
    encoder->setBytes(&constant, sizeof constant, 2);
    encoder->dispatchThreadgroups(MTL::Size(groups, 1, 1), MTL::Size(threads, 1, 1));
    encoder->endEncoding();
    commandBuffer->commit();
    commandBuffer->waitUntilCompleted();
}

} // namespace bench
