#include "compiler/passes/member_overloads.h"

#include "compiler/compiler_test_util.h"
#include "compiler/translate.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source, bool checkedPointers = false) {
    auto p = testing::parse(source);
    return testing::runPass(*p, collapseAddressSpaceOverloads, checkedPointers);
}

// Test that overloads on the address space of `this` collapse to the thread one.
TEST(MemberOverloads, KeepsThreadVersion) {
    EXPECT_EQ(rewrite("struct B {\n"
                      "  B() thread = default;\n"
                      "  B() device = default;\n"
                      "  operator float() const device { return 1; }\n"
                      "  operator float() const thread { return 1; }\n"
                      "  operator float() const constant { return 1; }\n"
                      "  template <typename U> U to() const threadgroup { return U(1); }\n"
                      "  template <typename U> U to() const thread { return U(1); }\n"
                      "};"),
              "struct B {\n"
              "B() thread = default;\n"
              "\n"
              "\n"
              "operator float() const thread { return 1; }\n"
              "\n"
              "\n"
              "template <typename U> U to() const thread { return U(1); }\n"
              "};");
}

// Test that members differing in parameters or const-ness are separate overloads and stay.
TEST(MemberOverloads, RealOverloadsStay) {
    std::string source = "struct S {\n"
                         "  void set(float v) device { }\n"
                         "  void set(int v) thread { }\n"
                         "  float get() const device { return 0; }\n"
                         "  float get() device { return 1; }\n"
                         "};";
    EXPECT_EQ(rewrite(source), "struct S {\n"
                               "void set(float v) device { }\n"
                               "void set(int v) thread { }\n"
                               "float get() const device { return 0; }\n"
                               "float get() device { return 1; }\n"
                               "};");
}

// Test that without a thread version the unqualified one is kept, else the first.
TEST(MemberOverloads, FallbackChoice) {
    EXPECT_EQ(rewrite("struct S { int f() device { return 1; } int f() { return 1; } };"),
              "struct S { int f() { return 1; } };");
    EXPECT_EQ(rewrite("struct S { int f() device { return 1; } int f() threadgroup { return 1; } };"),
              "struct S { int f() device { return 1; } };");
}

// Test that overloads of `thread` members chosen by enable_if in the return type all stay
// (the pass once keyed on the name and parameters only and erased all but one).
TEST(MemberOverloads, EnableIfOverloadsStay) {
    std::string source = "struct S {\n"
                         "  template <typename T> enable_if_t<is_integral_v<T>, T> get() thread const { return 1; }\n"
                         "  template <typename T> enable_if_t<!is_integral_v<T>, T> get() thread const { return 2; }\n"
                         "  template <typename T, typename = enable_if_t<is_integral_v<T>>> S(T x) thread { }\n"
                         "  template <typename T, typename = enable_if_t<is_integral_v<T>>> S(T x) device { }\n"
                         "};";
    EXPECT_EQ(rewrite(source), "struct S {\n"
                               "template <typename T> enable_if_t<is_integral_v<T>, T> get() thread const { return 1; }\n"
                               "template <typename T> enable_if_t<!is_integral_v<T>, T> get() thread const { return 2; }\n"
                               "template <typename T, typename = enable_if_t<is_integral_v<T>>> S(T x) thread { }\n"
                               "\n"
                               "};");
}

// Test that free functions overloaded only on the address space of a reference collapse to
// the thread one (MLX complex.h's operator+=), that a prototype and its definition both stay,
// and that overloads on a pointer's address space stay in the checked flavour, where the
// pointers are different types.
TEST(MemberOverloads, FreeFunctionsOnReferenceSpaces) {
    std::string source = "thread C& operator+=(thread C& a, C b) { return a; }\n"
                         "threadgroup C& operator+=(threadgroup C& a, C b) { return a; }\n"
                         "device C& operator+=(device C& a, C b) { return a; }\n"
                         "void g(device float* p);\n"
                         "void g(device float* p) { }\n"
                         "void g(threadgroup float* p) { }";
    EXPECT_EQ(rewrite(source), "thread C& operator+=(thread C& a, C b) { return a; }\n"
                               "\n"
                               "\n"
                               "void g(device float* p);\n"
                               "void g(device float* p) { }\n");
    EXPECT_EQ(rewrite(source, true), "thread C& operator+=(thread C& a, C b) { return a; }\n"
                                     "\n"
                                     "\n"
                                     "void g(device float* p);\n"
                                     "void g(device float* p) { }\n"
                                     "void g(threadgroup float* p) { }");
}

// Test that partial specialisations of a class template that differ only in address spaces
// (MLX steel's type_traits.h) collapse to the thread one, but stay apart in the checked flavour
// where the pointers differ; a thread reference and a device one collapse in both.
TEST(MemberOverloads, ClassSpecialisations) {
    std::string source = "template <typename T> struct pe {};\n"
                         "template <typename T> struct pe<thread T*> { using type = T; };\n"
                         "template <typename T> struct pe<device T*> { using type = T; };\n"
                         "template <typename T> struct pe<threadgroup T*> { using type = T; };\n"
                         "template <typename T> struct pe<device T&> { };\n"
                         "template <typename T> struct pe<thread T&> { };";
    EXPECT_EQ(rewrite(source), "template <typename T> struct pe {};\n"
                               "template <typename T> struct pe<thread T*> { using type = T; };\n"
                               "\n"
                               "\n"
                               "\n"
                               "template <typename T> struct pe<thread T&> { };");
    EXPECT_EQ(rewrite(source, true), "template <typename T> struct pe {};\n"
                                     "template <typename T> struct pe<thread T*> { using type = T; };\n"
                                     "template <typename T> struct pe<device T*> { using type = T; };\n"
                                     "template <typename T> struct pe<threadgroup T*> { using type = T; };\n"
                                     "\n"
                                     "template <typename T> struct pe<thread T&> { };");
}

// Test that a class specialisation that goes, holding member overloads that went already, is
// erased without a second rewrite of their tokens (an overlap report).
TEST(MemberOverloads, NestedCollapses) {
    auto p = testing::parse("template <typename T> struct pe {};\n"
                            "template <typename T> struct pe<thread T*> { int f() thread { return 1; } };\n"
                            "template <typename T> struct pe<device T*> { int f() device { return 1; } "
                            "int f() thread { return 1; } };");
    EXPECT_EQ(testing::runPass(*p, collapseAddressSpaceOverloads),
              "template <typename T> struct pe {};\n"
              "template <typename T> struct pe<thread T*> { int f() thread { return 1; } };\n");
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
}

// Test that overloads chosen by enable_if collapse per condition: each condition's `thread`
// version stays, the other address spaces of the same condition go (issue 10 listed
// enable_if overloads of `thread` members as dropped; this pins that they are not).
TEST(MemberOverloads, EnableIfGroupsCollapseSeparately) {
    EXPECT_EQ(rewrite("struct S {\n"
                      "  template <typename T, enable_if_t<sizeof(T) < 8, bool> = true> T f() const thread { return 1; }\n"
                      "  template <typename T, enable_if_t<sizeof(T) >= 8, bool> = true> T f() const device { return 3; }\n"
                      "  template <typename T, enable_if_t<sizeof(T) >= 8, bool> = true> T f() const thread { return 3; }\n"
                      "  template <typename T, enable_if_t<sizeof(T) < 8, bool> = true> T f() const device { return 1; }\n"
                      "};"),
              "struct S {\n"
              "template <typename T, enable_if_t<sizeof(T) < 8, bool> = true> T f() const thread { return 1; }\n"
              "\n"
              "template <typename T, enable_if_t<sizeof(T) >= 8, bool> = true> T f() const thread { return 3; }\n"
              "\n"
              "};");
}

// Test that overloads on the address space of `this` whose bodies differ are an error naming
// both: the CPU cannot tell the spaces apart, and keeping the thread one would silently run it
// for device objects (overloads on parameters are told apart at their calls:
// address_space_dispatch_test.cpp). A prototype and a definition, and bodies equal but for
// address spaces, collapse.
TEST(MemberOverloads, DifferentBodiesAreAnError) {
    auto p = testing::parse("struct S {\n"
                            "  int f() thread { return 1; }\n"
                            "  int f() device { return 2; }\n"
                            "};");
    testing::runPass(*p, collapseAddressSpaceOverloads);
    EXPECT_EQ(p->messages(),
              (std::vector<std::string>{
                  "test.metal:3:7: error: 'f' is overloaded only on address spaces ('device' here, 'thread' "
                  "in the other) with different bodies: metalcpu runs every address space as one memory and cannot "
                  "choose between them; give the overloads different names or parameter types",
                  "test.metal:2:7: note: the other overload of 'f' is here"}));
    EXPECT_EQ(rewrite("void h(thread float* p, device int& a);\n"
                      "void h(thread float* p, device int& a) { a = 1; }\n"
                      "void h(thread float* p, thread int& a) { a = 1; }"),
              "\n\nvoid h(thread float* p, thread int& a) { a = 1; }");
}

// Test that an overload in an address space metalcpu does not run is never collapsed into its
// supported twin, in either flavour: the address-spaces pass, which runs later, must see it and
// report the space at its qualifier, or the file would compile with that code silently dropped.
// On `this`, a reference, a pointer (the plain flavour collapses those), a class
// specialisation, and a twin whose body differs (no address-space dispatch is tried for it).
TEST(MemberOverloads, UnsupportedSpacesAreReportedNotCollapsed) {
    const std::string_view source = "struct S {\n"
                                    "  int f() thread { return 1; }\n"
                                    "  int f() ray_data { return 1; }\n"
                                    "};\n"
                                    "void g(thread float& x) { x = 1; }\n"
                                    "void g(threadgroup_imageblock float& x) { x = 1; }\n"
                                    "void h(thread float* p) { *p = 1; }\n"
                                    "void h(object_data float* p) { *p = 1; }\n"
                                    "template <typename T> struct pe {};\n"
                                    "template <typename T> struct pe<thread T*> { using type = T; };\n"
                                    "template <typename T> struct pe<ray_data T*> { using type = T; };\n"
                                    "void k(thread int& x) { x = 1; }\n"
                                    "void k(ray_data int& x) { x = 2; }\n";
    for (bool validation : {false, true}) {
        SCOPED_TRACE(validation ? "validation" : "plain");
        TranslateOptions options;
        options.mainFile = "test.metal";
        options.validation = validation;
        const Translation t = translate(source, options);
        EXPECT_FALSE(t.ok);
        EXPECT_EQ(testing::messages(t.diagnostics),
                  (std::vector<std::string>{
                      "test.metal:3:11: error: the ray_data address space is not supported",
                      "test.metal:6:8: error: the threadgroup_imageblock address space is not supported",
                      "test.metal:8:8: error: the object_data address space is not supported",
                      "test.metal:11:33: error: the ray_data address space is not supported",
                      "test.metal:13:8: error: the ray_data address space is not supported",
                  }));
    }
}

// Test that the collapse itself leaves an overload in an unsupported space, and the rest of its
// group collapses as before: the device twin goes, the thread one stays.
TEST(MemberOverloads, UnsupportedSpaceStaysOutOfItsGroup) {
    EXPECT_EQ(rewrite("void g(thread float& x) { x = 1; }\n"
                      "void g(device float& x) { x = 1; }\n"
                      "void g(ray_data float& x) { x = 1; }"),
              "void g(thread float& x) { x = 1; }\n"
              "\n"
              "void g(ray_data float& x) { x = 1; }");
}

} // namespace
} // namespace metalcpu::msl
