#include "compiler/kernels.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

using testing::parse;

struct Found {
    std::unique_ptr<testing::Parsed> parsed;
    std::vector<EntryPoint> entryPoints;
};

Found entryPointsOf(std::string_view source) {
    Found f;
    f.parsed = parse(source);
    f.entryPoints = findEntryPoints(f.parsed->tokens, f.parsed->module, f.parsed->diagnostics);
    return f;
}

// Test that a non-template kernel is an entry point named after the function.
TEST(EntryPoints, NonTemplateKernel) {
    Found f = entryPointsOf("kernel void add(device float* a) {}\nvoid helper() {}");
    ASSERT_EQ(f.entryPoints.size(), 1u);
    EXPECT_EQ(f.entryPoints[0].hostName, "add");
    EXPECT_EQ(f.entryPoints[0].functionExpression, "::add");
    EXPECT_TRUE(f.entryPoints[0].glueNamespaces.empty());
    EXPECT_EQ(f.entryPoints[0].templateArguments, "");
}

// Test that [[host_name]] renames a non-template kernel.
TEST(EntryPoints, HostNameOnDefinition) {
    Found f = entryPointsOf("[[host_name(\"renamed\")]] kernel void add() {}");
    ASSERT_EQ(f.entryPoints.size(), 1u);
    EXPECT_EQ(f.entryPoints[0].hostName, "renamed");
}

// Test that a kernel in a namespace is named fully qualified and its glue goes in that namespace.
TEST(EntryPoints, KernelInNamespace) {
    Found f = entryPointsOf("namespace a { namespace b { kernel void k() {} } }");
    ASSERT_EQ(f.entryPoints.size(), 1u);
    EXPECT_EQ(f.entryPoints[0].functionExpression, "::a::b::k");
    EXPECT_EQ(f.entryPoints[0].glueNamespaces, (std::vector<std::string>{"a", "b"}));
}

// Test that each [[host_name]] instantiation of a template is an entry point, in source order,
// and that a template without instantiations is none.
TEST(EntryPoints, TemplateInstantiations) {
    Found f = entryPointsOf(
        "template <typename T, int N> [[kernel]] void fill(device T* o) {}\n"
        "template <typename T> kernel void unused(device T* o) {}\n"
        "template [[host_name(\"fill_f4\")]] [[kernel]] decltype(fill<float, 4>) fill<float, 4>;\n"
        "kernel void plain() {}\n"
        "template [[host_name(\"fill_i2\")]] kernel void fill<int, 2>(device int*);");
    ASSERT_FALSE(f.parsed->diagnostics.hasErrors());
    ASSERT_EQ(f.entryPoints.size(), 3u);
    EXPECT_EQ(f.entryPoints[0].hostName, "fill_f4");
    EXPECT_EQ(f.entryPoints[0].functionExpression, "::fill<float, 4>");
    EXPECT_EQ(f.entryPoints[0].templateArguments, "float, 4");
    EXPECT_EQ(f.entryPoints[1].hostName, "plain");
    EXPECT_EQ(f.entryPoints[2].hostName, "fill_i2");
    EXPECT_EQ(f.entryPoints[2].functionExpression, "::fill<int, 2>");
    EXPECT_EQ(f.parsed->module.instantiations[0].target, 0u);
}

// Test that instantiations are resolved as C++ looks names up: from the innermost namespace out,
// and that the glue goes where the instantiation is written.
TEST(EntryPoints, QualifiedInstantiation) {
    Found f = entryPointsOf(
        "namespace c10 { namespace metal { template <typename T> kernel void h(device T* x) {} } }\n"
        "namespace c10 { template [[host_name(\"h1\")]] kernel void metal::h<float>(device float*); }\n"
        "template [[host_name(\"h2\")]] kernel void ::c10::metal::h<int>(device int*);\n"
        "namespace other { template [[host_name(\"h3\")]] kernel void c10::metal::h<uint>(device uint*); }");
    ASSERT_FALSE(f.parsed->diagnostics.hasErrors()) << f.parsed->messages()[0];
    ASSERT_EQ(f.entryPoints.size(), 3u);
    EXPECT_EQ(f.entryPoints[0].functionExpression, "::c10::metal::h<float>");
    EXPECT_EQ(f.entryPoints[0].glueNamespaces, (std::vector<std::string>{"c10"}));
    EXPECT_EQ(f.entryPoints[1].functionExpression, "::c10::metal::h<int>");
    EXPECT_TRUE(f.entryPoints[1].glueNamespaces.empty());
    EXPECT_EQ(f.entryPoints[2].functionExpression, "::c10::metal::h<uint>");
    EXPECT_EQ(f.entryPoints[2].glueNamespaces, (std::vector<std::string>{"other"}));
}

// Test that an instantiation marked [[kernel]] makes an unmarked template a kernel.
TEST(EntryPoints, InstantiationMarksTemplate) {
    Found f = entryPointsOf("template <typename T> void g(device T* x) {}\n"
                            "template [[host_name(\"g_f\")]] [[kernel]] decltype(g<float>) g<float>;");
    ASSERT_EQ(f.entryPoints.size(), 1u);
    EXPECT_TRUE(f.parsed->module.functions[0].isKernel);
}

// Test that ordinary explicit instantiations are left alone.
TEST(EntryPoints, OrdinaryInstantiation) {
    Found f = entryPointsOf(
        "template <typename T> T twice(T x) { return 2 * x; }\ntemplate float twice<float>(float);");
    EXPECT_TRUE(f.entryPoints.empty());
    EXPECT_FALSE(f.parsed->module.functions[0].isKernel);
    EXPECT_EQ(f.parsed->module.instantiations[0].target, kNoToken);
}

// Test that instantiating an unknown template as a kernel is reported.
TEST(EntryPoints, UnknownTemplate) {
    Found f =
        entryPointsOf("template [[host_name(\"x\")]] [[kernel]] decltype(missing<float>) missing<float>;");
    EXPECT_EQ(f.parsed->messages(),
              (std::vector<std::string>{
                  "test.metal:1:65: error: explicit instantiation names 'missing', which is not "
                  "a kernel template defined in this file"}));
}

// Test that an instantiation without a host name is no entry point (with a warning).
TEST(EntryPoints, InstantiationWithoutHostName) {
    Found f = entryPointsOf(
        "template <typename T> kernel void k(device T* x) {}\ntemplate kernel void k<float>(device float*);");
    EXPECT_TRUE(f.entryPoints.empty());
    EXPECT_EQ(
        f.parsed->messages(),
        (std::vector<std::string>{"test.metal:2:22: warning: explicit instantiation of kernel 'k' has no "
                                  "[[host_name]]; it is not an entry point"}));
}

// Test that two entry points with the same host name are reported.
TEST(EntryPoints, DuplicateHostName) {
    Found f = entryPointsOf("template <typename T> kernel void k(device T* x) {}\n"
                            "template [[host_name(\"same\")]] kernel void k<float>(device float*);\n"
                            "template [[host_name(\"same\")]] kernel void k<int>(device int*);");
    EXPECT_EQ(f.parsed->messages(), (std::vector<std::string>{
                                        "test.metal:3:12: error: there is more than one kernel named 'same'",
                                        "test.metal:2:12: note: 'same' is first defined here",
                                    }));
}

// Test that kernels must return void and live at namespace scope.
TEST(EntryPoints, MisplacedKernels) {
    Found f = entryPointsOf("kernel int k() { return 0; }\nstruct S { kernel void m() {} };");
    EXPECT_EQ(f.parsed->messages(),
              (std::vector<std::string>{
                  "test.metal:1:12: error: kernel 'k' must return void",
                  "test.metal:2:24: error: kernel 'm' must be declared at namespace scope",
              }));
}

// Test that an instantiation must name its template arguments.
TEST(EntryPoints, DeducedInstantiation) {
    Found f = entryPointsOf("template <typename T> kernel void k(device T* x) {}\n"
                            "template [[host_name(\"k\")]] kernel void k(device float*);");
    EXPECT_EQ(f.parsed->messages(),
              (std::vector<std::string>{
                  "test.metal:2:41: error: explicit instantiation of kernel 'k' must name its "
                  "template arguments, as in 'k<...>'"}));
}

} // namespace
} // namespace metalcpu::msl
