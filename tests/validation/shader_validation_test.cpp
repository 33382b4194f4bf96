// Shader validation end to end: kernels compiled from source, run with a validated pipeline,
// and the reports they produce (or must not produce). Every detection has a negative test
// that asserts the report's fields and a positive twin that must stay silent.
#include "scoped_state.h"
#include "validation_fixture.h"

#include <metalcpu/ValidationTesting.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace metalcpu::testing {
namespace {

using validation::Access;
using validation::AddressSpace;
using validation::ReportKind;
using validation::ShaderValidationReport;

// Line numbers matter: the tests assert them.
const char* const kKernels = R"(#include <metal_stdlib>
using namespace metal;

kernel void store_at(device float* out [[buffer(0)]], constant int& offset [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    out[int(i) + offset] = 1.0f;
}
kernel void load_at(device const float* in [[buffer(0)]], device float* out [[buffer(1)]], constant int& offset [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    out[i] = in[int(i) + offset] + 1.0f;
}
kernel void constant_load(constant float* table [[buffer(0)]], device float* out [[buffer(1)]], constant int& offset [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    out[i] = table[int(i) + offset];
}
kernel void tg_array(device float* out [[buffer(0)]], constant uint& offset [[buffer(1)]], uint l [[thread_index_in_threadgroup]], uint i [[thread_position_in_grid]], uint n [[threads_per_threadgroup]]) {
    threadgroup float tile[64];
    tile[l + offset] = float(i);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = tile[(l + 1) % n];
}
kernel void tg_argument(device float* out [[buffer(0)]], threadgroup float* scratch [[threadgroup(0)]], constant uint& offset [[buffer(1)]], uint l [[thread_index_in_threadgroup]], uint i [[thread_position_in_grid]]) {
    scratch[l + offset] = 2.0f;
    out[i] = scratch[l];
}
kernel void via_address(device const ulong* addresses [[buffer(0)]], device float* out [[buffer(1)]], constant uint& offset [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    device float* p = (device float*)addresses[0];
    out[i] = p[i + offset];
}
kernel void counter(device atomic_uint* counters [[buffer(0)]], constant uint& offset [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    atomic_fetch_add_explicit(&counters[i + offset], 1u, memory_order_relaxed);
}
kernel void pointer_walk(device float* out [[buffer(0)]], constant uint& step [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    device float* p = out + i;
    *p = 3.0f;
    p[step] += 1.0f;
}
// A barrier in a helper: the kernel runs one fiber per thread.
void wait_for_group() { threadgroup_barrier(mem_flags::mem_threadgroup); }
kernel void fiber_store(device float* out [[buffer(0)]], constant uint& limit [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    wait_for_group();
    if (i >= limit) out[i] = 1.0f;
    wait_for_group();
}
struct Row { float v[4]; };
kernel void member_array(device Row* rows [[buffer(0)]], constant int& index [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    rows[i].v[index] = 5.0f;
}
constant float kTable[4] = {1.0f, 2.0f, 3.0f, 4.0f};
kernel void program_constant(device float* out [[buffer(0)]], constant int& offset [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    constant float* table = kTable;
    out[i] = table[int(i) + offset] + kTable[i % 4];
}
kernel void thread_pointer(device float* out [[buffer(0)]], constant int& k [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    float local[4] = {10.0f, 20.0f, 30.0f, 40.0f};
    thread float* p = local;
    out[i] = p[k] + local[k] + *p;
}
kernel void held_reference(device float* out [[buffer(0)]], device uint* sizes [[buffer(1)]], constant int& offset [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    device float& r = out[int(i) + offset];
    sizes[i] = 7;
    r = 2.0f;
    sizes[i] = uint(r);
}
kernel void constexpr_index(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    constexpr int steps[3] = {1, 2, 3};
    constexpr int second = steps[1]; // indexing in a constant expression
    int scaled[second] = {5, 6};
    out[i] = scaled[i % second] + steps[i % 3];
}
kernel void optional_bias(device float* out [[buffer(0)]], device const float* bias [[buffer(1)]], constant int& offset [[buffer(2)]], constant uint& useBias [[buffer(3)]], uint i [[thread_position_in_grid]]) {
    out[int(i) + offset] = useBias != 0 ? bias[i] : 1.0f;
}
kernel void volatile_sum(volatile device atomic_int* total [[buffer(0)]], const volatile device int* values [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    atomic_fetch_add_explicit(total, values[i], memory_order_relaxed);
}
kernel void cast_store(device float* out [[buffer(0)]], constant int& offset [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    *reinterpret_cast<device float*>(out + int(i) + offset) = 2.0f;
}
kernel void guarded_product(device float* out [[buffer(0)]], device const float* in [[buffer(1)]], constant int& offset [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    device const float* q = in + int(i) + offset;
    if (offset >= 0) *(out + int(i) + offset) = 2.0f * *q;
}
kernel void load_reversed(device const float* last [[buffer(0)]], device float* out [[buffer(1)]], constant int& extra [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    out[i] = last[-int(i) - extra];
}
struct Wide { float a[4]; float b[12]; };
kernel void wide_argument(constant Wide& args [[buffer(0)]], device float* out [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    out[i] = args.a[i % 4] + args.b[11];
}
kernel void copy_texel(texture2d<float, access::read> in [[texture(0)]],
                       texture2d<float, access::write> out [[texture(1)]], uint2 gid [[thread_position_in_grid]]) {
    out.write(in.read(gid), gid);
}
// The threads below `first` work a while before they store (in bounds), so that the groups at
// and after `first`, which store past the end, often get there before the group holding it.
kernel void slow_before_first(device float* out [[buffer(0)]], constant uint& first [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    float acc = float(i);
    for (uint k = 0; k < (i < first ? 20000u : 0u); ++k) acc = acc * 0.999f + 1.0f;
    out[i] = acc;
}
)";

constexpr int kMemberLine = 44, kTableLine = 49, kThreadLine = 54, kHeldLine = 57;
constexpr int kStoreLine = 5, kLoadLine = 8, kTileLine = 15, kArgumentLine = 20, kAddressLine = 25, kAtomicLine = 28,
              kWalkLine = 33, kFiberLine = 39, kVolatileLine = 72, kCastLine = 75, kGuardedLine = 79;

/// A test with shader validation turned on for the process (as MTL_SHADER_VALIDATION=1
/// does), the kernels above compiled once, and a collector for the reports.
class ShaderValidation : public ValidationOnFixture {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }
    MTL::ComputePipelineState* kernel(const char* name,
                                      MTL::ShaderValidation validation = MTL::ShaderValidationDefault) {
        return pipeline(library_, name, nullptr, validation);
    }

    static MTL::Library* library_;
};

MTL::Library* ShaderValidation::library_ = nullptr;

// ---- Device stores, over threadgroup shapes ------------------------------------------------

class DeviceStore : public ShaderValidation, public ::testing::WithParamInterface<Shape> {};

// Test that in-bounds stores are silent and write, with canary words around the bound range.
TEST_P(DeviceStore, InBoundsIsSilent) {
    const auto [count, group] = GetParam();
    MTL::Buffer* out = buffer((count + 2) * sizeof(float));
    floats(out)[0] = floats(out)[count + 1] = 42.0f; // canaries outside the bound range
    int offset = 0;
    MTL::CommandBuffer* commands = dispatch(kernel("store_at"), count, group, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(out, sizeof(float), 0);
        e->setBytes(&offset, sizeof offset, 1);
    });
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
    EXPECT_THAT(reports(), ::testing::IsEmpty());
    for (NS::UInteger i = 1; i <= count; ++i) ASSERT_EQ(floats(out)[i], 1.0f) << i;
    EXPECT_EQ(floats(out)[0], 42.0f);
    EXPECT_EQ(floats(out)[count + 1], 42.0f);
}

// Test that a store one past the bound range is reported once, with Apple's fields, and
// dropped (the canary after the range survives).
TEST_P(DeviceStore, OnePastTheEndIsReportedAndDropped) {
    const auto [count, group] = GetParam();
    MTL::Buffer* out = buffer((count + 1) * sizeof(float), "results");
    floats(out)[count] = 42.0f; // beyond the bound range: the bind offset shifts it by one
    int offset = 1;
    MTL::CommandBuffer* commands = dispatch(kernel("store_at"), count, group, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(out, sizeof(float), 0);
        e->setBytes(&offset, sizeof offset, 1);
    });
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted) << "zerofill completes the command buffer";
    std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u);
    const ShaderValidationReport& r = got[0];
    EXPECT_EQ(r.kind, ReportKind::OutOfBounds);
    EXPECT_EQ(r.addressSpace, AddressSpace::Device);
    EXPECT_EQ(r.access, Access::Store);
    EXPECT_EQ(r.offset, (count + 1) * sizeof(float)) << "measured from the start of the buffer";
    EXPECT_EQ(r.size, sizeof(float));
    EXPECT_EQ(r.bufferLabel, "results");
    EXPECT_EQ(r.bufferLength, (count + 1) * sizeof(float));
    EXPECT_EQ(r.bindingIndex, 0);
    EXPECT_EQ(r.argumentName, "out");
    EXPECT_EQ(r.kernel, "store_at");
    EXPECT_EQ(r.encoderLabel, "0");
    EXPECT_EQ(r.dispatchIndex, 0u);
    EXPECT_EQ(r.count, 1u);
    EXPECT_EQ(r.location.file, "program_source");
    EXPECT_EQ(r.location.function, "store_at");
    EXPECT_EQ(r.location.line, unsigned(kStoreLine));
    EXPECT_EQ(r.location.column, 26u) << "the column of the assignment, as Apple reports stores";
    EXPECT_EQ(r.threadPositionInGrid, (validation::Position{std::uint32_t(count - 1), 0, 0}));
    EXPECT_EQ(r.threadPositionInThreadgroup, (validation::Position{std::uint32_t((count - 1) % group), 0, 0}));
    EXPECT_EQ(r.threadgroupPositionInGrid, (validation::Position{std::uint32_t((count - 1) / group), 0, 0}));
    if (count > 1) {
        EXPECT_EQ(floats(out)[count], 1.0f) << "the last in-range element is written by the thread before";
    }
    EXPECT_NE(r.text().find("Invalid device store at offset"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Shapes, DeviceStore,
                         ::testing::Values(Shape{1, 1}, Shape{33, 33}, Shape{100, 32}, Shape{100, 33}, Shape{1000, 64}),
                         [](const ::testing::TestParamInfo<Shape>& info) {
                             return std::to_string(info.param.count) + "_by_" + std::to_string(info.param.group);
                         });

// Test that a load and a store below the bind offset but inside the buffer are valid, as on
// Apple GPUs (addresses resolve to a buffer, offsets count from its start): MLX binds a
// reversed view at its last element and reads downwards. Over threadgroup shapes.
TEST_F(ShaderValidation, BelowTheBindOffsetInsideTheBufferIsValid) {
    for (const Shape shape : {Shape{1, 1}, Shape{7, 7}, Shape{33, 32}, Shape{100, 33}}) {
        const NS::UInteger count = shape.count;
        SCOPED_TRACE(std::to_string(count) + " by " + std::to_string(shape.group));
        // Stores: bound at the second half of the buffer, each thread writes `count` back.
        MTL::Buffer* out = buffer(2 * count * sizeof(float));
        int back = -int(count);
        dispatch(kernel("store_at"), count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, count * sizeof(float), 0);
            e->setBytes(&back, sizeof back, 1);
        });
        EXPECT_THAT(reports(), ::testing::IsEmpty());
        for (NS::UInteger i = 0; i < count; ++i) ASSERT_EQ(floats(out)[i], 1.0f) << i;
        // Loads: a reversed view, bound at its last element, read with a negative index.
        MTL::Buffer* in = buffer(count * sizeof(float));
        for (NS::UInteger i = 0; i < count; ++i) floats(in)[i] = float(i);
        MTL::Buffer* results = buffer(count * sizeof(float));
        int reversed = 0;
        MTL::CommandBuffer* commands =
            dispatch(kernel("load_reversed"), count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
                e->setBuffer(in, (count - 1) * sizeof(float), 0);
                e->setBuffer(results, 0, 1);
                e->setBytes(&reversed, sizeof reversed, 2);
            });
        EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
        EXPECT_THAT(reports(), ::testing::IsEmpty());
        for (NS::UInteger i = 0; i < count; ++i) ASSERT_EQ(floats(results)[i], float(count - 1 - i)) << i;
        // One past the buffer's end is still reported, from the buffer's start.
        reversed = -1;
        dispatch(kernel("load_reversed"), count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(in, (count - 1) * sizeof(float), 0);
            e->setBuffer(results, 0, 1);
            e->setBytes(&reversed, sizeof reversed, 2);
        });
        std::vector<ShaderValidationReport> got = reports();
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(got[0].access, Access::Load);
        EXPECT_EQ(got[0].offset, count * sizeof(float));
        EXPECT_EQ(got[0].threadPositionInGrid, (validation::Position{0, 0, 0}));
    }
}

// Test that a `constant T&` argument bound to fewer bytes than T runs under shader
// validation, as on a Mac with the debug layer off, and its load past the bytes is reported
// (zero-filled), not a failed command buffer that a test listener would not see. Over group
// shapes; without validation the command buffer fails (the debug layer's check, below).
TEST_F(ShaderValidation, ReferenceArgumentTooShortIsReported) {
    for (const Shape shape : {Shape{1, 1}, Shape{7, 3}, Shape{33, 32}}) {
        SCOPED_TRACE(std::to_string(shape.count) + " by " + std::to_string(shape.group));
        const float bytes[4] = {1, 2, 3, 4}; // 16 of the 64 bytes the argument needs
        MTL::Buffer* out = buffer(shape.count * sizeof(float));
        MTL::CommandBuffer* commands =
            dispatch(kernel("wide_argument"), shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
                e->setBytes(bytes, sizeof bytes, 0);
                e->setBuffer(out, 0, 1);
            });
        EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
        std::vector<ShaderValidationReport> got = reports();
        ASSERT_FALSE(got.empty());
        EXPECT_EQ(got[0].kind, ReportKind::OutOfBounds);
        EXPECT_EQ(got[0].addressSpace, AddressSpace::Constant);
        EXPECT_EQ(got[0].access, Access::Load);
        EXPECT_EQ(got[0].argumentName, "args");
        EXPECT_EQ(got[0].bufferLength, sizeof bytes);
        for (NS::UInteger i = 0; i < shape.count; ++i) ASSERT_EQ(floats(out)[i], 0.0f) << "zero-filled, thread " << i;
    }
    configure(val::ShaderValidationSettings{});
    const float bytes[4] = {1, 2, 3, 4};
    MTL::Buffer* out = buffer(sizeof(float));
    MTL::CommandBuffer* plain = dispatch(kernel("wide_argument"), 1, 1, [&](MTL::ComputeCommandEncoder* e) {
        e->setBytes(bytes, sizeof bytes, 0);
        e->setBuffer(out, 0, 1);
    });
    EXPECT_EQ(plain->status(), MTL::CommandBufferStatusError);
}

// Test that every thread of a far-out store is counted under one report, without a crash.
TEST_F(ShaderValidation, FarOutOfBoundsIsCountedPerSite) {
    MTL::Buffer* out = buffer(64 * sizeof(float));
    int offset = 1 << 30; // 4 GiB past the buffer
    dispatch(kernel("store_at"), 64, 16, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(out, 0, 0);
        e->setBytes(&offset, sizeof offset, 1);
    });
    std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].count, 64u);
    EXPECT_GE(got[0].offset, std::uint64_t(1) << 32);
}

// Test that a site's report names the first thread past the end in dispatch order (lowest
// threadgroup, then lowest thread in it), in every run: the groups run in parallel, and a later
// group often gets there first (the threads before it work a while first). Mid-group, and then
// the last group's thread 0.
TEST_F(ShaderValidation, ReportKeepsTheFirstThreadInDispatchOrder) {
    constexpr std::uint32_t kThreads = 4096, kGroup = 32;
    for (std::uint32_t first : {1000u, kThreads - kGroup}) {
        MTL::Buffer* out = buffer(first * sizeof(float));
        for (int run = 0; run < 12; ++run) {
            SCOPED_TRACE("first " + std::to_string(first) + ", run " + std::to_string(run));
            dispatch(kernel("slow_before_first"), kThreads, kGroup, [&](MTL::ComputeCommandEncoder* e) {
                e->setBuffer(out, 0, 0);
                e->setBytes(&first, sizeof first, 1);
            });
            std::vector<ShaderValidationReport> got = reports();
            ASSERT_EQ(got.size(), 1u);
            EXPECT_EQ(got[0].count, kThreads - first);
            EXPECT_EQ(got[0].threadPositionInGrid, (validation::Position{first, 0, 0}));
            EXPECT_EQ(got[0].threadgroupPositionInGrid, (validation::Position{first / kGroup, 0, 0}));
            EXPECT_EQ(got[0].threadPositionInThreadgroup, (validation::Position{first % kGroup, 0, 0}));
            EXPECT_EQ(got[0].offset, first * sizeof(float));
        }
    }
}

// Test that an argument with nothing bound is a null-buffer report, not a crash.
TEST_F(ShaderValidation, UnboundBufferIsReported) {
    int offset = 0;
    MTL::CommandBuffer* commands =
        dispatch(kernel("store_at"), 4, 4, [&](MTL::ComputeCommandEncoder* e) { e->setBytes(&offset, sizeof offset, 1); });
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
    std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].kind, ReportKind::NullBuffer);
    EXPECT_EQ(got[0].bufferLabel, "<nil>");
    EXPECT_EQ(got[0].count, 4u);
}

// Test that a texture argument with nothing bound and one bound without the usage its access
// needs are reported with Apple's first lines ("Null texture access", "MTLResourceUsage flags
// mismatch or missing for texture"), at the argument's declaration, and the dispatch runs; a
// dispatch with both bound as needed is silent.
TEST_F(ShaderValidation, TextureMisuseIsReported) {
    auto make = [&](MTL::TextureUsage usage) {
        auto d = NS::TransferPtr(MTL::TextureDescriptor::alloc()->init());
        d->setWidth(4);
        d->setHeight(1);
        d->setUsage(usage);
        return NS::TransferPtr(device_->newTexture(d.get()));
    };
    auto readable = make(MTL::TextureUsageShaderRead);
    auto writable = make(MTL::TextureUsageShaderWrite);
    MTL::ComputePipelineState* copy = kernel("copy_texel");
    auto run = [&](MTL::Texture* in, MTL::Texture* out) {
        return dispatch(copy, 4, 3, [&](MTL::ComputeCommandEncoder* e) {
            e->setTexture(in, 0);
            e->setTexture(out, 1);
        });
    };
    EXPECT_EQ(run(readable.get(), writable.get())->status(), MTL::CommandBufferStatusCompleted);
    EXPECT_THAT(reports(), ::testing::IsEmpty());

    EXPECT_EQ(run(nullptr, writable.get())->status(), MTL::CommandBufferStatusCompleted);
    std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].kind, ReportKind::NullTexture);
    EXPECT_EQ(got[0].argumentName, "in");
    EXPECT_EQ(got[0].bindingIndex, 0);
    EXPECT_GT(got[0].location.line, 0u);
    const std::string text = got[0].text();
    EXPECT_EQ(text.rfind("Null texture access executing kernel function: \"copy_texel\"\n", 0), 0u) << text;
    EXPECT_NE(text.find("\targument: in [[texture(0)]]: no texture is bound\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\t* frame #0: copy_texel() - "), std::string::npos) << text;

    EXPECT_EQ(run(readable.get(), readable.get())->status(), MTL::CommandBufferStatusCompleted);
    got = reports();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].kind, ReportKind::TextureUsage);
    EXPECT_EQ(got[0].argumentName, "out");
    EXPECT_EQ(got[0].bindingIndex, 1);
    EXPECT_EQ(got[0].texture.usage, std::uint64_t(MTL::TextureUsageShaderRead));
    EXPECT_EQ(got[0].texture.needed, std::uint64_t(MTL::TextureUsageShaderWrite));
    EXPECT_EQ(got[0].text().rfind("MTLResourceUsage flags mismatch or missing for texture executing kernel function: "
                                  "\"copy_texel\"\n",
                                  0),
              0u)
        << got[0].text();
    EXPECT_NE(got[0].text().find("argument: out [[texture(1)]]: the texture's usage (0x1) lacks "
                                 "MTLTextureUsageShaderWrite (0x2), which the argument's access needs"),
              std::string::npos)
        << got[0].text();
    EXPECT_EQ(std::string(name(ReportKind::NullTexture)), "null-texture");
    EXPECT_EQ(std::string(name(ReportKind::TextureUsage)), "texture-usage");
}

// ---- Loads ----------------------------------------------------------------------------------

// Test that an in-bounds load is silent and a load past the end reads zero and is reported.
TEST_F(ShaderValidation, DeviceLoadPairs) {
    MTL::Buffer* in = buffer(32 * sizeof(float));
    MTL::Buffer* out = buffer(32 * sizeof(float));
    for (int i = 0; i < 32; ++i) floats(in)[i] = float(i);
    MTL::ComputePipelineState* load = kernel("load_at");
    int offset = 0;
    auto bind = [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(in, 0, 0);
        e->setBuffer(out, 0, 1);
        e->setBytes(&offset, sizeof offset, 2);
    };
    dispatch(load, 32, 32, bind);
    EXPECT_THAT(reports(), ::testing::IsEmpty());
    EXPECT_EQ(floats(out)[31], 32.0f);

    offset = 1;
    dispatch(load, 32, 32, bind);
    std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_THAT(got[0], ::testing::AllOf(InvalidLoad("load_at", 0), AtLine(kLoadLine), AtOffset(128)));
    EXPECT_EQ(got[0].location.column, 14u) << "the column of the accessed name";
    EXPECT_EQ(floats(out)[31], 1.0f) << "zerofill: the bad load read 0";
    EXPECT_EQ(floats(out)[30], 32.0f);
}

// Test that constant-space loads are checked and worded as device loads.
TEST_F(ShaderValidation, ConstantLoadPairs) {
    MTL::Buffer* table = buffer(16 * sizeof(float));
    MTL::Buffer* out = buffer(16 * sizeof(float));
    MTL::ComputePipelineState* load = kernel("constant_load");
    for (int offset : {0, 16}) {
        dispatch(load, 16, 16, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(table, 0, 0);
            e->setBuffer(out, 0, 1);
            e->setBytes(&offset, sizeof offset, 2);
        });
        std::vector<ShaderValidationReport> got = reports();
        if (offset == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(got[0].addressSpace, AddressSpace::Constant);
        EXPECT_EQ(got[0].count, 16u);
        EXPECT_EQ(got[0].text().rfind("Invalid device load at offset 64,", 0), 0u) << got[0].text();
    }
}

// Test that setBytes data is checked against its own length.
TEST_F(ShaderValidation, SetBytesPairs) {
    float table[16] = {};
    MTL::Buffer* out = buffer(16 * sizeof(float));
    MTL::ComputePipelineState* load = kernel("constant_load");
    for (int offset : {0, 1}) {
        dispatch(load, 16, 16, [&](MTL::ComputeCommandEncoder* e) {
            e->setBytes(table, sizeof table, 0);
            e->setBuffer(out, 0, 1);
            e->setBytes(&offset, sizeof offset, 2);
        });
        std::vector<ShaderValidationReport> got = reports();
        if (offset == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(got[0].bufferLength, sizeof table);
        EXPECT_EQ(got[0].offset, sizeof table);
        EXPECT_EQ(got[0].bindingIndex, 0);
        EXPECT_EQ(got[0].count, 1u);
    }
}

// ---- Threadgroup memory ----------------------------------------------------------------------

// Test that a threadgroup array is checked against its own size, with the faulting thread named.
TEST_F(ShaderValidation, ThreadgroupArrayPairs) {
    MTL::Buffer* out = buffer(32 * sizeof(float));
    MTL::ComputePipelineState* tile = kernel("tg_array");
    for (std::uint32_t offset : {32u, 33u}) { // 32 threads: l + 32 <= 63 fits, l + 33 does not for l = 31
        dispatch(tile, 32, 32, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, 0, 0);
            e->setBytes(&offset, sizeof offset, 1);
        });
        std::vector<ShaderValidationReport> got = reports();
        if (offset == 32) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        const ShaderValidationReport& r = got[0];
        EXPECT_EQ(r.addressSpace, AddressSpace::Threadgroup);
        EXPECT_EQ(r.access, Access::Store);
        EXPECT_EQ(r.offset, 64u * sizeof(float));
        EXPECT_FALSE(r.hasBuffer);
        EXPECT_EQ(r.location.line, unsigned(kTileLine));
        EXPECT_EQ(r.threadPositionInThreadgroup, (validation::Position{31, 0, 0}));
        EXPECT_EQ(r.text().find("buffer:"), std::string::npos);
    }
}

// Test that a [[threadgroup(n)]] argument is checked against setThreadgroupMemoryLength.
TEST_F(ShaderValidation, ThreadgroupArgumentPairs) {
    MTL::Buffer* out = buffer(16 * sizeof(float));
    MTL::ComputePipelineState* scratch = kernel("tg_argument");
    for (std::uint32_t offset : {0u, 16u}) {
        dispatch(scratch, 16, 16, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, 0, 0);
            e->setBytes(&offset, sizeof offset, 1);
            e->setThreadgroupMemoryLength(16 * sizeof(float), 0);
        });
        std::vector<ShaderValidationReport> got = reports();
        if (offset == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            EXPECT_EQ(floats(out)[5], 2.0f);
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(got[0].addressSpace, AddressSpace::Threadgroup);
        EXPECT_EQ(got[0].bindingIndex, 0);
        EXPECT_EQ(got[0].argumentName, "scratch");
        EXPECT_EQ(got[0].location.line, unsigned(kArgumentLine));
        EXPECT_EQ(got[0].count, 16u);
    }
}

// ---- Pointers read from memory ---------------------------------------------------------------

// Test that a gpuAddress stored in a buffer is checked against the buffer it points into,
// and that an address outside every allocation is a wild pointer.
TEST_F(ShaderValidation, AddressesFromMemory) {
    MTL::Buffer* target = buffer(8 * sizeof(float), "target");
    MTL::Buffer* addresses = buffer(sizeof(std::uint64_t));
    MTL::Buffer* out = buffer(8 * sizeof(float));
    for (int i = 0; i < 8; ++i) floats(target)[i] = float(i + 1);
    static_cast<std::uint64_t*>(addresses->contents())[0] = target->gpuAddress();
    MTL::ComputePipelineState* via = kernel("via_address");
    auto run = [&](std::uint32_t offset) {
        dispatch(via, 8, 8, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(addresses, 0, 0);
            e->setBuffer(out, 0, 1);
            e->setBytes(&offset, sizeof offset, 2);
            e->useResource(target, MTL::ResourceUsageRead);
        });
        return reports();
    };
    EXPECT_THAT(run(0), ::testing::IsEmpty());
    EXPECT_EQ(floats(out)[7], 8.0f);

    std::vector<ShaderValidationReport> past = run(1);
    ASSERT_EQ(past.size(), 1u);
    EXPECT_EQ(past[0].kind, ReportKind::OutOfBounds);
    EXPECT_EQ(past[0].bufferLabel, "target");
    EXPECT_EQ(past[0].offset, 8 * sizeof(float));
    EXPECT_EQ(past[0].location.line, unsigned(kAddressLine));

    std::vector<ShaderValidationReport> wild = run(1u << 30);
    ASSERT_EQ(wild.size(), 1u);
    EXPECT_EQ(wild[0].kind, ReportKind::WildPointer);
    EXPECT_EQ(wild[0].bufferLabel, "Out of bounds of user address space");
    EXPECT_EQ(wild[0].bufferLength, 1u);
}

// ---- Named arrays, program-scope constants and held references ------------------------------

// Test that an array inside a struct in device memory is checked by index: an index that
// leaves the array but stays inside the buffer passes (as on a GPU), one that leaves the
// buffer is reported against it and contained, however far it goes.
TEST_F(ShaderValidation, MemberArrayPairs) {
    MTL::Buffer* rows = buffer(2 * 4 * sizeof(float), "rows");
    MTL::ComputePipelineState* member = kernel("member_array");
    auto run = [&](int index) {
        std::memset(rows->contents(), 0, rows->length());
        dispatch(member, 2, 2, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(rows, 0, 0);
            e->setBytes(&index, sizeof index, 1);
        });
        return reports();
    };
    EXPECT_THAT(run(1), ::testing::IsEmpty());
    EXPECT_EQ(floats(rows)[1], 5.0f);
    EXPECT_EQ(floats(rows)[5], 5.0f);

    std::vector<ShaderValidationReport> past = run(4); // rows[0].v[4] is rows[1].v[0]; rows[1].v[4] is past the end
    ASSERT_EQ(past.size(), 1u);
    EXPECT_EQ(past[0].kind, ReportKind::OutOfBounds);
    EXPECT_EQ(past[0].access, Access::Store);
    EXPECT_EQ(past[0].offset, 8 * sizeof(float));
    EXPECT_EQ(past[0].bufferLabel, "rows");
    EXPECT_EQ(past[0].bufferLength, 8 * sizeof(float));
    EXPECT_EQ(past[0].location.line, unsigned(kMemberLine));
    EXPECT_EQ(past[0].threadPositionInGrid, (validation::Position{1, 0, 0}));
    EXPECT_EQ(floats(rows)[4], 5.0f) << "thread 0's store stayed inside the buffer";

    // The member array keeps its buffer's identity (a checked array of its region), so an
    // index far past it is reported against the buffer, as Apple reports a pointer derived
    // from a buffer, not as a wild pointer.
    std::vector<ShaderValidationReport> far = run(1 << 28);
    ASSERT_EQ(far.size(), 1u);
    EXPECT_EQ(far[0].kind, ReportKind::OutOfBounds);
    EXPECT_EQ(far[0].bufferLabel, "rows");
    EXPECT_EQ(far[0].offset, (std::uint64_t(1) << 30) + (far[0].threadPositionInGrid.x == 1 ? 16u : 0u));
    EXPECT_EQ(far[0].count, 2u);
    EXPECT_EQ(far[0].location.line, unsigned(kMemberLine));
}

// Test that a pointer to a program-scope constant array is valid inside the array, and that
// reading past it is reported against the constant.
TEST_F(ShaderValidation, ProgramConstantPairs) {
    MTL::Buffer* out = buffer(4 * sizeof(float));
    MTL::ComputePipelineState* table = kernel("program_constant");
    auto run = [&](int offset) {
        dispatch(table, 4, 4, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, 0, 0);
            e->setBytes(&offset, sizeof offset, 1);
        });
        return reports();
    };
    EXPECT_THAT(run(0), ::testing::IsEmpty());
    for (int i = 0; i < 4; ++i) EXPECT_EQ(floats(out)[i], 2.0f * float(i + 1)) << i;

    std::vector<ShaderValidationReport> past = run(4);
    ASSERT_EQ(past.size(), 1u);
    EXPECT_EQ(past[0].kind, ReportKind::OutOfBounds);
    EXPECT_EQ(past[0].access, Access::Load);
    EXPECT_EQ(past[0].bufferLabel, "constant kTable");
    EXPECT_EQ(past[0].bufferLength, 4 * sizeof(float));
    EXPECT_EQ(past[0].count, 4u);
    EXPECT_EQ(past[0].location.line, unsigned(kTableLine));
    for (int i = 0; i < 4; ++i) EXPECT_EQ(floats(out)[i], float(i + 1)) << "the bad load read zero";
}

// Test that thread-space arrays and pointers index as written in the checked flavour, and
// that an index past a thread array is contained and reported rather than read.
TEST_F(ShaderValidation, ThreadArrayPairs) {
    MTL::Buffer* out = buffer(4 * sizeof(float));
    MTL::ComputePipelineState* local = kernel("thread_pointer");
    int k = 2;
    dispatch(local, 4, 2, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(out, 0, 0);
        e->setBytes(&k, sizeof k, 1);
    });
    EXPECT_THAT(reports(), ::testing::IsEmpty());
    EXPECT_EQ(floats(out)[3], 70.0f) << "p[k] + local[k] + *p with k = 2";

    k = 4; // local[k] leaves the thread's array (p[k], a thread pointer, is not checked)
    dispatch(local, 4, 2, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(out, 0, 0);
        e->setBytes(&k, sizeof k, 1);
    });
    std::vector<ShaderValidationReport> past = reports();
    ASSERT_EQ(past.size(), 1u);
    EXPECT_EQ(past[0].kind, ReportKind::WildPointer);
    EXPECT_EQ(past[0].access, Access::Load);
    EXPECT_EQ(past[0].location.line, unsigned(kThreadLine));
    EXPECT_EQ(past[0].count, 4u);
}

// Test that a reference bound to an invalid element is reported once where it is bound,
// that stores through it stay away from the buffer, and that the threads around it work.
TEST_F(ShaderValidation, HeldReferenceIsContained) {
    MTL::Buffer* out = buffer(8 * sizeof(float));
    MTL::Buffer* sizes = buffer(8 * sizeof(std::uint32_t));
    MTL::Buffer* after = buffer(sizeof(float)); // whatever memory follows, kept as it was
    floats(out)[0] = floats(after)[0] = 42.0f;
    int offset = 1; // thread 7 binds its reference one past the end
    MTL::CommandBuffer* commands = dispatch(kernel("held_reference"), 8, 4, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(out, 0, 0);
        e->setBuffer(sizes, 0, 1);
        e->setBytes(&offset, sizeof offset, 2);
    });
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
    std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].offset, 8 * sizeof(float));
    EXPECT_EQ(got[0].location.line, unsigned(kHeldLine));
    EXPECT_EQ(got[0].threadPositionInGrid, (validation::Position{7, 0, 0}));
    EXPECT_EQ(floats(out)[0], 42.0f) << "no thread's element";
    EXPECT_EQ(floats(after)[0], 42.0f);
    for (int i = 0; i < 7; ++i) EXPECT_EQ(static_cast<std::uint32_t*>(sizes->contents())[i], 2u) << i;
    for (int i = 1; i < 8; ++i) EXPECT_EQ(floats(out)[i], 2.0f) << i;
}

// Test that named arrays indexed in constant expressions still compile in the checked
// flavour, and that their elements read right.
TEST_F(ShaderValidation, ConstexprArrayIndex) {
    MTL::Buffer* out = buffer(4 * sizeof(int));
    dispatch(kernel("constexpr_index"), 4, 4, [&](MTL::ComputeCommandEncoder* e) { e->setBuffer(out, 0, 0); });
    EXPECT_THAT(reports(), ::testing::IsEmpty());
    const int* got = static_cast<const int*>(out->contents());
    EXPECT_EQ(got[0], 6);
    EXPECT_EQ(got[1], 8);
    EXPECT_EQ(got[2], 8);
    EXPECT_EQ(got[3], 7);
}

// ---- Arguments with nothing bound, shader validation off --------------------------------------

/// Metal runs a kernel whose argument has nothing bound (an optional input); the GPU faults
/// only if the kernel touches it. metalcpu runs the checked flavour for such a dispatch.
class NullBinding : public ShaderValidation {
protected:
    void SetUp() override {
        ShaderValidation::SetUp();
        configure(val::ShaderValidationSettings{});
    }
};

// Test that an argument nobody touches may be left unbound (or bound to nil): the kernel runs,
// nothing is reported, the command buffer completes.
TEST_F(NullBinding, UntouchedArgumentRuns) {
    MTL::Buffer* out = buffer(48 * sizeof(float));
    MTL::ComputePipelineState* fiber = kernel("fiber_store");
    std::uint32_t limit = 1000; // no thread stores: `out` is never touched
    MTL::CommandBuffer* commands = dispatch(fiber, 48, 16, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(nullptr, 0, 0);
        e->setBytes(&limit, sizeof limit, 1);
    });
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(commands->error(), nullptr);
    EXPECT_THAT(reports(), ::testing::IsEmpty()) << "validation is off: nothing is reported";

    limit = 0; // the same pipeline with the buffer bound runs as usual
    commands = dispatch(fiber, 48, 16, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(out, 0, 0);
        e->setBytes(&limit, sizeof limit, 1);
    });
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(floats(out)[47], 1.0f);
}

// Test that the guard an unbound argument brings is not shader validation: with the option
// that fails command buffers on reports set, a store past its buffer into another buffer goes
// ahead, as on a GPU, and the command buffer completes.
TEST_F(NullBinding, GuardNeverReports) {
    val::ShaderValidationSettings settings;
    settings.failCommandBuffer = true;
    configure(settings);
    Neighbours n = neighbours(4);
    int offset = n.index;
    std::uint32_t useBias = 0;
    MTL::CommandBuffer* commands = dispatch(kernel("optional_bias"), 4, 4, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(n.low, 0, 0);
        e->setBuffer(nullptr, 0, 1);
        e->setBytes(&offset, sizeof offset, 2);
        e->setBytes(&useBias, sizeof useBias, 3);
    });
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted)
        << text(commands->error() ? commands->error()->localizedDescription() : nullptr);
    EXPECT_THAT(reports(), ::testing::IsEmpty());
    for (int i = 0; i < 4; ++i) EXPECT_EQ(floats(n.high)[i], 1.0f) << i;
}

// Test that touching an argument with nothing bound fails the command buffer as the GPU's
// page fault would, naming the argument, and neither crashes nor reports.
TEST_F(NullBinding, TouchedArgumentFailsLikeAPageFault) {
    MTL::ComputePipelineState* fiber = kernel("fiber_store");
    std::uint32_t limit = 40; // threads 40..47 store through `out`
    MTL::CommandBuffer* commands = dispatch(fiber, 48, 16, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(nullptr, 0, 0);
        e->setBytes(&limit, sizeof limit, 1);
    });
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusError);
    ASSERT_NE(commands->error(), nullptr);
    EXPECT_EQ(commands->error()->code(), MTL::CommandBufferErrorPageFault);
    const std::string message = text(commands->error()->localizedDescription());
    EXPECT_NE(message.find("Caused GPU Address Fault Error"), std::string::npos) << message;
    EXPECT_NE(message.find("argument 'out' [[buffer(0)]], which has no buffer bound"), std::string::npos) << message;
    EXPECT_THAT(reports(), ::testing::IsEmpty());
}

// ---- Atomics and pointer arithmetic ------------------------------------------------------------

// Test that an atomic is an access: in bounds it counts, out of bounds it is a reported store.
TEST_F(ShaderValidation, AtomicPairs) {
    MTL::Buffer* counters = buffer(8 * sizeof(std::uint32_t));
    MTL::ComputePipelineState* count = kernel("counter");
    for (std::uint32_t offset : {0u, 8u}) {
        dispatch(count, 8, 8, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(counters, 0, 0);
            e->setBytes(&offset, sizeof offset, 1);
        });
        std::vector<ShaderValidationReport> got = reports();
        if (offset == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            EXPECT_EQ(static_cast<std::uint32_t*>(counters->contents())[7], 1u);
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(got[0].access, Access::Store);
        EXPECT_EQ(got[0].location.line, unsigned(kAtomicLine));
        EXPECT_EQ(got[0].count, 8u);
    }
}

// Test that pointers to volatile data (GPUExample's `volatile device atomic_int *result`) are
// checked like others: the qualifier stays on the data, so the instrumented flavour compiles.
TEST_F(ShaderValidation, VolatilePointerPairs) {
    MTL::Buffer* total = buffer(sizeof(std::int32_t));
    MTL::Buffer* values = buffer(8 * sizeof(std::int32_t));
    for (int i = 0; i < 8; ++i) static_cast<std::int32_t*>(values->contents())[i] = i + 1;
    MTL::ComputePipelineState* sum = kernel("volatile_sum");
    ASSERT_NE(sum, nullptr);
    for (NS::UInteger threads : {8u, 9u}) {
        *static_cast<std::int32_t*>(total->contents()) = 0;
        dispatch(sum, threads, 8, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(total, 0, 0);
            e->setBuffer(values, 0, 1);
        });
        EXPECT_EQ(*static_cast<std::int32_t*>(total->contents()), 36); // the ninth load reads zero
        std::vector<ShaderValidationReport> got = reports();
        if (threads == 8) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        EXPECT_THAT(got[0], InvalidLoad("volatile_sum", 1));
        EXPECT_EQ(got[0].location.line, unsigned(kVolatileLine));
    }
}

// Test that `*p = v` through a derived pointer is checked, and that `p[n] += v` past the end is
// reported as the load and the store it is.
TEST_F(ShaderValidation, DerivedPointerPairs) {
    MTL::Buffer* out = buffer(8 * sizeof(float));
    MTL::ComputePipelineState* walk = kernel("pointer_walk");
    for (std::uint32_t step : {0u, 8u}) {
        dispatch(walk, 8, 8, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, 0, 0);
            e->setBytes(&step, sizeof step, 1);
        });
        std::vector<ShaderValidationReport> got = reports();
        if (step == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            EXPECT_EQ(floats(out)[3], 4.0f);
            continue;
        }
        ASSERT_EQ(got.size(), 2u);
        EXPECT_THAT(got, ::testing::UnorderedElementsAre(
                             ::testing::AllOf(InvalidLoad("pointer_walk", 0), AtLine(kWalkLine)),
                             ::testing::AllOf(InvalidStore("pointer_walk", 0), AtLine(kWalkLine))));
        EXPECT_EQ(floats(out)[3], 3.0f) << "the in-range store still happened";
    }
}

// Test that a store through a named cast (`*reinterpret_cast<device T*>(p)`, as in PyTorch's
// c10/metal/indexing.h) is checked: it used to run unchecked.
TEST_F(ShaderValidation, CastPointerPairs) {
    MTL::Buffer* out = buffer(8 * sizeof(float));
    MTL::ComputePipelineState* store = kernel("cast_store");
    for (int offset : {0, 1}) {
        dispatch(store, 8, 8, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, 0, 0);
            e->setBytes(&offset, sizeof offset, 1);
        });
        std::vector<ShaderValidationReport> got = reports();
        if (offset == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty());
            EXPECT_EQ(floats(out)[7], 2.0f);
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        EXPECT_THAT(got[0], ::testing::AllOf(InvalidStore("cast_store", 0), AtLine(kCastLine)));
    }
}

// Test that a store after a condition (`if (c) *p = v;`) and a load after another operator
// (`a * *q`) are checked, over threadgroup shapes: the front end took both `*` for products
// and ran them unchecked, without a count.
TEST_F(ShaderValidation, DereferencesAfterConditionsAndOperators) {
    MTL::ComputePipelineState* guarded = kernel("guarded_product");
    for (const Shape shape : {Shape{1, 1}, Shape{33, 32}, Shape{100, 33}}) {
        const NS::UInteger count = shape.count;
        SCOPED_TRACE(std::to_string(count) + " by " + std::to_string(shape.group));
        MTL::Buffer* in = buffer(count * sizeof(float));
        for (NS::UInteger i = 0; i < count; ++i) floats(in)[i] = float(i);
        for (int offset : {0, 1}) {
            // offset 0: canaries around the results; offset 1: the bound range ends at the
            // results' last element, so the last thread stores and loads one past the end.
            MTL::Buffer* out = buffer((count + (offset == 0 ? 2 : 1)) * sizeof(float));
            floats(out)[0] = 42.0f;
            if (offset == 0) floats(out)[count + 1] = 42.0f;
            dispatch(guarded, count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
                e->setBuffer(out, sizeof(float), 0);
                e->setBuffer(in, 0, 1);
                e->setBytes(&offset, sizeof offset, 2);
            });
            std::vector<ShaderValidationReport> got = reports();
            EXPECT_EQ(floats(out)[0], 42.0f);
            if (offset == 0) {
                EXPECT_THAT(got, ::testing::IsEmpty());
                for (NS::UInteger i = 0; i < count; ++i) ASSERT_EQ(floats(out)[i + 1], 2.0f * float(i)) << i;
                EXPECT_EQ(floats(out)[count + 1], 42.0f);
                continue;
            }
            ASSERT_EQ(got.size(), 2u);
            EXPECT_THAT(got, ::testing::UnorderedElementsAre(
                                 ::testing::AllOf(InvalidLoad("guarded_product", 1), AtLine(kGuardedLine)),
                                 ::testing::AllOf(InvalidStore("guarded_product", 0), AtLine(kGuardedLine))));
            for (NS::UInteger i = 0; i + 1 < count; ++i) ASSERT_EQ(floats(out)[i + 2], 2.0f * float(i + 1)) << i;
        }
    }
}

// Test that a kernel running on fibers (a barrier in a helper) names the faulting thread, and
// stays silent when every store is in range.
TEST_F(ShaderValidation, FiberKernelPairs) {
    MTL::Buffer* out = buffer(40 * sizeof(float));
    MTL::ComputePipelineState* fiber = kernel("fiber_store");
    for (std::uint32_t limit : {0u, 45u}) { // 48 threads in groups of 16; only i >= 45 store
        dispatch(fiber, 48, 16, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, 0, 0);
            e->setBytes(&limit, sizeof limit, 1);
        });
        std::vector<ShaderValidationReport> got = reports();
        if (limit == 0) {
            ASSERT_EQ(got.size(), 1u) << "threads 40..47 store past the 40 floats";
            EXPECT_EQ(got[0].count, 8u);
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(got[0].count, 3u);
        EXPECT_EQ(got[0].location.line, unsigned(kFiberLine));
        EXPECT_EQ(got[0].threadgroupPositionInGrid, (validation::Position{2, 0, 0}));
        EXPECT_GE(got[0].threadPositionInThreadgroup.x, 13u);
        EXPECT_EQ(got[0].threadPositionInGrid.x, 32 + got[0].threadPositionInThreadgroup.x);
    }
    std::uint32_t inRange = 48;
    dispatch(fiber, 48, 16, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(out, 0, 0);
        e->setBytes(&inRange, sizeof inRange, 1);
    });
    EXPECT_THAT(reports(), ::testing::IsEmpty());
}

// ---- Switches, fail modes and sinks -------------------------------------------------------------

// Test that the pipeline's shaderValidation property and the descriptor's Disabled both work.
TEST_F(ShaderValidation, DescriptorDisablesAPipeline) {
    MTL::ComputePipelineState* plain = kernel("store_at", MTL::ShaderValidationDisabled);
    MTL::ComputePipelineState* checked = kernel("store_at");
    EXPECT_EQ(plain->shaderValidation(), MTL::ShaderValidationDisabled);
    EXPECT_EQ(checked->shaderValidation(), MTL::ShaderValidationEnabled);
    MTL::Buffer* out = buffer(8 * sizeof(float));
    int offset = 0;
    dispatch(plain, 8, 8, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(out, 0, 0);
        e->setBytes(&offset, sizeof offset, 1);
    });
    EXPECT_EQ(floats(out)[7], 1.0f);
    EXPECT_THAT(reports(), ::testing::IsEmpty());
}

// Test that with validation off for the process, only a descriptor that asks is instrumented.
TEST_F(ShaderValidation, OffForTheProcess) {
    configure(val::ShaderValidationSettings{});
    EXPECT_EQ(kernel("store_at")->shaderValidation(), MTL::ShaderValidationDisabled);
    EXPECT_EQ(kernel("store_at", MTL::ShaderValidationEnabled)->shaderValidation(), MTL::ShaderValidationEnabled);
}

// Test MTL_SHADER_VALIDATION_FAIL_MODE=allow: an access past its buffer that lands in another
// live buffer happens, as on a GPU; one outside every allocation is contained and fails the
// command buffer as a GPU page fault.
TEST_F(ShaderValidation, AllowMode) {
    val::ShaderValidationSettings settings;
    settings.enabled = true;
    settings.failMode = val::FailMode::Allow;
    configure(settings);
    Neighbours n = neighbours(4);
    floats(n.high)[0] = 42.0f;
    int offset = n.index; // thread 0 stores past its buffer, into the other
    MTL::CommandBuffer* inside = dispatch(kernel("store_at"), 1, 1, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(n.low, 0, 0);
        e->setBytes(&offset, sizeof offset, 1);
    });
    EXPECT_EQ(inside->status(), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(floats(n.high)[0], 1.0f) << "allowed: the store landed in the other buffer";
    EXPECT_EQ(reports().size(), 1u);
    MTL::Buffer* out = buffer(9 * sizeof(float));

    offset = 1 << 30;
    MTL::CommandBuffer* outside = dispatch(kernel("store_at"), 1, 1, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(out, 0, 0);
        e->setBytes(&offset, sizeof offset, 1);
    });
    EXPECT_EQ(outside->status(), MTL::CommandBufferStatusError);
    ASSERT_NE(outside->error(), nullptr);
    EXPECT_EQ(outside->error()->code(), MTL::CommandBufferErrorPageFault);
    EXPECT_EQ(reports().size(), 1u);
}

// Test METALCPU_SHADER_VALIDATION_FAILS_COMMAND_BUFFER: reports fail the command buffer.
TEST_F(ShaderValidation, FailsCommandBufferOption) {
    val::ShaderValidationSettings settings;
    settings.enabled = true;
    settings.failCommandBuffer = true;
    configure(settings);
    MTL::Buffer* out = buffer(4 * sizeof(float));
    for (int offset : {0, 1}) {
        MTL::CommandBuffer* commands = dispatch(kernel("store_at"), 4, 4, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, 0, 0);
            e->setBytes(&offset, sizeof offset, 1);
        });
        if (offset == 0) {
            EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
            continue;
        }
        EXPECT_EQ(commands->status(), MTL::CommandBufferStatusError);
        ASSERT_NE(commands->error(), nullptr);
        EXPECT_NE(text(commands->error()->localizedDescription()).find("Invalid device store at offset 16"),
                  std::string::npos);
    }
    reports();
}

// Test that reports go to stderr only when asked, and never for a clean kernel.
TEST_F(ShaderValidation, StderrOnlyWhenAsked) {
    MTL::Buffer* out = buffer(4 * sizeof(float));
    auto runWith = [&](int offset) {
        ::testing::internal::CaptureStderr();
        dispatch(kernel("store_at"), 4, 4, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, 0, 0);
            e->setBytes(&offset, sizeof offset, 1);
        });
        return ::testing::internal::GetCapturedStderr();
    };
    EXPECT_EQ(runWith(1), "") << "not asked for";
    val::ShaderValidationSettings settings;
    settings.enabled = true;
    settings.reportToStderr = true;
    configure(settings);
    EXPECT_EQ(runWith(0), "") << "a clean kernel prints nothing";
    std::string printed = runWith(1);
    EXPECT_EQ(printed.rfind("Invalid device store at offset 16, executing kernel function: \"store_at\"\n"
                            "buffer: <unnamed>, length:16, resident:Read Write\n",
                            0),
              0u)
        << printed;
    reports();
}

// Test that reports are appended to the JSON-lines file, one line each.
TEST_F(ShaderValidation, JsonLines) {
    char path[] = "/tmp/metalcpu-validation-XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    val::ShaderValidationSettings settings;
    settings.enabled = true;
    settings.jsonPath = path;
    configure(settings);
    MTL::Buffer* out = buffer(4 * sizeof(float));
    int offset = 1;
    dispatch(kernel("store_at"), 4, 4, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(out, 0, 0);
        e->setBytes(&offset, sizeof offset, 1);
    });
    std::ifstream in(path);
    std::string line, extra;
    ASSERT_TRUE(std::getline(in, line));
    EXPECT_FALSE(std::getline(in, extra));
    EXPECT_NE(line.find("\"access\":\"store\""), std::string::npos) << line;
    EXPECT_NE(line.find("\"kernel\":\"store_at\""), std::string::npos) << line;
    std::remove(path);
    reports();
}

// Test MTL_SHADER_VALIDATION_ABORT_ON_FAULT: the report is printed and the process stops.
TEST_F(ShaderValidation, AbortOnFaultDeathTest) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    MTL::Buffer* out = buffer(4 * sizeof(float));
    MTL::ComputePipelineState* store = kernel("store_at");
    int offset = 1;
    EXPECT_DEATH(
        {
            val::ShaderValidationSettings settings;
            settings.enabled = true;
            settings.abortOnFault = true;
            configure(settings);
            dispatch(store, 4, 4, [&](MTL::ComputeCommandEncoder* e) {
                e->setBuffer(out, 0, 0);
                e->setBytes(&offset, sizeof offset, 1);
            });
        },
        "Invalid device store at offset 16, executing kernel function: \"store_at\"");
}

// Test that the guard of <metalcpu/ValidationTesting.hpp> fails a test on a report.
TEST_F(ShaderValidation, FailOnReportsGuard) {
    MTL::Buffer* out = buffer(4 * sizeof(float));
    MTL::ComputePipelineState* store = kernel("store_at");
    int offset = 1;
    ::testing::TestPartResultArray failures;
    {
        ::testing::ScopedFakeTestPartResultReporter intercept(
            ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ALL_THREADS, &failures);
        FailOnValidationReports guard;
        dispatch(store, 4, 4, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, 0, 0);
            e->setBytes(&offset, sizeof offset, 1);
        });
    }
    ASSERT_EQ(failures.size(), 1);
    EXPECT_TRUE(failures.GetTestPartResult(0).nonfatally_failed());
    EXPECT_NE(std::string(failures.GetTestPartResult(0).message()).find("Invalid device store at offset 16"),
              std::string::npos);
    reports();
}

// ---- One kernel's instrumented code does not compile ----------------------------------------

// `needs_raw` compiles only with raw pointers, so its instrumented flavour (checked pointers)
// does not compile, and with it the file's flavour as a whole.
const char* const kOneBadFlavour = R"(
#include <metal_stdlib>
using namespace metal;
template <typename P> struct raw { enum { value = 0 }; };
template <typename T> struct raw<T*> { enum { value = 1 }; };
template <typename T>
kernel void needs_raw(device T* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    static_assert(raw<decltype(out)>::value == 1, "a raw pointer");
    out[i] = T(1);
}
template [[host_name("needs_raw")]] kernel void needs_raw<float>(device float*, uint);
kernel void store_past(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i + 1] = 2.0f;
}
)";

// `store_past` stores one past the end; each file below also holds a kernel whose instrumented
// code g++ rejects: it asserts that a device pointer is a raw pointer, which a checked one is not.

// (a) In a non-template kernel's own body.
const char* const kUncheckableKernelBody = R"(
#include <metal_stdlib>
using namespace metal;
template <typename P> struct raw { enum { value = 0 }; };
template <typename T> struct raw<T*> { enum { value = 1 }; };
kernel void pointer_bits(device float* data [[buffer(0)]], device ulong* bits [[buffer(1)]],
                         uint i [[thread_position_in_grid]]) {
    static_assert(raw<decltype(data)>::value == 1, "a raw pointer"); bits[i] = 0;
}
kernel void store_past(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i + 1] = 2.0f;
}
)";

// (c) With a kernel template that ggml's `typedef decltype(kernel_x<...>) kernel_x_t;` names
// outside every body: the other kernel's own flavour still needs its definition.
const char* const kTypedefNamesKernelTemplate = R"(
#include <metal_stdlib>
using namespace metal;
template <typename P> struct raw { enum { value = 0 }; };
template <typename T> struct raw<T*> { enum { value = 1 }; };
kernel void pointer_bits(device float* data [[buffer(0)]], device ulong* bits [[buffer(1)]],
                         uint i [[thread_position_in_grid]]) {
    static_assert(raw<decltype(data)>::value == 1, "a raw pointer"); bits[i] = 0;
}
template <typename T>
kernel void fill(device T* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = T(1); }
typedef decltype(fill<float>) fill_t;
template [[host_name("fill_f32")]] kernel fill_t fill<float>;
kernel void store_past(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i + 1] = 2.0f;
}
)";

// (b) In helpers only one kernel reaches (through a second helper, and a template);
// `store_past` shares another helper with it.
const char* const kUncheckableHelper = R"(
#include <metal_stdlib>
using namespace metal;
template <typename P> struct raw { enum { value = 0 }; };
template <typename T> struct raw<T*> { enum { value = 1 }; };
static inline float twice(float x) { return 2.0f * x; }
template <typename T>
static inline ulong misalignment(device T* data) { static_assert(raw<decltype(data)>::value == 1, "a raw pointer"); return 0; }
static inline ulong bits_of(device float* data) { return misalignment(data) + ulong(twice(0.0f)); }
kernel void pointer_bits(device float* data [[buffer(0)]], device ulong* bits [[buffer(1)]],
                         uint i [[thread_position_in_grid]]) {
    bits[i] = bits_of(data);
}
kernel void store_past(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i + 1] = twice(1.0f);
}
)";

class ValidationPerKernel : public ValidationOnFixture {
protected:
    /// Runs `store_past` of `library` validated and expects its one report, at `line`; then
    /// expects the validated pipeline of `bad` to fail with its own flavour's compile error,
    /// which holds each of `explanation`.
    void expectOnlyOneKernelLosesValidation(MTL::Library* library, unsigned line, const char* bad,
                                            const std::vector<std::string>& explanation) {
        ASSERT_NE(library, nullptr);
        MTL::ComputePipelineState* good = pipeline(library, "store_past", nullptr, MTL::ShaderValidationDefault);
        ASSERT_NE(good, nullptr);
        MTL::Buffer* out = buffer(4 * sizeof(float));
        MTL::CommandBuffer* commands =
            dispatch(good, 4, 4, [&](MTL::ComputeCommandEncoder* e) { e->setBuffer(out, 0, 0); });
        EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
        std::vector<ShaderValidationReport> got = reports();
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(got[0].kind, ReportKind::OutOfBounds);
        EXPECT_EQ(got[0].location.line, line);
        EXPECT_EQ(got[0].kernel, "store_past");

        MTL::Function* function = library->newFunction(NS::String::string(bad, NS::UTF8StringEncoding));
        ASSERT_NE(function, nullptr);
        NS::Error* error = nullptr;
        MTL::ComputePipelineState* none = device_->newComputePipelineState(function, &error);
        EXPECT_EQ(none, nullptr);
        ASSERT_NE(error, nullptr);
        const std::string message = error->localizedDescription()->utf8String();
        EXPECT_NE(message.find("shader validation cannot instrument kernel '" + std::string(bad) + "': its code at "),
                  std::string::npos)
            << message;
        for (const std::string& part : explanation) EXPECT_NE(message.find(part), std::string::npos) << message;
        function->release();
    }
};

// Test that a kernel whose instrumented code does not compile fails its own pipeline with the
// compiler's message, and does not cost the other kernel of its file its validation: that one
// still reports its store past the end.
TEST_F(ValidationPerKernel, OtherKernelsKeepTheirValidation) {
    MTL::Library* library = compile(kOneBadFlavour);
    expectOnlyOneKernelLosesValidation(library, 13, "needs_raw", {"a raw pointer"});
    if (library) library->release();
}

// g++'s message for the assertion (a checked pointer is a class), at its line.
const std::vector<std::string> kNotRaw = {"program_source:8:", "a raw pointer"};

// Test that a non-template kernel whose own body does not compile instrumented costs only its
// own validation: the other kernel of its file still reports its store past the end.
TEST_F(ValidationPerKernel, KernelBodyCostsOnlyItsOwnValidation) {
    MTL::Library* library = compile(kUncheckableKernelBody);
    expectOnlyOneKernelLosesValidation(library, 11, "pointer_bits", kNotRaw);
    if (library) library->release();
}

// Test that helpers that do not compile instrumented cost only the kernels that reach them.
TEST_F(ValidationPerKernel, HelperCostsOnlyTheKernelsReachingIt) {
    MTL::Library* library = compile(kUncheckableHelper);
    expectOnlyOneKernelLosesValidation(library, 15, "pointer_bits", kNotRaw);
    if (library) library->release();
}

// Test that a kernel template named by a typedef outside every body stays in the other
// kernels' own flavours, so a kernel that does not compile instrumented still costs only itself.
TEST_F(ValidationPerKernel, TypedefOfAKernelTemplateStaysInEveryFlavour) {
    MTL::Library* library = compile(kTypedefNamesKernelTemplate);
    expectOnlyOneKernelLosesValidation(library, 15, "pointer_bits", kNotRaw);
    if (library) library->release();
}


// ---- Deferred machine code (issue 10) ------------------------------------------------------

// Test that with shader validation on for the process, a kernel of a library compiled with
// deferred machine code (more kernels than METALCPU_DEFERRED_CODE_KERNELS) runs its instrumented
// flavour: its store one past the buffer's end is reported, naming the kernel and its line.
TEST_F(ValidationOnFixture, DeferredKernelIsValidated) {
    TemporaryDirectory cache;
    ScopedEnvironmentVariable cacheDirectory("METALCPU_CACHE_DIR", cache.path().string());
    ScopedEnvironmentVariable threshold("METALCPU_DEFERRED_CODE_KERNELS", "2");
    MTL::Library* library = compile(R"(#include <metal_stdlib>
using namespace metal;
template <int K>
kernel void store_plus(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i + K] = 1.0f;
}
template [[host_name("store_plus_0")]] kernel void store_plus<0>(device float*, uint);
template [[host_name("store_plus_1")]] kernel void store_plus<1>(device float*, uint);
template [[host_name("store_plus_2")]] kernel void store_plus<2>(device float*, uint);
)");
    ASSERT_NE(library, nullptr);
    MTL::Buffer* out = buffer(8 * sizeof(float), "results");
    MTL::CommandBuffer* commands = dispatch(pipeline(library, "store_plus_1"), 8, 4,
                                            [&](MTL::ComputeCommandEncoder* e) { e->setBuffer(out, 0, 0); });
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
    const std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].kernel, "store_plus_1");
    EXPECT_EQ(got[0].access, Access::Store);
    EXPECT_EQ(got[0].location.line, 5u);
    EXPECT_EQ(got[0].offset, 8 * sizeof(float));
    EXPECT_EQ(floats(out)[0], 0.0f);
    for (int i = 1; i < 8; ++i) EXPECT_EQ(floats(out)[i], 1.0f) << i;
    library->release();
}

} // namespace
} // namespace metalcpu::testing
