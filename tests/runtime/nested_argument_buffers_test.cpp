// Argument buffers that point at argument buffers, and the argument-buffer shapes generated
// code writes: ArgumentEncoder::newArgumentEncoder(id) for a member that points at another
// struct (two levels, and a list whose struct points at itself); structs whose ids are all
// implied (Metal 3 style, a sampler among them); SPIRV-Cross's spvUnsafeArray of pointers, as
// a member of its descriptor-set struct and as a local array passed to a helper. Each kernel
// walks the levels and writes outputs with canaries around them, at several threadgroup
// shapes, in both flavours. Misuse gets nullptr and the debug layer's message.
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

// Two levels: the outer struct points at an inner one (id 3 after a gap).
struct Inner {
    device const float* data [[id(0)]];
    float scale [[id(1)]];
    device const float* extra [[id(2)]];
};
struct Outer {
    device float* out [[id(0)]];
    uint count [[id(1)]];
    constant Inner* inner [[id(3)]];
};
kernel void two_levels(constant Outer& o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    if (i >= o.count) return;
    constant Inner& in = *o.inner;
    o.out[i] = in.data[i] * in.scale + in.extra[i % 2];
}

// A list: each node points at the next (nil ends it).
struct Node {
    device const int* values [[id(0)]];
    constant Node* next [[id(1)]];
};
kernel void walk_list(constant Node* head [[buffer(0)]], device int* out [[buffer(1)]],
                      uint i [[thread_position_in_grid]]) {
    int sum = 0;
    for (constant Node* n = head; n != nullptr; n = n->next) sum = sum * 10 + n->values[i];
    out[i] = sum;
}

// Metal 3 style: no [[id]] anywhere; ids follow the members' order (image 0, pick 1, out 2,
// width 3); the sampler is 8 bytes, a resource ID.
struct Bindless {
    texture2d<float> image;
    sampler pick;
    device float* out;
    uint width;
};
kernel void bindless(constant Bindless& b [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    if (i >= b.width) return;
    b.out[i] = b.image.sample(b.pick, float2((float(i) + 0.5f) / float(b.width), 0.5f)).x;
}

// SPIRV-Cross's shapes: its array wrapper, an array of buffers in a descriptor-set struct (both
// as spvUnsafeArray and as a C array after the attribute), discrete buffers gathered into a
// local spvUnsafeArray, and a helper taking a reference to an array of pointers.
template<typename T, size_t Num>
struct spvUnsafeArray
{
    T elements[Num ? Num : 1];

    thread T& operator [] (size_t pos) thread
    {
        return elements[pos];
    }
    constexpr const thread T& operator [] (size_t pos) const thread
    {
        return elements[pos];
    }

    device T& operator [] (size_t pos) device
    {
        return elements[pos];
    }
    constexpr const device T& operator [] (size_t pos) const device
    {
        return elements[pos];
    }

    constexpr const constant T& operator [] (size_t pos) const constant
    {
        return elements[pos];
    }
};

struct SSBO
{
    float4 value;
};

struct spvDescriptorSetBuffer0
{
    spvUnsafeArray<device SSBO*, 3> blocks [[id(0)]];
    const device SSBO* inputs [[id(3)]][2];
    uint count [[id(5)]];
};

static inline __attribute__((always_inline))
float4 gather(const device SSBO* constant (&inputs)[2], thread const spvUnsafeArray<device SSBO*, 2>& outs, uint i)
{
    return inputs[i % 2]->value + outs[1 - i % 2]->value;
}

kernel void main0(constant spvDescriptorSetBuffer0& spvDescriptorSet0 [[buffer(0)]], device SSBO* outs_0 [[buffer(1)]],
                  device SSBO* outs_1 [[buffer(2)]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    spvUnsafeArray<device SSBO*, 2> outs =
    {
        outs_0,
        outs_1,
    };
    uint i = gl_GlobalInvocationID.x;
    if (i >= spvDescriptorSet0.count)
    {
        return;
    }
    spvDescriptorSet0.blocks[i % 3][i / 3].value = gather(spvDescriptorSet0.inputs, outs, i) * float(i);
}
)";

using NestedArgumentBuffers = TextureFixture<&kKernels>;

MTL::Function* functionOf(MTL::Library* library, const char* name) {
    return library->newFunction(NS::String::string(name, NS::UTF8StringEncoding));
}

constexpr std::uint32_t kCanary = 0xC0FFEE11u;

// Test an encoder for the struct an argument buffer's member points at: the outer encoder
// writes the inner buffer's address at id 3, the nested one writes the inner struct, and the
// kernel reads through both levels.
TEST_P(NestedArgumentBuffers, KernelWalksTwoLevels) {
    const unsigned count = 37;
    MTL::ArgumentEncoder* outer = own(own(functionOf(library_, "two_levels"))->newArgumentEncoder(0));
    ASSERT_NE(outer, nullptr);
    MTL::ArgumentEncoder* inner = own(outer->newArgumentEncoder(3));
    ASSERT_NE(inner, nullptr);
    EXPECT_EQ(inner->encodedLength(), 24u); // pointer, float (padded), pointer
    EXPECT_EQ(inner->alignment(), 8u);
    EXPECT_EQ(inner->device(), device_);

    MTL::Buffer* out = buffer((count + 2) * 4);
    auto* words = static_cast<std::uint32_t*>(out->contents());
    for (unsigned i = 0; i < count + 2; ++i) words[i] = kCanary;
    MTL::Buffer* data = buffer((count + 3) * 4);
    for (unsigned i = 0; i < count + 3; ++i) static_cast<float*>(data->contents())[i] = float(i);
    MTL::Buffer* extra = buffer(8);
    static_cast<float*>(extra->contents())[0] = 0.25f;
    static_cast<float*>(extra->contents())[1] = 0.5f;

    // The inner struct at an offset inside its buffer, the outer at the start of its own.
    const NS::UInteger at = 32;
    MTL::Buffer* innerBuffer = buffer(at + inner->encodedLength());
    inner->setArgumentBuffer(innerBuffer, at);
    inner->setBuffer(data, 12, 0); // data[i] reads element i + 3
    *static_cast<float*>(inner->constantData(1)) = -2.0f;
    inner->setBuffer(extra, 0, 2);
    MTL::Buffer* outerBuffer = buffer(outer->encodedLength());
    outer->setArgumentBuffer(outerBuffer, 0);
    outer->setBuffer(out, 4, 0);
    *static_cast<std::uint32_t*>(outer->constantData(1)) = count;
    outer->setBuffer(innerBuffer, at, 3);

    dispatch(kernel("two_levels"), MTL::Size(count + 5, 1, 1), [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(outerBuffer, 0, 0);
        e->useResource(innerBuffer, MTL::ResourceUsageRead);
        e->useResource(data, MTL::ResourceUsageRead);
        e->useResource(extra, MTL::ResourceUsageRead);
        e->useResource(out, MTL::ResourceUsageWrite);
    });
    EXPECT_EQ(words[0], kCanary);
    const auto* results = reinterpret_cast<const float*>(words + 1);
    for (unsigned i = 0; i < count; ++i) ASSERT_EQ(results[i], float(i + 3) * -2.0f + (i % 2 ? 0.5f : 0.25f)) << i;
    EXPECT_EQ(words[count + 1], kCanary);
}

// Test a struct that points at its own kind: the nested encoder of a node is a node's encoder,
// and a list of three nodes (in one buffer, as an array of argument buffers) is walked to its
// nil end.
TEST_P(NestedArgumentBuffers, ListOfArgumentBuffers) {
    const unsigned threads = 21, nodes = 3;
    MTL::ArgumentEncoder* head = own(own(functionOf(library_, "walk_list"))->newArgumentEncoder(0));
    ASSERT_NE(head, nullptr);
    MTL::ArgumentEncoder* next = own(head->newArgumentEncoder(1));
    ASSERT_NE(next, nullptr);
    EXPECT_EQ(next->encodedLength(), head->encodedLength());
    MTL::ArgumentEncoder* third = own(next->newArgumentEncoder(1)); // and so on, as deep as the list
    ASSERT_NE(third, nullptr);

    std::vector<MTL::Buffer*> values;
    for (unsigned n = 0; n < nodes; ++n) {
        values.push_back(buffer(threads * 4));
        for (unsigned i = 0; i < threads; ++i) static_cast<std::int32_t*>(values[n]->contents())[i] = int((i + n) % 10);
    }
    MTL::Buffer* list = buffer(nodes * head->encodedLength());
    MTL::ArgumentEncoder* encoders[nodes] = {head, next, third};
    for (unsigned n = 0; n < nodes; ++n) {
        encoders[n]->setArgumentBuffer(list, 0, n);
        encoders[n]->setBuffer(values[n], 0, 0);
        encoders[n]->setBuffer(n + 1 < nodes ? list : nullptr, (n + 1) * head->encodedLength(), 1);
    }
    MTL::Buffer* out = buffer((threads + 2) * 4);
    auto* words = static_cast<std::uint32_t*>(out->contents());
    for (unsigned i = 0; i < threads + 2; ++i) words[i] = kCanary;
    dispatch(kernel("walk_list"), MTL::Size(threads, 1, 1), [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(list, 0, 0);
        e->setBuffer(out, 4, 1);
        for (MTL::Buffer* v : values) e->useResource(v, MTL::ResourceUsageRead);
    });
    EXPECT_EQ(words[0], kCanary);
    for (unsigned i = 0; i < threads; ++i)
        ASSERT_EQ(std::int32_t(words[1 + i]), int(i % 10) * 100 + int((i + 1) % 10) * 10 + int((i + 2) % 10)) << i;
    EXPECT_EQ(words[threads + 1], kCanary);
}

// Test a struct without [[id]]: the ids follow the members' order, the sampler member is a
// resource ID the encoder writes (and a program may write by hand at the same offset).
TEST_P(NestedArgumentBuffers, ImpliedIdsWithASampler) {
    const unsigned width = 9;
    MTL::ArgumentEncoder* encoder = own(own(functionOf(library_, "bindless"))->newArgumentEncoder(0));
    ASSERT_NE(encoder, nullptr);
    EXPECT_EQ(encoder->encodedLength(), 32u); // texture, sampler, pointer: 8 bytes each; a uint, padded
    MTL::Texture* image = texture(MTL::TextureType2D, MTL::PixelFormatR32Float, 3, 1);
    const float texels[3] = {1.0f, 2.0f, 4.0f};
    image->replaceRegion(MTL::Region(0, 0, 3, 1), 0, texels, 12);
    auto nearest = NS::TransferPtr(MTL::SamplerDescriptor::alloc()->init());
    auto linear = NS::TransferPtr(MTL::SamplerDescriptor::alloc()->init());
    linear->setMinFilter(MTL::SamplerMinMagFilterLinear);
    linear->setMagFilter(MTL::SamplerMinMagFilterLinear);
    MTL::SamplerState* samplers[2] = {own(device_->newSamplerState(nearest.get())),
                                      own(device_->newSamplerState(linear.get()))};
    for (const bool byHand : {false, true}) {
        MTL::Buffer* out = buffer((width + 2) * 4);
        auto* words = static_cast<std::uint32_t*>(out->contents());
        for (unsigned i = 0; i < width + 2; ++i) words[i] = kCanary;
        MTL::Buffer* arguments = buffer(encoder->encodedLength());
        if (byHand) {
            const std::uint64_t members[3] = {image->gpuResourceID()._impl, samplers[1]->gpuResourceID()._impl,
                                              out->gpuAddress() + 4};
            std::memcpy(arguments->contents(), members, sizeof members);
            std::memcpy(static_cast<char*>(arguments->contents()) + 24, &width, 4);
        } else {
            encoder->setArgumentBuffer(arguments, 0);
            encoder->setTexture(image, 0);
            encoder->setSamplerState(samplers[0], 1);
            encoder->setBuffer(out, 4, 2);
            *static_cast<std::uint32_t*>(encoder->constantData(3)) = width;
        }
        dispatch(kernel("bindless"), MTL::Size(width + 4, 1, 1), [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(arguments, 0, 0);
            e->useResource(image, MTL::ResourceUsageRead);
            e->useResource(out, MTL::ResourceUsageWrite);
        });
        EXPECT_EQ(words[0], kCanary);
        EXPECT_EQ(words[width + 1], kCanary);
        const auto* results = reinterpret_cast<const float*>(words + 1);
        for (unsigned i = 0; i < width; ++i) {
            const float x = (float(i) + 0.5f) / float(width) * 3.0f - 0.5f; // texel space, linear
            const int left = x < 0 ? 0 : int(x), right = left + 1 > 2 ? 2 : left + 1;
            const float t = x < 0 ? 0.0f : x - float(left);
            const float expected = byHand ? texels[left] * (1 - t) + texels[right] * t : texels[i / 3];
            ASSERT_NEAR(results[i], expected, 1e-5f) << i << (byHand ? " linear, by hand" : " nearest, encoded");
        }
    }
}

// Test SPIRV-Cross's shapes: spvUnsafeArray<device T*, 3> in its descriptor-set struct (ids
// 0..2, one per element), a C array of pointers after the attribute (ids 3..4), local arrays of
// pointers passed to a helper by reference.
TEST_P(NestedArgumentBuffers, SpirvCrossArraysOfPointers) {
    const unsigned count = 23;
    MTL::ArgumentEncoder* encoder = own(own(functionOf(library_, "main0"))->newArgumentEncoder(0));
    ASSERT_NE(encoder, nullptr);
    EXPECT_EQ(encoder->encodedLength(), 48u); // five pointers and a uint, padded
    const unsigned perBlock = (count + 2) / 3;
    MTL::Buffer* blocks[3];
    for (MTL::Buffer*& b : blocks) {
        b = buffer((perBlock + 2) * 16);
        for (unsigned w = 0; w < (perBlock + 2) * 4; ++w) static_cast<std::uint32_t*>(b->contents())[w] = kCanary;
    }
    MTL::Buffer* inputs[2] = {buffer(16), buffer(16)};
    MTL::Buffer* outs[2] = {buffer(16), buffer(16)};
    for (unsigned k = 0; k < 4; ++k) {
        static_cast<float*>(inputs[0]->contents())[k] = float(k);
        static_cast<float*>(inputs[1]->contents())[k] = float(10 * k);
        static_cast<float*>(outs[0]->contents())[k] = 100.0f;
        static_cast<float*>(outs[1]->contents())[k] = 1000.0f;
    }
    MTL::Buffer* arguments = buffer(encoder->encodedLength());
    encoder->setArgumentBuffer(arguments, 0);
    const NS::UInteger offsets[3] = {16, 16, 16}; // a canary block before each
    encoder->setBuffers(blocks, offsets, NS::Range(0, 3));
    const NS::UInteger none[2] = {0, 0};
    encoder->setBuffers(inputs, none, NS::Range(3, 2));
    *static_cast<std::uint32_t*>(encoder->constantData(5)) = count;
    dispatch(kernel("main0"), MTL::Size(count + 3, 1, 1), [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(arguments, 0, 0);
        e->setBuffer(outs[0], 0, 1);
        e->setBuffer(outs[1], 0, 2);
        for (MTL::Buffer* b : blocks) e->useResource(b, MTL::ResourceUsageWrite);
        for (MTL::Buffer* b : inputs) e->useResource(b, MTL::ResourceUsageRead);
    });
    for (unsigned b = 0; b < 3; ++b) {
        const auto* words = static_cast<const std::uint32_t*>(blocks[b]->contents());
        for (unsigned w = 0; w < 4; ++w) EXPECT_EQ(words[w], kCanary) << "canary before block " << b;
        const auto* values = reinterpret_cast<const float*>(words + 4);
        unsigned written = 0;
        for (unsigned i = b; i < count; i += 3, ++written)
            for (unsigned k = 0; k < 4; ++k) {
                const float in = i % 2 ? float(10 * k) : float(k), other = i % 2 ? 100.0f : 1000.0f;
                ASSERT_EQ(values[(i / 3) * 4 + k], (in + other) * float(i)) << "thread " << i << " lane " << k;
            }
        for (unsigned w = 4 + written * 4; w < (perBlock + 2) * 4; ++w)
            EXPECT_EQ(words[w], kCanary) << "canary after block " << b << " word " << w;
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, NestedArgumentBuffers,
                         ::testing::Values(TextureCase{MTL::Size(1, 1, 1), false}, TextureCase{MTL::Size(7, 1, 1), false},
                                           TextureCase{MTL::Size(32, 1, 1), false}, TextureCase{MTL::Size(7, 1, 1), true},
                                           TextureCase{MTL::Size(1, 1, 1), true}));

// Misuse: a nested encoder for a member that is no pointer at an argument buffer, or an id the
// encoder lacks, is nullptr with the debug layer's message.
using NestedArgumentMistakes = ReportedMistakes<&kKernels>;

TEST_F(NestedArgumentMistakes, NoNestedEncoderForOtherMembers) {
    auto function = NS::TransferPtr(functionOf(library_, "two_levels"));
    auto outer = NS::TransferPtr(function->newArgumentEncoder(0));
    ASSERT_NE(outer.get(), nullptr);
    EXPECT_EQ(outer->newArgumentEncoder(0), nullptr); // a pointer at floats
    EXPECT_TRUE(reported("('out') is a pointer at no argument-buffer struct")) << ::testing::PrintToString(reports_);
    EXPECT_EQ(outer->newArgumentEncoder(1), nullptr); // constant data
    EXPECT_TRUE(reported("('count') is constant data, not a pointer to an argument buffer"))
        << ::testing::PrintToString(reports_);
    EXPECT_EQ(outer->newArgumentEncoder(2), nullptr); // no id 2
    EXPECT_TRUE(reported("index (2) is not an argument of this encoder")) << ::testing::PrintToString(reports_);
    // The encoder it does make outlives its parent and the function.
    MTL::ArgumentEncoder* inner = outer->newArgumentEncoder(3);
    ASSERT_NE(inner, nullptr);
    outer.reset();
    function.reset();
    EXPECT_EQ(inner->encodedLength(), 24u);
    inner->release();
}

} // namespace
} // namespace metalcpu::testing
