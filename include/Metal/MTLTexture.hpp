// metalcpu: Texture, TextureDescriptor and texture views.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"
#include "MTLPixelFormat.hpp"
#include "MTLResource.hpp"
#include "MTLTypes.hpp"

#include <cstdint>

namespace MTL {

class Buffer;
class Device;

enum TextureType : NS::UInteger {
    TextureType1D = 0,
    TextureType1DArray = 1,
    TextureType2D = 2,
    TextureType2DArray = 3,
    TextureType2DMultisample = 4,
    TextureTypeCube = 5,
    TextureTypeCubeArray = 6,
    TextureType3D = 7,
    TextureType2DMultisampleArray = 8,
    TextureTypeTextureBuffer = 9,
};

enum TextureSwizzle : std::uint8_t {
    TextureSwizzleZero = 0,
    TextureSwizzleOne = 1,
    TextureSwizzleRed = 2,
    TextureSwizzleGreen = 3,
    TextureSwizzleBlue = 4,
    TextureSwizzleAlpha = 5,
};

enum TextureCompressionType : NS::Integer {
    TextureCompressionTypeLossless = 0,
    TextureCompressionTypeLossy = 1,
};

using TextureUsage = NS::UInteger;
enum : TextureUsage {
    TextureUsageUnknown = 0,
    TextureUsageShaderRead = 1,
    TextureUsageShaderWrite = 1 << 1,
    TextureUsageRenderTarget = 1 << 2,
    TextureUsagePixelFormatView = 1 << 4,
    TextureUsageShaderAtomic = 1 << 5,
};

// Which source channel feeds each channel of a texture read; the default is the identity.
struct TextureSwizzleChannels {
    constexpr TextureSwizzleChannels(TextureSwizzle r, TextureSwizzle g, TextureSwizzle b, TextureSwizzle a)
        : red(r), green(g), blue(b), alpha(a) {}
    constexpr TextureSwizzleChannels()
        : red(TextureSwizzleRed), green(TextureSwizzleGreen), blue(TextureSwizzleBlue), alpha(TextureSwizzleAlpha) {}

    static constexpr TextureSwizzleChannels Default() { return TextureSwizzleChannels(); }
    static constexpr TextureSwizzleChannels Make(TextureSwizzle r, TextureSwizzle g, TextureSwizzle b,
                                                 TextureSwizzle a) {
        return TextureSwizzleChannels(r, g, b, a);
    }

    TextureSwizzle red;
    TextureSwizzle green;
    TextureSwizzle blue;
    TextureSwizzle alpha;
} __attribute__((packed));

// A handle for sharing a texture with another process.
class SharedTextureHandle : public NS::SecureCoding<SharedTextureHandle> {
public:
    static SharedTextureHandle* alloc();
    SharedTextureHandle* init();

    Device* device() const;
    NS::String* label() const;
};

// The shape, format, usage and storage of a texture to create.
class TextureDescriptor : public NS::Copying<TextureDescriptor> {
public:
    static TextureDescriptor* alloc();
    TextureDescriptor* init();

    static TextureDescriptor* texture2DDescriptor(PixelFormat pixelFormat, NS::UInteger width, NS::UInteger height,
                                                  bool mipmapped);
    static TextureDescriptor* textureCubeDescriptor(PixelFormat pixelFormat, NS::UInteger size, bool mipmapped);
    static TextureDescriptor* textureBufferDescriptor(PixelFormat pixelFormat, NS::UInteger width,
                                                      ResourceOptions resourceOptions, TextureUsage usage);

    TextureType textureType() const;
    void setTextureType(TextureType textureType);
    PixelFormat pixelFormat() const;
    void setPixelFormat(PixelFormat pixelFormat);
    NS::UInteger width() const;
    void setWidth(NS::UInteger width);
    NS::UInteger height() const;
    void setHeight(NS::UInteger height);
    NS::UInteger depth() const;
    void setDepth(NS::UInteger depth);
    NS::UInteger mipmapLevelCount() const;
    void setMipmapLevelCount(NS::UInteger mipmapLevelCount);
    NS::UInteger sampleCount() const;
    void setSampleCount(NS::UInteger sampleCount);
    NS::UInteger arrayLength() const;
    void setArrayLength(NS::UInteger arrayLength);

    TextureUsage usage() const;
    void setUsage(TextureUsage usage);
    ResourceOptions resourceOptions() const;
    void setResourceOptions(ResourceOptions resourceOptions);
    CPUCacheMode cpuCacheMode() const;
    void setCpuCacheMode(CPUCacheMode cpuCacheMode);
    StorageMode storageMode() const;
    void setStorageMode(StorageMode storageMode);
    HazardTrackingMode hazardTrackingMode() const;
    void setHazardTrackingMode(HazardTrackingMode hazardTrackingMode);

    bool allowGPUOptimizedContents() const;
    void setAllowGPUOptimizedContents(bool allowGPUOptimizedContents);
    TextureCompressionType compressionType() const;
    void setCompressionType(TextureCompressionType compressionType);
    TextureSwizzleChannels swizzle() const;
    void setSwizzle(TextureSwizzleChannels swizzle);
    SparsePageSize placementSparsePageSize() const;
    void setPlacementSparsePageSize(SparsePageSize placementSparsePageSize);
};

// How Texture::newTextureView reinterprets a texture.
class TextureViewDescriptor : public NS::Copying<TextureViewDescriptor> {
public:
    static TextureViewDescriptor* alloc();
    TextureViewDescriptor* init();

    PixelFormat pixelFormat() const;
    void setPixelFormat(PixelFormat pixelFormat);
    TextureType textureType() const;
    void setTextureType(TextureType textureType);
    NS::Range levelRange() const;
    void setLevelRange(NS::Range levelRange);
    NS::Range sliceRange() const;
    void setSliceRange(NS::Range sliceRange);
    TextureSwizzleChannels swizzle() const;
    void setSwizzle(TextureSwizzleChannels swizzle);
};

// A texture: formatted image data that kernels read, sample and write.
class Texture : public NS::Referencing<Texture, Resource> {
public:
    TextureType textureType() const;
    PixelFormat pixelFormat() const;
    NS::UInteger width() const;
    NS::UInteger height() const;
    NS::UInteger depth() const;
    NS::UInteger mipmapLevelCount() const;
    NS::UInteger sampleCount() const;
    NS::UInteger arrayLength() const;
    TextureUsage usage() const;
    TextureSwizzleChannels swizzle() const;
    ResourceID gpuResourceID() const;

    void replaceRegion(Region region, NS::UInteger level, NS::UInteger slice, const void* pixelBytes,
                       NS::UInteger bytesPerRow, NS::UInteger bytesPerImage);
    void replaceRegion(Region region, NS::UInteger level, const void* pixelBytes, NS::UInteger bytesPerRow);
    void getBytes(void* pixelBytes, NS::UInteger bytesPerRow, NS::UInteger bytesPerImage, Region region,
                  NS::UInteger level, NS::UInteger slice);
    void getBytes(void* pixelBytes, NS::UInteger bytesPerRow, Region region, NS::UInteger level);

    Texture* newTextureView(PixelFormat pixelFormat);
    Texture* newTextureView(PixelFormat pixelFormat, TextureType textureType, NS::Range levelRange,
                            NS::Range sliceRange);
    Texture* newTextureView(PixelFormat pixelFormat, TextureType textureType, NS::Range levelRange,
                            NS::Range sliceRange, TextureSwizzleChannels swizzle);
    Texture* newTextureView(const TextureViewDescriptor* descriptor);

    // Views: the texture or buffer this one was made from.
    Texture* parentTexture() const;
    NS::UInteger parentRelativeLevel() const;
    NS::UInteger parentRelativeSlice() const;
    Buffer* buffer() const;
    NS::UInteger bufferOffset() const;
    NS::UInteger bufferBytesPerRow() const;
    Resource* rootResource() const;

    bool allowGPUOptimizedContents() const;
    TextureCompressionType compressionType() const;
    bool isFramebufferOnly() const;
    [[deprecated("please use isFramebufferOnly instead")]] bool framebufferOnly() const;
    bool isShareable() const;
    [[deprecated("please use isShareable instead")]] bool shareable() const;
    bool isSparse() const;
    TextureSparseTier sparseTextureTier() const;
    NS::UInteger firstMipmapInTail() const;
    NS::UInteger tailSizeInBytes() const;

    SharedTextureHandle* newSharedTextureHandle();
    Texture* remoteStorageTexture() const;
    Texture* newRemoteTextureViewForDevice(const Device* device);
};

} // namespace MTL
