// QuartzCore: CA::MetalLayer and CA::MetalDrawable, and their Metal base MTL::Drawable. metalcpu
// has no display to present to: CA::MetalLayer::layer() logs once and returns nullptr, so no
// layer or drawable exists and their methods only ever see nil.
#include "api/not_yet.h"

#include <Metal/MTLDrawable.hpp>
#include <QuartzCore/QuartzCore.hpp>

NS::UInteger MTL::Drawable::drawableID() const { return 0; }
CFTimeInterval MTL::Drawable::presentedTime() const { return 0; }

CA::MetalLayer* CA::MetalLayer::layer() {
    metalcpu::api::cannotMake("CA::MetalLayer::layer");
    return nullptr;
}
MTL::Device* CA::MetalLayer::device() const { return nullptr; }
void CA::MetalLayer::setDevice(MTL::Device*) {}
MTL::PixelFormat CA::MetalLayer::pixelFormat() const { return {}; }
void CA::MetalLayer::setPixelFormat(MTL::PixelFormat) {}
bool CA::MetalLayer::framebufferOnly() const { return false; }
void CA::MetalLayer::setFramebufferOnly(bool) {}
NS::UInteger CA::MetalLayer::maximumDrawableCount() const { return 0; }
void CA::MetalLayer::setMaximumDrawableCount(NS::UInteger) {}
bool CA::MetalLayer::displaySyncEnabled() const { return false; }
void CA::MetalLayer::setDisplaySyncEnabled(bool) {}
MTL::ResidencySet* CA::MetalLayer::residencySet() const { return nullptr; }
CA::MetalDrawable* CA::MetalLayer::nextDrawable() { return nullptr; }

CA::MetalLayer* CA::MetalDrawable::layer() const { return nullptr; }
MTL::Texture* CA::MetalDrawable::texture() const { return nullptr; }
