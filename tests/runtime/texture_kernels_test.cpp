// Textures and samplers in kernels: write, read and read_write on every texture type, the
// pixel-format conversions MSL specifies, and sample() against a CPU model of nearest and
// bilinear filtering with each address mode. Each test runs at several threadgroup shapes
// (one thread, groups that are not multiples of 32, grids that do not divide evenly) in both
// flavours; texels outside what a kernel writes must keep their canary values.
#include "metal_test.h"
#include "texture_fixture.h"

#include "runtime/debug_layer.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

// Writes a gradient into the first `size` texels of each row and column.
kernel void gradient(texture2d<float, access::write> out [[texture(0)]],
                     constant uint2& size [[buffer(0)]],
                     uint2 gid [[thread_position_in_grid]]) {
    if (gid.x >= size.x || gid.y >= size.y) return;
    out.write(float4(float(gid.x) / 64.0f, float(gid.y) / 64.0f, 0.5f, 1.0f), gid);
}

// Reads every texel of a float texture into a buffer of float4, with the sizes it sees.
kernel void read_all(texture2d<float, access::read> in [[texture(0)]],
                     device float4* out [[buffer(0)]],
                     device uint* sizes [[buffer(1)]],
                     uint2 gid [[thread_position_in_grid]]) {
    if (gid.x == 0 && gid.y == 0) { sizes[0] = in.get_width(); sizes[1] = in.get_height(); sizes[2] = in.get_num_mip_levels(); }
    if (gid.x >= in.get_width() || gid.y >= in.get_height()) return;
    out[gid.y * in.get_width() + gid.x] = in.read(gid);
}

// Adds the thread's x to each texel, in place.
kernel void accumulate(texture2d<uint, access::read_write> data [[texture(0)]],
                       uint2 gid [[thread_position_in_grid]]) {
    if (gid.x >= data.get_width() || gid.y >= data.get_height()) return;
    uint4 v = data.read(gid);
    data.write(v + uint4(gid.x, 1, 2, 3), gid);
    data.fence();
}

// Copies slice/depth texels of the other texture types into a buffer (x fastest).
kernel void copy_1d(texture1d<int, access::read> in, device int4* out [[buffer(0)]],
                    uint gid [[thread_position_in_grid]]) {
    if (gid < in.get_width()) out[gid] = in.read(gid);
}
kernel void copy_1d_array(texture1d_array<ushort, access::read> in, device ushort4* out [[buffer(0)]],
                          uint2 gid [[thread_position_in_grid]]) {
    if (gid.x < in.get_width() && gid.y < in.get_array_size())
        out[gid.y * in.get_width() + gid.x] = in.read(gid.x, gid.y);
}
kernel void copy_2d_array(texture2d_array<half, access::read> in, device half4* out [[buffer(0)]],
                          uint3 gid [[thread_position_in_grid]]) {
    if (gid.x < in.get_width() && gid.y < in.get_height() && gid.z < in.get_array_size())
        out[(gid.z * in.get_height() + gid.y) * in.get_width() + gid.x] = in.read(gid.xy, gid.z);
}
kernel void fill_3d(texture3d<float, access::write> out, uint3 gid [[thread_position_in_grid]]) {
    if (gid.x < out.get_width() && gid.y < out.get_height() && gid.z < out.get_depth())
        out.write(float4(gid.x, gid.y, gid.z, 1.0f), gid);
}
// Writes level 1 of a mipmapped texture.
kernel void fill_level(texture2d<uint, access::write> out, uint2 gid [[thread_position_in_grid]]) {
    if (gid.x < out.get_width(1) && gid.y < out.get_height(1)) out.write(uint4(gid.x + 10 * gid.y), gid, 1);
}

// Writes the float4 of a buffer into every texel of a row.
kernel void write_values(texture2d<float, access::write> out [[texture(0)]], device const float4* values [[buffer(0)]],
                         uint gid [[thread_position_in_grid]]) {
    if (gid < out.get_width()) out.write(values[gid], uint2(gid, 0));
}
kernel void write_integers(texture2d<int, access::write> out [[texture(0)]], device const int4* values [[buffer(0)]],
                           uint gid [[thread_position_in_grid]]) {
    if (gid < out.get_width()) out.write(values[gid], uint2(gid, 0));
}

// Samples at the coordinates of a buffer with a constexpr sampler and with the bound one.
constexpr sampler kLinear(coord::normalized, address::clamp_to_edge, filter::linear);
kernel void sample_fixed(texture2d<float> in [[texture(0)]], device const float2* where [[buffer(0)]],
                         device float4* out [[buffer(1)]], constant uint& count [[buffer(2)]],
                         uint i [[thread_position_in_grid]]) {
    if (i < count) out[i] = in.sample(kLinear, where[i], level(0.0f)); // level 0, as without the option
}
kernel void sample_bound(texture2d<float> in [[texture(0)]], sampler s [[sampler(0)]],
                         device const float2* where [[buffer(0)]], device float4* out [[buffer(1)]],
                         constant uint& count [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    if (i < count) out[i] = in.sample(s, where[i]);
}

// Samples one point of a mipmapped texture at the level of detail lods[i], six ways.
constexpr sampler kMipNearest(filter::nearest, mip_filter::nearest);
constexpr sampler kMipLinear(filter::linear, mip_filter::linear);
constexpr sampler kNoMip(filter::nearest);
kernel void sample_lods(texture2d<float> in [[texture(0)]], sampler s [[sampler(0)]],
                        device const float* lods [[buffer(0)]], device float4* out [[buffer(1)]],
                        constant uint& count [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    if (i >= count) return;
    const float2 at = float2(0.3f, 0.6f);
    const float lod = lods[i];
    out[i * 6 + 0] = in.sample(kMipNearest, at, level(lod));
    out[i * 6 + 1] = in.sample(kMipLinear, at, level(lod));
    out[i * 6 + 2] = in.sample(kNoMip, at, level(lod));
    out[i * 6 + 3] = in.sample(kMipLinear, at, bias(lod));
    out[i * 6 + 4] = in.sample(kMipLinear, at, gradient2d(float2(exp2(lod) / 8.0f, 0.0f), float2(0.0f)));
    out[i * 6 + 5] = in.sample(s, at, level(lod));
}
)";

using Case = TextureCase;
using TextureKernels = TextureFixture<&kKernels>;

std::uint8_t unorm8(float v) { return static_cast<std::uint8_t>(std::nearbyint(std::clamp(v, 0.0f, 1.0f) * 255.0f)); }

// Test that a kernel writes RGBA8Unorm texels as MSL converts them (clamped, scaled, rounded
// to nearest even), and that texels outside the written region keep their canary.
TEST_P(TextureKernels, WriteConvertsToUnormAndStaysInItsRegion) {
    const unsigned W = 37, H = 23, w = 30, h = 19;
    MTL::Texture* out = texture(MTL::TextureType2D, MTL::PixelFormatRGBA8Unorm, W, H);
    std::vector<std::uint32_t> canary(W * H, 0xdeadbeefu);
    out->replaceRegion(MTL::Region(0, 0, W, H), 0, canary.data(), W * 4);
    const std::uint32_t size[2] = {w, h};
    dispatch(kernel("gradient"), MTL::Size(W, H, 1), [&](MTL::ComputeCommandEncoder* e) {
        e->setTexture(out, 0);
        e->setBytes(size, sizeof size, 0);
    });
    std::vector<std::uint8_t> texels(W * H * 4);
    out->getBytes(texels.data(), W * 4, MTL::Region(0, 0, W, H), 0);
    for (unsigned y = 0; y < H; ++y)
        for (unsigned x = 0; x < W; ++x) {
            const std::uint8_t* t = &texels[(y * W + x) * 4];
            if (x < w && y < h) {
                ASSERT_EQ(t[0], unorm8(x / 64.0f)) << x << "," << y;
                ASSERT_EQ(t[1], unorm8(y / 64.0f)) << x << "," << y;
                ASSERT_EQ(t[2], 128) << "0.5 * 255 = 127.5 rounds to even";
                ASSERT_EQ(t[3], 255);
            } else {
                std::uint32_t word;
                std::memcpy(&word, t, 4);
                ASSERT_EQ(word, 0xdeadbeefu) << "texel " << x << "," << y << " outside the region changed";
            }
        }
}

// Test the read conversions: snorm clamps -128 to -1, sRGB decodes colour but not alpha,
// BGRA swaps, half floats widen, and missing channels read as 0 with alpha 1.
TEST_P(TextureKernels, ReadConvertsEachFormat) {
    struct Format {
        MTL::PixelFormat format;
        std::vector<std::uint8_t> texel;
        float expected[4];
    };
    const std::uint16_t halfOne = 0x3c00, halfMinusTwo = 0xc000;
    std::vector<Format> formats = {
        {MTL::PixelFormatRG8Snorm, {0x80, 0x7f}, {-1.0f, 1.0f, 0.0f, 1.0f}},
        {MTL::PixelFormatR8Unorm, {51}, {0.2f, 0.0f, 0.0f, 1.0f}},
        {MTL::PixelFormatRGBA8Unorm_sRGB, {255, 188, 0, 188}, {1.0f, 0.502886f, 0.0f, 188 / 255.0f}},
        {MTL::PixelFormatBGRA8Unorm, {255, 0, 51, 102}, {0.2f, 0.0f, 1.0f, 0.4f}},
        {MTL::PixelFormatRG16Float,
         {std::uint8_t(halfOne), std::uint8_t(halfOne >> 8), std::uint8_t(halfMinusTwo), std::uint8_t(halfMinusTwo >> 8)},
         {1.0f, -2.0f, 0.0f, 1.0f}},
        {MTL::PixelFormatR16Snorm, {0x01, 0xc0}, {-16383 / 32767.0f, 0.0f, 0.0f, 1.0f}},
    };
    for (const Format& f : formats) {
        SCOPED_TRACE(static_cast<int>(f.format));
        const unsigned W = 5, H = 3;
        MTL::Texture* in = texture(MTL::TextureType2D, f.format, W, H);
        std::vector<std::uint8_t> texels;
        for (unsigned i = 0; i < W * H; ++i) texels.insert(texels.end(), f.texel.begin(), f.texel.end());
        in->replaceRegion(MTL::Region(0, 0, W, H), 0, texels.data(), W * f.texel.size());
        MTL::Buffer* out = buffer((W * H + 1) * 16);
        MTL::Buffer* sizes = buffer(16);
        dispatch(kernel("read_all"), MTL::Size(W, H, 1), [&](MTL::ComputeCommandEncoder* e) {
            e->setTexture(in, 0);
            e->setBuffer(out, 0, 0);
            e->setBuffer(sizes, 0, 1);
        });
        const float* values = static_cast<const float*>(out->contents());
        for (unsigned i = 0; i < W * H; ++i)
            for (int c = 0; c < 4; ++c) ASSERT_NEAR(values[i * 4 + c], f.expected[c], 1e-5f) << "texel " << i << " c" << c;
        for (int c = 0; c < 4; ++c) EXPECT_EQ(values[W * H * 4 + c], 0.0f) << "canary after the last texel";
        const std::uint32_t* seen = static_cast<const std::uint32_t*>(sizes->contents());
        EXPECT_EQ(seen[0], W);
        EXPECT_EQ(seen[1], H);
        EXPECT_EQ(seen[2], 1u);
    }
}

// Test a texture over a buffer: the kernel's texels land in the buffer's rows, bytesPerRow
// apart, and the padding between rows keeps its canary.
TEST_P(TextureKernels, TextureOverABufferWritesItsRows) {
    const unsigned W = 13, H = 6, pitch = 64, offset = 32;
    MTL::Buffer* memory = buffer(offset + pitch * H);
    std::memset(memory->contents(), 0x5a, memory->length());
    auto d = NS::TransferPtr(MTL::TextureDescriptor::alloc()->init());
    d->setPixelFormat(MTL::PixelFormatRGBA8Unorm);
    d->setWidth(W);
    d->setHeight(H);
    d->setUsage(MTL::TextureUsageShaderWrite);
    MTL::Texture* linear = own(memory->newTexture(d.get(), offset, pitch));
    ASSERT_NE(linear, nullptr);
    EXPECT_EQ(linear->buffer(), memory);
    EXPECT_EQ(linear->bufferOffset(), offset);
    EXPECT_EQ(linear->bufferBytesPerRow(), pitch);
    const std::uint32_t size[2] = {W, H};
    dispatch(kernel("gradient"), MTL::Size(W, H, 1), [&](MTL::ComputeCommandEncoder* e) {
        e->setTexture(linear, 0);
        e->setBytes(size, sizeof size, 0);
    });
    const std::uint8_t* bytes = static_cast<const std::uint8_t*>(memory->contents());
    for (unsigned i = 0; i < offset; ++i) ASSERT_EQ(bytes[i], 0x5a) << "before the texture";
    for (unsigned y = 0; y < H; ++y)
        for (unsigned b = 0; b < pitch; ++b) {
            const std::uint8_t got = bytes[offset + y * pitch + b];
            if (b >= W * 4) {
                ASSERT_EQ(got, 0x5a) << "row padding " << y << "," << b;
                continue;
            }
            const unsigned x = b / 4, c = b % 4;
            const std::uint8_t expected[4] = {unorm8(x / 64.0f), unorm8(y / 64.0f), 128, 255};
            ASSERT_EQ(got, expected[c]) << x << "," << y << " c" << c;
        }
}

// Test the write conversions: snorm and unorm clamp and round to nearest even, sRGB encodes
// colour but not alpha, half floats round, BGRA swaps, integers keep their low bits, and
// channels the format lacks are dropped.
TEST_P(TextureKernels, WriteConvertsEachFormat) {
    struct Format {
        MTL::PixelFormat format;
        float value[4];
        std::vector<std::uint8_t> expected;
    };
    const std::vector<Format> formats = {
        {MTL::PixelFormatRGBA8Snorm, {-2.0f, 1.0f, 0.5f, -0.5f}, {0x81, 0x7f, 64, 0xc0}},        // 63.5 -> 64
        {MTL::PixelFormatRG8Unorm, {2.5f / 255.0f, 3.5f / 255.0f, 9.0f, 9.0f}, {2, 4}},          // ties to even
        {MTL::PixelFormatRGBA8Unorm_sRGB, {0.5f, 0.0f, 1.0f, 0.5f}, {188, 0, 255, 128}},
        {MTL::PixelFormatBGRA8Unorm, {1.0f, 0.0f, 0.2f, 0.4f}, {51, 0, 255, 102}},
        {MTL::PixelFormatR16Float, {-2.0f, 7.0f, 7.0f, 7.0f}, {0x00, 0xc0}},
        {MTL::PixelFormatR16Unorm, {0.5f, 0.0f, 0.0f, 0.0f}, {0x00, 0x80}},                    // 32767.5 -> 32768
    };
    for (const Format& f : formats) {
        SCOPED_TRACE(static_cast<int>(f.format));
        const unsigned W = 9;
        MTL::Texture* out = texture(MTL::TextureType2D, f.format, W, 2);
        std::vector<float> values;
        for (unsigned i = 0; i < W; ++i) values.insert(values.end(), f.value, f.value + 4);
        MTL::Buffer* in = own(device_->newBuffer(values.data(), values.size() * 4, MTL::ResourceStorageModeShared));
        dispatch(kernel("write_values"), MTL::Size(W, 1, 1), [&](MTL::ComputeCommandEncoder* e) {
            e->setTexture(out, 0);
            e->setBuffer(in, 0, 0);
        });
        const std::size_t size = f.expected.size();
        std::vector<std::uint8_t> texels(W * 2 * size);
        out->getBytes(texels.data(), W * size, MTL::Region(0, 0, W, 2), 0);
        for (unsigned i = 0; i < W; ++i)
            for (std::size_t b = 0; b < size; ++b) ASSERT_EQ(texels[i * size + b], f.expected[b]) << "texel " << i << " byte " << b;
        for (unsigned i = W * size; i < texels.size(); ++i) ASSERT_EQ(texels[i], 0) << "row 1 is outside the grid";
    }
    MTL::Texture* integers = texture(MTL::TextureType2D, MTL::PixelFormatRG8Sint, 4, 1);
    const std::int32_t values[16] = {-1, 300, 0, 0, -1, 300, 0, 0, -1, 300, 0, 0, -1, 300, 0, 0};
    MTL::Buffer* in = own(device_->newBuffer(values, sizeof values, MTL::ResourceStorageModeShared));
    dispatch(kernel("write_integers"), MTL::Size(4, 1, 1), [&](MTL::ComputeCommandEncoder* e) {
        e->setTexture(integers, 0);
        e->setBuffer(in, 0, 0);
    });
    std::uint8_t texels[8];
    integers->getBytes(texels, 8, MTL::Region(0, 0, 4, 1), 0);
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(texels[2 * i], 0xff);
        EXPECT_EQ(texels[2 * i + 1], 300 & 0xff);
    }
}

// Test read_write: each texel read, changed and written back by its own thread.
TEST_P(TextureKernels, ReadWriteUpdatesInPlace) {
    const unsigned W = 33, H = 9;
    MTL::Texture* data = texture(MTL::TextureType2D, MTL::PixelFormatRGBA16Uint, W, H);
    std::vector<std::uint16_t> start(W * H * 4);
    for (unsigned i = 0; i < start.size(); ++i) start[i] = static_cast<std::uint16_t>(i);
    data->replaceRegion(MTL::Region(0, 0, W, H), 0, start.data(), W * 8);
    dispatch(kernel("accumulate"), MTL::Size(W, H, 1), [&](MTL::ComputeCommandEncoder* e) { e->setTexture(data, 0); });
    std::vector<std::uint16_t> end(W * H * 4);
    data->getBytes(end.data(), W * 8, MTL::Region(0, 0, W, H), 0);
    for (unsigned y = 0; y < H; ++y)
        for (unsigned x = 0; x < W; ++x)
            for (unsigned c = 0; c < 4; ++c) {
                const unsigned i = (y * W + x) * 4 + c;
                ASSERT_EQ(end[i], std::uint16_t(start[i] + (c == 0 ? x : c))) << x << "," << y << " c" << c;
            }
}

// Test the other texture types: 1D, 1D array, 2D array and 3D, and a level other than 0.
TEST_P(TextureKernels, EveryTextureType) {
    {
        MTL::Texture* in = texture(MTL::TextureType1D, MTL::PixelFormatRG32Sint, 41, 1);
        std::vector<std::int32_t> texels(41 * 2);
        for (unsigned i = 0; i < texels.size(); ++i) texels[i] = -int(i) * 1000;
        in->replaceRegion(MTL::Region(0, 41), 0, texels.data(), 0);
        MTL::Buffer* out = buffer(42 * 16);
        dispatch(kernel("copy_1d"), MTL::Size(41, 1, 1), [&](MTL::ComputeCommandEncoder* e) {
            e->setTexture(in, 0);
            e->setBuffer(out, 0, 0);
        });
        const std::int32_t* v = static_cast<const std::int32_t*>(out->contents());
        for (unsigned i = 0; i < 41; ++i) {
            ASSERT_EQ(v[i * 4], texels[i * 2]);
            ASSERT_EQ(v[i * 4 + 1], texels[i * 2 + 1]);
            ASSERT_EQ(v[i * 4 + 2], 0);
            ASSERT_EQ(v[i * 4 + 3], 1);
        }
        EXPECT_EQ(v[41 * 4], 0) << "canary";
    }
    {
        MTL::Texture* in = texture(MTL::TextureType1DArray, MTL::PixelFormatR16Uint, 13, 1, 3);
        for (unsigned slice = 0; slice < 3; ++slice) {
            std::vector<std::uint16_t> texels(13, std::uint16_t(100 * (slice + 1)));
            in->replaceRegion(MTL::Region(0, 13), 0, slice, texels.data(), 0, 0);
        }
        MTL::Buffer* out = buffer(13 * 3 * 8);
        dispatch(kernel("copy_1d_array"), MTL::Size(13, 3, 1), [&](MTL::ComputeCommandEncoder* e) {
            e->setTexture(in, 0);
            e->setBuffer(out, 0, 0);
        });
        const std::uint16_t* v = static_cast<const std::uint16_t*>(out->contents());
        for (unsigned i = 0; i < 13 * 3; ++i) ASSERT_EQ(v[i * 4], 100 * (i / 13 + 1)) << i;
    }
    {
        MTL::Texture* in = texture(MTL::TextureType2DArray, MTL::PixelFormatR32Float, 6, 5, 2);
        for (unsigned slice = 0; slice < 2; ++slice) {
            std::vector<float> texels(30);
            for (unsigned i = 0; i < 30; ++i) texels[i] = float(slice * 30 + i) * 0.5f;
            in->replaceRegion(MTL::Region(0, 0, 6, 5), 0, slice, texels.data(), 24, 0);
        }
        MTL::Buffer* out = buffer(60 * 8);
        dispatch(kernel("copy_2d_array"), MTL::Size(6, 5, 2), [&](MTL::ComputeCommandEncoder* e) {
            e->setTexture(in, 0);
            e->setBuffer(out, 0, 0);
        });
        const _Float16* v = static_cast<const _Float16*>(out->contents());
        for (unsigned i = 0; i < 60; ++i) ASSERT_EQ(float(v[i * 4]), float(i) * 0.5f) << i;
        // A 2D view of slice 1 reads that slice.
        MTL::Texture* slice = own(in->newTextureView(MTL::PixelFormatR32Float, MTL::TextureType2D, NS::Range(0, 1),
                                                     NS::Range(1, 1)));
        MTL::Buffer* texels = buffer(30 * 16);
        MTL::Buffer* sizes = buffer(16);
        dispatch(kernel("read_all"), MTL::Size(6, 5, 1), [&](MTL::ComputeCommandEncoder* e) {
            e->setTexture(slice, 0);
            e->setBuffer(texels, 0, 0);
            e->setBuffer(sizes, 0, 1);
        });
        const float* f = static_cast<const float*>(texels->contents());
        for (unsigned i = 0; i < 30; ++i) ASSERT_EQ(f[i * 4], float(30 + i) * 0.5f) << i;
    }
    {
        MTL::Texture* volume = texture(MTL::TextureType3D, MTL::PixelFormatRGBA32Float, 5, 4, 3);
        dispatch(kernel("fill_3d"), MTL::Size(5, 4, 3), [&](MTL::ComputeCommandEncoder* e) { e->setTexture(volume, 0); });
        std::vector<float> v(5 * 4 * 3 * 4);
        volume->getBytes(v.data(), 5 * 16, 5 * 16 * 4, MTL::Region(0, 0, 0, 5, 4, 3), 0, 0);
        for (unsigned z = 0; z < 3; ++z)
            for (unsigned y = 0; y < 4; ++y)
                for (unsigned x = 0; x < 5; ++x) {
                    const float* t = &v[((z * 4 + y) * 5 + x) * 4];
                    ASSERT_EQ(t[0], float(x));
                    ASSERT_EQ(t[1], float(y));
                    ASSERT_EQ(t[2], float(z));
                }
    }
    {
        MTL::Texture* mipped = texture(MTL::TextureType2D, MTL::PixelFormatR32Uint, 10, 6, 1, 3);
        dispatch(kernel("fill_level"), MTL::Size(5, 3, 1), [&](MTL::ComputeCommandEncoder* e) { e->setTexture(mipped, 0); });
        std::vector<std::uint32_t> level1(5 * 3), level0(10 * 6, 1);
        mipped->getBytes(level1.data(), 20, MTL::Region(0, 0, 5, 3), 1);
        mipped->getBytes(level0.data(), 40, MTL::Region(0, 0, 10, 6), 0);
        for (unsigned y = 0; y < 3; ++y)
            for (unsigned x = 0; x < 5; ++x) ASSERT_EQ(level1[y * 5 + x], x + 10 * y);
        EXPECT_EQ(level0, std::vector<std::uint32_t>(60, 0)) << "level 0 changed";
    }
}

// ---- Sampling --------------------------------------------------------------------------

/// A CPU model of a 2D sample of an R32Float texture at level 0.
float modelSample(const std::vector<float>& texels, int w, int h, float u, float v, bool linear,
                  MTL::SamplerAddressMode mode, bool normalized) {
    auto wrap = [&](int i, int n) -> int {
        switch (mode) {
        case MTL::SamplerAddressModeRepeat: return ((i % n) + n) % n;
        case MTL::SamplerAddressModeMirrorRepeat: {
            int m = ((i % (2 * n)) + 2 * n) % (2 * n);
            return m < n ? m : 2 * n - 1 - m;
        }
        case MTL::SamplerAddressModeClampToZero: return i < 0 || i >= n ? -1 : i;
        default: return std::clamp(i, 0, n - 1);
        }
    };
    auto at = [&](int x, int y) -> float {
        int ax = wrap(x, w), ay = wrap(y, h);
        if (ax < 0 || ay < 0) return 0.0f;
        return texels[ay * w + ax];
    };
    if (normalized) u *= w, v *= h;
    if (!linear) return at(int(std::floor(u)), int(std::floor(v)));
    u -= 0.5f, v -= 0.5f;
    const float fu = std::floor(u), fv = std::floor(v), a = u - fu, b = v - fv;
    const int x = int(fu), y = int(fv);
    return (at(x, y) * (1 - a) + at(x + 1, y) * a) * (1 - b) + (at(x, y + 1) * (1 - a) + at(x + 1, y + 1) * a) * b;
}

// Test sample() with the constexpr linear clamp_to_edge sampler and with bound samplers of
// each filter and address mode, in normalised and pixel coordinates, against the CPU model.
TEST_P(TextureKernels, SampleMatchesTheModel) {
    const int W = 7, H = 5;
    std::vector<float> texels(W * H);
    for (int i = 0; i < W * H; ++i) texels[i] = float((i * 37) % 23);
    MTL::Texture* in = texture(MTL::TextureType2D, MTL::PixelFormatR32Float, W, H);
    in->replaceRegion(MTL::Region(0, 0, W, H), 0, texels.data(), W * 4);
    std::vector<float> where;
    for (int i = 0; i < 45; ++i) where.insert(where.end(), {-0.4f + 0.037f * i, 1.3f - 0.041f * i});
    const std::uint32_t count = static_cast<std::uint32_t>(where.size() / 2);
    MTL::Buffer* coords = own(device_->newBuffer(where.data(), where.size() * 4, MTL::ResourceStorageModeShared));
    MTL::Buffer* out = buffer((count + 1) * 16);
    auto check = [&](bool linear, MTL::SamplerAddressMode mode, bool normalized, float scale) {
        const float* v = static_cast<const float*>(out->contents());
        for (std::uint32_t i = 0; i < count; ++i) {
            const float expected =
                modelSample(texels, W, H, where[2 * i] * scale, where[2 * i + 1] * scale, linear, mode, normalized);
            ASSERT_NEAR(v[i * 4], expected, 1e-3f) << "sample " << i << " linear " << linear << " mode " << mode;
            ASSERT_NEAR(v[i * 4 + 3], 1.0f, 1e-6f) << "R32Float has no alpha, and clamp_to_zero gives opaque zero";
        }
        EXPECT_EQ(v[count * 4], 0.0f) << "canary";
    };
    dispatch(kernel("sample_fixed"), MTL::Size(count, 1, 1), [&](MTL::ComputeCommandEncoder* e) {
        e->setTexture(in, 0);
        e->setBuffer(coords, 0, 0);
        e->setBuffer(out, 0, 1);
        e->setBytes(&count, 4, 2);
    });
    check(true, MTL::SamplerAddressModeClampToEdge, true, 1.0f);

    for (bool linear : {false, true})
        for (MTL::SamplerAddressMode mode : {MTL::SamplerAddressModeClampToEdge, MTL::SamplerAddressModeRepeat,
                                             MTL::SamplerAddressModeMirrorRepeat, MTL::SamplerAddressModeClampToZero})
            for (bool normalized : {true, false}) {
                auto d = NS::TransferPtr(MTL::SamplerDescriptor::alloc()->init());
                d->setMinFilter(linear ? MTL::SamplerMinMagFilterLinear : MTL::SamplerMinMagFilterNearest);
                d->setMagFilter(linear ? MTL::SamplerMinMagFilterLinear : MTL::SamplerMinMagFilterNearest);
                d->setSAddressMode(mode);
                d->setTAddressMode(mode);
                d->setNormalizedCoordinates(normalized);
                MTL::SamplerState* sampler = own(device_->newSamplerState(d.get()));
                const float scale = normalized ? 1.0f : 8.0f; // pixel coordinates reach past the edges too
                std::vector<float> scaled(where);
                for (float& c : scaled) c *= scale;
                MTL::Buffer* at = own(device_->newBuffer(scaled.data(), scaled.size() * 4, MTL::ResourceStorageModeShared));
                std::memset(out->contents(), 0, out->length());
                dispatch(kernel("sample_bound"), MTL::Size(count, 1, 1), [&](MTL::ComputeCommandEncoder* e) {
                    e->setTexture(in, 0);
                    e->setSamplerState(sampler, 0);
                    e->setBuffer(at, 0, 0);
                    e->setBuffer(out, 0, 1);
                    e->setBytes(&count, 4, 2);
                });
                check(linear, mode, normalized, scale);
            }
}

// Test that sample() with a level-of-detail option picks the mip level as the sampler's mip
// filter says (Apple's MTLSamplerMipFilter): nearest rounds to a level, linear interpolates
// between two, notMipmapped stays at level 0; bias adds to a kernel's level of detail 0,
// gradient2d takes log2 of the derivative in texels; a host sampler's lod clamps apply.
TEST_P(TextureKernels, SampleSelectsTheMipLevel) {
    const int kLevels = 4;
    MTL::Texture* in = texture(MTL::TextureType2D, MTL::PixelFormatR32Float, 8, 8, 1, kLevels);
    for (int l = 0; l < kLevels; ++l) {
        const int side = 8 >> l;
        std::vector<float> texels(side * side, float(l + 1)); // level l holds l + 1
        in->replaceRegion(MTL::Region(0, 0, side, side), l, texels.data(), side * 4);
    }
    const std::vector<float> lods = {-1.0f, 0.0f, 0.25f, 0.5f, 0.75f, 1.0f, 1.5f, 2.0f, 2.4f, 3.0f, 7.0f};
    const std::uint32_t count = static_cast<std::uint32_t>(lods.size());
    MTL::Buffer* at = own(device_->newBuffer(lods.data(), lods.size() * 4, MTL::ResourceStorageModeShared));
    MTL::Buffer* out = buffer((count * 6 + 1) * 16);
    auto d = NS::TransferPtr(MTL::SamplerDescriptor::alloc()->init());
    d->setMipFilter(MTL::SamplerMipFilterLinear);
    d->setLodMinClamp(0.5f);
    d->setLodMaxClamp(2.5f);
    MTL::SamplerState* clamped = own(device_->newSamplerState(d.get()));
    dispatch(kernel("sample_lods"), MTL::Size(count, 1, 1), [&](MTL::ComputeCommandEncoder* e) {
        e->setTexture(in, 0);
        e->setSamplerState(clamped, 0);
        e->setBuffer(at, 0, 0);
        e->setBuffer(out, 0, 1);
        e->setBytes(&count, 4, 2);
    });
    const float* v = static_cast<const float*>(out->contents());
    for (std::uint32_t i = 0; i < count; ++i) {
        const float lod = std::clamp(lods[i], 0.0f, float(kLevels - 1));
        const float nearest = lods[i] <= 0.0f ? 0.0f : std::min(std::ceil(lods[i] + 0.5f) - 1.0f, float(kLevels - 1));
        const float expected[6] = {nearest + 1, lod + 1, 1.0f, lod + 1, lod + 1, std::clamp(lods[i], 0.5f, 2.5f) + 1};
        for (int way = 0; way < 6; ++way)
            EXPECT_NEAR(v[(i * 6 + way) * 4], expected[way], 1e-3f) << "lod " << lods[i] << " way " << way;
    }
    EXPECT_EQ(v[count * 6 * 4], 0.0f) << "canary";
}

INSTANTIATE_TEST_SUITE_P(Shapes, TextureKernels,
                         ::testing::Values(Case{MTL::Size(1, 1, 1), false}, Case{MTL::Size(7, 5, 1), false},
                                           Case{MTL::Size(32, 1, 1), false}, Case{MTL::Size(7, 5, 1), true},
                                           Case{MTL::Size(1, 1, 1), true}));


// ---- Binding checks -----------------------------------------------------------------------

class TextureBindings : public MetalTest {
protected:
    void SetUp() override {
        MetalTest::SetUp();
        rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::NSLog,
                                      [this](const std::string& line) { reports_.push_back(line); });
    }
    void TearDown() override {
        rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::Off);
        MetalTest::TearDown();
    }
    std::vector<std::string> reports_;
};

const char* const kBindingKernels = R"(
#include <metal_stdlib>
using namespace metal;
kernel void copy(texture2d<float, access::read> in [[texture(0)]], texture2d<float, access::write> out [[texture(1)]],
                 uint2 gid [[thread_position_in_grid]]) {
    out.write(in.read(gid), gid);
}
kernel void cube(texturecube<float> c [[texture(0)]], device float* out [[buffer(0)]]) { out[0] = 1.0f; }
kernel void read_uint(texture2d<uint, access::read> t [[texture(0)]], device uint4* out [[buffer(0)]]) {
    out[0] = t.read(uint2(0, 0));
}
kernel void read_float(texture2d<half, access::read> t [[texture(0)]], device float4* out [[buffer(0)]]) {
    out[0] = float4(t.read(uint2(0, 0)));
}
)";

// Test that the debug layer reports a texture argument with nothing bound, a texture of the
// wrong type and usage without ShaderWrite, in Apple's words; without the layer an unbound
// texture reads zero and a wrong type fails the command buffer.
TEST_F(TextureBindings, ChecksAtDispatch) {
    MTL::ComputePipelineState* state = pipeline(kBindingKernels, "copy");
    ASSERT_NE(state, nullptr);
    auto make = [&](MTL::TextureType type, MTL::TextureUsage usage) {
        auto d = NS::TransferPtr(MTL::TextureDescriptor::alloc()->init());
        d->setTextureType(type);
        d->setWidth(4);
        d->setHeight(4);
        d->setUsage(usage);
        return NS::TransferPtr(device_->newTexture(d.get()));
    };
    auto in = make(MTL::TextureType2D, MTL::TextureUsageShaderRead);
    auto out = make(MTL::TextureType2D, MTL::TextureUsageShaderWrite);
    auto readOnly = make(MTL::TextureType2D, MTL::TextureUsageShaderRead);
    auto wrongType = make(MTL::TextureType2DArray, MTL::TextureUsageShaderWrite);
    std::vector<std::uint32_t> ones(16, 0xffffffffu), texels(16);
    out->replaceRegion(MTL::Region(0, 0, 4, 4), 0, ones.data(), 16);
    auto dispatch = [&](MTL::Texture* first, MTL::Texture* second) {
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setTexture(first, 0);
        encoder->setTexture(second, 1);
        encoder->dispatchThreads(MTL::Size(4, 4, 1), MTL::Size(3, 3, 1));
        encoder->endEncoding();
        return run(commandBuffer);
    };
    EXPECT_EQ(dispatch(in.get(), out.get()), MTL::CommandBufferStatusCompleted);
    EXPECT_TRUE(reports_.empty());

    EXPECT_EQ(dispatch(nullptr, out.get()), MTL::CommandBufferStatusError) << "the layer drops what it reports";
    ASSERT_EQ(reports_.size(), 1u);
    EXPECT_EQ(reports_[0], "validateComputeFunctionArguments:1096: failed assertion `Compute Function(copy): missing "
                           "texture binding at index 0 for in[0].'");
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::Off);
    EXPECT_EQ(dispatch(nullptr, out.get()), MTL::CommandBufferStatusCompleted);
    out->getBytes(texels.data(), 16, MTL::Region(0, 0, 4, 4), 0);
    EXPECT_EQ(texels, std::vector<std::uint32_t>(16, 0u)) << "an unbound texture reads as zero";
    EXPECT_EQ(dispatch(in.get(), wrongType.get()), MTL::CommandBufferStatusError);

    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::NSLog,
                                  [this](const std::string& line) { reports_.push_back(line); });
    dispatch(in.get(), wrongType.get());
    ASSERT_EQ(reports_.size(), 2u);
    EXPECT_NE(reports_[1].find("incorrect type of texture (3) bound at texture binding at index 1 (expect 2) for out[0]."),
              std::string::npos);
    dispatch(in.get(), readOnly.get());
    ASSERT_EQ(reports_.size(), 3u);
    EXPECT_NE(reports_[2].find("texture usage (0x1) doesn't specify MTLTextureUsageShaderWrite (0x2) for out[0]."),
              std::string::npos);
    state->release();
}

// Test that the debug layer reports a texture whose pixel format holds another kind of value
// than the argument's data type (uint on RGBA8Unorm, half on R32Uint), and accepts the
// matching pairs (uint on RGBA8Uint, half on RGBA8Unorm and R32Float).
TEST_F(TextureBindings, PixelFormatMustMatchTheDataType) {
    MTL::ComputePipelineState* readUint = pipeline(kBindingKernels, "read_uint");
    MTL::ComputePipelineState* readFloat = pipeline(kBindingKernels, "read_float");
    ASSERT_NE(readUint, nullptr);
    ASSERT_NE(readFloat, nullptr);
    auto out = NS::TransferPtr(device_->newBuffer(64, MTL::ResourceStorageModeShared));
    auto dispatch = [&](MTL::ComputePipelineState* state, MTL::PixelFormat format) {
        auto d = NS::TransferPtr(MTL::TextureDescriptor::alloc()->init());
        d->setPixelFormat(format);
        d->setWidth(2);
        d->setHeight(2);
        d->setUsage(MTL::TextureUsageShaderRead);
        auto texture = NS::TransferPtr(device_->newTexture(d.get()));
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setTexture(texture.get(), 0);
        encoder->setBuffer(out.get(), 0, 0);
        encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
        encoder->endEncoding();
        return run(commandBuffer);
    };
    EXPECT_EQ(dispatch(readUint, MTL::PixelFormatRGBA8Uint), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(dispatch(readFloat, MTL::PixelFormatRGBA8Unorm), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(dispatch(readFloat, MTL::PixelFormatR32Float), MTL::CommandBufferStatusCompleted);
    EXPECT_TRUE(reports_.empty()) << reports_.front();
    EXPECT_EQ(dispatch(readUint, MTL::PixelFormatRGBA8Unorm), MTL::CommandBufferStatusError);
    EXPECT_EQ(dispatch(readFloat, MTL::PixelFormatR32Uint), MTL::CommandBufferStatusError);
    ASSERT_EQ(reports_.size(), 2u);
    EXPECT_EQ(reports_[0], "validateComputeFunctionArguments:1105: failed assertion `Compute Function(read_uint): the "
                           "pixel format (MTLPixelFormatRGBA8Unorm) of the texture bound at texture binding at index 0 "
                           "for t[0] holds float values, but the argument's data type is uint (texture2d<uint, "
                           "access::read>).'");
    EXPECT_NE(reports_[1].find("(MTLPixelFormatR32Uint) of the texture bound at texture binding at index 0 for t[0] "
                               "holds uint values, but the argument's data type is float"),
              std::string::npos)
        << reports_[1];
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::Off);
    EXPECT_EQ(dispatch(readUint, MTL::PixelFormatRGBA8Unorm), MTL::CommandBufferStatusCompleted)
        << "without the layer the kernel reads the bytes, as Metal does";
    readUint->release();
    readFloat->release();
}

// Test that a texture type metalcpu does not bind yet fails pipeline creation with its name.
TEST_F(TextureBindings, UnsupportedTextureTypeFailsThePipeline) {
    MTL::Library* library = compile(kBindingKernels);
    ASSERT_NE(library, nullptr);
    MTL::Function* function = library->newFunction(NS::String::string("cube", NS::UTF8StringEncoding));
    NS::Error* error = nullptr;
    EXPECT_EQ(device_->newComputePipelineState(function, &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(text(error->localizedDescription()).find("argument 'c' of type texturecube<float> is not supported"),
              std::string::npos)
        << text(error->localizedDescription());
    function->release();
    library->release();
}

} // namespace
} // namespace metalcpu::testing
