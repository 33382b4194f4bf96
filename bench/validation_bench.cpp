// What shader validation costs: run time of the samples/matmul kernels and of an elementwise
// kernel with a plain pipeline and with a validated one (MTL::ShaderValidationEnabled on the
// descriptor), and their ratio. Issue 14's target is validated <= 2x plain on every kernel.
//
//   validation_bench [--size 512] [--elements 16777216] [--repeat 3] [--kernel name]
//                    [--only plain|validated]
//
// Prints a Markdown table for the README. --kernel runs one kernel; --only runs one flavour
// (its column of the other reads 0), for medians of alternating whole-process runs.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include "ShaderParams.h"
#include "timing.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>

namespace {

const char* kElementwise = R"(#include <metal_stdlib>
using namespace metal;
kernel void scale_add(device const float* a [[buffer(0)]], device const float* b [[buffer(1)]],
                      device float* out [[buffer(2)]], constant float& scale [[buffer(3)]],
                      uint i [[thread_position_in_grid]]) {
    out[i] = a[i] * scale + b[i];
}
)";

MTL::ComputePipelineState* pipeline(MTL::Device* device, MTL::Library* library, const char* name, bool validated) {
    MTL::Function* function = library->newFunction(NS::String::string(name, NS::UTF8StringEncoding));
    MTL::ComputePipelineDescriptor* descriptor = MTL::ComputePipelineDescriptor::alloc()->init();
    descriptor->setComputeFunction(function);
    descriptor->setShaderValidation(validated ? MTL::ShaderValidationEnabled : MTL::ShaderValidationDisabled);
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* made = device->newComputePipelineState(descriptor, MTL::PipelineOptionNone, nullptr, &error);
    if (!made) std::fprintf(stderr, "%s: %s\n", name, error->localizedDescription()->utf8String());
    descriptor->release();
    function->release();
    return made;
}

/// Best time of `encode` dispatched through `state`, committed and waited for.
double timeDispatch(MTL::CommandQueue* queue, MTL::ComputePipelineState* state, int repeat,
                    const std::function<void(MTL::ComputeCommandEncoder*)>& encode) {
    return bench::bestSeconds(repeat, [&] {
        MTL::CommandBuffer* commands = queue->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encode(encoder);
        encoder->endEncoding();
        commands->commit();
        commands->waitUntilCompleted();
    });
}

void row(const char* name, const char* size, double plain, double validated) {
    std::printf("| %s | %s | %.1f | %.1f | %.2f |\n", name, size, plain * 1e3, validated * 1e3,
                plain > 0 ? validated / plain : 0.0);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    unsigned n = 512;
    NS::UInteger elements = NS::UInteger(1) << 24;
    int repeat = 3;
    const char* only = nullptr;
    const char* kernel = nullptr;
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--size")) n = static_cast<unsigned>(std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--elements")) elements = std::strtoul(argv[++i], nullptr, 10);
        else if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--only")) only = argv[++i];
        else if (!std::strcmp(argv[i], "--kernel")) kernel = argv[++i];
    }
    // Whether to run `name` in the flavour `validated`.
    auto runs = [&](const char* name, int validated) {
        if (kernel && std::strcmp(kernel, name)) return false;
        return !only || !std::strcmp(only, validated ? "validated" : "plain");
    };
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    MTL::CommandQueue* queue = device->newCommandQueue();
    MTL::Library* matmul = device->newDefaultLibrary();
    NS::Error* error = nullptr;
    MTL::Library* elementwise =
        device->newLibrary(NS::String::string(kElementwise, NS::UTF8StringEncoding), nullptr, &error);
    if (!matmul || !elementwise) {
        std::fprintf(stderr, "cannot load the kernels\n");
        return 1;
    }
    std::printf("| kernel | size | plain ms | validated ms | validated / plain |\n|---|---|---|---|---|\n");

    // Elementwise: one load from each input, one store.
    if (runs("scale_add", 0) || runs("scale_add", 1)) {
        MTL::Buffer* a = device->newBuffer(elements * sizeof(float), MTL::ResourceStorageModeShared);
        MTL::Buffer* b = device->newBuffer(elements * sizeof(float), MTL::ResourceStorageModeShared);
        MTL::Buffer* out = device->newBuffer(elements * sizeof(float), MTL::ResourceStorageModeShared);
        const float scale = 2.0f;
        auto encode = [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(a, 0, 0);
            e->setBuffer(b, 0, 1);
            e->setBuffer(out, 0, 2);
            e->setBytes(&scale, sizeof scale, 3);
            e->dispatchThreads(MTL::Size(elements, 1, 1), MTL::Size(256, 1, 1));
        };
        double times[2] = {0, 0};
        for (int validated = 0; validated < 2; ++validated) {
            if (!runs("scale_add", validated)) continue;
            MTL::ComputePipelineState* state = pipeline(device, elementwise, "scale_add", validated);
            if (!state) return 1;
            times[validated] = timeDispatch(queue, state, repeat, encode);
            state->release();
        }
        std::string size = std::to_string(elements >> 20) + "M floats";
        row("scale_add (elementwise)", size.c_str(), times[0], times[1]);
        a->release();
        b->release();
        out->release();
    }

    // The matmul kernels.
    MTL::Buffer* a = device->newBuffer(sizeof(float) * n * n, MTL::ResourceStorageModeShared);
    MTL::Buffer* b = device->newBuffer(sizeof(float) * n * n, MTL::ResourceStorageModeShared);
    MTL::Buffer* c = device->newBuffer(sizeof(float) * n * n, MTL::ResourceStorageModeShared);
    MatMulParams params{n, n, n};
    const std::string size = std::to_string(n) + "²";
    for (const char* name : {"mat_mul_naive", "mat_mul_tiled", "mat_mul_register_4x4", "mat_mul_register_8x4"}) {
        if (!runs(name, 0) && !runs(name, 1)) continue;
        auto encode = [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(a, 0, 0);
            e->setBuffer(b, 0, 1);
            e->setBuffer(c, 0, 2);
            e->setBytes(&params, sizeof params, 3);
            if (!std::strcmp(name, "mat_mul_register_4x4"))
                e->dispatchThreads(MTL::Size(n / 4, n / 4, 1), MTL::Size(8, 8, 1));
            else if (!std::strcmp(name, "mat_mul_register_8x4"))
                e->dispatchThreads(MTL::Size(n / 4, n / 8, 1), MTL::Size(8, 8, 1));
            else
                e->dispatchThreadgroups(MTL::Size((n + 15) / 16, (n + 15) / 16, 1), MTL::Size(16, 16, 1));
        };
        double times[2] = {0, 0};
        for (int validated = 0; validated < 2; ++validated) {
            if (!runs(name, validated)) continue;
            MTL::ComputePipelineState* state = pipeline(device, matmul, name, validated);
            if (!state) return 1;
            times[validated] = timeDispatch(queue, state, repeat, encode);
            state->release();
        }
        row(name, size.c_str(), times[0], times[1]);
    }
    a->release();
    b->release();
    c->release();
    elementwise->release();
    matmul->release();
    queue->release();
    device->release();
    pool->release();
    return 0;
}
