#pragma once

// kernels/copy_shifted.metal run as a user's program runs it, through the public API only, from
// the library the build made of it (METALCPU_COPY_SHIFTED_METALLIB): for the listener suite and
// the validation probe, which process_level_test.cpp runs as separate processes.

#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace copy_shifted {

/// The device, a queue and the kernels' library, made at first use and kept.
struct Kernels {
    MTL::Device* device = nullptr;
    MTL::CommandQueue* queue = nullptr;
    MTL::Library* library = nullptr;
};

inline Kernels& kernels() {
    static Kernels made = [] {
        Kernels k;
        k.device = MTL::CreateSystemDefaultDevice();
        k.queue = k.device->newCommandQueue();
        NS::Error* error = nullptr;
        k.library = k.device->newLibrary(NS::String::string(METALCPU_COPY_SHIFTED_METALLIB, NS::UTF8StringEncoding), &error);
        if (!k.library) {
            std::fprintf(stderr, "cannot open %s: %s\n", METALCPU_COPY_SHIFTED_METALLIB,
                         error ? error->localizedDescription()->utf8String() : "?");
            std::exit(2);
        }
        return k;
    }();
    return made;
}

/// A pipeline (+1) for `function`, labelled `label` unless it is null, with the descriptor's
/// shader validation left at its default.
inline MTL::ComputePipelineState* pipeline(const char* function, const char* label = nullptr) {
    Kernels& k = kernels();
    MTL::Function* kernel = k.library->newFunction(NS::String::string(function, NS::UTF8StringEncoding));
    MTL::ComputePipelineDescriptor* descriptor = MTL::ComputePipelineDescriptor::alloc()->init();
    descriptor->setComputeFunction(kernel);
    if (label) descriptor->setLabel(NS::String::string(label, NS::UTF8StringEncoding));
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* made = k.device->newComputePipelineState(descriptor, MTL::PipelineOptionNone, nullptr, &error);
    if (!made) {
        std::fprintf(stderr, "no pipeline for %s: %s\n", function, error ? error->localizedDescription()->utf8String() : "?");
        std::exit(2);
    }
    descriptor->release();
    kernel->release();
    return made;
}

/// Commits copy_shifted over `count` threads into the first `count` floats of `storage`, which
/// has one float more: with `shift` 1 the last store lands past the end of the buffer — in
/// `storage`'s spare float, harmless when shader validation is off. Returns the command buffer
/// (autoreleased), not waited for.
inline MTL::CommandBuffer* copy(MTL::ComputePipelineState* pipeline, float* storage, NS::UInteger count,
                                std::uint32_t shift) {
    Kernels& k = kernels();
    MTL::Buffer* in = k.device->newBuffer(count * sizeof(float), MTL::ResourceStorageModeShared);
    MTL::Buffer* out = k.device->newBuffer(storage, count * sizeof(float), MTL::ResourceStorageModeShared, nullptr);
    MTL::CommandBuffer* commands = k.queue->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(pipeline);
    encoder->setBuffer(in, 0, 0);
    encoder->setBuffer(out, 0, 1);
    encoder->setBytes(&shift, sizeof shift, 2);
    encoder->dispatchThreads(MTL::Size(count, 1, 1), MTL::Size(64, 1, 1));
    encoder->endEncoding();
    commands->commit();
    out->release(); // the command buffer keeps both until it completes
    in->release();
    return commands;
}

} // namespace copy_shifted
