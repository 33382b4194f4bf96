#include "compiler/passes/helper_inlining.h"

#include "compiler/translate.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace metalcpu::msl {
namespace {

const std::string kPrelude = "# 1 \"test.metal\"\n";

/// The translation of `source` (kernel `k` among its kernels).
const KernelInfo& kernelK(const Translation& t) {
    for (const KernelInfo& k : t.kernels)
        if (k.hostName == "k") return k;
    static const KernelInfo none;
    ADD_FAILURE() << "no kernel k";
    return none;
}

Translation translateSnippet(const std::string& source) {
    TranslateOptions options;
    options.mainFile = "test.metal";
    Translation t = translate(kPrelude + source, options);
    EXPECT_TRUE(t.ok);
    for (const Diagnostic& d : t.diagnostics) ADD_FAILURE() << d.message;
    return t;
}

/// `cpp` without its #line directives, each run of blanks and line breaks one space.
std::string flat(const std::string& cpp) {
    std::string out;
    for (std::size_t line = 0; line < cpp.size();) {
        std::size_t end = cpp.find('\n', line);
        if (end == std::string::npos) end = cpp.size();
        if (cpp.compare(line, 6, "#line ") != 0)
            for (std::size_t i = line; i <= end && i < cpp.size(); ++i) {
                const char c = i == end ? ' ' : cpp[i];
                if (c != ' ' || (!out.empty() && out.back() != ' ')) out += c;
            }
        line = end + 1;
    }
    return out;
}

/// Whether kernel `k` of `source` is split into work-item loops (its helpers inlined).
bool splits(const std::string& source) {
    const Translation t = translateSnippet(source);
    const KernelInfo& k = kernelK(t);
    EXPECT_TRUE(k.usesBarriers);
    return k.usesWorkItemLoops;
}

/// Why kernel `k` of `source` keeps the fibers ("" when it does not).
std::string fibersReason(const std::string& source) {
    const Translation t = translateSnippet(source);
    const KernelInfo& k = kernelK(t);
    return k.usesWorkItemLoops || k.usesCoroutines ? std::string() : k.workItemLoopsRefusal;
}

const std::string kTreeSum = R"(
template <typename T, uint N>
void tree_sum(threadgroup T* partial, thread T& value, uint lid, const uint size) {
    partial[lid] = value;
    for (uint stride = 1; stride < size; stride *= 2) {
        threadgroup_barrier(mem_flags::mem_threadgroup);
        T other = lid + stride < size ? partial[lid + stride] : T(0);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (lid % (2 * stride) == 0) partial[lid] = partial[lid] + other;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    value = partial[0];
}
)";

const std::string kKernelHead = "kernel void k(device float* out [[buffer(0)]], uint lid [[thread_index_in_threadgroup]],\n"
                                "              uint size [[threads_per_threadgroup]]) {\n";

// Test that a kernel whose barriers are in a helper template, called as a statement with its
// template arguments written, is split into work-item loops like the same body written in it.
TEST(HelperInlining, BarrierHelperIsSplit) {
    EXPECT_TRUE(splits(kTreeSum + kKernelHead +
                       "    threadgroup float partial[1024];\n    float v = out[lid];\n"
                       "    tree_sum<float, 1024>(partial, v, lid, size);\n    out[lid] = v;\n}\n"));
}

// Test the inlined block: a reference or pointer parameter given a name is that name, the others
// are variables of their own, and template parameters are the call's arguments.
TEST(HelperInlining, ParametersAndTemplateArguments) {
    const Translation t = translateSnippet(kTreeSum + kKernelHead +
                                           "    threadgroup float partial[1024];\n    float v = out[lid];\n"
                                           "    tree_sum<float, 1024>(partial, v, lid % 1024, size);\n    out[lid] = v;\n}\n");
    EXPECT_TRUE(kernelK(t).usesWorkItemLoops) << kernelK(t).workItemLoopsRefusal;
    EXPECT_EQ(t.cpp.find("partial_i"), std::string::npos) << "a pointer given `partial` is `partial`\n" << t.cpp;
    EXPECT_NE(t.cpp.find("lid_i"), std::string::npos) << t.cpp;
    EXPECT_EQ(t.cpp.find("value_i"), std::string::npos) << "a reference to `v` is `v`\n" << t.cpp;
    EXPECT_NE(t.cpp.find("float other_i"), std::string::npos) << t.cpp;
}

// Test a helper that returns a SIMD-group function's value after statements of its own, whose
// value initialises a declaration and is assigned: both are split at.
TEST(HelperInlining, CollectiveHelperWithStatements) {
    const std::string helper = "float total(float v, uint lane) {\n    float w = v * 2.0f;\n"
                               "    w += float(lane);\n    return simd_sum(w);\n}\n";
    EXPECT_TRUE(splits(helper + kKernelHead + "    float s = total(out[lid], lid % 32);\n    out[lid] = s;\n}\n"));
    EXPECT_TRUE(splits(helper + kKernelHead + "    float s = 0;\n    s += total(out[lid], lid % 32);\n"
                                              "    out[lid] = s;\n}\n"));
}

// Test helpers that call helpers, and a helper called twice: each call gets its own block and
// names.
TEST(HelperInlining, NestedHelpersAndTwoCalls) {
    const std::string helpers = kTreeSum + "void twice(threadgroup float* p, thread float& v, uint lid, uint size) {\n"
                                           "    tree_sum<float, 1024>(p, v, lid, size);\n"
                                           "    v = v + 1.0f;\n    tree_sum<float, 1024>(p, v, lid, size);\n}\n";
    EXPECT_TRUE(splits(helpers + kKernelHead +
                       "    threadgroup float partial[1024];\n    float v = out[lid];\n"
                       "    twice(partial, v, lid, size);\n    out[lid] = v;\n}\n"));
}

// Test an array parameter (a pointer, as C++ adjusts it): given an array's name it is that name;
// given another expression, a pointer variable of its own.
TEST(HelperInlining, ArrayParameter) {
    const std::string helper = "void publish(threadgroup float shared[64], float v, uint lid) {\n"
                               "    shared[lid % 64] = v;\n    threadgroup_barrier(mem_flags::mem_threadgroup);\n}\n";
    const auto kernelCalling = [&](const std::string& call) {
        return helper + kKernelHead + "    threadgroup float tile[64];\n    " + call +
               "\n    out[lid] = tile[(lid + 1) % 64];\n}\n";
    };
    const Translation named = translateSnippet(kernelCalling("publish(tile, out[lid], lid);"));
    EXPECT_TRUE(kernelK(named).usesWorkItemLoops) << kernelK(named).workItemLoopsRefusal;
    EXPECT_NE(flat(named.cpp).find("tile [lid %__mc_div->* 64] = v_i1;"), std::string::npos) << named.cpp;
    // A pointer the helper may change through another parameter is copied.
    const Translation changed = translateSnippet(
        "void bump(device float* a, thread device float*& r, uint lid) {\n"
        "    threadgroup_barrier(mem_flags::mem_threadgroup);\n    r = r + 1;\n    a[lid] = 1.0f;\n}\n" +
        kKernelHead + "    device float* p = out;\n    bump(p, p, lid);\n}\n");
    EXPECT_NE(flat(changed.cpp).find("float* a_i1 = ( p ) ;"), std::string::npos) << changed.cpp;
    const Translation computed = translateSnippet(kernelCalling("publish(tile + 0, out[lid], lid);"));
    EXPECT_TRUE(kernelK(computed).usesWorkItemLoops) << kernelK(computed).workItemLoopsRefusal;
    EXPECT_NE(flat(computed.cpp).find("float * shared_i1 = ( tile + 0 ) ;"), std::string::npos) << computed.cpp;
}

// Test that a local declared again with a parameter's name in a nested scope (llama.cpp's
// flash attention: `for (short k = 0; ...)` in a helper with a parameter `k`) gets a name of
// its own there, while the parameter's uses outside that scope stay the argument; a local
// shadowing a parameter where its scope is not found (a lambda's parameter) is still refused.
TEST(HelperInlining, LocalsShadowingParameters) {
    const Translation t = translateSnippet(
        "void h(threadgroup float* p, uint lid, float k) {\n"
        "    p[lid] = k;\n"
        "    for (short k = 0; k < 2; ++k) {\n"
        "        threadgroup_barrier(mem_flags::mem_threadgroup);\n"
        "        p[lid] += float(k);\n"
        "    }\n"
        "    if (lid == 0) { float k = 5.0f; p[0] += k; }\n"
        "    p[lid] *= k;\n"
        "}\n" +
        kKernelHead + "    threadgroup float partial[1024];\n    h(partial, lid, out[lid]);\n    out[lid] = partial[lid];\n}\n");
    EXPECT_TRUE(kernelK(t).usesWorkItemLoops) << kernelK(t).workItemLoopsRefusal;
    const std::string text = flat(t.cpp);
    // The locals are renamed first (k_i1, k_i2), then the parameter, a slot across the barrier (k_i4).
    EXPECT_NE(text.find("short k_i1 = 0;"), std::string::npos) << t.cpp;
    EXPECT_NE(text.find("++k_i1"), std::string::npos) << t.cpp;
    EXPECT_NE(text.find("+= float(k_i1);"), std::string::npos) << t.cpp;
    EXPECT_NE(text.find("float k_i2 = 5.0f; partial[0] += k_i2;"), std::string::npos) << t.cpp;
    EXPECT_NE(text.find("partial[lid] = k_i4;"), std::string::npos) << t.cpp;
    EXPECT_NE(text.find("partial[lid] *= k_i4;"), std::string::npos) << t.cpp;
    EXPECT_NE(fibersReason("void h(threadgroup float* p, uint lid, float k) {\n"
                           "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                           "    auto f = [](float k) { return k; };\n    p[lid] = f(k);\n}\n" +
                           kKernelHead + "    threadgroup float partial[1024];\n    h(partial, lid, out[lid]);\n}\n")
                  .find("the call is not inlined: 'h' declares 'k' again"),
              std::string::npos);
}

// Test that a value parameter given a kernel parameter of its type that nothing changes is that
// parameter: a uniform builtin stays uniform, so a loop over it in the helper runs once per
// group (candle's rmsnorm halves `block_dim`). Changed, or of another type, it is a copy.
TEST(HelperInlining, UnchangedKernelParameters) {
    const std::string helper = "void halve(threadgroup float* p, uint lid, uint n) {\n"
                               "    for (uint s = n / 2; s > 0; s >>= 1) {\n"
                               "        if (lid < s) p[lid] += p[lid + s];\n"
                               "        threadgroup_barrier(mem_flags::mem_threadgroup);\n    }\n}\n";
    const std::string head = kKernelHead + "    threadgroup float partial[1024];\n    partial[lid] = out[lid];\n"
                                           "    threadgroup_barrier(mem_flags::mem_threadgroup);\n";
    const Translation same = translateSnippet(helper + head + "    halve(partial, lid, size);\n}\n");
    EXPECT_TRUE(kernelK(same).usesWorkItemLoops) << kernelK(same).workItemLoopsRefusal;
    EXPECT_EQ(same.cpp.find("n_i"), std::string::npos) << same.cpp;
    // The kernel changes `size`: a copy, per thread, and the loop cannot run once per group.
    const Translation changed = translateSnippet(helper + head + "    size = size + 0;\n    halve(partial, lid, size);\n}\n");
    EXPECT_NE(changed.cpp.find("n_i"), std::string::npos) << changed.cpp;
    EXPECT_FALSE(kernelK(changed).usesWorkItemLoops);
    // Another type: a copy converts.
    const Translation converted =
        translateSnippet("void halve(threadgroup float* p, uint lid, ushort n) {\n"
                         "    for (ushort s = n / 2; s > 0; s >>= 1) {\n"
                         "        if (lid < s) p[lid] += p[lid + s];\n"
                         "        threadgroup_barrier(mem_flags::mem_threadgroup);\n    }\n}\n" +
                         head + "    halve(partial, lid, size);\n}\n");
    EXPECT_NE(converted.cpp.find("n_i"), std::string::npos) << converted.cpp;
}

// Test template arguments that are references or pointers (ggml passes `constant kargs &` as
// `args_t` to `args_t args`): the parameter is a reference, the argument's name; a helper that
// qualifies such a parameter (`const T`, which would apply to the pointee) is not inlined.
TEST(HelperInlining, ReferenceAndPointerTemplateArguments) {
    const std::string kargs = "struct kargs { uint n; };\n";
    const Translation reference = translateSnippet(
        kargs + "template <typename args_t> void h(args_t args, threadgroup float* p, uint lid) {\n"
                "    p[lid] = float(args.n);\n    threadgroup_barrier(mem_flags::mem_threadgroup);\n}\n"
                "kernel void k(constant kargs& a [[buffer(1)]], device float* out [[buffer(0)]],\n"
                "              uint lid [[thread_index_in_threadgroup]]) {\n"
                "    threadgroup float partial[64];\n    h<constant kargs &>(a, partial, lid);\n"
                "    out[lid] = partial[(lid + 1) % 64];\n}\n");
    EXPECT_TRUE(kernelK(reference).usesWorkItemLoops) << kernelK(reference).workItemLoopsRefusal;
    EXPECT_EQ(reference.cpp.find("args_i"), std::string::npos) << reference.cpp;
    EXPECT_NE(fibersReason(kargs + "template <typename T> void h(const T p, uint lid) {\n"
                                   "    threadgroup_barrier(mem_flags::mem_threadgroup);\n    p[lid] = 1;\n}\n" +
                           kKernelHead + "    h<device float*>(out, lid);\n}\n")
                  .find("'h' qualifies 'T', whose argument is a pointer or reference"),
              std::string::npos);
}

// Test a helper that calls through a non-type template parameter of its own (llama.cpp's
// `deq_t4`): inlined, the call is of its argument, the file's only function of that name or the
// kernel's own template parameter (followed per instantiation). Given an overloaded name, or
// called through an ordinary parameter, it stays a call.
TEST(HelperInlining, FunctionTemplateArguments) {
    const std::string helper =
        "float twice(float x) { return 2.0f * x; }\n"
        "template <uint N, float (*op)(float)> void apply(threadgroup float* p, uint lid) {\n"
        "    p[lid % N] = op(p[lid % N]);\n    threadgroup_barrier(mem_flags::mem_threadgroup);\n}\n";
    const std::string body = "    threadgroup float partial[64];\n    partial[lid % 64] = out[lid];\n"
                             "    apply<64, OP>(partial, lid);\n    out[lid] = partial[(lid + 1) % 64];\n}\n";
    const auto withOp = [&](const std::string& op) {
        std::string b = body;
        b.replace(b.find("OP"), 2, op);
        return b;
    };
    const Translation named = translateSnippet(helper + kKernelHead + withOp("twice"));
    EXPECT_TRUE(kernelK(named).usesWorkItemLoops) << kernelK(named).workItemLoopsRefusal;
    EXPECT_NE(flat(named.cpp).find("= twice(partial["), std::string::npos) << named.cpp;
    const Translation passedOn = translateSnippet(
        helper + "template <float (*f)(float)>\n" + kKernelHead.substr(0, kKernelHead.find("k(")) + "kt(" +
        kKernelHead.substr(kKernelHead.find("k(") + 2) + withOp("f") +
        "template [[host_name(\"k\")]] kernel void kt<twice>(device float*, uint, uint);\n");
    EXPECT_TRUE(kernelK(passedOn).usesWorkItemLoops) << kernelK(passedOn).workItemLoopsRefusal;
    EXPECT_NE(flat(passedOn.cpp).find("= f(partial["), std::string::npos) << passedOn.cpp;
    // An overload: called by name, it might not be the one the pointer names.
    EXPECT_NE(fibersReason(helper + "half twice(half x) { return x; }\n" + kKernelHead + withOp("twice"))
                  .find("'apply' calls its template parameter 'op', whose argument 'twice' is not the kernel's "
                        "template parameter or the file's only function of that name"),
              std::string::npos);
    EXPECT_NE(fibersReason(helper + kKernelHead + withOp("(twice)")).find("whose argument is not a name"),
              std::string::npos);
    EXPECT_NE(fibersReason("float twice(float x) { return 2.0f * x; }\n"
                           "void apply(threadgroup float* p, uint lid, float (*op)(float)) {\n"
                           "    p[lid] = op(p[lid]);\n    threadgroup_barrier(mem_flags::mem_threadgroup);\n}\n" +
                           kKernelHead + "    threadgroup float partial[64];\n    apply(partial, lid % 64, twice);\n"
                           "    out[lid] = partial[(lid + 1) % 64];\n}\n")
                  .find("'apply' calls through a function pointer"),
              std::string::npos);
}

// Test a void helper that returns early, called as the kernel's last statement (candle's
// argsort): its returns are the kernel's. Nested in a block, or followed by a statement, or of a
// helper that returns a value, the call stays.
TEST(HelperInlining, EarlyReturnEndingTheKernel) {
    const std::string helper = "void h(threadgroup float* p, device float* out, uint lid) {\n"
                               "    if (lid > 3) return;\n    p[lid] = out[lid];\n"
                               "    threadgroup_barrier(mem_flags::mem_threadgroup);\n    out[lid] = p[(lid + 1) % 4];\n}\n";
    const std::string head = kKernelHead + "    threadgroup float partial[4];\n";
    const Translation last = translateSnippet(helper + head + "    h(partial, out, lid);\n}\n");
    EXPECT_TRUE(kernelK(last).usesWorkItemLoops) << kernelK(last).workItemLoopsRefusal;
    EXPECT_NE(flat(last.cpp).find("if (lid > 3) return;"), std::string::npos) << last.cpp;
    EXPECT_NE(fibersReason(helper + head + "    if (size > 1) {\n        h(partial, out, lid);\n    }\n}\n")
                  .find("'h' returns before its end"),
              std::string::npos);
    EXPECT_NE(fibersReason(helper + head + "    h(partial, out, lid);\n    return;\n}\n").find("'h' returns before its end"),
              std::string::npos);
    EXPECT_NE(fibersReason("float g(threadgroup float* p, uint lid) {\n    if (lid > 3) return 0.0f;\n"
                           "    threadgroup_barrier(mem_flags::mem_threadgroup);\n    return p[lid];\n}\n" +
                           head + "    float v;\n    v = g(partial, lid);\n}\n")
                  .find("'g' returns before its end"),
              std::string::npos);
}

// Test a switch around barriers (llama.cpp's `switch (args.nr0) { case 2: impl<2>(...); break; }`)
// made an if chain, which is split: several labels, a default, a helper inlined in a case. A
// switch the rewrite cannot follow exactly stays one.
TEST(HelperInlining, SwitchAsIfChain) {
    const std::string head = "struct kargs { uint n; };\n"
                             "void sync() { threadgroup_barrier(mem_flags::mem_threadgroup); }\n"
                             "kernel void k(constant kargs& a [[buffer(1)]], device float* out [[buffer(0)]],\n"
                             "              uint lid [[thread_index_in_threadgroup]]) {\n"
                             "    threadgroup float t[64];\n    t[lid % 64] = out[lid];\n";
    const auto withSwitch = [&](const std::string& cases) {
        return head + "    switch (a.n) {\n" + cases + "    }\n    out[lid] = t[(lid + 1) % 64];\n}\n";
    };
    const Translation chain = translateSnippet(withSwitch("    case 2: sync(); break;\n"
                                                          "    case 3: case 4u: { float v = t[0]; sync(); t[lid % 64] = v; } break;\n"
                                                          "    case -1: break;\n"
                                                          "    default: threadgroup_barrier(mem_flags::mem_threadgroup); break;\n"));
    EXPECT_TRUE(kernelK(chain).usesWorkItemLoops) << kernelK(chain).workItemLoopsRefusal;
    const std::string flatChain = flat(chain.cpp);
    EXPECT_EQ(flatChain.find("switch"), std::string::npos) << chain.cpp;
    for (const char* test : {"(a.n)==(2)", "(a.n)==(3)||(a.n)==(4u)", "(a.n)==(-1)"}) {
        std::string spaceless;
        for (char c : flatChain)
            if (c != ' ') spaceless += c;
        EXPECT_NE(spaceless.find(test), std::string::npos) << test << "\n" << chain.cpp;
    }
    const char* const kept = "a barrier or SIMD-group function in a 'switch' statement";
    // Falling through, default before a case, a declaration in a group, a named case value, a
    // condition that calls, a break inside a group: the switch stays.
    for (const std::string& cases : {std::string("    case 2: sync();\n    case 3: sync(); break;\n"),
                                     std::string("    default: sync(); break;\n    case 3: sync(); break;\n"),
                                     std::string("    case 2: float v = t[0]; sync(); t[1] = v; break;\n"),
                                     std::string("    case kN: sync(); break;\n"),
                                     std::string("    case 2L: sync(); break;\n"),
                                     std::string("    case 2: if (lid > 3) break; sync(); break;\n")}) {
        const std::string source = "constant uint kN = 2;\n" + withSwitch(cases);
        const Translation t = translateSnippet(source);
        EXPECT_FALSE(kernelK(t).usesWorkItemLoops) << cases;
        EXPECT_NE(kernelK(t).workItemLoopsRefusal.find(kept), std::string::npos) << cases << kernelK(t).workItemLoopsRefusal;
    }
    const std::string called = head + "    switch (min(a.n, 4u)) {\n    case 2: sync(); break;\n    }\n}\n";
    EXPECT_NE(kernelK(translateSnippet(called)).workItemLoopsRefusal.find(kept), std::string::npos);
}

// Test that what the pass cannot inline keeps the fibers, with the reason it was not inlined
// added to the split's.
TEST(HelperInlining, RefusalsKeepTheFibersWithAReason) {
    const std::string call = kKernelHead + "    threadgroup float partial[1024];\n    float v = out[lid];\n";
    // An early return, the call not the kernel's last statement.
    EXPECT_NE(fibersReason("void h(threadgroup float* p, uint lid) {\n    if (lid > 3) return;\n"
                           "    threadgroup_barrier(mem_flags::mem_threadgroup);\n    p[lid] = 1;\n}\n" +
                           call + "    h(partial, lid);\n    out[lid] = partial[0];\n}\n")
                  .find("the call is not inlined: 'h' returns before its end (test.metal:2:18)"),
              std::string::npos);
    // Deduced template arguments.
    EXPECT_NE(fibersReason("template <typename T> void h(threadgroup T* p, uint lid) {\n"
                           "    threadgroup_barrier(mem_flags::mem_threadgroup);\n    p[lid] = 1;\n}\n" +
                           call + "    h(partial, lid);\n}\n")
                  .find("deduces its template argument 'T' from what is not `C<args>{...}`"),
              std::string::npos);
    // A name the kernel declares too, which in the helper means something else.
    EXPECT_NE(fibersReason("constant float scale = 2.0f;\nvoid h(threadgroup float* p, uint lid) {\n"
                           "    threadgroup_barrier(mem_flags::mem_threadgroup);\n    p[lid] = scale;\n}\n" +
                           call + "    float scale = 3.0f;\n    h(partial, lid);\n    out[lid] = scale;\n}\n")
                  .find("names 'scale', which the kernel declares too"),
              std::string::npos);
    // Recursion.
    EXPECT_NE(fibersReason("void h(threadgroup float* p, uint lid, uint n) {\n"
                           "    threadgroup_barrier(mem_flags::mem_threadgroup);\n    if (n > 0) h(p, lid, n - 1);\n}\n" +
                           call + "    h(partial, lid, 2);\n}\n")
                  .find("may call itself"),
              std::string::npos);
    // A threadgroup variable, one per group however often the helper is called.
    EXPECT_NE(fibersReason("void h(uint lid) {\n    threadgroup float t[4];\n    t[lid % 4] = 1;\n"
                           "    threadgroup_barrier(mem_flags::mem_threadgroup);\n}\n" +
                           call + "    h(lid);\n}\n")
                  .find("declares a threadgroup variable"),
              std::string::npos);
    // ... also with attributes between `threadgroup` and the type, as tinygrad writes them.
    for (const char* declaration : {"threadgroup __attribute__((aligned(16))) float t[4];", "threadgroup alignas(16) float t[4];"})
        EXPECT_NE(fibersReason("void h(uint lid) {\n    " + std::string(declaration) + "\n    t[lid % 4] = 1;\n"
                               "    threadgroup_barrier(mem_flags::mem_threadgroup);\n}\n" +
                               call + "    h(lid);\n}\n")
                      .find("declares a threadgroup variable"),
                  std::string::npos)
            << declaration;
    // A call inside an expression.
    EXPECT_NE(fibersReason("float h(threadgroup float* p, uint lid) {\n"
                           "    threadgroup_barrier(mem_flags::mem_threadgroup);\n    return p[lid];\n}\n" +
                           call + "    out[lid] = 1.0f + h(partial, lid);\n}\n")
                  .find("is not a whole statement"),
              std::string::npos);
    // A function called by its namespace's name.
    EXPECT_NE(fibersReason("namespace ns {\nvoid h(threadgroup float* p, uint lid) {\n"
                           "    threadgroup_barrier(mem_flags::mem_threadgroup);\n    p[lid] = 1;\n}\n}\n" +
                           call + "    ns::h(partial, lid);\n}\n")
                  .find("the call is not inlined: the call of 'h' is qualified, and not by a class"),
              std::string::npos);
    // A static member function called by its class's name that is not static.
    EXPECT_NE(fibersReason("struct S {\n    void h(threadgroup float* p, uint lid) {\n"
                           "        threadgroup_barrier(mem_flags::mem_threadgroup);\n        p[lid] = 1;\n    }\n};\n" +
                           call + "    using T = S;\n    T::h(partial, lid);\n}\n")
                  .find("'h' is called by its class's name but is not static"),
              std::string::npos);
}

// A class template whose member function publishes a value through threadgroup memory between
// barriers: members, a static member, a nested type, `this` and the class's template parameters.
const std::string kPublisher = R"(
template <typename T, uint N, uint M = N * 2>
struct Publisher {
    using value_type = T;
    static constexpr uint slots = M / 2;
    threadgroup T* tile;
    uint index;
    Publisher(threadgroup T* t, uint i) : tile(t), index(i) {}
    void bump() { index = index + 1; }
    void publish(thread T& v) {
        value_type mine = v;
        tile[index % slots] = mine;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        v = this->tile[(index + 1) % N];
        bump();
    }
};
)";

// Test a member function called on an object the kernel declares: inlined, its members are the
// object's, its statics and types the class's as the declaration writes it, `this` the object's
// address, and the kernel is split.
TEST(HelperInlining, MemberFunctionOnALocalObject) {
    const Translation t = translateSnippet(kPublisher + kKernelHead +
                                           "    threadgroup float tile[64];\n"
                                           "    Publisher<float, 64> pub(tile, lid);\n"
                                           "    float v = out[lid];\n    pub.publish(v);\n    out[lid] = v;\n}\n");
    EXPECT_TRUE(kernelK(t).usesWorkItemLoops) << kernelK(t).workItemLoopsRefusal;
    const std::string cpp = flat(t.cpp);
    EXPECT_NE(cpp.find("typename Publisher<float, 64>::value_type mine_i"), std::string::npos) << cpp;
    EXPECT_NE(cpp.find("pub.tile[pub.index %__mc_div->* Publisher<float, 64>::slots]"), std::string::npos) << cpp;
    EXPECT_NE(cpp.find("( & pub )->tile[(pub.index + 1) %__mc_div->* ( 64 )]"), std::string::npos) << cpp;
    EXPECT_NE(cpp.find("pub.bump();"), std::string::npos) << "a member without barriers stays a call\n" << cpp;
}

// Test that the class's defaults are substituted with the written arguments (M = N * 2).
TEST(HelperInlining, MemberFunctionClassDefaults) {
    const std::string klass = "template <uint N, uint M = N * 2>\nstruct S {\n"
                              "    void put(threadgroup uint* t, uint lid) {\n        t[lid % M] = N;\n"
                              "        threadgroup_barrier(mem_flags::mem_threadgroup);\n    }\n};\n";
    const Translation t = translateSnippet(klass + kKernelHead + "    threadgroup uint t[64];\n    S<32> s;\n"
                                                                 "    s.put(t, lid);\n    out[lid] = t[0];\n}\n");
    EXPECT_TRUE(kernelK(t).usesWorkItemLoops) << kernelK(t).workItemLoopsRefusal;
    EXPECT_NE(flat(t.cpp).find("t[lid %__mc_div->* ( (32 ) * 2 )] = (32 );"), std::string::npos) << t.cpp;
}

// Test the member calls that stay calls, each with its reason.
TEST(HelperInlining, MemberFunctionRefusals) {
    const std::string head = kPublisher + kKernelHead + "    threadgroup float tile[64];\n    float v = out[lid];\n";
    const auto reason = [&](const std::string& body) { return fibersReason(head + body + "    out[lid] = v;\n}\n"); };
    EXPECT_NE(reason("    Publisher<float, 64> pub(tile, lid);\n    (&pub)->publish(v);\n")
                  .find("is called as a member function of an object that is not a name"),
              std::string::npos);
    EXPECT_NE(reason("    Publisher<float, 64> pub(tile, lid), other(tile, 0);\n    pub.publish(v);\n")
                  .find("is not declared `T obj(...);`"),
              std::string::npos);
    // An alias declared twice (in two blocks): which one the object's declaration sees is not followed.
    EXPECT_NE(reason("    { using P = Publisher<float, 32>; }\n    using P = Publisher<float, 64>;\n"
                     "    P pub(tile, lid);\n    pub.publish(v);\n")
                  .find("has a type that is not a class the front end can follow (P)"),
              std::string::npos);
    // An object declared as a pointer.
    EXPECT_NE(reason("    Publisher<float, 64> real(tile, lid);\n    thread Publisher<float, 64>* pub = &real;\n"
                     "    pub->publish(v);\n")
                  .find("is called as a member function of an object that is not a name"),
              std::string::npos);
    // A class with a base: the body may name the base's members.
    EXPECT_NE(fibersReason("struct B { uint n; };\nstruct D : B {\n    void h(threadgroup float* p, uint lid) {\n"
                           "        threadgroup_barrier(mem_flags::mem_threadgroup);\n        p[lid % 4] = n;\n    }\n};\n" +
                           kKernelHead + "    threadgroup float t[4];\n    D d;\n    d.h(t, lid);\n}\n")
                  .find("the class of 'h' is not read"),
              std::string::npos);
    // A parameter named as a member would hide it.
    EXPECT_NE(fibersReason("struct S {\n    uint n;\n    void h(threadgroup float* p, uint n) {\n"
                           "        threadgroup_barrier(mem_flags::mem_threadgroup);\n        p[n % 4] = 1;\n    }\n};\n" +
                           kKernelHead + "    threadgroup float t[4];\n    S s;\n    s.h(t, lid);\n}\n")
                  .find("declares 'n', which its class declares"),
              std::string::npos);
}

// Test a member function whose value initialises a declaration and that calls another member
// that synchronises (inlined in the next round, on the same object), in a kernel template whose
// object's class takes the kernel's template parameter.
TEST(HelperInlining, MemberFunctionValueAndNestedMember) {
    const std::string klass = "template <typename T, uint N>\nstruct Acc {\n    T total;\n"
                              "    void share(threadgroup T* t, uint lid) {\n        t[lid % N] = total;\n"
                              "        threadgroup_barrier(mem_flags::mem_threadgroup);\n        total = t[0];\n    }\n"
                              "    T shared_total(threadgroup T* t, uint lid) {\n        share(t, lid);\n"
                              "        return total + T(1);\n    }\n};\n";
    const Translation t = translateSnippet(
        klass + "template <typename T>\nkernel void k(device T* out [[buffer(0)]], uint lid [[thread_index_in_threadgroup]]) {\n"
                "    threadgroup T t[64];\n    Acc<T, 64> acc;\n    acc.total = out[lid];\n"
                "    T s = acc.shared_total(t, lid);\n    out[lid] = s;\n}\n"
                "template [[host_name(\"k\")]] kernel void k<float>(device float*, uint);\n");
    EXPECT_TRUE(kernelK(t).usesWorkItemLoops) << kernelK(t).workItemLoopsRefusal;
    const std::string cpp = flat(t.cpp);
    EXPECT_NE(cpp.find("t[lid %__mc_div->* ( 64 )] = acc.total;"), std::string::npos) << cpp;
    EXPECT_NE(cpp.find("shared_total_result_i"), std::string::npos) << cpp;
}

// MLX's steel GEMM names its classes through aliases: the kernel's own `using gemm_kernel =
// GEMMKernel<...>;`, `using mma_t = typename gemm_kernel::mma_t;` (a member alias whose
// arguments name the outer class's parameters and statics), and calls the outer class's static
// member function template by qualified name, its template arguments deduced from a tag
// argument (`gemm_kernel::gemm_loop(..., LoopAlignment<true, true, true>{})`), from a kernel of
// the global namespace that uses the classes' namespace.
const std::string kAliasedPublisher = "namespace lib {\nnamespace tiles {\n" + kPublisher + R"(
template <bool TWICE>
struct Twice {};

template <typename T, uint N>
struct Runner {
    static constexpr uint padded = N + 4;
    using publisher_t = Publisher<T, padded>;
    template <bool TWICE>
    static void run(thread publisher_t& pub, thread T& v, Twice<TWICE> twice = {}) {
        (void)twice;
        pub.publish(v);
        if (TWICE) {
            pub.publish(v);
        }
    }
};
} // namespace tiles
} // namespace lib
using namespace lib::tiles;
)";

// Test an object declared through aliases, and a static member function called by an alias of
// its class with a deduced template argument: both inlined, the kernel split; the member's
// statics and types named through the kernel's alias, the class's parameters through the
// outer class's alias.
TEST(HelperInlining, AliasesAndQualifiedStaticMembers) {
    const Translation t = translateSnippet(kAliasedPublisher + kKernelHead +
                                           "    threadgroup float tile[64];\n"
                                           "    using runner_t = Runner<float, 60>;\n"
                                           "    using pub_t = typename runner_t::publisher_t;\n"
                                           "    typedef pub_t same_t;\n"
                                           "    thread same_t pub(tile, lid);\n"
                                           "    float v = out[lid];\n"
                                           "    runner_t::run(pub, v, Twice<true>{});\n"
                                           "    pub.publish(v);\n"
                                           "    out[lid] = v;\n}\n");
    EXPECT_TRUE(kernelK(t).usesWorkItemLoops) << kernelK(t).workItemLoopsRefusal;
    const std::string cpp = flat(t.cpp);
    EXPECT_NE(cpp.find("Twice<(true )> twice_i1 = ( Twice<true>{} ) ;"), std::string::npos) << cpp;
    EXPECT_NE(cpp.find("if ((true ))"), std::string::npos) << cpp;
    // Then the kernel's aliases are replaced by the types they name (in a nested name without
    // `typename`): the object's slot is of the class's own spelling.
    EXPECT_NE(cpp.find("using __mc_t1 = typename Runner<float, 60>::publisher_t;"), std::string::npos) << cpp;
    EXPECT_NE(cpp.find("typename Runner<float, 60>::publisher_t::value_type mine_i"), std::string::npos) << cpp;
    EXPECT_NE(cpp.find("pub.tile[pub.index %__mc_div->* Runner<float, 60>::publisher_t::slots]"), std::string::npos) << cpp;
    EXPECT_NE(cpp.find("( & pub )->tile[(pub.index + 1) %__mc_div->* ( Runner<float, 60>::padded )]"), std::string::npos)
        << cpp;
}

// Test MLX sort's shape: the kernel calls a static member function through its alias of the
// class, which calls a static member function of a class named by a member alias, which calls
// a sibling static member; all inlined, a type named through a member alias is written
// without `typename` where it qualifies a call.
TEST(HelperInlining, StaticMembersThroughMemberAliases) {
    const std::string classes = R"(
template <typename T>
struct Swap {
    static void order(thread T& a, thread T& b) { if (b < a) { T t = a; a = b; b = t; } }
};
template <typename T, short N>
struct BlockSort {
    using value_t = T;
    using pair_t = Swap<T>;
    static T smaller(T a, T b) { return min(a, b); }
    static void sort(threadgroup T* tile, uint lid) {
        value_t a = tile[(2 * lid) % N];
        value_t b = tile[(2 * lid + 1) % N];
        pair_t::order(a, b);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        tile[(2 * lid) % N] = smaller(a, b);
        tile[(2 * lid + 1) % N] = b;
    }
};
template <typename T, short N>
struct KernelSort {
    using block_t = BlockSort<T, N>;
    static constexpr short size = N;
    static void block_sort(threadgroup T* tile, uint lid) {
        threadgroup_barrier(mem_flags::mem_threadgroup);
        block_t::sort(tile, lid);
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
};
)";
    const Translation t = translateSnippet(classes + kKernelHead + "    using sort_kernel = KernelSort<float, 64>;\n"
                                                                   "    threadgroup float tile[sort_kernel::size];\n"
                                                                   "    tile[lid % 64] = out[lid];\n"
                                                                   "    sort_kernel::block_sort(tile, lid);\n"
                                                                   "    out[lid] = tile[lid % 64];\n}\n");
    EXPECT_TRUE(kernelK(t).usesWorkItemLoops) << kernelK(t).workItemLoopsRefusal;
    const std::string cpp = flat(t.cpp);
    EXPECT_NE(cpp.find("KernelSort<float, 64>::block_t::pair_t::order(a_i"), std::string::npos) << cpp;
    EXPECT_NE(cpp.find("KernelSort<float, 64>::block_t::smaller(a_i"), std::string::npos) << cpp;
    EXPECT_NE(cpp.find("typename KernelSort<float, 64>::block_t::value_t a_i"), std::string::npos) << cpp;
}

// Test the aliases and qualified calls that are not followed, each with its reason.
TEST(HelperInlining, AliasAndStaticMemberRefusals) {
    const std::string head = kAliasedPublisher + kKernelHead + "    threadgroup float tile[64];\n"
                                                               "    using runner_t = Runner<float, 60>;\n"
                                                               "    float v = out[lid];\n";
    const auto reason = [&](const std::string& body) { return fibersReason(head + body + "    out[lid] = v;\n}\n"); };
    // The deduced argument given as a variable, whose type the front end does not know.
    EXPECT_NE(reason("    thread typename runner_t::publisher_t pub(tile, lid);\n    Twice<true> twice;\n"
                     "    runner_t::run(pub, v, twice);\n")
                  .find("the call of 'run' deduces its template argument 'TWICE' from what is not `C<args>{...}`"),
              std::string::npos);
    // The class's own template parameter deduced (a class template named without arguments).
    EXPECT_NE(reason("    Publisher<float, 64> pub(tile, lid);\n    Runner::run<true>(pub, v);\n")
                  .find("the class of the call of 'run' deduces its template arguments"),
              std::string::npos);
    // Without the `using namespace`, the helper's names might mean something else in the kernel.
    std::string hidden = head;
    hidden.replace(hidden.find("using namespace lib::tiles;"), 27, "using lib::tiles::Runner;");
    EXPECT_NE(fibersReason(hidden + "    thread typename runner_t::publisher_t pub(tile, lid);\n"
                                    "    runner_t::run(pub, v, Twice<true>{});\n    out[lid] = v;\n}\n")
                  .find("is defined in another namespace than the kernel, whose names it does not use"),
              std::string::npos);
}

// Test that the aliases of nested blocks, an inlined helper's and a block's of the kernel, are
// replaced by their types, so that variables of those types that live across barriers have
// slots per thread; an alias whose type is not one name stays, and keeps the fibers.
TEST(HelperInlining, NestedAliasesReplacedByTheirTypes) {
    const std::string helper = "template <typename T>\nvoid h(threadgroup T* p, uint lid) {\n"
                               "    typedef T value_t;\n    value_t mine = value_t(p[lid]);\n"
                               "    threadgroup_barrier(mem_flags::mem_threadgroup);\n    p[lid] = mine + p[0];\n}\n";
    const std::string head = helper + kKernelHead + "    threadgroup float partial[64];\n    partial[lid % 64] = out[lid];\n";
    const Translation t = translateSnippet(head + "    {\n        using acc_t = metal::float2;\n"
                                                  "        acc_t w = acc_t(out[lid]);\n"
                                                  "        threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                                                  "        out[lid] = w.x;\n    }\n    h<float>(partial, lid);\n}\n");
    EXPECT_TRUE(kernelK(t).usesWorkItemLoops) << kernelK(t).workItemLoopsRefusal;
    const std::string cpp = flat(t.cpp);
    EXPECT_NE(cpp.find("float mine_i"), std::string::npos) << cpp;
    EXPECT_NE(cpp.find("metal::float2(out[lid])"), std::string::npos) << cpp;
    const auto refusal = [&](const std::string& body) { return kernelK(translateSnippet(head + body)).workItemLoopsRefusal; };
    // Two words: `count_t(3)` could not be written `unsigned int(3)`.
    EXPECT_NE(refusal("    {\n        typedef unsigned int count_t;\n        count_t c = lid;\n"
                      "        threadgroup_barrier(mem_flags::mem_threadgroup);\n        out[lid] = c;\n    }\n}\n")
                  .find("'c' lives across a barrier but cannot have a slot per thread"),
              std::string::npos);
    // The alias's name declared again elsewhere in the kernel.
    EXPECT_NE(refusal("    {\n        using acc_t = float;\n        acc_t w = out[lid];\n"
                      "        threadgroup_barrier(mem_flags::mem_threadgroup);\n        out[lid] = w;\n    }\n"
                      "    {\n        using acc_t = int;\n    }\n}\n")
                  .find("'w' lives across a barrier but cannot have a slot per thread"),
              std::string::npos);
    // The kernel body's own alias (sdpa_vector's `typedef float U;`), also of a template's member.
    EXPECT_TRUE(kernelK(translateSnippet(head + "    typedef float U;\n    using V = typename metal::vec<U, 2>;\n"
                                                "    U u = out[lid];\n    V w = V(u);\n"
                                                "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                                                "    out[lid] = u + w.y;\n}\n"))
                    .usesWorkItemLoops);
}

// Test the reasons the shapes of metal-flash-attention and candle's reductions keep the fibers
// with: a member function called on an array's element, and a functor's `operator()` that
// synchronises, called on a parameter of an overloaded helper.
TEST(HelperInlining, ElementMembersAndFunctorsKeepTheFibersWithAReason) {
    const std::string storage = "struct Frag {\n    float v;\n    void multiply(threadgroup float* t, uint lid) {\n"
                                "        t[lid % 4] = v;\n        simdgroup_barrier(mem_flags::mem_threadgroup);\n"
                                "        v = t[(lid + 1) % 4];\n    }\n};\n";
    EXPECT_NE(fibersReason(storage + kKernelHead + "    threadgroup float t[4];\n    Frag c_sram[2];\n"
                                                   "    for (int i = 0; i < 2; ++i) c_sram[i].multiply(t, lid);\n}\n")
                  .find("the call is not inlined: 'multiply' is called as a member function of an object that is not a name"),
              std::string::npos);
    const std::string reducer = R"(
struct Sum {
    float operator()(float a, float b) const { return a + b; }
};
template <typename Op>
struct BlockReducer {
    threadgroup float* shared;
    float operator()(float v, uint lid, uint size) {
        Op op;
        shared[lid] = simd_shuffle_down(v, 1u);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        float total = 0.0f;
        for (uint i = 0; i < size; ++i) total = op(total, shared[i]);
        return total;
    }
};
template <typename R>
void reduce(thread R& reducer, device float* out, uint lid, uint size) { out[lid] = reducer(out[lid], lid, size); }
template <typename R>
void reduce(thread R& reducer, device half* out, uint lid, uint size) { out[lid] = half(reducer(float(out[lid]), lid, size)); }
)";
    const std::string why = fibersReason(reducer + kKernelHead + "    threadgroup float shared[1024];\n"
                                                                 "    BlockReducer<Sum> r{shared};\n"
                                                                 "    reduce(r, out, lid, size);\n}\n");
    EXPECT_NE(why.find("the call is not inlined: more than one function is named 'reduce'"), std::string::npos) << why;
}

// Test that of overloads (free functions, or members of the call's class), the one the argument
// count fits is the one inlined; a member of the same name is not a candidate of a kernel's
// unqualified call.
TEST(HelperInlining, OverloadChosenByArgumentCount) {
    const std::string overloads = R"(
void step(threadgroup float* t, uint lid) { t[lid] = 1.0f; threadgroup_barrier(mem_flags::mem_threadgroup); }
void step(threadgroup float* t, uint lid, float v) { t[lid] = v; threadgroup_barrier(mem_flags::mem_threadgroup); }
struct Walker { void step(uint lid) {} };
struct Twice {
    static void run(threadgroup float* t, uint lid) { t[lid] += 1.0f; threadgroup_barrier(mem_flags::mem_threadgroup); }
    static void run(threadgroup float* t) {}
};
)";
    EXPECT_EQ(fibersReason(overloads + kKernelHead + "    threadgroup float t[1024];\n"
                                                     "    step(t, lid, 2.0f);\n"
                                                     "    Twice::run(t, lid);\n"
                                                     "    out[lid] = t[lid];\n}\n"),
              "");
}

// Test the GEMM of bench/steel_gemm.metal, shaped as MLX's steel GEMM (a tile copier and a tile
// multiplier, class templates whose member functions the kernel calls around two barriers per
// K step): the multiplier's member function is inlined, its products, in loops of the class's
// constants, become statements of the kernel, which is split; the copier's members, which do
// not synchronise, stay calls. Its twin calls the multiplier through a pointer and says why.
TEST(HelperInlining, SteelShapedGemmIsSplit) {
    std::ifstream file(METALCPU_TEST_SOURCE_DIR "/bench/steel_gemm.metal");
    // Preprocessed, as the front end reads it: without its #include line.
    std::string source, line;
    while (std::getline(file, line))
        if (!line.starts_with("#include")) source += line + "\n";
    ASSERT_NE(source.find("kernel void steel_gemm("), std::string::npos);
    const Translation t = translateSnippet(source);
    const KernelInfo* split = nullptr;
    const KernelInfo* fibers = nullptr;
    for (const KernelInfo& k : t.kernels) {
        if (k.hostName == "steel_gemm") split = &k;
        if (k.hostName == "steel_gemm_on_fibers") fibers = &k;
    }
    ASSERT_TRUE(split && fibers);
    EXPECT_TRUE(split->usesWorkItemLoops) << split->workItemLoopsRefusal;
    EXPECT_FALSE(fibers->usesWorkItemLoops || fibers->usesCoroutines);
    EXPECT_NE(fibers->workItemLoopsRefusal.find("the call is not inlined: 'multiply' is called as a member function "
                                                "of an object that is not a name"),
              std::string::npos)
        << fibers->workItemLoopsRefusal;
    const std::string cpp = flat(t.cpp);
    EXPECT_NE(cpp.find("simd_deposit_product<decltype(::metalcpu_kernel::simd_destination(mma_op.acc[i_i"),
              std::string::npos)
        << cpp;
    EXPECT_NE(cpp.find("TileMultiplier<float, 32, 32, 16, 2, 2>::frags_n + j_i"), std::string::npos) << cpp;
    EXPECT_NE(cpp.find("loader_a.copy_bounded("), std::string::npos) << cpp;
}

} // namespace
} // namespace metalcpu::msl
