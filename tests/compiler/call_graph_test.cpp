#include "compiler/call_graph.h"
#include "compiler/syntax.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace metalcpu::msl {
namespace {

using testing::parse;

struct Graph {
    std::unique_ptr<testing::Parsed> parsed;
    CallGraph graph;

    std::size_t index(std::string_view name) const {
        for (std::size_t i = 0; i < parsed->module.functions.size(); ++i)
            if (parsed->module.functions[i].name == name) return i;
        return kNoToken;
    }
    // Whether a barrier is reachable from `name`.
    bool usesBarriers(std::string_view name) const {
        for (std::size_t r : reachableFunctions(graph, index(name)))
            if (graph.usesBarriersDirectly[r]) return true;
        return false;
    }
    std::vector<std::string> reachable(std::string_view name) const {
        std::vector<std::string> out;
        for (std::size_t r : reachableFunctions(graph, index(name)))
            out.push_back(parsed->module.functions[r].name);
        return out;
    }
};

Graph graphOf(std::string_view source) {
    Graph g;
    g.parsed = parse(source);
    g.graph = buildCallGraph(g.parsed->tokens, g.parsed->partner, g.parsed->module);
    return g;
}

// Test which calls count as barriers and SIMD-group collectives.
TEST(CallGraph, BarrierFunctions) {
    EXPECT_TRUE(isBarrierFunction("threadgroup_barrier"));
    EXPECT_TRUE(isBarrierFunction("simdgroup_barrier"));
    EXPECT_TRUE(isBarrierFunction("simd_sum"));
    EXPECT_TRUE(isBarrierFunction("simd_shuffle_down"));
    EXPECT_TRUE(isBarrierFunction("quad_broadcast"));
    EXPECT_TRUE(isBarrierFunction("simdgroup_multiply_accumulate"));
    EXPECT_TRUE(isBarrierFunction("simdgroup_matrix"));
    EXPECT_TRUE(isBarrierFunction("simdgroup_half8x8"));
    EXPECT_FALSE(isBarrierFunction("make_filled_simdgroup_matrix"));
    EXPECT_FALSE(isBarrierFunction("atomic_fetch_add_explicit"));
}

// Test that barriers are found in the kernel itself and through helpers, by name, but that a
// parameter named like a collective is not a call.
TEST(CallGraph, DirectAndIndirectBarriers) {
    Graph g = graphOf(
        "void sync() { threadgroup_barrier(mem_flags::mem_threadgroup); }\n"
        "void middle() { sync(); }\n"
        "kernel void direct() { float x = simd_sum(1.0f); }\n"
        "kernel void indirect() { middle(); }\n"
        "kernel void none(ushort simd_lane_id [[thread_index_in_simdgroup]]) { float y = exp(1.0f); }");
    EXPECT_TRUE(g.usesBarriers("direct"));
    EXPECT_TRUE(g.usesBarriers("indirect"));
    EXPECT_FALSE(g.usesBarriers("none"));
    EXPECT_EQ(g.reachable("indirect"), (std::vector<std::string>{"sync", "middle", "indirect"}));
}

// Test that a SIMD-group matrix made with arguments counts as a collective (its diagonal
// constructor needs the caller's lane), as an expression or as a declaration, but that
// declaring or filling one does not.
TEST(CallGraph, MatrixConstructors) {
    Graph g = graphOf(
        "kernel void expression(device float* c) { simdgroup_float8x8 d = simdgroup_float8x8(2.0f); }\n"
        "kernel void declaration(device float* c) { simdgroup_half8x8 d(2.0f); }\n"
        "kernel void braces(device float* c) { simdgroup_matrix<float, 8, 8> d{2.0f}; }\n"
        "kernel void plain(device float* c) { simdgroup_float8x8 a, b[2]; simdgroup_float8x8 e{};\n"
        "    simdgroup_float8x8 f = make_filled_simdgroup_matrix<float, 8>(0.f); }");
    EXPECT_TRUE(g.usesBarriers("expression"));
    EXPECT_TRUE(g.usesBarriers("declaration"));
    EXPECT_TRUE(g.usesBarriers("braces"));
    EXPECT_FALSE(g.usesBarriers("plain"));
}

// Test that of overloads, a call reaches those whose parameters take its argument count
// (defaults and packs counted): MLX's BaseMMAFrag::mma of four fragments calls its mma of
// five parameters, and is no function calling itself.
TEST(CallGraph, OverloadsByArgumentCount) {
    Graph g = graphOf(
        "struct Frag {\n"
        "  static void mma(thread float* d, thread float* a, thread float* b, thread float* c, int n) {\n"
        "    simdgroup_barrier(mem_flags::mem_none); }\n"
        "  static void mma(thread float* d, thread float* a, thread float* b, thread float* c) { mma(d, a, b, c, 4); }\n"
        "};\n"
        "void pick(float a) {}\n"
        "void pick(float a, float b, float c = 0) { threadgroup_barrier(mem_flags::mem_none); }\n"
        "template <typename... Ts> void spread(float a, Ts... rest) { threadgroup_barrier(mem_flags::mem_none); }\n"
        "void spread(float a, float b, float c, float d, float e) {}\n"
        "kernel void one() { pick(1.0f); }\n"
        "kernel void two() { pick(1.0f, 2.0f); }\n"
        "kernel void packed() { spread(1.0f); }\n"
        "kernel void fragments() { float x[4]; Frag::mma(x, x, x, x); }");
    for (std::size_t f = 0; f < g.parsed->module.functions.size(); ++f) {
        if (g.parsed->module.functions[f].name != "mma") continue;
        const std::vector<std::size_t>& callees = g.graph.callees[f];
        EXPECT_EQ(std::find(callees.begin(), callees.end(), f), callees.end()) << "mma overload " << f << " calls itself";
    }
    EXPECT_FALSE(g.usesBarriers("one"));
    EXPECT_TRUE(g.usesBarriers("two"));
    EXPECT_TRUE(g.usesBarriers("packed"));
    EXPECT_TRUE(g.usesBarriers("fragments"));
}

// Test that member functions, template calls and constructors are followed by name.
TEST(CallGraph, MembersTemplatesConstructors) {
    Graph g = graphOf(
        "template <typename T> struct Loader { Loader(int) {} void load() { threadgroup_barrier(mem_flags::mem_none); } };\n"
        "template <typename T> T reduce(T x) { return simd_sum(x); }\n"
        "kernel void a() { Loader<float> l(3); l.load(); }\n"
        "kernel void b() { float r = reduce<float>(2.0f); }\n"
        "kernel void c() { Loader<float> l(3); }");
    EXPECT_TRUE(g.usesBarriers("a"));
    EXPECT_TRUE(g.usesBarriers("b"));
    EXPECT_FALSE(g.usesBarriers("c")); // `Loader<float> l(3)` declares l; the constructor has no barrier
}

// Test that lambdas are part of the function that writes them.
TEST(CallGraph, Lambdas) {
    Graph g = graphOf(
        "kernel void k() { auto f = [&](int i) { threadgroup_barrier(mem_flags::mem_none); }; f(1); }\n"
        "void sync() { simdgroup_barrier(mem_flags::mem_none); }\n"
        "kernel void m() { auto g = [](int i) { return i; }; g(1); }");
    EXPECT_TRUE(g.usesBarriers("k"));
    EXPECT_FALSE(g.usesBarriers("m")); // g is a lambda whose body is in m
}

// Test that calling a functor object may reach any operator() of the file.
TEST(CallGraph, Functors) {
    Graph g = graphOf("struct SyncOp { float operator()(float x) const { return simd_max(x); } };\n"
                      "template <typename Op> float apply(float x, Op op) { return op(x); }\n"
                      "template <typename Op> float make(float x) { return Op()(x); }\n"
                      "kernel void k() { SyncOp op; float r = apply(1.0f, op); }\n"
                      "kernel void m() { float r = make<SyncOp>(1.0f); }");
    EXPECT_TRUE(g.usesBarriers("apply"));
    EXPECT_TRUE(g.usesBarriers("make"));
    EXPECT_TRUE(g.usesBarriers("k"));
    EXPECT_TRUE(g.usesBarriers("m"));
}

// Test that a local of a class template's type, called, reaches the call operators (candle's
// reductions: `block_reducer<T, N> reduce{shared}; reduce(x, tid);` with barriers in its
// operator()), and that `a < b > c(x)`, a comparison, declares nothing that is called.
TEST(CallGraph, FunctorsOfTemplateTypes) {
    Graph g = graphOf("template <typename T, ushort N> struct Reducer {\n"
                      "  threadgroup T* shared;\n"
                      "  T operator()(T v, uint i) { shared[i] = v; threadgroup_barrier(mem_flags::mem_threadgroup); "
                      "return shared[0]; }\n};\n"
                      "kernel void k(uint i) { threadgroup float s[64]; Reducer<float, 64> r{s}; float x = r(1.0f, i); }\n"
                      "kernel void q(uint i) { const Reducer<float, 64> r{nullptr}; float x = r(1.0f, i); }\n"
                      "template <typename T> T reduce(threadgroup T* s, uint i) { Reducer<T, 64> reduce{s}; "
                      "return reduce(T(1), i); }\n"
                      "kernel void n(uint i) { threadgroup float s[64]; float x = reduce<float>(s, i); }\n"
                      "float c(float x) { return x; }\n"
                      "kernel void m(device bool* o, int a, int b) { o[0] = a < b > c(1.0f); }");
    EXPECT_TRUE(g.usesBarriers("k"));
    EXPECT_TRUE(g.usesBarriers("q"));
    EXPECT_TRUE(g.usesBarriers("n")) << "a local named like the function it is in";
    EXPECT_FALSE(g.usesBarriers("m"));
    EXPECT_FALSE(g.graph.callsOpaque[g.index("m")]);
}

// Test that calls through function pointers may reach any function the file names as a value,
// and only those: `sync` is named (as a template argument), `unnamed` only called.
TEST(CallGraph, FunctionPointers) {
    Graph g = graphOf("float sync(float x) { return simd_sum(x); }\n"
                      "float unnamed(float x) { return simd_max(x); }\n"
                      "template <float (*F)(float)> float call(float x) { return F(x); }\n"
                      "float via(float (*f)(float), float x) { return f(x); }\n"
                      "float plain(float x) { return unnamed(x); }\n"
                      "float user(float x) { return call<sync>(x); }");
    EXPECT_TRUE(g.graph.callsOpaque[g.index("call")]);
    EXPECT_TRUE(g.graph.callsOpaque[g.index("via")]);
    EXPECT_FALSE(g.graph.callsOpaque[g.index("plain")]);
    EXPECT_TRUE(g.graph.opaqueOnlyThroughTemplateParameters[g.index("call")]);
    EXPECT_FALSE(g.graph.opaqueOnlyThroughTemplateParameters[g.index("via")]);
    EXPECT_TRUE(g.usesBarriers("call"));
    EXPECT_EQ(g.reachable("via"), (std::vector<std::string>{"sync", "via"}));
}

// Test that a call through a parameter or local variable that holds a function pointer (a
// functor type deduced from `apply(x, sync)`, `fn_t p = sync;`) may reach the named function.
TEST(CallGraph, FunctionPointersInFunctorPositions) {
    Graph g = graphOf("float sync(float x) { return simd_sum(x); }\n"
                      "template <typename Op> float apply(float x, Op op) { return op(x); }\n"
                      "kernel void k() { float r = apply(1.0f, sync); }\n"
                      "typedef float (*fn_t)(float);\n"
                      "kernel void m() { fn_t p = sync; float r = p(1.0f); }");
    EXPECT_TRUE(g.graph.callsOpaque[g.index("apply")]);
    EXPECT_TRUE(g.usesBarriers("apply"));
    EXPECT_TRUE(g.usesBarriers("k"));
    EXPECT_TRUE(g.usesBarriers("m"));
}

// Test that a local or parameter of an arithmetic type that shadows a function's name (ggml's
// soft_max: `const int exp = ...;` in a block, `exp(x)` after it) makes no opaque call, while
// one of a class type (a functor) still does.
TEST(CallGraph, ArithmeticVariablesAreNeverCalled) {
    Graph g = graphOf("float sync(float x) { return simd_sum(x); }\n"
                      "template <float (*F)(float)> float via(float x) { return F(x); }\n"
                      "kernel void user(device float* o) { o[0] = via<sync>(1.0f); }\n"
                      "kernel void soft(device float* o, float sqrt) {\n"
                      "  { const int exp = 2; o[0] = exp; }\n  uint4 length = 1;\n"
                      "  o[1] = exp(o[0]) + sqrt(o[1]) + length(o[2]);\n}\n"
                      "struct Op { float operator()(float x) const { return simd_sum(x); } };\n"
                      "kernel void functor(device float* o) { Op exp; o[0] = exp(o[0]); }");
    EXPECT_FALSE(g.graph.callsOpaque[g.index("soft")]);
    EXPECT_FALSE(g.usesBarriers("soft"));
    EXPECT_TRUE(g.graph.callsOpaque[g.index("functor")]);
    EXPECT_TRUE(g.usesBarriers("functor"));
}

// Test the ways a name becomes a value (template argument, `&`, call argument, initializer,
// return) and those that do not (a call, a declaration, decltype/sizeof, a member access, an
// explicit instantiation in ggml's typedef form).
TEST(CallGraph, NamedAsValue) {
    Graph g = graphOf("void a() {}\nvoid b() {}\nvoid c() {}\nvoid d() {}\nvoid e() {}\n"
                      "void f() {}\nvoid g() {}\nvoid h() {}\nvoid m() {}\n"
                      "struct S { S() {} void m() {} };\n"
                      "typedef void (*fn_t)();\n"
                      "template <fn_t F> void t() { F(); }\n"
                      "void take(fn_t p) { p(); }\n"
                      "fn_t give() { return e; }\n"
                      "void user(S s) { t<a>(); fn_t p = &b; take(c); fn_t q = d; f(); s.m; S z;\n"
                      "  typedef decltype(t<g>) tg; int n = sizeof(h); }\n"
                      "template <typename T> kernel void kt(device T* o) { o[0] = T(1); }\n"
                      "typedef decltype(kt<float>) kt_t;\n"
                      "template [[host_name(\"kt_f\")]] kernel kt_t kt<float>;");
    std::vector<std::string> named;
    for (std::size_t f : g.graph.namedAsValue) named.push_back(g.parsed->module.functions[f].name);
    EXPECT_EQ(named, (std::vector<std::string>{"a", "b", "c", "d", "e"}));
}

// Test that a kernel template instantiated with a function-pointer argument reaches the
// function it names, not the others the file names as values; a program-scope variable as
// argument (which may hold any pointer) falls back to every named function.
TEST(CallGraph, FunctionPointerTemplateInstantiation) {
    auto parsed = parse("void deq_a(thread float& r) { r = 1; }\n"
                        "void deq_b(thread float& r) { simd_sum(r); }\n"
                        "typedef void (*deq_t)(thread float&);\n"
                        "constant deq_t chosen = deq_a;\n"
                        "template <typename T, deq_t F> kernel void k(device T* o) { float r; F(r); o[0] = r; }\n"
                        "template [[host_name(\"ka\")]] kernel void k<float, deq_a>(device float*);\n"
                        "template [[host_name(\"kb\")]] kernel void k<float, deq_b>(device float*);\n"
                        "template [[host_name(\"kc\")]] kernel void k<float, chosen>(device float*);\n");
    const CallGraph graph = buildCallGraph(parsed->tokens, parsed->partner, parsed->module);
    std::vector<std::string> ka, kb, kc;
    std::size_t kernel = 0;
    while (parsed->module.functions[kernel].name != "k") ++kernel;
    std::vector<std::vector<std::string>*> outs = {&ka, &kb, &kc};
    std::size_t next = 0;
    for (std::size_t i = 0; i + 1 < parsed->tokens.size(); ++i) {
        if (!parsed->tokens[i].isIdentifier("k") || !parsed->tokens[i + 1].isPunct("<") ||
            !parsed->tokens[i - 1].isIdentifier("void") || !parsed->tokens[i + 2].isIdentifier("float"))
            continue;
        const std::size_t close = closingAngle(parsed->tokens, parsed->partner, i + 1, parsed->tokens.size());
        ASSERT_NE(close, kNoToken);
        for (std::size_t r : reachableFromInstantiation(graph, kernel, parsed->tokens, parsed->partner, i + 2, close))
            outs[next]->push_back(parsed->module.functions[r].name);
        ++next;
    }
    ASSERT_EQ(next, 3u);
    EXPECT_EQ(ka, (std::vector<std::string>{"deq_a", "k"}));
    EXPECT_EQ(kb, (std::vector<std::string>{"deq_b", "k"}));
    EXPECT_EQ(kc, (std::vector<std::string>{"deq_a", "deq_b", "k"}));
    // The template itself, for every instantiation at once.
    std::vector<std::string> all;
    for (std::size_t r : reachableFunctions(graph, kernel)) all.push_back(parsed->module.functions[r].name);
    EXPECT_EQ(all, (std::vector<std::string>{"deq_a", "deq_b", "k"}));
}

// Test that a function-pointer template parameter passed on to a helper template
// (`impl<F>(...)`, ggml's kernel_flash_attn_ext_impl<..., deq_k, ...>) keeps what the
// instantiation named (also with a parameter left to its default, as ggml's `short Q = 8`),
// and that the helper's own argument adds to it; reached without the instantiation, F may be
// any function named as a value.
TEST(CallGraph, FunctionPointerPassedToHelperTemplate) {
    auto parsed = parse("typedef void (*deq_t)(thread float&);\n"
                        "void deq_a(thread float& r) { r = 1; }\n"
                        "void deq_b(thread float& r) { simd_sum(r); }\n"
                        "void extra(thread float& r) { r = 2; }\n"
                        "template <deq_t F, deq_t G> void impl(thread float& r) { F(r); G(r); }\n"
                        "template <deq_t F, short Q = 8> kernel void k(device float* o) { float r; impl<F, extra>(r); o[0] = r; }\n"
                        "template [[host_name(\"ka\")]] kernel void k<deq_a>(device float*);\n"
                        "template [[host_name(\"kb\")]] kernel void k<deq_b>(device float*);\n");
    const CallGraph graph = buildCallGraph(parsed->tokens, parsed->partner, parsed->module);
    std::size_t kernel = 0;
    while (parsed->module.functions[kernel].name != "k") ++kernel;
    auto names = [&](const std::vector<std::size_t>& functions) {
        std::vector<std::string> out;
        for (std::size_t f : functions) out.push_back(parsed->module.functions[f].name);
        return out;
    };
    std::vector<std::vector<std::string>> reached;
    for (const ExplicitInstantiation& e : parsed->module.instantiations)
        reached.push_back(names(reachableFromInstantiation(graph, kernel, parsed->tokens, parsed->partner,
                                                           e.templateArguments.begin, e.templateArguments.end)));
    ASSERT_EQ(reached.size(), 2u);
    EXPECT_EQ(reached[0], (std::vector<std::string>{"deq_a", "extra", "impl", "k"}));
    EXPECT_EQ(reached[1], (std::vector<std::string>{"deq_b", "extra", "impl", "k"}));
    EXPECT_EQ(names(reachableFunctions(graph, kernel)), (std::vector<std::string>{"deq_a", "deq_b", "extra", "impl", "k"}));
}

// Test that template parameters a call leaves to their defaults or to deduction, and those of
// an enclosing class template, may be any function named as a value: only a call that gives
// every parameter binds them.
TEST(CallGraph, TemplateParametersNotGivenAreUnknown) {
    Graph g = graphOf("typedef void (*deq_t)(thread float&);\n"
                      "void deq_a(thread float& r) { r = 1; }\n"
                      "void deq_b(thread float& r) { simd_sum(r); }\n"
                      "template <deq_t F = deq_b> void defaulted(thread float& r) { F(r); }\n"
                      "template <deq_t F> struct Holder {};\n"
                      "template <typename T, deq_t F> void deduced(T x, Holder<F> h, thread float& r) { F(r); }\n"
                      "template <deq_t F> struct Caller { template <typename T> void run(thread float& r) { F(r); } };\n"
                      "kernel void k1() { float r; defaulted<>(r); }\n"
                      "kernel void k2() { float r; deduced<float>(1.0f, Holder<deq_b>(), r); }\n"
                      "kernel void k3() { float r; Caller<deq_b> c; c.template run<float>(r); }\n"
                      "kernel void k4() { float r; defaulted<deq_a>(r); }");
    EXPECT_TRUE(g.usesBarriers("k1"));
    EXPECT_TRUE(g.usesBarriers("k2"));
    EXPECT_TRUE(g.usesBarriers("k3"));
    EXPECT_FALSE(g.usesBarriers("k4")); // F is deq_a
}

// Test that functional casts through template type parameters are not functor calls.
TEST(CallGraph, FunctionalCastIsNoCall) {
    Graph g = graphOf(
        "struct SyncOp { float operator()(float x) const { return simd_max(x); } };\n"
        "template <typename T> kernel void k(device T* o) { o[0] = T(1); o[1] = static_cast<T>(2); }");
    EXPECT_FALSE(g.usesBarriers("k"));
}

// Test that a tensor operation makes its function use collectives, under any qualification
// and in any position (a type, a call), through helpers too; and that a member `run` counts
// only in a file that names matmul2d or convolution2d (an alias may hide the op's type).
TEST(CallGraph, TensorOperations) {
    Graph g = graphOf(
        "using MM = mpp::tensor_ops::matmul2d<desc, execution_simdgroups<4>>;\n"
        "void helper(thread MM& op, T a) { op.run(a, a, a); }\n"
        "kernel void declares() { matmul2d<desc, execution_simdgroups<4>> op; }\n"
        "kernel void reduces() { mpp::tensor_ops::reduce_rows(a, b, reduction_operation::max); }\n"
        "kernel void columns() { reduce_columns(a, b); }\n"
        "kernel void convolves() { ::mpp::tensor_ops::convolution2d<d> op; }\n"
        "kernel void indirect() { MM op; helper(op, 1); }\n"
        "kernel void descriptor() { constexpr auto d = matmul2d_descriptor(64, 32); }\n"
        "kernel void none() { float x = 1.0f; }");
    for (const char* k : {"declares", "reduces", "columns", "convolves", "indirect"})
        EXPECT_TRUE(g.usesBarriers(k)) << k;
    EXPECT_TRUE(g.graph.usesBarriersDirectly[g.index("helper")]);
    EXPECT_FALSE(g.usesBarriers("descriptor"));
    EXPECT_FALSE(g.usesBarriers("none"));
    EXPECT_TRUE(isTensorOperationName("reduce_rows"));
    EXPECT_FALSE(isTensorOperationName("matmul2d_descriptor"));

    Graph plain = graphOf("struct Job { void run(int) {} };\n"
                          "kernel void k(device int* p) { Job j; j.run(p[0]); }");
    EXPECT_FALSE(plain.usesBarriers("k"));
}

// Test that making or naming a cooperative tensor counts too, with the operation's type behind
// an alias and no run: its slots follow the running thread, which only the collective
// flavours keep (a plain loop gave 248 of 256 elements of a copied tile wrong).
TEST(CallGraph, CooperativeTensors) {
    Graph g = graphOf(
        "kernel void makes(device float* p) { Op op;\n"
        "  auto ct = op.get_destination_cooperative_tensor<A, B, float>(); ct.load(t); ct.store(t); }\n"
        "kernel void names(device float* p) { cooperative_tensor<float, E, L> ct; }\n"
        "kernel void alias(device float* p) { Op::cooperative_tensor_destination_t<A, B, float> ct; }\n"
        "kernel void none(device float* p) { p[0] = 1.0f; }");
    for (const char* k : {"makes", "names", "alias"})
        EXPECT_TRUE(g.usesBarriers(k)) << k;
    EXPECT_FALSE(g.usesBarriers("none"));
    EXPECT_TRUE(isCooperativeTensorName("get_row_reduction_destination_cooperative_tensor"));
    EXPECT_FALSE(isCooperativeTensorName("get_capacity"));
}

} // namespace
} // namespace metalcpu::msl
