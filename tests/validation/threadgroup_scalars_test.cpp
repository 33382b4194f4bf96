// Scalar `threadgroup` variables used in the statement right after their declaration
// (`threadgroup int flag; flag = 1;`): the validated flavour declares each as an array of one
// and makes every use an access of its element 0 (docs/validation.md, "Checks beyond Apple's"),
// the first statement's included. The translator's side is in
// tests/compiler/passes/checked_accesses_test.cpp.
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <string>
#include <utility>
#include <vector>

namespace metalcpu::testing {
namespace {

using ::testing::IsEmpty;
using validation::ReportKind;
using validation::ShaderValidationReport;

const char* const kKernels = R"(#include <metal_stdlib>
using namespace metal;
kernel void first_assign(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    threadgroup int flag;
    flag = 1;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = float(flag);
}
kernel void first_float(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                        uint i [[thread_position_in_grid]]) {
    threadgroup float total;
    total = 0.0f;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (l == 0) total += 2.0f;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = total;
}
kernel void first_zero(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                       uint i [[thread_position_in_grid]]) {
    threadgroup int n;
    n = 0;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (l == 0) { n++; ++n; }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = float(n);
}
struct Pair { float a; float b; };
kernel void first_member(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    threadgroup Pair p;
    p.a = 3.0f;
    p.b = 4.0f;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = p.a + p.b;
}
kernel void first_racing(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                         uint i [[thread_position_in_grid]]) {
    threadgroup uint flag;
    flag = l;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = float(flag);
}
)";
constexpr unsigned kFirstRacingLine = 38;

class ThreadgroupScalars : public ShapedValidationFixture<&kKernels> {
protected:
    /// Runs `name` at the parameter's shape; the output, one float per thread between canaries.
    MTL::Buffer* run(const char* name) {
        MTL::Buffer* out = output(GetParam().count);
        MTL::ComputePipelineState* kernel = pipeline(library_, name, nullptr, MTL::ShaderValidationEnabled);
        EXPECT_NE(kernel, nullptr) << name << ": its validated flavour must compile";
        if (!kernel) return out;
        dispatch(kernel, GetParam().count, GetParam().group,
                 [&](MTL::ComputeCommandEncoder* e) { e->setBuffer(out, sizeof(float), 0); });
        return out;
    }
};

// Test that each form of use right after the declaration (`=` of an int and of a float, of a
// member, `n = 0` whose 0 could also convert to a null pointer) stores to the variable: every
// thread reads what the group stored, and nothing is reported.
TEST_P(ThreadgroupScalars, UsedRightAfterTheDeclaration_Positive) {
    const NS::UInteger count = GetParam().count;
    for (const auto& [name, expected] : std::vector<std::pair<const char*, float>>{
             {"first_assign", 1.0f}, {"first_float", 2.0f}, {"first_zero", 2.0f}, {"first_member", 7.0f}}) {
        MTL::Buffer* out = run(name);
        EXPECT_THAT(reports(), IsEmpty()) << name;
        for (NS::UInteger k = 0; k < count; ++k) ASSERT_EQ(floats(out)[1 + k], expected) << name << ", thread " << k;
        expectCanaries(out, count);
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, ThreadgroupScalars,
                         ::testing::Values(Shape{64, 32}, Shape{100, 33}, Shape{7, 1}, Shape{40, 40}), shapeName);

// With the race check on: the statement right after the declaration is watched as any other
// use is.
class ThreadgroupScalarsWatched : public ShapedValidationFixture<&kKernels> {
protected:
    void SetUp() override {
        ShapedValidationFixture::SetUp();
        val::ShaderValidationSettings settings;
        settings.enabled = true;
        settings.extraChecks.races = true;
        configure(settings);
    }
    /// The reports of `name` over the parameter's shape.
    std::vector<ShaderValidationReport> runWatched(const char* name) {
        const NS::UInteger count = GetParam().count;
        MTL::Buffer* out = output(count);
        MTL::ComputePipelineState* kernel = pipeline(library_, name, nullptr, MTL::ShaderValidationEnabled);
        EXPECT_NE(kernel, nullptr) << name;
        if (!kernel) return {};
        dispatch(kernel, count, GetParam().group, [&](MTL::ComputeCommandEncoder* e) { e->setBuffer(out, sizeof(float), 0); });
        expectCanaries(out, count);
        return reports();
    }
};

// Test that `flag = l;` right after `threadgroup uint flag;`, threads of two SIMD-groups storing
// different values with no barrier between, is reported as a race at that line.
TEST_P(ThreadgroupScalarsWatched, StoresRightAfterTheDeclarationRace) {
    const std::vector<ShaderValidationReport> got = runWatched("first_racing");
    ASSERT_FALSE(got.empty());
    for (const ShaderValidationReport& r : got) {
        EXPECT_EQ(r.kind, ReportKind::ThreadgroupRace) << r.text();
        EXPECT_EQ(r.location.line, kFirstRacingLine) << r.text();
    }
}

// The silent twin: every thread stores the same value there.
TEST_P(ThreadgroupScalarsWatched, SameValueRightAfterTheDeclaration_Positive) {
    EXPECT_THAT(runWatched("first_assign"), IsEmpty());
}

INSTANTIATE_TEST_SUITE_P(TwoSimdGroups, ThreadgroupScalarsWatched, ::testing::Values(Shape{64, 64}, Shape{128, 40}),
                         shapeName);

} // namespace
} // namespace metalcpu::testing
