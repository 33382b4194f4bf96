// MTL::TextureDescriptor and MTL::TextureViewDescriptor (settings), Device::newTexture and
// MTL::Texture with its views and textures over buffers (runtime/texture.h). Heap textures
// and shared texture handles are not made yet: those factories return nullptr.
#include "api/not_yet.h"
#include "api/settings.h"
#include "runtime/buffer.h"
#include "runtime/device.h"
#include "runtime/texture.h"

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

using Tex = metalcpu::rt::Texture;
using metalcpu::ns::implOf;

namespace {

/// The texture a descriptor asks for.
metalcpu::rt::TextureShape shapeOf(const Descriptor::State& d) {
    metalcpu::rt::TextureShape shape;
    shape.type = d.textureType;
    shape.format = d.pixelFormat;
    shape.width = d.width;
    shape.height = d.height;
    shape.depth = d.depth;
    shape.mipLevels = d.mipmapLevelCount;
    shape.arrayLength = d.arrayLength;
    shape.sampleCount = d.sampleCount;
    shape.usage = d.usage;
    shape.options = d.modes.options();
    shape.allowGPUOptimizedContents = d.allowGPUOptimizedContents;
    shape.swizzle = d.swizzle;
    return shape;
}

} // namespace

MTL::Texture* MTL::Device::newTexture(const TextureDescriptor* descriptor) {
    auto* device = implOf<metalcpu::rt::Device>(this);
    const Descriptor* settings = implOf<Descriptor>(descriptor);
    return device && settings ? Tex::make(device, shapeOf(settings->state)) : nullptr;
}
MTL::Texture* MTL::Buffer::newTexture(const TextureDescriptor* descriptor, NS::UInteger offset,
                                      NS::UInteger bytesPerRow) {
    auto* buffer = implOf<metalcpu::rt::Buffer>(this);
    const Descriptor* settings = implOf<Descriptor>(descriptor);
    return buffer && settings ? Tex::overBuffer(buffer, shapeOf(settings->state), offset, bytesPerRow) : nullptr;
}

namespace {

/// A property of the texture's shape; zero for nil.
template <class Value>
Value shapeValue(const MTL::Texture* texture, Value metalcpu::rt::TextureShape::*field) {
    const Tex* self = implOf<Tex>(texture);
    return self ? self->shape().*field : Value{};
}

} // namespace

MTL::TextureType MTL::Texture::textureType() const { return shapeValue(this, &metalcpu::rt::TextureShape::type); }
MTL::PixelFormat MTL::Texture::pixelFormat() const { return shapeValue(this, &metalcpu::rt::TextureShape::format); }
NS::UInteger MTL::Texture::width() const { return shapeValue(this, &metalcpu::rt::TextureShape::width); }
NS::UInteger MTL::Texture::height() const { return shapeValue(this, &metalcpu::rt::TextureShape::height); }
NS::UInteger MTL::Texture::depth() const { return shapeValue(this, &metalcpu::rt::TextureShape::depth); }
NS::UInteger MTL::Texture::mipmapLevelCount() const {
    return shapeValue(this, &metalcpu::rt::TextureShape::mipLevels);
}
NS::UInteger MTL::Texture::sampleCount() const { return shapeValue(this, &metalcpu::rt::TextureShape::sampleCount); }
NS::UInteger MTL::Texture::arrayLength() const { return shapeValue(this, &metalcpu::rt::TextureShape::arrayLength); }
MTL::TextureUsage MTL::Texture::usage() const { return shapeValue(this, &metalcpu::rt::TextureShape::usage); }
MTL::TextureSwizzleChannels MTL::Texture::swizzle() const {
    const Tex* self = implOf<Tex>(this);
    return self ? self->shape().swizzle : metalcpu::api::nilValue<TextureSwizzleChannels>();
}
// What a kernel reads as its texture from an argument buffer (rt::ResourceDescriptors).
MTL::ResourceID MTL::Texture::gpuResourceID() const {
    const Tex* self = implOf<Tex>(this);
    return ResourceID{self ? self->resourceID() : 0};
}
void MTL::Texture::replaceRegion(Region region, NS::UInteger level, NS::UInteger slice, const void* bytes,
                                 NS::UInteger bytesPerRow, NS::UInteger bytesPerImage) {
    if (auto* self = implOf<Tex>(this)) self->replaceRegion(region, level, slice, bytes, bytesPerRow, bytesPerImage);
}
void MTL::Texture::replaceRegion(Region region, NS::UInteger level, const void* bytes, NS::UInteger bytesPerRow) {
    if (auto* self = implOf<Tex>(this)) self->replaceRegion(region, level, 0, bytes, bytesPerRow, 0);
}
void MTL::Texture::getBytes(void* bytes, NS::UInteger bytesPerRow, NS::UInteger bytesPerImage, Region region,
                            NS::UInteger level, NS::UInteger slice) {
    if (auto* self = implOf<Tex>(this)) self->getBytes(bytes, bytesPerRow, bytesPerImage, region, level, slice);
}
void MTL::Texture::getBytes(void* bytes, NS::UInteger bytesPerRow, Region region, NS::UInteger level) {
    if (auto* self = implOf<Tex>(this)) self->getBytes(bytes, bytesPerRow, 0, region, level, 0);
}
// Views share the texture's memory; a swizzle is accepted but not applied (nor is a
// descriptor's: kernels read the channels as stored).
MTL::Texture* MTL::Texture::newTextureView(PixelFormat format) {
    auto* self = implOf<Tex>(this);
    return self ? self->makeView(format, self->shape().type, NS::Range(0, self->shape().mipLevels),
                                 NS::Range(0, self->slices()))
                : nullptr;
}
MTL::Texture* MTL::Texture::newTextureView(PixelFormat format, TextureType type, NS::Range levels, NS::Range slices) {
    auto* self = implOf<Tex>(this);
    return self ? self->makeView(format, type, levels, slices) : nullptr;
}
MTL::Texture* MTL::Texture::newTextureView(PixelFormat format, TextureType type, NS::Range levels, NS::Range slices,
                                           TextureSwizzleChannels) {
    return newTextureView(format, type, levels, slices);
}
MTL::Texture* MTL::Texture::newTextureView(const TextureViewDescriptor* descriptor) {
    const ViewDescriptor* settings = implOf<ViewDescriptor>(descriptor);
    if (!settings) return nullptr;
    const ViewDescriptor::State& d = settings->state;
    return newTextureView(d.pixelFormat, d.textureType, d.levelRange, d.sliceRange);
}
MTL::Texture* MTL::Texture::parentTexture() const {
    auto* self = implOf<Tex>(this);
    return self && self->parent() ? self->parent()->asPublicClass() : nullptr;
}
NS::UInteger MTL::Texture::parentRelativeLevel() const {
    auto* self = implOf<Tex>(this);
    return self ? self->parentLevel() : 0;
}
NS::UInteger MTL::Texture::parentRelativeSlice() const {
    auto* self = implOf<Tex>(this);
    return self ? self->parentSlice() : 0;
}
MTL::Buffer* MTL::Texture::buffer() const {
    auto* self = implOf<Tex>(this);
    return self && self->buffer() ? self->buffer()->asPublicClass() : nullptr;
}
NS::UInteger MTL::Texture::bufferOffset() const {
    auto* self = implOf<Tex>(this);
    return self ? self->bufferOffset() : 0;
}
NS::UInteger MTL::Texture::bufferBytesPerRow() const {
    auto* self = implOf<Tex>(this);
    return self ? self->bufferBytesPerRow() : 0;
}
MTL::Resource* MTL::Texture::rootResource() const { return nullptr; }
bool MTL::Texture::allowGPUOptimizedContents() const {
    return shapeValue(this, &metalcpu::rt::TextureShape::allowGPUOptimizedContents);
}
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
