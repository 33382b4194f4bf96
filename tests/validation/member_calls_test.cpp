// Shader validation of member function calls on buffer elements (`x[i].f()`, `p->f()`): f
// reads the element through `this`, so the element is not checked whole. A buffer that ends
// inside its last element (ggml's blocks, whose first members a kernel reads near the end) is
// silent when f reads and writes only the members inside it, as on a GPU; an element wholly
// past the end is reported at the call. Once, the whole element was checked and such an
// in-bounds call reported.
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using ::testing::IsEmpty;
using ::testing::StartsWith;
using validation::ShaderValidationReport;

const char* const kKernels = R"(#include <metal_stdlib>
using namespace metal;

// 16 bytes: d at 0, then 12 bytes that only last() reads.
struct Block {
    float d;
    float rest[3];
    float twice() const { return d * 2.0f; }
    float last() const { return rest[2]; }
    void set(float v) { d = v; }
};

// Thread i calls a member function of element i + skip, by `which`.
kernel void block_calls(device Block* x [[buffer(0)]], device float* o [[buffer(1)]],
                        constant int& which [[buffer(2)]], constant uint& skip [[buffer(3)]],
                        uint i [[thread_position_in_grid]]) {
    if (which == 0) o[i] = x[i + skip].twice();
    else if (which == 1) x[i + skip].set(float(i) + 0.5f);
    else if (which == 2) o[i] = (x + i + skip)->twice();
    else if (which == 3) o[i] = x[i + skip].last();
    else { float v; o[i] = (v = x[i + skip].twice(), x[i + skip].d = 9.0f, v); }
}
)";

struct Block {
    float d;
    float rest[3];
};

class MemberCalls : public ShapedValidationFixture<&kKernels> {
protected:
    /// Runs block_calls over the shape's threads with `x` a buffer of count blocks that ends
    /// 4 bytes into the last one (only its `d` inside); block t's d is t + 1 and its rest 7.
    void run(int which, std::uint32_t skip) {
        MTL::ComputePipelineState* state = pipeline(library_, "block_calls");
        ASSERT_NE(state, nullptr) << "the instrumented flavour compiles";
        const NS::UInteger count = GetParam().count;
        x_ = buffer(count * sizeof(Block) - 12, "blocks");
        auto* bytes = static_cast<unsigned char*>(x_->contents());
        for (NS::UInteger t = 0; t < count; ++t) {
            const float d = float(t) + 1.0f, seven = 7.0f;
            __builtin_memcpy(bytes + t * sizeof(Block), &d, sizeof d);
            if (t + 1 < count)
                for (int r = 0; r < 3; ++r) __builtin_memcpy(bytes + t * sizeof(Block) + 4 + 4 * r, &seven, 4);
        }
        o_ = output(count, 0);
        dispatch(state, count, GetParam().group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(x_, 0, 0);
            e->setBuffer(o_, sizeof(std::uint32_t), 1);
            e->setBytes(&which, sizeof which, 2);
            e->setBytes(&skip, sizeof skip, 3);
        });
        expectCanaries(o_, count);
    }
    float d(NS::UInteger t) const {
        float v;
        __builtin_memcpy(&v, static_cast<unsigned char*>(x_->contents()) + t * sizeof(Block), sizeof v);
        return v;
    }
    MTL::Buffer* x_ = nullptr;
    MTL::Buffer* o_ = nullptr;
};

// Test that a member function reading only `d` of every element, the last one cut by the
// buffer's end included, is silent and reads the real values.
TEST_P(MemberCalls, ReadsTheMembersInside_Positive) {
    for (int which : {0, 2}) {
        run(which, 0);
        EXPECT_THAT(reports(), IsEmpty()) << "which " << which;
        for (NS::UInteger t = 0; t < GetParam().count; ++t)
            EXPECT_EQ(floats(o_)[1 + t], 2.0f * (float(t) + 1.0f)) << "which " << which << ", thread " << t;
    }
}

// Test that a member function storing only `d` stores it in every element, the last one
// included, and is silent.
TEST_P(MemberCalls, StoresTheMembersInside_Positive) {
    run(1, 0);
    EXPECT_THAT(reports(), IsEmpty());
    for (NS::UInteger t = 0; t < GetParam().count; ++t) EXPECT_EQ(d(t), float(t) + 0.5f) << t;
}

// Test that a call that only reads writes nothing back, even on the element the buffer's end
// cuts (which it runs on a copy of): a store into the element later in the same statement,
// while the call's object still lives, stays.
TEST_P(MemberCalls, ReadingCallWritesNothingBack_Positive) {
    run(4, 0);
    EXPECT_THAT(reports(), IsEmpty());
    for (NS::UInteger t = 0; t < GetParam().count; ++t) {
        EXPECT_EQ(floats(o_)[1 + t], 2.0f * (float(t) + 1.0f)) << t;
        EXPECT_EQ(d(t), 9.0f) << t;
    }
}

// Test that a member past the buffer's end, in the element it cuts, reads zero (what a GPU's
// zero-fill gives; the read itself is not reported, docs/validation.md), and the others read
// theirs.
TEST_P(MemberCalls, ReadsZeroPastTheEnd_Positive) {
    run(3, 0);
    EXPECT_THAT(reports(), IsEmpty());
    const NS::UInteger count = GetParam().count;
    for (NS::UInteger t = 0; t < count; ++t) EXPECT_EQ(floats(o_)[1 + t], t + 1 == count ? 0.0f : 7.0f) << t;
}

// Test that a call on an element wholly past the buffer's end (the last thread's, one element
// on) is reported at the call as a load of the element, gives zero, and leaves memory alone;
// the element the buffer cuts (the thread before's) is silent.
TEST_P(MemberCalls, ElementPastTheEnd_Negative) {
    const NS::UInteger count = GetParam().count;
    for (int which : {0, 1, 2}) {
        run(which, 1);
        const std::vector<ShaderValidationReport> got = reports();
        ASSERT_EQ(got.size(), 1u) << ::testing::PrintToString(got);
        const std::string offset = std::to_string(count * sizeof(Block));
        EXPECT_THAT(got[0].text(), StartsWith("Invalid device load at offset " + offset +
                                              ", executing kernel function: \"block_calls\"\nbuffer: blocks, length:" +
                                              std::to_string(count * sizeof(Block) - 12)));
        EXPECT_EQ(got[0].location.line, lineHolding(kKernels, which == 0   ? "o[i] = x[i + skip].twice()"
                                                              : which == 1 ? ".set("
                                                                           : "->twice()"));
        EXPECT_EQ(got[0].size, sizeof(Block));
        EXPECT_EQ(got[0].count, 1u);
        if (which != 1) {
            EXPECT_EQ(floats(o_)[count], 0.0f);
        } else if (count > 1) {
            EXPECT_EQ(d(count - 1), float(count - 2) + 0.5f);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, MemberCalls,
                         ::testing::Values(Shape{1, 1}, Shape{7, 7}, Shape{66, 33}, Shape{100, 64}), shapeName);

} // namespace
} // namespace metalcpu::testing
