#pragma once

#include <metalcpu/kernel_abi.h>

#include <Metal/MTLPixelFormat.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace metalcpu::rt {

/// How one texel of an ordinary colour format is stored: what kernels need to convert it
/// (mc_texture's component fields) and what the host needs to copy it.
struct PixelLayout {
    mc_component_kind kind;
    std::uint32_t componentBytes; ///< 1, 2 or 4
    std::uint32_t channels;       ///< 1 to 4
    bool bgra = false;            ///< stored B, G, R, A
    std::uint32_t bytesPerPixel() const { return componentBytes * channels; }
};

/// The layout of `format`, or nothing for formats textures do not support yet (compressed,
/// packed, depth and stencil, 64-bit, and the rest outside the table in pixel_formats.cpp).
std::optional<PixelLayout> pixelLayout(MTL::PixelFormat format);

/// "MTLPixelFormatRGBA8Unorm", or "MTLPixelFormat(n)" for a format without a name here.
std::string pixelFormatName(MTL::PixelFormat format);

} // namespace metalcpu::rt
