// The compute and blit encoder methods beyond command_encoder.cpp, and the counter-sampling
// settings of a compute pass (MTL::ComputePassSampleBufferAttachmentDescriptor and its array).
//
// Textures, samplers, tensors, fences, indirect command buffers, function tables, acceleration
// structures and counter sample buffers cannot be made yet (their factories log once), so the
// methods that take them only ever receive nil and do nothing, as Metal does for nil bindings.
// Stage-in regions and indirect dispatches, which act on what metalcpu does have, log once.
#include "api/not_yet.h"
#include "api/settings.h"
#include "runtime/compute_command_encoder.h"

#include <Metal/MTLBlitCommandEncoder.hpp>
#include <Metal/MTLComputeCommandEncoder.hpp>
#include <Metal/MTLComputePass.hpp>

#include <array>

namespace metalcpu::api {
namespace {

class SampleBufferAttachment final
    : public Settings<SampleBufferAttachment, MTL::ComputePassSampleBufferAttachmentDescriptor> {
public:
    const char* className() const override { return "MTLComputePassSampleBufferAttachmentDescriptor"; }

    // Apple's default for both indices is MTLCounterDontSample.
    struct State {
        NS::UInteger startOfEncoderSampleIndex = NS::UIntegerMax;
        NS::UInteger endOfEncoderSampleIndex = NS::UIntegerMax;
    } state;
};

/// One attachment per sample buffer a pass can sample into, made on first access.
class SampleBufferAttachments final : public ns::Implements<MTL::ComputePassSampleBufferAttachmentDescriptorArray> {
public:
    const char* className() const override { return "MTLComputePassSampleBufferAttachmentDescriptorArray"; }

    static constexpr NS::UInteger kSlots = 4; // MTLMaxComputeSampleBuffers
    std::array<Property<MTL::ComputePassSampleBufferAttachmentDescriptor>, kSlots> slots;
};

} // namespace
} // namespace metalcpu::api

using metalcpu::api::notYet;
using metalcpu::ns::implOf;
using Compute = metalcpu::rt::ComputeCommandEncoder;
using Attachment = metalcpu::api::SampleBufferAttachment;
using Attachments = metalcpu::api::SampleBufferAttachments;

// Compute: textures and samplers. The level-of-detail clamps only matter for mipmapped
// sampling, which kernels here do not do (they sample level 0).
void MTL::ComputeCommandEncoder::setTexture(const Texture* texture, NS::UInteger index) {
    if (auto* self = implOf<Compute>(this)) self->setTexture(texture, index);
}
void MTL::ComputeCommandEncoder::setTextures(const Texture* const textures[], NS::Range range) {
    if (auto* self = implOf<Compute>(this))
        for (NS::UInteger i = 0; i < range.length; ++i) self->setTexture(textures[i], range.location + i);
}
void MTL::ComputeCommandEncoder::setSamplerState(const SamplerState* sampler, NS::UInteger index) {
    if (auto* self = implOf<Compute>(this)) self->setSamplerState(sampler, index);
}
void MTL::ComputeCommandEncoder::setSamplerState(const SamplerState* sampler, float, float, NS::UInteger index) {
    if (auto* self = implOf<Compute>(this)) self->setSamplerState(sampler, index);
}
void MTL::ComputeCommandEncoder::setSamplerStates(const SamplerState* const samplers[], NS::Range range) {
    if (auto* self = implOf<Compute>(this))
        for (NS::UInteger i = 0; i < range.length; ++i) self->setSamplerState(samplers[i], range.location + i);
}
void MTL::ComputeCommandEncoder::setSamplerStates(const SamplerState* const samplers[], const float[], const float[],
                                                  NS::Range range) {
    setSamplerStates(samplers, range);
}
// Imageblocks are tile memory of Apple GPUs; kernels here have none to size.
void MTL::ComputeCommandEncoder::setImageblockWidth(NS::UInteger, NS::UInteger) {}
void MTL::ComputeCommandEncoder::setStageInRegion(Region) {
    notYet<Compute>(this, "MTL::ComputeCommandEncoder::setStageInRegion");
}
void MTL::ComputeCommandEncoder::setStageInRegion(const Buffer*, NS::UInteger) {
    notYet<Compute>(this, "MTL::ComputeCommandEncoder::setStageInRegion");
}
void MTL::ComputeCommandEncoder::setVisibleFunctionTable(const VisibleFunctionTable*, NS::UInteger) {}
void MTL::ComputeCommandEncoder::setVisibleFunctionTables(const VisibleFunctionTable* const[], NS::Range) {}
void MTL::ComputeCommandEncoder::setIntersectionFunctionTable(const IntersectionFunctionTable*, NS::UInteger) {}
void MTL::ComputeCommandEncoder::setIntersectionFunctionTables(const IntersectionFunctionTable* const[], NS::Range) {}
void MTL::ComputeCommandEncoder::setAccelerationStructure(const AccelerationStructure*, NS::UInteger) {}
// An indirect dispatch reads its size when it runs, possibly written by an earlier dispatch of
// the same command buffer; the runtime has no such command yet.
void MTL::ComputeCommandEncoder::dispatchThreadgroups(const Buffer*, NS::UInteger, Size) {
    notYet<Compute>(this, "MTL::ComputeCommandEncoder::dispatchThreadgroups(indirectBuffer)");
}
void MTL::ComputeCommandEncoder::executeCommandsInBuffer(const IndirectCommandBuffer*, NS::Range) {}
void MTL::ComputeCommandEncoder::executeCommandsInBuffer(const IndirectCommandBuffer*, const Buffer*, NS::UInteger) {}
void MTL::ComputeCommandEncoder::updateFence(const Fence*) {}
void MTL::ComputeCommandEncoder::waitForFence(const Fence*) {}
void MTL::ComputeCommandEncoder::sampleCountersInBuffer(const CounterSampleBuffer*, NS::UInteger, bool) {}

// Blit: everything that involves textures, tensors, fences, indirect command buffers or counters.
void MTL::BlitCommandEncoder::copyFromBuffer(const Buffer*, NS::UInteger, NS::UInteger, NS::UInteger, Size,
                                             const Texture*, NS::UInteger, NS::UInteger, Origin) {}
void MTL::BlitCommandEncoder::copyFromBuffer(const Buffer*, NS::UInteger, NS::UInteger, NS::UInteger, Size,
                                             const Texture*, NS::UInteger, NS::UInteger, Origin, BlitOption) {}
void MTL::BlitCommandEncoder::copyFromTexture(const Texture*, const Texture*) {}
void MTL::BlitCommandEncoder::copyFromTexture(const Texture*, NS::UInteger, NS::UInteger, const Texture*,
                                              NS::UInteger, NS::UInteger, NS::UInteger, NS::UInteger) {}
void MTL::BlitCommandEncoder::copyFromTexture(const Texture*, NS::UInteger, NS::UInteger, Origin, Size,
                                              const Texture*, NS::UInteger, NS::UInteger, Origin) {}
void MTL::BlitCommandEncoder::copyFromTexture(const Texture*, NS::UInteger, NS::UInteger, Origin, Size, const Buffer*,
                                              NS::UInteger, NS::UInteger, NS::UInteger) {}
void MTL::BlitCommandEncoder::copyFromTexture(const Texture*, NS::UInteger, NS::UInteger, Origin, Size, const Buffer*,
                                              NS::UInteger, NS::UInteger, NS::UInteger, BlitOption) {}
void MTL::BlitCommandEncoder::copyFromTensor(const Tensor*, const TensorExtents*, const TensorExtents*, const Tensor*,
                                             const TensorExtents*, const TensorExtents*) {}
void MTL::BlitCommandEncoder::copyFromTensor(const Tensor*, const TensorExtents*, const TensorExtents*,
                                             TensorPlaneType, const Tensor*, const TensorExtents*,
                                             const TensorExtents*, TensorPlaneType) {}
void MTL::BlitCommandEncoder::generateMipmaps(const Texture*) {}
void MTL::BlitCommandEncoder::synchronizeTexture(const Texture*, NS::UInteger, NS::UInteger) {}
void MTL::BlitCommandEncoder::optimizeContentsForCPUAccess(const Texture*) {}
void MTL::BlitCommandEncoder::optimizeContentsForCPUAccess(const Texture*, NS::UInteger, NS::UInteger) {}
void MTL::BlitCommandEncoder::optimizeContentsForGPUAccess(const Texture*) {}
void MTL::BlitCommandEncoder::optimizeContentsForGPUAccess(const Texture*, NS::UInteger, NS::UInteger) {}
void MTL::BlitCommandEncoder::getTextureAccessCounters(const Texture*, Region, NS::UInteger, NS::UInteger, bool,
                                                       const Buffer*, NS::UInteger) {}
void MTL::BlitCommandEncoder::resetTextureAccessCounters(const Texture*, Region, NS::UInteger, NS::UInteger) {}
void MTL::BlitCommandEncoder::copyIndirectCommandBuffer(const IndirectCommandBuffer*, NS::Range,
                                                        const IndirectCommandBuffer*, NS::UInteger) {}
void MTL::BlitCommandEncoder::optimizeIndirectCommandBuffer(const IndirectCommandBuffer*, NS::Range) {}
void MTL::BlitCommandEncoder::resetCommandsInBuffer(const IndirectCommandBuffer*, NS::Range) {}
void MTL::BlitCommandEncoder::updateFence(const Fence*) {}
void MTL::BlitCommandEncoder::waitForFence(const Fence*) {}
void MTL::BlitCommandEncoder::sampleCountersInBuffer(const CounterSampleBuffer*, NS::UInteger, bool) {}
void MTL::BlitCommandEncoder::resolveCounters(const CounterSampleBuffer*, NS::Range, const Buffer*, NS::UInteger) {}

// Compute passes: the runtime's pass descriptor keeps no sample-buffer attachments, and
// counter sample buffers do not exist.
MTL::ComputePassSampleBufferAttachmentDescriptorArray* MTL::ComputePassDescriptor::sampleBufferAttachments() const {
    return nullptr;
}

METALCPU_ALLOC_INIT(MTL::ComputePassSampleBufferAttachmentDescriptor, Attachment)
MTL::CounterSampleBuffer* MTL::ComputePassSampleBufferAttachmentDescriptor::sampleBuffer() const { return nullptr; }
void MTL::ComputePassSampleBufferAttachmentDescriptor::setSampleBuffer(const CounterSampleBuffer*) {}
METALCPU_VALUE(MTL::ComputePassSampleBufferAttachmentDescriptor, Attachment, NS::UInteger, startOfEncoderSampleIndex,
               setStartOfEncoderSampleIndex, startOfEncoderSampleIndex)
METALCPU_VALUE(MTL::ComputePassSampleBufferAttachmentDescriptor, Attachment, NS::UInteger, endOfEncoderSampleIndex,
               setEndOfEncoderSampleIndex, endOfEncoderSampleIndex)

METALCPU_ALLOC_INIT(MTL::ComputePassSampleBufferAttachmentDescriptorArray, Attachments)
MTL::ComputePassSampleBufferAttachmentDescriptor* MTL::ComputePassSampleBufferAttachmentDescriptorArray::object(
    NS::UInteger attachmentIndex) {
    auto* self = metalcpu::ns::implOf<Attachments>(this);
    if (!self || attachmentIndex >= Attachments::kSlots) return nullptr;
    auto& slot = self->slots[attachmentIndex];
    if (!slot.get()) slot.adopt(ComputePassSampleBufferAttachmentDescriptor::alloc());
    return slot.get();
}
void MTL::ComputePassSampleBufferAttachmentDescriptorArray::setObject(
    const ComputePassSampleBufferAttachmentDescriptor* attachment, NS::UInteger attachmentIndex) {
    auto* self = metalcpu::ns::implOf<Attachments>(this);
    if (self && attachmentIndex < Attachments::kSlots) self->slots[attachmentIndex].set(attachment);
}
