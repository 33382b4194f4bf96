#include "compiler/passes/vector_conversions.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

struct Result {
    std::string text;
    std::vector<std::string> messages;
};

Result convert(std::string_view source) {
    auto p = testing::parse(source);
    Result r;
    r.text = testing::runPass(*p, rewriteVectorConversions);
    r.messages = p->messages();
    return r;
}

// Test that the builtin becomes the library's conversion with its type as a tag, the value's
// tokens left where they are (other passes' edits inside it stay), a type with template
// arguments and a value with commas of its own included.
TEST(VectorConversions, BecomeTheLibrarysConversion) {
    Result r = convert("void f(half4 v) { float4 a = __builtin_convertvector(v, float4); "
                       "auto b = __builtin_convertvector(g(v, 1), vec<int, 4>); }");
    EXPECT_EQ(r.text, "void f(half4 v) { float4 a = ::metalcpu_kernel::convert_vector(v, "
                      "::metalcpu_kernel::vector_type<float4>{}); auto b = ::metalcpu_kernel::convert_vector(g(v, 1), "
                      "::metalcpu_kernel::vector_type<vec<int, 4>>{}); }");
    EXPECT_TRUE(r.messages.empty()) << r.messages[0];
}

// Test that a call without its two arguments is an error at the builtin, not GCC's text about
// the translated code.
TEST(VectorConversions, MissingArgumentsAreErrors) {
    EXPECT_EQ(convert("void f(half4 v) { float4 a = __builtin_convertvector(v); }").messages,
              (std::vector<std::string>{"test.metal:1:30: error: '__builtin_convertvector' takes a vector and a "
                                        "vector type: __builtin_convertvector(value, float4)"}));
    EXPECT_EQ(convert("void f(half4 v) { float4 a = __builtin_convertvector(, float4); }").messages.size(), 1u);
    EXPECT_EQ(convert("void f() { auto a = __builtin_convertvector; }").messages,
              (std::vector<std::string>{"test.metal:1:21: error: expected '(' after '__builtin_convertvector'"}));
}

} // namespace
} // namespace metalcpu::msl
