// The bug from the PyTorch MPS custom-kernel tutorial: `out[index + 1]` writes one element
// past the end of the output buffer. Run it with
//   MTL_SHADER_VALIDATION=1 MTL_SHADER_VALIDATION_REPORT_TO_STDERR=1 ./validation_sample
// and shader validation prints Apple's report, pointing at /program_source:9:20. The store is
// dropped (MTL_SHADER_VALIDATION_FAIL_MODE=zerofill) and the program goes on, as on a Mac.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {

// Line 9, column 20 is the `=` of the store: where Apple's report points.
const char* kSource = R"(#include <metal_stdlib>
using namespace metal;

// out[i] = sin(x[i]) + cos(x[i]), with the tutorial's off-by-one.
template <typename T>
kernel void sum_sincos(constant T* x [[buffer(0)]],
                       device T* out [[buffer(1)]],
                       uint index [[thread_position_in_grid]]) {
    out[index + 1] = sin(x[index]) + cos(x[index]);
}

template [[host_name("sum_sincos_float")]] kernel void sum_sincos<float>(constant float*, device float*, uint);
)";

} // namespace

int main(int argc, char** argv) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    const NS::UInteger count = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000;

    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    NS::Error* error = nullptr;
    MTL::Library* library = device->newLibrary(NS::String::string(kSource, NS::UTF8StringEncoding), nullptr, &error);
    if (!library) {
        std::fprintf(stderr, "%s\n", error->localizedDescription()->utf8String());
        return 1;
    }
    MTL::Function* function = library->newFunction(NS::String::string("sum_sincos_float", NS::UTF8StringEncoding));
    MTL::ComputePipelineState* pipeline = device->newComputePipelineState(function, &error);
    if (!pipeline) {
        std::fprintf(stderr, "%s\n", error->localizedDescription()->utf8String());
        return 1;
    }

    MTL::Buffer* x = device->newBuffer(count * sizeof(float), MTL::ResourceStorageModeShared);
    MTL::Buffer* out = device->newBuffer(count * sizeof(float), MTL::ResourceStorageModeShared);
    float* input = static_cast<float*>(x->contents());
    for (NS::UInteger i = 0; i < count; ++i) input[i] = 0.001f * float(i);

    MTL::CommandQueue* queue = device->newCommandQueue();
    MTL::CommandBuffer* commands = queue->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(pipeline);
    encoder->setBuffer(x, 0, 0);
    encoder->setBuffer(out, 0, 1);
    encoder->dispatchThreads(MTL::Size(count, 1, 1), MTL::Size(64, 1, 1));
    encoder->endEncoding();
    commands->commit();
    commands->waitUntilCompleted();

    // Every element but the first was written one place too far.
    const float* result = static_cast<const float*>(out->contents());
    const float expected = std::sin(input[0]) + std::cos(input[0]);
    std::printf("status %d, out[1] = %f (expected sin(x[1]) + cos(x[1]) = %f, got x[0]'s value %f)\n",
                int(commands->status()), double(result[1]),
                double(std::sin(input[1]) + std::cos(input[1])), double(expected));

    out->release();
    x->release();
    queue->release();
    pipeline->release();
    function->release();
    library->release();
    device->release();
    pool->release();
    return 0;
}
