// Textures reached other than by setTexture, and texture atomics, as translated Vulkan and
// WebGPU shaders use them: textures in argument buffers filled the Metal 3 way (the program
// writes each texture's gpuResourceID() at its member's offset: SPIRV-Cross's argument buffers
// for MoltenVK have this shape), and MSL 3.1's atomics on read_write uint and int textures
// (naga's WGSL texture atomics, SPIRV-Cross's image atomics). Runs at several threadgroup
// shapes (one thread, groups that are not multiples of 32, uneven grids), in both flavours;
// texels outside the grid and the words around an output keep their canaries.
#include "metal_test.h"
#include "texture_fixture.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

// SPIRV-Cross's argument-buffers-image-load-store.msl2.argument.comp, as it emits it.
struct spvDescriptorSetBuffer0
{
    texture2d<float, access::write> uImage [[id(0)]];
    texture2d<float> uImageRead [[id(1)]];
};

kernel void main0(constant spvDescriptorSetBuffer0& spvDescriptorSet0 [[buffer(0)]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    int2 coord = int2(gl_GlobalInvocationID.xy);
    spvDescriptorSet0.uImage.write(spvDescriptorSet0.uImageRead.read(uint2(coord)), uint2(coord));
}

// An array of textures beside a buffer pointer, and what the kernel sees of each.
struct Set {
    device uint* out [[id(0)]];
    array<texture2d<uint>, 2> layers [[id(1)]];
};
kernel void sum_layers(device const Set& set [[buffer(0)]], uint2 gid [[thread_position_in_grid]],
                       uint2 grid [[threads_per_grid]]) {
    if (all(gid == 0)) set.out[grid.x * grid.y] = set.layers[1].get_width() * 1000 + set.layers[0].get_height();
    set.out[gid.y * grid.x + gid.x] = set.layers[0].read(gid).x + set.layers[1].read(gid).x;
}

// Every thread adds 1 to texel (i % 4, 0) and raises texel (i % 4, 1) to at least i; texel
// (x, 2) counts the threads that saw an old value below 1000 in a compare-exchange loop adding
// 1000; the int texture keeps the minimum of -i, and its texel (1, 0) the exchanges' count.
kernel void texel_atomics(texture2d<uint, access::read_write> counts [[texture(0)]],
                          texture2d<int, access::read_write> lows [[texture(1)]],
                          device uint* before [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    before[i] = counts.atomic_fetch_add(uint2(i % 4, 0), 1u).x;
    counts.atomic_fetch_max(uint2(i % 4, 1), uint4(i));
    uint4 expected = counts.atomic_load(uint2(i % 4, 2));
    while (!counts.atomic_compare_exchange_weak(uint2(i % 4, 2), &expected, expected + uint4(1000))) {}
    lows.atomic_fetch_min(uint2(0, 0), -int(i));
    lows.atomic_exchange(uint2(1, 0), int4(7));
    counts.atomic_fetch_add(uint2(99, 99), 1u); // outside: dropped
}

// MSL 3.1's 64-bit texture atomics (naga's textureAtomicMax/Min on r64uint): texel (i % 3, 0)
// rises to the largest key of its threads, texel (i % 3, 1) falls to the smallest; the keys'
// high and low words order them differently, so a 32-bit max or min of either word is wrong.
kernel void texel_atomics64(texture2d<ulong, access::read_write> wide [[texture(0)]],
                            uint i [[thread_position_in_grid]]) {
    const ulong key = (ulong(i * 7919u % 101u) << 32) | ulong(0xFFFFFFFFu - i);
    wide.atomic_max(uint2(i % 3, 0), key);
    wide.atomic_min(uint2(i % 3, 1), ulong4(key));
    wide.atomic_max(uint2(5, 5), key); // outside: dropped
}
)";

using TextureResources = TextureFixture<&kKernels>;

/// Binds an argument buffer at index 0 and makes `resources` resident, as a Metal program must.
auto arguments(MTL::Buffer* buffer, std::vector<MTL::Resource*> resources) {
    return [=](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(buffer, 0, 0);
        for (MTL::Resource* r : resources) e->useResource(r, MTL::ResourceUsageRead | MTL::ResourceUsageWrite);
    };
}

// Test SPIRV-Cross's kernel: it copies the texels of the grid from one texture to the other
// through the resource IDs, and the texels beyond the grid keep their canary.
TEST_P(TextureResources, SpirvCrossImageCopy) {
    const unsigned W = 21, H = 13, w = 19, h = 11;
    MTL::Texture* src = texture(MTL::TextureType2D, MTL::PixelFormatRGBA32Float, W, H);
    MTL::Texture* dst = texture(MTL::TextureType2D, MTL::PixelFormatRGBA32Float, W, H);
    std::vector<float> texels(W * H * 4), canary(W * H * 4, -7.0f);
    for (std::size_t i = 0; i < texels.size(); ++i) texels[i] = float(i) * 0.25f;
    src->replaceRegion(MTL::Region(0, 0, W, H), 0, texels.data(), W * 16);
    dst->replaceRegion(MTL::Region(0, 0, W, H), 0, canary.data(), W * 16);
    MTL::Buffer* set = buffer(16);
    const MTL::ResourceID ids[2] = {dst->gpuResourceID(), src->gpuResourceID()};
    ASSERT_NE(ids[0]._impl, 0u);
    ASSERT_NE(ids[0]._impl, ids[1]._impl);
    EXPECT_EQ(dst->gpuResourceID()._impl, ids[0]._impl) << "a texture's ID does not change";
    std::memcpy(set->contents(), ids, sizeof ids);
    dispatch(kernel("main0"), MTL::Size(w, h, 1), arguments(set, {src, dst}));
    std::vector<float> got(W * H * 4);
    dst->getBytes(got.data(), W * 16, MTL::Region(0, 0, W, H), 0);
    for (unsigned y = 0; y < H; ++y)
        for (unsigned x = 0; x < W; ++x)
            for (unsigned c = 0; c < 4; ++c) {
                const std::size_t i = (y * W + x) * 4 + c;
                ASSERT_EQ(got[i], x < w && y < h ? texels[i] : -7.0f) << x << "," << y << "," << c;
            }
}

// Test an array of textures after a buffer pointer in a device argument buffer: reads from
// both layers, their sizes, and the output's canaries.
TEST_P(TextureResources, TextureArrayBesideABuffer) {
    const unsigned W = 9, H = 5;
    MTL::Texture* layers[2] = {texture(MTL::TextureType2D, MTL::PixelFormatR32Uint, W, H), texture(MTL::TextureType2D, MTL::PixelFormatR32Uint, W + 3, H)};
    for (unsigned l = 0; l < 2; ++l) {
        std::vector<std::uint32_t> values((W + 3) * H);
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = (l + 1) * 100000u + std::uint32_t(i);
        layers[l]->replaceRegion(MTL::Region(0, 0, layers[l]->width(), H), 0, values.data(), layers[l]->width() * 4);
    }
    const std::uint32_t kCanary = 0xC0FFEE11u;
    MTL::Buffer* out = buffer((W * H + 3) * 4);
    auto* words = static_cast<std::uint32_t*>(out->contents());
    for (unsigned i = 0; i < W * H + 3; ++i) words[i] = kCanary;
    MTL::Buffer* set = buffer(24);
    const std::uint64_t members[3] = {out->gpuAddress() + 4, layers[0]->gpuResourceID()._impl,
                                      layers[1]->gpuResourceID()._impl};
    std::memcpy(set->contents(), members, sizeof members);
    dispatch(kernel("sum_layers"), MTL::Size(W, H, 1), arguments(set, {out, layers[0], layers[1]}));
    EXPECT_EQ(words[0], kCanary);
    for (unsigned y = 0; y < H; ++y)
        for (unsigned x = 0; x < W; ++x)
            ASSERT_EQ(words[1 + y * W + x], 100000u + (y * W + x) + 200000u + (y * (W + 3) + x)) << x << "," << y;
    EXPECT_EQ(words[1 + W * H], (W + 3) * 1000u + H);
    EXPECT_EQ(words[2 + W * H], kCanary);
}

// Test the texture atomics: contended adds count every thread and return distinct old values,
// max and min keep the extremes, a compare-exchange loop adds once per thread, an exchange
// lands, and a texel outside the texture is left alone.
TEST_P(TextureResources, TexelAtomics) {
    const unsigned threads = 77;
    MTL::Texture* counts = texture(MTL::TextureType2D, MTL::PixelFormatR32Uint, 4, 3);
    MTL::Texture* lows = texture(MTL::TextureType2D, MTL::PixelFormatR32Sint, 2, 1);
    std::vector<std::uint32_t> zero(12, 0);
    counts->replaceRegion(MTL::Region(0, 0, 4, 3), 0, zero.data(), 16);
    const std::int32_t start[2] = {5, 0};
    lows->replaceRegion(MTL::Region(0, 0, 2, 1), 0, start, 8);
    MTL::Buffer* before = buffer(threads * 4);
    dispatch(kernel("texel_atomics"), MTL::Size(threads, 1, 1), [&](MTL::ComputeCommandEncoder* e) {
        e->setTexture(counts, 0);
        e->setTexture(lows, 1);
        e->setBuffer(before, 0, 0);
    });
    std::vector<std::uint32_t> got(12);
    counts->getBytes(got.data(), 16, MTL::Region(0, 0, 4, 3), 0);
    for (unsigned x = 0; x < 4; ++x) {
        const unsigned mine = (threads - x + 3) / 4; // threads with i % 4 == x
        EXPECT_EQ(got[x], mine) << x;
        EXPECT_EQ(got[4 + x], threads - 1 - (threads - 1 + 4 - x) % 4) << x;
        EXPECT_EQ(got[8 + x], 1000u * mine) << x;
        std::vector<bool> seen(mine, false); // each old value once: 0, 1, ..., mine - 1
        for (unsigned i = x; i < threads; i += 4) {
            const std::uint32_t old = static_cast<std::uint32_t*>(before->contents())[i];
            ASSERT_LT(old, mine) << i;
            EXPECT_FALSE(seen[old]) << "old value " << old << " returned twice";
            seen[old] = true;
        }
    }
    std::int32_t ints[2];
    lows->getBytes(ints, 8, MTL::Region(0, 0, 2, 1), 0);
    EXPECT_EQ(ints[0], -static_cast<std::int32_t>(threads - 1));
    EXPECT_EQ(ints[1], 7);
}

// Test the 64-bit atomics: every texel holds the max (row 0) or min (row 1) of its threads'
// 64-bit keys; the third row, which no thread names, keeps its canary.
TEST_P(TextureResources, TexelAtomics64) {
    const unsigned threads = 61;
    MTL::Texture* wide = texture(MTL::TextureType2D, MTL::PixelFormatRG32Uint, 3, 3);
    std::vector<std::uint64_t> start(9, 0);
    for (unsigned x = 0; x < 3; ++x) start[3 + x] = ~0ull, start[6 + x] = 0x5A5A5A5A5A5A5A5Aull;
    wide->replaceRegion(MTL::Region(0, 0, 3, 3), 0, start.data(), 24);
    dispatch(kernel("texel_atomics64"), MTL::Size(threads, 1, 1), [&](MTL::ComputeCommandEncoder* e) {
        e->setTexture(wide, 0);
    });
    std::vector<std::uint64_t> got(9);
    wide->getBytes(got.data(), 24, MTL::Region(0, 0, 3, 3), 0);
    for (unsigned x = 0; x < 3; ++x) {
        std::uint64_t most = 0, least = ~0ull;
        for (unsigned i = x; i < threads; i += 3) {
            const std::uint64_t key = (std::uint64_t(i * 7919u % 101u) << 32) | (0xFFFFFFFFu - i);
            most = std::max(most, key);
            least = std::min(least, key);
        }
        EXPECT_EQ(got[x], most) << x;
        EXPECT_EQ(got[3 + x], least) << x;
        EXPECT_EQ(got[6 + x], 0x5A5A5A5A5A5A5A5Aull) << x;
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, TextureResources,
                         ::testing::Values(TextureCase{MTL::Size(1, 1, 1), false}, TextureCase{MTL::Size(7, 5, 1), false},
                                           TextureCase{MTL::Size(32, 1, 1), false}, TextureCase{MTL::Size(7, 5, 1), true},
                                           TextureCase{MTL::Size(1, 1, 1), true}));

} // namespace
} // namespace metalcpu::testing
