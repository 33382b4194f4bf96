#include "compiler/passes/threadgroup_nulls.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

// The `nullptr` nullThreadgroupPointer() finds for kernel `k` of `source`, by its line (0: none).
std::uint32_t nullLine(std::string_view source) {
    auto p = testing::parse(source);
    Diagnostics ignored(p->files);
    const std::vector<EntryPoint> entryPoints = findEntryPoints(p->tokens, p->module, ignored);
    const Unit unit(p->tokens, p->partner, p->module);
    const CallGraph graph = buildCallGraph(p->tokens, p->partner, p->module);
    for (std::size_t f = 0; f < p->module.functions.size(); ++f) {
        if (p->module.functions[f].name != "k") continue;
        const std::size_t at = nullThreadgroupPointer(unit, graph, entryPoints, f);
        return at == kNoToken ? 0 : p->tokens[at].location.line;
    }
    ADD_FAILURE() << "no kernel k";
    return 0;
}

// Test the two ways a null pointer becomes a threadgroup pointer, in the kernel or a helper it
// reaches: a statement that names the address space, and an argument for a threadgroup pointer
// parameter (MLX's merge sort does both).
TEST(ThreadgroupNulls, DeclarationsAndArgumentsAreFound) {
    EXPECT_EQ(nullLine("kernel void k(threadgroup uint* t [[threadgroup(0)]], uint i [[thread_index_in_threadgroup]]) {\n"
                       "  const threadgroup uint* idx = i > 100 ? t : nullptr;\n"
                       "}"),
              2u);
    EXPECT_EQ(nullLine("void merge(const threadgroup float* a, const threadgroup uint* b) {}\n"
                       "void sort(threadgroup float* a) {\n"
                       "  merge(a, nullptr);\n"
                       "}\n"
                       "kernel void k(threadgroup float* t [[threadgroup(0)]]) { sort(t); }"),
              3u);
}

// Test that other null pointers are not: for device pointer parameters, in comparisons, in
// functions the kernel does not reach.
TEST(ThreadgroupNulls, OtherNullPointersAreNot) {
    EXPECT_EQ(nullLine("void use(device float* d, threadgroup float* t) {}\n"
                       "void unused(threadgroup float* t) { use(nullptr, nullptr); }\n"
                       "kernel void k(threadgroup float* t [[threadgroup(0)]], device float* d [[buffer(0)]]) {\n"
                       "  use(nullptr, t);\n"
                       "  if (t == nullptr) return;\n"
                       "  device float* none = nullptr;\n"
                       "}"),
              0u);
}

} // namespace
} // namespace metalcpu::msl
