// Accesses through a pointer held in a struct member, in the shader-validation flavour:
// `*list[i].target += x`, where `list` is a `constant Item*` whose member `target` is a
// `device float*` (a list of destinations written by the host, as an argument buffer's
// pointers are), and Slang's shape of a threadgroup array reached through a context struct,
// `&((*((&ctx)->sa_0)))[0] + n` (its `gemm_q8_0`). Their validated pipelines did not compile;
// each now checks the access it makes: out of bounds reported in Apple's format, in bounds
// silent.
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;
using validation::ShaderValidationReport;

const char* const kKernels = R"(#include <metal_stdlib>
using namespace metal;

struct Item { device float* target; uint weight; };

// Each thread adds its x, times its item's weight, to the float its item points at.
kernel void list_targets(constant Item* list [[buffer(0)]], device const float* x [[buffer(1)]],
                         uint i [[thread_position_in_grid]]) {
    *list[i].target += x[i] * float(list[i].weight);
}

// The same through the pointer's subscript.
kernel void list_subscripts(constant Item* list [[buffer(0)]], device const float* x [[buffer(1)]],
                            uint i [[thread_position_in_grid]]) {
    list[i].target[0] += x[i] * float(list[i].weight);
}

struct KernelContext_0 { array<float, int(64)> threadgroup* sa_0; float device* out_0; };

// Each thread stores through a pointer moved from the first element of the context's tile (thread
// 0 `skip` elements on), and after the barrier copies its own element of the tile out.
kernel void context_tile(float device* out [[buffer(0)]], constant uint& skip [[buffer(1)]],
                         uint lid [[thread_position_in_threadgroup]], uint i [[thread_position_in_grid]]) {
    threadgroup array<float, int(64)> sa_1;
    KernelContext_0 kernelContext_0;
    (&kernelContext_0)->sa_0 = &sa_1;
    (&kernelContext_0)->out_0 = out;
    threadgroup float* _S1 = &((*((&kernelContext_0)->sa_0)))[int(0)] + (lid == 0u ? skip : lid);
    *_S1 = float(i) + 0.5;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    (&kernelContext_0)->out_0[i] = (*((&kernelContext_0)->sa_0))[lid];
}
)";

/// The line of the kernels' text holding `text`.
unsigned kernelLine(const char* text) { return lineHolding(kKernels, text); }

struct Item {
    std::uint64_t target;
    std::uint32_t weight, pad;
};

class PointerMembers : public ShapedValidationFixture<&kKernels> {
protected:
    /// Runs `kernel` over the shape's threads with item t pointing at word 1 + t of a labelled
    /// output of count words between canaries (each 1.0) and weight 2, x[t] = t; item `bad`
    /// (when below the count) points just past the output's buffer instead.
    void runList(const char* kernel, NS::UInteger bad) {
        MTL::ComputePipelineState* state = pipeline(library_, kernel);
        ASSERT_NE(state, nullptr) << "the instrumented flavour compiles";
        const NS::UInteger count = GetParam().count;
        out_ = output(count, 0x3F800000u); // 1.0f
        MTL::Buffer* list = buffer(count * sizeof(Item), "list");
        MTL::Buffer* x = buffer(count * sizeof(float), "x");
        auto* items = static_cast<Item*>(list->contents());
        for (NS::UInteger t = 0; t < count; ++t) {
            const std::uint64_t word = t == bad ? count + 2 : 1 + t;
            items[t] = Item{out_->gpuAddress() + word * sizeof(float), 2, 0};
            floats(x)[t] = float(t);
        }
        dispatch(state, count, GetParam().group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(list, 0, 0);
            e->setBuffer(x, 0, 1);
            e->useResource(out_, MTL::ResourceUsageRead | MTL::ResourceUsageWrite);
        });
        expectCanaries(out_, count);
        for (NS::UInteger t = 0; t < count; ++t)
            EXPECT_EQ(floats(out_)[1 + t], t == bad ? 1.0f : 1.0f + 2.0f * float(t)) << "thread " << t;
    }
    /// Checks the two reports of item `bad`'s update past the output's buffer: its load and its
    /// store, at `line`, against the output's buffer at its length.
    void expectUpdateJustPast(const char* kernel, unsigned line) {
        const NS::UInteger count = GetParam().count;
        const std::vector<ShaderValidationReport> got = reports();
        ASSERT_EQ(got.size(), 2u) << ::testing::PrintToString(got);
        const std::string offset = std::to_string((count + 2) * sizeof(float));
        for (const ShaderValidationReport& report : got) {
            EXPECT_EQ(report.location.line, line) << report.text();
            EXPECT_EQ(report.size, sizeof(float));
            EXPECT_EQ(report.count, 1u);
            EXPECT_THAT(report.text(), HasSubstr("buffer: out, length:" + offset + ", resident:Read Write"));
            EXPECT_THAT(report.text(), HasSubstr("thread_position_in_grid: (" + std::to_string(count / 2) + ", 0, 0)"));
        }
        EXPECT_THAT(got[0].text() + got[1].text(),
                    AllOf(HasSubstr("Invalid device load at offset " + offset + ", executing kernel function: \"" +
                                    kernel + "\""),
                          HasSubstr("Invalid device store at offset " + offset + ", executing kernel function: \"" +
                                    kernel + "\"")));
    }
    MTL::Buffer* out_ = nullptr;
};

// Test that updates through the list's pointers, each inside the output, are made and silent.
TEST_P(PointerMembers, ListTargets_Positive) {
    runList("list_targets", GetParam().count);
    EXPECT_THAT(reports(), IsEmpty());
}

// Test that an item pointing just past the output's buffer is reported at the update, as the
// load and the store it is, against that buffer, and that nothing is written there.
TEST_P(PointerMembers, ListTargetPastTheBuffer_Negative) {
    runList("list_targets", GetParam().count / 2);
    expectUpdateJustPast("list_targets", kernelLine("*list[i].target +="));
}

// Test the same accesses written as a subscript of the member.
TEST_P(PointerMembers, ListSubscripts_Positive) {
    runList("list_subscripts", GetParam().count);
    EXPECT_THAT(reports(), IsEmpty());
}
TEST_P(PointerMembers, ListSubscriptPastTheBuffer_Negative) {
    runList("list_subscripts", GetParam().count / 2);
    expectUpdateJustPast("list_subscripts", kernelLine("list[i].target[0] +="));
}

// Test that an item past the end of the list itself is reported against the list as loads (the
// item's pointer and weight are read, never stored), whatever the zero-filled pointer then
// reaches.
TEST_P(PointerMembers, ItemPastTheList_Negative) {
    for (const char* kernel : {"list_targets", "list_subscripts"}) {
        MTL::ComputePipelineState* state = pipeline(library_, kernel);
        ASSERT_NE(state, nullptr) << "the instrumented flavour compiles";
        const NS::UInteger count = GetParam().count;
        MTL::Buffer* out = output(count, 0x3F800000u);
        MTL::Buffer* list = buffer((count - 1) * sizeof(Item) + 4, "list"); // half the last item's pointer
        MTL::Buffer* x = buffer(count * sizeof(float), "x");
        auto* items = static_cast<Item*>(list->contents());
        for (NS::UInteger t = 0; t + 1 < count; ++t) items[t] = Item{out->gpuAddress() + (1 + t) * sizeof(float), 2, 0};
        for (NS::UInteger t = 0; t < count; ++t) floats(x)[t] = float(t);
        dispatch(state, count, GetParam().group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(list, 0, 0);
            e->setBuffer(x, 0, 1);
            e->useResource(out, MTL::ResourceUsageRead | MTL::ResourceUsageWrite);
        });
        unsigned againstList = 0;
        for (const ShaderValidationReport& report : reports()) {
            if (report.text().find("buffer: list,") == std::string::npos) continue;
            ++againstList;
            EXPECT_THAT(report.text(), StartsWith("Invalid device load at offset ")) << kernel;
        }
        EXPECT_GE(againstList, 2u) << kernel; // the pointer's load and the weight's
        expectCanaries(out, count);
    }
}

class ContextTile : public ShapedValidationFixture<&kKernels> {
protected:
    void run(std::uint32_t skip) {
        MTL::ComputePipelineState* state = pipeline(library_, "context_tile");
        ASSERT_NE(state, nullptr) << "the instrumented flavour compiles";
        const NS::UInteger count = GetParam().count;
        out_ = output(count, 0);
        dispatch(state, count, GetParam().group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out_, sizeof(std::uint32_t), 0);
            e->setBytes(&skip, sizeof skip, 1);
        });
        expectCanaries(out_, count);
    }
    MTL::Buffer* out_ = nullptr;
};

// Test that every thread's store through the moved pointer lands in its own element of the tile.
TEST_P(ContextTile, PointerFromTheContextsTile_Positive) {
    run(0);
    EXPECT_THAT(reports(), IsEmpty());
    for (NS::UInteger t = 0; t < GetParam().count; ++t) EXPECT_EQ(floats(out_)[1 + t], float(t) + 0.5f) << t;
}

// Test that thread 0's store 64 elements on, past the tile, is reported once per group at the
// store, 256 bytes into threadgroup memory, and that the others' stores are made.
TEST_P(ContextTile, PointerPastTheContextsTile_Negative) {
    run(64);
    const std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u) << ::testing::PrintToString(got);
    const NS::UInteger groups = (GetParam().count + GetParam().group - 1) / GetParam().group;
    EXPECT_THAT(got[0].text(), StartsWith("Invalid threadgroup store at offset 256, executing kernel function: "
                                          "\"context_tile\""));
    EXPECT_EQ(got[0].location.line, kernelLine("*_S1 = "));
    EXPECT_EQ(got[0].count, groups);
    for (NS::UInteger t = 0; t < GetParam().count; ++t)
        if (t % GetParam().group != 0) {
            EXPECT_EQ(floats(out_)[1 + t], float(t) + 0.5f) << t;
        }
}

INSTANTIATE_TEST_SUITE_P(Shapes, PointerMembers,
                         ::testing::Values(Shape{1, 1}, Shape{7, 7}, Shape{66, 33}, Shape{100, 64}), shapeName);
INSTANTIATE_TEST_SUITE_P(Shapes, ContextTile,
                         ::testing::Values(Shape{1, 1}, Shape{7, 7}, Shape{66, 33}, Shape{100, 64}), shapeName);

} // namespace
} // namespace metalcpu::testing
