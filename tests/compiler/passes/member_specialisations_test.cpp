#include "compiler/passes/member_specialisations.h"

#include "compiler/compiler_test_util.h"
#include "compiler/passes/address_spaces.h"
#include "compiler/passes/member_overloads.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source) {
    auto p = testing::parse(source);
    std::string out = testing::runPass(*p, rewriteMemberSpecialisations);
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
    return out;
}

// Test that a member template's explicit specialisation in its class (MLX reduction/ops.h's
// Max::operator() for complex64_t) becomes an overload with the primary's template and
// function parameters, constrained to the arguments it specialises: deduced from the function
// type, or as written after the name.
TEST(MemberSpecialisations, BecomeConstrainedOverloads) {
    EXPECT_EQ(rewrite("template <typename U> struct Max {\n"
                      "  template <typename T> T operator()(T a, T b) { return a; }\n"
                      "  template <> C operator()(C a, C b) { return b; }\n"
                      "  template <typename T> T f(T a);\n"
                      "  template <> int f<int>(int x) { return x; }\n"
                      "};"),
              "template <typename U> struct Max {\n"
              "template <typename T> T operator()(T a, T b) { return a; }\n"
              "template <typename T> requires (::metalcpu_kernel::same_type<void(T a, T b), void(C a, C b)>) "
              "C operator()(T a, T b) { return b; }\n"
              "template <typename T> T f(T a);\n"
              "template <typename T> requires (::metalcpu_kernel::same_type<T, int> && "
              "::metalcpu_kernel::same_type<void(T a), void(int x)>) int f(T x) { return x; }\n"
              "};");
}

// Test that values are pinned by comparison, parameters not written nor deducible by their
// defaults, and that the primary's default arguments and unnamed parameters carry over with
// the specialisation's names.
TEST(MemberSpecialisations, PinsValuesAndDefaults) {
    EXPECT_EQ(rewrite("struct S {\n"
                      "  template <typename T, int N = 2> T g(T, int k = N);\n"
                      "  template <> float g<float, 3>(float a, int b) { return a * b; }\n"
                      "  template <typename T, int N = 4> T h(const T& x);\n"
                      "  template <> float h(const float& y) { return y; }\n"
                      "};"),
              "struct S {\n"
              "template <typename T, int N = 2> T g(T, int k = N);\n"
              "template <typename T, int N = 2> requires (::metalcpu_kernel::same_type<T, float> && (N == (3)) && "
              "::metalcpu_kernel::same_type<void(T, int k), void(float a, int b)>) float g (T a, int b = N) "
              "{ return a * b; }\n"
              "template <typename T, int N = 4> T h(const T& x);\n"
              "template <typename T, int N = 4> requires ((N == (4)) && "
              "::metalcpu_kernel::same_type<void(const T& x), void(const float& y)>) float h(const T& y) "
              "{ return y; }\n"
              "};");
}

// Test that the parameters copied from the primary carry the edits of earlier passes.
TEST(MemberSpecialisations, CopiesRewrittenParameters) {
    auto p = testing::parse("struct S {\n"
                            "  template <typename T> T load(device const T* p);\n"
                            "  template <> float load<float>(device const float* q) { return q[0]; }\n"
                            "};");
    EXPECT_EQ(testing::runPasses(*p, {rewriteAddressSpaces, rewriteMemberSpecialisations}),
              "struct S {\n"
              "template <typename T> T load( const T* p);\n"
              "template <typename T> requires (::metalcpu_kernel::same_type<T, float> && "
              "::metalcpu_kernel::same_type<void(const T* p), void(const float* q)>) float load(const T* q) "
              "{ return q[0]; }\n"
              "};");
}

// Test that a specialisation whose arguments cannot be pinned (a parameter pack, a name of the
// primary's parameters used in it) becomes an ordinary member, which deduced calls reach.
TEST(MemberSpecialisations, UnpinnedBecomeOrdinaryMembers) {
    EXPECT_EQ(rewrite("struct T {};\n"
                      "struct S {\n"
                      "  template <typename... A> void v(A... a) {}\n"
                      "  template <> void v(int a) {}\n"
                      "  template <typename T> int w(T a) { return 0; }\n"
                      "  template <> int w<int>(int a) { T t; return 1; }\n"
                      "};"),
              "struct T {};\n"
              "struct S {\n"
              "template <typename... A> void v(A... a) {}\n"
              "void v(int a) {}\n"
              "template <typename T> int w(T a) { return 0; }\n"
              "int w(int a) { T t; return 1; }\n"
              "};");
}

// Test that an ordinary member in a file that also calls the template with explicit
// arguments is an error at the specialisation, with a note at the call: that call would reach
// the primary.
TEST(MemberSpecialisations, UnpinnedWithExplicitCallIsAnError) {
    auto p = testing::parse("struct S {\n"
                            "  template <typename... A> int v(A... a) { return 0; }\n"
                            "  template <> int v(int a) { return 1; }\n"
                            "};\n"
                            "int use(S s) { return s.v<int>(1); }");
    testing::runPass(*p, rewriteMemberSpecialisations);
    ASSERT_EQ(p->messages().size(), 2u);
    EXPECT_EQ(p->messages()[0],
              "test.metal:3:19: error: this explicit specialisation of member template 'v' is reached only by "
              "calls that deduce its template arguments (metalcpu cannot tell which arguments it specialises: "
              "write them out after its name)");
    EXPECT_EQ(p->messages()[1], "test.metal:5:25: note: a call naming the template arguments of 'v' is here");
}

// Test that specialisations at namespace scope, which GCC accepts, stay.
TEST(MemberSpecialisations, NamespaceScopeStays) {
    const char* source = "template <typename T> T g(T a) { return a; }\n"
                         "template <> int g<int>(int a) { return a; }";
    EXPECT_EQ(rewrite(source), source);
}

// Test that a specialisation address-space-overloads erased stays erased, without a second
// rewrite (an overlap report), and the one it kept is rewritten.
TEST(MemberSpecialisations, SkipsErasedOverloads) {
    auto p = testing::parse("struct S {\n"
                            "  template <typename T> T f() thread;\n"
                            "  template <> int f<int>() device { return 1; }\n"
                            "  template <> int f<int>() thread { return 1; }\n"
                            "};");
    EXPECT_EQ(testing::runPasses(*p, {collapseAddressSpaceOverloads, rewriteMemberSpecialisations}),
              "struct S {\n"
              "template <typename T> T f() thread;\n"
              "\n"
              "template <typename T> requires (::metalcpu_kernel::same_type<T, int> && "
              "::metalcpu_kernel::same_type<void(), void()>) int f() thread { return 1; }\n"
              "};");
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
}

} // namespace
} // namespace metalcpu::msl
