#include "MetalAdder.h"

#include <cmath>
#include <cstdlib>
#include <iostream>

MetalAdder::MetalAdder(MTL::Device* device, unsigned long arrayLength) : m_device(device), m_arrayLength(arrayLength) {
    NS::Error* error = nullptr;
    MTL::Library* defaultLibrary = m_device->newDefaultLibrary();
    if (defaultLibrary == nullptr) {
        std::cout << "Failed to find the default library." << std::endl;
        return;
    }
    MTL::Function* addFunction = defaultLibrary->newFunction(NS::String::string("add_arrays", NS::UTF8StringEncoding));
    defaultLibrary->release();
    if (addFunction == nullptr) {
        std::cout << "Failed to find the adder function." << std::endl;
        return;
    }
    m_addFunctionPSO = m_device->newComputePipelineState(addFunction, &error);
    addFunction->release();
    if (m_addFunctionPSO == nullptr) {
        std::cout << "Failed to create pipeline state object, error "
                  << error->localizedDescription()->utf8String() << std::endl;
        return;
    }
    m_commandQueue = m_device->newCommandQueue();

    const unsigned long bufferSize = m_arrayLength * sizeof(float);
    m_bufferA = m_device->newBuffer(bufferSize, MTL::ResourceStorageModeShared);
    m_bufferB = m_device->newBuffer(bufferSize, MTL::ResourceStorageModeShared);
    m_bufferResult = m_device->newBuffer(bufferSize, MTL::ResourceStorageModeShared);
}

MetalAdder::~MetalAdder() {
    m_bufferA->release();
    m_bufferB->release();
    m_bufferResult->release();
    m_commandQueue->release();
    m_addFunctionPSO->release();
}

void MetalAdder::prepareData() {
    generateRandomFloatData(m_bufferA, m_arrayLength);
    generateRandomFloatData(m_bufferB, m_arrayLength);
}

void MetalAdder::sendComputeCommand() {
    MTL::CommandBuffer* commandBuffer = m_commandQueue->commandBuffer();
    MTL::ComputeCommandEncoder* computeEncoder = commandBuffer->computeCommandEncoder();
    encodeAddCommand(computeEncoder);
    computeEncoder->endEncoding();
    commandBuffer->commit();
    commandBuffer->waitUntilCompleted();
}

void MetalAdder::encodeAddCommand(MTL::ComputeCommandEncoder* computeEncoder) {
    computeEncoder->setComputePipelineState(m_addFunctionPSO);
    computeEncoder->setBuffer(m_bufferA, 0, 0);
    computeEncoder->setBuffer(m_bufferB, 0, 1);
    computeEncoder->setBuffer(m_bufferResult, 0, 2);

    MTL::Size gridSize = MTL::Size(m_arrayLength, 1, 1);
    NS::UInteger threadGroupSize = m_addFunctionPSO->maxTotalThreadsPerThreadgroup();
    if (threadGroupSize > m_arrayLength) threadGroupSize = m_arrayLength;
    MTL::Size threadgroupSize = MTL::Size(threadGroupSize, 1, 1);
    computeEncoder->dispatchThreads(gridSize, threadgroupSize);
}

void MetalAdder::generateRandomFloatData(MTL::Buffer* buffer, unsigned long count) {
    float* dataPtr = static_cast<float*>(buffer->contents());
    for (unsigned long index = 0; index < count; index++) dataPtr[index] = float(std::rand()) / float(RAND_MAX);
}

bool MetalAdder::verifyResults() const {
    const float* a = static_cast<const float*>(m_bufferA->contents());
    const float* b = static_cast<const float*>(m_bufferB->contents());
    const float* result = static_cast<const float*>(m_bufferResult->contents());
    for (unsigned long index = 0; index < m_arrayLength; index++) {
        if (std::fabs(result[index] - (a[index] + b[index])) > 1e-6f) {
            std::cout << "Compute ERROR: index=" << index << " result=" << result[index]
                      << " vs " << a[index] + b[index] << "=a+b" << std::endl;
            return false;
        }
    }
    std::cout << "Compute results as expected" << std::endl;
    return true;
}
