// Texel coordinates under shader validation. Apple's shader validation lists no check of them
// (its error classes, ../shared/reference/validation.md 1.2: out-of-bounds buffer and
// threadgroup memory, null and mistyped textures, residency and usage; nothing about a texel
// outside its texture), and Metal defines what such an access does: a read gives zero, a
// write is dropped. So metalcpu does not report one either (docs/validation.md); these tests
// pin that, and that the access behaves as on a GPU, validated.
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <cstdint>
#include <vector>

namespace metalcpu::testing {
namespace {

using ::testing::IsEmpty;

const char* const kKernels = R"(#include <metal_stdlib>
using namespace metal;

// Texel x of `out` (shifted by shift.y) gets texel x of `in` (shifted by shift.x) plus 1.
kernel void shifted_texels(texture2d<float, access::read> in [[texture(0)]],
                           texture2d<float, access::write> out [[texture(1)]],
                           constant int2& shift [[buffer(0)]], uint x [[thread_position_in_grid]]) {
    const float4 v = in.read(uint2(uint(int(x) + shift.x), 0));
    out.write(v + 1.0f, uint2(uint(int(x) + shift.y), 0));
}
)";

class TextureCoordinates : public ShapedValidationFixture<&kKernels> {
protected:
    /// A count x 1 R32Float texture whose texel x holds `first + x`.
    NS::SharedPtr<MTL::Texture> texture(float first) {
        const NS::UInteger count = GetParam().count;
        auto d = NS::TransferPtr(MTL::TextureDescriptor::alloc()->init());
        d->setPixelFormat(MTL::PixelFormatR32Float);
        d->setWidth(count);
        d->setHeight(1);
        d->setUsage(MTL::TextureUsageShaderRead | MTL::TextureUsageShaderWrite);
        auto made = NS::TransferPtr(device_->newTexture(d.get()));
        std::vector<float> texels(count);
        for (NS::UInteger x = 0; x < count; ++x) texels[x] = first + float(x);
        made->replaceRegion(MTL::Region(0, 0, count, 1), 0, texels.data(), count * sizeof(float));
        return made;
    }
    /// Runs shifted_texels with those shifts; the texels of `out` after it.
    std::vector<float> run(int readShift, int writeShift) {
        MTL::ComputePipelineState* state = pipeline(library_, "shifted_texels");
        EXPECT_NE(state, nullptr);
        const NS::UInteger count = GetParam().count;
        auto in = texture(100.0f), out = texture(-1000.0f);
        const std::int32_t shift[2] = {readShift, writeShift};
        if (state)
            dispatch(state, count, GetParam().group, [&](MTL::ComputeCommandEncoder* e) {
                e->setTexture(in.get(), 0);
                e->setTexture(out.get(), 1);
                e->setBytes(shift, sizeof shift, 0);
            });
        std::vector<float> texels(count);
        out->getBytes(texels.data(), count * sizeof(float), MTL::Region(0, 0, count, 1), 0);
        return texels;
    }
};

// Test that texels inside both textures are copied, silently.
TEST_P(TextureCoordinates, InsideIsCopied_Positive) {
    const std::vector<float> out = run(0, 0);
    EXPECT_THAT(reports(), IsEmpty());
    for (NS::UInteger x = 0; x < out.size(); ++x) EXPECT_EQ(out[x], 101.0f + float(x)) << x;
}

// Test that reads past the texture's edge give zero and are not reported.
TEST_P(TextureCoordinates, ReadOutsideGivesZeroUnreported_Negative) {
    const std::vector<float> out = run(2, 0);
    EXPECT_THAT(reports(), IsEmpty());
    for (NS::UInteger x = 0; x < out.size(); ++x)
        EXPECT_EQ(out[x], x + 2 < out.size() ? 103.0f + float(x) : 1.0f) << x;
}

// Test that writes past the texture's edge (and before it, at a coordinate that wraps to a huge
// one) are dropped, touch no other texel, and are not reported.
TEST_P(TextureCoordinates, WriteOutsideIsDroppedUnreported_Negative) {
    for (int shift : {2, -2}) {
        const std::vector<float> out = run(0, shift);
        EXPECT_THAT(reports(), IsEmpty());
        const NS::UInteger n = out.size();
        for (NS::UInteger x = 0; x < n; ++x) {
            const long from = long(x) - shift; // the thread that writes texel x, if any
            const float expected = from >= 0 && from < long(n) ? 101.0f + float(from) : -1000.0f + float(x);
            EXPECT_EQ(out[x], expected) << "shift " << shift << ", texel " << x;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, TextureCoordinates,
                         ::testing::Values(Shape{1, 1}, Shape{7, 7}, Shape{66, 33}, Shape{100, 64}), shapeName);

} // namespace
} // namespace metalcpu::testing
