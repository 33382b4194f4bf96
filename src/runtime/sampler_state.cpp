#include "runtime/sampler_state.h"

#include "runtime/resource_descriptors.h"

namespace metalcpu::rt {

// The kernel ABI's sampler values are Metal's, so a descriptor's settings pass through as they are.
static_assert(int(MC_ADDRESS_CLAMP_TO_EDGE) == int(MTL::SamplerAddressModeClampToEdge));
static_assert(int(MC_ADDRESS_MIRROR_CLAMP_TO_EDGE) == int(MTL::SamplerAddressModeMirrorClampToEdge));
static_assert(int(MC_ADDRESS_REPEAT) == int(MTL::SamplerAddressModeRepeat));
static_assert(int(MC_ADDRESS_MIRRORED_REPEAT) == int(MTL::SamplerAddressModeMirrorRepeat));
static_assert(int(MC_ADDRESS_CLAMP_TO_ZERO) == int(MTL::SamplerAddressModeClampToZero));
static_assert(int(MC_ADDRESS_CLAMP_TO_BORDER_COLOR) == int(MTL::SamplerAddressModeClampToBorderColor));
static_assert(int(MC_FILTER_NEAREST) == int(MTL::SamplerMinMagFilterNearest));
static_assert(int(MC_FILTER_LINEAR) == int(MTL::SamplerMinMagFilterLinear));

SamplerState::SamplerState(Device* device, const mc_sampler& state, const NS::String* label)
    : device_(device), state_(state) {
    label_.set(label);
    // A sampler never changes, so its description is published once, for its whole life.
    resourceId_ = ResourceDescriptors::shared().publish(this, &state_, sizeof state_);
}

SamplerState::~SamplerState() { ResourceDescriptors::shared().withdraw(resourceId_); }

} // namespace metalcpu::rt
