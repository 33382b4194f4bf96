// The texel side of <metal_texture>: finding a texel in an mc_texture (the runtime's
// description of a bound texture, kernel_abi.h), converting its components to and from the
// kernel's element type as MSL specifies, and the address modes and filters of samplers.
#pragma once

#include <metalcpu/kernel_abi.h>
#include <metalcpu/stdlib/config.h>
#include <metalcpu/stdlib/libm.h>
#include <metalcpu/stdlib/scalar.h>
#include <metalcpu/stdlib/traits.h>
#include <metalcpu/stdlib/vec.h>

namespace metalcpu_stdlib::texture {

/// The extent of mip level `lod` of a level-0 extent `size`.
METALCPU_INLINE uint level_extent(uint size, uint lod) {
    const uint e = lod < 32 ? size >> lod : 0;
    return e ? e : 1;
}

/// The address of texel (x, y, z) of `slice` at level `lod`, or null when any of them is
/// outside the texture (MSL leaves such accesses undefined: reads give zero, writes are
/// dropped) or no texture is bound.
METALCPU_INLINE unsigned char* texel(const mc_texture* t, uint x, uint y, uint z, uint slice, uint lod) {
    if (!t || lod >= t->mip_levels || slice >= t->array_length) return nullptr;
    const uint w = level_extent(t->width, lod), h = level_extent(t->height, lod), d = level_extent(t->depth, lod);
    if (x >= w || y >= h || z >= d) return nullptr;
    const mc_u64 pixel = t->component_bytes * t->channels;
    const mc_u64 row = t->row_pitch ? t->row_pitch : w * pixel;
    return t->data + t->level_offsets[lod] + ((mc_u64(slice) * d + z) * h + y) * row + x * pixel;
}

/// Rounds a non-negative value to the nearest integer, ties to even, as MSL's conversions
/// to normalised integers do (without relying on the rounding mode, which fast math ignores).
METALCPU_INLINE uint round_even(float v) {
    uint i = uint(v);
    const float fraction = v - float(i);
    if (fraction > 0.5f || (fraction == 0.5f && (i & 1u))) ++i;
    return i;
}

METALCPU_INLINE float srgb_to_linear(float c) {
    return c <= 0.04045f ? c / 12.92f : libm::pow((c + 0.055f) / 1.055f, 2.4f);
}
METALCPU_INLINE float linear_to_srgb(float c) {
    if (!(c > 0.0f)) return 0.0f; // also NaN
    if (c >= 1.0f) return 1.0f;
    return c <= 0.0031308f ? c * 12.92f : 1.055f * libm::pow(c, 1.0f / 2.4f) - 0.055f;
}

/// The raw bits of component `c` (in R, G, B, A order) of the texel at `p`, zero-extended.
METALCPU_INLINE mc_u32 load_bits(const mc_texture* t, const unsigned char* p, uint c) {
    const uint stored = t->bgra && c < 3 ? 2 - c : c;
    const unsigned char* q = p + stored * t->component_bytes;
    if (t->component_bytes == 1) return q[0];
    if (t->component_bytes == 2) {
        unsigned short v;
        __builtin_memcpy(&v, q, 2);
        return v;
    }
    mc_u32 v;
    __builtin_memcpy(&v, q, 4);
    return v;
}

METALCPU_INLINE void store_bits(const mc_texture* t, unsigned char* p, uint c, mc_u32 bits) {
    const uint stored = t->bgra && c < 3 ? 2 - c : c;
    unsigned char* q = p + stored * t->component_bytes;
    if (t->component_bytes == 1) {
        q[0] = static_cast<unsigned char>(bits);
    } else if (t->component_bytes == 2) {
        const unsigned short v = static_cast<unsigned short>(bits);
        __builtin_memcpy(q, &v, 2);
    } else {
        __builtin_memcpy(q, &bits, 4);
    }
}

/// The bits of a signed component, sign-extended.
METALCPU_INLINE int signed_bits(const mc_texture* t, mc_u32 bits) {
    const uint shift = 32 - 8 * t->component_bytes;
    return int(bits << shift) >> shift;
}

/// Component `c` as a float: normalised formats scaled to [0, 1] or [-1, 1], sRGB colour
/// decoded, integers converted.
METALCPU_INLINE float load_float(const mc_texture* t, const unsigned char* p, uint c) {
    const mc_u32 bits = load_bits(t, p, c);
    const float unsigned_max = float((1ull << (8 * t->component_bytes)) - 1);
    switch (t->component_kind) {
    case MC_COMPONENT_UNORM: return float(bits) / unsigned_max;
    case MC_COMPONENT_UNORM_SRGB: return c < 3 ? srgb_to_linear(float(bits) / 255.0f) : float(bits) / 255.0f;
    case MC_COMPONENT_SNORM: {
        const float v = float(signed_bits(t, bits)) / float((1u << (8 * t->component_bytes - 1)) - 1);
        return v < -1.0f ? -1.0f : v;
    }
    case MC_COMPONENT_FLOAT:
        if (t->component_bytes == 2) return float(__builtin_bit_cast(half, static_cast<unsigned short>(bits)));
        return __builtin_bit_cast(float, bits);
    case MC_COMPONENT_SINT: return float(signed_bits(t, bits));
    default: return float(bits);
    }
}

/// Converts `v` to the bits of component `c`: normalised formats clamp and round to nearest
/// even, sRGB encodes colour, floats round to the format's precision.
METALCPU_INLINE mc_u32 float_bits(const mc_texture* t, uint c, float v) {
    const mc_u32 unsigned_max = mc_u32((1ull << (8 * t->component_bytes)) - 1);
    switch (t->component_kind) {
    case MC_COMPONENT_UNORM_SRGB:
        if (c < 3) v = linear_to_srgb(v);
        [[fallthrough]];
    case MC_COMPONENT_UNORM:
        v = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; // NaN -> 0
        return round_even(v * float(unsigned_max));
    case MC_COMPONENT_SNORM: {
        const float scale = float((1u << (8 * t->component_bytes - 1)) - 1);
        v = v > -1.0f ? (v < 1.0f ? v : 1.0f) : -1.0f;
        const int i = v < 0.0f ? -int(round_even(-v * scale)) : int(round_even(v * scale));
        return mc_u32(i) & unsigned_max;
    }
    case MC_COMPONENT_FLOAT:
        if (t->component_bytes == 2) return __builtin_bit_cast(unsigned short, static_cast<half>(v));
        return __builtin_bit_cast(mc_u32, v);
    default: return mc_u32(int(v)) & unsigned_max;
    }
}

/// Component `c` as an integer of an int/uint/short/ushort texture.
METALCPU_INLINE mc_u32 load_integer(const mc_texture* t, const unsigned char* p, uint c) {
    const mc_u32 bits = load_bits(t, p, c);
    return t->component_kind == MC_COMPONENT_SINT ? mc_u32(signed_bits(t, bits)) : bits;
}

/// Integer writes keep the low bits that fit the component, as a GPU's store does.
METALCPU_INLINE mc_u32 integer_bits(const mc_texture* t, mc_u32 v) {
    return t->component_bytes == 4 ? v : v & mc_u32((1u << (8 * t->component_bytes)) - 1);
}

/// The texel at `p` as a vec<T, 4>; components the format lacks read as 0, alpha as 1.
/// Whether a ulong texture's texel at `t` is one 64-bit value: an RG32Uint texel (R the low word).
template <class T> METALCPU_INLINE bool holds_wide_texel(const mc_texture* t) {
    return sizeof(T) == 8 && t->component_bytes == 4 && t->channels == 2 && t->component_kind == MC_COMPONENT_UINT;
}

template <class T>
METALCPU_INLINE metal::vec<T, 4> load(const mc_texture* t, const unsigned char* p) {
    T out[4] = {T(0), T(0), T(0), T(1)};
    if (!p) return metal::vec<T, 4>(T(0));
    if constexpr (sizeof(T) == 8 && !metalcpu_stdlib::is_floating_scalar<T>) {
        if (holds_wide_texel<T>(t)) {
            __builtin_memcpy(&out[0], p, 8);
            return metal::vec<T, 4>(out[0], out[1], out[2], out[3]);
        }
    }
    for (uint c = 0; c < t->channels; ++c) {
        if constexpr (metalcpu_stdlib::is_floating_scalar<T>)
            out[c] = T(load_float(t, p, c));
        else
            out[c] = T(load_integer(t, p, c));
    }
    return metal::vec<T, 4>(out[0], out[1], out[2], out[3]);
}

template <class T>
METALCPU_INLINE void store(const mc_texture* t, unsigned char* p, const metal::vec<T, 4>& v) {
    if (!p) return;
    if constexpr (sizeof(T) == 8 && !metalcpu_stdlib::is_floating_scalar<T>) {
        if (holds_wide_texel<T>(t)) {
            const T wide = v[0];
            __builtin_memcpy(p, &wide, 8);
            return;
        }
    }
    for (uint c = 0; c < t->channels; ++c) {
        if constexpr (metalcpu_stdlib::is_floating_scalar<T>)
            store_bits(t, p, c, float_bits(t, c, float(v[c])));
        else
            store_bits(t, p, c, integer_bits(t, mc_u32(v[c])));
    }
}

// ---- Samplers ---------------------------------------------------------------------------

/// Texel index `i` of an axis of `n` texels under address mode `mode`; -1 for a texel outside
/// (clamp_to_zero and clamp_to_border).
METALCPU_INLINE int address(int i, int n, mc_u32 mode) {
    switch (mode) {
    case MC_ADDRESS_REPEAT: return ((i % n) + n) % n;
    case MC_ADDRESS_MIRRORED_REPEAT: {
        const int m = ((i % (2 * n)) + 2 * n) % (2 * n);
        return m < n ? m : 2 * n - 1 - m;
    }
    case MC_ADDRESS_MIRROR_CLAMP_TO_EDGE: {
        const int m = i < 0 ? -i - 1 : i;
        return m < n ? m : n - 1;
    }
    case MC_ADDRESS_CLAMP_TO_ZERO:
    case MC_ADDRESS_CLAMP_TO_BORDER_COLOR: return i < 0 || i >= n ? -1 : i;
    default: return i < 0 ? 0 : (i >= n ? n - 1 : i);
    }
}

/// What a texel outside the texture reads as: transparent black (opaque for formats without
/// alpha) for clamp_to_zero, or the sampler's border colour.
template <class T>
METALCPU_INLINE metal::vec<T, 4> outside(const mc_texture* t, const mc_sampler& s, mc_u32 mode) {
    if (mode == MC_ADDRESS_CLAMP_TO_BORDER_COLOR) {
        if (s.border_color == 1) return metal::vec<T, 4>(T(0), T(0), T(0), T(1)); // opaque black
        if (s.border_color == 2) return metal::vec<T, 4>(T(1));                  // opaque white
        return metal::vec<T, 4>(T(0));
    }
    return metal::vec<T, 4>(T(0), T(0), T(0), T(t->channels < 4 ? 1 : 0));
}

/// A texel of a 2D level through the sampler's address modes.
template <class T>
METALCPU_INLINE metal::vec<T, 4> fetch(const mc_texture* t, const mc_sampler& s, int x, int y, uint slice,
                                       uint w, uint h, uint lod) {
    const int ax = address(x, int(w), s.address[0]);
    const int ay = address(y, int(h), s.address[1]);
    if (ax < 0) return outside<T>(t, s, s.address[0]);
    if (ay < 0) return outside<T>(t, s, s.address[1]);
    return load<T>(t, texel(t, uint(ax), uint(ay), 0, slice, lod));
}

/// Level `lod` of a 2D texture (or one slice of an array), nearest or bilinear by `filter`.
template <class T>
METALCPU_INLINE metal::vec<float, 4> sample_level(const mc_texture* t, const mc_sampler& s, float u, float v,
                                                  uint slice, uint lod, mc_u32 filter) {
    const uint w = level_extent(t->width, lod), h = level_extent(t->height, lod);
    if (s.normalized_coordinates) u *= float(w), v *= float(h);
    if (filter == MC_FILTER_NEAREST)
        return metal::vec<float, 4>(fetch<T>(t, s, int(libm::floor(u)), int(libm::floor(v)), slice, w, h, lod));
    u -= 0.5f, v -= 0.5f;
    const float fu = libm::floor(u), fv = libm::floor(v);
    const int x = int(fu), y = int(fv);
    const float a = u - fu, b = v - fv;
    metal::vec<float, 4> c00(fetch<T>(t, s, x, y, slice, w, h, lod)), c10(fetch<T>(t, s, x + 1, y, slice, w, h, lod));
    metal::vec<float, 4> c01(fetch<T>(t, s, x, y + 1, slice, w, h, lod)),
        c11(fetch<T>(t, s, x + 1, y + 1, slice, w, h, lod));
    metal::vec<float, 4> top = c00 * (1.0f - a) + c10 * a, bottom = c01 * (1.0f - a) + c11 * a;
    return top * (1.0f - b) + bottom * b;
}

/// The level of detail of gradient2d(dPdx, dPdy): log2 of the longer derivative in texels of
/// level 0 (the scale factor of the OpenGL and Vulkan specifications, which Metal follows).
METALCPU_INLINE float gradient_lod(const mc_texture* t, float dudx, float dvdx, float dudy, float dvdy) {
    const float w = float(t->width), h = float(t->height);
    const float x = (dudx * w) * (dudx * w) + (dvdx * h) * (dvdx * h);
    const float y = (dudy * w) * (dudy * w) + (dvdy * h) * (dvdy * h);
    const float rho2 = x > y ? x : y;
    return rho2 > 0.0f ? 0.5f * libm::log2(rho2) : -1000.0f;
}

/// sample() of a 2D texture (or one slice of an array) at level of detail `lod`. The
/// sampler's mip filter picks the level (Apple's MTLSamplerMipFilter): notMipmapped, level 0
/// whatever the level of detail; nearest, the nearest level; linear, the two levels around
/// it, interpolated. The level of detail is clamped to the sampler's lod range and the
/// texture's levels. Above 0 the texture is minified and the min filter applies, else the
/// mag filter.
///
/// Out of line, as libm's sin and cos are: inlined, each call was up to ten bilinear fetches of
/// every component format, and a 17-line kernel of six sample() calls (tests/jit/msl_support/
/// samplers.metal) took some 30 s of CPU to compile per flavour; a call costs a few ns against
/// the hundreds of instructions of a filtered sample.
template <class T>
[[gnu::noinline]] inline metal::vec<T, 4> sample2d(const mc_texture* t, const mc_sampler& s, float u, float v, uint slice,
                                          float lod) {
    if (!t) return metal::vec<T, 4>(T(0));
    if (s.mip_filter == MC_MIP_FILTER_NONE || t->mip_levels <= 1) {
        const mc_u32 filter = s.mip_filter != MC_MIP_FILTER_NONE && lod > 0.0f ? s.min_filter : s.mag_filter;
        return metal::vec<T, 4>(sample_level<T>(t, s, u, v, slice, 0, filter));
    }
    if (lod < s.lod_min_clamp) lod = s.lod_min_clamp;
    if (lod > s.lod_max_clamp) lod = s.lod_max_clamp;
    const float top = float(t->mip_levels - 1);
    const mc_u32 filter = lod > 0.0f ? s.min_filter : s.mag_filter;
    if (!(lod > 0.0f)) lod = 0.0f; // also NaN
    if (lod > top) lod = top;
    if (s.mip_filter == MC_MIP_FILTER_NEAREST) // ties go down, as Vulkan's ceil(lod + 0.5) - 1
        return metal::vec<T, 4>(sample_level<T>(t, s, u, v, slice, uint(libm::ceil(lod + 0.5f)) - 1u, filter));
    const uint below = uint(lod);
    const float fraction = lod - float(below);
    const metal::vec<float, 4> a = sample_level<T>(t, s, u, v, slice, below, filter);
    if (fraction == 0.0f) return metal::vec<T, 4>(a);
    const metal::vec<float, 4> b = sample_level<T>(t, s, u, v, slice, below + 1, filter);
    return metal::vec<T, 4>(a * (1.0f - fraction) + b * fraction);
}

} // namespace metalcpu_stdlib::texture
