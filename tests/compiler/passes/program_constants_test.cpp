#include "compiler/passes/program_constants.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

/// "expression=name" for each constant found in `source`.
std::vector<std::string> constants(std::string_view source) {
    auto p = testing::parse(source);
    std::vector<std::string> out;
    for (const ProgramConstant& c : findProgramConstants(p->tokens, p->partner, p->module))
        out.push_back(c.expression + "=" + c.name);
    return out;
}

// Test that arrays, scalars, vectors and brace-initialised constants are found by name,
// qualified from the global namespace.
TEST(ProgramConstants, FoundAndQualified) {
    EXPECT_EQ(constants("constant float kTable[4] = {1, 2, 3, 4};"), std::vector<std::string>{"::kTable=kTable"});
    EXPECT_EQ(constants("constant uint TILE = 16;"), std::vector<std::string>{"::TILE=TILE"});
    EXPECT_EQ(constants("constant vec<float, 4> kV{1, 2, 3, 4};"), std::vector<std::string>{"::kV=kV"});
    EXPECT_EQ(constants("constexpr constant int kN = 3;"), std::vector<std::string>{"::kN=kN"});
    EXPECT_EQ(constants("namespace a { namespace b { constant int kX = 1; } }"),
              std::vector<std::string>{"::a::b::kX=kX"});
    EXPECT_EQ(constants("namespace { constant int kHidden = 1; }"), std::vector<std::string>{"::kHidden=kHidden"});
}

// Test that functions, types, variable templates and declarations without a constant
// qualifier are left out.
TEST(ProgramConstants, OthersLeftOut) {
    EXPECT_TRUE(constants("float f(int x); struct S { float v[4]; };").empty());
    EXPECT_TRUE(constants("template <typename T> constant T kPi = T(3.14159);").empty());
    EXPECT_TRUE(constants("kernel void k(device float* p) { constant float* q = nullptr; }").empty());
}

} // namespace
} // namespace metalcpu::msl
