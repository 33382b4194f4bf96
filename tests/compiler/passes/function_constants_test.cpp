#include "compiler/passes/function_constants.h"

#include "compiler/compiler_test_util.h"
#include "compiler/passes/member_overloads.h"
#include "compiler/translate.h"
#include "compiler/unit.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

/// "name:type:index:required|optional:helper" for each function constant of `source`.
std::vector<std::string> found(std::string_view source) {
    auto p = testing::parse(source);
    std::vector<std::string> out;
    const Unit unit(p->tokens, p->partner, p->module);
    for (const FunctionConstantDecl& c : findFunctionConstants(unit, p->diagnostics))
        out.push_back(c.name + ":" + c.type + ":" + c.index + ":" + (c.required ? "required" : "optional") + ":" +
                      c.helper);
    EXPECT_TRUE(p->messages().empty()) << p->messages().front();
    return out;
}

std::string rewrite(std::string_view source) {
    auto p = testing::parse(source);
    return testing::runPass(*p, rewriteFunctionConstants);
}

// Test that function constants of every allowed shape are found with their type, index
// expression and companion, and that is_function_constant_defined makes one optional.
TEST(FunctionConstants, Found) {
    EXPECT_EQ(found("constant bool has_bias [[function_constant(0)]];"),
              std::vector<std::string>{"has_bias:bool:0:required:::__mc_fc_has_bias"});
    EXPECT_EQ(found("constant int32_t nsg [[function_constant(600 + 1)]];"),
              std::vector<std::string>{"nsg:int32_t:600 + 1:required:::__mc_fc_nsg"});
    EXPECT_EQ(found("namespace fc { constant metal::float2 offset [[function_constant(3)]]; }"),
              std::vector<std::string>{"offset:metal::float2:3:required:::fc::__mc_fc_offset"});
    EXPECT_EQ(found("constant uint shift [[function_constant(1)]];\n"
                    "kernel void k(device uint* o) { o[0] = is_function_constant_defined(shift) ? shift : 0; }"),
              std::vector<std::string>{"shift:uint:1:optional:::__mc_fc_shift"});
    EXPECT_TRUE(found("constant int n = 4; kernel void k(device int* o [[buffer(0)]]) { o[0] = n; }").empty());
}

// Test that a declaration gets its value from metalcpu_kernel::function_constant, on its own
// line (columns before it unchanged), and is_function_constant_defined becomes its `defined`.
TEST(FunctionConstants, Rewritten) {
    EXPECT_EQ(rewrite("constant bool has_bias [[function_constant(0)]];"),
              "constant bool has_bias [[function_constant(0)]] = ::metalcpu_kernel::function_constant<bool, (0)>::value; "
              "using __mc_fc_has_bias = ::metalcpu_kernel::function_constant<bool, (0)>;");
    EXPECT_EQ(rewrite("constant uint s [[function_constant(1)]];\n"
                      "uint f() { return is_function_constant_defined(s) ? s : 0; }"),
              "constant uint s [[function_constant(1)]] = ::metalcpu_kernel::function_constant<uint, (1)>::value; "
              "using __mc_fc_s = ::metalcpu_kernel::function_constant<uint, (1)>;\n"
              "uint f() { return __mc_fc_s::defined ? s : 0; }");
}

/// The function constants of `source`, each with the entry points that reach it.
std::vector<FunctionConstantDecl> withUsers(std::string_view source) {
    auto p = testing::parse(source);
    const Unit unit(p->tokens, p->partner, p->module);
    std::vector<FunctionConstantDecl> constants = findFunctionConstants(unit, p->diagnostics);
    const CallGraph graph = buildCallGraph(p->tokens, p->partner, p->module);
    findFunctionConstantUsers(unit, graph, findEntryPoints(p->tokens, p->module, p->diagnostics), constants);
    EXPECT_TRUE(p->messages().empty()) << p->messages().front();
    return constants;
}

// Test that each constant lists the kernels whose code reaches it: directly, through a
// helper, through a derived program-scope constant, or through an argument's condition.
TEST(FunctionConstants, Users) {
    std::vector<FunctionConstantDecl> constants =
        withUsers("constant bool a [[function_constant(0)]];\n"
                  "constant int b [[function_constant(1)]];\n"
                  "constant int c [[function_constant(2)]];\n"
                  "constant int d [[function_constant(3)]];\n"
                  "constant int span = b * 2;\n"
                  "int helper() { return c; }\n"
                  "kernel void k1(device int* o [[buffer(0), function_constant(a)]]) { o[0] = span; }\n"
                  "kernel void k2(device int* o [[buffer(0)]]) { o[0] = helper(); }\n");
    ASSERT_EQ(constants.size(), 4u);
    EXPECT_EQ(constants[0].kernels, std::set<std::string>{"k1"});
    EXPECT_EQ(constants[1].kernels, std::set<std::string>{"k1"});
    EXPECT_EQ(constants[2].kernels, std::set<std::string>{"k2"});
    EXPECT_TRUE(constants[3].kernels.empty());
}

// Test that a kernel template whose function-pointer template parameter is called reaches the
// constants of the function its instantiation names, not every constant of the file (ggml's
// kernel_get_rows_q<block_q4_0, 2, dequantize_q4_0>); a function named as a value elsewhere
// (`take(other)`) still counts for an opaque call that is not through the kernel's parameter.
TEST(FunctionConstants, FunctionPointerTemplateArguments) {
    std::vector<FunctionConstantDecl> constants =
        withUsers("constant int fa [[function_constant(0)]];\n"
                  "constant int fb [[function_constant(1)]];\n"
                  "constant int fo [[function_constant(2)]];\n"
                  "constant int fu [[function_constant(3)]];\n"
                  "void deq_a(thread int& r) { r = fa; }\n"
                  "void deq_b(thread int& r) { r = fb; }\n"
                  "void other(thread int& r) { r = fo; }\n"
                  "void take(void (*f)(thread int&), thread int& r) { f(r); }\n"
                  "kernel void uses(device int* o [[buffer(0)]]) { o[0] = fu; }\n"
                  "kernel void via(device int* o [[buffer(0)]]) { int r; take(other, r); o[0] = r; }\n"
                  "template <void (*F)(thread int&)> kernel void k(device int* o [[buffer(0)]]) {\n"
                  "    int r; F(r); o[0] = r; }\n"
                  "template [[host_name(\"k_a\")]] kernel void k<deq_a>(device int*);\n"
                  "template [[host_name(\"k_b\")]] kernel void k<deq_b>(device int*);\n");
    ASSERT_EQ(constants.size(), 4u);
    // take() may call deq_a, deq_b or other: all three are named as values.
    EXPECT_EQ(constants[0].kernels, (std::set<std::string>{"k_a", "via"}));
    EXPECT_EQ(constants[1].kernels, (std::set<std::string>{"k_b", "via"}));
    EXPECT_EQ(constants[2].kernels, std::set<std::string>{"via"});
    EXPECT_EQ(constants[3].kernels, std::set<std::string>{"uses"});
}

// Test that the reflection table names each constant's companion and its kernels (each name
// kept only where its kernel is selected, METALCPU_KERNEL_USER), and that the definition line
// points the module at it.
TEST(FunctionConstants, Table) {
    FunctionConstantDecl c;
    c.name = "nsg";
    c.helper = "::__mc_fc_nsg";
    c.kernels = {"k"};
    EXPECT_EQ(functionConstantsDefinition({c}), "#undef METALCPU_FUNCTION_CONSTANTS\n#define METALCPU_FUNCTION_CONSTANTS 1, __mc_function_constants\n");
    EXPECT_EQ(functionConstantTable({c}),
              "const char* const __mc_fc_users_0[] = {METALCPU_KERNEL_USER(" + kernelSelector("k") + ", \"k\"), };\n"
              "const ::mc_function_constant __mc_function_constants[] = {\n"
              "    {\"nsg\", ::__mc_fc_nsg::index, ::__mc_fc_nsg::data_type, MC_FUNCTION_CONSTANT_REQUIRED | "
              "(::__mc_fc_nsg::defined ? static_cast<mc_u32>(MC_FUNCTION_CONSTANT_DEFINED) : 0u), 1, __mc_fc_users_0},\n};\n");
    EXPECT_EQ(functionConstantsDefinition({}), "");
}

// Test that is_function_constant_defined() in code an earlier pass erased (an address-space
// overload collapsed away) is left to it: no overlap report.
TEST(FunctionConstants, SkipsErasedCode) {
    auto p = testing::parse("constant bool b [[function_constant(0)]];\n"
                            "struct S { bool f() device { return is_function_constant_defined(b); }\n"
                            "bool f() thread { return is_function_constant_defined(b); } };");
    const std::string text = testing::runPasses(*p, {collapseAddressSpaceOverloads, rewriteFunctionConstants});
    EXPECT_NE(text.find("bool f() thread { return __mc_fc_b::defined; } };"), std::string::npos) << text;
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
}

// Test that an explicit instantiation that writes out a kernel template's parameters, with
// their [[function_constant]] attributes, is accepted (candle's sdpa kernels are instantiated
// so; the definition's attributes are the ones that count), and that the attribute is still
// refused on the parameters of an instantiation of a function that is not a kernel.
TEST(FunctionConstants, RepeatedInExplicitInstantiations) {
    constexpr std::string_view kTemplate =
        "constant bool has_mask [[function_constant(20)]];\n"
        "template <typename T> [[kernel]] void k(device T* out [[buffer(0)]],\n"
        "    const device bool* mask [[buffer(1), function_constant(has_mask)]], uint i [[thread_position_in_grid]]) {\n"
        "  out[i] = has_mask && mask[i] ? T(1) : T(0);\n}\n";
    for (const char* instantiation :
         {"template [[host_name(\"k_float\")]] [[kernel]] void k<float>(device float* out [[buffer(0)]],\n"
          "    const device bool* mask [[buffer(1), function_constant(has_mask)]], uint i [[thread_position_in_grid]]);\n",
          "template void k<float>(device float* out [[buffer(0)]],\n"
          "    const device bool* mask [[function_constant(has_mask)]], uint i [[thread_position_in_grid]]);\n"}) {
        const Translation t = translate(std::string(kTemplate) + instantiation, TranslateOptions{});
        EXPECT_TRUE(t.ok) << instantiation << testing::messages(t.diagnostics).front();
    }
    const Translation helper =
        translate("constant bool has_mask [[function_constant(20)]];\n"
                  "template <typename T> T pick(T a, bool m) { return m ? a : T(0); }\n"
                  "template float pick<float>(float a, bool m [[function_constant(has_mask)]]);\n",
                  TranslateOptions{});
    EXPECT_FALSE(helper.ok);
}

// Test that an argument may be present under a program-scope constant computed from function
// constants (MLX's steel GEMM, copied by candle: `constant bool gather_bias = do_gather &&
// use_out_source;`), through another such constant too, and that its presence is that
// constant's value; a constant computed from none is still an error.
TEST(FunctionConstants, ArgumentsUnderDerivedConstants) {
    const std::string constants = "constant bool use_out [[function_constant(100)]];\n"
                                  "constant bool do_gather [[function_constant(300)]];\n"
                                  "constant bool gather_bias = do_gather && use_out;\n"
                                  "constant bool no_bias = !gather_bias;\n"
                                  "constant bool fixed = true;\n";
    const Translation t = translate(constants +
                                        "kernel void k(device float* out [[buffer(0)]],\n"
                                        "    const constant uint* idx [[buffer(12), function_constant(gather_bias)]],\n"
                                        "    const constant uint* alt [[buffer(13), function_constant(no_bias)]]) {\n"
                                        "  out[0] = gather_bias ? float(idx[0]) : float(alt[0]);\n}\n",
                                    TranslateOptions{});
    ASSERT_TRUE(t.ok) << testing::messages(t.diagnostics).front();
    EXPECT_NE(t.cpp.find("(static_cast<bool>(::gather_bias) ? MC_PARAM_BUFFER : MC_PARAM_ABSENT)"),
              std::string::npos);
    EXPECT_NE(t.cpp.find("(static_cast<bool>(::no_bias) ? MC_PARAM_BUFFER : MC_PARAM_ABSENT)"), std::string::npos);
    const Translation fixed = translate(constants + "kernel void k(device float* o [[buffer(0), function_constant(fixed)]]) {}\n",
                                        TranslateOptions{});
    EXPECT_FALSE(fixed.ok);
}

} // namespace
} // namespace metalcpu::msl
