// Shader validation of pointers cast to integers and back (PyTorch's c10/metal/atomic.h:
// `auto addr = reinterpret_cast<ulong>(data);`, then a pointer made from it). The
// instrumented flavour must compile the casts, give the address Metal gives, and still check
// an access through a pointer made back from an integer: against the buffer it lands in,
// since an integer carries no binding.
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace metalcpu::testing {
namespace {

using validation::Access;
using validation::ReportKind;
using validation::ShaderValidationReport;

// Line numbers matter: the tests assert them.
constexpr const char* kKernels = R"(#include <metal_stdlib>
using namespace metal;
// Every cast between pointers and integers MSL has: named, C-style and functional, to
// unsigned and signed 64-bit integers, and back. Thread i copies in[i + k] to out[i], the
// last thread to out[n - 1 + s].
kernel void round_trip(device uint* out [[buffer(0)]], device const uint* in [[buffer(1)]], constant uint& k [[buffer(2)]],
                       constant uint& s [[buffer(3)]], constant uint& n [[buffer(4)]], uint i [[thread_position_in_grid]]) {
    const ulong base = reinterpret_cast<ulong>(out);
    const long from = (long)(in + i);
    const ulong here = ulong(out + i);
    thread uint local = 0;
    device const uint* src = (device const uint*)(from + long(k) * 4);
    device uint* dst = reinterpret_cast<device uint*>(base + sizeof(uint) * (i + 1 == n ? i + s : i));
    dst[0] = src[0] + uint((here - base) / 4 - i) + uint(base >> 48) + uint(reinterpret_cast<ulong>(&local) % alignof(uint));
}
// PyTorch's atomic_add_helper<half>, as c10/metal/atomic.h writes it: a half added by
// compare-and-exchange on the aligned word holding it, found through the integer address.
static void atomic_add_half(device atomic_uint* data, long offset, half value) {
  auto addr = reinterpret_cast<ulong>(data);
  auto misalign = (addr % alignof(atomic_uint)) / sizeof(half);
  data = reinterpret_cast<device atomic_uint*>(reinterpret_cast<device char*>(data) - misalign * sizeof(half));
  offset += misalign;
  constexpr auto elem_per_enum = sizeof(uint) / sizeof(half);
  auto ptr = data + (offset / elem_per_enum);
  auto old = atomic_load_explicit(ptr, memory_order_relaxed);
  union { uint i; half t[elem_per_enum]; } val;
  do {
    val.i = old;
    val.t[offset & (elem_per_enum - 1)] += value;
  } while (!atomic_compare_exchange_weak_explicit(ptr, &old, val.i, memory_order_relaxed, memory_order_relaxed));
}
kernel void half_counts(device half* counts [[buffer(0)]], constant uint& bins [[buffer(1)]], constant uint& k [[buffer(2)]],
                        constant uint& n [[buffer(3)]], uint i [[thread_position_in_grid]]) {
    atomic_add_half(reinterpret_cast<device atomic_uint*>(counts + i % bins), i + 1 == n ? k : 0, 1.0h);
}
// A threadgroup array's address as an integer and back: checked against this group's
// threadgroup memory.
kernel void threadgroup_round_trip(device uint* out [[buffer(0)]], constant uint& k [[buffer(1)]],
                                   uint l [[thread_index_in_threadgroup]], uint i [[thread_position_in_grid]]) {
    threadgroup uint tile[64];
    tile[l] = i;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    threadgroup uint* p = (threadgroup uint*)(reinterpret_cast<ulong>(tile) + 4ul * l);
    out[i] = p[k];
}
// Casts to pointer types named through an alias and a template parameter: thread i writes
// out[i + k].
using words_t = device uint*;
template <typename P> P as_pointer(ulong address) { return reinterpret_cast<P>(address); }
kernel void named_pointer_types(device uint* out [[buffer(0)]], constant uint& k [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    words_t p = reinterpret_cast<words_t>(reinterpret_cast<ulong>(out) + 4ul * i);
    device uint* q = as_pointer<device uint*>(reinterpret_cast<ulong>(p));
    q[k] = i + 1;
}
// A pointer made from an integer inside out's bound range, moved by k words.
kernel void bound_integer(device uint* out [[buffer(0)]], constant int& k [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    device uint* p = (device uint*)(reinterpret_cast<ulong>(out) + 4ul * i);
    p[k] = i + 1;
}
)";

constexpr unsigned kLoadLine = 14, kStoreLine = 14, kAtomicLoadLine = 25, kAtomicStoreLine = 30, kThreadgroupLine = 44, kNamedTypesLine = 53,
                   kBoundIntegerLine = 58;
// Two halves of 12.13: adding 1.0 to either changes it (not so 0xEE11, -6212, whose step is 4).
constexpr std::uint32_t kHalfCanary = 0x4A114A11u;

using IntegerCasts = ShapedValidationFixture<&kKernels>;

// Test that pointers cast to integers give their addresses (a thread's out + i is 4i bytes
// past out, and no tag shows in the top 16 bits), that pointers made back from integers read and write what the raw ones do,
// silently; that a load through one past the end of `in` is reported against `in` and reads
// zero; and that a store through one past the end of `out`'s memory is reported against
// `out` and lands nowhere (the canaries around out stay).
TEST_P(IntegerCasts, RoundTrip) {
    const Shape shape = GetParam();
    const std::uint32_t n = static_cast<std::uint32_t>(shape.count);
    MTL::Buffer* in = buffer(n * sizeof(std::uint32_t), "in");
    for (std::uint32_t i = 0; i < n; ++i) testing::words(in)[i] = 1000 + i;
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "round_trip");
    ASSERT_NE(pipeline, nullptr);
    struct Case {
        std::uint32_t k, s;
    };
    // s = 2: the last thread's store skips the trailing canary to the first byte past out's memory.
    for (Case c : {Case{0, 0}, Case{1, 0}, Case{0, 2}}) {
        MTL::Buffer* out = output(n);
        dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, sizeof(std::uint32_t), 0);
            e->setBuffer(in, 0, 1);
            e->setBytes(&c.k, sizeof c.k, 2);
            e->setBytes(&c.s, sizeof c.s, 3);
            e->setBytes(&n, sizeof n, 4);
        });
        std::vector<ShaderValidationReport> got = reports();
        const std::uint32_t* o = testing::words(out) + 1;
        for (std::uint32_t i = 0; i < n; ++i) {
            const bool last = i + 1 == n;
            const std::uint32_t want = last && c.s != 0 ? 0xFFFFFFFFu : last && c.k != 0 ? 0u : 1000 + i + c.k;
            EXPECT_EQ(o[i], want) << "k " << c.k << ", s " << c.s << ", thread " << i;
        }
        expectCanaries(out, n);
        if (c.k == 0 && c.s == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            continue;
        }
        ASSERT_EQ(got.size(), 1u) << "k " << c.k << ", s " << c.s;
        EXPECT_EQ(got[0].kind, ReportKind::OutOfBounds);
        EXPECT_EQ(got[0].access, c.k != 0 ? Access::Load : Access::Store);
        EXPECT_EQ(got[0].bufferLabel, c.k != 0 ? "in" : "out");
        EXPECT_EQ(got[0].offset, c.k != 0 ? 4u * n : 4u * (n + 2));
        EXPECT_EQ(got[0].count, 1u);
        EXPECT_EQ(got[0].location.line, c.k != 0 ? kLoadLine : kStoreLine);
        EXPECT_EQ(got[0].threadPositionInGrid, (validation::Position{n - 1, 0, 0}));
    }
}

// Test that PyTorch's atomic add of halves (the address as an integer fixes the alignment)
// counts each thread once, silently, whether the half sits in the low or the high half of its
// word; and that the last thread's add, moved past the buffer (k halves on: past the trailing
// canary too, which the binding covers, as on Metal: a binding ends where its buffer does), is
// reported at the atomic load and at the compare-and-exchange, and lands nowhere.
TEST_P(IntegerCasts, PyTorchHalfAtomicAdd) {
    const Shape shape = GetParam();
    const std::uint32_t n = static_cast<std::uint32_t>(shape.count);
    constexpr std::uint32_t kBins = 6; // three words
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "half_counts");
    ASSERT_NE(pipeline, nullptr);
    for (std::uint32_t k : {0u, kBins + 2}) {
        MTL::Buffer* counts = output(kBins / 2, 0u, kHalfCanary);
        dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(counts, sizeof(std::uint32_t), 0);
            e->setBytes(&kBins, sizeof kBins, 1);
            e->setBytes(&k, sizeof k, 2);
            e->setBytes(&n, sizeof n, 3);
        });
        std::vector<ShaderValidationReport> got = reports();
        std::vector<float> want(kBins, 0.0f);
        for (std::uint32_t i = 0; i < n; ++i)
            if (k == 0 || i + 1 < n) want[i % kBins] += 1.0f;
        const auto* halves = reinterpret_cast<const _Float16*>(testing::words(counts) + 1);
        for (std::uint32_t b = 0; b < kBins; ++b) EXPECT_EQ(static_cast<float>(halves[b]), want[b]) << "k " << k << ", bin " << b;
        expectCanaries(counts, kBins / 2, kHalfCanary);
        if (k == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            continue;
        }
        // The word holding half (n - 1) % kBins + k, past the 5-word buffer.
        const std::uint64_t offset = 4 * (kBins / 2 + 2) + 4 * (((n - 1) % kBins) / 2);
        ASSERT_EQ(got.size(), 2u);
        for (const ShaderValidationReport& r : got) {
            EXPECT_EQ(r.kind, ReportKind::OutOfBounds);
            EXPECT_EQ(r.bufferLabel, "out");
            EXPECT_EQ(r.offset, offset);
            EXPECT_EQ(r.count, 1u);
            EXPECT_EQ(r.threadPositionInGrid, (validation::Position{n - 1, 0, 0}));
        }
        EXPECT_EQ(got[0].access, Access::Load);
        EXPECT_EQ(got[0].location.line, kAtomicLoadLine);
        EXPECT_EQ(got[1].access, Access::Store);
        EXPECT_EQ(got[1].location.line, kAtomicStoreLine);
    }
}

// Test that a pointer made from a threadgroup array's integer address reads the array
// silently, and that one past this group's threadgroup memory is reported as a load.
TEST_P(IntegerCasts, ThreadgroupRoundTrip) {
    const Shape shape = GetParam();
    const std::uint32_t n = static_cast<std::uint32_t>(shape.count);
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "threadgroup_round_trip");
    ASSERT_NE(pipeline, nullptr);
    for (std::uint32_t k : {0u, 1u << 16}) {
        MTL::Buffer* out = output(n);
        dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, sizeof(std::uint32_t), 0);
            e->setBytes(&k, sizeof k, 1);
        });
        std::vector<ShaderValidationReport> got = reports();
        for (std::uint32_t i = 0; i < n; ++i) EXPECT_EQ(testing::words(out)[1 + i], k == 0 ? i : 0u) << "k " << k << ", thread " << i;
        expectCanaries(out, n);
        if (k == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(got[0].access, Access::Load);
        EXPECT_EQ(got[0].count, n);
        EXPECT_EQ(got[0].location.line, kThreadgroupLine);
    }
}

// Test that reinterpret_casts to pointer types named through an alias and a template
// parameter make pointers that write where raw ones do, silently; and that stores through
// them past out's memory (k = n + 2 skips the trailing canary) are reported, once per thread,
// and land nowhere.
TEST_P(IntegerCasts, NamedPointerTypes) {
    const Shape shape = GetParam();
    const std::uint32_t n = static_cast<std::uint32_t>(shape.count);
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "named_pointer_types");
    ASSERT_NE(pipeline, nullptr);
    for (std::uint32_t k : {0u, n + 2}) {
        MTL::Buffer* out = output(n);
        dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, sizeof(std::uint32_t), 0);
            e->setBytes(&k, sizeof k, 1);
        });
        std::vector<ShaderValidationReport> got = reports();
        for (std::uint32_t i = 0; i < n; ++i)
            EXPECT_EQ(words(out)[1 + i], k == 0 ? i + 1 : 0xFFFFFFFFu) << "k " << k << ", thread " << i;
        expectCanaries(out, n);
        if (k == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(got[0].access, Access::Store);
        EXPECT_EQ(got[0].count, n);
        EXPECT_EQ(got[0].location.line, kNamedTypesLine);
    }
}

// Test that a pointer made from an integer that lies in a binding's range is checked as a
// pointer derived from that argument (Apple reports a pointer derived from a buffer against
// that buffer, however far it strays): silent inside the binding; silent one word before it
// too (the leading canary, inside the buffer but below the binding's offset, which a buffer
// argument may touch, as `out[-1]` may); and 4 MB past it reported against the buffer, not as
// a wild pointer, once per thread.
TEST_P(IntegerCasts, BoundRangeKeepsTheArgument) {
    const Shape shape = GetParam();
    const std::uint32_t n = static_cast<std::uint32_t>(shape.count);
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "bound_integer");
    ASSERT_NE(pipeline, nullptr);
    for (int k : {0, -1, 1 << 20}) {
        MTL::Buffer* out = output(n);
        dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, sizeof(std::uint32_t), 0);
            e->setBytes(&k, sizeof k, 1);
        });
        std::vector<ShaderValidationReport> got = reports();
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t want = k == 0 ? i + 1 : k == -1 && i + 1 < n ? i + 2 : 0xFFFFFFFFu;
            EXPECT_EQ(words(out)[1 + i], want) << "k " << k << ", word " << i;
        }
        if (k == -1) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            EXPECT_EQ(words(out)[0], 1u) << "thread 0 stored below the binding, inside the buffer";
            EXPECT_EQ(words(out)[n + 1], kCanary);
            continue;
        }
        expectCanaries(out, n);
        if (k == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            continue;
        }
        ASSERT_EQ(got.size(), 1u) << "k " << k;
        EXPECT_EQ(got[0].kind, ReportKind::OutOfBounds);
        EXPECT_EQ(got[0].access, Access::Store);
        EXPECT_EQ(got[0].bufferLabel, "out");
        EXPECT_EQ(got[0].argumentName, "out");
        EXPECT_EQ(got[0].bindingIndex, 0);
        EXPECT_EQ(got[0].size, 4u);
        EXPECT_EQ(got[0].location.line, kBoundIntegerLine);
        const std::uint64_t thread = got[0].threadPositionInGrid.x;
        EXPECT_EQ(got[0].offset, 4u + 4u * (thread + (std::uint64_t(1) << 20)));
        EXPECT_EQ(got[0].count, n);
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, IntegerCasts,
                         ::testing::Values(Shape{1, 1}, Shape{7, 3}, Shape{37, 8}, Shape{64, 32}), shapeName);

} // namespace
} // namespace metalcpu::testing
