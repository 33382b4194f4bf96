// MTL::SamplerDescriptor (settings), Device::newSamplerState and MTL::SamplerState
// (runtime/sampler_state.h).
#include "api/settings.h"
#include "runtime/device.h"
#include "runtime/sampler_state.h"

#include <Foundation/NSString.hpp>
#include <Metal/MTLSampler.hpp>

#include <cfloat>

namespace metalcpu::api {
namespace {

class SamplerDescriptor final : public Settings<SamplerDescriptor, MTL::SamplerDescriptor> {
public:
    const char* className() const override { return "MTLSamplerDescriptor"; }

    // Apple's defaults: nearest filtering without mipmaps, clamped to the edge, normalised
    // coordinates, every level of detail.
    struct State {
        Property<NS::String> label;
        MTL::SamplerMinMagFilter minFilter = MTL::SamplerMinMagFilterNearest;
        MTL::SamplerMinMagFilter magFilter = MTL::SamplerMinMagFilterNearest;
        MTL::SamplerMipFilter mipFilter = MTL::SamplerMipFilterNotMipmapped;
        NS::UInteger maxAnisotropy = 1;
        MTL::SamplerReductionMode reductionMode = MTL::SamplerReductionModeWeightedAverage;
        MTL::SamplerAddressMode sAddressMode = MTL::SamplerAddressModeClampToEdge;
        MTL::SamplerAddressMode tAddressMode = MTL::SamplerAddressModeClampToEdge;
        MTL::SamplerAddressMode rAddressMode = MTL::SamplerAddressModeClampToEdge;
        MTL::SamplerBorderColor borderColor = MTL::SamplerBorderColorTransparentBlack;
        bool normalizedCoordinates = true;
        float lodMinClamp = 0.0f;
        float lodMaxClamp = FLT_MAX;
        float lodBias = 0.0f;
        bool lodAverage = false;
        MTL::CompareFunction compareFunction = MTL::CompareFunctionNever;
        bool supportArgumentBuffers = false;
    } state;
};

} // namespace
} // namespace metalcpu::api

using Descriptor = metalcpu::api::SamplerDescriptor;

METALCPU_ALLOC_INIT(MTL::SamplerDescriptor, Descriptor)
METALCPU_OBJECT(MTL::SamplerDescriptor, Descriptor, NS::String, label, setLabel, label)
METALCPU_VALUE(MTL::SamplerDescriptor, Descriptor, MTL::SamplerMinMagFilter, minFilter, setMinFilter, minFilter)
METALCPU_VALUE(MTL::SamplerDescriptor, Descriptor, MTL::SamplerMinMagFilter, magFilter, setMagFilter, magFilter)
METALCPU_VALUE(MTL::SamplerDescriptor, Descriptor, MTL::SamplerMipFilter, mipFilter, setMipFilter, mipFilter)
METALCPU_VALUE(MTL::SamplerDescriptor, Descriptor, NS::UInteger, maxAnisotropy, setMaxAnisotropy, maxAnisotropy)
METALCPU_VALUE(MTL::SamplerDescriptor, Descriptor, MTL::SamplerReductionMode, reductionMode, setReductionMode,
               reductionMode)
METALCPU_VALUE(MTL::SamplerDescriptor, Descriptor, MTL::SamplerAddressMode, sAddressMode, setSAddressMode,
               sAddressMode)
METALCPU_VALUE(MTL::SamplerDescriptor, Descriptor, MTL::SamplerAddressMode, tAddressMode, setTAddressMode,
               tAddressMode)
METALCPU_VALUE(MTL::SamplerDescriptor, Descriptor, MTL::SamplerAddressMode, rAddressMode, setRAddressMode,
               rAddressMode)
METALCPU_VALUE(MTL::SamplerDescriptor, Descriptor, MTL::SamplerBorderColor, borderColor, setBorderColor, borderColor)
METALCPU_VALUE(MTL::SamplerDescriptor, Descriptor, bool, normalizedCoordinates, setNormalizedCoordinates,
               normalizedCoordinates)
METALCPU_VALUE(MTL::SamplerDescriptor, Descriptor, float, lodMinClamp, setLodMinClamp, lodMinClamp)
METALCPU_VALUE(MTL::SamplerDescriptor, Descriptor, float, lodMaxClamp, setLodMaxClamp, lodMaxClamp)
METALCPU_VALUE(MTL::SamplerDescriptor, Descriptor, float, lodBias, setLodBias, lodBias)
METALCPU_VALUE(MTL::SamplerDescriptor, Descriptor, bool, lodAverage, setLodAverage, lodAverage)
METALCPU_VALUE(MTL::SamplerDescriptor, Descriptor, MTL::CompareFunction, compareFunction, setCompareFunction,
               compareFunction)
METALCPU_VALUE(MTL::SamplerDescriptor, Descriptor, bool, supportArgumentBuffers, setSupportArgumentBuffers,
               supportArgumentBuffers)

using metalcpu::ns::implOf;
using Sampler = metalcpu::rt::SamplerState;

MTL::SamplerState* MTL::Device::newSamplerState(const SamplerDescriptor* descriptor) {
    auto* device = implOf<metalcpu::rt::Device>(this);
    const Descriptor* settings = implOf<Descriptor>(descriptor);
    if (!device || !settings) return nullptr;
    const Descriptor::State& d = settings->state;
    mc_sampler state{};
    state.min_filter = static_cast<mc_u32>(d.minFilter);
    state.mag_filter = static_cast<mc_u32>(d.magFilter);
    state.address[0] = static_cast<mc_u32>(d.sAddressMode);
    state.address[1] = static_cast<mc_u32>(d.tAddressMode);
    state.address[2] = static_cast<mc_u32>(d.rAddressMode);
    state.normalized_coordinates = d.normalizedCoordinates ? 1 : 0;
    state.border_color = static_cast<mc_u32>(d.borderColor);
    state.mip_filter = static_cast<mc_u32>(d.mipFilter);
    state.lod_min_clamp = d.lodMinClamp;
    state.lod_max_clamp = d.lodMaxClamp;
    return metalcpu::ns::make<Sampler>(device, state, d.label.get());
}

NS::String* MTL::SamplerState::label() const {
    auto* self = implOf<Sampler>(this);
    return self ? self->label().get() : nullptr;
}
MTL::Device* MTL::SamplerState::device() const {
    auto* self = implOf<Sampler>(this);
    return self ? self->device() : nullptr;
}
// As textures: the address of the sampler's description in buffer memory, which a kernel reads
// from an argument buffer and an MTL4 argument table resolves back (rt::ResourceDescriptors).
MTL::ResourceID MTL::SamplerState::gpuResourceID() const {
    auto* self = implOf<Sampler>(this);
    return ResourceID{self ? self->resourceID() : 0};
}
