#pragma once

#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

// Owns the Metal objects of the add_arrays computation: the pipeline, the queue and the
// three buffers, as in Apple's "Performing Calculations on a GPU" sample.
class MetalAdder {
public:
    MetalAdder(MTL::Device* device, unsigned long arrayLength);
    ~MetalAdder();

    bool ready() const { return m_addFunctionPSO != nullptr; }
    void prepareData();
    void sendComputeCommand();
    bool verifyResults() const;

private:
    void encodeAddCommand(MTL::ComputeCommandEncoder* computeEncoder);
    static void generateRandomFloatData(MTL::Buffer* buffer, unsigned long count);

    MTL::Device* m_device;
    MTL::ComputePipelineState* m_addFunctionPSO = nullptr;
    MTL::CommandQueue* m_commandQueue = nullptr;
    MTL::Buffer* m_bufferA = nullptr;
    MTL::Buffer* m_bufferB = nullptr;
    MTL::Buffer* m_bufferResult = nullptr;
    unsigned long m_arrayLength;
};
