// metalcpu: CA::MetalLayer, declared so that programs mentioning it compile. metalcpu has no
// display to present to.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "../Metal/MTLPixelFormat.hpp"
#include "CAMetalDrawable.hpp"

namespace MTL {
class Device;
class ResidencySet;
} // namespace MTL

namespace CA {

class MetalLayer : public NS::Referencing<MetalLayer> {
public:
    static MetalLayer* layer();

    MTL::Device* device() const;
    void setDevice(MTL::Device* device);
    MTL::PixelFormat pixelFormat() const;
    void setPixelFormat(MTL::PixelFormat pixelFormat);
    bool framebufferOnly() const;
    void setFramebufferOnly(bool framebufferOnly);
    NS::UInteger maximumDrawableCount() const;
    void setMaximumDrawableCount(NS::UInteger maximumDrawableCount);
    bool displaySyncEnabled() const;
    void setDisplaySyncEnabled(bool displaySyncEnabled);
    MTL::ResidencySet* residencySet() const;

    MetalDrawable* nextDrawable();
};

} // namespace CA
