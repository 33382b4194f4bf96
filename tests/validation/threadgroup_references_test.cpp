// `threadgroup T&` kernel arguments (naga writes every WGSL workgroup variable so, with or
// without [[threadgroup(n)]]): a setThreadgroupMemoryLength shorter than T is reported under
// shader validation, once per threadgroup as the load of the whole object, and the kernel's stores
// land in scratch instead of the next argument. The pointer form is checked per access
// (reports_end_to_end_test.cpp); the debug layer's encode-time check is in
// tests/runtime/debug_layer_test.cpp.
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using ::testing::AllOf;
using ::testing::IsEmpty;
using validation::AddressSpace;
using validation::ShaderValidationReport;

const char* const kKernels = R"(#include <metal_stdlib>
using namespace metal;
struct Big { uint inner[64]; };
struct Small { uint inner[4]; };
kernel void implicit_refs(uint i [[thread_index_in_threadgroup]], uint n [[threads_per_threadgroup]],
                          threadgroup Big& big, threadgroup Small& small,
                          device uint* out [[buffer(0)]]) {
    if (i == 0) for (uint k = 0; k < 4; ++k) small.inner[k] = 7u;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint k = i; k < 64; k += n) big.inner[k] = 1000u + k;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (i == 0) for (uint k = 0; k < 4; ++k) out[k] = small.inner[k];
}
)";
constexpr unsigned kBigLine = 6;

class ThreadgroupReferences : public ShapedValidationFixture<&kKernels> {
protected:
    /// Runs implicit_refs at the parameter's shape with `big` given `bigLength` bytes and
    /// `small` its 16; the output (4 words between canaries).
    MTL::Buffer* run(NS::UInteger bigLength) {
        MTL::ComputePipelineState* kernel = pipeline(library_, "implicit_refs");
        EXPECT_NE(kernel, nullptr);
        MTL::Buffer* out = output(4);
        if (!kernel) return out;
        dispatch(kernel, GetParam().count, GetParam().group, [&](MTL::ComputeCommandEncoder* e) {
            e->setThreadgroupMemoryLength(bigLength, 0);
            e->setThreadgroupMemoryLength(16, 1);
            e->setBuffer(out, sizeof(std::uint32_t), 0);
        });
        return out;
    }
};

// Test that a `threadgroup Big&` given 16 of its 256 bytes is reported at its declaration, in
// every threadgroup, and that `small` after it keeps its values.
TEST_P(ThreadgroupReferences, ShortLengthIsReported) {
    const Shape shape = GetParam();
    MTL::Buffer* out = run(16);
    std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_THAT(got[0], AllOf(InvalidLoad("implicit_refs", -1), AtLine(kBigLine), AtOffset(0),
                              InAddressSpace(AddressSpace::Threadgroup)));
    EXPECT_EQ(got[0].size, 256u);
    // One load of the object where each threadgroup (on fibers, each thread) starts.
    const NS::UInteger groups = (shape.count + shape.group - 1) / shape.group;
    EXPECT_GE(got[0].count, groups);
    EXPECT_LE(got[0].count, shape.count);
    EXPECT_THAT(got[0].text(), ::testing::StartsWith("Invalid threadgroup load at offset 0, executing kernel function"));
    for (int k = 0; k < 4; ++k) EXPECT_EQ(words(out)[1 + k], 7u) << k;
    expectCanaries(out, 4);
}

// The silent twin: both arguments whole.
TEST_P(ThreadgroupReferences, WholeLength_Positive) {
    MTL::Buffer* out = run(256);
    EXPECT_THAT(reports(), IsEmpty());
    for (int k = 0; k < 4; ++k) EXPECT_EQ(words(out)[1 + k], 7u) << k;
    expectCanaries(out, 4);
}

INSTANTIATE_TEST_SUITE_P(Shapes, ThreadgroupReferences,
                         ::testing::Values(Shape{1, 1}, Shape{7, 7}, Shape{66, 33}, Shape{100, 64}), shapeName);

} // namespace
} // namespace metalcpu::testing
