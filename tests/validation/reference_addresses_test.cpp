// `&r` of a kernel's reference argument (`threadgroup atomic_uint& a`, `device S& arr`), and
// `&arr.inner[i]` of an element of its array member, are checked pointers in the instrumented
// flavour: naga's helper for every WGSL atomicCompareExchangeWeak is a function template taking
// `threadgroup A*` / `device A*`, which cannot deduce A from a raw pointer, so without them the
// kernel's validated pipeline was refused (s32's generated-MSL tester, finding 10). The address
// is untagged: each access through it is looked up among the live buffers and the group's
// threadgroup memory, so one past the buffer is reported.
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <set>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using ::testing::IsEmpty;
using validation::ShaderValidationReport;

const char* const kKernels = R"(#include <metal_stdlib>
using metal::uint;
template <typename A>
uint naga_cas(threadgroup A* atomic_ptr, uint cmp, uint v) {
    metal::atomic_compare_exchange_weak_explicit(atomic_ptr, &cmp, v, metal::memory_order_relaxed, metal::memory_order_relaxed);
    return cmp;
}
template <typename A>
uint naga_cas_device(device A* atomic_ptr, uint cmp, uint v) {
    metal::atomic_compare_exchange_weak_explicit(atomic_ptr, &cmp, v, metal::memory_order_relaxed, metal::memory_order_relaxed);
    return cmp;
}
kernel void workgroup_cas(uint3 lid [[thread_position_in_threadgroup]], uint3 gid [[thread_position_in_grid]],
                          threadgroup metal::atomic_uint& a, device uint* out [[buffer(0)]]) {
    if (lid.x == 0) metal::atomic_store_explicit(&a, 2u, metal::memory_order_relaxed);
    metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
    out[gid.x] = naga_cas(&a, 2u, 1u);
}
struct type_4 { metal::atomic_uint inner[128]; };
kernel void storage_cas(uint3 gid [[thread_position_in_grid]], device type_4& arr [[buffer(0)]],
                        device uint* out [[buffer(1)]], constant uint& skip [[buffer(2)]]) {
    out[gid.x] = naga_cas_device(&arr.inner[gid.x + skip], 0u, 1u);
}
)";
constexpr unsigned kDeviceCasLine = 10; // the atomic's call, in naga_cas_device

class ReferenceAddresses : public ShapedValidationFixture<&kKernels> {
protected:
    /// storage_cas over the shape's threads, its elements `skip` on from each thread's, with
    /// `arr` a buffer of one type_4 (128 words) between canaries.
    void storage(std::uint32_t skip) {
        MTL::ComputePipelineState* kernel = pipeline(library_, "storage_cas");
        ASSERT_NE(kernel, nullptr) << "the instrumented flavour compiles";
        const NS::UInteger count = GetParam().count;
        arr_ = output(128 + 16, 0);
        out_ = output(count);
        dispatch(kernel, count, GetParam().group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(arr_, sizeof(std::uint32_t), 0);
            e->setBuffer(out_, sizeof(std::uint32_t), 1);
            e->setBytes(&skip, sizeof skip, 2);
        });
        expectCanaries(out_, count);
    }
    MTL::Buffer* arr_ = nullptr;
    MTL::Buffer* out_ = nullptr;
};

// Test that naga's workgroup compare-exchange runs validated: one thread of each group finds
// the 2 its first thread stored and swaps in 1, the others find the 1.
TEST_P(ReferenceAddresses, WorkgroupCompareExchange_Positive) {
    MTL::ComputePipelineState* kernel = pipeline(library_, "workgroup_cas");
    ASSERT_NE(kernel, nullptr) << "the instrumented flavour compiles";
    const Shape shape = GetParam();
    MTL::Buffer* out = output(shape.count);
    dispatch(kernel, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
        e->setThreadgroupMemoryLength(16, 0);
        e->setBuffer(out, sizeof(std::uint32_t), 0);
    });
    EXPECT_THAT(reports(), IsEmpty());
    for (NS::UInteger first = 0; first < shape.count; first += shape.group) {
        unsigned found = 0;
        for (NS::UInteger k = first; k < std::min(first + shape.group, shape.count); ++k) {
            EXPECT_TRUE(words(out)[1 + k] == 1u || words(out)[1 + k] == 2u) << k;
            found += words(out)[1 + k] == 2u;
        }
        EXPECT_EQ(found, 1u) << "the group at " << first;
    }
    expectCanaries(out, shape.count);
}

// Test that naga's storage compare-exchange of the thread's own element runs validated and
// silent, each element swapped from 0 to 1.
TEST_P(ReferenceAddresses, StorageCompareExchange_Positive) {
    storage(0);
    EXPECT_THAT(reports(), IsEmpty());
    for (NS::UInteger k = 0; k < GetParam().count; ++k) {
        EXPECT_EQ(words(out_)[1 + k], 0u) << k;
        EXPECT_EQ(words(arr_)[1 + k], 1u) << k;
    }
}

// Test that an element past the buffer, through the address of an array member's element, is
// reported at the atomic's call in the helper, against `arr`'s buffer, and that the buffer's
// last word is left alone.
TEST_P(ReferenceAddresses, StorageCompareExchangePastTheBuffer_Negative) {
    const NS::UInteger count = GetParam().count;
    const std::uint32_t skip = 128 + 17; // past the buffer: 144 words after the one-word offset
    storage(skip);
    const std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u) << ::testing::PrintToString(got);
    EXPECT_THAT(got[0], InvalidStore("storage_cas", -1));
    EXPECT_EQ(got[0].location.line, kDeviceCasLine);
    EXPECT_THAT(got[0].text(), ::testing::HasSubstr("* frame #0: naga_cas_device<metal::atomic<unsigned int> >() - "
                                                    "/program_source:10:"));
    EXPECT_EQ(got[0].size, 4u);
    EXPECT_EQ(got[0].count, count);
    EXPECT_EQ(got[0].offset, (1 + skip) * 4u) << "from the buffer's start: the setBuffer offset is one word";
    EXPECT_THAT(got[0].text(), ::testing::StartsWith("Invalid device store at offset " + std::to_string((1 + skip) * 4) +
                                                     ", executing kernel function: \"storage_cas\""));
    expectCanaries(arr_, 128 + 16, kCanary);
}

INSTANTIATE_TEST_SUITE_P(Shapes, ReferenceAddresses,
                         ::testing::Values(Shape{1, 1}, Shape{7, 7}, Shape{66, 33}, Shape{100, 64}), shapeName);

} // namespace
} // namespace metalcpu::testing
