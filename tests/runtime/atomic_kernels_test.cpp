// Atomics in kernels, with threads of many groups contending for the same words: a histogram
// in threadgroup atomics merged into device atomics, every atomic_*_explicit function on
// device memory, and the compare-exchange loops PyTorch (c10/metal/atomic.h) builds on
// atomic<uint> for bfloat and 64-bit adds (the kernel reaching its pointer fix-up in the plain
// flavour only). Results are exact whatever the order of the
// updates, so each is compared with a CPU model; run plain and shader-validated, over group
// sizes of 1 thread, non-multiples of 32 and grids that do not divide evenly.
#include "guarded_buffer.h"
#include "metal_test.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

constant uint kBins = 16;

// Each group counts its values in threadgroup bins, then adds its bins to the device's.
kernel void histogram(device const uint* values [[buffer(0)]],
                      device atomic_uint* bins [[buffer(1)]],
                      constant uint& n [[buffer(2)]],
                      uint i [[thread_position_in_grid]],
                      uint lid [[thread_index_in_threadgroup]],
                      uint size [[threads_per_threadgroup]]) {
    threadgroup atomic_uint local[kBins];
    for (uint b = lid; b < kBins; b += size) atomic_store_explicit(&local[b], 0u, memory_order_relaxed);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (i < n) atomic_fetch_add_explicit(&local[values[i] % kBins], 1u, memory_order_relaxed);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint b = lid; b < kBins; b += size)
        atomic_fetch_add_explicit(&bins[b], atomic_load_explicit(&local[b], memory_order_relaxed),
                                  memory_order_relaxed);
}

// Every read-modify-write, each on a word of its own that all threads share.
struct Words {
    atomic_int add, sub, min, max;
    atomic_uint bit_and, bit_or, bit_xor, cas_count;
    atomic<float> fadd;
    atomic_float fmin, fmax;
    atomic<ulong> umax;
    atomic_int exchanged;
    atomic_bool flag;
    atomic_ulong min64, max64; // MSL's void atomic_min/max_explicit
};
kernel void all_operations(device Words* w [[buffer(0)]],
                           constant uint& n [[buffer(1)]],
                           uint i [[thread_position_in_grid]]) {
    if (i >= n) return;
    const int v = int(i);
    atomic_fetch_add_explicit(&w->add, v, memory_order_relaxed);
    atomic_fetch_sub_explicit(&w->sub, v, memory_order_relaxed);
    atomic_fetch_min_explicit(&w->min, v - 50, memory_order_relaxed);
    atomic_fetch_max_explicit(&w->max, v * 3, memory_order_relaxed);
    atomic_fetch_and_explicit(&w->bit_and, ~(1u << (i % 32)), memory_order_relaxed);
    atomic_fetch_or_explicit(&w->bit_or, 1u << (i % 32), memory_order_relaxed);
    atomic_fetch_xor_explicit(&w->bit_xor, i, memory_order_relaxed);
    atomic_fetch_add_explicit(&w->fadd, 0.5f, memory_order_relaxed);
    atomic_fetch_min_explicit(&w->fmin, float(v) - 0.25f, memory_order_relaxed);
    atomic_fetch_max_explicit(&w->fmax, float(v) * 2.0f, memory_order_relaxed);
    atomic_fetch_max_explicit(&w->umax, ulong(i) << 40, memory_order_relaxed);
    atomic_min_explicit(&w->min64, (ulong(i) << 35) + 7, memory_order_relaxed);
    atomic_max_explicit(&w->max64, (ulong(i) << 35) + 7, memory_order_relaxed);
    // A strong compare-exchange increment loop, and exchange: the values taken out of
    // `exchanged` by all threads are each thread's index exactly once, plus the initial 0.
    uint seen = atomic_load_explicit(&w->cas_count, memory_order_relaxed);
    while (!atomic_compare_exchange_strong_explicit(&w->cas_count, &seen, seen + 1, memory_order_relaxed,
                                                    memory_order_relaxed)) {
    }
    const int previous = atomic_exchange_explicit(&w->exchanged, v + 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&w->sub, previous, memory_order_relaxed);
    atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
    bool expected = false;
    atomic_compare_exchange_weak_explicit(&w->flag, &expected, true, memory_order_relaxed, memory_order_relaxed);
}

// PyTorch's compare-exchange loops without its fix-up of misaligned pointers (see
// kPyTorchAtomics): a bfloat add on the atomic<uint> holding two bfloats.
typedef bfloat bfloat16_t;
template <typename T>
static inline void atomic_add_aligned(device metal::atomic<uint>* data, long offset, T value) {
    constexpr auto per_word = sizeof(uint) / sizeof(T);
    auto ptr = data + (offset / per_word);
    auto old = metal::atomic_load_explicit(ptr, metal::memory_order_relaxed);
    union {
        uint i;
        T t[per_word];
    } val;
    do {
        val.i = old;
        val.t[offset & (per_word - 1)] += value;
    } while (!metal::atomic_compare_exchange_weak_explicit(ptr, &old, val.i, metal::memory_order_relaxed,
                                                           metal::memory_order_relaxed));
}
// Slots 1..4 of `sums` get 1.0 (or 0.25 for slot 4) from every thread.
kernel void bfloat_atomic_add(device metal::atomic<uint>* sums [[buffer(0)]],
                              constant uint& n [[buffer(1)]],
                              uint i [[thread_position_in_grid]]) {
    if (i >= n) return;
    const long slot = 1 + i % 4;
    atomic_add_aligned<bfloat16_t>(sums, slot, slot == 4 ? 0.25bf : bfloat16_t(1));
}
)";

/// PyTorch's emulated atomics as c10/metal/atomic.h writes them (not copied): bfloat adds
/// through a compare-exchange loop on the atomic<uint> holding two bfloats, with its fix-up
/// of 2-byte-aligned pointers (`reinterpret_cast<ulong>(data)`), and 64-bit adds on two
/// atomic<uint>s with a carry. Both kernels run plain and validated (the validation flavour
/// casts checked pointers to integers and back: tests/validation/integer_casts_test.cpp).
const char* const kPyTorchAtomics = R"(
#include <metal_stdlib>
using namespace metal;
typedef bfloat bfloat16_t;
template <typename T>
static inline void atomic_add_helper(device metal::atomic<uint>* data, long offset, T value) {
    auto addr = reinterpret_cast<ulong>(data);
    auto misalign = (addr % alignof(metal::atomic<uint>)) / sizeof(T);
    data = reinterpret_cast<device metal::atomic<uint>*>(reinterpret_cast<device char*>(data) - misalign * sizeof(T));
    offset += misalign;
    constexpr auto elem_per_enum = sizeof(uint) / sizeof(T);
    auto ptr = data + (offset / elem_per_enum);
    auto old = metal::atomic_load_explicit(ptr, metal::memory_order_relaxed);
    union {
        uint i;
        T t[elem_per_enum];
    } val;
    do {
        val.i = old;
        val.t[offset & (elem_per_enum - 1)] += value;
    } while (!metal::atomic_compare_exchange_weak_explicit(ptr, &old, val.i, metal::memory_order_relaxed,
                                                           metal::memory_order_relaxed));
}
static inline void atomic_add_long(device metal::atomic<uint>* data, long offset, long value) {
    const auto value_bits = as_type<ulong>(value);
    const uint low = static_cast<uint>(value_bits);
    uint high = static_cast<uint>(value_bits >> 32);
    auto ptr = data + (offset << 1);
    auto old_low = atomic_fetch_add_explicit(ptr, low, metal::memory_order_relaxed);
    high += (old_low + low < old_low) ? 1 : 0;
    atomic_fetch_add_explicit(ptr + 1, high, metal::memory_order_relaxed);
}
// Slots 1..4 of `sums` (a bfloat array bound at an offset that is not a multiple of 4) get 1.0 or 0.25 from every thread; `longs` slot i % 2 gets
// 2^32 - 1 + i.
kernel void emulated_atomics(device metal::atomic<uint>* sums [[buffer(0)]],
                             device metal::atomic<uint>* longs [[buffer(1)]],
                             constant uint& n [[buffer(2)]],
                             uint i [[thread_position_in_grid]]) {
    if (i >= n) return;
    const long slot = 1 + i % 4;
    atomic_add_helper<bfloat16_t>(sums, slot, slot == 4 ? 0.25bf : bfloat16_t(1));
    atomic_add_long(longs, i % 2, 0xffffffffl + long(i));
}
// The 64-bit adds alone: `longs` slot i % 2 gets 2^32 - 1 + i.
kernel void long_atomics(device metal::atomic<uint>* longs [[buffer(0)]],
                         constant uint& n [[buffer(1)]],
                         uint i [[thread_position_in_grid]]) {
    if (i >= n) return;
    atomic_add_long(longs, i % 2, 0xffffffffl + long(i));
}
)";

class AtomicKernels : public ShapedKernelTest<kKernels> {};

// Test a histogram through threadgroup atomics (zeroed by the group, merged after a barrier)
// into device atomics: every count exact.
TEST_P(AtomicKernels, Histogram) {
    constexpr unsigned n = 1000, bins = 16;
    MTL::ComputePipelineState* state = kernel("histogram");
    ASSERT_NE(state, nullptr);
    GuardedBuffer values(device_, n * 4), counts(device_, bins * 4);
    std::vector<unsigned> expected(bins, 0);
    for (unsigned i = 0; i < n; ++i) {
        values.data<std::uint32_t>()[i] = i * i + 3 * i;
        ++expected[(i * i + 3 * i) % bins];
    }
    std::memset(counts.data<std::uint32_t>(), 0, bins * 4);
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    values.bind(encoder, 0);
    counts.bind(encoder, 1);
    encoder->setBytes(&n, sizeof n, 2);
    dispatch(state, encoder, commands, n + 7);
    for (unsigned b = 0; b < bins; ++b) EXPECT_EQ(counts.data<std::uint32_t>()[b], expected[b]) << "bin " << b;
    counts.expectCanariesIntact();
    state->release();
}

/// The host's view of the kernel's Words.
struct Words {
    std::int32_t add, sub, min, max;
    std::uint32_t bitAnd, bitOr, bitXor, casCount;
    float fadd, fmin, fmax;
    std::uint32_t padding;
    std::uint64_t umax;
    std::int32_t exchanged;
    std::uint32_t flag;
    std::uint64_t min64, max64;
};

// Test every atomic_*_explicit function on device memory with all threads on the same words.
TEST_P(AtomicKernels, EveryOperationOnSharedWords) {
    constexpr unsigned n = 200;
    MTL::ComputePipelineState* state = kernel("all_operations");
    ASSERT_NE(state, nullptr);
    GuardedBuffer words(device_, sizeof(Words));
    Words& w = *words.data<Words>();
    w = Words{0, 0, 1000, -1000, 0xffffffffu, 0, 0, 0, 0.0f, 1e9f, -1e9f, 0, 0, 0, 0, ~0ull, 5};
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    words.bind(encoder, 0);
    encoder->setBytes(&n, sizeof n, 1);
    dispatch(state, encoder, commands, n + 9);
    std::int32_t sum = 0;
    std::uint32_t xorAll = 0;
    for (unsigned i = 0; i < n; ++i) {
        sum += std::int32_t(i);
        xorAll ^= i;
    }
    EXPECT_EQ(w.add, sum);
    // sub lost every index and got back every value `exchanged` held before each exchange:
    // 0, then n of the n values i + 1 but the last one written.
    EXPECT_EQ(w.sub + w.exchanged, -sum + (sum + std::int32_t(n)));
    EXPECT_GE(w.exchanged, 1);
    EXPECT_LE(w.exchanged, std::int32_t(n));
    EXPECT_EQ(w.min, -50);
    EXPECT_EQ(w.max, 3 * std::int32_t(n - 1));
    EXPECT_EQ(w.bitAnd, 0u);
    EXPECT_EQ(w.bitOr, 0xffffffffu);
    EXPECT_EQ(w.bitXor, xorAll);
    EXPECT_EQ(w.casCount, n);
    EXPECT_EQ(w.fadd, 0.5f * n);
    EXPECT_EQ(w.fmin, -0.25f);
    EXPECT_EQ(w.fmax, 2.0f * (n - 1));
    EXPECT_EQ(w.umax, std::uint64_t(n - 1) << 40);
    EXPECT_EQ(w.min64, 7u);
    EXPECT_EQ(w.max64, (std::uint64_t(n - 1) << 35) + 7);
    EXPECT_EQ(w.flag & 0xff, 1u);
    words.expectCanariesIntact();
    state->release();
}

/// A bfloat's value from its bits.
float bfloatValue(std::uint16_t bits) {
    const std::uint32_t w = std::uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &w, sizeof f);
    return f;
}

// Test a bfloat add by compare-exchange on the atomic<uint> holding two bfloats, threads
// contending for both halves of each word: exact sums, the other halves untouched.
TEST_P(AtomicKernels, BfloatAddByCompareExchange) {
    constexpr unsigned n = 400; // 100 adds per slot: exact in bfloat (integers up to 256 are)
    MTL::ComputePipelineState* state = kernel("bfloat_atomic_add");
    ASSERT_NE(state, nullptr);
    GuardedBuffer sums(device_, 16);
    std::memset(sums.data<char>(), 0, 16);
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    sums.bind(encoder, 0);
    encoder->setBytes(&n, sizeof n, 1);
    dispatch(state, encoder, commands, n + 5);
    const std::uint16_t* bf = sums.data<std::uint16_t>();
    EXPECT_EQ(bf[0], 0u) << "slot 0 gets nothing";
    for (unsigned slot = 1; slot <= 3; ++slot) EXPECT_EQ(bfloatValue(bf[slot]), 100.0f) << "slot " << slot;
    EXPECT_EQ(bfloatValue(bf[4]), 25.0f) << "slot 4: 100 times 0.25";
    for (unsigned k = 5; k < 8; ++k) EXPECT_EQ(bf[k], 0u) << "untouched half " << k;
    sums.expectCanariesIntact();
    state->release();
}

INSTANTIATE_TEST_SUITE_P(Shapes, AtomicKernels,
                         ::testing::Combine(::testing::Values(1u, 7u, 33u, 64u), ::testing::Bool()), kernelShapeName);

// Test PyTorch's atomic.h helpers as written, on a bfloat array bound at an offset that is
// not a multiple of 4 (so its pointer fix-up runs) and its 64-bit add with carry: exact sums,
// plain and under shader validation (whose checked pointers cast to integers and back).
TEST_F(MetalTest, PyTorchEmulatedAtomicsAsWritten) {
    constexpr unsigned n = 400;
    MTL::Library* library = compile(kPyTorchAtomics);
    ASSERT_NE(library, nullptr);
    for (bool validated : {false, true}) {
        MTL::ComputePipelineState* state = pipeline(library, "emulated_atomics", validated);
        ASSERT_NE(state, nullptr) << "validated " << validated;
        GuardedBuffer sums(device_, 16), longs(device_, 16);
        std::memset(sums.data<char>(), 0, 16);
        std::memset(longs.data<char>(), 0, 16);
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        // Bound 2 bytes before the output, so the kernel's slot k is at output byte 2k - 2 and its
        // view is not 4-byte aligned; slot 0 (the guard word's last half) is never written.
        encoder->setBuffer(sums.buffer(), GuardedBuffer::offset() - 2, 0);
        longs.bind(encoder, 1);
        encoder->setBytes(&n, sizeof n, 2);
        encoder->dispatchThreads(MTL::Size(n + 5, 1, 1), MTL::Size(33, 1, 1));
        encoder->endEncoding();
        ASSERT_EQ(run(commands), MTL::CommandBufferStatusCompleted) << "validated " << validated;
        const std::uint16_t* bf = sums.data<std::uint16_t>();
        for (unsigned slot = 1; slot <= 3; ++slot)
            EXPECT_EQ(bfloatValue(bf[slot - 1]), 100.0f) << "slot " << slot << ", validated " << validated;
        EXPECT_EQ(bfloatValue(bf[3]), 25.0f) << "slot 4: 100 times 0.25, validated " << validated;
        for (unsigned k = 4; k < 8; ++k) EXPECT_EQ(bf[k], 0u) << "untouched half " << k;
        std::int64_t expected[2] = {0, 0};
        for (unsigned i = 0; i < n; ++i) expected[i % 2] += 0xffffffffll + std::int64_t(i);
        EXPECT_EQ(longs.data<std::int64_t>()[0], expected[0]);
        EXPECT_EQ(longs.data<std::int64_t>()[1], expected[1]);
        sums.expectCanariesIntact();
        longs.expectCanariesIntact();
        state->release();
    }
    library->release();
}

// Test that PyTorch's 64-bit adds with carry alone run validated, exact over groups of 1, 33
// and 64 threads on an uneven grid.
TEST_F(MetalTest, PyTorchLongAtomicsRunValidated) {
    constexpr unsigned n = 400;
    MTL::Library* library = compile(kPyTorchAtomics);
    ASSERT_NE(library, nullptr);
    MTL::ComputePipelineState* state = pipeline(library, "long_atomics", true);
    ASSERT_NE(state, nullptr);
    for (unsigned group : {1u, 33u, 64u}) {
        GuardedBuffer longs(device_, 16);
        std::memset(longs.data<char>(), 0, 16);
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        longs.bind(encoder, 0);
        encoder->setBytes(&n, sizeof n, 1);
        encoder->dispatchThreads(MTL::Size(n + 5, 1, 1), MTL::Size(group, 1, 1));
        encoder->endEncoding();
        ASSERT_EQ(run(commands), MTL::CommandBufferStatusCompleted) << "groups of " << group;
        std::int64_t expected[2] = {0, 0};
        for (unsigned i = 0; i < n; ++i) expected[i % 2] += 0xffffffffll + std::int64_t(i);
        EXPECT_EQ(longs.data<std::int64_t>()[0], expected[0]) << "groups of " << group;
        EXPECT_EQ(longs.data<std::int64_t>()[1], expected[1]) << "groups of " << group;
        longs.expectCanariesIntact();
    }
    state->release();
    library->release();
}

} // namespace
} // namespace metalcpu::testing
