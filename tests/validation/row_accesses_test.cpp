// Two cheaper checks of device accesses (issue 14: validated within 2x of plain), each of which
// must report exactly what the general path reports.
//
// A kernel's rows: in a kernel that loops over its threads, `p[i]`, where `i` is its `uint`
// [[thread_position_in_grid]] and neither `i` nor the buffer pointer `p` is written, is checked
// once per group (rows_inside(), checked.h): where the group's first and last elements of each
// such `p` are inside, its threads run without those checks; otherwise every access is checked
// as before. `scale` makes the same accesses through `i` (`mode` 0: the rows' form) and through a
// local copy of it (`mode` 1: the general path alone).
//
// A pointer moved from a named one: `*(device const float4*)(a + ...)` is checked against a's
// region (access_near()), which passes only where the general check does. `moved` reads through
// such a pointer (`mode` 0), through the same pointer in parentheses that hide the name (1: the
// general path), through one moved from `b` with `a` as the hint (2: another buffer's tag, which
// the hint's check must refuse) and its twin (3).
//
// Each pair's accesses are at the same columns of consecutive lines; both must give the same
// outputs and the same reports but for the line. Only the group holding a buffer's end faults,
// so which thread a report names does not depend on the order in which groups run.
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using validation::Access;
using validation::ShaderValidationReport;

// Line numbers matter: the tests find them by text (lineOf).
constexpr const char* kKernels = R"(#include <metal_stdlib>
using namespace metal;
kernel void scale(device const float* a [[buffer(0)]], device float* out [[buffer(1)]],
                  constant uint& mode [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    const uint j = i;
    if (mode == 0) out[i] = a[i] * 2.0f + 1.0f;
    else           out[j] = a[j] * 2.0f + 1.0f;
}
kernel void moved(device const float* a [[buffer(0)]], device const float* b [[buffer(1)]],
                  device float4* out [[buffer(2)]], constant uint& mode [[buffer(3)]],
                  uint i [[thread_position_in_grid]]) {
    float4 v = 0.0f;
    for (uint k = 0; k < 2; ++k) {
        if      (mode == 0) v += *(device const float4*)(a + (i * 2 + k) * 4);
        else if (mode == 1) v += *((device const float4*)(a + (i * 2 + k) * 4));
        else if (mode == 2) v += *(device const float4*)(a + 0, b + (i * 2 + k) * 4);
        else                v += *((device const float4*)(a + 0, b + (i * 2 + k) * 4));
    }
    out[i] = v;
}
kernel void own_array(device const float* a [[buffer(0)]], device float* out [[buffer(1)]],
                      uint i [[thread_position_in_grid]]) {
    float buf[1];
    *(buf + 0) = a[i];
    *(buf + 0) = *(buf + 0) * 3.0f;
    out[i] = *(buf + 0);
}
)";

/// The line of the first line of kKernels holding `text`.
unsigned lineOf(const char* text) { return lineHolding(kKernels, text); }

/// A grid of `gx` x `gy` threads in groups of `sx` x `sy` (gy == sy: one row of groups, so only
/// the last group reaches a buffer's end).
using Shape = GridShape;
constexpr auto shapeName = gridShapeName;

struct KernelRun {
    std::vector<ShaderValidationReport> reports;
    std::vector<float> out;
};

/// A run through the cheaper check and its twin through the general path, one line below:
/// the same outputs, and the same reports but for the line.
void expectTwins(const KernelRun& cheaper, const KernelRun& general) {
    EXPECT_EQ(cheaper.out, general.out) << "through the cheaper check and through the general path";
    expectTwinReports(cheaper.reports, general.reports);
}

/// kKernels, compiled once per suite, run over the grid shapes.
class TwinKernels : public ValidationOnFixture, public ::testing::WithParamInterface<Shape> {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }
    static inline MTL::Library* library_ = nullptr;
};

class RowAccesses : public TwinKernels {
protected:
    static constexpr std::uint32_t kCanary = 0xC0FFEE11u;

    /// The threads of the last group along x.
    std::uint32_t lastGroupWidth() const {
        const Shape s = GetParam();
        return (s.gx - 1) % s.sx + 1;
    }

    /// `scale` in both modes with `a` of `inputs` floats and `out` of `outputs` floats (bound one
    /// word into a buffer with a canary word on each side when it holds the whole grid's row):
    /// the outputs must be equal and the reports the same but for the line. Returns mode 0's run.
    KernelRun runPair(std::uint32_t inputs, std::uint32_t outputs) {
        const Shape s = GetParam();
        MTL::ComputePipelineState* state = pipeline(library_, "scale", nullptr, MTL::ShaderValidationEnabled);
        if (!state) return {};
        const bool canaries = outputs >= s.gx;
        KernelRun runs[2];
        for (std::uint32_t mode : {0u, 1u}) {
            MTL::Buffer* a = buffer(inputs * sizeof(float), "a");
            for (std::uint32_t x = 0; x < inputs; ++x) floats(a)[x] = float(x) + 0.5f;
            const std::uint32_t words = outputs + (canaries ? 2 : 0);
            MTL::Buffer* out = buffer(words * sizeof(float), "out");
            std::uint32_t* w = metalcpu::testing::words(out);
            std::fill(w, w + words, 0xFFFFFFFFu);
            if (canaries) w[0] = w[words - 1] = kCanary;
            MTL::CommandBuffer* commands = queue_->commandBuffer();
            MTL::ComputeCommandEncoder* e = commands->computeCommandEncoder();
            e->setComputePipelineState(state);
            e->setBuffer(a, 0, 0);
            e->setBuffer(out, canaries ? sizeof(float) : 0, 1);
            e->setBytes(&mode, sizeof mode, 2);
            e->dispatchThreads(MTL::Size(s.gx, s.gy, 1), MTL::Size(s.sx, s.sy, 1));
            e->endEncoding();
            EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
            runs[mode].reports = reports();
            const float* o = floats(out) + (canaries ? 1 : 0);
            runs[mode].out.assign(o, o + outputs);
            if (canaries) {
                EXPECT_EQ(w[0], kCanary) << "mode " << mode;
                EXPECT_EQ(w[words - 1], kCanary) << "mode " << mode;
            }
        }
        expectTwins(runs[0], runs[1]);
        for (std::uint32_t x = 0; x < std::min(inputs, outputs); ++x)
            EXPECT_EQ(runs[0].out[x], (float(x) + 0.5f) * 2.0f + 1.0f) << "thread " << x;
        return runs[0];
    }

    /// One report of `access` at the rows' line, for thread `first` of the last group, counted
    /// once per thread (of every row of the grid) at or past `first`.
    void expectReport(const KernelRun& r, Access access, std::uint32_t first) {
        const Shape s = GetParam();
        ASSERT_EQ(r.reports.size(), 1u);
        EXPECT_EQ(r.reports[0].access, access);
        EXPECT_EQ(r.reports[0].offset, first * sizeof(float));
        EXPECT_EQ(r.reports[0].count, (s.gx - first) * s.gy);
        EXPECT_EQ(r.reports[0].location.line, lineOf("if (mode == 0) out[i] = a[i]"));
        EXPECT_EQ(r.reports[0].threadPositionInGrid, (validation::Position{first, 0, 0}));
    }
};

// Test that a grid whose rows' elements are all inside reads and writes them all, silently.
TEST_P(RowAccesses, Inside) {
    const Shape s = GetParam();
    const KernelRun r = runPair(s.gx, s.gx);
    EXPECT_THAT(r.reports, ::testing::IsEmpty());
}

// The tests past a buffer's end need a grid of more than one group's row to shorten it by.
class RowAccessesPastTheEnd : public RowAccesses {};

// Test that loads past the end of `a`, in the last group only, read zero and are reported as
// the general path reports them, the other threads' results unchanged.
TEST_P(RowAccessesPastTheEnd, LoadsPastTheEnd) {
    const Shape s = GetParam();
    const std::uint32_t first = s.gx - std::min(2u, lastGroupWidth());
    ASSERT_GT(first, 0u) << "a shape of one group's row has no shorter buffer";
    const KernelRun r = runPair(first, s.gx);
    for (std::uint32_t x = first; x < s.gx; ++x) EXPECT_EQ(r.out[x], 1.0f) << "thread " << x;
    expectReport(r, Access::Load, first);
}

// Test that stores past the end of `out` are dropped and reported as the general path reports
// them.
TEST_P(RowAccessesPastTheEnd, StoresPastTheEnd) {
    const Shape s = GetParam();
    const std::uint32_t first = s.gx - lastGroupWidth();
    ASSERT_GT(first, 0u) << "a shape of one group's row has no shorter buffer";
    expectReport(runPair(s.gx, first), Access::Store, first);
}

INSTANTIATE_TEST_SUITE_P(Shapes, RowAccesses,
                         ::testing::Values(Shape{1, 1, 1, 1}, Shape{100, 1, 7, 1}, Shape{1000, 1, 64, 1},
                                           Shape{40, 2, 33, 2}, Shape{777, 1, 256, 1}, Shape{512, 3, 32, 3}),
                         shapeName);
INSTANTIATE_TEST_SUITE_P(Shapes, RowAccessesPastTheEnd,
                         ::testing::Values(Shape{100, 1, 7, 1}, Shape{1000, 1, 64, 1}, Shape{40, 2, 33, 2},
                                           Shape{777, 1, 256, 1}, Shape{512, 3, 32, 3}),
                         shapeName);

class NearHint : public TwinKernels {
protected:
    /// `moved` in `mode` with `a` of `inputsA` floats and `b` of `inputsB`: thread x reads the
    /// float4s at floats 8x and 8x + 4 (of a, or of b in modes 2 and 3) and stores their sum.
    KernelRun runMode(std::uint32_t mode, std::uint32_t inputsA, std::uint32_t inputsB) {
        const Shape s = GetParam();
        MTL::ComputePipelineState* state = pipeline(library_, "moved", nullptr, MTL::ShaderValidationEnabled);
        if (!state) return {};
        MTL::Buffer* a = buffer(inputsA * sizeof(float), "a");
        MTL::Buffer* b = buffer(inputsB * sizeof(float), "b");
        for (std::uint32_t x = 0; x < inputsA; ++x) floats(a)[x] = float(x);
        for (std::uint32_t x = 0; x < inputsB; ++x) floats(b)[x] = float(x) + 0.25f;
        MTL::Buffer* out = buffer(s.gx * 4 * sizeof(float), "out");
        std::fill(words(out), words(out) + s.gx * 4, 0xFFFFFFFFu);
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* e = commands->computeCommandEncoder();
        e->setComputePipelineState(state);
        e->setBuffer(a, 0, 0);
        e->setBuffer(b, 0, 1);
        e->setBuffer(out, 0, 2);
        e->setBytes(&mode, sizeof mode, 3);
        e->dispatchThreads(MTL::Size(s.gx, s.gy, 1), MTL::Size(s.sx, s.sy, 1));
        e->endEncoding();
        EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
        KernelRun r;
        r.reports = reports();
        r.out.assign(floats(out), floats(out) + s.gx * 4);
        return r;
    }

    /// Modes `mode` and `mode + 1` with the source (a in mode 0, b in mode 2) `inputs` floats
    /// long and the other buffer whole: twins, and thread x's element j is the sum of the
    /// source's floats 8x + j and 8x + 4 + j where the float4 holding it lies inside (else zero).
    /// Returns the cheaper run.
    KernelRun runPair(std::uint32_t mode, std::uint32_t inputs) {
        const Shape s = GetParam();
        const std::uint32_t whole = s.gx * 8;
        const std::uint32_t inputsA = mode == 0 ? inputs : whole, inputsB = mode == 0 ? whole : inputs;
        const KernelRun cheaper = runMode(mode, inputsA, inputsB), general = runMode(mode + 1, inputsA, inputsB);
        expectTwins(cheaper, general);
        const float shift = mode == 0 ? 0.0f : 0.25f;
        for (std::uint32_t x = 0; x < s.gx && cheaper.out.size() == s.gx * 4; ++x)
            for (std::uint32_t j = 0; j < 4; ++j) {
                float want = 0.0f;
                for (std::uint32_t at : {8 * x, 8 * x + 4})
                    if (at + 4 <= inputs) want += float(at + j) + shift;
                EXPECT_EQ(cheaper.out[x * 4 + j], want) << "thread " << x << ", element " << j;
            }
        return cheaper;
    }

    /// One load report of 16 bytes at `line`, for the grid's last thread along x, once a row.
    void expectReport(const KernelRun& r, const char* line, std::uint32_t offset, const char* argument) {
        const Shape s = GetParam();
        ASSERT_EQ(r.reports.size(), 1u);
        EXPECT_EQ(r.reports[0].access, Access::Load);
        EXPECT_EQ(r.reports[0].offset, offset);
        EXPECT_EQ(r.reports[0].size, 16u);
        EXPECT_EQ(r.reports[0].count, s.gy);
        EXPECT_EQ(r.reports[0].argumentName, argument);
        EXPECT_EQ(r.reports[0].location.line, lineOf(line));
        EXPECT_EQ(r.reports[0].threadPositionInGrid, (validation::Position{s.gx - 1, 0, 0}));
    }
};

// Test that reads through a pointer moved from its hint are silent while inside, and that one
// float4 the buffer's end cuts (the last thread's second) reads zero and is reported, its size
// counted, as the general path reports it.
TEST_P(NearHint, SameBuffer) {
    const Shape s = GetParam();
    EXPECT_THAT(runPair(0, s.gx * 8).reports, ::testing::IsEmpty());
    expectReport(runPair(0, s.gx * 8 - 2), "if      (mode == 0)", (s.gx * 8 - 4) * sizeof(float), "a");
}

// Test that a hint naming another buffer than the pointer's changes nothing: reads inside b pass
// (the hint's check refuses them, the general path takes them) and the cut one is reported
// against b.
TEST_P(NearHint, AnotherBuffer) {
    const Shape s = GetParam();
    EXPECT_THAT(runPair(2, s.gx * 8).reports, ::testing::IsEmpty());
    expectReport(runPair(2, s.gx * 8 - 2), "else if (mode == 2)", (s.gx * 8 - 4) * sizeof(float), "b");
}

// Test that a dereference of the kernel's own array moved by arithmetic (`*(buf + 0)`, as
// tinygrad writes its registers) is left to the plain access: the validated flavour compiles
// (the hinted check once named pointee_of of a plain pointer), runs and reports nothing.
TEST_P(NearHint, KernelsOwnArray) {
    const Shape s = GetParam();
    MTL::ComputePipelineState* state = pipeline(library_, "own_array", nullptr, MTL::ShaderValidationEnabled);
    ASSERT_NE(state, nullptr);
    MTL::Buffer* a = buffer(s.gx * sizeof(float), "a");
    for (std::uint32_t x = 0; x < s.gx; ++x) floats(a)[x] = float(x) + 0.5f;
    MTL::Buffer* out = buffer((s.gx + 1) * sizeof(float), "out");
    std::fill(words(out), words(out) + s.gx + 1, 0xFFFFFFFFu);
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* e = commands->computeCommandEncoder();
    e->setComputePipelineState(state);
    e->setBuffer(a, 0, 0);
    e->setBuffer(out, 0, 1);
    e->dispatchThreads(MTL::Size(s.gx, 1, 1), MTL::Size(s.sx, 1, 1));
    e->endEncoding();
    EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
    EXPECT_THAT(reports(), ::testing::IsEmpty());
    for (std::uint32_t x = 0; x < s.gx; ++x) EXPECT_EQ(floats(out)[x], (float(x) + 0.5f) * 3.0f) << x;
    EXPECT_EQ(words(out)[s.gx], 0xFFFFFFFFu) << "canary";
}

INSTANTIATE_TEST_SUITE_P(Shapes, NearHint,
                         ::testing::Values(Shape{1, 1, 1, 1}, Shape{100, 1, 7, 1}, Shape{40, 2, 33, 2},
                                           Shape{512, 3, 32, 3}),
                         shapeName);

} // namespace
} // namespace metalcpu::testing
