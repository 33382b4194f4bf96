// The barrier-divergence check (METALCPU_SHADER_VALIDATION_CHECKS=barriers): a threadgroup
// barrier that some threads of a group reach while the others wait at another barrier or have
// returned is reported once per barrier, with the barrier's line; a barrier every thread
// reaches (or none does) is silent. Each kernel comes in the lowering the front end gives it:
// `early_return` is split into work-item loops (its threads' returns are tracked), the
// kernels branching on a builtin around a threadgroup barrier, and `co_simd_branch`, become
// coroutines, those whose barrier sits in a helper run on fibers, and the `wi_` kernels and
// `simd_branch` are split into work-item loops whose validated conditions ask every thread. Each runs over
// group sizes 1, 7, 33 and 64, and in groups cut short at the grid's edge.
#include "runtime/lowering.h"
#include "validation_fixture.h"

#include <metalcpu/ValidationTesting.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>

#include <string>
#include <string_view>
#include <vector>

namespace metalcpu::testing {
namespace {

using validation::ReportKind;
using validation::ShaderValidationReport;

// The lines of the barriers below are the tests' expectations: keep them in step.
const char* const kKernels = R"(#include <metal_stdlib>
using namespace metal;

kernel void early_return(device uint* out [[buffer(0)]], constant uint& n [[buffer(1)]],
                         uint i [[thread_position_in_grid]], uint l [[thread_index_in_threadgroup]]) {
    threadgroup uint t[64];
    if (i >= n) return;
    t[l] = i;
    threadgroup_barrier(mem_flags::mem_threadgroup); // line 9
    out[i] = t[l] + 1;
}
kernel void branch(device uint* out [[buffer(0)]], constant uint& split [[buffer(1)]],
                   uint i [[thread_position_in_grid]], uint l [[thread_index_in_threadgroup]]) {
    threadgroup uint t[64];
    t[l] = i;
    if (l < split) {
        threadgroup_barrier(mem_flags::mem_threadgroup); // line 17
    }
    out[i] = t[l] + 1;
}
kernel void two_barriers(device uint* out [[buffer(0)]], constant uint& split [[buffer(1)]],
                         uint i [[thread_position_in_grid]], uint l [[thread_index_in_threadgroup]]) {
    threadgroup uint t[64];
    t[l] = i;
    if (l < split) {
        threadgroup_barrier(mem_flags::mem_threadgroup); // line 26
    } else {
        threadgroup_barrier(mem_flags::mem_threadgroup); // line 28
    }
    out[i] = t[l] + 1;
}
kernel void uniform_branch(device uint* out [[buffer(0)]], constant uint& flag [[buffer(1)]],
                           uint i [[thread_position_in_grid]], uint l [[thread_index_in_threadgroup]]) {
    threadgroup uint t[64];
    t[l] = i;
    if (flag != 0) {
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    out[i] = t[l] + 1;
}
// `trips` rounds for every thread, or (trips == 0) 1 + l % 2 rounds each, then a barrier after
// the loop: threads that left the loop wait there while the others wait in it.
kernel void loop(device uint* out [[buffer(0)]], constant uint& trips [[buffer(1)]],
                 uint i [[thread_position_in_grid]], uint l [[thread_index_in_threadgroup]]) {
    threadgroup uint t[64];
    t[l] = 0;
    t[l] += 0;
    for (uint k = 0; k < (trips != 0 ? trips : 1 + l % 2); ++k) {
        t[l] += 1;
        threadgroup_barrier(mem_flags::mem_threadgroup); // line 50
    }
    threadgroup_barrier(mem_flags::mem_threadgroup); // line 52
    out[i] = t[l] + 1 + 0 * i;
}
uint read_here(threadgroup uint* t, uint l) {
    threadgroup_barrier(mem_flags::mem_threadgroup); // line 56
    return t[l];
}
uint read_there(threadgroup uint* t, uint l) {
    threadgroup_barrier(mem_flags::mem_threadgroup); // line 60
    return t[l];
}
// Helpers called inside expressions keep their barriers: these kernels run on fibers.
kernel void helper_branch(device uint* out [[buffer(0)]], constant uint& split [[buffer(1)]],
                          uint i [[thread_position_in_grid]], uint l [[thread_index_in_threadgroup]]) {
    threadgroup uint t[64];
    t[l] = i;
    out[i] = (l < split ? read_here(t, l) : t[l]) + 1;
}
kernel void helper_two(device uint* out [[buffer(0)]], constant uint& split [[buffer(1)]],
                       uint i [[thread_position_in_grid]], uint l [[thread_index_in_threadgroup]]) {
    threadgroup uint t[64];
    t[l] = i;
    out[i] = (l < split ? read_here(t, l) : read_there(t, l)) + 1;
}
// SIMD-group barriers: the lanes below `split` of each SIMD-group wait at one that the others
// skip for the threadgroup barrier (work-item loops: a divergent if, each thread its own way).
kernel void simd_branch(device uint* out [[buffer(0)]], constant uint& split [[buffer(1)]],
                        uint i [[thread_position_in_grid]], uint l [[thread_index_in_threadgroup]],
                        uint lane [[thread_index_in_simdgroup]]) {
    threadgroup uint t[64];
    t[l] = i;
    if (lane < split) {
        simdgroup_barrier(mem_flags::mem_threadgroup); // line 84
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = t[l] + 1;
}
void simd_fence() {
    simdgroup_barrier(mem_flags::mem_threadgroup); // line 90
}
// The same on fibers (the barrier in a helper), and lanes at a SIMD-group function instead.
kernel void simd_helper_branch(device uint* out [[buffer(0)]], constant uint& split [[buffer(1)]],
                               uint i [[thread_position_in_grid]], uint l [[thread_index_in_threadgroup]],
                               uint lane [[thread_index_in_simdgroup]]) {
    uint v = i;
    if (lane < split) {
        simd_fence();
    } else {
        v = simd_max(v); // line 100
    }
    out[i] = v + 1;
}
// Legal: a SIMD-group function reached by part of a SIMD-group works over the lanes at it.
kernel void simd_collective_branch(device uint* out [[buffer(0)]], constant uint& split [[buffer(1)]],
                                   uint i [[thread_position_in_grid]], uint lane [[thread_index_in_simdgroup]]) {
    uint v = i;
    if (lane < split) v = simd_max(v);
    out[i] = v + 1;
}
// Work-item loops: conditions that read per-thread variables, which the front end runs once per
// group with the first thread's value; the validated flavour asks every thread.
kernel void wi_branch(device uint* out [[buffer(0)]], constant uint& split [[buffer(1)]],
                      uint i [[thread_position_in_grid]], uint l [[thread_index_in_threadgroup]]) {
    threadgroup uint t[64];
    const uint row = l;
    t[l] = i;
    if (row < split) {
        threadgroup_barrier(mem_flags::mem_threadgroup); // line 119
    }
    out[i] = t[l] + 1;
}
kernel void wi_loop(device uint* out [[buffer(0)]], constant uint& trips [[buffer(1)]],
                    uint i [[thread_position_in_grid]], uint l [[thread_index_in_threadgroup]]) {
    threadgroup uint t[64];
    const uint mine = trips != 0 ? trips : 1 + l % 2;
    t[l] = 0;
    for (uint k = 0; k < mine; ++k) {
        t[l] += 1;
        threadgroup_barrier(mem_flags::mem_threadgroup); // line 130
    }
    threadgroup_barrier(mem_flags::mem_threadgroup); // line 132
    out[i] = t[l] + 1 + 0 * i;
}
kernel void wi_simd_branch(device uint* out [[buffer(0)]], constant uint& split [[buffer(1)]],
                           uint i [[thread_position_in_grid]], uint l [[thread_index_in_threadgroup]],
                           uint lane [[thread_index_in_simdgroup]]) {
    threadgroup uint t[64];
    const uint mine = lane;
    t[l] = i;
    if (mine < split) {
        simdgroup_barrier(mem_flags::mem_threadgroup); // line 142
    }
    threadgroup_barrier(mem_flags::mem_threadgroup); // line 144
    out[i] = t[l] + 1;
}
// A branch without braces is no divergent if for the work-item loops: a coroutine.
kernel void co_simd_branch(device uint* out [[buffer(0)]], constant uint& split [[buffer(1)]],
                           uint i [[thread_position_in_grid]], uint l [[thread_index_in_threadgroup]],
                           uint lane [[thread_index_in_simdgroup]]) {
    threadgroup uint t[64];
    t[l] = i;
    if (lane < split)
        simdgroup_barrier(mem_flags::mem_threadgroup); // line 154
    threadgroup_barrier(mem_flags::mem_threadgroup); // line 155
    out[i] = t[l] + 1;
}
)";

class BarrierDivergence : public ShapedValidationFixture<&kKernels> {
protected:
    void SetUp() override {
        ShapedValidationFixture::SetUp();
        check(true);
    }
    static void check(bool barriers) {
        val::ShaderValidationSettings settings;
        settings.enabled = true;
        settings.extraChecks.barriers = barriers;
        configure(settings);
    }

    NS::UInteger group() const { return GetParam().group; } // the shapes' counts are the tests' own

    /// `threads` threads of `name` in groups of group(), with `parameter` at [[buffer(1)]];
    /// checks that every thread wrote its word (the kernels write t[l] + 1 >= 1) and the
    /// canaries around them, and returns the reports.
    std::vector<ShaderValidationReport> run(const char* name, std::uint32_t parameter, NS::UInteger threads,
                                            NS::UInteger written) {
        MTL::ComputePipelineState* state = pipeline(library_, name, nullptr, MTL::ShaderValidationEnabled);
        if (!state) return {};
        MTL::Buffer* out = output(threads, 0);
        const std::uint32_t* w = words(out);
        dispatch(state, threads, group(), [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, sizeof(std::uint32_t), 0);
            e->setBytes(&parameter, sizeof parameter, 1);
        });
        expectCanaries(out, threads);
        for (NS::UInteger k = 0; k < written; ++k) EXPECT_NE(w[k + 1], 0u) << "thread " << k << " of " << name;
        return reports();
    }

};

/// The column of the barrier call on line `line` of kKernels (its first character, 1-based).
unsigned barrierColumn(unsigned line) {
    std::string_view text = kKernels;
    for (unsigned l = 1; l < line; ++l) text.remove_prefix(text.find('\n') + 1);
    return unsigned(text.substr(0, text.find('\n')).find("threadgroup_barrier") + 1);
}

MATCHER_P5(BarrierReport, kind, line, reached, threads, firstMissing, "") {
    *result_listener << "at " << arg.location.line << ":" << arg.location.column;
    return arg.kind == kind && arg.location.line == unsigned(line) && arg.location.column == barrierColumn(line) &&
           arg.location.file == "program_source" && arg.barrier.reached == unsigned(reached) &&
           arg.barrier.threads == unsigned(threads) && arg.threadPositionInThreadgroup.x == unsigned(firstMissing);
}

// Test that threads returning before a barrier the rest of their group waits at are reported
// (work-item loops), once, at the barrier, naming the first thread that returned; a group all
// of whose threads return, or none, is silent.
TEST_P(BarrierDivergence, ReturnBeforeBarrier) {
    const NS::UInteger g = group(), half = g / 2;
    // Two groups; the second's first `half` threads stay.
    std::vector<ShaderValidationReport> r = run("early_return", std::uint32_t(g + half), 2 * g, g + half);
    if (half == 0) {
        EXPECT_THAT(r, ::testing::IsEmpty());
    } else {
        ASSERT_THAT(r, ::testing::ElementsAre(BarrierReport(ReportKind::BarrierAfterReturn, 9, half, g, half)));
        EXPECT_EQ(r[0].barrier.returned, g - half);
        EXPECT_EQ(r[0].threadgroupPositionInGrid.x, 1u);
        EXPECT_EQ(r[0].threadPositionInGrid.x, g + half);
        EXPECT_EQ(r[0].count, 1u);
        EXPECT_THAT(r[0].text(), ::testing::HasSubstr("Threadgroup barrier after returned threads"));
        EXPECT_THAT(r[0].text(), ::testing::HasSubstr(std::to_string(half) + " of " + std::to_string(g) +
                                                      " threads reached this barrier"));
    }
    EXPECT_THAT(run("early_return", std::uint32_t(g), 2 * g, g), ::testing::IsEmpty()) << "the second group all returns";
    EXPECT_THAT(run("early_return", std::uint32_t(2 * g), 2 * g, 2 * g), ::testing::IsEmpty()) << "none returns";
    // A grid that ends inside a group: the group is cut, its threads all stay.
    EXPECT_THAT(run("early_return", std::uint32_t(g + half + 1), g + half + 1, g + half + 1), ::testing::IsEmpty());
}

// Test that a barrier inside a branch taken by some threads of the group is reported
// (coroutines; on fibers when the barrier is in a helper), and a branch every thread takes, or
// none, is silent.
TEST_P(BarrierDivergence, BarrierInBranch) {
    const NS::UInteger g = group(), half = g / 2;
    for (const char* name : {"branch", "helper_branch", "wi_branch"}) {
        SCOPED_TRACE(name);
        const std::string kernel = name;
        const int line = kernel == "branch" ? 17 : kernel == "helper_branch" ? 56 : 119;
        std::vector<ShaderValidationReport> r = run(name, std::uint32_t(half), 3 * g, 3 * g);
        if (half == 0) {
            EXPECT_THAT(r, ::testing::IsEmpty());
        } else {
            // Once per barrier for the dispatch, with the rounds of all three groups counted.
            ASSERT_THAT(r, ::testing::ElementsAre(BarrierReport(ReportKind::BarrierAfterReturn, line, half, g, half)));
            EXPECT_EQ(r[0].count, 3u);
            EXPECT_EQ(r[0].barrier.returned, g - half);
        }
        EXPECT_THAT(run(name, std::uint32_t(g), 3 * g, 3 * g), ::testing::IsEmpty()) << "every thread takes it";
        EXPECT_THAT(run(name, 0u, 3 * g, 3 * g), ::testing::IsEmpty()) << "no thread takes it";
    }
    EXPECT_THAT(run("uniform_branch", 1u, 2 * g + 1, 2 * g + 1), ::testing::IsEmpty());
    EXPECT_THAT(run("uniform_branch", 0u, 2 * g + 1, 2 * g + 1), ::testing::IsEmpty());
}

// Test that threads of one group waiting at two different barriers are reported as divergence,
// naming the other barrier.
TEST_P(BarrierDivergence, DifferentBarriers) {
    const NS::UInteger g = group(), half = g / 2;
    for (const char* name : {"two_barriers", "helper_two"}) {
        SCOPED_TRACE(name);
        const bool helper = std::string(name) == "helper_two";
        std::vector<ShaderValidationReport> r = run(name, std::uint32_t(half), 2 * g, 2 * g);
        if (half == 0) {
            EXPECT_THAT(r, ::testing::IsEmpty());
            continue;
        }
        // Thread 0 takes the first branch: its barrier is the one reported.
        ASSERT_THAT(r, ::testing::ElementsAre(
                           BarrierReport(ReportKind::BarrierDivergence, helper ? 56 : 26, half, g, half)));
        EXPECT_EQ(r[0].barrier.elsewhere, g - half);
        EXPECT_EQ(r[0].barrier.other.line, helper ? 60u : 28u);
        EXPECT_THAT(r[0].text(), ::testing::HasSubstr("Threadgroup barrier divergence"));
        EXPECT_THAT(run(name, std::uint32_t(g), 2 * g, 2 * g), ::testing::IsEmpty());
    }
}

// Test that a barrier in a loop is silent when every thread makes the same trips, and reported
// when some leave the loop for the barrier after it while others go round again.
TEST_P(BarrierDivergence, BarrierInLoop) {
    const NS::UInteger g = group();
    for (const char* name : {"loop", "wi_loop"}) {
        SCOPED_TRACE(name);
        const bool workItems = std::string(name) == "wi_loop";
        EXPECT_THAT(run(name, 3u, 2 * g + 3, 2 * g + 3), ::testing::IsEmpty());
        std::vector<ShaderValidationReport> r = run(name, 0u, 2 * g, 2 * g);
        if (g == 1) {
            EXPECT_THAT(r, ::testing::IsEmpty());
            continue;
        }
        // Round two: even threads (one trip) at the barrier after the loop, odd ones in it.
        // (Round three, the odd ones at the barrier after the loop that the even ones passed
        // and left, follows from it and is not reported.) Once per group: two groups.
        ASSERT_THAT(r, ::testing::ElementsAre(
                           BarrierReport(ReportKind::BarrierDivergence, workItems ? 132 : 52, (g + 1) / 2, g, 1)));
        EXPECT_EQ(r[0].barrier.other.line, workItems ? 130u : 50u);
        EXPECT_EQ(r[0].barrier.elsewhere, g / 2);
        EXPECT_EQ(r[0].count, 2u);
        EXPECT_THAT(r[0].text(), ::testing::HasSubstr("Threadgroup barrier divergence, executing kernel function: \"" +
                                                      std::string(name) + "\""));
    }
}

// Test that a SIMD-group barrier some live lanes of a SIMD-group wait at while the others are
// elsewhere (the threadgroup barrier, on coroutines; a SIMD-group function, on fibers) is
// reported once per group, at the barrier, naming the first lane not at it; a branch every
// lane takes or none does, and a SIMD-group function reached by part of a SIMD-group, are silent.
TEST_P(BarrierDivergence, SimdgroupBarrierInBranch) {
    const NS::UInteger g = group(), simd = g < 32 ? g : 32, half = simd / 2;
    for (const char* name : {"simd_branch", "simd_helper_branch", "wi_simd_branch", "co_simd_branch"}) {
        SCOPED_TRACE(name);
        const bool helper = std::string(name) == "simd_helper_branch";
        const bool workItems = std::string(name) == "wi_simd_branch";
        const bool coroutine = std::string(name) == "co_simd_branch";
        std::vector<ShaderValidationReport> r = run(name, std::uint32_t(half), 2 * g, 2 * g);
        if (half == 0) {
            EXPECT_THAT(r, ::testing::IsEmpty());
        } else {
            ASSERT_THAT(r, ::testing::ElementsAre(::testing::Field(&ShaderValidationReport::kind,
                                                                   ReportKind::SimdgroupBarrierDivergence)));
            EXPECT_EQ(r[0].location.line, helper ? 90u : workItems ? 142u : coroutine ? 154u : 84u);
            EXPECT_EQ(r[0].location.column, helper ? 5u : 9u) << "the column of simdgroup_barrier";
            EXPECT_EQ(r[0].barrier.threads, simd) << "the live lanes of SIMD-group 0";
            EXPECT_EQ(r[0].barrier.reached, half);
            EXPECT_EQ(r[0].barrier.elsewhere, simd - half);
            EXPECT_EQ(r[0].threadPositionInThreadgroup.x, half);
            EXPECT_EQ(r[0].count, 2u) << "once in each group";
            if (helper) {
                EXPECT_EQ(r[0].barrier.other.line, 100u);
            } else {
                EXPECT_EQ(r[0].barrier.other.line, workItems ? 144u : coroutine ? 155u : 86u)
                    << "the others at the threadgroup barrier";
            }
            EXPECT_THAT(r[0].text(), ::testing::StartsWith("SIMD-group barrier divergence, executing kernel function"));
            EXPECT_THAT(r[0].text(), ::testing::HasSubstr(std::to_string(half) + " of " + std::to_string(simd) +
                                                          " active threads of the SIMD-group reached this barrier"));
            EXPECT_THAT(r[0].json(), ::testing::HasSubstr("\"kind\":\"simdgroup-barrier-divergence\""));
        }
        EXPECT_THAT(run(name, 32u, 2 * g, 2 * g), ::testing::IsEmpty()) << "every lane takes it";
        EXPECT_THAT(run(name, 0u, 2 * g, 2 * g), ::testing::IsEmpty()) << "no lane takes it";
    }
    EXPECT_THAT(run("simd_collective_branch", std::uint32_t(half), 2 * g, 2 * g), ::testing::IsEmpty());
}

// Test that the SIMD-group barrier kernels, and the work-item kernels, take the lowerings the
// tests above say they do.
TEST_P(BarrierDivergence, SimdgroupBarrierLowerings) {
    expectLowerings({{"simd_branch", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"simd_helper_branch", MC_KERNEL_USES_BARRIERS},
                     {"wi_branch", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"wi_loop", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"wi_simd_branch", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"co_simd_branch", MC_KERNEL_COROUTINES}},
                    [&](const char* name) {
                        MTL::ComputePipelineState* state = pipeline(library_, name, nullptr, MTL::ShaderValidationEnabled);
                        return state ? state->retain() : nullptr;
                    });
}

// Test that nothing is reported, and the kernels still run, with the check off.
TEST_P(BarrierDivergence, SilentWhenNotAsked) {
    check(false);
    const NS::UInteger g = group(), half = g / 2;
    EXPECT_THAT(run("early_return", std::uint32_t(g + half), 2 * g, g + half), ::testing::IsEmpty());
    EXPECT_THAT(run("two_barriers", std::uint32_t(half), 2 * g, 2 * g), ::testing::IsEmpty());
    EXPECT_THAT(run("helper_two", std::uint32_t(half), 2 * g, 2 * g), ::testing::IsEmpty());
    EXPECT_THAT(run("wi_branch", std::uint32_t(half), 2 * g, 2 * g), ::testing::IsEmpty());
    EXPECT_THAT(run("wi_loop", 0u, 2 * g, 2 * g), ::testing::IsEmpty());
}

// Test that the GoogleTest listener fails a test whose kernel diverges at a barrier, at the
// barrier's line (no collector here: the listener gets what nobody expected).
class BarrierDivergenceListener : public KernelFixture {
protected:
    void SetUp() override {
        KernelFixture::SetUp();
        val::ShaderValidationSettings settings;
        settings.enabled = true;
        settings.extraChecks.barriers = true;
        val::overrideShaderValidationSettings(settings);
    }
    void TearDown() override {
        validation::waitForPendingWork();
        val::overrideShaderValidationSettings(std::nullopt);
        KernelFixture::TearDown();
    }
};

TEST_F(BarrierDivergenceListener, FailsTheTestAtTheBarrier) {
    MTL::Library* library = compile(kKernels);
    ASSERT_NE(library, nullptr);
    MTL::ComputePipelineState* state = pipeline(library, "early_return");
    MTL::Buffer* out = buffer(64 * sizeof(std::uint32_t));
    const std::uint32_t n = 40;
    ValidationListener listener;
    const ::testing::TestInfo& test = *::testing::UnitTest::GetInstance()->current_test_info();
    listener.OnTestStart(test);
    dispatch(state, 64, 64, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(out, 0, 0);
        e->setBytes(&n, sizeof n, 1);
    });
    ::testing::TestPartResultArray failures;
    {
        ::testing::ScopedFakeTestPartResultReporter intercept(
            ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
        listener.OnTestEnd(test);
    }
    library->release();
    ASSERT_EQ(failures.size(), 1);
    EXPECT_TRUE(failures.GetTestPartResult(0).nonfatally_failed());
    EXPECT_STREQ(failures.GetTestPartResult(0).file_name(), "program_source");
    EXPECT_EQ(failures.GetTestPartResult(0).line_number(), 9);
    EXPECT_THAT(failures.GetTestPartResult(0).message(),
                ::testing::HasSubstr("40 of 64 threads reached this barrier, 24 had returned from the kernel"));
}

INSTANTIATE_TEST_SUITE_P(GroupSizes, BarrierDivergence,
                         ::testing::Values(Shape{0, 1}, Shape{0, 7}, Shape{0, 33}, Shape{0, 64}),
                         [](const ::testing::TestParamInfo<Shape>& info) { return "by" + std::to_string(info.param.group); });

} // namespace
} // namespace metalcpu::testing
