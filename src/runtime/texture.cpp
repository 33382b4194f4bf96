#include "runtime/texture.h"

#include "runtime/buffer.h"
#include "runtime/debug_layer.h"
#include "runtime/device.h"
#include "runtime/resource_descriptors.h"

#include <cstdio>
#include <cstring>

namespace metalcpu::rt {
namespace {

// Apple's places for the checks (DebugLayer::Site).
constexpr DebugLayer::Site kDescriptorCheck = {"MTLTextureDescriptorInternal", "validateWithDevice:", 1357};
constexpr const char* kTextureClass = "MTLDebugTexture";
constexpr const char* kReplaceRegion = "replaceRegion:mipmapLevel:slice:withBytes:bytesPerRow:bytesPerImage:";
constexpr const char* kGetBytes = "getBytes:bytesPerRow:bytesPerImage:fromRegion:mipmapLevel:slice:";

// Apple's limits (Apple7+ and Mac2 families).
constexpr std::uint64_t kMaxExtent2D = 16384;
constexpr std::uint64_t kMaxExtent3D = 2048;
constexpr std::uint64_t kMaxArrayLength = 2048;
/// Device::minimumLinearTextureAlignmentForPixelFormat: offsets and row pitches of textures
/// over buffers.
constexpr std::uint64_t kLinearAlignment = 16;

std::uint64_t levelExtent(std::uint64_t size, std::uint64_t level) {
    std::uint64_t e = size >> level;
    return e ? e : 1;
}

/// Why metalcpu cannot make a texture of `shape`, in the words of Apple's descriptor
/// validation where it has some; "" when it can.
std::string shapeProblem(const TextureShape& shape) {
    const std::string prefix = "Texture Descriptor Validation\nMTLTextureDescriptor ";
    switch (shape.type) {
    case MTL::TextureType1D:
    case MTL::TextureType1DArray:
    case MTL::TextureType2D:
    case MTL::TextureType2DArray:
    case MTL::TextureType3D: break;
    default:
        return prefix + "has textureType(" + std::to_string(static_cast<unsigned long>(shape.type)) +
               ") that metalcpu does not support yet (1D, 1DArray, 2D, 2DArray and 3D are supported).";
    }
    if (!pixelLayout(shape.format))
        return prefix + "has pixelFormat " + pixelFormatName(shape.format) +
               " that metalcpu does not support yet (8-, 16- and 32-bit colour formats are).";
    const bool oneD = shape.type == MTL::TextureType1D || shape.type == MTL::TextureType1DArray;
    const bool isArray = shape.type == MTL::TextureType1DArray || shape.type == MTL::TextureType2DArray;
    const bool threeD = shape.type == MTL::TextureType3D;
    const std::uint64_t limit = threeD ? kMaxExtent3D : kMaxExtent2D;
    const struct {
        const char* name;
        std::uint64_t value;
    } extents[3] = {{"width", shape.width}, {"height", shape.height}, {"depth", shape.depth}};
    for (const auto& e : extents) {
        if (e.value == 0) return prefix + "has " + e.name + " of zero.";
        if (e.value > limit)
            return prefix + "has " + e.name + " (" + std::to_string(e.value) +
                   ") greater than the maximum allowed size of " + std::to_string(limit) + ".";
    }
    if (oneD && shape.height != 1)
        return prefix + "has height (" + std::to_string(shape.height) + ") that must be 1 for a 1D texture.";
    if (!threeD && shape.depth != 1)
        return prefix + "has depth (" + std::to_string(shape.depth) + ") that must be 1 unless the texture is 3D.";
    if (shape.arrayLength == 0 || shape.arrayLength > kMaxArrayLength)
        return prefix + "has arrayLength (" + std::to_string(shape.arrayLength) + ") outside 1 to " +
               std::to_string(kMaxArrayLength) + ".";
    if (!isArray && shape.arrayLength != 1)
        return prefix + "has arrayLength (" + std::to_string(shape.arrayLength) +
               ") that must be 1 unless the texture is an array.";
    if (shape.sampleCount != 1)
        return prefix + "has sampleCount (" + std::to_string(shape.sampleCount) +
               ") that metalcpu does not support yet (multisample textures).";
    std::uint64_t largest = std::max(shape.width, oneD ? 1 : shape.height);
    if (threeD) largest = std::max(largest, shape.depth);
    const std::uint64_t fullChain = static_cast<std::uint64_t>(64 - __builtin_clzll(largest));
    if (shape.mipLevels == 0 || shape.mipLevels > fullChain)
        return prefix + "has mipmapLevelCount (" + std::to_string(shape.mipLevels) +
               ") greater than the maximum allowed value of " + std::to_string(fullChain) + ".";
    if (static_cast<MTL::StorageMode>((shape.options >> 4) & 0xf) == MTL::StorageModeMemoryless)
        return prefix + "has storageMode MTLStorageModeMemoryless, which compute textures cannot use.";
    return {};
}

std::string regionText(const MTL::Region& r) {
    return "(origin(" + std::to_string(r.origin.x) + ", " + std::to_string(r.origin.y) + ", " +
           std::to_string(r.origin.z) + "), size(" + std::to_string(r.size.width) + ", " +
           std::to_string(r.size.height) + ", " + std::to_string(r.size.depth) + "))";
}

} // namespace

MTL::Texture* Texture::make(Device* device, const TextureShape& shape) {
    if (std::string problem = shapeProblem(shape); !problem.empty()) {
        DebugLayer::reject(kDescriptorCheck, problem);
        return nullptr;
    }
    const PixelLayout layout = *pixelLayout(shape.format);
    std::uint64_t offsets[METALCPU_MAX_TEXTURE_LEVELS] = {};
    std::uint64_t total = 0;
    for (std::uint64_t level = 0; level < shape.mipLevels; ++level) {
        offsets[level] = total;
        total += levelExtent(shape.width, level) * levelExtent(shape.height, level) *
                 levelExtent(shape.depth, level) * shape.arrayLength * layout.bytesPerPixel();
    }
    auto memory = std::make_unique<BufferMemory>(total);
    if (!memory->bytes()) return nullptr;
    return ns::make<Texture>(device, shape, layout, std::move(memory), offsets);
}

Texture::Texture(Device* device, const TextureShape& shape, const PixelLayout& layout,
                 std::unique_ptr<BufferMemory> memory,
                 const std::uint64_t (&levelOffsets)[METALCPU_MAX_TEXTURE_LEVELS])
    : Implements(device, shape.options), shape_(shape), layout_(layout), memory_(std::move(memory)) {
    device->trackAllocation(static_cast<std::int64_t>(memory_->size()));
    view_.data = memory_->bytes();
    describeShape();
    for (int level = 0; level < METALCPU_MAX_TEXTURE_LEVELS; ++level) view_.level_offsets[level] = levelOffsets[level];
}

Texture::Texture(Texture* parent, const TextureShape& shape, const PixelLayout& layout, std::uint64_t level,
                 std::uint64_t slice)
    : Implements(parent->device(), parent->options()), shape_(shape), layout_(layout), parent_(parent),
      parentLevel_(level), parentSlice_(slice) {
    parent_->retain();
    view_.data = parent->view_.data;
    view_.row_pitch = parent->view_.row_pitch;
    describeShape();
    // A level holds all its slices one after the other, so the view's slices of each level
    // are a contiguous run inside the parent's.
    for (std::uint64_t l = 0; l < shape.mipLevels; ++l) {
        const std::uint64_t image =
            parent->extent(level + l, 0) * parent->extent(level + l, 1) * parent->extent(level + l, 2);
        view_.level_offsets[l] = parent->view_.level_offsets[level + l] + slice * image * layout.bytesPerPixel();
    }
}

MTL::Texture* Texture::overBuffer(Buffer* buffer, const TextureShape& shape, std::uint64_t offset,
                                  std::uint64_t bytesPerRow) {
    const DebugLayer::Site site = {"MTLDebugBuffer", "newTextureWithDescriptor:offset:bytesPerRow:", 1422};
    auto refuse = [&](const std::string& message) -> MTL::Texture* {
        DebugLayer::reject(site, message);
        return nullptr;
    };
    if (std::string problem = shapeProblem(shape); !problem.empty()) return refuse(problem);
    if (shape.type != MTL::TextureType2D || shape.mipLevels != 1)
        return refuse("textureType must be MTLTextureType2D with one mipmap level for a texture over a buffer.");
    const PixelLayout layout = *pixelLayout(shape.format);
    if (offset % kLinearAlignment != 0)
        return refuse("offset(" + std::to_string(offset) + ") must be a multiple of " +
                      std::to_string(kLinearAlignment) + " bytes.");
    if (bytesPerRow % kLinearAlignment != 0 || bytesPerRow < shape.width * layout.bytesPerPixel())
        return refuse("bytesPerRow(" + std::to_string(bytesPerRow) + ") must be a multiple of " +
                      std::to_string(kLinearAlignment) + " bytes and at least " +
                      std::to_string(shape.width * layout.bytesPerPixel()) + ".");
    const std::uint64_t end = offset + bytesPerRow * (shape.height - 1) + shape.width * layout.bytesPerPixel();
    if (!buffer->memory() || end > buffer->length())
        return refuse("the texture (ending at " + std::to_string(end) + ") must fit in the buffer length(" +
                      std::to_string(buffer->length()) + ").");
    return ns::make<Texture>(buffer, shape, layout, offset, bytesPerRow);
}

Texture::Texture(Buffer* buffer, const TextureShape& shape, const PixelLayout& layout, std::uint64_t offset,
                 std::uint64_t bytesPerRow)
    : Implements(buffer->device(), buffer->options()), shape_(shape), layout_(layout), buffer_(buffer),
      bufferOffset_(offset) {
    buffer_->retain();
    view_.data = buffer->memory() + offset;
    view_.row_pitch = bytesPerRow;
    describeShape();
}

std::uint64_t Texture::allocatedSize() const {
    if (parent_) return parent_->allocatedSize();
    return memory_ ? memory_->size() : 0;
}

void Texture::describeShape() {
    const TextureShape& shape = shape_;
    const PixelLayout& layout = layout_;
    view_.texture_type = static_cast<mc_u32>(shape.type);
    view_.width = static_cast<mc_u32>(shape.width);
    view_.height = static_cast<mc_u32>(shape.height);
    view_.depth = static_cast<mc_u32>(shape.depth);
    view_.array_length = static_cast<mc_u32>(shape.arrayLength);
    view_.mip_levels = static_cast<mc_u32>(shape.mipLevels);
    view_.component_kind = layout.kind;
    view_.component_bytes = layout.componentBytes;
    view_.channels = layout.channels;
    view_.bgra = layout.bgra ? 1 : 0;
}

std::uint64_t Texture::resourceID() const {
    if (std::uint64_t id = resourceId_.load(std::memory_order_acquire)) return id;
    std::uint64_t made = ResourceDescriptors::shared().publish(this, &view_, sizeof view_);
    std::uint64_t expected = 0;
    if (made && !resourceId_.compare_exchange_strong(expected, made, std::memory_order_acq_rel)) {
        ResourceDescriptors::shared().withdraw(made); // another thread published first
        return expected;
    }
    return made;
}

Texture::~Texture() {
    ResourceDescriptors::shared().withdraw(resourceId_.load(std::memory_order_acquire));
    if (parent_) parent_->release();
    if (buffer_) buffer_->release();
    if (memory_) device()->trackAllocation(-static_cast<std::int64_t>(memory_->size()));
}

MTL::Texture* Texture::makeView(MTL::PixelFormat format, MTL::TextureType type, NS::Range levelRange, NS::Range sliceRange) {
    const DebugLayer::Site site = {kTextureClass, "newTextureViewWithPixelFormat:textureType:levels:slices:", 1283};
    const std::optional<PixelLayout> layout = pixelLayout(format);
    auto refuse = [&](const std::string& message) -> MTL::Texture* {
        DebugLayer::reject(site, message);
        return nullptr;
    };
    if (!layout || layout->bytesPerPixel() != layout_.bytesPerPixel())
        return refuse("pixelFormat (" + pixelFormatName(format) + ") is not compatible with the texture's pixelFormat (" +
                      pixelFormatName(shape_.format) + ").");
    // Apple allows sRGB and linear views of one another without MTLTextureUsagePixelFormatView.
    const bool sameBits = layout->kind == layout_.kind ||
                          (layout->componentBytes == 1 &&
                           ((layout->kind == MC_COMPONENT_UNORM_SRGB && layout_.kind == MC_COMPONENT_UNORM) ||
                            (layout->kind == MC_COMPONENT_UNORM && layout_.kind == MC_COMPONENT_UNORM_SRGB)));
    if (format != shape_.format && !(sameBits && layout->bgra == layout_.bgra && layout->channels == layout_.channels) &&
        !(shape_.usage & MTL::TextureUsagePixelFormatView) &&
        DebugLayer::report(site, "texture usage must include MTLTextureUsagePixelFormatView to make a view with "
                                 "another pixelFormat (" + pixelFormatName(format) + ")."))
        return nullptr;
    // 1D and 1D array views of each other, 2D and 2D array views of each other, 3D of 3D.
    auto family = [](MTL::TextureType t) {
        switch (t) {
        case MTL::TextureType1D:
        case MTL::TextureType1DArray: return 1;
        case MTL::TextureType2D:
        case MTL::TextureType2DArray: return 2;
        case MTL::TextureType3D: return 3;
        default: return 0;
        }
    };
    const bool toArray = type == MTL::TextureType1DArray || type == MTL::TextureType2DArray;
    const bool compatible = family(type) != 0 && family(type) == family(shape_.type);
    if (!compatible)
        return refuse("textureType (" + std::to_string(static_cast<unsigned long>(type)) +
                      ") is not compatible with the texture's textureType (" +
                      std::to_string(static_cast<unsigned long>(shape_.type)) + ").");
    if (levelRange.length == 0 || levelRange.location + levelRange.length > shape_.mipLevels)
        return refuse("levels(" + std::to_string(levelRange.location) + ", " + std::to_string(levelRange.length) +
                      ") must be inside mipmapLevelCount(" + std::to_string(shape_.mipLevels) + ").");
    if (sliceRange.length == 0 || sliceRange.location + sliceRange.length > slices() || (!toArray && sliceRange.length != 1))
        return refuse("slices(" + std::to_string(sliceRange.location) + ", " + std::to_string(sliceRange.length) +
                      ") must be inside arrayLength(" + std::to_string(slices()) + ")" +
                      (toArray ? "." : " and hold one slice for a textureType that is not an array."));
    TextureShape shape = shape_;
    shape.type = type;
    shape.format = format;
    shape.width = extent(levelRange.location, 0);
    shape.height = extent(levelRange.location, 1);
    shape.depth = extent(levelRange.location, 2);
    shape.mipLevels = levelRange.length;
    shape.arrayLength = sliceRange.length;
    return ns::make<Texture>(this, shape, *layout, std::uint64_t(levelRange.location), std::uint64_t(sliceRange.location));
}

std::uint64_t Texture::extent(std::uint64_t level, int dimension) const {
    const std::uint64_t size[3] = {shape_.width, shape_.height, shape_.depth};
    return levelExtent(size[dimension], level);
}

std::uint8_t* Texture::texel(std::uint64_t level, std::uint64_t slice, std::uint64_t x, std::uint64_t y,
                             std::uint64_t z) const {
    const std::uint64_t w = extent(level, 0), h = extent(level, 1), d = extent(level, 2);
    const std::uint64_t row = view_.row_pitch ? view_.row_pitch : w * layout_.bytesPerPixel();
    return view_.data + view_.level_offsets[level] + ((slice * d + z) * h + y) * row + x * layout_.bytesPerPixel();
}

bool Texture::copyIsValid(const char* selector, MTL::Region region, std::uint64_t level, std::uint64_t slice,
                          const void* bytes, std::uint64_t bytesPerRow, std::uint64_t bytesPerImage) const {
    const DebugLayer::Site site = {kTextureClass, selector, 0};
    auto fail = [&](unsigned line, const std::string& message) {
        DebugLayer::reject({site.className, site.selector, line}, message);
        return false;
    };
    if (storageMode() == MTL::StorageModePrivate)
        return fail(1123, "CPU access for textures with MTLResourceStorageModePrivate storage mode is disallowed.");
    if (!bytes) return fail(1127, "pixelBytes must not be nil.");
    if (level >= shape_.mipLevels)
        return fail(1131, "mipmapLevel(" + std::to_string(level) + ") must be < mipmapLevelCount(" +
                              std::to_string(shape_.mipLevels) + ").");
    if (slice >= slices())
        return fail(1135, "slice(" + std::to_string(slice) + ") must be < arrayLength(" + std::to_string(slices()) +
                              ").");
    const std::uint64_t origin[3] = {region.origin.x, region.origin.y, region.origin.z};
    const std::uint64_t size[3] = {region.size.width, region.size.height, region.size.depth};
    static const char* const kOrigin[3] = {"x", "y", "z"};
    static const char* const kSize[3] = {"width", "height", "depth"};
    for (int d = 0; d < 3; ++d) {
        const std::uint64_t end = origin[d] + size[d];
        if (end < origin[d] || end > extent(level, d))
            return fail(1142, "(origin." + std::string(kOrigin[d]) + " + size." + kSize[d] + ")(" +
                                  std::to_string(end) + ") must be <= " + kSize[d] + "(" +
                                  std::to_string(extent(level, d)) + ") at mipmapLevel(" + std::to_string(level) +
                                  "). region" + regionText(region) + ".");
    }
    const std::uint64_t rowBytes = region.size.width * layout_.bytesPerPixel();
    const bool oneD = shape_.type == MTL::TextureType1D || shape_.type == MTL::TextureType1DArray;
    if (!oneD && bytesPerRow < rowBytes)
        return fail(1150, "bytesPerRow(" + std::to_string(bytesPerRow) + ") must be >= (" +
                              std::to_string(rowBytes) + ").");
    if (!oneD && bytesPerRow % layout_.bytesPerPixel() != 0)
        return fail(1153, "bytesPerRow(" + std::to_string(bytesPerRow) + ") must be a multiple of the pixel size(" +
                              std::to_string(layout_.bytesPerPixel()) + ").");
    if (region.size.depth > 1 && bytesPerImage < bytesPerRow * region.size.height)
        return fail(1158, "bytesPerImage(" + std::to_string(bytesPerImage) + ") must be >= (" +
                              std::to_string(bytesPerRow * region.size.height) + ").");
    return true;
}

void Texture::replaceRegion(MTL::Region region, std::uint64_t level, std::uint64_t slice, const void* bytes,
                            std::uint64_t bytesPerRow, std::uint64_t bytesPerImage) {
    if (!copyIsValid(kReplaceRegion, region, level, slice, bytes, bytesPerRow, bytesPerImage)) return;
    const std::uint64_t rowBytes = region.size.width * layout_.bytesPerPixel();
    if (bytesPerRow == 0) bytesPerRow = rowBytes; // 1D textures take 0
    const auto* source = static_cast<const std::uint8_t*>(bytes);
    for (std::uint64_t z = 0; z < region.size.depth; ++z)
        for (std::uint64_t y = 0; y < region.size.height; ++y)
            std::memcpy(texel(level, slice, region.origin.x, region.origin.y + y, region.origin.z + z),
                        source + z * bytesPerImage + y * bytesPerRow, rowBytes);
}

void Texture::getBytes(void* bytes, std::uint64_t bytesPerRow, std::uint64_t bytesPerImage, MTL::Region region,
                       std::uint64_t level, std::uint64_t slice) const {
    if (!copyIsValid(kGetBytes, region, level, slice, bytes, bytesPerRow, bytesPerImage)) return;
    const std::uint64_t rowBytes = region.size.width * layout_.bytesPerPixel();
    if (bytesPerRow == 0) bytesPerRow = rowBytes;
    auto* target = static_cast<std::uint8_t*>(bytes);
    for (std::uint64_t z = 0; z < region.size.depth; ++z)
        for (std::uint64_t y = 0; y < region.size.height; ++y)
            std::memcpy(target + z * bytesPerImage + y * bytesPerRow,
                        texel(level, slice, region.origin.x, region.origin.y + y, region.origin.z + z), rowBytes);
}

std::string Texture::description() const {
    char text[200];
    std::snprintf(text, sizeof text, "<MTLTexture: %p> label = %s textureType = %lu pixelFormat = %s width = %llu",
                  static_cast<const void*>(this), label().text("<none>").c_str(),
                  static_cast<unsigned long>(shape_.type), pixelFormatName(shape_.format).c_str(),
                  static_cast<unsigned long long>(shape_.width));
    return text;
}

} // namespace metalcpu::rt
