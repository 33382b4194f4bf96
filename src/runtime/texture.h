#pragma once

#include "runtime/buffer_memory.h"
#include "runtime/pixel_formats.h"
#include "runtime/resource_core.h"

#include <metalcpu/kernel_abi.h>

#include <Metal/MTLTexture.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace metalcpu::rt {

class Buffer;

/// What a texture descriptor says about the texture to make.
struct TextureShape {
    MTL::TextureType type = MTL::TextureType2D;
    MTL::PixelFormat format = MTL::PixelFormatRGBA8Unorm;
    std::uint64_t width = 1, height = 1, depth = 1;
    std::uint64_t mipLevels = 1, arrayLength = 1, sampleCount = 1;
    MTL::TextureUsage usage = MTL::TextureUsageShaderRead;
    MTL::ResourceOptions options = 0;
    bool allowGPUOptimizedContents = true;
    MTL::TextureSwizzleChannels swizzle;
};

/// A texture: host memory holding every mip level and slice, tightly packed (the layout
/// mc_texture describes to kernels). Shared and managed storage let the program copy texels
/// in and out with replaceRegion and getBytes; private storage does not, as on Apple GPUs.
class Texture final : public ns::Implements<MTL::Texture, ResourceCore> {
public:
    /// A new zero-filled texture, or nullptr with the reason reported through the debug
    /// layer (or the log when it is off) when `shape` is not one metalcpu can make.
    static MTL::Texture* make(Device* device, const TextureShape& shape);
    /// (for make<> only)
    Texture(Device* device, const TextureShape& shape, const PixelLayout& layout,
            std::unique_ptr<BufferMemory> memory, const std::uint64_t (&levelOffsets)[METALCPU_MAX_TEXTURE_LEVELS]);
    /// A 2D texture over `buffer` (retained) at `offset`, rows `bytesPerRow` apart
    /// (Buffer::newTexture); nullptr with a report when Metal would refuse it.
    static MTL::Texture* overBuffer(Buffer* buffer, const TextureShape& shape, std::uint64_t offset,
                                    std::uint64_t bytesPerRow);
    /// (for make<> only)
    Texture(Buffer* buffer, const TextureShape& shape, const PixelLayout& layout, std::uint64_t offset,
            std::uint64_t bytesPerRow);
    /// A view of `parent` (retained) starting at level `level` and slice `slice`.
    Texture(Texture* parent, const TextureShape& shape, const PixelLayout& layout, std::uint64_t level,
            std::uint64_t slice);

    ~Texture() override;

    // The core's, not the public class's trampolines of the same names.
    using ResourceCore::device;
    using ResourceCore::label;
    using ResourceCore::storageMode;

    const char* className() const override { return "MTLTexture"; }
    std::string description() const override;

    const TextureShape& shape() const { return shape_; }
    /// Slices: the array length of an array texture, else 1.
    std::uint64_t slices() const { return shape_.arrayLength; }
    /// The extent of level `level` in `dimension` (0 = width, 1 = height, 2 = depth).
    std::uint64_t extent(std::uint64_t level, int dimension) const;
    std::uint64_t allocatedSize() const override;
    const PixelLayout& layout() const { return layout_; }
    /// What kernels bound to this texture see.
    const mc_texture* kernelView() const { return &view_; }
    /// gpuResourceID(): the address of a copy of kernelView() that kernels reach through an
    /// argument buffer (ResourceDescriptors), made at the first call; 0 when there is no memory.
    std::uint64_t resourceID() const;

    /// A view of `levelRange` and `sliceRange` of this texture as `format` and `type`, sharing its
    /// memory (newTextureView); nullptr with a report when Metal would refuse it.
    MTL::Texture* makeView(MTL::PixelFormat format, MTL::TextureType type, NS::Range levelRange,
                           NS::Range sliceRange);
    /// The texture a view was made from (null for a texture with memory of its own), and
    /// where in it the view starts.
    Texture* parent() const { return parent_; }
    std::uint64_t parentLevel() const { return parentLevel_; }
    std::uint64_t parentSlice() const { return parentSlice_; }
    /// The buffer a texture over a buffer uses (null otherwise), where and with what row pitch.
    Buffer* buffer() const { return buffer_; }
    /// The buffer whose memory kernels reach through this texture: a view's is its root's.
    Buffer* memoryBuffer() const {
        const Texture* root = this;
        while (root->parent()) root = root->parent();
        return root->buffer();
    }
    std::uint64_t bufferOffset() const { return bufferOffset_; }
    std::uint64_t bufferBytesPerRow() const { return view_.row_pitch; }

    /// Copies texels in (replaceRegion) and out (getBytes), checking the arguments as Metal's
    /// debug layer does; an invalid call copies nothing.
    void replaceRegion(MTL::Region region, std::uint64_t level, std::uint64_t slice, const void* bytes,
                       std::uint64_t bytesPerRow, std::uint64_t bytesPerImage);
    void getBytes(void* bytes, std::uint64_t bytesPerRow, std::uint64_t bytesPerImage, MTL::Region region,
                  std::uint64_t level, std::uint64_t slice) const;

private:
    /// Whether a copy of `region` of (level, slice) with these strides is valid; reports it
    /// under `selector` when not.
    bool copyIsValid(const char* selector, MTL::Region region, std::uint64_t level, std::uint64_t slice,
                     const void* bytes, std::uint64_t bytesPerRow, std::uint64_t bytesPerImage) const;
    /// The address of texel (x, y, z) of (level, slice).
    std::uint8_t* texel(std::uint64_t level, std::uint64_t slice, std::uint64_t x, std::uint64_t y,
                        std::uint64_t z) const;

    TextureShape shape_;
    PixelLayout layout_;
    std::unique_ptr<BufferMemory> memory_; ///< null for a view and a texture over a buffer
    Texture* parent_ = nullptr;            ///< a view's texture, retained
    Buffer* buffer_ = nullptr;             ///< the buffer a texture is made over, retained
    std::uint64_t bufferOffset_ = 0;
    std::uint64_t parentLevel_ = 0, parentSlice_ = 0;
    mc_texture view_{};
    mutable std::atomic<std::uint64_t> resourceId_{0};

    /// Fills the shape fields of view_ from shape_ and layout_.
    void describeShape();
};

} // namespace metalcpu::rt
