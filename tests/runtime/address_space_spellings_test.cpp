// Spellings that kernel generators write (Slang's Metal output, found by running its kernels):
// the address space after the pointee type (`uint device* p`, `T const device* p`,
// `Params constant* p`, in parameters, locals and struct members), and a threadgroup array
// reached through a pointer held in a struct (`(*(&ctx)->tile)[i]`). Their shader-validation
// flavour once faulted (the checked pointer took the argument's bytes for the pointer) or did
// not compile. Groups of 1, 7, 33 and 64 threads, a last group cut by the grid; plain and
// shader-validated.
#include "guarded_buffer.h"
#include "metal_test.h"

#include <algorithm>
#include <cstdint>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

struct Params { uint scale; uint bias; };
struct Context { array<uint, 64> threadgroup* tile; uint device* out; };

// Each input is read through another spelling; out[i] = (a + 2b + 4c + 8d) * scale + bias + extra.
kernel void after_type(uint device* out [[buffer(0)]],
                       uint const device* a [[buffer(1)]],
                       uint device const* b [[buffer(2)]],
                       device const uint* c [[buffer(3)]],
                       const device uint* d [[buffer(4)]],
                       Params constant* params [[buffer(5)]],
                       uint constant& extra [[buffer(6)]],
                       uint i [[thread_position_in_grid]])
{
    uint const device* inputs[2] = {a, b};
    uint device* outputs[1] = {out};
    uint thread value = inputs[0][i] + 2 * inputs[1][i] + 4 * c[i] + 8 * d[i];
    Params constant* p = params;
    outputs[0][i] = value * p->scale + params->bias + extra;
}

// Each thread stores into its group's tile through the context's pointer, and after the barrier
// reads the element of the thread at the other end of its group.
kernel void context_tile(uint device* out [[buffer(0)]], constant uint2& shape [[buffer(1)]],
                         uint i [[thread_position_in_grid]], uint lid [[thread_position_in_threadgroup]],
                         uint gid [[threadgroup_position_in_grid]])
{
    threadgroup array<uint, 64> tile_1;
    array<uint, 64> threadgroup* t = &tile_1;
    Context context;
    (&context)->tile = t;
    (&context)->out = out;
    (*(&context)->tile)[lid] = gid * 1000 + lid;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const uint present = min(shape.y, shape.x - gid * shape.y);
    (&context)->out[i] = (*(&context)->tile)[present - 1 - lid] + (*t)[lid] * 0;
}
)";

class AddressSpaceSpellings : public ShapedKernelTest<kKernels> {
protected:
    /// Threads in the grid: two whole groups and half of one (one thread for groups of one).
    unsigned threads() const { return groupSize() == 1 ? 1 : 2 * groupSize() + groupSize() / 2; }
};

// Test that every order of the qualifiers reads and writes the buffer bound at its index.
TEST_P(AddressSpaceSpellings, SpaceAfterTheTypeIsTheSameType) {
    MTL::ComputePipelineState* state = kernel("after_type");
    ASSERT_NE(state, nullptr);
    const unsigned n = threads();
    GuardedBuffer out(device_, n * 4), a(device_, n * 4), b(device_, n * 4), c(device_, n * 4), d(device_, n * 4);
    for (unsigned i = 0; i < n; ++i) {
        a.data<std::uint32_t>()[i] = i;
        b.data<std::uint32_t>()[i] = 100 + i;
        c.data<std::uint32_t>()[i] = 10000 + i;
        d.data<std::uint32_t>()[i] = 1000000 + i;
    }
    const std::uint32_t params[2] = {3, 7}, extra = 11;
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    out.bind(encoder, 0);
    a.bind(encoder, 1);
    b.bind(encoder, 2);
    c.bind(encoder, 3);
    d.bind(encoder, 4);
    encoder->setBytes(params, sizeof params, 5);
    encoder->setBytes(&extra, sizeof extra, 6);
    dispatch(state, encoder, commands, n);
    for (unsigned i = 0; i < n; ++i) {
        const std::uint32_t value = i + 2 * (100 + i) + 4 * (10000 + i) + 8 * (1000000 + i);
        EXPECT_EQ(out.data<std::uint32_t>()[i], value * 3 + 7 + 11) << "thread " << i;
    }
    for (const GuardedBuffer* buffer : {&out, &a, &b, &c, &d}) buffer->expectCanariesIntact();
    state->release();
}

// Test that a threadgroup array reached through a struct's pointer, as `(*(&ctx)->tile)[i]`,
// is the group's one array.
TEST_P(AddressSpaceSpellings, ThreadgroupArrayThroughContextPointer) {
    MTL::ComputePipelineState* state = kernel("context_tile");
    ASSERT_NE(state, nullptr);
    const unsigned n = threads(), size = groupSize();
    GuardedBuffer out(device_, n * 4);
    const std::uint32_t shape[2] = {n, size};
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    out.bind(encoder, 0);
    encoder->setBytes(shape, sizeof shape, 1);
    dispatch(state, encoder, commands, n);
    for (unsigned i = 0; i < n; ++i) {
        const unsigned group = i / size, lid = i % size;
        const unsigned present = std::min(size, n - group * size);
        EXPECT_EQ(out.data<std::uint32_t>()[i], group * 1000 + (present - 1 - lid)) << "thread " << i;
    }
    out.expectCanariesIntact();
    state->release();
}

INSTANTIATE_TEST_SUITE_P(Shapes, AddressSpaceSpellings,
                         ::testing::Combine(::testing::Values(1u, 7u, 33u, 64u), ::testing::Bool()), kernelShapeName);

} // namespace
} // namespace metalcpu::testing
