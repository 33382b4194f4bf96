// metalcpu: ComputePassDescriptor, the options of a compute encoder.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLCommandBuffer.hpp"
#include "MTLDefines.hpp"

namespace MTL {

class CounterSampleBuffer;

// Where a compute pass writes counter samples at its start and end.
class ComputePassSampleBufferAttachmentDescriptor
    : public NS::Copying<ComputePassSampleBufferAttachmentDescriptor> {
public:
    static ComputePassSampleBufferAttachmentDescriptor* alloc();
    ComputePassSampleBufferAttachmentDescriptor* init();

    CounterSampleBuffer* sampleBuffer() const;
    void setSampleBuffer(const CounterSampleBuffer* sampleBuffer);
    NS::UInteger startOfEncoderSampleIndex() const;
    void setStartOfEncoderSampleIndex(NS::UInteger startOfEncoderSampleIndex);
    NS::UInteger endOfEncoderSampleIndex() const;
    void setEndOfEncoderSampleIndex(NS::UInteger endOfEncoderSampleIndex);
};

class ComputePassSampleBufferAttachmentDescriptorArray
    : public NS::Referencing<ComputePassSampleBufferAttachmentDescriptorArray> {
public:
    static ComputePassSampleBufferAttachmentDescriptorArray* alloc();
    ComputePassSampleBufferAttachmentDescriptorArray* init();

    ComputePassSampleBufferAttachmentDescriptor* object(NS::UInteger attachmentIndex);
    void setObject(const ComputePassSampleBufferAttachmentDescriptor* attachment, NS::UInteger attachmentIndex);
};

// Options for CommandBuffer::computeCommandEncoder(descriptor).
class ComputePassDescriptor : public NS::Copying<ComputePassDescriptor> {
public:
    static ComputePassDescriptor* alloc();
    static ComputePassDescriptor* computePassDescriptor();
    ComputePassDescriptor* init();

    DispatchType dispatchType() const;
    void setDispatchType(DispatchType dispatchType);
    ComputePassSampleBufferAttachmentDescriptorArray* sampleBufferAttachments() const;
};

} // namespace MTL
