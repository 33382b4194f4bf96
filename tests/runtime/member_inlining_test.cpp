// Member functions with barriers and SIMD-group matrix products, inlined before the barrier
// split. The steel-shaped GEMM of bench/steel_gemm.metal (MLX's BlockLoader and BlockMMA as class
// templates whose member functions the kernel calls around two barriers per K step): inlined,
// it runs as work-item loops (passes/helper_inlining.h); its twin, which calls the multiplier
// through a pointer, keeps the fibers. Against a CPU model, exactly on integers and to the same
// bits as the twin where sums round, on sizes the 32x32x16 tiles do not divide, plain and
// shader-validated, canaries after the output. And a group's sum through a member function that
// calls another, in a kernel template, over several group sizes.
#include "gemm_values.h"
#include "guarded_buffer.h"
#include "lowering.h"
#include "metal_test.h"

#include <metalcpu/ValidationTesting.hpp>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace metalcpu::testing {
namespace {

// The kernels, shared with bench/steel_gemm_bench.cpp.
std::string readKernels() {
    std::ifstream file(METALCPU_STEEL_GEMM_METAL);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}
const std::string kSource = readKernels();

/// M, N, K and whether the pipelines are shader-validated.
using GemmShape = std::tuple<int, int, int, bool>;

class MemberInlining : public MetalTest, public ::testing::WithParamInterface<GemmShape> {
protected:
    static void SetUpTestSuite() { library_ = compile(kSource); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }
    void SetUp() override {
        MetalTest::SetUp();
        if (validated()) silent_.emplace();
    }
    void TearDown() override {
        silent_.reset();
        MetalTest::TearDown();
    }

    int m() const { return std::get<0>(GetParam()); }
    int n() const { return std::get<1>(GetParam()); }
    int k() const { return std::get<2>(GetParam()); }
    bool validated() const { return std::get<3>(GetParam()); }

    /// C = A * B by kernel `name`, A and B row-major as given.
    std::vector<float> multiply(const char* name, const std::vector<float>& a, const std::vector<float>& b) {
        MTL::ComputePipelineState* state = pipeline(library_, name, validated());
        EXPECT_NE(state, nullptr) << name;
        if (!state) return {};
        GuardedBuffer ab(device_, a.size() * 4), bb(device_, b.size() * 4), cb(device_, std::size_t(m() * n()) * 4);
        std::memcpy(ab.data<float>(), a.data(), a.size() * 4);
        std::memcpy(bb.data<float>(), b.data(), b.size() * 4);
        const std::int32_t mnk[4] = {m(), n(), k(), 0};
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        ab.bind(encoder, 0);
        bb.bind(encoder, 1);
        cb.bind(encoder, 2);
        encoder->setBytes(mnk, sizeof mnk, 3);
        encoder->dispatchThreadgroups(MTL::Size(NS::UInteger(n() + 31) / 32, NS::UInteger(m() + 31) / 32, 1),
                                      MTL::Size(128, 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted) << name;
        cb.expectCanariesIntact();
        state->release();
        return std::vector<float>(cb.data<float>(), cb.data<float>() + m() * n());
    }

    inline static MTL::Library* library_ = nullptr;

private:
    std::optional<FailOnValidationReports> silent_;
};

// Test the inlined kernel against the CPU model, exactly, and its twin on fibers.
TEST_P(MemberInlining, ExactProducts) {
    const std::vector<float> a = exactGemmValues(m() * k(), 1), b = exactGemmValues(k() * n(), 2);
    const std::vector<double> expected = gemmReference(a, b, m(), n(), k());
    for (const char* name : {"steel_gemm", "steel_gemm_on_fibers"}) {
        const std::vector<float> c = multiply(name, a, b);
        ASSERT_EQ(c.size(), expected.size()) << name;
        for (std::size_t i = 0; i < c.size(); ++i)
            ASSERT_EQ(double(c[i]), expected[i]) << name << ", row " << i / std::size_t(n()) << ", column "
                                                 << i % std::size_t(n());
    }
}

// Test that work-item loops and fibers give the same bits where sums round, both near the model.
TEST_P(MemberInlining, SameBitsAsFibers) {
    const std::vector<float> a = roundingGemmValues(m() * k(), 3), b = roundingGemmValues(k() * n(), 4);
    const std::vector<double> expected = gemmReference(a, b, m(), n(), k());
    const std::vector<float> loops = multiply("steel_gemm", a, b), fibers = multiply("steel_gemm_on_fibers", a, b);
    ASSERT_EQ(loops.size(), expected.size());
    ASSERT_EQ(fibers.size(), expected.size());
    for (std::size_t i = 0; i < loops.size(); ++i) {
        ASSERT_EQ(std::memcmp(&loops[i], &fibers[i], 4), 0) << "element " << i << ": " << loops[i] << " vs " << fibers[i];
        ASSERT_NEAR(loops[i], expected[i], 1e-4 * k()) << "element " << i;
    }
}

// Test that the kernel runs as work-item loops and its twin on fibers.
TEST_P(MemberInlining, Lowerings) {
    expectLowerings({{"steel_gemm", MC_KERNEL_WORK_ITEM_LOOPS}, {"steel_gemm_on_fibers", MC_KERNEL_USES_BARRIERS}},
                    [&](const char* name) { return pipeline(library_, name, validated()); });
}

std::string gemmShapeName(const ::testing::TestParamInfo<GemmShape>& info) {
    const auto& [m, n, k, validated] = info.param;
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + (validated ? "_validated" : "");
}

// 32x32x16 tiles: whole tiles, edges in every dimension, a single row, K shorter than a step.
INSTANTIATE_TEST_SUITE_P(Shapes, MemberInlining,
                         ::testing::Combine(::testing::Values(32, 45, 1), ::testing::Values(64, 33),
                                            ::testing::Values(16, 37, 5), ::testing::Bool()),
                         gemmShapeName);

// A member function that calls another through `this`'s members, both with barriers, in a
// kernel template whose object's class takes the kernel's template parameter: the group's sum,
// plus the thread's index. Over groups of 1, 7, 32, 33, 64 and 1024 threads.
const char* const kGroupSums = R"(
#include <metal_stdlib>
using namespace metal;

template <typename T, uint N>
struct GroupSum {
    threadgroup T* slots;
    uint lid;
    uint size;
    T total;
    GroupSum(threadgroup T* s, uint l, uint n) : slots(s), lid(l), size(n), total(T(0)) {}
    void publish(T v) {
        slots[lid % N] = v;
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    T sum(T v) {
        publish(v);
        total = T(0);
        for (uint i = 0; i < size; ++i) total += slots[i];
        threadgroup_barrier(mem_flags::mem_threadgroup);
        return total;
    }
};

template <typename T>
kernel void group_sums(device const T* in [[buffer(0)]], device T* out [[buffer(1)]],
                       uint gid [[thread_position_in_grid]], uint lid [[thread_index_in_threadgroup]],
                       uint size [[threads_per_threadgroup]]) {
    threadgroup T slots[1024];
    GroupSum<T, 1024> g(slots, lid, size);
    T s = g.sum(in[gid]);
    out[gid] = s + T(lid);
}
template [[host_name("group_sums")]] kernel void group_sums<uint>(device const uint*, device uint*, uint, uint, uint);
)";

class MemberInliningGroups : public ShapedKernelTest<kGroupSums> {};

// Test the sums against the CPU model, whole groups, canaries after the output, and the lowering.
TEST_P(MemberInliningGroups, NestedMemberCalls) {
    constexpr unsigned kGroups = 3;
    const unsigned count = kGroups * groupSize();
    MTL::ComputePipelineState* state = kernel("group_sums");
    ASSERT_NE(state, nullptr);
    GuardedBuffer in(device_, count * 4), out(device_, count * 4);
    for (unsigned i = 0; i < count; ++i) in.data<std::uint32_t>()[i] = i * 2654435761u >> 9;
    std::optional<FailOnValidationReports> silent;
    if (validated()) silent.emplace();
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    in.bind(encoder, 0);
    out.bind(encoder, 1);
    encoder->dispatchThreadgroups(MTL::Size(kGroups, 1, 1), MTL::Size(groupSize(), 1, 1));
    encoder->endEncoding();
    ASSERT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
    for (unsigned g = 0; g < kGroups; ++g) {
        std::uint32_t sum = 0;
        for (unsigned i = 0; i < groupSize(); ++i) sum += in.data<std::uint32_t>()[g * groupSize() + i];
        for (unsigned i = 0; i < groupSize(); ++i)
            ASSERT_EQ(out.data<std::uint32_t>()[g * groupSize() + i], sum + i) << "group " << g << ", thread " << i;
    }
    out.expectCanariesIntact();
    state->release();
    expectLowerings({{"group_sums", MC_KERNEL_WORK_ITEM_LOOPS}}, [&](const char* name) { return kernel(name); });
}

INSTANTIATE_TEST_SUITE_P(Shapes, MemberInliningGroups,
                         ::testing::Combine(::testing::Values(1u, 7u, 32u, 33u, 64u, 1024u), ::testing::Bool()),
                         kernelShapeName);

} // namespace
} // namespace metalcpu::testing
