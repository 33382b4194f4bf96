#include "compiler/passes/address_spaces.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source, std::vector<std::string>* messages = nullptr) {
    auto p = testing::parse(source);
    std::string out = testing::runPass(*p, rewriteAddressSpaces);
    if (messages) *messages = p->messages();
    return out;
}

// Test that device, thread and threadgroup disappear from types, casts and member qualifiers.
TEST(AddressSpaces, ErasesQualifiers) {
    EXPECT_EQ(rewrite("device float* p = (device float*)q;"), "float* p = ( float*)q;");
    EXPECT_EQ(rewrite("thread T& r = reinterpret_cast<thread T&>(x);"), "T& r = reinterpret_cast< T&>(x);");
    EXPECT_EQ(rewrite("threadgroup float* tg = shared + 4;"), "float* tg = shared + 4;");
    EXPECT_EQ(rewrite("float get() const thread { return v; }"), "float get() const { return v; }");
}

// Test that constant becomes const unless const already qualifies the same type.
TEST(AddressSpaces, ConstantBecomesConst) {
    EXPECT_EQ(rewrite("constant float* p;"), "const float* p;");
    EXPECT_EQ(rewrite("constant Params& params;"), "const Params& params;");
    EXPECT_EQ(rewrite("constant const float* p;"), "const float* p;");
    EXPECT_EQ(rewrite("const constant T& x;"), "const T& x;");
    EXPECT_EQ(rewrite("static constexpr constant int k = 1;"), "static constexpr const int k = 1;");
    EXPECT_EQ(rewrite("static const constant int k = 1;"), "static const int k = 1;");
    EXPECT_EQ(rewrite("constant float* const p;"), "const float* const p;");
    EXPECT_EQ(rewrite("constant vec<const T, 2>* p;"), "const vec<const T, 2>* p;");
    EXPECT_EQ(rewrite("constant metal::float4 c = 1;"), "const metal::float4 c = 1;");
}

// Test that a constructor or destructor qualified `constant` (the constructor of program-scope
// `constant` objects, as MLX's logging.h writes it before Metal 3.2) loses the qualifier, since
// C++ lets neither be cv-qualified, while other member functions' `constant` becomes `const`.
TEST(AddressSpaces, ConstantConstructorsLoseTheQualifier) {
    EXPECT_EQ(rewrite("struct L { constexpr L(constant char* s) constant {} ~L() constant {} int get() constant; };"),
              "struct L { constexpr L(const char* s) {} ~L() {} int get() const; };");
    EXPECT_EQ(rewrite("template <class T> struct W { W() constant = default; T v; };"),
              "template <class T> struct W { W() = default; T v; };");
}

// Test that member names spelled like qualifiers stay.
TEST(AddressSpaces, MemberNamesStay) {
    EXPECT_EQ(rewrite("x = s.device + p->thread + ns::constant;"),
              "x = s.device + p->thread + ns::constant;");
}

// Test that unsupported address spaces are reported.
TEST(AddressSpaces, Unsupported) {
    std::vector<std::string> messages;
    rewrite("threadgroup_imageblock T* a; ray_data R& r; object_data O* o;", &messages);
    EXPECT_EQ(messages,
              (std::vector<std::string>{
                  "test.metal:1:1: error: the threadgroup_imageblock address space is not supported",
                  "test.metal:1:30: error: the ray_data address space is not supported",
                  "test.metal:1:45: error: the object_data address space is not supported",
              }));
}

} // namespace
} // namespace metalcpu::msl
