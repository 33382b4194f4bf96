// metalcpu: SamplerDescriptor and SamplerState.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"
#include "MTLDepthStencil.hpp"
#include "MTLTypes.hpp"

namespace MTL {

class Device;

enum SamplerMinMagFilter : NS::UInteger {
    SamplerMinMagFilterNearest = 0,
    SamplerMinMagFilterLinear = 1,
};

enum SamplerMipFilter : NS::UInteger {
    SamplerMipFilterNotMipmapped = 0,
    SamplerMipFilterNearest = 1,
    SamplerMipFilterLinear = 2,
};

enum SamplerAddressMode : NS::UInteger {
    SamplerAddressModeClampToEdge = 0,
    SamplerAddressModeMirrorClampToEdge = 1,
    SamplerAddressModeRepeat = 2,
    SamplerAddressModeMirrorRepeat = 3,
    SamplerAddressModeClampToZero = 4,
    SamplerAddressModeClampToBorderColor = 5,
};

enum SamplerBorderColor : NS::UInteger {
    SamplerBorderColorTransparentBlack = 0,
    SamplerBorderColorOpaqueBlack = 1,
    SamplerBorderColorOpaqueWhite = 2,
};

enum SamplerReductionMode : NS::Integer {
    SamplerReductionModeWeightedAverage = 0,
    SamplerReductionModeMinimum = 1,
    SamplerReductionModeMaximum = 2,
};

// How a sampler filters and addresses a texture.
class SamplerDescriptor : public NS::Copying<SamplerDescriptor> {
public:
    static SamplerDescriptor* alloc();
    SamplerDescriptor* init();

    NS::String* label() const;
    void setLabel(const NS::String* label);

    SamplerMinMagFilter minFilter() const;
    void setMinFilter(SamplerMinMagFilter minFilter);
    SamplerMinMagFilter magFilter() const;
    void setMagFilter(SamplerMinMagFilter magFilter);
    SamplerMipFilter mipFilter() const;
    void setMipFilter(SamplerMipFilter mipFilter);
    NS::UInteger maxAnisotropy() const;
    void setMaxAnisotropy(NS::UInteger maxAnisotropy);
    SamplerReductionMode reductionMode() const;
    void setReductionMode(SamplerReductionMode reductionMode);

    SamplerAddressMode sAddressMode() const;
    void setSAddressMode(SamplerAddressMode sAddressMode);
    SamplerAddressMode tAddressMode() const;
    void setTAddressMode(SamplerAddressMode tAddressMode);
    SamplerAddressMode rAddressMode() const;
    void setRAddressMode(SamplerAddressMode rAddressMode);
    SamplerBorderColor borderColor() const;
    void setBorderColor(SamplerBorderColor borderColor);
    bool normalizedCoordinates() const;
    void setNormalizedCoordinates(bool normalizedCoordinates);

    float lodMinClamp() const;
    void setLodMinClamp(float lodMinClamp);
    float lodMaxClamp() const;
    void setLodMaxClamp(float lodMaxClamp);
    float lodBias() const;
    void setLodBias(float lodBias);
    bool lodAverage() const;
    void setLodAverage(bool lodAverage);

    CompareFunction compareFunction() const;
    void setCompareFunction(CompareFunction compareFunction);
    bool supportArgumentBuffers() const;
    void setSupportArgumentBuffers(bool supportArgumentBuffers);
};

// An immutable sampler made by Device::newSamplerState.
class SamplerState : public NS::Referencing<SamplerState> {
public:
    NS::String* label() const;
    Device* device() const;
    ResourceID gpuResourceID() const;
};

} // namespace MTL
