// A kernel whose instrumented flavour does not compile (a construct the checked rewrite cannot
// hold: an array member bound to a reference through `?:`, docs/validation.md "Known limits"):
// its validated pipeline is refused with an error that names the kernel, the place in the
// source and the host compiler's first complaint, before the compiler's own pages; the other
// kernels of its library keep their validation, and the kernel itself runs unvalidated.
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

const char* const kKernels = R"(#include <metal_stdlib>
using namespace metal;

struct Block { half d; int8_t qs[32]; };

kernel void picks_member(device const Block* x [[buffer(0)]], device const Block* y [[buffer(1)]],
                         device float* o [[buffer(2)]], constant int& c [[buffer(3)]],
                         uint i [[thread_position_in_grid]]) {
    device const int8_t (&q)[32] = c ? x[i].qs : y[i].qs;
    o[i] = float(q[i % 32]);
}

kernel void copy_shifted(device const float* a [[buffer(0)]], device float* o [[buffer(1)]],
                         constant uint& shift [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    o[i] = a[i + shift];
}
)";

class FlavourFailures : public ShapedValidationFixture<&kKernels> {
protected:
    /// The validated pipeline of `name`, or nullptr with its error's text in `error`.
    MTL::ComputePipelineState* validated(const char* name, std::string* error) {
        MTL::ComputePipelineState* made = pipelineOrError(library_, name, MTL::ShaderValidationEnabled, error);
        return made ? made->autorelease() : nullptr;
    }
    /// Runs copy_shifted's validated pipeline over the shape's threads with `shift`.
    void copy(std::uint32_t shift) {
        std::string error;
        MTL::ComputePipelineState* state = validated("copy_shifted", &error);
        ASSERT_NE(state, nullptr) << error;
        const NS::UInteger count = GetParam().count;
        MTL::Buffer* a = buffer(count * sizeof(float), "a");
        for (NS::UInteger t = 0; t < count; ++t) floats(a)[t] = float(t) + 0.5f;
        out_ = output(count, 0);
        dispatch(state, count, GetParam().group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(a, 0, 0);
            e->setBuffer(out_, sizeof(std::uint32_t), 1);
            e->setBytes(&shift, sizeof shift, 2);
        });
        expectCanaries(out_, count);
    }
    MTL::Buffer* out_ = nullptr;
};

// Test that the validated pipeline of the kernel whose instrumented text does not compile is
// refused with an error naming the kernel and the line of the construct, and the compiler's
// first error, ahead of its output; its plain pipeline is made.
TEST_P(FlavourFailures, ErrorNamesKernelAndConstruct) {
    std::string error;
    EXPECT_EQ(validated("picks_member", &error), nullptr);
    const std::string line = std::to_string(lineHolding(kKernels, "(&q)[32] = c ?"));
    EXPECT_THAT(error, HasSubstr("shader validation cannot instrument kernel 'picks_member': its code at "));
    EXPECT_THAT(error, HasSubstr("program_source:" + line + ":"));
    const std::size_t first = error.find("program_source:" + line + ":");
    ASSERT_NE(first, std::string::npos) << error;
    EXPECT_THAT(error.substr(first), ::testing::ContainsRegex("^program_source:[0-9]+:[0-9]+: error: "));
    EXPECT_NE(pipeline(library_, "picks_member", nullptr, MTL::ShaderValidationDisabled), nullptr);
}

// Test that the library's other kernel keeps its validation: silent in bounds ...
TEST_P(FlavourFailures, OtherKernelsStayValidated_Positive) {
    copy(0);
    EXPECT_THAT(reports(), IsEmpty());
    for (NS::UInteger t = 0; t < GetParam().count; ++t) EXPECT_EQ(floats(out_)[1 + t], float(t) + 0.5f) << t;
}

// ... and reporting the last thread's read one past its buffer.
TEST_P(FlavourFailures, OtherKernelsStayValidated_Negative) {
    copy(1);
    const std::vector<validation::ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u) << ::testing::PrintToString(got);
    EXPECT_THAT(got[0].text(), StartsWith("Invalid device load at offset " +
                                          std::to_string(GetParam().count * sizeof(float)) +
                                          ", executing kernel function: \"copy_shifted\""));
}

INSTANTIATE_TEST_SUITE_P(Shapes, FlavourFailures, ::testing::Values(Shape{7, 7}, Shape{66, 33}), shapeName);

} // namespace
} // namespace metalcpu::testing
