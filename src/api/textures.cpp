// MTL::TextureDescriptor and MTL::TextureViewDescriptor (settings), and MTL::Texture and
// MTL::SharedTextureHandle, which metalcpu cannot make yet: Device::newTexture and the other
// texture factories log once and return nullptr, so no Texture exists and its methods only
// ever see nil.
#include "api/not_yet.h"
#include "api/settings.h"

#include <Metal/MTLTexture.hpp>

#include <algorithm>
#include <bit>

namespace metalcpu::api {
namespace {

class TextureDescriptor final : public Settings<TextureDescriptor, MTL::TextureDescriptor> {
public:
    const char* className() const override { return "MTLTextureDescriptor"; }

    // Apple's defaults: a 1x1 RGBA8Unorm 2D texture that kernels read.
    struct State {
        MTL::TextureType textureType = MTL::TextureType2D;
        MTL::PixelFormat pixelFormat = MTL::PixelFormatRGBA8Unorm;
        NS::UInteger width = 1;
        NS::UInteger height = 1;
        NS::UInteger depth = 1;
        NS::UInteger mipmapLevelCount = 1;
        NS::UInteger sampleCount = 1;
        NS::UInteger arrayLength = 1;
        MTL::TextureUsage usage = MTL::TextureUsageShaderRead;
        ResourceModes modes;
        bool allowGPUOptimizedContents = true;
        MTL::TextureCompressionType compressionType = MTL::TextureCompressionTypeLossless;
        MTL::TextureSwizzleChannels swizzle;
        MTL::SparsePageSize placementSparsePageSize = MTL::SparsePageSize(0);
    } state;
};

class TextureViewDescriptor final : public Settings<TextureViewDescriptor, MTL::TextureViewDescriptor> {
public:
    const char* className() const override { return "MTLTextureViewDescriptor"; }

    // Apple documents no defaults: the first level and slice, as a 2D view.
    struct State {
        MTL::PixelFormat pixelFormat = MTL::PixelFormatInvalid;
        MTL::TextureType textureType = MTL::TextureType2D;
        NS::Range levelRange = NS::Range(0, 1);
        NS::Range sliceRange = NS::Range(0, 1);
        MTL::TextureSwizzleChannels swizzle;
    } state;
};

/// The number of levels of a full mipmap chain for a largest extent of `size`.
NS::UInteger mipmapLevels(NS::UInteger size) {
    return size ? std::bit_width(size) : 1;
}

/// A new autoreleased descriptor, for the class factories.
TextureDescriptor* autoreleasedDescriptor() {
    MTL::TextureDescriptor* made = ns::autoreleased(MTL::TextureDescriptor::alloc());
    return ns::implOf<TextureDescriptor>(made);
}

} // namespace
} // namespace metalcpu::api

using Descriptor = metalcpu::api::TextureDescriptor;
using ViewDescriptor = metalcpu::api::TextureViewDescriptor;

METALCPU_ALLOC_INIT(MTL::TextureDescriptor, Descriptor)

MTL::TextureDescriptor* MTL::TextureDescriptor::texture2DDescriptor(PixelFormat pixelFormat, NS::UInteger width,
                                                                   NS::UInteger height, bool mipmapped) {
    Descriptor* made = metalcpu::api::autoreleasedDescriptor();
    made->state.pixelFormat = pixelFormat;
    made->state.width = width;
    made->state.height = height;
    made->state.mipmapLevelCount = mipmapped ? metalcpu::api::mipmapLevels(std::max(width, height)) : 1;
    return made;
}
MTL::TextureDescriptor* MTL::TextureDescriptor::textureCubeDescriptor(PixelFormat pixelFormat, NS::UInteger size,
                                                                     bool mipmapped) {
    Descriptor* made = metalcpu::api::autoreleasedDescriptor();
    made->state.textureType = TextureTypeCube;
    made->state.pixelFormat = pixelFormat;
    made->state.width = size;
    made->state.height = size;
    made->state.mipmapLevelCount = mipmapped ? metalcpu::api::mipmapLevels(size) : 1;
    return made;
}
MTL::TextureDescriptor* MTL::TextureDescriptor::textureBufferDescriptor(PixelFormat pixelFormat, NS::UInteger width,
                                                                       ResourceOptions resourceOptions,
                                                                       TextureUsage usage) {
    Descriptor* made = metalcpu::api::autoreleasedDescriptor();
    made->state.textureType = TextureTypeTextureBuffer;
    made->state.pixelFormat = pixelFormat;
    made->state.width = width;
    made->state.modes.setOptions(resourceOptions);
    made->state.usage = usage;
    return made;
}

METALCPU_VALUE(MTL::TextureDescriptor, Descriptor, MTL::TextureType, textureType, setTextureType, textureType)
METALCPU_VALUE(MTL::TextureDescriptor, Descriptor, MTL::PixelFormat, pixelFormat, setPixelFormat, pixelFormat)
METALCPU_VALUE(MTL::TextureDescriptor, Descriptor, NS::UInteger, width, setWidth, width)
METALCPU_VALUE(MTL::TextureDescriptor, Descriptor, NS::UInteger, height, setHeight, height)
METALCPU_VALUE(MTL::TextureDescriptor, Descriptor, NS::UInteger, depth, setDepth, depth)
METALCPU_VALUE(MTL::TextureDescriptor, Descriptor, NS::UInteger, mipmapLevelCount, setMipmapLevelCount,
               mipmapLevelCount)
METALCPU_VALUE(MTL::TextureDescriptor, Descriptor, NS::UInteger, sampleCount, setSampleCount, sampleCount)
METALCPU_VALUE(MTL::TextureDescriptor, Descriptor, NS::UInteger, arrayLength, setArrayLength, arrayLength)
METALCPU_VALUE(MTL::TextureDescriptor, Descriptor, MTL::TextureUsage, usage, setUsage, usage)
METALCPU_RESOURCE_MODES(MTL::TextureDescriptor, Descriptor)
METALCPU_VALUE(MTL::TextureDescriptor, Descriptor, bool, allowGPUOptimizedContents, setAllowGPUOptimizedContents,
               allowGPUOptimizedContents)
METALCPU_VALUE(MTL::TextureDescriptor, Descriptor, MTL::TextureCompressionType, compressionType, setCompressionType,
               compressionType)
METALCPU_VALUE(MTL::TextureDescriptor, Descriptor, MTL::TextureSwizzleChannels, swizzle, setSwizzle, swizzle)
METALCPU_VALUE(MTL::TextureDescriptor, Descriptor, MTL::SparsePageSize, placementSparsePageSize,
               setPlacementSparsePageSize, placementSparsePageSize)

METALCPU_ALLOC_INIT(MTL::TextureViewDescriptor, ViewDescriptor)
METALCPU_VALUE(MTL::TextureViewDescriptor, ViewDescriptor, MTL::PixelFormat, pixelFormat, setPixelFormat, pixelFormat)
METALCPU_VALUE(MTL::TextureViewDescriptor, ViewDescriptor, MTL::TextureType, textureType, setTextureType, textureType)
METALCPU_VALUE(MTL::TextureViewDescriptor, ViewDescriptor, NS::Range, levelRange, setLevelRange, levelRange)
METALCPU_VALUE(MTL::TextureViewDescriptor, ViewDescriptor, NS::Range, sliceRange, setSliceRange, sliceRange)
METALCPU_VALUE(MTL::TextureViewDescriptor, ViewDescriptor, MTL::TextureSwizzleChannels, swizzle, setSwizzle, swizzle)

// Shared texture handles need textures.
MTL::SharedTextureHandle* MTL::SharedTextureHandle::alloc() {
    metalcpu::api::cannotMake("MTL::SharedTextureHandle::alloc");
    return nullptr;
}
MTL::SharedTextureHandle* MTL::SharedTextureHandle::init() { return nullptr; }
MTL::Device* MTL::SharedTextureHandle::device() const { return nullptr; }
NS::String* MTL::SharedTextureHandle::label() const { return nullptr; }

// No Texture exists yet (see above): every method answers as for nil.
MTL::TextureType MTL::Texture::textureType() const { return TextureType(0); }
MTL::PixelFormat MTL::Texture::pixelFormat() const { return PixelFormatInvalid; }
NS::UInteger MTL::Texture::width() const { return 0; }
NS::UInteger MTL::Texture::height() const { return 0; }
NS::UInteger MTL::Texture::depth() const { return 0; }
NS::UInteger MTL::Texture::mipmapLevelCount() const { return 0; }
NS::UInteger MTL::Texture::sampleCount() const { return 0; }
NS::UInteger MTL::Texture::arrayLength() const { return 0; }
MTL::TextureUsage MTL::Texture::usage() const { return TextureUsageUnknown; }
MTL::TextureSwizzleChannels MTL::Texture::swizzle() const {
    return metalcpu::api::nilValue<TextureSwizzleChannels>();
}
MTL::ResourceID MTL::Texture::gpuResourceID() const { return ResourceID{}; }
void MTL::Texture::replaceRegion(Region, NS::UInteger, NS::UInteger, const void*, NS::UInteger, NS::UInteger) {}
void MTL::Texture::replaceRegion(Region, NS::UInteger, const void*, NS::UInteger) {}
void MTL::Texture::getBytes(void*, NS::UInteger, NS::UInteger, Region, NS::UInteger, NS::UInteger) {}
void MTL::Texture::getBytes(void*, NS::UInteger, Region, NS::UInteger) {}
MTL::Texture* MTL::Texture::newTextureView(PixelFormat) { return nullptr; }
MTL::Texture* MTL::Texture::newTextureView(PixelFormat, TextureType, NS::Range, NS::Range) { return nullptr; }
MTL::Texture* MTL::Texture::newTextureView(PixelFormat, TextureType, NS::Range, NS::Range, TextureSwizzleChannels) {
    return nullptr;
}
MTL::Texture* MTL::Texture::newTextureView(const TextureViewDescriptor*) { return nullptr; }
MTL::Texture* MTL::Texture::parentTexture() const { return nullptr; }
NS::UInteger MTL::Texture::parentRelativeLevel() const { return 0; }
NS::UInteger MTL::Texture::parentRelativeSlice() const { return 0; }
MTL::Buffer* MTL::Texture::buffer() const { return nullptr; }
NS::UInteger MTL::Texture::bufferOffset() const { return 0; }
NS::UInteger MTL::Texture::bufferBytesPerRow() const { return 0; }
MTL::Resource* MTL::Texture::rootResource() const { return nullptr; }
bool MTL::Texture::allowGPUOptimizedContents() const { return false; }
MTL::TextureCompressionType MTL::Texture::compressionType() const { return TextureCompressionTypeLossless; }
bool MTL::Texture::isFramebufferOnly() const { return false; }
bool MTL::Texture::framebufferOnly() const { return false; }
bool MTL::Texture::isShareable() const { return false; }
bool MTL::Texture::shareable() const { return false; }
bool MTL::Texture::isSparse() const { return false; }
MTL::TextureSparseTier MTL::Texture::sparseTextureTier() const { return TextureSparseTierNone; }
NS::UInteger MTL::Texture::firstMipmapInTail() const { return 0; }
NS::UInteger MTL::Texture::tailSizeInBytes() const { return 0; }
MTL::SharedTextureHandle* MTL::Texture::newSharedTextureHandle() { return nullptr; }
MTL::Texture* MTL::Texture::remoteStorageTexture() const { return nullptr; }
MTL::Texture* MTL::Texture::newRemoteTextureViewForDevice(const Device*) { return nullptr; }
