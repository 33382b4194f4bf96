// Compile-only: programs that include individual Metal headers instead of Metal/Metal.hpp and
// still use Foundation, which each metal-cpp header brings in. (Seen in public code.)

#include "Metal/MTLBuffer.hpp"
#include "Metal/MTLCommandBuffer.hpp"
#include "Metal/MTLCommandQueue.hpp"
#include "Metal/MTLComputeCommandEncoder.hpp"
#include "Metal/MTLComputePipeline.hpp"
#include "Metal/MTLDevice.hpp"
#include "Metal/MTLLibrary.hpp"

#include <algorithm>
#include <iostream>

namespace api_single_headers {

void run(MTL::Device* device, MTL::CommandQueue* queue, int count) {
    MTL::Library* library = device->newDefaultLibrary();
    MTL::Function* function =
        library->newFunction(NS::String::string("vectorKernel", NS::StringEncoding::UTF8StringEncoding));
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* pipeline = device->newComputePipelineState(function, &error);
    if (!pipeline) std::cerr << error->localizedDescription()->utf8String() << '\n';

    MTL::Buffer* buffer = device->newBuffer(count * sizeof(float), MTL::ResourceStorageModeShared);
    MTL::CommandBuffer* commandBuffer = queue->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(pipeline);
    encoder->setBuffer(buffer, 0, 0);
    const int maxThreads = static_cast<int>(pipeline->maxTotalThreadsPerThreadgroup());
    encoder->dispatchThreads(MTL::Size(count, 1, 1), MTL::Size(std::min(count, maxThreads), 1, 1));
    encoder->endEncoding();
    commandBuffer->commit();
    commandBuffer->waitUntilCompleted();
    std::cout << static_cast<float*>(buffer->contents())[0] << '\n';
}

} // namespace api_single_headers
