// MTL::ArgumentEncoder end to end: an argument buffer encoded through
// Function::newArgumentEncoder (the layout of the kernel's own struct of [[id(n)]] members) or
// Device::newArgumentEncoder (ArgumentDescriptors), read by a kernel: buffers with offsets,
// textures, samplers, constant data, arrays of them, and an array of argument buffers
// (setArgumentBuffer's arrayElement form). Samplers also through gpuResourceID() written by
// hand, as Metal 3 programs fill Tier 2 argument buffers. Runs at several threadgroup shapes, in
// both flavours; outputs keep their canaries. Bad input is refused with a message, never a crash.
#include "metal_test.h"
#include "reported_mistakes.h"
#include "texture_fixture.h"


#include <Metal/MTLArgumentEncoder.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

// Tier 1 style: every member carries its id; ids need not be contiguous.
struct Resources {
    device float* out [[id(0)]];
    device const float* in [[id(1)]];
    float scale [[id(2)]];
    texture2d<float> image [[id(4)]];
    sampler pick [[id(5)]];
    uint2 size [[id(6)]];
};
kernel void encoded(constant Resources& r [[buffer(1)]], uint2 gid [[thread_position_in_grid]]) {
    if (any(gid >= r.size)) return;
    const uint i = gid.y * r.size.x + gid.x;
    const float2 coord = (float2(gid) + 0.5f) / float2(r.size);
    r.out[i] = r.in[i] * r.scale + r.image.sample(r.pick, coord).x;
}

// Arrays: ids 0..2 are the buffers, 3..4 the samplers (a member without [[id]] follows on).
struct Lists {
    device uint* outs[3] [[id(0)]];
    sampler modes[2];
    texture2d<float> image [[id(7)]];
};
kernel void listed(device const Lists& l [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    const float x = -0.25f; // left of the texture: the two samplers' address modes differ
    l.outs[i % 3][i / 3] = uint(l.image.sample(l.modes[i % 2], float2(x, 0.5f)).x) * 10 + i % 2;
}

// An array of argument buffers: each element its own struct.
struct Item {
    device int* target [[id(0)]];
    int add [[id(1)]];
};
kernel void items(constant Item* list [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    device int* target = list[i].target;
    *target += list[i].add;
}

kernel void plain(device float* data [[buffer(0)]], uint i [[thread_position_in_grid]]) { data[i] = 1.0f; }
)";

using ArgumentEncoderTest = TextureFixture<&kKernels>;

MTL::Function* functionOf(MTL::Library* library, const char* name) {
    return library->newFunction(NS::String::string(name, NS::UTF8StringEncoding));
}

MTL::SamplerState* samplerWith(MTL::Device* device, MTL::SamplerAddressMode mode, MTL::SamplerMinMagFilter filter) {
    auto d = NS::TransferPtr(MTL::SamplerDescriptor::alloc()->init());
    d->setSAddressMode(mode);
    d->setTAddressMode(mode);
    d->setMinFilter(filter);
    d->setMagFilter(filter);
    d->setBorderColor(MTL::SamplerBorderColorOpaqueWhite);
    return device->newSamplerState(d.get());
}

// Test the reflected layout: every kind of member written by the encoder, at an offset inside
// the argument buffer and a buffer offset, read by the kernel; the output's canaries stay.
TEST_P(ArgumentEncoderTest, KernelReadsWhatTheEncoderWrote) {
    const unsigned W = 11, H = 6;
    MTL::Function* function = own(functionOf(library_, "encoded"));
    MTL::ArgumentEncoder* encoder = own(function->newArgumentEncoder(1));
    ASSERT_NE(encoder, nullptr);
    EXPECT_GE(encoder->encodedLength(), 48u); // 3 pointers/IDs, a float, a uint2
    EXPECT_EQ(encoder->alignment(), 8u);
    EXPECT_EQ(encoder->device(), device_);

    const std::uint32_t kCanary = 0xC0FFEE11u;
    MTL::Buffer* out = buffer((W * H + 2) * 4);
    auto* words = static_cast<std::uint32_t*>(out->contents());
    for (unsigned i = 0; i < W * H + 2; ++i) words[i] = kCanary;
    MTL::Buffer* in = buffer((W * H + 5) * 4);
    auto* inputs = static_cast<float*>(in->contents());
    for (unsigned i = 0; i < W * H + 5; ++i) inputs[i] = float(i);
    MTL::Texture* image = texture(MTL::TextureType2D, MTL::PixelFormatR32Float, W, H);
    std::vector<float> texels(W * H);
    for (unsigned i = 0; i < W * H; ++i) texels[i] = 1000.0f * float(i + 1);
    image->replaceRegion(MTL::Region(0, 0, W, H), 0, texels.data(), W * 4);
    MTL::SamplerState* nearest = own(samplerWith(device_, MTL::SamplerAddressModeClampToEdge, MTL::SamplerMinMagFilterNearest));

    const NS::UInteger at = 64; // the struct starts inside the buffer
    MTL::Buffer* arguments = buffer(at + encoder->encodedLength());
    std::memset(arguments->contents(), 0xAB, arguments->length());
    encoder->setArgumentBuffer(arguments, at);
    encoder->setBuffer(out, 4, 0);
    encoder->setBuffer(in, 20, 1); // in[i] reads inputs[i + 5]
    *static_cast<float*>(encoder->constantData(2)) = 3.0f;
    encoder->setTexture(image, 4);
    encoder->setSamplerState(nearest, 5);
    const std::uint32_t size[2] = {W, H};
    std::memcpy(encoder->constantData(6), size, sizeof size);
    EXPECT_EQ(static_cast<unsigned char*>(arguments->contents())[at - 1], 0xAB) << "wrote before the offset";

    dispatch(kernel("encoded"), MTL::Size(W + 3, H + 1, 1), [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(arguments, at, 1);
        e->useResource(out, MTL::ResourceUsageWrite);
        e->useResource(in, MTL::ResourceUsageRead);
        e->useResource(image, MTL::ResourceUsageRead);
    });
    EXPECT_EQ(words[0], kCanary);
    const float* results = reinterpret_cast<const float*>(words + 1);
    for (unsigned i = 0; i < W * H; ++i) ASSERT_EQ(results[i], inputs[i + 5] * 3.0f + texels[i]) << i;
    EXPECT_EQ(words[1 + W * H], kCanary);
}

// Test arrays of buffers and samplers (ids across elements, an id that follows on from the
// previous member) through setBuffers/setSamplerStates/setTextures.
TEST_P(ArgumentEncoderTest, ArraysOfResources) {
    const unsigned threads = 13;
    MTL::Function* function = own(functionOf(library_, "listed"));
    MTL::ArgumentEncoder* encoder = own(function->newArgumentEncoder(0));
    ASSERT_NE(encoder, nullptr);
    MTL::Buffer* outs[3] = {buffer(64), buffer(64), buffer(64)};
    for (MTL::Buffer* b : outs) std::memset(b->contents(), 0xEE, 64);
    MTL::Texture* image = texture(MTL::TextureType2D, MTL::PixelFormatR32Float, 4, 1);
    const float texels[4] = {7.0f, 8.0f, 9.0f, 5.0f};
    image->replaceRegion(MTL::Region(0, 0, 4, 1), 0, texels, 16);
    // clamp_to_edge reads texel 0 (7); clamp_to_border with an opaque white border reads 1.
    MTL::SamplerState* modes[2] = {
        own(samplerWith(device_, MTL::SamplerAddressModeClampToEdge, MTL::SamplerMinMagFilterNearest)),
        own(samplerWith(device_, MTL::SamplerAddressModeClampToBorderColor, MTL::SamplerMinMagFilterNearest))};
    MTL::Buffer* arguments = buffer(encoder->encodedLength());
    encoder->setArgumentBuffer(arguments, 0);
    const NS::UInteger offsets[3] = {4, 8, 12}; // buffer b's words from b + 1
    encoder->setBuffers(outs, offsets, NS::Range(0, 3));
    encoder->setSamplerStates(modes, NS::Range(3, 2));
    encoder->setTextures(&image, NS::Range(7, 1));
    dispatch(kernel("listed"), MTL::Size(threads, 1, 1), [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(arguments, 0, 0);
        for (MTL::Buffer* b : outs) e->useResource(b, MTL::ResourceUsageWrite);
        e->useResource(image, MTL::ResourceUsageRead);
    });
    for (unsigned b = 0; b < 3; ++b) {
        auto* words = static_cast<std::uint32_t*>(outs[b]->contents());
        EXPECT_EQ(words[b], 0xEEEEEEEEu) << "canary before buffer " << b << "'s offset";
        for (unsigned i = b, k = 0; i < threads; i += 3, ++k)
            ASSERT_EQ(words[b + 1 + k], i % 2 ? 11u : 70u) << "thread " << i;
        EXPECT_EQ(words[b + 1 + (threads - b + 2) / 3], 0xEEEEEEEEu) << "canary after buffer " << b;
    }
}

// Test setArgumentBuffer's arrayElement form: element i of an array of structs, each laid out
// encodedLength rounded to alignment apart, as the kernel's `constant Item*` indexes them.
TEST_P(ArgumentEncoderTest, ArrayOfArgumentBuffers) {
    const unsigned count = 9;
    MTL::Function* function = own(functionOf(library_, "items"));
    MTL::ArgumentEncoder* encoder = own(function->newArgumentEncoder(0));
    ASSERT_NE(encoder, nullptr);
    EXPECT_EQ(encoder->encodedLength(), 16u);
    MTL::Buffer* targets = buffer((count + 2) * 4);
    auto* ints = static_cast<std::int32_t*>(targets->contents());
    for (unsigned i = 0; i < count + 2; ++i) ints[i] = 100;
    MTL::Buffer* list = buffer(count * 16);
    for (unsigned i = 0; i < count; ++i) {
        encoder->setArgumentBuffer(list, 0, i);
        encoder->setBuffer(targets, 4 * (count - i), 0); // element i adds to ints[count - i]
        *static_cast<std::int32_t*>(encoder->constantData(1)) = int(i) * 3 - 5;
    }
    dispatch(kernel("items"), MTL::Size(count, 1, 1), [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(list, 0, 0);
        e->useResource(targets, MTL::ResourceUsageRead | MTL::ResourceUsageWrite);
    });
    EXPECT_EQ(ints[0], 100) << "canary";
    for (unsigned i = 0; i < count; ++i) EXPECT_EQ(ints[count - i], 100 + int(i) * 3 - 5) << i;
    EXPECT_EQ(ints[count + 1], 100) << "canary";
}

// Test an encoder made from ArgumentDescriptors: the kernel's struct with the same members in
// index order reads what it wrote.
TEST_P(ArgumentEncoderTest, EncoderFromDescriptors) {
    const unsigned W = 5, H = 3;
    auto describe = [](MTL::DataType type, NS::UInteger index) {
        MTL::ArgumentDescriptor* d = MTL::ArgumentDescriptor::argumentDescriptor();
        d->setDataType(type);
        d->setIndex(index);
        return d;
    };
    const NS::Object* members[] = {describe(MTL::DataTypePointer, 0), describe(MTL::DataTypePointer, 1),
                                   describe(MTL::DataTypeFloat, 2),   describe(MTL::DataTypeTexture, 4),
                                   describe(MTL::DataTypeSampler, 5), describe(MTL::DataTypeUInt2, 6)};
    MTL::ArgumentEncoder* encoder = own(device_->newArgumentEncoder(NS::Array::array(members, 6)));
    ASSERT_NE(encoder, nullptr);
    MTL::ArgumentEncoder* reflected = own(own(functionOf(library_, "encoded"))->newArgumentEncoder(1));
    ASSERT_NE(reflected, nullptr);
    EXPECT_EQ(encoder->encodedLength(), reflected->encodedLength());
    EXPECT_EQ(encoder->alignment(), reflected->alignment());

    MTL::Buffer* out = buffer(W * H * 4);
    MTL::Buffer* in = buffer(W * H * 4);
    for (unsigned i = 0; i < W * H; ++i) static_cast<float*>(in->contents())[i] = float(i);
    MTL::Texture* image = texture(MTL::TextureType2D, MTL::PixelFormatR32Float, 1, 1);
    const float one = 0.5f;
    image->replaceRegion(MTL::Region(0, 0, 1, 1), 0, &one, 4);
    MTL::SamplerState* sampler = own(samplerWith(device_, MTL::SamplerAddressModeRepeat, MTL::SamplerMinMagFilterLinear));
    MTL::Buffer* arguments = buffer(encoder->encodedLength());
    encoder->setArgumentBuffer(arguments, 0);
    encoder->setBuffer(out, 0, 0);
    encoder->setBuffer(in, 0, 1);
    *static_cast<float*>(encoder->constantData(2)) = -2.0f;
    encoder->setTexture(image, 4);
    encoder->setSamplerState(sampler, 5);
    const std::uint32_t size[2] = {W, H};
    std::memcpy(encoder->constantData(6), size, sizeof size);
    dispatch(kernel("encoded"), MTL::Size(W, H, 1), [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(arguments, 0, 1);
        e->useResource(out, MTL::ResourceUsageWrite);
        e->useResource(in, MTL::ResourceUsageRead);
        e->useResource(image, MTL::ResourceUsageRead);
    });
    for (unsigned i = 0; i < W * H; ++i) ASSERT_EQ(static_cast<float*>(out->contents())[i], -2.0f * float(i) + 0.5f) << i;
}

// Test a Tier 2 argument buffer filled by hand: a sampler's gpuResourceID() at a sampler
// member's offset, as a texture's; a sampler member that was never written reads as MSL's
// default sampler (normalised coordinates, nearest, clamp_to_edge).
TEST_P(ArgumentEncoderTest, SamplerResourceIdsWrittenByHand) {
    const unsigned W = 7, H = 2;
    MTL::Texture* image = texture(MTL::TextureType2D, MTL::PixelFormatR32Float, 2, 1);
    const float texels[2] = {3.0f, 4.0f};
    image->replaceRegion(MTL::Region(0, 0, 2, 1), 0, texels, 8);
    // Pixel coordinates: the kernel's coordinates (below 1) all fall in texel 0.
    auto pixels = NS::TransferPtr(MTL::SamplerDescriptor::alloc()->init());
    pixels->setNormalizedCoordinates(false);
    MTL::SamplerState* border = own(device_->newSamplerState(pixels.get()));
    ASSERT_NE(border->gpuResourceID()._impl, 0u);
    EXPECT_EQ(border->gpuResourceID()._impl, border->gpuResourceID()._impl);
    for (const bool written : {true, false}) {
        MTL::Buffer* out = buffer((W * H + 2) * 4);
        auto* words = static_cast<std::uint32_t*>(out->contents());
        for (unsigned i = 0; i < W * H + 2; ++i) words[i] = 0xC0FFEE11u;
        MTL::Buffer* in = buffer(W * H * 4);
        MTL::Buffer* arguments = buffer(64);
        // Resources' layout: out, in, scale (4 bytes, padded), image, pick, size.
        const std::uint64_t members[5] = {out->gpuAddress() + 4, in->gpuAddress(), 0, image->gpuResourceID()._impl,
                                          written ? border->gpuResourceID()._impl : 0};
        std::memcpy(arguments->contents(), members, sizeof members);
        const std::uint32_t size[2] = {W, H};
        std::memcpy(static_cast<char*>(arguments->contents()) + 40, size, sizeof size);
        dispatch(kernel("encoded"), MTL::Size(W, H, 1), [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(arguments, 0, 1);
            e->useResource(out, MTL::ResourceUsageWrite);
            e->useResource(in, MTL::ResourceUsageRead);
            e->useResource(image, MTL::ResourceUsageRead);
        });
        EXPECT_EQ(words[0], 0xC0FFEE11u);
        EXPECT_EQ(words[1 + W * H], 0xC0FFEE11u);
        // The default sampler: texel centres of a 7x2 grid over a 2x1 texture, x < 3.5 reads
        // texel 0; the pixel-coordinate sampler reads texel 0 everywhere.
        for (unsigned y = 0; y < H; ++y)
            for (unsigned x = 0; x < W; ++x) {
                const float got = reinterpret_cast<const float*>(words + 1)[y * W + x];
                ASSERT_EQ(got, !written && (x + 0.5f) / W >= 0.5f ? 4.0f : 3.0f) << x << "," << y << " written " << written;
            }
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, ArgumentEncoderTest,
                         ::testing::Values(TextureCase{MTL::Size(1, 1, 1), false}, TextureCase{MTL::Size(7, 5, 1), false},
                                           TextureCase{MTL::Size(32, 1, 1), false}, TextureCase{MTL::Size(7, 5, 1), true},
                                           TextureCase{MTL::Size(1, 1, 1), true}));

// Bad input: each mistake is refused with a message that names it, and nothing is written.
using ArgumentEncoderMistakes = ReportedMistakes<&kKernels>;

// Test an index the function has no buffer at, and a buffer that is not an argument buffer.
TEST_F(ArgumentEncoderMistakes, NoArgumentBufferAtTheIndex) {
    auto function = NS::TransferPtr(functionOf(library_, "encoded"));
    EXPECT_EQ(function->newArgumentEncoder(0), nullptr);
    EXPECT_TRUE(reported("has no buffer at index 0")) << ::testing::PrintToString(reports_);
    auto other = NS::TransferPtr(functionOf(library_, "plain"));
    EXPECT_EQ(other->newArgumentEncoder(0), nullptr);
    EXPECT_TRUE(reported("is not an argument buffer")) << ::testing::PrintToString(reports_);
}

// Test writes to an index the encoder lacks, of the wrong kind, without a buffer, and into an
// argument buffer too small for the struct: each refused, no byte outside written.
TEST_F(ArgumentEncoderMistakes, BadWritesAreRefused) {
    auto function = NS::TransferPtr(functionOf(library_, "encoded"));
    auto encoder = NS::TransferPtr(function->newArgumentEncoder(1));
    ASSERT_NE(encoder.get(), nullptr);
    auto data = NS::TransferPtr(device_->newBuffer(64, MTL::ResourceStorageModeShared));
    encoder->setBuffer(data.get(), 0, 0);
    EXPECT_TRUE(reported("no argument buffer set")) << ::testing::PrintToString(reports_);

    auto small = NS::TransferPtr(device_->newBuffer(24, MTL::ResourceStorageModeShared));
    std::memset(small->contents(), 0x5A, 24);
    encoder->setArgumentBuffer(small.get(), 8);
    EXPECT_TRUE(reported("must be >= encodedLength")) << ::testing::PrintToString(reports_);
    encoder->setBuffer(data.get(), 0, 0);         // offset 8: fits
    encoder->setTexture(nullptr, 4);              // beyond the end: refused
    EXPECT_TRUE(reported("lies outside the argument buffer")) << ::testing::PrintToString(reports_);
    encoder->setBuffer(data.get(), 0, 3);         // no id 3
    EXPECT_TRUE(reported("index (3) is not an argument of this encoder")) << ::testing::PrintToString(reports_);
    encoder->setTexture(nullptr, 0);              // id 0 is a buffer
    EXPECT_TRUE(reported("is a buffer, not a texture")) << ::testing::PrintToString(reports_);
    EXPECT_EQ(encoder->constantData(0), nullptr); // a buffer, not constant data
    const auto* bytes = static_cast<const unsigned char*>(small->contents());
    for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(bytes[i], 0x5A) << i;
    std::uint64_t written;
    std::memcpy(&written, bytes + 8, 8);
    EXPECT_EQ(written, data->gpuAddress());
    for (unsigned i = 16; i < 24; ++i) EXPECT_EQ(bytes[i], 0x5A) << i;
}

// Test descriptors that cannot make an encoder: none, unsorted, and a data type no argument
// buffer here holds.
TEST_F(ArgumentEncoderMistakes, BadDescriptors) {
    EXPECT_EQ(device_->newArgumentEncoder(NS::Array::array()), nullptr);
    EXPECT_TRUE(reported("arguments must not be empty"));
    MTL::ArgumentDescriptor* a = MTL::ArgumentDescriptor::argumentDescriptor();
    a->setDataType(MTL::DataTypePointer);
    a->setIndex(3);
    MTL::ArgumentDescriptor* b = MTL::ArgumentDescriptor::argumentDescriptor();
    b->setDataType(MTL::DataTypePointer);
    b->setIndex(1);
    const NS::Object* unsorted[] = {a, b};
    EXPECT_EQ(device_->newArgumentEncoder(NS::Array::array(unsorted, 2)), nullptr);
    EXPECT_TRUE(reported("sorted by index"));
    b->setIndex(4);
    b->setDataType(MTL::DataTypeComputePipeline);
    EXPECT_EQ(device_->newArgumentEncoder(NS::Array::array(unsorted, 2)), nullptr);
    EXPECT_TRUE(reported("cannot hold")) << ::testing::PrintToString(reports_);
}

} // namespace
} // namespace metalcpu::testing
