// Local type aliases across barriers: a kernel's own `typedef float U;` (MLX's sdpa_vector), an
// alias in a block of the kernel, and aliases local to a helper that is inlined (its body a block
// of the kernel then; one called as a conversion, `acc_t(v)`), each naming the type of a variable
// that lives across a barrier. The front end replaces the kernel's aliases by their types
// (docs/compiler.md, "Helpers inlined before the split"), so the kernel runs as work-item loops;
// its twin calls the helper by a qualified name, which the front end does not inline, and keeps
// the fibers. Against a CPU model and to the same bits as the twin, over groups of 1 to 1024
// threads, plain and validated, canaries after the output.
#include "guarded_buffer.h"
#include "lowering.h"
#include "metal_test.h"

#include <metalcpu/ValidationTesting.hpp>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
// Each thread's value scaled, then the group's total of the scaled values, less its own, plus
// its index: the helper's locals of alias types live across its two barriers.
template <typename T>
void exchange_totals(threadgroup float* partial, thread T& v, uint lid, uint size) {
    typedef float acc_t;
    using index_t = uint;
    acc_t mine = acc_t(v) * 2.0f;
    index_t slot = lid;
    partial[slot] = mine;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    acc_t total = 0.0f;
    for (index_t i = 0; i < size; ++i) total += partial[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    v = T(total - mine + acc_t(slot));
}

kernel void local_aliases(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                          uint gid [[thread_position_in_grid]], uint lid [[thread_index_in_threadgroup]],
                          uint size [[threads_per_threadgroup]]) {
    typedef float U;
    threadgroup float partial[1024];
    U v = in[gid];
    const U before = v;
    {
        using step_t = float;
        step_t w = v + 1.0f;
        partial[lid] = w;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        w = partial[(lid + 1) % size] - w;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        v += w;
    }
    exchange_totals<U>(partial, v, lid, size);
    out[gid] = v + before;
}
)";

/// The kernels: the one above and its twin on fibers, which calls the helper by a qualified
/// name (`::exchange_totals<U>(...)`).
std::string source() {
    const std::string kernels = kKernels;
    std::string twin = kernels.substr(kernels.find("kernel void local_aliases("));
    const auto replace = [&](const std::string& from, const std::string& to) {
        twin.replace(twin.find(from), from.size(), to);
    };
    replace("kernel void local_aliases(", "kernel void local_aliases_on_fibers(");
    replace("    exchange_totals<U>(", "    ::exchange_totals<U>(");
    return "#include <metal_stdlib>\nusing namespace metal;\n" + kernels + twin;
}

const std::string kSource = source();
const char* const kSourceText = kSource.c_str();

class InlinedAliases : public ShapedKernelTest<kSourceText> {
protected:
    /// The kernel's output for `in`, over three whole groups.
    std::vector<float> outputs(const char* name, const std::vector<float>& in) {
        MTL::ComputePipelineState* state = kernel(name);
        EXPECT_NE(state, nullptr) << name;
        if (!state) return {};
        GuardedBuffer input(device_, in.size() * 4), output(device_, in.size() * 4);
        std::memcpy(input.data<float>(), in.data(), in.size() * 4);
        std::optional<FailOnValidationReports> silent;
        if (validated()) silent.emplace();
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        input.bind(encoder, 0);
        output.bind(encoder, 1);
        encoder->dispatchThreadgroups(MTL::Size(NS::UInteger(in.size()) / groupSize(), 1, 1), MTL::Size(groupSize(), 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted) << name;
        output.expectCanariesIntact();
        state->release();
        return std::vector<float>(output.data<float>(), output.data<float>() + in.size());
    }
};

// Test the kernel against the CPU model, on small integers (exact in any order), and that its
// twin gives the same bits on values whose sums round; and the lowerings.
TEST_P(InlinedAliases, SameResultsAsTheModelAndFibers) {
    constexpr unsigned kGroups = 3;
    const unsigned n = groupSize(), count = kGroups * n;
    std::vector<float> in(count);
    for (unsigned i = 0; i < count; ++i) in[i] = float(int((i * 2654435761u) >> 27) % 9 - 4);
    const std::vector<float> out = outputs("local_aliases", in);
    ASSERT_EQ(out.size(), count);
    for (unsigned g = 0; g < kGroups; ++g)
        for (unsigned l = 0; l < n; ++l) {
            const unsigned i = g * n + l;
            const float w = (in[g * n + (l + 1) % n] + 1.0f) - (in[i] + 1.0f);
            float total = 0.0f;
            for (unsigned j = 0; j < n; ++j) {
                const float wj = (in[g * n + (j + 1) % n] + 1.0f) - (in[g * n + j] + 1.0f);
                total += (in[g * n + j] + wj) * 2.0f;
            }
            const float mine = (in[i] + w) * 2.0f;
            ASSERT_EQ(out[i], total - mine + float(l) + in[i]) << "group " << g << ", thread " << l;
        }
    std::vector<float> fractions(count);
    for (unsigned i = 0; i < count; ++i) fractions[i] = float((i * 7u * 2654435761u) >> 8) / float(1u << 24) - 0.5f;
    const std::vector<float> loops = outputs("local_aliases", fractions), fibers = outputs("local_aliases_on_fibers", fractions);
    ASSERT_EQ(loops.size(), fibers.size());
    for (unsigned i = 0; i < count; ++i)
        ASSERT_EQ(std::memcmp(&loops[i], &fibers[i], 4), 0) << "element " << i << ": " << loops[i] << " vs " << fibers[i];
    expectLowerings({{"local_aliases", MC_KERNEL_WORK_ITEM_LOOPS}, {"local_aliases_on_fibers", MC_KERNEL_USES_BARRIERS}},
                    [&](const char* name) { return kernel(name); });
}

INSTANTIATE_TEST_SUITE_P(Shapes, InlinedAliases,
                         ::testing::Combine(::testing::Values(1u, 7u, 32u, 33u, 64u, 1024u), ::testing::Bool()),
                         kernelShapeName);

} // namespace
} // namespace metalcpu::testing
