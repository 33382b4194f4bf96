#include "compiler/passes/threadgroup_variables.h"

#include "compiler/compiler_test_util.h"
#include "compiler/unit.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

struct Result {
    std::string text;
    std::vector<ThreadgroupDeclaration> declarations;
    std::vector<std::string> messages;
};

/// The declarations found with `fileKey`, and the text after the pass (whose file key,
/// testing::runPass()'s, is 1).
Result rewrite(std::string_view source, std::uint64_t fileKey = 1) {
    auto p = testing::parse(source);
    Result r;
    r.declarations = findThreadgroupVariables(Unit(p->tokens, p->partner, p->module), fileKey, p->diagnostics);
    r.text = testing::runPass(*p, rewriteThreadgroupVariables);
    r.messages = p->messages();
    return r;
}

// Test that a threadgroup array in a kernel's loop becomes a reference to per-group storage,
// with the element type and dimensions as written and the kernel's group parameter.
TEST(ThreadgroupVariables, ArrayInKernelLoop) {
    Result r = rewrite("kernel void k() {\n  for (;;) {\n    threadgroup float As[BS][BS];\n  }\n}");
    EXPECT_EQ(r.text,
              "kernel void k() {\nfor (;;) {\n"
              "auto& As = ::metalcpu_kernel::threadgroup_variable<float[BS][BS], 0x100001ull>(__mc_group);\n}\n}");
    ASSERT_EQ(r.declarations.size(), 1u);
    EXPECT_EQ(r.declarations[0].declarators[0].name, "As");
    EXPECT_EQ(r.declarations[0].declarators[0].key, 0x100001u);
}

// Test that each declarator gets its own statement and site key, keyed by the file key.
TEST(ThreadgroupVariables, SeveralDeclarators) {
    Result r = rewrite("kernel void k() { threadgroup int count, flags[4]; }", 3);
    EXPECT_EQ(
        r.text,
        "kernel void k() { auto& count = ::metalcpu_kernel::threadgroup_variable<int, 0x100001ull>(__mc_group); "
        "auto& flags = ::metalcpu_kernel::threadgroup_variable<int[4], 0x100002ull>(__mc_group); }");
    ASSERT_EQ(r.declarations.size(), 1u);
    ASSERT_EQ(r.declarations[0].declarators.size(), 2u);
    EXPECT_EQ(r.declarations[0].declarators[0].key, 0x300001u);
    EXPECT_EQ(r.declarations[0].declarators[1].key, 0x300002u);
}

// Test that helpers (templates included) pass nullptr: the runtime finds the group itself.
TEST(ThreadgroupVariables, HelperFunctions) {
    Result r = rewrite("template <typename T, int N> void h() { threadgroup vec<T, 2> tile[N * 2]; }");
    EXPECT_EQ(r.text, "template <typename T, int N> void h() { auto& tile = "
                      "::metalcpu_kernel::threadgroup_variable<vec<T, 2>[N * 2], 0x100001ull>(nullptr); }");
}

// Test that pointers and references to threadgroup memory are not threadgroup variables.
TEST(ThreadgroupVariables, PointersAreNotVariables) {
    Result r =
        rewrite("void h(threadgroup float* s) { threadgroup float* p = s + 1; threadgroup float& r = *s; }");
    EXPECT_TRUE(r.declarations.empty());
    EXPECT_EQ(r.text,
              "void h(threadgroup float* s) { threadgroup float* p = s + 1; threadgroup float& r = *s; }");
}

// Test that initializers are reported: MSL forbids them.
TEST(ThreadgroupVariables, InitializerIsAnError) {
    Result r = rewrite("kernel void k() { threadgroup int n = 0; }");
    EXPECT_EQ(r.messages,
              (std::vector<std::string>{
                  "test.metal:1:37: error: threadgroup variable 'n' cannot have an initializer"}));
}

// Test that threadgroup variables at namespace scope are reported.
TEST(ThreadgroupVariables, NamespaceScopeIsAnError) {
    Result r = rewrite("threadgroup float shared[32];\nthreadgroup float* p;");
    EXPECT_EQ(r.messages,
              (std::vector<std::string>{
                  "test.metal:1:1: error: threadgroup variables must be declared inside a function"}));
}

// Test the key literal format.
TEST(ThreadgroupVariables, KeyLiteral) {
    EXPECT_EQ(siteKeyLiteral(0x1234500001ull), "0x1234500001ull");
}

// Test that the statement takes over what earlier passes did to the declaration (the
// threadgroup keyword, a division in a bound) and carries their edits, without an overlap.
TEST(ThreadgroupVariables, TakesOverEarlierEdits) {
    auto p = testing::parse("kernel void k() { threadgroup float s[64 / 2]; }");
    const std::string text = testing::runPassesUntil(*p, "threadgroup-variables");
    EXPECT_NE(text.find("auto& s = ::metalcpu_kernel::threadgroup_variable<float[64 /__mc_div->* 2], 0x100001ull>"
                        "(__mc_group);"),
              std::string::npos)
        << text;
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
}

// Test that a declaration after an attribute is one (the statement trees see past the
// attributes; the lexical test before them did not, and the variable silently became a
// per-thread one).
TEST(ThreadgroupVariables, AfterAnAttribute) {
    Result r = rewrite("kernel void k() { [[maybe_unused]] threadgroup float a[4]; }");
    EXPECT_EQ(r.text, "kernel void k() { [[maybe_unused]] auto& a = "
                      "::metalcpu_kernel::threadgroup_variable<float[4], 0x100001ull>(__mc_group); }");
    EXPECT_TRUE(r.messages.empty());
}

// Test that a declaration with GNU attributes or alignas, before `threadgroup`, after it,
// after the type or after the declarator (tinygrad writes `threadgroup
// __attribute__((aligned(16))) float buf0[16];`), is one, its attributes dropped from the type
// and their alignment passed on; before, these silently became per-thread arrays or failed
// with a misleading message.
TEST(ThreadgroupVariables, AttributesAnywhere) {
    const char* const kAligned = "kernel void k() { auto& b = ::metalcpu_kernel::threadgroup_variable<float[16], "
                                 "0x100001ull, 0, true, (16)>(__mc_group); }";
    for (const char* source : {
             "kernel void k() { threadgroup __attribute__((aligned(16))) float b[16]; }",
             "kernel void k() { __attribute__((aligned(16))) threadgroup float b[16]; }",
             "kernel void k() { threadgroup float __attribute__((aligned(16))) b[16]; }",
             "kernel void k() { threadgroup float b[16] __attribute__((aligned(16))); }",
             "kernel void k() { threadgroup alignas(16) float b[16]; }",
             "kernel void k() { alignas(16) threadgroup float b[16]; }",
             "kernel void k() { threadgroup float b[16] [[gnu::aligned(16)]]; }",
             "kernel void k() { __attribute__((unused, aligned(16))) threadgroup float b[16]; }",
         }) {
        Result r = rewrite(source);
        EXPECT_EQ(r.text, kAligned) << source;
        EXPECT_TRUE(r.messages.empty()) << source << ": " << r.messages[0];
        ASSERT_EQ(r.declarations.size(), 1u) << source;
    }
    // Attributes that ask for no alignment are dropped; the largest of several counts; GCC's
    // `aligned` alone is its largest alignment; alignas of a type is that type's.
    EXPECT_EQ(rewrite("kernel void k() { __attribute__((unused)) threadgroup float b[4]; }").text,
              "kernel void k() { auto& b = ::metalcpu_kernel::threadgroup_variable<float[4], 0x100001ull>(__mc_group); }");
    EXPECT_EQ(rewrite("kernel void k() { alignas(8) threadgroup float b[4] __attribute__((aligned(32))); }").text,
              "kernel void k() { auto& b = ::metalcpu_kernel::threadgroup_variable<float[4], 0x100001ull, 0, true, "
              "((32) > (8) ? (32) : (8))>(__mc_group); }");
    EXPECT_EQ(rewrite("kernel void k() { threadgroup __attribute__((aligned)) int b; }").text,
              "kernel void k() { auto& b = ::metalcpu_kernel::threadgroup_variable<int, 0x100001ull, 0, true, "
              "__BIGGEST_ALIGNMENT__>(__mc_group); }");
    EXPECT_EQ(rewrite("kernel void k() { threadgroup alignas(double) int b; }").text,
              "kernel void k() { auto& b = ::metalcpu_kernel::threadgroup_variable<int, 0x100001ull, 0, true, "
              "alignof(double)>(__mc_group); }");
    // A qualifier before `threadgroup` belongs to the type.
    EXPECT_EQ(rewrite("kernel void k() { volatile threadgroup int b[2]; }").text,
              "kernel void k() { auto& b = ::metalcpu_kernel::threadgroup_variable<volatile int[2], 0x100001ull>"
              "(__mc_group); }");
}

// Test that an attribute-led declaration in a branch keeps the branch's condition, and one in
// a lambda is found too: the statement is the one that starts at the attribute.
TEST(ThreadgroupVariables, AttributesInBranchesAndLambdas) {
    Result r = rewrite("kernel void k() { if (1) { alignas(16) threadgroup int t[2]; } "
                       "auto g = [&] { __attribute__((aligned(16))) threadgroup int u; }; }");
    EXPECT_EQ(r.text, "kernel void k() { if (1) { auto& t = ::metalcpu_kernel::threadgroup_variable<int[2], "
                      "0x100001ull, 0, !(__builtin_constant_p(1) && !(1)), (16)>(__mc_group); } "
                      "auto g = [&] { auto& u = ::metalcpu_kernel::threadgroup_variable<int, 0x100002ull, 0, true, (16)>"
                      "(__mc_group); }; }");
    EXPECT_TRUE(r.messages.empty()) << r.messages[0];
}

// Test that a threadgroup object the pass cannot place (not a declaration statement of its
// own) is an error naming it, never a per-thread variable, while pointer types stay allowed.
TEST(ThreadgroupVariables, UnplacedObjectsAreErrors) {
    EXPECT_EQ(rewrite("kernel void k() { for (threadgroup int i = 0; ; ) { } }").messages,
              (std::vector<std::string>{"test.metal:1:24: error: threadgroup variable 'i' must be declared by a "
                                        "declaration statement of its own in a function body"}));
    EXPECT_TRUE(rewrite("kernel void k(threadgroup int* s) { for (threadgroup int* p = s; ; ) { } }").messages.empty());
}

// Test that declarations in a lambda's body are found, nested blocks and trailing return
// types included: the statement trees hold only the function's own statements. The lambda's
// own `if` is the declaration's branch (the else of `if (1)`: it never counts).
TEST(ThreadgroupVariables, InLambdas) {
    Result r = rewrite("kernel void k() { auto g = [&]() mutable -> int { if (1) { } else { threadgroup int t[2]; } "
                       "return 0; }; }");
    EXPECT_EQ(r.text, "kernel void k() { auto g = [&]() mutable -> int { if (1) { } else { auto& t = "
                      "::metalcpu_kernel::threadgroup_variable<int[2], 0x100001ull, 0, !(__builtin_constant_p(1) && (1))>"
                      "(__mc_group); } return 0; }; }");
    EXPECT_EQ(r.declarations.size(), 1u);
}

// Test that a declaration in a local class's member function, which the pass cannot give
// its group, is an error naming the variable instead of a silent per-thread variable.
TEST(ThreadgroupVariables, LocalClassIsAnError) {
    Result r = rewrite("kernel void k() { struct L { void f() { threadgroup int y; } }; }");
    EXPECT_EQ(r.messages, (std::vector<std::string>{"test.metal:1:41: error: threadgroup variable 'y' must be "
                                                    "declared in a function body or a lambda, not in a local class"}));
}

// Test that a lambda's declarations are its statement tree's (lambdas found by the unit's
// introducer role): one after an attribute is a declaration, and so is one in a lambda whose
// trailing return type has a template argument list with a comma (the old token walk back from
// the `{` stopped at that comma, took the body for a local class's and reported an error).
TEST(ThreadgroupVariables, LambdaStatementsFromTheirTrees) {
    Result r = rewrite("kernel void k() { auto g = [&] { [[maybe_unused]] threadgroup int t[2]; };\n"
                       "  auto h = [&]() -> vec<float, 2> { threadgroup float u; return 0; }; }");
    EXPECT_EQ(r.text, "kernel void k() { auto g = [&] { [[maybe_unused]] auto& t = "
                      "::metalcpu_kernel::threadgroup_variable<int[2], 0x100001ull>(__mc_group); };\n"
                      "auto h = [&]() -> vec<float, 2> { auto& u = "
                      "::metalcpu_kernel::threadgroup_variable<float, 0x100002ull>(__mc_group); return 0; }; }");
    EXPECT_EQ(r.declarations.size(), 2u);
    EXPECT_TRUE(r.messages.empty()) << r.messages[0];
}

// Test that a local class's code is never the function's, whatever is around the declaration:
// after an attribute and in a lambda written in a member function it is still an error.
TEST(ThreadgroupVariables, LocalClassCodeIsNeverTheFunctions) {
    Result r = rewrite("kernel void k() { struct L { void f() { [[maybe_unused]] threadgroup int y; }\n"
                       "  void g() { auto h = [&] { threadgroup int z; }; } }; }");
    EXPECT_TRUE(r.declarations.empty());
    EXPECT_EQ(r.messages, (std::vector<std::string>{
                              "test.metal:1:58: error: threadgroup variable 'y' must be declared in a function body "
                              "or a lambda, not in a local class",
                              "test.metal:2:29: error: threadgroup variable 'z' must be declared in a function body "
                              "or a lambda, not in a local class"}));
}

// Test that pointers stay rewriteAddressSpaces()'s wherever they are declared, and that
// casts and template arguments naming threadgroup are no declarations, in a local class too.
TEST(ThreadgroupVariables, PointersCastsAndTemplateArguments) {
    const std::string source = "kernel void k(threadgroup float* s) { auto p = (threadgroup float*)s;\n"
                               "  auto q = static_cast<threadgroup float*>(s); auto g = [&] { threadgroup float& r = *s; };\n"
                               "  struct L { void f(threadgroup float* a) { threadgroup float* b = a; } }; }";
    Result r = rewrite(source);
    EXPECT_TRUE(r.declarations.empty());
    EXPECT_TRUE(r.messages.empty()) << r.messages[0];
}

// Test that a second declarator that is a pointer is reported (one declaration cannot make
// both a threadgroup variable and a pointer), an initializer of a later declarator too, and a
// declaration whose type the declaration parser does not read.
TEST(ThreadgroupVariables, DeclaratorErrors) {
    EXPECT_EQ(rewrite("kernel void k() { threadgroup float a, *p; }").messages,
              (std::vector<std::string>{"test.metal:1:40: error: expected a variable name in this threadgroup "
                                        "declaration"}));
    EXPECT_EQ(rewrite("kernel void k() { threadgroup float a, b{}; }").messages,
              (std::vector<std::string>{"test.metal:1:41: error: threadgroup variable 'b' cannot have an "
                                        "initializer"}));
    // A type parseDeclaration() does not read is an error, not a per-thread variable.
    EXPECT_EQ(rewrite("kernel void k() { int x; threadgroup decltype(x) y; }").messages,
              (std::vector<std::string>{"test.metal:1:26: error: expected a variable name in this threadgroup "
                                        "declaration"}));
}

// Test that in a body the statement parser cannot delimit (a pragma inside a statement), a
// declaration is still found: in a block that the parser delimits by that block's statements,
// elsewhere where the unit judges a statement to start by the tokens before.
TEST(ThreadgroupVariables, BodiesTheParserCannotDelimit) {
    const std::string source = "kernel void k() { int a = 1\n#pragma unroll\n;\n"
                               "  threadgroup int s; if (a) { threadgroup float t[2]; } }";
    auto p = testing::parse(source);
    EXPECT_EQ(Unit(p->tokens, p->partner, p->module).lexicalBodies(), 1u);
    Result r = rewrite(source);
    ASSERT_EQ(r.declarations.size(), 2u);
    EXPECT_EQ(r.declarations[0].declarators[0].name, "s");
    EXPECT_EQ(r.declarations[1].declarators[0].name, "t");
    EXPECT_TRUE(r.messages.empty()) << r.messages[0];
}

// Test that a kernel template's own variables name their instantiation (a helper with the
// kernel's template header, before it, numbers each), so that each counts its own size.
TEST(ThreadgroupVariables, KernelTemplateOwnsItsVariables) {
    Result r = rewrite("template <typename T, int N = 4> kernel void k() { threadgroup T v[N]; }");
    EXPECT_EQ(r.text, "namespace { template <typename T, int N = 4> constexpr mc_u64 __mc_tg_owner_0() { return "
                      "::metalcpu_kernel::instantiation_owner(__PRETTY_FUNCTION__); } } "
                      "template <typename T, int N = 4> kernel void k() { auto& v = "
                      "::metalcpu_kernel::threadgroup_variable<T[N], 0x100001ull, __mc_tg_owner_0<T, N>()>(__mc_group); }");
    // A pack is passed on expanded; a parameter the body cannot name leaves the largest size.
    EXPECT_NE(rewrite("template <int N, class... Ts> kernel void k() { threadgroup int v[N]; }")
                  .text.find("__mc_tg_owner_0<N, Ts...>()"),
              std::string::npos);
    for (const char* unnamed : {"template <int N, size_t> kernel void k() { threadgroup int v[N]; }",
                                "template <template <class> class O> kernel void k() { threadgroup int v[4]; }",
                                "template <int N> void helper() { threadgroup int v[N]; }"})
        EXPECT_EQ(rewrite(unnamed).text.find("__mc_tg_owner"), std::string::npos) << unnamed;
}

// Test that the glue can name an instantiation's owner only when the arguments as written
// give every parameter without a default.
TEST(ThreadgroupVariables, OwnerNamedByTheWrittenArguments) {
    auto p = testing::parse("template <typename T, int N = 4> kernel void k() { threadgroup T v[N]; } "
                            "template <class... Ts> kernel void j() { threadgroup int v[2]; } "
                            "void u() { g<float>(); g<float, 8>(); g<float, 8, 2>(); }");
    const Unit unit(p->tokens, p->partner, p->module);
    const auto helper = threadgroupOwnerHelper(unit, 0);
    ASSERT_TRUE(helper.has_value());
    EXPECT_EQ(helper->bodyArguments, "T, N");
    EXPECT_EQ(helper->required, 1u);
    // The arguments of the calls of g, as findEntryPoints() gives an instantiation's.
    std::vector<TokenRange> arguments;
    for (std::size_t i = 0; i + 1 < p->tokens.size(); ++i) {
        if (!p->tokens[i].isIdentifier("g")) continue;
        std::size_t close = i + 2;
        while (!p->tokens[close].isPunct(">")) ++close;
        arguments.push_back({i + 2, close});
    }
    ASSERT_EQ(arguments.size(), 3u);
    EXPECT_TRUE(namesThreadgroupOwner(*helper, unit, arguments[0]));
    EXPECT_TRUE(namesThreadgroupOwner(*helper, unit, arguments[1]));
    EXPECT_FALSE(namesThreadgroupOwner(*helper, unit, arguments[2]));
    EXPECT_FALSE(namesThreadgroupOwner(*helper, unit, TokenRange{}));
    const auto pack = threadgroupOwnerHelper(unit, 1);
    ASSERT_TRUE(pack.has_value());
    EXPECT_TRUE(pack->pack);
    EXPECT_EQ(pack->required, 0u);
}

// Test that a variable in a branch says whether the branch can run: a template parameter's
// condition is written into the declaration (false where it is a constant false), as are
// literals and qualified names; a condition with a per-thread variable is left out (the
// branch counts), and so are conditions with an assignment or a lambda.
TEST(ThreadgroupVariables, BranchesThatCannotRun) {
    Result r = rewrite("template <bool A> kernel void k(uint lid [[thread_position_in_grid]]) {\n"
                       "  if (A) { threadgroup float v[8]; threadgroup uint i[8]; }\n"
                       "  else { threadgroup float w[8]; }\n"
                       "  if (lid == 0) { threadgroup int x; }\n"
                       "  if (S::n > 2) { if (A && sizeof(float) == 4) { threadgroup int y; } }\n"
                       "  if (bool b = A) { threadgroup int z; }\n"
                       "}");
    const std::string owner = "__mc_tg_owner_0<A>()";
    for (const std::string& expected :
         {"threadgroup_variable<float[8], 0x100001ull, " + owner + ", !(__builtin_constant_p(A) && !(A))>",
          "threadgroup_variable<uint[8], 0x100002ull, " + owner + ", !(__builtin_constant_p(A) && !(A))>",
          "threadgroup_variable<float[8], 0x100003ull, " + owner + ", !(__builtin_constant_p(A) && (A))>",
          "threadgroup_variable<int, 0x100004ull, " + owner + ">",
          "threadgroup_variable<int, 0x100005ull, " + owner + ", !(__builtin_constant_p(S::n > 2) && !(S::n > 2)) && "
              "!(__builtin_constant_p(A && sizeof(float) == 4) && !(A && sizeof(float) == 4))>",
          "threadgroup_variable<int, 0x100006ull, " + owner + ">"})
        EXPECT_NE(r.text.find(expected), std::string::npos) << expected << "\nin\n" << r.text;
    // Outside a kernel template: no owner, the condition still (an `if (0)` never counts),
    // and a constexpr local is a constant too (`if constexpr` declares nothing).
    const std::string plain = rewrite("kernel void k() { if (0) { threadgroup int v[4]; } constexpr bool kUse = false; "
                                      "if constexpr (kUse) { threadgroup int w[4]; } }")
                                  .text;
    EXPECT_NE(plain.find("threadgroup_variable<int[4], 0x100001ull, 0, !(__builtin_constant_p(0) && !(0))>"),
              std::string::npos)
        << plain;
    EXPECT_NE(plain.find("threadgroup_variable<int[4], 0x100002ull, 0, !(__builtin_constant_p(kUse) && !(kUse))>"),
              std::string::npos)
        << plain;
    ASSERT_EQ(r.declarations.size(), 6u);
    ASSERT_EQ(r.declarations[4].branches.size(), 2u);
    EXPECT_TRUE(r.declarations[2].branches.size() == 1 && !r.declarations[2].branches[0].then);
}

// Test that a variable in a switch's case says whether a case that reaches it can run: the
// labels on its statement and on those control falls through from (not past a `break`); none
// where `default:` reaches it or the condition is per-thread. In a `while` or `for` body it
// says whether the loop's condition first holds; a do-while's body always runs, and a `for`
// condition on its own counter stays unknown.
TEST(ThreadgroupVariables, BranchesOfSwitchesAndLoops) {
    Result r = rewrite("template <int N> kernel void k(uint lid [[thread_position_in_grid]]) {\n"
                       "  switch (N) {\n"
                       "  case 1: { threadgroup float a[8]; break; }\n"
                       "  case 2:\n"
                       "  case 3: { threadgroup float b[8]; }\n"
                       "  case 4: { threadgroup float c[8]; break; }\n"
                       "  case 5: default: { threadgroup float d[8]; }\n"
                       "  }\n"
                       "  switch (lid) { case 0: { threadgroup int e; break; } }\n"
                       "  while (N > 2) { threadgroup int f; break; }\n"
                       "  for (int i = 0; N > 4; ++i) { threadgroup int g; }\n"
                       "  for (int i = 0; i < N; ++i) { threadgroup int h; }\n"
                       "  do { threadgroup int m; } while (N > 8);\n"
                       "}");
    const std::string owner = "__mc_tg_owner_0<N>()";
    for (const std::string& expected :
         {"threadgroup_variable<float[8], 0x100001ull, " + owner + ", !(__builtin_constant_p((N) == (1)) && !((N) == (1)))>",
          "threadgroup_variable<float[8], 0x100002ull, " + owner +
              ", !(__builtin_constant_p((N) == (2) || (N) == (3)) && !((N) == (2) || (N) == (3)))>",
          "threadgroup_variable<float[8], 0x100003ull, " + owner +
              ", !(__builtin_constant_p((N) == (4) || (N) == (2) || (N) == (3)) && !((N) == (4) || (N) == (2) || (N) "
              "== (3)))>",
          "threadgroup_variable<float[8], 0x100004ull, " + owner + ">",
          "threadgroup_variable<int, 0x100005ull, " + owner + ">",
          "threadgroup_variable<int, 0x100006ull, " + owner + ", !(__builtin_constant_p(N > 2) && !(N > 2))>",
          "threadgroup_variable<int, 0x100007ull, " + owner + ", !(__builtin_constant_p(N > 4) && !(N > 4))>",
          "threadgroup_variable<int, 0x100008ull, " + owner + ">",
          "threadgroup_variable<int, 0x100009ull, " + owner + ">"})
        EXPECT_NE(r.text.find(expected), std::string::npos) << expected << "\nin\n" << r.text;
    ASSERT_EQ(r.declarations.size(), 9u);
    ASSERT_EQ(r.declarations[2].branches.size(), 1u);
    EXPECT_EQ(r.declarations[2].branches[0].cases.size(), 3u);
    // A label deeper than the switch's own statements, or a range, leaves the cases unknown.
    for (const char* source : {"template <int N> kernel void k() { switch (N) { case 1: { if (N) { case 2: ; } "
                               "threadgroup int a; } } }",
                               "template <int N> kernel void k() { switch (N) { case 1 ... 3: { threadgroup int a; } } }"}) {
        const Result nested = rewrite(source);
        EXPECT_NE(nested.text.find("threadgroup_variable<int, 0x100001ull, __mc_tg_owner_0<N>()>"), std::string::npos)
            << nested.text;
    }
}

// Test that names the function does not declare count as constants in a branch's condition
// (the library's traits under `using namespace metal`, unqualified), and that the function's
// own variables and parameters do not, however they are written.
TEST(ThreadgroupVariables, BranchesOnUnqualifiedTraits) {
    Result r = rewrite("template <typename T> kernel void k(uint lid [[thread_position_in_grid]]) {\n"
                       "  if (is_same_v<T, half>) { threadgroup half a[8]; }\n"
                       "  if (is_same<T, float>::value && kWide) { threadgroup float b[8]; }\n"
                       "  if (is_same_v<lid, N>) { threadgroup int c; }\n"
                       "  float v = 0; if (v > 1) { threadgroup int d; }\n"
                       "  if (this) { threadgroup int e; }\n"
                       "}");
    const std::string owner = "__mc_tg_owner_0<T>()";
    for (const std::string& expected :
         {"threadgroup_variable<half[8], 0x100001ull, " + owner +
              ", !(__builtin_constant_p(is_same_v<T, half>) && !(is_same_v<T, half>))>",
          "threadgroup_variable<float[8], 0x100002ull, " + owner +
              ", !(__builtin_constant_p(is_same<T, float>::value && kWide) && !(is_same<T, float>::value && kWide))>",
          "threadgroup_variable<int, 0x100003ull, " + owner + ">",
          "threadgroup_variable<int, 0x100004ull, " + owner + ">",
          "threadgroup_variable<int, 0x100005ull, " + owner + ">"})
        EXPECT_NE(r.text.find(expected), std::string::npos) << expected << "\nin\n" << r.text;
}

} // namespace
} // namespace metalcpu::msl
