// Threadgroup pointers made from nullptr. On a GPU a threadgroup pointer is an offset into the
// group's threadgroup memory, and Apple's shader validation reports an access through a null
// one as an invalid threadgroup access (MLX's pull request #2506 removed such a load from its
// merge sort for that report). Here it is reported so, at its offset from 0, with no buffer
// line, where it was taken for a wild device pointer; in allow mode the access goes where the
// GPU's would.
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using ::testing::AllOf;
using validation::AddressSpace;
using validation::ShaderValidationReport;

const char* const kKernels = R"(#include <metal_stdlib>
using namespace metal;
kernel void null_offsets(uint i [[thread_index_in_threadgroup]], uint n [[threads_per_threadgroup]],
                         device uint* out [[buffer(0)]], constant uint& index [[buffer(1)]]) {
    threadgroup uint words[64];
    for (uint k = i; k < 64; k += n) words[k] = 100u + k;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const threadgroup uint* none = nullptr;
    if (i == 0) out[0] = none[index];
}
)";

class NullThreadgroupPointers : public ShapedValidationFixture<&kKernels> {
protected:
    /// Runs null_offsets with `index`; the word it read.
    std::uint32_t run(std::uint32_t index) {
        MTL::ComputePipelineState* kernel = pipeline(library_, "null_offsets");
        EXPECT_NE(kernel, nullptr);
        MTL::Buffer* out = output(1);
        if (!kernel) return 0;
        dispatch(kernel, GetParam().count, GetParam().group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, sizeof(std::uint32_t), 0);
            e->setBytes(&index, sizeof index, 1);
        });
        expectCanaries(out, 1);
        return words(out)[1];
    }
};

// Test that a load through a null threadgroup pointer is an invalid threadgroup load at its
// offset, zero-filled, also inside the group's memory (offset 12 is words[3]).
TEST_P(NullThreadgroupPointers, ReportedAsThreadgroupLoads) {
    for (std::uint32_t index : {3u, 1u << 20}) {
        SCOPED_TRACE(index);
        EXPECT_EQ(run(index), 0u); // zero-filled
        std::vector<ShaderValidationReport> got = reports();
        ASSERT_EQ(got.size(), 1u);
        EXPECT_THAT(got[0], AllOf(InvalidLoad("null_offsets", -1), AtOffset(std::uint64_t(index) * 4),
                                  InAddressSpace(AddressSpace::Threadgroup)));
        EXPECT_THAT(got[0].text(), ::testing::StartsWith("Invalid threadgroup load at offset " + std::to_string(index * 4) +
                                                         ", executing kernel function: \"null_offsets\"\n"));
        EXPECT_EQ(got[0].text().find("buffer:"), std::string::npos) << got[0].text();
    }
}

// Test that in allow mode the load reads the group's memory at that offset, as a GPU's would,
// and is still reported.
TEST_P(NullThreadgroupPointers, AllowModeReadsTheGroupsMemory) {
    val::ShaderValidationSettings settings;
    settings.enabled = true;
    settings.failMode = val::FailMode::Allow;
    configure(settings);
    EXPECT_EQ(run(3), 103u);
    EXPECT_EQ(reports().size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Shapes, NullThreadgroupPointers,
                         ::testing::Values(Shape{1, 1}, Shape{7, 7}, Shape{66, 33}, Shape{100, 64}), shapeName);

} // namespace
} // namespace metalcpu::testing
