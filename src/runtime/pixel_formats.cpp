#include "runtime/pixel_formats.h"

#include <string>

namespace metalcpu::rt {
namespace {

struct Entry {
    MTL::PixelFormat format;
    const char* name;
    PixelLayout layout;
};

// The ordinary colour formats compute kernels use: 8-, 16- and 32-bit components, one,
// two or four of them.
#define METALCPU_FORMAT(name, kind, bytes, channels, ...) \
    {MTL::PixelFormat##name, "MTLPixelFormat" #name, {kind, bytes, channels, ##__VA_ARGS__}}
constexpr Entry kFormats[] = {
    METALCPU_FORMAT(R8Unorm, MC_COMPONENT_UNORM, 1, 1),
    METALCPU_FORMAT(R8Unorm_sRGB, MC_COMPONENT_UNORM_SRGB, 1, 1),
    METALCPU_FORMAT(R8Snorm, MC_COMPONENT_SNORM, 1, 1),
    METALCPU_FORMAT(R8Uint, MC_COMPONENT_UINT, 1, 1),
    METALCPU_FORMAT(R8Sint, MC_COMPONENT_SINT, 1, 1),
    METALCPU_FORMAT(R16Unorm, MC_COMPONENT_UNORM, 2, 1),
    METALCPU_FORMAT(R16Snorm, MC_COMPONENT_SNORM, 2, 1),
    METALCPU_FORMAT(R16Uint, MC_COMPONENT_UINT, 2, 1),
    METALCPU_FORMAT(R16Sint, MC_COMPONENT_SINT, 2, 1),
    METALCPU_FORMAT(R16Float, MC_COMPONENT_FLOAT, 2, 1),
    METALCPU_FORMAT(RG8Unorm, MC_COMPONENT_UNORM, 1, 2),
    METALCPU_FORMAT(RG8Unorm_sRGB, MC_COMPONENT_UNORM_SRGB, 1, 2),
    METALCPU_FORMAT(RG8Snorm, MC_COMPONENT_SNORM, 1, 2),
    METALCPU_FORMAT(RG8Uint, MC_COMPONENT_UINT, 1, 2),
    METALCPU_FORMAT(RG8Sint, MC_COMPONENT_SINT, 1, 2),
    METALCPU_FORMAT(R32Uint, MC_COMPONENT_UINT, 4, 1),
    METALCPU_FORMAT(R32Sint, MC_COMPONENT_SINT, 4, 1),
    METALCPU_FORMAT(R32Float, MC_COMPONENT_FLOAT, 4, 1),
    METALCPU_FORMAT(RG16Unorm, MC_COMPONENT_UNORM, 2, 2),
    METALCPU_FORMAT(RG16Snorm, MC_COMPONENT_SNORM, 2, 2),
    METALCPU_FORMAT(RG16Uint, MC_COMPONENT_UINT, 2, 2),
    METALCPU_FORMAT(RG16Sint, MC_COMPONENT_SINT, 2, 2),
    METALCPU_FORMAT(RG16Float, MC_COMPONENT_FLOAT, 2, 2),
    METALCPU_FORMAT(RGBA8Unorm, MC_COMPONENT_UNORM, 1, 4),
    METALCPU_FORMAT(RGBA8Unorm_sRGB, MC_COMPONENT_UNORM_SRGB, 1, 4),
    METALCPU_FORMAT(RGBA8Snorm, MC_COMPONENT_SNORM, 1, 4),
    METALCPU_FORMAT(RGBA8Uint, MC_COMPONENT_UINT, 1, 4),
    METALCPU_FORMAT(RGBA8Sint, MC_COMPONENT_SINT, 1, 4),
    METALCPU_FORMAT(BGRA8Unorm, MC_COMPONENT_UNORM, 1, 4, true),
    METALCPU_FORMAT(BGRA8Unorm_sRGB, MC_COMPONENT_UNORM_SRGB, 1, 4, true),
    METALCPU_FORMAT(RG32Uint, MC_COMPONENT_UINT, 4, 2),
    METALCPU_FORMAT(RG32Sint, MC_COMPONENT_SINT, 4, 2),
    METALCPU_FORMAT(RG32Float, MC_COMPONENT_FLOAT, 4, 2),
    METALCPU_FORMAT(RGBA16Unorm, MC_COMPONENT_UNORM, 2, 4),
    METALCPU_FORMAT(RGBA16Snorm, MC_COMPONENT_SNORM, 2, 4),
    METALCPU_FORMAT(RGBA16Uint, MC_COMPONENT_UINT, 2, 4),
    METALCPU_FORMAT(RGBA16Sint, MC_COMPONENT_SINT, 2, 4),
    METALCPU_FORMAT(RGBA16Float, MC_COMPONENT_FLOAT, 2, 4),
    METALCPU_FORMAT(RGBA32Uint, MC_COMPONENT_UINT, 4, 4),
    METALCPU_FORMAT(RGBA32Sint, MC_COMPONENT_SINT, 4, 4),
    METALCPU_FORMAT(RGBA32Float, MC_COMPONENT_FLOAT, 4, 4),
};
#undef METALCPU_FORMAT

const Entry* find(MTL::PixelFormat format) {
    for (const Entry& entry : kFormats)
        if (entry.format == format) return &entry;
    return nullptr;
}

} // namespace

std::optional<PixelLayout> pixelLayout(MTL::PixelFormat format) {
    const Entry* entry = find(format);
    return entry ? std::optional<PixelLayout>(entry->layout) : std::nullopt;
}

std::string pixelFormatName(MTL::PixelFormat format) {
    const Entry* entry = find(format);
    return entry ? entry->name : "MTLPixelFormat(" + std::to_string(static_cast<unsigned long>(format)) + ")";
}

} // namespace metalcpu::rt
