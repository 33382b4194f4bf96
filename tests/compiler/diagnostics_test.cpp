// Whole translations that fail, checked by their complete formatted diagnostics.
#include "compiler/translate.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::vector<std::string> diagnose(std::string_view source, std::string mainFile = "k.metal") {
    TranslateOptions options;
    options.mainFile = std::move(mainFile);
    Translation t = translate(source, options);
    EXPECT_FALSE(t.ok);
    return testing::messages(t.diagnostics);
}

// Test the format of a diagnostic, with and without a location.
TEST(Diagnostics, Format) {
    Diagnostic d;
    d.file = "a.metal";
    d.line = 3;
    d.column = 7;
    d.message = "something is wrong";
    EXPECT_EQ(d.format(), "a.metal:3:7: error: something is wrong");
    d.severity = Diagnostic::Severity::Note;
    d.column = 0;
    EXPECT_EQ(d.format(), "a.metal:3: note: something is wrong");
    d.severity = Diagnostic::Severity::Warning;
    d.file.clear();
    EXPECT_EQ(d.format(), "warning: something is wrong");
}

// Test that a kernel's unclosed parameter list is reported where it opens.
TEST(Diagnostics, UnclosedParameterList) {
    EXPECT_EQ(diagnose("kernel void f(device float* a\n{\n}\n"),
              (std::vector<std::string>{
                  "k.metal:4:1: error: expected ')' at the end of the input",
                  "k.metal:1:14: note: to match this '('",
              }));
}

// Test that source strings are reported as program_source, at the .metal line.
TEST(Diagnostics, ProgramSource) {
    EXPECT_EQ(
        diagnose("# 1 \"/tmp/metalcpu-123/source.metal\"\n\nkernel void f(device float* a [[buffer(40)]]) {}",
                 "program_source"),
        (std::vector<std::string>{
            "program_source:2:33: error: buffer index 40 of parameter 'a' is out of range (0 to 30)"}));
}

// Test that diagnostics in included files name the included file.
TEST(Diagnostics, InIncludedFile) {
    EXPECT_EQ(diagnose("# 1 \"main.metal\"\n# 1 \"inc/helpers.h\" 1\nint counter;\n# 2 \"main.metal\" 2\n"),
              (std::vector<std::string>{"inc/helpers.h:1:5: error: program-scope variable 'counter' must be "
                                        "declared in the constant address space"}));
}

// Test the restricted dialect end to end.
TEST(Diagnostics, RestrictedDialect) {
    EXPECT_EQ(
        diagnose("extern \"C\" int system(const char*);\n"
                 "kernel void f(device int* r) { r[0] = system(\"ls\"); }\n"),
        (std::vector<std::string>{
            "k.metal:1:1: error: kernel code cannot declare extern symbols",
            "k.metal:1:16: error: function 'system' is declared but not defined; kernel code can only call "
            "functions it defines",
        }));
}

// Test that an initialized threadgroup variable is reported.
TEST(Diagnostics, ThreadgroupInitializer) {
    EXPECT_EQ(diagnose("kernel void f() {\n  threadgroup float sum = 0.0f;\n}"),
              (std::vector<std::string>{
                  "k.metal:2:25: error: threadgroup variable 'sum' cannot have an initializer"}));
}

// Test that misplaced and malformed function constants are reported at their line.
TEST(Diagnostics, FunctionConstants) {
    EXPECT_EQ(diagnose("constant bool use_bias [[function_constant(0)]] = true;\n"),
              (std::vector<std::string>{
                  "k.metal:1:49: error: function constant 'use_bias' cannot have an initializer or another declarator",
              }));
    EXPECT_EQ(diagnose("struct S { static constant bool b [[function_constant(0)]]; };\n"
                       "kernel void f(device float* a) { float x [[function_constant(1)]] = 0; a[0] = x; }"),
              (std::vector<std::string>{
                  "k.metal:1:37: error: function constant 'b' must be declared at program scope",
                  "k.metal:2:44: error: [[function_constant]] applies only to program-scope constants and kernel arguments",
              }));
    // On a helper's parameter (MFA v1 repeats its kernel's attributes on `_attention_impl`'s),
    // it has no effect, as `[[buffer(n)]]` there, and Apple's compiler builds it; in the
    // helper's body it is still misplaced.
    EXPECT_EQ(diagnose("constant bool masked [[function_constant(0)]];\n"
                       "template <typename T> void impl(device T* m [[buffer(1), function_constant(masked)]]) {\n"
                       "  float x [[function_constant(masked)]] = 0; m[0] = x; }\n"
                       "kernel void f(device float* m [[buffer(1), function_constant(masked)]]) { impl(m); }"),
              (std::vector<std::string>{
                  "k.metal:3:13: error: [[function_constant]] applies only to program-scope constants and kernel "
                  "arguments",
              }));
    EXPECT_EQ(diagnose("constant int n = 2;\n"
                       "kernel void f(device float* a [[buffer(0), function_constant(n)]]) {\n"
                       "  a[0] = is_function_constant_defined(n);\n}"),
              (std::vector<std::string>{
                  "k.metal:3:10: error: is_function_constant_defined() needs the name of a function constant",
                  "k.metal:2:29: error: [[function_constant(n)]] of parameter 'a' must name a program-scope function constant, "
                  "or a program-scope constant computed from them",
              }));
}

// Test that an instantiation of an unknown kernel template is reported.
TEST(Diagnostics, UnknownTemplate) {
    EXPECT_EQ(diagnose("template [[host_name(\"x\")]] kernel void nowhere<float>(device float*);"),
              (std::vector<std::string>{
                  "k.metal:1:41: error: explicit instantiation names 'nowhere', which is not a "
                  "kernel template defined in this file"}));
}

} // namespace
} // namespace metalcpu::msl
