// Shader validation of Apple's SIMD-group async copies (metal-flash-attention declares them
// with `__asm("air.simdgroup_async_copy_*")` labels, compiler/passes/air_intrinsics.h): every
// element a copy reads or writes is a checked access, reported at the copy's call like any
// other access, and an element read outside its buffer copies zero. A negative test (the
// source one row short) and its positive twin (the same copy, the buffer whole).
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using validation::Access;
using validation::AddressSpace;
using validation::ShaderValidationReport;

// Line and column numbers matter: the test asserts them.
constexpr const char* kKernels = R"(#include <metal_stdlib>
using namespace metal;
struct _simdgroup_event_t;
thread _simdgroup_event_t* __metal_simdgroup_async_copy_2d(ulong, ulong, threadgroup void *, ulong, ulong, ulong2, const device void *, ulong, ulong, ulong2, long2, int) __asm("air.simdgroup_async_copy_2d.p3i8.p1i8");
thread _simdgroup_event_t* __metal_simdgroup_async_copy_1d(ulong, ulong, device void *, const threadgroup void *, ulong) __asm("air.simdgroup_async_copy_1d.p1i8.p3i8");
void __metal_wait_simdgroup_events(int, thread _simdgroup_event_t**) __asm("air.wait_simdgroup_events");
// Each SIMD-group copies the first 4 rows of `a` (8 floats a row) into threadgroup memory, then to its part of `out`.
kernel void rows(device const float* a [[buffer(0)]], device float* out [[buffer(1)]],
                 uint group [[threadgroup_position_in_grid]], ushort sg [[simdgroup_index_in_threadgroup]], ushort sgs [[simdgroups_per_threadgroup]]) {
    threadgroup float tile[4 * 32];
    thread _simdgroup_event_t* e = __metal_simdgroup_async_copy_2d(4, 4, (threadgroup void *)(tile + 32 * sg), 8, 1, ulong2(8, 4), (const device void *)a, 8, 1, ulong2(8, 4), long2(0), 0);
    __metal_wait_simdgroup_events(1, &e);
    __metal_simdgroup_async_copy_1d(4, 4, (device void *)(out + 32 * (group * sgs + sg)), (const threadgroup void *)(tile + 32 * sg), 32);
}
)";

constexpr unsigned kCopyLine = 11;

/// The 1-based column of `name` in line `line` of kKernels.
unsigned columnOf(unsigned line, const std::string& name) { return metalcpu::testing::columnOf(kKernels, line, name); }

class AsyncCopies : public ShapedValidationFixture<&kKernels> {};

// Test that the copy of 4 rows from a buffer of 4 rows is silent and copies every element,
// and from a buffer of 3 rows and a half is one report at the copy's call (a device load of
// 4 bytes, argument `a`, once for each element past the end in each SIMD-group), the
// elements past the end copied as zeros, the 1-D copy back to `out` silent.
TEST_P(AsyncCopies, OutOfBoundsSourceIsReportedAtTheCopy) {
    const Shape shape = GetParam();
    const std::size_t groups = shape.count / shape.group, simdgroups = (shape.group + 31) / 32;
    const std::size_t blocks = groups * simdgroups;
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "rows");
    ASSERT_NE(pipeline, nullptr);
    for (std::size_t floatsOfA : {32u, 28u}) {
        {
            MTL::Buffer* a = buffer(floatsOfA * sizeof(float), "a");
            for (std::size_t i = 0; i < floatsOfA; ++i) floats(a)[i] = float(i) + 0.5f;
            const std::size_t words = 32 * blocks;
            MTL::Buffer* out = output(words);
            dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
                e->setBuffer(a, 0, 0);
                e->setBuffer(out, sizeof(std::uint32_t), 1);
            });
            std::vector<ShaderValidationReport> got = reports();
            for (std::size_t w = 0; w < words; ++w)
                EXPECT_EQ(floats(out)[1 + w], w % 32 < floatsOfA ? float(w % 32) + 0.5f : 0.0f) << w;
            expectCanaries(out, words);
            if (floatsOfA == 32) {
                EXPECT_THAT(got, ::testing::IsEmpty());
                continue;
            }
            ASSERT_EQ(got.size(), 1u);
            const ShaderValidationReport& r = got[0];
            EXPECT_EQ(r.addressSpace, AddressSpace::Device);
            EXPECT_EQ(r.access, Access::Load);
            EXPECT_EQ(r.offset, floatsOfA * sizeof(float));
            EXPECT_EQ(r.size, sizeof(float));
            EXPECT_EQ(r.argumentName, "a");
            EXPECT_EQ(r.count, (32 - floatsOfA) * blocks);
            EXPECT_EQ(r.location.line, kCopyLine);
            EXPECT_EQ(r.location.column, columnOf(kCopyLine, "__metal_simdgroup_async_copy_2d"));
            EXPECT_THAT(r.text(), ::testing::HasSubstr("* frame #0: rows() - "));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, AsyncCopies,
                         ::testing::Values(Shape{1, 1}, Shape{13, 13}, Shape{64, 32}, Shape{90, 45}, Shape{128, 128}),
                         shapeName);

} // namespace
} // namespace metalcpu::testing
