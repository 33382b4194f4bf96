// MTL::ArgumentDescriptor (settings) and MTL::ArgumentEncoder, which metalcpu cannot make yet:
// Device::newArgumentEncoder and Function::newArgumentEncoder log once and return nullptr, so an
// ArgumentEncoder's methods only ever see nil. Argument buffers themselves work: write
// Buffer::gpuAddress() values into a buffer that a kernel reads as a struct of device pointers.
#include "api/settings.h"

#include <Metal/MTLArgumentEncoder.hpp>
#include <Metal/MTLDevice.hpp>

namespace metalcpu::api {
namespace {

class ArgumentDescriptor final : public Settings<ArgumentDescriptor, MTL::ArgumentDescriptor> {
public:
    const char* className() const override { return "MTLArgumentDescriptor"; }

    // Apple documents no defaults; a new MTLArgumentDescriptor reads as all zeros.
    struct State {
        MTL::DataType dataType = MTL::DataTypeNone;
        NS::UInteger index = 0;
        NS::UInteger arrayLength = 0;
        MTL::BindingAccess access = MTL::BindingAccessReadOnly;
        MTL::TextureType textureType = MTL::TextureType1D;
        NS::UInteger constantBlockAlignment = 0;
    } state;
};

} // namespace
} // namespace metalcpu::api

using Descriptor = metalcpu::api::ArgumentDescriptor;

METALCPU_ALLOC_INIT(MTL::ArgumentDescriptor, Descriptor)
MTL::ArgumentDescriptor* MTL::ArgumentDescriptor::argumentDescriptor() {
    return metalcpu::ns::autoreleased(alloc());
}
METALCPU_VALUE(MTL::ArgumentDescriptor, Descriptor, MTL::DataType, dataType, setDataType, dataType)
METALCPU_VALUE(MTL::ArgumentDescriptor, Descriptor, NS::UInteger, index, setIndex, index)
METALCPU_VALUE(MTL::ArgumentDescriptor, Descriptor, NS::UInteger, arrayLength, setArrayLength, arrayLength)
METALCPU_VALUE(MTL::ArgumentDescriptor, Descriptor, MTL::BindingAccess, access, setAccess, access)
METALCPU_VALUE(MTL::ArgumentDescriptor, Descriptor, MTL::TextureType, textureType, setTextureType, textureType)
METALCPU_VALUE(MTL::ArgumentDescriptor, Descriptor, NS::UInteger, constantBlockAlignment, setConstantBlockAlignment,
               constantBlockAlignment)

// No ArgumentEncoder exists yet (see above).
NS::String* MTL::ArgumentEncoder::label() const { return nullptr; }
void MTL::ArgumentEncoder::setLabel(const NS::String*) {}
MTL::Device* MTL::ArgumentEncoder::device() const { return nullptr; }
NS::UInteger MTL::ArgumentEncoder::encodedLength() const { return 0; }
NS::UInteger MTL::ArgumentEncoder::alignment() const { return 0; }
void MTL::ArgumentEncoder::setArgumentBuffer(const Buffer*, NS::UInteger) {}
void MTL::ArgumentEncoder::setArgumentBuffer(const Buffer*, NS::UInteger, NS::UInteger) {}
void MTL::ArgumentEncoder::setBuffer(const Buffer*, NS::UInteger, NS::UInteger) {}
void MTL::ArgumentEncoder::setBuffers(const Buffer* const*, const NS::UInteger*, NS::Range) {}
void MTL::ArgumentEncoder::setTexture(const Texture*, NS::UInteger) {}
void MTL::ArgumentEncoder::setTextures(const Texture* const*, NS::Range) {}
void MTL::ArgumentEncoder::setSamplerState(const SamplerState*, NS::UInteger) {}
void MTL::ArgumentEncoder::setSamplerStates(const SamplerState* const*, NS::Range) {}
void MTL::ArgumentEncoder::setComputePipelineState(const ComputePipelineState*, NS::UInteger) {}
void MTL::ArgumentEncoder::setComputePipelineStates(const ComputePipelineState* const*, NS::Range) {}
void MTL::ArgumentEncoder::setIndirectCommandBuffer(const IndirectCommandBuffer*, NS::UInteger) {}
void MTL::ArgumentEncoder::setIndirectCommandBuffers(const IndirectCommandBuffer* const*, NS::Range) {}
void MTL::ArgumentEncoder::setAccelerationStructure(const AccelerationStructure*, NS::UInteger) {}
void MTL::ArgumentEncoder::setVisibleFunctionTable(const VisibleFunctionTable*, NS::UInteger) {}
void MTL::ArgumentEncoder::setVisibleFunctionTables(const VisibleFunctionTable* const*, NS::Range) {}
void MTL::ArgumentEncoder::setIntersectionFunctionTable(const IntersectionFunctionTable*, NS::UInteger) {}
void MTL::ArgumentEncoder::setIntersectionFunctionTables(const IntersectionFunctionTable* const*, NS::Range) {}
void* MTL::ArgumentEncoder::constantData(NS::UInteger) { return nullptr; }
MTL::ArgumentEncoder* MTL::ArgumentEncoder::newArgumentEncoder(NS::UInteger) { return nullptr; }
