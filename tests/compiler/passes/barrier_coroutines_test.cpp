#include "compiler/passes/barrier_coroutines.h"

#include "compiler/compiler_test_util.h"
#include "compiler/edits.h"
#include "compiler/findings.h"
#include "compiler/kernels.h"
#include "compiler/passes/attributes.h"
#include "compiler/passes/kernel_signatures.h"
#include "compiler/unit.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

struct Result {
    std::string text;                     ///< after the kernel-signature, attribute and coroutine rewrites
    std::vector<std::string> coroutines;  ///< names of the kernels lowered to coroutines
    std::vector<std::string> messages;
};


// Every kernel findCoroutineKernels() takes becomes a coroutine: analyse() hands those that
// can become work-item loops to that pass instead, and these tests are about coroutines. Run
// first, as analyse() is, so that the kernel-signatures pass knows them too.
void everyCoroutineKernel(PassContext& c) {
    c.findings.coroutineKernels = findCoroutineKernels(c.unit, c.findings.graph, c.findings.entryPoints, c.findings.workItemRefusals);
}

// The kernel names findCoroutineKernels() takes in `p`, its diagnostics dropped (the rewrite
// reports them).
std::vector<std::string> coroutineKernels(testing::Parsed& p) {
    Diagnostics ignored(p.files);
    const std::vector<EntryPoint> entryPoints = findEntryPoints(p.tokens, p.module, ignored); // marks instantiated templates
    const Unit unit(p.tokens, p.partner, p.module);
    std::vector<std::string> names;
    std::vector<WorkItemRefusal> refusals;
    for (const CoroutineKernel& k :
         findCoroutineKernels(unit, buildCallGraph(p.tokens, p.partner, p.module), entryPoints, refusals))
        names.push_back(p.module.functions[k.function].name);
    return names;
}

Result rewrite(std::string_view source, testing::Analysis analysis = testing::Analysis::MustSucceed) {
    auto p = testing::parse(source);
    Result r;
    r.coroutines = coroutineKernels(*p);
    r.text = testing::runPasses(*p, {everyCoroutineKernel, rewriteKernelSignatures, eraseKernelInstantiations, rewriteAttributes,
                                     rewriteCoroutineKernels},
                                false, analysis);
    r.messages = p->messages();
    return r;
}

const std::string kGroup = "[[maybe_unused]] const ::mc_group* __mc_group";

// Test that a kernel with barriers in its own body becomes a coroutine: barrier_task return
// type, co_await barrier_point with the flags as written, co_return for every return.
TEST(BarrierCoroutines, KernelBody) {
    Result r = rewrite("kernel void k(device float* a, uint i [[thread_index_in_threadgroup]]) {\n"
                       "  if (i >= 64) return;\n"
                       "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                       "  a[i] = 1;\n"
                       "}");
    EXPECT_EQ(r.coroutines, std::vector<std::string>{"k"});
    EXPECT_EQ(r.text, "::metalcpu_kernel::barrier_task k(device float* a, uint i , " + kGroup + ") {\n"
                      "if (i >= 64) co_return;\n"
                      "co_await ::metalcpu_kernel::barrier_point(mem_flags::mem_threadgroup);\n"
                      "a[i] = 1;\n"
                      "}");
    EXPECT_TRUE(r.messages.empty());
}

// Test that qualified barrier names are replaced whole, simdgroup_barrier by its own point,
// and flag expressions stay as written.
TEST(BarrierCoroutines, QualifiedBarrierNames) {
    Result r = rewrite("[[kernel]] void k() {\n"
                       "  metal::threadgroup_barrier(metal::mem_flags::mem_device);\n"
                       "  ::metal::simdgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);\n"
                       "  simdgroup_barrier(mem_flags::mem_none);\n"
                       "}");
    EXPECT_EQ(r.coroutines, std::vector<std::string>{"k"});
    EXPECT_EQ(r.text, "::metalcpu_kernel::barrier_task k(" + kGroup + ") {\n"
                      "co_await ::metalcpu_kernel::barrier_point(metal::mem_flags::mem_device);\n"
                      "co_await ::metalcpu_kernel::simdgroup_barrier_point(mem_flags::mem_device | "
                      "mem_flags::mem_threadgroup);\n"
                      "co_await ::metalcpu_kernel::simdgroup_barrier_point(mem_flags::mem_none);\n"
                      "}");
}

// Test that returns in nested blocks become co_return, and returns in a lambda or a local
// class (whose bodies are not the coroutine's) stay.
TEST(BarrierCoroutines, ReturnsInBlocksLambdasAndLocalClasses) {
    Result r = rewrite("kernel void k(uint i [[thread_position_in_grid]]) {\n"
                       "  auto f = [&](uint x) -> uint { return x + i; };\n"
                       "  struct S { int g() { return 1; } void h() { return; } };\n"
                       "  for (uint j = 0; j < 4; ++j) { if (f(j) > 3) { return; } }\n"
                       "  switch (i) { case 0: return; default: break; }\n"
                       "  [=] { if (i) return; }();\n"
                       "  threadgroup_barrier(mem_flags::mem_none);\n"
                       "  return;\n"
                       "}");
    EXPECT_EQ(r.coroutines, std::vector<std::string>{"k"});
    EXPECT_EQ(r.text, "::metalcpu_kernel::barrier_task k(uint i , " + kGroup + ") {\n"
                      "auto f = [&](uint x) -> uint { return x + i; };\n"
                      "struct S { int g() { return 1; } void h() { return; } };\n"
                      "for (uint j = 0; j < 4; ++j) { if (f(j) > 3) { co_return; } }\n"
                      "switch (i) { case 0: co_return; default: break; }\n"
                      "[=] { if (i) return; }();\n"
                      "co_await ::metalcpu_kernel::barrier_point(mem_flags::mem_none);\n"
                      "co_return;\n"
                      "}");
}

// Test that a kernel calling a helper that barriers keeps the fiber lowering, untouched.
TEST(BarrierCoroutines, HelperWithBarrierStaysFiber) {
    Result r = rewrite("void sync() { threadgroup_barrier(mem_flags::mem_threadgroup); }\n"
                       "kernel void k() {\n"
                       "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                       "  sync();\n"
                       "  return;\n"
                       "}");
    EXPECT_TRUE(r.coroutines.empty());
    EXPECT_EQ(r.text, "void sync() { threadgroup_barrier(mem_flags::mem_threadgroup); }\n"
                      "inline void k(" + kGroup + ") {\n"
                      "threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                      "sync();\n"
                      "return;\n"
                      "}");
}

// Test that a barrier inside a lambda (which cannot suspend the kernel) keeps the fibers.
TEST(BarrierCoroutines, BarrierInLambdaStaysFiber) {
    Result r = rewrite("kernel void k() {\n"
                       "  auto sync = [] { threadgroup_barrier(mem_flags::mem_threadgroup); };\n"
                       "  sync();\n"
                       "}\n"
                       "kernel void l() {\n"
                       "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                       "  [&](int n) mutable {\n"
                       "    for (int i = 0; i < n; ++i) simdgroup_barrier(mem_flags::mem_none);\n"
                       "  }(2);\n"
                       "}");
    EXPECT_TRUE(r.coroutines.empty());
    EXPECT_EQ(r.text.find("co_"), std::string::npos);
    EXPECT_EQ(r.text.find("barrier_task"), std::string::npos);
}

// Test that SIMD-group collectives in the body keep the fibers (they need all threads live).
TEST(BarrierCoroutines, CollectivesStayFiber) {
    Result r = rewrite("kernel void k(device float* a, uint simd_lane [[thread_index_in_simdgroup]]) {\n"
                       "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                       "  a[0] = 2.0f * simd_sum(a[simd_lane]);\n"
                       "}\n"
                       "kernel void l(device float* a, uint simd_lane [[thread_index_in_simdgroup]]) {\n"
                       "  if (simd_lane < 4) a[simd_lane] = 0;\n"
                       "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                       "}");
    EXPECT_EQ(r.coroutines, std::vector<std::string>{"l"}); // a variable named simd_* is no collective
}

// Test which targets a collective statement may have: a name, a declaration, or an element of
// a named array or pointer whose subscripts only read (MLX's strided scan writes
// `values[i] = op.simd_scan(values[i]);`); any other keeps the fibers.
TEST(BarrierCoroutines, CollectiveStatementTargets) {
    const auto taken = [](const std::string& statement) {
        auto p = testing::parse("float f(float x) { return x; }\n"
                                "kernel void k(device float* a, uint i [[thread_index_in_simdgroup]]) {\n"
                                "  float v[4]; float m[2][2]; float x = a[i]; uint n = 0;\n  " +
                                statement + "\n  a[i] = x + v[0] + m[0][0] + float(n);\n}");
        return coroutineKernels(*p) == std::vector<std::string>{"k"};
    };
    for (const char* statement : {"x = simd_sum(x);", "float y = simd_max(x); x = y;", "v[i % 4] = simd_sum(x);",
                                  "m[i & 1][0] += simd_max(x * 2.0f);", "a[i] = simd_sum(a[i] + x);",
                                  "v[n] = simd_prefix_inclusive_sum(x);"})
        EXPECT_TRUE(taken(statement)) << statement;
    for (const char* statement : {"v[n++] = simd_sum(x);", "v[f(x)] = simd_sum(x);", "v[n = 1] = simd_sum(x);",
                                  "*a = simd_sum(x);", "x = 2.0f * simd_sum(x);", "(x) = simd_sum(x);"})
        EXPECT_FALSE(taken(statement)) << statement;
}

// Test that tensor operations written as statements of the body make a coroutine even without
// a barrier: `op.run(...)` of an op the body declares (any qualification of matmul2d /
// convolution2d) becomes an awaited scope_run with the op first, reductions become awaited
// scope_reduce_rows / _columns; the op's argument-less getters stay as written.
TEST(BarrierCoroutines, TensorOperationStatements) {
    Result r = rewrite("kernel void k(uint i [[thread_index_in_threadgroup]]) {\n"
                       "  mpp::tensor_ops::matmul2d<desc, execution_simdgroups<4>> op;\n"
                       "  auto ct = op.get_destination_cooperative_tensor<decltype(a), decltype(b), half>();\n"
                       "  auto cr = op.template get_row_reduction_destination_cooperative_tensor<A, B, float>();\n"
                       "  if (i > 64) return;\n"
                       "  op.run(a, b, ct);\n"
                       "  reduce_rows(ct, cr, reduction_operation::max, 0.0f);\n"
                       "  for (int k = 0; k < 4; ++k) { ::mpp::tensor_ops::reduce_columns(ct, cr); }\n"
                       "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                       "}\n"
                       "kernel void l() {\n"
                       "  convolution2d<d> conv{};\n"
                       "  conv.run();\n"
                       "  mpp::tensor_ops::reduce_rows(x, y);\n"
                       "}");
    EXPECT_EQ(r.coroutines, (std::vector<std::string>{"k", "l"}));
    EXPECT_EQ(r.text,
              "::metalcpu_kernel::barrier_task k(uint i , " + kGroup + ") {\n"
              "mpp::tensor_ops::matmul2d<desc, execution_simdgroups<4>> op;\n"
              "auto ct = op.get_destination_cooperative_tensor<decltype(a), decltype(b), half>();\n"
              "auto cr = op.template get_row_reduction_destination_cooperative_tensor<A, B, float>();\n"
              "if (i > 64) co_return;\n"
              "co_await ::metalcpu_kernel::scope_run(op, a, b, ct);\n"
              "co_await ::metalcpu_kernel::scope_reduce_rows(ct, cr, reduction_operation::max, 0.0f);\n"
              "for (int k = 0; k < 4; ++k) { co_await ::metalcpu_kernel::scope_reduce_columns(ct, cr); }\n"
              "co_await ::metalcpu_kernel::barrier_point(mem_flags::mem_threadgroup);\n"
              "}\n"
              "::metalcpu_kernel::barrier_task l(" + kGroup + ") {\n"
              "convolution2d<d> conv{};\n"
              "co_await ::metalcpu_kernel::scope_run(conv);\n"
              "co_await ::metalcpu_kernel::scope_reduce_rows(x, y);\n"
              "}");
    EXPECT_TRUE(r.messages.empty());
}

// Test that every other use of a tensor operation keeps the fibers: `run` as an operand or in a
// lambda, an op passed to a helper, an op whose type an alias hides, a conversion getter with
// an argument, a reduction in an operand or otherwise qualified, a `run` in a helper.
TEST(BarrierCoroutines, OtherTensorOperationUsesStayFiber) {
    const std::string declare = "  matmul2d<desc, execution_simdgroups<4>> op;\n";
    for (const std::string& use : {
             std::string("  bool b = (op.run(x, y, z), true);\n"),
             std::string("  auto f = [&] { op.run(x, y, z); }; f();\n"),
             std::string("  [&] { reduce_rows(x, y); }();\n"),
             std::string("  if (i) op.run(x, y, z); else threadgroup_barrier(mem_flags::mem_none);\n") +
                 "  help(op);\n",
             std::string("  auto ca = op.get_left_input_cooperative_tensor<A, B, C>(src);\n"),
             std::string("  alias_op other; other.run(x, y, z);\n"),
             std::string("  x = reduce_rows(x, y);\n"),
             std::string("  ns::reduce_columns(x, y);\n"),
             std::string("  thread auto& r = op; r.run(x, y, z);\n"),
             std::string("  helper_runs(x);\n"),
         }) {
        SCOPED_TRACE(use);
        Result r = rewrite("void help(thread int&) {}\n"
                           "void helper_runs(int x) { matmul2d<d, s> m; m.run(x, x, x); }\n"
                           "kernel void k(uint i [[thread_index_in_threadgroup]]) {\n" +
                           declare + use + "}");
        EXPECT_TRUE(r.coroutines.empty());
        EXPECT_EQ(r.text.find("co_"), std::string::npos);
    }
    // Declarations other than one name alone at a statement's start.
    for (const std::string& body : {
             std::string("  matmul2d<d, s> a, b;\n  a.run(x, y, z);\n"),
             std::string("  using M = matmul2d<d, s>; M a;\n  a.run(x, y, z);\n"),
             std::string("  static_assert(sizeof(matmul2d<d, s>) > 0);\n"),
         }) {
        SCOPED_TRACE(body);
        EXPECT_TRUE(rewrite("kernel void k() {\n" + body + "}").coroutines.empty());
    }
}

// Test that a barrier that is not a statement of its own (for-loop increment, operand of ?:,
// comma expression, otherwise qualified) keeps the fibers, and the statement forms after
// if/else/for/while/do and labels do not.
TEST(BarrierCoroutines, BarrierPositions) {
    const char* fiber[] = {
        "kernel void k() { for (int i = 0; i < 2; threadgroup_barrier(mem_flags::mem_none)) ++i; }",
        "kernel void k(uint i [[thread_position_in_grid]]) {\n"
        "  i ? (void)0 : threadgroup_barrier(mem_flags::mem_none);\n"
        "}",
        "kernel void k() { threadgroup_barrier(mem_flags::mem_none), threadgroup_barrier(mem_flags::mem_none); }",
        "kernel void k() { ns::threadgroup_barrier(mem_flags::mem_none); }",
        "kernel void k() { ::threadgroup_barrier(mem_flags::mem_none); }",
        "kernel void k() { auto* b = &threadgroup_barrier; b(mem_flags::mem_none); }",
    };
    for (const char* source : fiber) EXPECT_TRUE(rewrite(source).coroutines.empty()) << source;
    const char* coroutine[] = {
        "kernel void k(uint i [[thread_position_in_grid]]) { if (i) threadgroup_barrier(mem_flags::mem_none); "
        "else threadgroup_barrier(mem_flags::mem_none); }",
        "kernel void k() { for (int i = 0; i < 2; ++i) threadgroup_barrier(mem_flags::mem_none); }",
        "kernel void k() { do threadgroup_barrier(mem_flags::mem_none); while (false); }",
        "kernel void k(uint i [[thread_position_in_grid]]) { switch (i) { case 1: "
        "threadgroup_barrier(mem_flags::mem_none); } }",
        "kernel void k() {\n#pragma unroll\n  for (int i = 0; i < 2; ++i) threadgroup_barrier(mem_flags::mem_none); }",
    };
    for (const char* source : coroutine)
        EXPECT_EQ(rewrite(source).coroutines, std::vector<std::string>{"k"}) << source;
}

// Test that where statements start is the unit's statement tree: a barrier after a
// statement attribute is a statement (the old lexical rule saw only the `]` before it), and
// one in a for-loop's increment is not (the old rule, seeing the `;` before it, said it was).
TEST(BarrierCoroutines, StatementStartsFromTheTree) {
    EXPECT_EQ(rewrite("kernel void k(uint i [[thread_position_in_grid]]) {\n"
                      "  if (i) [[unlikely]] threadgroup_barrier(mem_flags::mem_none);\n}")
                  .text,
              "::metalcpu_kernel::barrier_task k(uint i , " + kGroup + ") {\n"
              "if (i) [[unlikely]] co_await ::metalcpu_kernel::barrier_point(mem_flags::mem_none);\n}");
    EXPECT_TRUE(rewrite("kernel void k() { for (int i = 0; i < 2; threadgroup_barrier(mem_flags::mem_none)) {} }")
                    .coroutines.empty());
}

// Test that the returns that become co_return are the return statements of the body's tree:
// one in a lambda that no token before it marks as one (`(void)[&] {...}`, whose `[` reads as
// a subscript) stays the lambda's `return;` (the old scan of `return` tokens outside the
// lambdas it recognised made it a co_return, which would make the lambda a coroutine).
TEST(BarrierCoroutines, ReturnsFromTheTree) {
    Result r = rewrite("kernel void k(uint i [[thread_position_in_grid]]) {\n"
                       "  (void)[&] { if (i) return; };\n"
                       "  threadgroup_barrier(mem_flags::mem_none);\n"
                       "  if (i) return;\n"
                       "}");
    EXPECT_EQ(r.coroutines, std::vector<std::string>{"k"});
    EXPECT_EQ(r.text, "::metalcpu_kernel::barrier_task k(uint i , " + kGroup + ") {\n"
                      "(void)[&] { if (i) return; };\n"
                      "co_await ::metalcpu_kernel::barrier_point(mem_flags::mem_none);\n"
                      "if (i) co_return;\n"
                      "}");
}

// Test that a kernel whose body the statement parser cannot delimit (a pragma inside a
// statement; Unit::lexicalBodies() counts it) keeps the fibers: its statements, and so its
// barriers' positions, are unknown (the old rule judged them by the token before).
TEST(BarrierCoroutines, UndelimitedBodyStaysFiber) {
    const std::string source = "kernel void k(device int* a) {\n"
                               "  a[0] = 1\n"
                               "#pragma unroll\n"
                               "  ;\n"
                               "  threadgroup_barrier(mem_flags::mem_none);\n"
                               "  return;\n"
                               "}";
    auto p = testing::parse(source);
    EXPECT_EQ(Unit(p->tokens, p->partner, p->module).lexicalBodies(), 1u);
    Result r = rewrite(source);
    EXPECT_TRUE(r.coroutines.empty());
    EXPECT_EQ(r.text.find("co_"), std::string::npos);
}

// Test that a kernel template is rewritten once, in its primary definition, whatever its
// instantiations.
TEST(BarrierCoroutines, TemplateKernel) {
    Result r = rewrite("template <typename T, int N>\n"
                       "[[kernel]] void k(device T* a [[buffer(0)]]) {\n"
                       "  for (int i = 0; i < N; ++i) { a[i] = T(0); threadgroup_barrier(mem_flags::mem_device); }\n"
                       "}\n"
                       "template [[host_name(\"k_f\")]] [[kernel]] decltype(k<float, 2>) k<float, 2>;\n"
                       "template [[host_name(\"k_i\")]] kernel void k<int, 4>(device int*);");
    EXPECT_EQ(r.coroutines, std::vector<std::string>{"k"});
    EXPECT_EQ(r.text, "template <typename T, int N>\n"
                      "::metalcpu_kernel::barrier_task k(device T* a , " + kGroup + ") {\n"
                      "for (int i = 0; i < N; ++i) { a[i] = T(0); "
                      "co_await ::metalcpu_kernel::barrier_point(mem_flags::mem_device); }\n"
                      "}\n\n");
}

// Test that a prototype of a coroutine kernel gets the same return type, and that other
// declaration shapes keep the fibers.
TEST(BarrierCoroutines, PrototypesAndDeclarationShapes) {
    Result r = rewrite("kernel void k(device int* a);\n"
                       "kernel void k(device int* a) { threadgroup_barrier(mem_flags::mem_none); }");
    EXPECT_EQ(r.coroutines, std::vector<std::string>{"k"});
    EXPECT_EQ(r.text, "::metalcpu_kernel::barrier_task k(device int* a, " + kGroup + ");\n"
                      "::metalcpu_kernel::barrier_task k(device int* a, " + kGroup + ") { "
                      "co_await ::metalcpu_kernel::barrier_point(mem_flags::mem_none); }");
    EXPECT_EQ(rewrite("static inline kernel void k() { threadgroup_barrier(mem_flags::mem_none); }").coroutines,
              std::vector<std::string>{"k"});
    EXPECT_TRUE(rewrite("constexpr kernel void k() { threadgroup_barrier(mem_flags::mem_none); }").coroutines.empty());
}

// Test that the return type is written from where the erased `kernel` / [[kernel]] started, so
// the tokens after it move as little as possible, and in place when nothing was erased before it.
TEST(BarrierCoroutines, ReturnTypeUsesErasedSpace) {
    auto p = testing::parse("kernel void k() { threadgroup_barrier(mem_flags::mem_none); }\n"
                            "[[kernel]]\nvoid l() { threadgroup_barrier(mem_flags::mem_none); }");
    ASSERT_EQ(coroutineKernels(*p).size(), 2u);
    testing::runPasses(*p, {everyCoroutineKernel, rewriteKernelSignatures, rewriteCoroutineKernels});
    const Token& kernelKeyword = p->tokens[p->find("kernel")];
    EXPECT_EQ(kernelKeyword.prefix, "::metalcpu_kernel::barrier_task ");
    EXPECT_TRUE(p->tokens[p->find("void")].erased);
    const Token& secondVoid = p->tokens[p->find("void", 1)]; // [[kernel]] is on the line above
    EXPECT_FALSE(secondVoid.erased);
    EXPECT_EQ(secondVoid.text, "::metalcpu_kernel::barrier_task");
}

// Test that `return expr;` in a coroutine kernel, where C++ allows it (a void operand: MLX's
// steel GEMM returns `mma_op.store_result(...)`), evaluates the operand, then leaves.
TEST(BarrierCoroutines, ReturnOfAVoidCallLeavesAfterTheCall) {
    Result r = rewrite("void g() {}\n"
                       "kernel void k(uint i [[thread_index_in_threadgroup]]) {\n"
                       "  threadgroup_barrier(mem_flags::mem_none);\n"
                       "  if (i == 0) return g();\n"
                       "  return;\n"
                       "}");
    EXPECT_TRUE(r.messages.empty()) << r.messages.front();
    EXPECT_NE(r.text.find("if (i == 0) { g(); co_return; }"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("\nco_return;\n"), std::string::npos) << r.text;
    Result tensors = rewrite("void g() {}\n"
                             "kernel void k() {\n"
                             "  reduce_rows(a, b);\n"
                             "  return g([]() { return; });\n"
                             "}");
    EXPECT_TRUE(tensors.messages.empty()) << tensors.messages.front();
    EXPECT_NE(tensors.text.find("{ g([]() { return; }); co_return; }"), std::string::npos) << tensors.text;
}

// Test that kernels without barriers, and every kernel of a file that defines its own
// threadgroup_barrier, are left alone.
TEST(BarrierCoroutines, NotBarrierKernels) {
    EXPECT_TRUE(rewrite("kernel void k(device int* a) { a[0] = 1; return; }").coroutines.empty());
    EXPECT_TRUE(rewrite("void threadgroup_barrier(int) {}\n"
                        "kernel void k() { threadgroup_barrier(mem_flags::mem_none); }")
                    .coroutines.empty());
}

} // namespace
} // namespace metalcpu::msl
