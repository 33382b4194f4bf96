// The compute-pipeline methods beyond compute_pipeline.cpp, and the per-buffer pipeline options
// MTL::PipelineBufferDescriptor and MTL::PipelineBufferDescriptorArray (settings). Function
// pointers, binary functions, dynamic libraries, linked functions and stage-in need features
// metalcpu does not have: setting them logs once.
#include "api/not_yet.h"
#include "api/settings.h"
#include "runtime/compute_pipeline.h"
#include "runtime/descriptors.h"
#include "runtime/device.h"
#include "runtime/errors.h"

#include <Foundation/NSArray.hpp>
#include <Metal/MTLComputePipeline.hpp>
#include <Metal/MTLPipeline.hpp>

#include <array>

namespace metalcpu::api {
namespace {

class PipelineBufferDescriptor final : public Settings<PipelineBufferDescriptor, MTL::PipelineBufferDescriptor> {
public:
    const char* className() const override { return "MTLPipelineBufferDescriptor"; }

    struct State {
        MTL::Mutability mutability = MTL::MutabilityDefault;
    } state;
};

/// One descriptor per [[buffer(n)]] slot, made on first access, as Metal's arrays do.
class PipelineBufferDescriptorArray final : public ns::Implements<MTL::PipelineBufferDescriptorArray> {
public:
    const char* className() const override { return "MTLPipelineBufferDescriptorArray"; }

    static constexpr NS::UInteger kSlots = rt::Device::kMaxBufferBindings;
    std::array<Property<MTL::PipelineBufferDescriptor>, kSlots> slots;
};

} // namespace
} // namespace metalcpu::api

using metalcpu::api::notYet;
using metalcpu::ns::implOf;
using BufferDescriptor = metalcpu::api::PipelineBufferDescriptor;
using BufferDescriptors = metalcpu::api::PipelineBufferDescriptorArray;
using Pipeline = metalcpu::rt::ComputePipelineState;
using Descriptor = metalcpu::rt::ComputePipelineDescriptor;

METALCPU_ALLOC_INIT(MTL::PipelineBufferDescriptor, BufferDescriptor)
METALCPU_VALUE(MTL::PipelineBufferDescriptor, BufferDescriptor, MTL::Mutability, mutability, setMutability, mutability)

METALCPU_ALLOC_INIT(MTL::PipelineBufferDescriptorArray, BufferDescriptors)
MTL::PipelineBufferDescriptor* MTL::PipelineBufferDescriptorArray::object(NS::UInteger bufferIndex) {
    auto* self = implOf<BufferDescriptors>(this);
    if (!self || bufferIndex >= BufferDescriptors::kSlots) return nullptr;
    auto& slot = self->slots[bufferIndex];
    if (!slot.get()) slot.adopt(PipelineBufferDescriptor::alloc());
    return slot.get();
}
void MTL::PipelineBufferDescriptorArray::setObject(const PipelineBufferDescriptor* buffer, NS::UInteger bufferIndex) {
    auto* self = implOf<BufferDescriptors>(this);
    if (self && bufferIndex < BufferDescriptors::kSlots) self->slots[bufferIndex].set(buffer);
}

// The runtime's descriptor keeps no buffer array yet; mutability is only an optimisation hint,
// so programs that set it through buffers()->object(n) lose nothing.
MTL::PipelineBufferDescriptorArray* MTL::ComputePipelineDescriptor::buffers() const { return nullptr; }
MTL::StageInputOutputDescriptor* MTL::ComputePipelineDescriptor::stageInputDescriptor() const { return nullptr; }
void MTL::ComputePipelineDescriptor::setStageInputDescriptor(const StageInputOutputDescriptor* stageInputDescriptor) {
    if (stageInputDescriptor) notYet<Descriptor>(this, "MTL::ComputePipelineDescriptor::setStageInputDescriptor");
}
NS::Array* MTL::ComputePipelineDescriptor::binaryArchives() const { return nullptr; }
void MTL::ComputePipelineDescriptor::setBinaryArchives(const NS::Array* binaryArchives) {
    if (binaryArchives) notYet<Descriptor>(this, "MTL::ComputePipelineDescriptor::setBinaryArchives");
}
NS::Array* MTL::ComputePipelineDescriptor::insertLibraries() const { return nullptr; }
void MTL::ComputePipelineDescriptor::setInsertLibraries(const NS::Array* insertLibraries) {
    if (insertLibraries) notYet<Descriptor>(this, "MTL::ComputePipelineDescriptor::setInsertLibraries");
}
NS::Array* MTL::ComputePipelineDescriptor::preloadedLibraries() const { return nullptr; }
void MTL::ComputePipelineDescriptor::setPreloadedLibraries(const NS::Array* preloadedLibraries) {
    if (preloadedLibraries) notYet<Descriptor>(this, "MTL::ComputePipelineDescriptor::setPreloadedLibraries");
}
MTL::LinkedFunctions* MTL::ComputePipelineDescriptor::linkedFunctions() const { return nullptr; }
void MTL::ComputePipelineDescriptor::setLinkedFunctions(const LinkedFunctions* linkedFunctions) {
    if (linkedFunctions) notYet<Descriptor>(this, "MTL::ComputePipelineDescriptor::setLinkedFunctions");
}

MTL::FunctionHandle* MTL::ComputePipelineState::functionHandle(const NS::String*) {
    notYet<Pipeline>(this, "MTL::ComputePipelineState::functionHandle");
    return nullptr;
}
MTL::FunctionHandle* MTL::ComputePipelineState::functionHandle(const MTL4::BinaryFunction*) {
    notYet<Pipeline>(this, "MTL::ComputePipelineState::functionHandle");
    return nullptr;
}
MTL::FunctionHandle* MTL::ComputePipelineState::functionHandle(const Function*) {
    notYet<Pipeline>(this, "MTL::ComputePipelineState::functionHandle");
    return nullptr;
}
MTL::ComputePipelineState* MTL::ComputePipelineState::newComputePipelineStateWithBinaryFunctions(const NS::Array*,
                                                                                              NS::Error** error) {
    metalcpu::rt::clearError(error);
    notYet<Pipeline>(this, "MTL::ComputePipelineState::newComputePipelineStateWithBinaryFunctions", error);
    return nullptr;
}
MTL::ComputePipelineState* MTL::ComputePipelineState::newComputePipelineState(const NS::Array*, NS::Error** error) {
    metalcpu::rt::clearError(error);
    notYet<Pipeline>(this, "MTL::ComputePipelineState::newComputePipelineState", error);
    return nullptr;
}
MTL::VisibleFunctionTable* MTL::ComputePipelineState::newVisibleFunctionTable(const VisibleFunctionTableDescriptor*) {
    notYet<Pipeline>(this, "MTL::ComputePipelineState::newVisibleFunctionTable");
    return nullptr;
}
MTL::IntersectionFunctionTable* MTL::ComputePipelineState::newIntersectionFunctionTable(
    const IntersectionFunctionTableDescriptor*) {
    notYet<Pipeline>(this, "MTL::ComputePipelineState::newIntersectionFunctionTable");
    return nullptr;
}
