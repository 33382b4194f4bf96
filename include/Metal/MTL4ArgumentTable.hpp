// metalcpu: Metal 4 argument tables, which bind resources by GPU address and resource ID.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"
#include "MTLGPUAddress.hpp"
#include "MTLTypes.hpp"

namespace MTL {
class Device;
}

namespace MTL4 {

// The capacity of an argument table (at most 31 buffers, 128 textures and 16 samplers).
class ArgumentTableDescriptor : public NS::Copying<ArgumentTableDescriptor> {
public:
    static ArgumentTableDescriptor* alloc();
    ArgumentTableDescriptor* init();

    NS::String* label() const;
    void setLabel(const NS::String* label);
    NS::UInteger maxBufferBindCount() const;
    void setMaxBufferBindCount(NS::UInteger maxBufferBindCount);
    NS::UInteger maxTextureBindCount() const;
    void setMaxTextureBindCount(NS::UInteger maxTextureBindCount);
    NS::UInteger maxSamplerStateBindCount() const;
    void setMaxSamplerStateBindCount(NS::UInteger maxSamplerStateBindCount);
    bool initializeBindings() const;
    void setInitializeBindings(bool initializeBindings);
    bool supportAttributeStrides() const;
    void setSupportAttributeStrides(bool supportAttributeStrides);
};

// The bindings of a Metal 4 encoder. Encoders snapshot the table at each dispatch.
class ArgumentTable : public NS::Referencing<ArgumentTable> {
public:
    NS::String* label() const;
    MTL::Device* device() const;

    void setAddress(MTL::GPUAddress gpuAddress, NS::UInteger bindingIndex);
    void setAddress(MTL::GPUAddress gpuAddress, NS::UInteger stride, NS::UInteger bindingIndex);
    void setResource(MTL::ResourceID resourceID, NS::UInteger bindingIndex);
    void setTexture(MTL::ResourceID resourceID, NS::UInteger bindingIndex);
    void setSamplerState(MTL::ResourceID resourceID, NS::UInteger bindingIndex);
};

} // namespace MTL4
