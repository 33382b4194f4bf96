#include "compiler/emitter/code_generation.h"
#include "compiler/translate.h"

#include "compiler/compiler_test_util.h"
#include "compiler/edits.h"
#include "compiler/kernel_descriptions.h"
#include "compiler/pipeline.h"
#include "compiler/unit.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace metalcpu::msl {
namespace {

constexpr std::string_view kAddArrays = "# 1 \"add.metal\"\n"
                                        "kernel void add_arrays(device const float* inA,\n"
                                        "                       device const float* inB,\n"
                                        "                       device float* result,\n"
                                        "                       uint index [[thread_position_in_grid]])\n"
                                        "{\n"
                                        "    result[index] = inA[index] + inB[index];\n"
                                        "}\n";

// Test the reflection of a simple kernel and the shape of the output.
TEST(Translate, AddArrays) {
    TranslateOptions options;
    options.mainFile = "program_source";
    Translation t = translate(kAddArrays, options);
    ASSERT_TRUE(t.ok) << testing::messages(t.diagnostics)[0];
    EXPECT_TRUE(t.diagnostics.empty());
    ASSERT_EQ(t.kernels.size(), 1u);
    const KernelInfo& k = t.kernels[0];
    EXPECT_EQ(k.hostName, "add_arrays");
    EXPECT_EQ(k.functionExpression, "::add_arrays");
    EXPECT_EQ(k.frameName, "add_arrays");
    EXPECT_EQ(k.file, "program_source");
    EXPECT_EQ(k.line, 1);
    EXPECT_EQ(k.column, 13);
    EXPECT_FALSE(k.usesBarriers);
    EXPECT_EQ(k.maxTotalThreadsPerThreadgroup, 0u);
    ASSERT_EQ(k.params.size(), 4u);
    EXPECT_EQ(k.params[3].builtin, Builtin::ThreadPositionInGrid);
    EXPECT_TRUE(k.threadgroupSites.empty());
    EXPECT_EQ(t.cpp.rfind("#include <metalcpu/kernel_prelude.h>\n#line 1 \"program_source\"\n", 0), 0u);
    EXPECT_NE(t.cpp.find("\n#line 1 \"<metalcpu generated>\"\n"), std::string::npos);
    EXPECT_NE(t.cpp.find("METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "
                         "\"program_source\", nullptr, 0)"),
              std::string::npos);
}

// Test that a file's vertex and fragment functions (keyword or attribute, declared and
// defined, a template) are left out of its translation without a word, whatever their bodies
// use, and named in its module; its kernel and the helper only they call stay.
TEST(Translate, RenderFunctionsAreLeftOutAndNamed) {
    constexpr std::string_view kSource = "# 1 \"mixed.metal\"\n"
                                         "struct VOut { float4 position [[position]]; };\n"
                                         "float4 shade(float4 c) { return c * 2.0f; }\n"
                                         "vertex VOut vertex_main(uint id [[vertex_id]]);\n"
                                         "vertex VOut vertex_main(uint id [[vertex_id]]) { VOut o = {}; return o; }\n"
                                         "[[fragment]] float4 fragment_main(VOut in [[stage_in]]) {\n"
                                         "    discard_fragment(); return shade(in.position); }\n"
                                         "template <typename T> fragment T tinted(T c) { return c; }\n"
                                         "kernel void k(device uint* o [[buffer(1)]], uint3 i [[thread_position_in_grid]])"
                                         " { o[i.x] = i.x; }\n";
    for (const bool validation : {false, true}) {
        TranslateOptions options;
        options.mainFile = "program_source";
        options.validation = validation;
        Translation t = translate(kSource, options);
        ASSERT_TRUE(t.ok) << testing::messages(t.diagnostics)[0];
        EXPECT_TRUE(t.diagnostics.empty());
        ASSERT_EQ(t.kernels.size(), 1u);
        EXPECT_EQ(t.kernels[0].hostName, "k");
        EXPECT_EQ(t.renderFunctions, (std::vector<std::string>{"vertex_main", "fragment_main", "tinted"}));
        EXPECT_EQ(t.cpp.find("discard_fragment"), std::string::npos);
        EXPECT_EQ(t.cpp.find("vertex_main("), std::string::npos);
        EXPECT_NE(t.cpp.find("float4 shade(float4 c)"), std::string::npos);
        EXPECT_NE(t.cpp.find("static const char* const __mc_render_functions[] = {\"vertex_main\", \"fragment_main\", "
                             "\"tinted\"};\n#undef METALCPU_RENDER_FUNCTIONS\n#define METALCPU_RENDER_FUNCTIONS 3, "
                             "__mc_render_functions\n"),
                  std::string::npos);
    }
    // A file without them defines no table.
    TranslateOptions options;
    Translation plain = translate(kAddArrays, options);
    ASSERT_TRUE(plain.ok);
    EXPECT_TRUE(plain.renderFunctions.empty());
    EXPECT_EQ(plain.cpp.find("METALCPU_RENDER_FUNCTIONS"), std::string::npos);
}

// Test that the validation flavour puts each kernel's entry point and table row under the
// selector the runtime looks for (kernelSelector(), the one spelling), and so does the plain
// one (for compiling in parts, jit/compile_parts.h).
TEST(Translate, ValidationFlavourSelectsKernels) {
    TranslateOptions options;
    options.validation = true;
    const Translation v = translate(kAddArrays, options);
    ASSERT_TRUE(v.ok);
    const std::string marker = "#if METALCPU_SELECTS_KERNEL(" + kernelSelector("add_arrays") + ")\n";
    EXPECT_EQ(kernelSelector("add_arrays").size(), 21u); // 0x + 16 hex digits + ull
    const std::size_t first = v.cpp.find(marker);
    ASSERT_NE(first, std::string::npos) << v.cpp;
    EXPECT_NE(v.cpp.find(marker, first + 1), std::string::npos) << v.cpp; // the table row
    EXPECT_NE(kernelSelector("add_arrays"), kernelSelector("add_arrays2"));
    const std::string plain = translate(kAddArrays, {}).cpp;
    EXPECT_NE(plain.find(marker, plain.find(marker) + 1), std::string::npos) << plain; // the table row
}

/// How many times `what` occurs in `text`.
std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// Test that, in the validation flavour, `p[i]` of a kernel that loops over its threads, `i` its
// `uint` thread_position_in_grid and `p` a buffer pointer, neither written, is a row access
// checked once per group (the group function's rows_inside() and the flag, checked.h), and that
// anything that might change `i` or `p`, or another index, keeps the general check.
TEST(Translate, ValidationRowAccesses) {
    TranslateOptions options;
    options.validation = true;
    const auto translated = [&](const std::string& params, const std::string& body) {
        const Translation t = translate("# 1 \"k.metal\"\nvoid h(device float*& q) { q += 1; }\n"
                                        "kernel void k(device const float* a [[buffer(0)]], device float* out [[buffer(1)]], " +
                                            params + ") {\n" + body + "\n}\n",
                                        options);
        EXPECT_TRUE(t.ok) << body << formatDiagnostics(t.diagnostics);
        return t.cpp;
    };
    const std::string gid = "uint i [[thread_position_in_grid]]";
    const std::string rows = translated(gid, "out[i] = a[i] * 2.0f; out[i + 1] = a[0];");
    EXPECT_EQ(occurrences(rows, "load_in_rows(a, i, "), 1u) << rows;
    EXPECT_EQ(occurrences(rows, "store_in_rows(out, i, "), 1u) << rows;
    EXPECT_EQ(occurrences(rows, "store(out, i + 1, "), 1u) << rows;
    EXPECT_EQ(occurrences(rows, "const bool __mc_rows_inside = false)"), 1u) << rows;
    EXPECT_EQ(occurrences(rows, "if (::metalcpu_kernel::rows_inside(__g, __a0, __a1)) {"), 1u) << rows;
    EXPECT_EQ(occurrences(rows, ", __g, true);"), 1u) << rows;
    EXPECT_EQ(occurrences(translate("kernel void k(device float* out, uint i [[thread_position_in_grid]]) {"
                                    " out[i] = 1.0f; }", {}).cpp, "_in_rows"), 0u)
        << "the plain flavour has no checks";
    // What keeps the general check: an index that might change, or another index, keeps it
    // for every access (and the group function checks nothing); a pointer that might change
    // keeps it for its own.
    for (const auto& [params, body] : std::vector<std::pair<std::string, std::string>>{
             {gid, "i += 1; out[i] = a[i];"},
             {gid, "uint& r = i; out[i] = a[i] + float(r);"},
             {gid, "{ uint i = 0; out[i] = a[i]; }"},
             {gid, "auto f = [out, a](uint j) { out[j] = a[j]; }; f(i); out[i] = a[i];"},
             {"ushort i [[thread_position_in_grid]]", "out[i] = a[i];"},
             {"uint2 i [[thread_position_in_grid]]", "out[i.x] = a[i.x];"},
             {"uint i [[thread_index_in_threadgroup]]", "out[i] = a[i];"},
         }) {
        const std::string cpp = translated(params, body);
        EXPECT_EQ(occurrences(cpp, "_in_rows("), 0u) << body << "\n" << cpp;
        EXPECT_EQ(occurrences(cpp, "rows_inside"), 0u) << body;
    }
    for (const char* body : {"device float* o = out; h(o); out[i] = a[i]; h(out);", "out[i] = a[i]; out += 1;"}) {
        const std::string cpp = translated(gid, body);
        EXPECT_EQ(occurrences(cpp, "store(out, i, "), 1u) << body << "\n" << cpp;
        EXPECT_EQ(occurrences(cpp, "load_in_rows(a, i, "), 1u) << body;
        EXPECT_EQ(occurrences(cpp, "rows_inside(__g, __a0)"), 1u) << body;
    }
    // A kernel declared before its definition keeps one signature.
    const Translation declared = translate("# 1 \"k.metal\"\nkernel void k(device float* out, uint i [[thread_position_in_grid]]);\n"
                                           "kernel void k(device float* out, uint i [[thread_position_in_grid]]) { out[i] = 1.0f; }\n",
                                           options);
    EXPECT_EQ(occurrences(declared.cpp, "_in_rows("), 0u) << declared.cpp;
    // A kernel with a barrier takes the row form and the flag, but no group function passes it.
    const std::string barrier = translated(gid, "out[i] = a[i]; threadgroup_barrier(mem_flags::mem_device); out[i] += 1.0f;");
    EXPECT_EQ(occurrences(barrier, "store_in_rows("), 1u) << barrier;
    EXPECT_EQ(occurrences(barrier, "update_in_rows("), 1u) << barrier;
    EXPECT_EQ(occurrences(barrier, "rows_inside("), 0u) << barrier;
}

// Test that a dereference of `(type)(name + ...)` or `(name + ...)` passes `name` as the
// check's hint (checked.h's access_near()), and that other operands do not.
TEST(Translate, ValidationDereferenceHints) {
    TranslateOptions options;
    options.validation = true;
    const Translation t = translate(R"(# 1 "k.metal"
struct S { device float* p; };
kernel void k(device const float* a [[buffer(0)]], device float4* out [[buffer(1)]], constant S& s [[buffer(2)]],
              uint i [[thread_position_in_grid]]) {
    float4 v = *(device const float4*)(a + i * 4);
    v += *(a + i);
    v += *((device const float4*)(a + i * 4));
    v += *(device const float4*)(a - i);
    v += *(s.p + i);
    *(out + i + 1) = v;
}
)", options);
    ASSERT_TRUE(t.ok) << formatDiagnostics(t.diagnostics);
    EXPECT_EQ(occurrences(t.cpp, "load((::metalcpu_kernel::checked_ptr<const float4, 1>)(a + i * 4), 0, ::__mc_sites[0], a)"), 1u) << t.cpp;
    EXPECT_EQ(occurrences(t.cpp, "load((a + i), 0, ::__mc_sites[1], a)"), 1u) << t.cpp;
    EXPECT_EQ(occurrences(t.cpp, "load(((::metalcpu_kernel::checked_ptr<const float4, 1>)(a + i * 4)), 0, ::__mc_sites[2])"), 1u) << t.cpp;
    EXPECT_EQ(occurrences(t.cpp, "load((::metalcpu_kernel::checked_ptr<const float4, 1>)(a - i), 0, ::__mc_sites[3])"), 1u) << t.cpp;
    EXPECT_EQ(occurrences(t.cpp, "load((s.p + i), 0, ::__mc_sites[4])"), 1u) << t.cpp;
    EXPECT_EQ(occurrences(t.cpp, "store((out + i + 1), 0, ::__mc_sites[5], out)"), 1u) << t.cpp;
}

// Test that each kernel's object defines the symbol that names it, in both flavours (the
// validation one under the kernel's selector), and that the name reads back from the
// symbol, other bytes than identifier characters escaped.
TEST(Translate, KernelsNameThemselvesInSymbols) {
    EXPECT_EQ(kernelSymbol("add_arrays"), "metalcpu.kernel.add_arrays");
    EXPECT_EQ(kernelSymbol("a-b.c$"), "metalcpu.kernel.a$2db$2ec$24");
    for (const std::string name : {"add_arrays", "a-b.c$", "", "\xff"})
        EXPECT_EQ(kernelNameOfSymbol(kernelSymbol(name)), name);
    EXPECT_EQ(kernelNameOfSymbol("_Z10add_arraysPKf"), std::nullopt);
    EXPECT_EQ(kernelNameOfSymbol("metalcpu.kernel.bad$4"), std::nullopt);
    const std::string definition = "__attribute__((used, visibility(\"hidden\"))) char __mc_0_name "
                                   "__asm__(\"metalcpu.kernel.add_arrays\") = 0;\n";
    EXPECT_NE(translate(kAddArrays, {}).cpp.find(definition), std::string::npos);
    TranslateOptions options;
    options.validation = true;
    EXPECT_NE(translate(kAddArrays, options).cpp.find("#if METALCPU_SELECTS_KERNEL(" + kernelSelector("add_arrays") +
                                                      ")\n" + definition + "#endif\n"),
              std::string::npos);
}

// Test that the user's tokens stay on their lines and columns in the output.
TEST(Translate, TokensKeepTheirPositions) {
    Translation t = translate(kAddArrays, {});
    ASSERT_TRUE(t.ok);
    EXPECT_NE(
        t.cpp.find("#line 1 \"add.metal\"\n"
                   "inline void add_arrays(       const float* inA,\n"
                   "                              const float* inB,\n"
                   "                              float* result,\n"
                   "                       uint index                            , [[maybe_unused]] const "
                   "::mc_group* __mc_group)\n"
                   "{\n"
                   "    result[index] = inA[index] + inB[index];\n"
                   "}\n"),
        std::string::npos)
        << t.cpp;
}

// Test that each kernel shape gets its code generation (emitter/code_generation.h): an
// elementwise kernel and one with a loop of its own stay at the command line's level with their
// threads vectorised, a work-item-loop kernel's group function is raised to -O3 with the kernel
// inlined into it, a barrier-free kernel with a uniform loop has its threads interleaved there
// (128-bit vectors, as the thread loop over loops), and the flags record each.
TEST(Translate, CodeGenerationPerShape) {
    const char* source = "# 1 \"s.metal\"\n"
                         "kernel void lane(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
                         "    x[i] += 1.0f;\n"
                         "}\n"
                         "kernel void looped(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
                         "    for (uint k = i; k < 4; ++k) x[i] += 1.0f;\n"
                         "}\n"
                         "kernel void split(device float* x [[buffer(0)]]) {\n"
                         "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                         "}\n"
                         "kernel void interleaved(device float* x [[buffer(0)]], constant uint& n [[buffer(1)]], uint i [[thread_position_in_grid]]) {\n"
                         "    for (uint k = 0; k < n; ++k) x[i] += 1.0f;\n"
                         "}\n"
                         "kernel void fixed(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
                         "    for (uint k = 0; k < 4; ++k) x[i] += 1.0f;\n"
                         "}\n";
    Translation t = translate(source, {});
    ASSERT_TRUE(t.ok) << testing::messages(t.diagnostics)[0];
    ASSERT_EQ(t.kernels.size(), 5u);
    EXPECT_EQ(kernelShape(t.kernels[0]), KernelShape::ThreadLoop);
    EXPECT_EQ(kernelShape(t.kernels[1]), KernelShape::ThreadLoopOverLoops);
    EXPECT_EQ(kernelShape(t.kernels[2]), KernelShape::WorkItemLoops);
    EXPECT_EQ(kernelShape(t.kernels[3]), KernelShape::InterleavedLoops);
    EXPECT_TRUE(t.kernels[3].interleavesThreads && t.kernels[3].usesWorkItemLoops);
    EXPECT_EQ(t.kernels[3].interleavedLanes, 8u); // the front end's choice, logged with it
    EXPECT_FALSE(t.kernels[1].interleavesThreads);
    EXPECT_EQ(t.kernels[1].interleavedLanes, 0u);
    // `fixed`'s loop has bounds known when it is compiled: the thread loop around it vectorises.
    EXPECT_EQ(kernelShape(t.kernels[4]), KernelShape::ThreadLoopOverLoops);
    EXPECT_NE(t.kernels[4].interleavingRefusal.find("its bounds are known when the kernel is compiled"), std::string::npos)
        << t.kernels[4].interleavingRefusal;
    // `looped`'s loop starts at the thread's index: why it keeps one thread after another.
    EXPECT_NE(t.kernels[1].interleavingRefusal.find("s.metal:5:19: a loop of its body is not uniform: its header names "
                                                    "per-thread builtin 'i'"),
              std::string::npos)
        << t.kernels[1].interleavingRefusal;
    EXPECT_NE(t.cpp.find("__attribute__((flatten)) METALCPU_NARROW_VECTORS void __mc_3_run_group("), std::string::npos)
        << t.cpp;
    EXPECT_NE(t.cpp.find("{\"interleaved\", \"s.metal\", 10, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS | "
                         "MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, "),
              std::string::npos)
        << t.cpp;
    EXPECT_NE(t.cpp.find("__attribute__((flatten)) void __mc_0_run_group("), std::string::npos) << t.cpp;
    EXPECT_NE(t.cpp.find("__attribute__((flatten)) METALCPU_NARROW_VECTORS void __mc_1_run_group("), std::string::npos)
        << t.cpp;
    EXPECT_EQ(t.cpp.find("METALCPU_NARROW_VECTORS void __mc_0_run_group("), std::string::npos);
    EXPECT_EQ(t.cpp.find("METALCPU_NARROW_VECTORS void __mc_2_run_group("), std::string::npos);
    EXPECT_NE(t.cpp.find("__attribute__((flatten, optimize(\"O3\"))) void __mc_2_run_group("), std::string::npos)
        << t.cpp;
    EXPECT_NE(t.cpp.find("{\"lane\", \"s.metal\", 1, 13, 0u | MC_KERNEL_VECTORISED_THREADS, "), std::string::npos);
    EXPECT_NE(t.cpp.find("{\"looped\", \"s.metal\", 4, 13, 0u | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, "),
              std::string::npos);
    EXPECT_NE(t.cpp.find("{\"split\", \"s.metal\", 7, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | "
                         "MC_KERNEL_OPTIMISED_O3, "),
              std::string::npos);
}

// Test that a barrier kernel left a coroutine (or on fibers) says why and where, and that a
// split kernel says nothing.
TEST(Translate, WorkItemLoopsRefusals) {
    const char* source = "# 1 \"r.metal\"\n"
                         "void bump(thread uint& k) { k = min(k, 8u); }\n"
                         "void sync() { threadgroup_barrier(mem_flags::mem_none); }\n"
                         "kernel void written(device float* a [[buffer(0)]]) {\n"
                         "    for (uint t = 0; t < 4; ++t) {\n"
                         "        threadgroup_barrier(mem_flags::mem_none);\n"
                         "        bump(t);\n"
                         "    }\n"
                         "}\n"
                         "kernel void unslotted(device float* a [[buffer(0)]], uint i [[thread_index_in_threadgroup]]) {\n"
                         "    auto x = a[i];\n"
                         "    x = simd_sum(x);\n"
                         "    a[i] = x;\n"
                         "}\n"
                         "kernel void split(device float* a [[buffer(0)]], uint i [[thread_index_in_threadgroup]]) {\n"
                         "    float x = a[i];\n"
                         "    threadgroup_barrier(mem_flags::mem_none);\n"
                         "    a[i] = x;\n"
                         "}\n"
                         "kernel void helper(device float* a [[buffer(0)]]) { sync(); }\n";
    Translation t = translate(source, {});
    ASSERT_TRUE(t.ok) << testing::messages(t.diagnostics)[0];
    ASSERT_EQ(t.kernels.size(), 4u);
    EXPECT_EQ(t.kernels[0].workItemLoopsRefusal.rfind("r.metal:6:14: writes 't', a variable of a loop that runs once "
                                                      "per group", 0),
              0u)
        << t.kernels[0].workItemLoopsRefusal;
    EXPECT_EQ(t.kernels[1].workItemLoopsRefusal.rfind("r.metal:10:10: 'x' lives across a barrier but cannot have a "
                                                      "slot per thread",
                                                      0),
              0u)
        << t.kernels[1].workItemLoopsRefusal;
    EXPECT_TRUE(t.kernels[2].usesWorkItemLoops);
    EXPECT_EQ(t.kernels[2].workItemLoopsRefusal, "");
    // sync() is inlined (passes/helper_inlining.h), and its barrier split at.
    EXPECT_TRUE(t.kernels[3].usesWorkItemLoops);
    EXPECT_EQ(t.kernels[3].workItemLoopsRefusal, "");
}

// Test that every kernel left on fibers says why, naming the construct and its line: a
// collective in a member function of a template parameter's type (MLX's scan: a helper of
// that name with a loop of collectives), in an operand once its caller is inlined, in an operand
// whose type the hoisting cannot name, a barrier in a
// lambda, a file with its own threadgroup_barrier; a kernel whose member helper is a
// collective helper is split and, like a barrier-free kernel, says nothing.
TEST(Translate, FiberKernelsSayWhy) {
    const char* source = "# 1 \"f.metal\"\n"
                         "struct Sum {\n"
                         "    float scan(float x) { return simd_prefix_inclusive_sum(x); }\n"
                         "};\n"
                         "float outer(float x) { return Sum().scan(x); }\n"
                         "template <typename Op>\n"
                         "kernel void member(device float* a [[buffer(0)]], uint i [[thread_index_in_threadgroup]]) {\n"
                         "    Op op;\n"
                         "    float v = op.scan(a[i]);\n"
                         "    a[i] = v;\n"
                         "}\n"
                         "template [[host_name(\"member_sum\")]] kernel void member<Sum>(device float*, uint);\n"
                         "kernel void deep(device float* a [[buffer(0)]], uint i [[thread_index_in_threadgroup]]) {\n"
                         "    a[i] = outer(a[i]);\n"
                         "}\n"
                         "kernel void operand(device float* a [[buffer(0)]], uint i [[thread_index_in_threadgroup]]) {\n"
                         "    a[i] = 2.0f * simd_sum(a[i] + i);\n"
                         "}\n"
                         "kernel void lambda(device float* a [[buffer(0)]]) {\n"
                         "    auto sync = [] { threadgroup_barrier(mem_flags::mem_none); };\n"
                         "    sync();\n"
                         "}\n"
                         "kernel void plain(device float* a [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
                         "    a[i] += 1.0f;\n"
                         "}\n"
                         "struct Add { float step(float x) { return simd_sum(x); } };\n"
                         "struct Max { float step(float x) { for (ushort k = 1; k < 32; k *= 2) x = max(x, simd_shuffle_up(x, k)); return x; } };\n"
                         "template <typename Op>\n"
                         "kernel void stepped(device float* a [[buffer(0)]], uint i [[thread_index_in_threadgroup]]) {\n"
                         "    Op op;\n"
                         "    float v = op.step(a[i]);\n"
                         "    a[i] = v;\n"
                         "}\n"
                         "template [[host_name(\"stepped_add\")]] kernel void stepped<Add>(device float*, uint);\n";
    Translation t = translate(source, {});
    ASSERT_TRUE(t.ok) << testing::messages(t.diagnostics)[0];
    ASSERT_EQ(t.kernels.size(), 6u);
    std::map<std::string, const KernelInfo*> byName;
    for (const KernelInfo& k : t.kernels) byName[k.hostName] = &k;
    EXPECT_TRUE(byName.at("member_sum")->usesWorkItemLoops);
    EXPECT_EQ(byName.at("member_sum")->workItemLoopsRefusal, "");
    // Max::step, a loop of shuffles, is a staged helper: `op.step(x)` is split at.
    EXPECT_TRUE(byName.at("stepped_add")->usesWorkItemLoops);
    EXPECT_EQ(byName.at("stepped_add")->workItemLoopsRefusal, "");
    // outer() is inlined; its call of scan() is not a whole statement's value.
    EXPECT_EQ(byName.at("deep")->workItemLoopsRefusal,
              "f.metal:4:37: 'scan', whose body is a SIMD-group function, is not the whole value of a statement "
              "(`x = scan(...);`, `x = obj.scan(...);`): it is an operand, an argument or a condition, or is "
              "qualified");
    EXPECT_EQ(byName.at("operand")->workItemLoopsRefusal,
              "f.metal:16:19: SIMD-group function 'simd_sum' is not the whole value of a statement (`x = "
              "simd_sum(...);`): it is an operand, an argument or a condition, or is qualified");
    EXPECT_EQ(byName.at("lambda")->workItemLoopsRefusal,
              "f.metal:19:22: 'threadgroup_barrier' is called in a lambda or a local class");
    EXPECT_EQ(byName.at("plain")->workItemLoopsRefusal, "");

    // A file that defines its own threadgroup_barrier: its calls may not be Metal's.
    Translation own = translate("# 1 \"o.metal\"\n"
                                "void threadgroup_barrier(int) {}\n"
                                "kernel void k(device float* a [[buffer(0)]]) { metal::simdgroup_barrier(mem_flags::mem_none); }\n",
                                {});
    ASSERT_TRUE(own.ok) << testing::messages(own.diagnostics)[0];
    ASSERT_EQ(own.kernels.size(), 1u);
    EXPECT_EQ(own.kernels[0].workItemLoopsRefusal.rfind("o.metal:1:6: the file defines a function named "
                                                        "'threadgroup_barrier'", 0),
              0u)
        << own.kernels[0].workItemLoopsRefusal;
}

// Test how barrier kernels are lowered: barriers in the body's straight-line code give work-item
// loops (still using barriers), a barrier in a `switch` gives a coroutine, one reached through
// a helper that cannot be inlined (it returns a value early) gives fibers; the output keeps the line's columns as far as the inserted code allows.
TEST(Translate, BarrierKernelLowerings) {
    const char* source = "# 1 \"c.metal\"\n"
                         "int helper() { if (true) return 0; threadgroup_barrier(mem_flags::mem_threadgroup); return 1; }\n"
                         "kernel void a(device float* x [[buffer(0)]]) {\n"
                         "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                         "}\n"
                         "kernel void b() { helper(); }\n"
                         "kernel void c(device float* x [[buffer(0)]]) {\n"
                         "    switch (x != nullptr) { default: threadgroup_barrier(mem_flags::mem_threadgroup); }\n"
                         "}\n";
    Translation t = translate(source, {});
    ASSERT_TRUE(t.ok) << testing::messages(t.diagnostics)[0];
    ASSERT_EQ(t.kernels.size(), 3u);
    EXPECT_TRUE(t.kernels[0].usesBarriers);
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops);
    EXPECT_FALSE(t.kernels[0].usesCoroutines);
    EXPECT_TRUE(t.kernels[1].usesBarriers);
    EXPECT_FALSE(t.kernels[1].usesCoroutines);
    EXPECT_FALSE(t.kernels[1].usesWorkItemLoops);
    EXPECT_TRUE(t.kernels[2].usesCoroutines);
    EXPECT_FALSE(t.kernels[2].usesWorkItemLoops);
    EXPECT_NE(t.cpp.find("inline void a(       float* x              , [[maybe_unused]] const ::mc_group* "
                         "__mc_group) { ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group);\n"
                         "    ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);\n"
                         "}\n"
                         "inline void b([[maybe_unused]] const ::mc_group* __mc_group) {\n#line 5 \"c.metal\"\n                  helper(); }\n"
                         "::metalcpu_kernel::barrier_task c( float* x, [[maybe_unused]] const "
                         "::mc_group* __mc_group) {\n"
                         "    switch (x != nullptr) { default: co_await "
                         "::metalcpu_kernel::barrier_point(mem_flags::mem_threadgroup);\n#line 7 \"c.metal\"\n"
                         "                                                                                      }\n"
                         "}\n"),
              std::string::npos)
        << t.cpp;
    EXPECT_NE(t.cpp.find("{\"a\", \"c.metal\", 2, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | "
                         "MC_KERNEL_OPTIMISED_O3, 0, 1, ::__mc_0_params, "
                         "METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 0, nullptr, \"a\", 0, \"\", nullptr},"),
              std::string::npos);
    EXPECT_NE(t.cpp.find("{\"b\", \"c.metal\", 5, 13, MC_KERNEL_USES_BARRIERS, 0, 0, nullptr, "
                         "nullptr, METALCPU_KERNEL_CODE(&::__mc_1_run_thread), 0, nullptr, \"b\", 0, \"c.metal:5:19: it calls "
                         "'helper', which uses barrier 'threadgroup_barrier' (c.metal:1:36): the front end splits a "
                         "kernel only at the barriers and SIMD-group functions its own body calls, and at its calls "
                         "of collective helpers (functions whose only effect is their value and whose lanes make the "
                         "same SIMD-group functions in the same order: one `return simd_f(...);`, or staged, several "
                         "in a row, as MLX's `CumMax::simd_scan`); a barrier is in none; the call is not inlined: "
                         "'helper' returns before its end (c.metal:1:26)\", nullptr},"),
              std::string::npos);
    EXPECT_NE(t.cpp.find("{\"c\", \"c.metal\", 6, 13, MC_KERNEL_COROUTINES, 0, 1, ::__mc_2_params, "
                         "METALCPU_KERNEL_CODE(&::__mc_2_run_group), nullptr, 0, nullptr, \"c\", 0, \"\", nullptr},"),
              std::string::npos);

    // The validation flavour is lowered the same way.
    TranslateOptions validation;
    validation.validation = true;
    Translation v = translate(source, validation);
    ASSERT_TRUE(v.ok);
    ASSERT_EQ(v.kernels.size(), 3u);
    EXPECT_TRUE(v.kernels[0].usesWorkItemLoops);
    EXPECT_TRUE(v.kernels[2].usesCoroutines);
}

// Test that a kernel template's lowering depends on its own instantiations only: `mm` barriers
// and calls through its function-pointer parameter, instantiated with a plain function, and is
// split into work-item loops whether or not the file elsewhere passes a SIMD-group helper to
// another kernel (which may reach collectives, and made `mm` keep the fibers, issue 10: ggml's
// kernel_mul_mm changed with kernel_mul_mv_id in the file). Its translated text, up to the
// unrelated kernel, is the same in both files; the unrelated kernel is not split itself.
TEST(Translate, KernelLoweringIgnoresUnrelatedInstantiations) {
    const std::string kernel = "# 1 \"m.metal\"\n"
                               "float deq_plain(device const float* p, uint i) { return p[i] * 2.0f; }\n"
                               "float deq_simd(device const float* p, uint i) { return simd_sum(p[i]); }\n"
                               "template <float (*deq)(device const float*, uint)>\n"
                               "kernel void mm(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],\n"
                               "               threadgroup float* tile [[threadgroup(0)]], uint i [[thread_position_in_threadgroup]]) {\n"
                               "    tile[i] = deq(in, i);\n"
                               "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                               "    out[i] = tile[i ^ 1u];\n"
                               "}\n"
                               "template [[host_name(\"mm_plain\")]] kernel void mm<deq_plain>(device const float*, "
                               "device float*, threadgroup float*, uint);\n";
    const std::string unrelated = "template <float (*f)(device const float*, uint)>\n"
                                  "kernel void apply(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],\n"
                                  "                  uint i [[thread_position_in_grid]]) { out[i] = f(in, i); }\n"
                                  "template [[host_name(\"apply_simd\")]] kernel void apply<deq_simd>(device const float*, "
                                  "device float*, uint);\n";
    const Translation alone = translate(kernel, {});
    const Translation withUnrelated = translate(kernel + unrelated, {});
    ASSERT_TRUE(alone.ok) << testing::messages(alone.diagnostics)[0];
    ASSERT_TRUE(withUnrelated.ok) << testing::messages(withUnrelated.diagnostics)[0];
    ASSERT_EQ(alone.kernels.size(), 1u);
    ASSERT_EQ(withUnrelated.kernels.size(), 2u);
    for (const Translation* t : {&alone, &withUnrelated}) {
        EXPECT_TRUE(t->kernels[0].usesBarriers);
        EXPECT_TRUE(t->kernels[0].usesWorkItemLoops);
        EXPECT_FALSE(t->kernels[0].usesCoroutines);
    }
    EXPECT_TRUE(withUnrelated.kernels[1].usesBarriers); // apply<deq_simd> reaches simd_sum
    EXPECT_FALSE(withUnrelated.kernels[1].usesWorkItemLoops);
    const std::size_t end = alone.cpp.find("#line 1 \"<metalcpu generated>\"");
    ASSERT_NE(end, std::string::npos);
    const std::size_t unrelatedStart = withUnrelated.cpp.find("apply(");
    ASSERT_NE(unrelatedStart, std::string::npos);
    const std::size_t common = withUnrelated.cpp.rfind("#line", unrelatedStart);
    EXPECT_EQ(withUnrelated.cpp.substr(0, common), alone.cpp.substr(0, common)) << withUnrelated.cpp;
    EXPECT_GT(common, alone.cpp.find("__mc_wi")) << "the kernel's work-item loops are in the compared text";
}

// Test how kernels with SIMD-group functions are lowered: a function that is a whole
// statement's value (a declaration, `=`, `+=`) splits the kernel into work-item loops, also in
// a loop and next to a barrier, and so does one stored to an element (b) or in an operand of an
// inlined helper (e), hoisted into a statement of its own (passes/collective_hoisting.h); one
// under an if without braces or with an argument that writes keeps the fibers.
TEST(Translate, SimdgroupFunctionLowerings) {
    const char* source = "# 1 \"s.metal\"\n"
                         "float twice(float v) { return simd_sum(v) * 2; }\n"
                         "kernel void a(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
                         "    float s = x[i];\n"
                         "    float t = simd_sum(s);\n"
                         "    for (ushort k = 1; k < 32; k *= 2) {\n"
                         "        s += metal::simd_shuffle_xor(s, k);\n"
                         "    }\n"
                         "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                         "    t = quad_max(t);\n"
                         "    x[i] = s + t;\n"
                         "}\n"
                         "kernel void b(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
                         "    x[i] = simd_sum(x[i]);\n"
                         "}\n"
                         "kernel void c(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
                         "    float s = x[i];\n"
                         "    if (i > 3) s = simd_sum(s);\n"
                         "    x[i] = s;\n"
                         "}\n"
                         "kernel void d(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
                         "    float s = x[i];\n"
                         "    float t = simd_sum(s++);\n"
                         "    x[i] = s + t;\n"
                         "}\n"
                         "kernel void e(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
                         "    float s = twice(x[i]);\n"
                         "    x[i] = s;\n"
                         "}\n";
    Translation t = translate(source, {});
    ASSERT_TRUE(t.ok) << testing::messages(t.diagnostics)[0];
    ASSERT_EQ(t.kernels.size(), 5u);
    for (std::size_t k = 0; k < t.kernels.size(); ++k) {
        SCOPED_TRACE(k);
        EXPECT_TRUE(t.kernels[k].usesBarriers);
        EXPECT_FALSE(t.kernels[k].usesCoroutines);
        EXPECT_EQ(t.kernels[k].usesWorkItemLoops, k == 0 || k == 1 || k == 4);
    }
    const std::string function = "[](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) "
                                 "__attribute__((always_inline)) { return simd_sum(__mc_a..., __mc_w); }";
    EXPECT_NE(t.cpp.find("::metalcpu_kernel::simd_deposit(__mc_c0, " + function + ", __mc_wi, __mc_t, s); });"),
              std::string::npos)
        << t.cpp;
    EXPECT_NE(t.cpp.find("float t = ::metalcpu_kernel::simd_collect<decltype(::metalcpu_kernel::simd_arguments(s))>("
                         "__mc_c0, __mc_wi, __mc_t, " + function + ");"),
              std::string::npos)
        << t.cpp;
    EXPECT_NE(t.cpp.find("::metalcpu_kernel::run_deposit_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t)"),
              std::string::npos)
        << t.cpp;
    EXPECT_NE(t.cpp.find("::metalcpu_kernel::run_collect_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t)"),
              std::string::npos)
        << t.cpp;
    EXPECT_NE(t.cpp.find("return metal::simd_shuffle_xor(__mc_a..., __mc_w); });"), std::string::npos) << t.cpp;
}

// Test how kernels with Metal 4 tensor operations are lowered: `run` and reductions as
// statements of the body make a coroutine (Apple's sample shape), `run` in a helper (MLX), in
// an operand or in a lambda keeps the fibers, and none is split into work-item loops even
// when its barriers would allow it; tensor parameters reflect in the buffers' index space and
// bind through tensor_argument, the same in the validation flavour, where the tensors' and
// cooperative tensors' member calls stay calls.
TEST(Translate, TensorOperationLowerings) {
    const char* source =
        "# 1 \"t.metal\"\n"
        "template <class Op, class C> void go(thread Op& op, thread C& c) { op.run(c, c, c); }\n"
        "kernel void sample(uint2 tg [[threadgroup_position_in_grid]], tensor<device half, dextents<int, 2>> a,\n"
        "                   device float* out, tensor<device half, dextents<int, 2>> d [[buffer(3)]]) {\n"
        "    matmul2d<desc, execution_simdgroups<4>> op;\n"
        "    auto ct = op.get_destination_cooperative_tensor<decltype(a), decltype(a), half>();\n"
        "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
        "    op.run(a, a, ct);\n"
        "    for (int e = 0; e < ct.get_capacity(); ++e) ct[e] = ct[e] * 2;\n"
        "    ct.store(d);\n"
        "    out[tg.x] = 1;\n"
        "}\n"
        "kernel void helper(device float* out) {\n"
        "    matmul2d<desc, execution_simdgroup> op;\n"
        "    auto ct = op.get_destination_cooperative_tensor<float, float, float>();\n"
        "    go(op, ct);\n"
        "}\n"
        "kernel void operand(device float* out) {\n"
        "    matmul2d<desc, execution_simdgroup> op;\n"
        "    auto ct = op.get_destination_cooperative_tensor<float, float, float>();\n"
        "    out[0] = (op.run(ct, ct, ct), 1.0f);\n"
        "}\n"
        "kernel void lambda(device float* out) {\n"
        "    matmul2d<desc, execution_simdgroup> op;\n"
        "    auto ct = op.get_destination_cooperative_tensor<float, float, float>();\n"
        "    [&] { reduce_rows(ct, ct); }();\n"
        "}\n";
    for (bool validation : {false, true}) {
        SCOPED_TRACE(validation);
        TranslateOptions options;
        options.validation = validation;
        Translation t = translate(source, options);
        ASSERT_TRUE(t.ok) << testing::messages(t.diagnostics)[0];
        ASSERT_EQ(t.kernels.size(), 4u);
        for (const KernelInfo& k : t.kernels) {
            SCOPED_TRACE(k.hostName);
            EXPECT_TRUE(k.usesBarriers);
            EXPECT_EQ(k.usesCoroutines, k.hostName == "sample");
            EXPECT_FALSE(k.usesWorkItemLoops);
        }
        const std::vector<ParamInfo>& p = t.kernels[0].params;
        ASSERT_EQ(p.size(), 4u);
        EXPECT_EQ(p[1].kind, ParamKind::Tensor);
        EXPECT_EQ(p[1].index, 0u);
        EXPECT_EQ(p[2].kind, ParamKind::Buffer);
        EXPECT_EQ(p[2].index, 1u);
        EXPECT_EQ(p[3].kind, ParamKind::Tensor);
        EXPECT_EQ(p[3].index, 3u);
        EXPECT_NE(t.cpp.find("    co_await ::metalcpu_kernel::scope_run(op, a, a, ct);\n"), std::string::npos) << t.cpp;
        EXPECT_NE(t.cpp.find("auto&& __a3 = ::metalcpu_kernel::tensor_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, "
                             "3>>(__g, 3);"),
                  std::string::npos);
        EXPECT_NE(t.cpp.find("{\"d\", \"tensor<device half, dextents<int, 2>>\", MC_PARAM_TENSOR, 3, "
                             "MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE,"),
                  std::string::npos);
        EXPECT_NE(t.cpp.find("::metalcpu_kernel::tensor_parameter<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rank, "
                             "static_cast<mc_u32>(::metalcpu_kernel::tensor_parameter<::metalcpu_kernel::parameter_t<__"
                             "mc_0_fn, 3>>::data_type), 0, nullptr, ::metalcpu_kernel::tensor_parameter<::metalcpu_kernel::"
                             "parameter_t<__mc_0_fn, 3>>::index_type, 0, nullptr}"),
                  std::string::npos);
        // Shader validation: a cooperative tensor's elements go through load()/store() like any
        // subscript (the kernel library may check them against the capacity); its member calls
        // stay calls.
        EXPECT_NE(t.cpp.find(validation ? "for (int e = 0; e < ct.get_capacity(); ++e) ::metalcpu_kernel::store(ct, e, "
                                          "::__mc_sites[0]) = ::metalcpu_kernel::load(ct, e, ::__mc_sites[1]) * 2;"
                                        : "for (int e = 0; e < ct.get_capacity(); ++e) ct[e] = ct[e] * 2;"),
                  std::string::npos)
            << t.cpp;
        EXPECT_NE(t.cpp.find("    ct.store(d);\n"), std::string::npos);
        EXPECT_NE(t.cpp.find("    go(op, ct);\n"), std::string::npos);
    }
}

// Test that the file key goes into the threadgroup site keys, and sites reach the kernels that
// can call the function declaring them.
TEST(Translate, ThreadgroupSites) {
    TranslateOptions options;
    options.fileKey = 0xabc;
    Translation t = translate(
        "void helper() { threadgroup float s[4]; threadgroup_barrier(mem_flags::mem_threadgroup); }\n"
        "kernel void a() { threadgroup int x; helper(); }\n"
        "kernel void b() { }\n",
        options);
    ASSERT_TRUE(t.ok);
    ASSERT_EQ(t.kernels.size(), 2u);
    EXPECT_EQ(t.kernels[0].threadgroupSites, (std::vector<std::uint64_t>{0xabc00001ull, 0xabc00002ull}));
    EXPECT_TRUE(t.kernels[0].usesBarriers);
    EXPECT_TRUE(t.kernels[1].threadgroupSites.empty());
    EXPECT_FALSE(t.kernels[1].usesBarriers);
    EXPECT_NE(t.cpp.find("threadgroup_variable<float[4], 0xabc00001ull>(nullptr)"), std::string::npos);
    EXPECT_NE(t.cpp.find("threadgroup_variable<int, 0xabc00002ull>(__mc_group)"), std::string::npos);
}

// Test that with the original sources, reflection columns are the original ones.
TEST(Translate, OriginalColumns) {
    TranslateOptions options;
    options.readOriginalSource = [](const std::string& file) -> std::optional<std::string> {
        if (file != "a.metal") return std::nullopt;
        return std::string("kernel void k(device float*    out,    uint i [[thread_position_in_grid]]) {}\n");
    };
    Translation t = translate(
        "# 1 \"a.metal\"\nkernel void k(device float* out, uint i [[thread_position_in_grid]]) {}\n",
        options);
    ASSERT_TRUE(t.ok);
    EXPECT_EQ(t.kernels[0].params[0].column, 32);
    EXPECT_EQ(t.kernels[0].params[1].column, 45);
}

// Test that a template thread limit is computed by the host compiler through a helper.
TEST(Translate, TemplateThreadLimit) {
    Translation t =
        translate("template <int N> [[kernel, max_total_threads_per_threadgroup(N * 32)]] void k() {}\n"
                  "template [[host_name(\"k4\")]] [[kernel]] decltype(k<4>) k<4>;\n",
                  {});
    ASSERT_TRUE(t.ok);
    EXPECT_EQ(t.kernels[0].maxTotalThreadsPerThreadgroup, 0u);
    EXPECT_NE(t.cpp.find("template <int N> constexpr unsigned __mc_max_threads_0() { return (N * 32); }"),
              std::string::npos);
    EXPECT_NE(t.cpp.find("static_cast<mc_u32>(::__mc_max_threads_0<4>())"), std::string::npos);
    EXPECT_EQ(t.kernels[0].frameName, "k<4>") << "an instantiation is named with its arguments, as debuggers do";
}

// Test that failing translations have no output but say why.
TEST(Translate, FailureHasNoOutput) {
    Translation t = translate("kernel void k(device float* a [[buffer(99)]]) {}", {});
    EXPECT_FALSE(t.ok);
    EXPECT_TRUE(t.cpp.empty());
    EXPECT_TRUE(t.kernels.empty());
    ASSERT_EQ(t.diagnostics.size(), 1u);
    EXPECT_EQ(t.diagnostics[0].severity, Diagnostic::Severity::Error);
}

// Test that an empty input is a valid module without kernels.
TEST(Translate, EmptyInput) {
    Translation t = translate("", {});
    ASSERT_TRUE(t.ok);
    EXPECT_NE(t.cpp.find("METALCPU_REGISTER_MODULE(nullptr, 0, \"\", nullptr, 0)"), std::string::npos);
}

// Test that no prefix of a real translation unit, and no random byte soup, crashes or hangs the
// front end: every input ends in a translation or in diagnostics.
TEST(Translate, NeverCrashesOnBrokenInput) {
    const std::string source =
        "# 1 \"x.metal\"\n"
        "namespace ns { template <typename T, int N> struct S { T v[N]; T get() const thread { return v[0]; } }; }\n"
        "template <typename T> [[kernel, max_total_threads_per_threadgroup(64)]] void f(\n"
        "    device T* out [[buffer(0)]], constant uint& n [[buffer(1)]],\n"
        "    threadgroup T* scratch [[threadgroup(0)]], uint3 tid [[thread_position_in_grid]]) {\n"
        "  threadgroup T tile[16][16];\n"
        "#pragma unroll\n"
        "  for (uint i = 0; i < n; ++i) { tile[i % 16][0] = out[i] * 1.5h; }\n"
        "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
        "}\n"
        "template [[host_name(\"f_float\")]] [[kernel]] decltype(f<float>) f<float>;\n";
    for (std::size_t length = 0; length <= source.size(); ++length) {
        Translation t = translate(std::string_view(source).substr(0, length), {});
        EXPECT_TRUE(t.ok || !t.diagnostics.empty()) << length;
    }
    std::mt19937 random(42);
    const std::string alphabet = "{}[]()<>;:,.#\"'\n kernel device template [[host_name(\"x\")]] threadgroup";
    for (int round = 0; round < 300; ++round) {
        std::string soup;
        for (int i = 0; i < 80; ++i) soup += alphabet[random() % alphabet.size()];
        Translation t = translate(soup, {});
        EXPECT_TRUE(t.ok || !t.diagnostics.empty()) << soup;
    }
}

// A test that stops the pipeline part-way must name a pass that runs: a misspelt name, or a
// validation-only pass in the plain flavour, used to run every pass and so test the wrong text.
TEST(Pipeline, StopsOnlyAtAPassOfTheFlavour) {
    for (const auto& [last, validation, known] : {std::tuple{"address-spaces", false, true},
                                                  std::tuple{"adress-spaces", false, false},
                                                  std::tuple{"checked-accesses", false, false},
                                                  std::tuple{"checked-accesses", true, true}}) {
        auto p = testing::parse(kAddArrays);
        TranslateOptions options;
        options.validation = validation;
        const Unit unit(p->tokens, p->partner, p->module);
        Findings found = analyse(unit, p->module, options, p->diagnostics);
        EditList edits(p->tokens, p->diagnostics);
        PassContext context{unit, edits, p->diagnostics, options, found};
        EXPECT_EQ(runPasses(context, last), known) << last << (validation ? " (validation)" : "");
        // Refused: nothing ran, so `device` is still there.
        EXPECT_EQ(testing::render(p->tokens).find("device") != std::string::npos, !known) << last;
    }
}

// Test that the edits describeEntryPoints() makes (max-threads helpers) are its own, not the
// last pass's: an overlap report names the stage that made it.
TEST(Pipeline, EntryPointDescriptionsEditUnderTheirOwnName) {
    auto p = testing::parse(kAddArrays);
    TranslateOptions options;
    const Unit unit(p->tokens, p->partner, p->module);
    Findings found = analyse(unit, p->module, options, p->diagnostics);
    EditList edits(p->tokens, p->diagnostics);
    PassContext context{unit, edits, p->diagnostics, options, found};
    ASSERT_TRUE(runPasses(context));
    describeEntryPoints(unit, edits, found, p->files);
    const std::size_t device = p->find("device");
    ASSERT_EQ(edits.rewrittenBy(device), "address-spaces");
    edits.erase(device);
    ASSERT_EQ(p->messages().size(), 1u);
    EXPECT_NE(p->messages()[0].find("the kernel-descriptions pass rewrites 'device'"), std::string::npos)
        << p->messages()[0];
}

// Test that the generated text's line numbers stay true after an instantiation's `#line`
// when the function-constant table comes first: every `#line N "<metalcpu generated>"` names
// the line it precedes, counted from the generated text's `#line 1`.
TEST(Translate, GeneratedLinesCountTheFunctionConstantTable) {
    const std::string source = "# 1 \"t.metal\"\n"
                               "constant bool flag [[function_constant(0)]];\n"
                               "template <typename T>\n"
                               "kernel void fill(device T* out, uint i [[thread_position_in_grid]]) {\n"
                               "    out[i] = flag ? T(1) : T(0);\n"
                               "}\n"
                               "template [[host_name(\"fill_f\")]] kernel void fill<float>(device float*, uint);\n";
    Translation t = translate(source, TranslateOptions{});
    ASSERT_TRUE(t.ok) << testing::messages(t.diagnostics)[0];
    const std::string marker = " \"<metalcpu generated>\"";
    std::size_t start = 0, resumed = 0, physical = 0;
    std::istringstream lines(t.cpp);
    for (std::string line; std::getline(lines, line);) {
        ++physical;
        if (!line.starts_with("#line ") || !line.ends_with(marker)) continue;
        const std::size_t n = std::stoul(line.substr(6));
        if (start == 0) {
            ASSERT_EQ(n, 1u);
            start = physical;
        } else {
            EXPECT_EQ(n, physical - start + 1) << line;
            ++resumed;
        }
    }
    EXPECT_NE(start, 0u);
    EXPECT_EQ(resumed, 1u) << t.cpp;
}

} // namespace
} // namespace metalcpu::msl
