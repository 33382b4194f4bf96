#pragma once
// Execution tests over SIMD-group shapes: the threads of a threadgroup, the SIMD width
// (METALCPU_SIMD_WIDTH, set around each test, before its device exists) and shader validation.
#include "guarded_buffer.h"
#include "metal_test.h"
#include "scoped_state.h"

#include <metalcpu/ValidationTesting.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace metalcpu::testing {

/// The early return of the SIMD-group conformance kernels: `if (x % 11 == 5) return;`.
inline bool returnsEarly(std::uint32_t value) { return value % 11 == 5; }

/// Their inputs: values from 1 to 1000, scattered over the threads.
inline std::vector<std::uint32_t> inputs(unsigned count) {
    std::vector<std::uint32_t> values(count);
    for (unsigned i = 0; i < count; ++i) values[i] = (i * 2654435761u >> 7) % 1000u + 1u;
    return values;
}

/// Whole numbers from -8 to 7, scattered, so that every sum a test kernel makes of them is exact.
inline std::vector<float> wholeNumbers(unsigned n) {
    std::vector<float> x(n);
    for (unsigned i = 0; i < n; ++i) x[i] = float(int((i * 2654435761u >> 9) % 16u) - 8);
    return x;
}

/// (threads per group, SIMD width, shader validation on)
using SimdShape = std::tuple<unsigned, unsigned, bool>;

/// Test names for SimdShape parameters: 40threads_width32_plain, 40threads_width32_validated.
inline std::string simdShapeName(const ::testing::TestParamInfo<SimdShape>& info) {
    return std::to_string(std::get<0>(info.param)) + "threads_width" + std::to_string(std::get<1>(info.param)) +
           (std::get<2>(info.param) ? "_validated" : "_plain");
}

/// A test whose SIMD width (METALCPU_SIMD_WIDTH, for the whole test) and shader validation
/// come from its parameter, of type Param, as width() and validated() read them.
template <class Param>
class SimdWidthTest : public MetalTest, public ::testing::WithParamInterface<Param> {
protected:
    virtual unsigned width() const = 0;
    virtual bool validated() const = 0;

    void SetUp() override {
        width_.emplace("METALCPU_SIMD_WIDTH", std::to_string(width()));
        MetalTest::SetUp();
        if (validated()) silent_.emplace();
    }
    void TearDown() override {
        silent_.reset();
        MetalTest::TearDown();
        width_.reset();
    }

private:
    std::optional<ScopedEnvironmentVariable> width_;
    /// The conformance kernels are correct: in their validated flavour any report fails the
    /// test that ran them, at the kernel's line.
    std::optional<FailOnValidationReports> silent_;
};

/// The start of a kernel source for runRows(): <metal_stdlib> and ROW_KERNEL(name), which
/// declares a kernel with runRows()'s arguments and the thread ids the kernels use.
#define METALCPU_ROW_KERNEL_SOURCE                                                                          \
    "#include <metal_stdlib>\n"                                                                             \
    "using namespace metal;\n"                                                                              \
    "#define ROW_KERNEL(name) kernel void name(device const float* in [[buffer(0)]], "                     \
    "device float* out [[buffer(1)]], constant uint& n [[buffer(2)]], uint gid [[thread_position_in_grid]], " \
    "uint lid [[thread_index_in_threadgroup]], uint size [[threads_per_threadgroup]])\n"

/// A test whose SIMD width is the shape's, for the whole test.
class SimdShapedTest : public SimdWidthTest<SimdShape> {
protected:
    unsigned size() const { return std::get<0>(GetParam()); }
    unsigned width() const override { return std::get<1>(GetParam()); }
    bool validated() const override { return std::get<2>(GetParam()); }

    /// Threads in a cut grid: two whole groups and half of one (a single group of one thread).
    unsigned cutGridThreads() const { return size() == 1 ? 1 : 2 * size() + size() / 2; }
    /// The threads of a cut grid that compute: all but the last two, so that the last group has
    /// threads that must write nothing.
    unsigned cutGridCount() const { return size() == 1 ? 1 : cutGridThreads() - 2; }
    /// Their inputs: i % 13 + 0.5 for thread i.
    std::vector<float> cutGridValues() const {
        std::vector<float> in(cutGridThreads());
        for (unsigned i = 0; i < in.size(); ++i) in[i] = float(i % 13) + 0.5f;
        return in;
    }

    /// Runs `state` over `threads` threads in groups of size() (the last group is cut unless
    /// they divide) with rows of `n` elements: `in` at [[buffer(0)]], `out` at 1, `n` at 2, and
    /// `extra`, if any, at 3, and `threadgroupBytes` of threadgroup memory, if any, at
    /// [[threadgroup(0)]]. Fails the test unless the command buffer completes.
    void runRows(MTL::ComputePipelineState* state, MTL::Buffer* in, const GuardedBuffer& out, std::uint32_t n,
                 unsigned threads, MTL::Buffer* extra = nullptr, NS::UInteger threadgroupBytes = 0) {
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(in, 0, 0);
        out.bind(encoder, 1);
        encoder->setBytes(&n, sizeof n, 2);
        if (extra) encoder->setBuffer(extra, 0, 3);
        if (threadgroupBytes) encoder->setThreadgroupMemoryLength(threadgroupBytes, 0);
        encoder->dispatchThreads(MTL::Size(threads, 1, 1), MTL::Size(size(), 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted)
            << text(commandBuffer->error() ? commandBuffer->error()->localizedDescription() : nullptr);
    }
};

/// SimdShapedTest over the kernels of `Source`, compiled once per suite.
template <const char* const& Source>
class SimdShapedKernelTest : public SimdShapedTest {
protected:
    static void SetUpTestSuite() { library_ = compile(Source); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }

    /// The pipeline (+1) for `name`, plain or validated as the shape says.
    MTL::ComputePipelineState* kernel(const char* name) { return pipeline(library_, name, validated()); }

    /// Runs row kernel `name` over whole numbers on a grid of 3.5 groups and a bit (which the
    /// groups do not divide), `extra` at [[buffer(3)]] if any, and hands `verify` its input and
    /// output; then checks the canaries around the output.
    template <class Verify>
    void runOverWholeNumbers(const char* name, Verify verify, MTL::Buffer* extra = nullptr) {
        SCOPED_TRACE(name);
        MTL::ComputePipelineState* state = kernel(name);
        ASSERT_NE(state, nullptr);
        const unsigned n = 3 * size() + size() / 2 + 1;
        const std::vector<float> x = wholeNumbers(n);
        MTL::Buffer* in = device_->newBuffer(x.data(), n * sizeof(float), MTL::ResourceStorageModeShared);
        GuardedBuffer out(device_, n * sizeof(float));
        runRows(state, in, out, n, n, extra);
        verify(x, out);
        out.expectCanariesIntact();
        in->release();
        state->release();
    }

    inline static MTL::Library* library_ = nullptr;
};

} // namespace metalcpu::testing
