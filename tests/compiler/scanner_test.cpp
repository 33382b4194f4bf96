#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

using testing::parse;

const FunctionDecl* function(const testing::Parsed& p, std::string_view name, int n = 0) {
    for (const FunctionDecl& f : p.module.functions)
        if (f.name == name && n-- == 0) return &f;
    return nullptr;
}

// Test that `kernel void f(...)` is a kernel definition with its parameter list and body.
TEST(Scanner, KernelKeyword) {
    auto p = parse("kernel void add(device float* a, uint i [[thread_position_in_grid]]) { a[i] = 0; }");
    ASSERT_FALSE(p->diagnostics.hasErrors());
    const FunctionDecl* f = function(*p, "add");
    ASSERT_TRUE(f);
    EXPECT_TRUE(f->isKernel);
    EXPECT_EQ(f->kernelKeyword, 0u);
    EXPECT_FALSE(f->isTemplate);
    EXPECT_TRUE(f->hasBody);
    EXPECT_EQ(f->nameToken, p->find("add"));
    EXPECT_EQ(f->parametersOpen, p->find("("));
    EXPECT_EQ(f->parametersClose, p->find(")"));
    EXPECT_EQ(f->bodyOpen, p->find("{"));
    EXPECT_EQ(f->bodyClose, p->find("}"));
}

// Test that the `kernel` keyword may follow other specifiers and attributes.
TEST(Scanner, KernelKeywordAfterSpecifiers) {
    auto p = parse("[[max_total_threads_per_threadgroup(64)]] static inline kernel void f() {}");
    const FunctionDecl* f = function(*p, "f");
    ASSERT_TRUE(f);
    EXPECT_TRUE(f->isKernel);
    ASSERT_EQ(f->attributes.size(), 1u);
    EXPECT_EQ(f->attributes[0].attributes[0].name, "max_total_threads_per_threadgroup");
}

// Test that [[kernel]] alone, and with other attributes in the same list, marks a kernel.
TEST(Scanner, KernelAttribute) {
    auto p = parse("[[kernel]] void a() {}\n"
                   "[[kernel, max_total_threads_per_threadgroup(WM * WN * 32)]] void b() {}\n"
                   "void c() {}");
    ASSERT_TRUE(function(*p, "a") && function(*p, "b") && function(*p, "c"));
    EXPECT_TRUE(function(*p, "a")->isKernel);
    EXPECT_EQ(function(*p, "a")->kernelKeyword, kNoToken);
    EXPECT_TRUE(function(*p, "b")->isKernel);
    EXPECT_FALSE(function(*p, "c")->isKernel);
}

// Test that template kernels record their template parameters, type and value apart.
TEST(Scanner, TemplateKernel) {
    auto p = parse("template <typename T, int N = 4, class Op>\n[[kernel]] void f(device T* x) {}");
    const FunctionDecl* f = function(*p, "f");
    ASSERT_TRUE(f);
    EXPECT_TRUE(f->isKernel);
    EXPECT_TRUE(f->isTemplate);
    EXPECT_EQ(f->headerBegin, 0u);
    EXPECT_EQ(sourceText(p->tokens, f->templateParameters.begin, f->templateParameters.end),
              "typename T, int N = 4, class Op");
    EXPECT_EQ(f->templateTypeParameters, (std::vector<std::string>{"T", "Op"}));
    EXPECT_EQ(f->templateValueParameters, (std::vector<std::string>{"N"}));
}

// Test that functions record their enclosing namespaces, nested and C++17-style.
TEST(Scanner, Namespaces) {
    auto p =
        parse("namespace a { namespace b::c { kernel void f() {} } inline namespace v1 { void g() {} } }\n"
              "namespace { void h() {} }\n"
              "namespace alias = a::b;\n"
              "void top() {}");
    ASSERT_FALSE(p->diagnostics.hasErrors());
    EXPECT_EQ(function(*p, "f")->namespaces, (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(function(*p, "g")->namespaces, (std::vector<std::string>{"a", "v1"}));
    EXPECT_TRUE(function(*p, "h")->namespaces.empty());
    EXPECT_TRUE(function(*p, "top")->namespaces.empty());
}

// Test that member functions of classes (and class templates) are found, with qualifiers.
TEST(Scanner, MemberFunctions) {
    auto p = parse("template <typename T> struct S : Base<T> {\n"
                   "  S(int a) : x(a), y{2} { init(); }\n"
                   "  T get() const thread { return x; }\n"
                   "  operator float() const device { return 1; }\n"
                   "  T operator()(T a) const { return a; }\n"
                   "  bool operator<(const S& o) const { return x < o.x; }\n"
                   "  S operator>>(int n) const { return *this; }\n"
                   "  thread S& operator=(const thread S& o) thread { x = o.x; return *this; }\n"
                   "  S& operator=(S&& o) = default;\n"
                   "  S() thread = default;\n"
                   "  int x, y;\n"
                   "public:\n"
                   "  static void run() { threadgroup_barrier(mem_flags::mem_none); }\n"
                   "};");
    ASSERT_FALSE(p->diagnostics.hasErrors()) << p->messages()[0];
    const FunctionDecl* ctor = function(*p, "S");
    ASSERT_TRUE(ctor);
    EXPECT_TRUE(ctor->hasBody);
    EXPECT_EQ(ctor->enclosingClass, "S");
    EXPECT_EQ(ctor->templateTypeParameters, (std::vector<std::string>{"T"}));
    const FunctionDecl* get = function(*p, "get");
    ASSERT_TRUE(get);
    ASSERT_EQ(get->trailingQualifiers.size(), 2u);
    EXPECT_EQ(p->tokens[get->trailingQualifiers[1]].spelling, "thread");
    EXPECT_TRUE(function(*p, "operator float"));
    EXPECT_TRUE(function(*p, "operator()"));
    EXPECT_TRUE(function(*p, "operator<"));
    EXPECT_TRUE(function(*p, "operator>>"));
    const FunctionDecl* assign = function(*p, "operator=");
    ASSERT_TRUE(assign);
    EXPECT_TRUE(assign->hasBody);
    ASSERT_TRUE(function(*p, "operator=", 1));
    EXPECT_TRUE(function(*p, "operator=", 1)->isDefaulted);
    const FunctionDecl* defaulted = function(*p, "S", 1);
    ASSERT_TRUE(defaulted);
    EXPECT_TRUE(defaulted->isDefaulted);
    EXPECT_FALSE(defaulted->hasBody);
    ASSERT_TRUE(function(*p, "run"));
    EXPECT_TRUE(function(*p, "run")->hasBody);
}

// Test that a call in a base class's template arguments (MLX's type_traits.h:
// `struct is_empty : bool_constant<__is_empty(T)> {}`) is not taken for a parameter list: the
// class is a class, its member is found, and the declaration after it is scanned.
TEST(Scanner, CallInABaseClassTemplateArgument) {
    auto p = parse("template <typename T> struct is_empty : bool_constant<__is_empty(T)> {\n"
                   "  static bool get() { return __is_empty(T); }\n"
                   "};\n"
                   "struct W : V<sizeof(int)>, U<f(2)> { int x; };\n"
                   "float after(float x) { return x; }");
    ASSERT_FALSE(p->diagnostics.hasErrors()) << p->messages()[0];
    const FunctionDecl* get = function(*p, "get");
    ASSERT_TRUE(get);
    EXPECT_EQ(get->enclosingClass, "is_empty");
    EXPECT_FALSE(function(*p, "__is_empty"));
    EXPECT_FALSE(function(*p, "f"));
    ASSERT_TRUE(function(*p, "after"));
    EXPECT_TRUE(function(*p, "after")->hasBody);
    EXPECT_TRUE(p->module.variables.empty());
}

// Test that declarations without bodies are recorded, and variables are not functions.
TEST(Scanner, DeclarationsAndVariables) {
    auto p = parse("float helper(float x);\n"
                   "template <class T> T sum(const thread vec<T, 2>& v, uint n = 4);\n"
                   "float2 w(2, 3);\n"
                   "constant float4 v(1, 2, 3, 4);\n"
                   "int counter;\n"
                   "struct Fwd;\n"
                   "struct P { int a; };\n"
                   "struct Q { int b; } q;\n"
                   "typedef struct { int c; } R;\n"
                   "using U = int;\n"
                   "static_assert(sizeof(int) == 4, \"x\");\n"
                   "constant int table[2] = {1, 2};");
    ASSERT_FALSE(p->diagnostics.hasErrors());
    ASSERT_EQ(p->module.functions.size(), 2u);
    EXPECT_EQ(p->module.functions[0].name, "helper");
    EXPECT_FALSE(p->module.functions[0].hasBody);
    EXPECT_EQ(p->module.functions[1].name, "sum") << "literals in template arguments and defaults";
    std::vector<std::string> variables;
    for (const VariableDecl& v : p->module.variables)
        variables.push_back(sourceText(p->tokens, v.tokens.begin, v.tokens.end));
    EXPECT_EQ(variables,
              (std::vector<std::string>{"float2 w(2, 3)", "constant float4 v(1, 2, 3, 4)", "int counter",
                                        "struct Q { int b; } q", "constant int table[2] = {1, 2}"}));
}

// Test that variables with static storage outside functions are all recorded, with their
// first declarator's name: variable templates and static data members (in class templates
// too) as well, non-static members not.
TEST(Scanner, VariableNamesTemplatesAndMembers) {
    auto p = parse("constant int a = 1, b = 2;\n"
                   "struct Q { int b; } q;\n"
                   "[[maybe_unused]] constant vec<float, 4> v(1, 2, 3, 4);\n"
                   "template <typename T> constant T pi = T(3);\n"
                   "struct S { int plain; static constant float f; static constexpr int n = 2; };\n"
                   "template <int N> struct W { static const int m = N; };\n"
                   "constant float S::f = 2;");
    ASSERT_FALSE(p->diagnostics.hasErrors());
    std::vector<std::string> found;
    for (const VariableDecl& v : p->module.variables)
        found.push_back(p->tokens[v.nameToken].spelling + (v.isTemplate ? " template" : "") +
                        (v.enclosingClass.empty() ? "" : " in " + v.enclosingClass));
    EXPECT_EQ(found, (std::vector<std::string>{"a", "q", "v", "pi template", "f in S", "n in S", "m in W", "f"}));
}

// Test the explicit instantiation with `decltype` (MLX's spelling).
TEST(Scanner, InstantiationDecltype) {
    auto p = parse("template [[host_name(\"f_float\")]] [[kernel]] decltype(f<float, 4>) f<float, 4>;");
    ASSERT_EQ(p->module.instantiations.size(), 1u);
    const ExplicitInstantiation& i = p->module.instantiations[0];
    EXPECT_TRUE(i.marksKernel);
    EXPECT_EQ(i.qualifiedName, "f");
    EXPECT_EQ(i.nameToken, p->find("f", 1));
    EXPECT_TRUE(i.hasTemplateArguments);
    EXPECT_EQ(typeText(p->tokens, i.templateArguments.begin, i.templateArguments.end), "float, 4");
    EXPECT_FALSE(i.hasParameters);
    EXPECT_EQ(i.attributes.size(), 2u);
    EXPECT_EQ(i.tokens.begin, 0u);
    EXPECT_EQ(i.tokens.end, p->tokens.size() - 1);
}

// Test the explicit instantiation that repeats the parameter list, qualified (PyTorch's spelling).
TEST(Scanner, InstantiationWithParameters) {
    auto p = parse(
        "namespace n {\n"
        "template [[host_name(\"h_\" \"int\")]] kernel void ::c10::metal::h<int>(constant int*, device int*, uint);\n"
        "}");
    ASSERT_EQ(p->module.instantiations.size(), 1u);
    const ExplicitInstantiation& i = p->module.instantiations[0];
    EXPECT_TRUE(i.marksKernel);
    EXPECT_EQ(i.qualifiedName, "::c10::metal::h");
    EXPECT_EQ(i.namespaces, (std::vector<std::string>{"n"}));
    EXPECT_TRUE(i.hasParameters);
    EXPECT_EQ(typeText(p->tokens, i.parameters.begin, i.parameters.end), "constant int*, device int*, uint");
}

// Test the explicit instantiation through a typedef of the function type (ggml's spelling).
TEST(Scanner, InstantiationTypedef) {
    auto p = parse("typedef decltype(k<float>) k_t;\ntemplate [[host_name(\"k_f32\")]] kernel k_t k<float>;");
    ASSERT_EQ(p->module.instantiations.size(), 1u);
    EXPECT_EQ(p->module.instantiations[0].qualifiedName, "k");
    EXPECT_EQ(p->module.instantiations[0].nameToken, p->find("k", 1));
}

// Test that an ordinary explicit instantiation is recorded but does not mark a kernel.
TEST(Scanner, OrdinaryInstantiation) {
    auto p = parse("template struct S<int>;\ntemplate float g<float>(float);");
    ASSERT_EQ(p->module.instantiations.size(), 2u);
    EXPECT_FALSE(p->module.instantiations[0].marksKernel);
    EXPECT_FALSE(p->module.instantiations[1].marksKernel);
    EXPECT_EQ(p->module.instantiations[1].qualifiedName, "g");
}

// Test that vertex and fragment functions are recognised (to be left out: render_functions.h).
TEST(Scanner, RenderFunctions) {
    auto p = parse("vertex float4 v() { return 0; }\n[[fragment]] half4 f() { return 0; }");
    ASSERT_EQ(p->module.functions.size(), 2u);
    EXPECT_EQ(p->module.functions[0].renderKeyword, p->find("vertex"));
    EXPECT_EQ(p->module.functions[1].renderKeyword, p->find("fragment"));
}

// Test that lambdas in namespace-scope initializers do not look like function bodies.
TEST(Scanner, NamespaceScopeLambda) {
    auto p = parse("constant auto twice = [](int x) { return 2 * x; };\nvoid after() {}");
    ASSERT_EQ(p->module.functions.size(), 1u);
    EXPECT_EQ(p->module.functions[0].name, "after");
}

// Test the storage of program-scope variables as the restrictions and the rewrites read it:
// constant (`constant`, `const`, `constexpr` of their own) and extern or threadgroup.
TEST(Scanner, VariableStorage) {
    auto p = parse("constant int a = 1;\nextern constant int b;\nthreadgroup float c[4];\n"
                   "S<const int> d;\nstatic constexpr int e = 2;");
    ASSERT_EQ(p->module.variables.size(), 5u);
    std::vector<bool> constant, externOrThreadgroup;
    for (const VariableDecl& v : p->module.variables) {
        constant.push_back(declaresConstant(p->tokens, p->partner, v));
        externOrThreadgroup.push_back(declaresExternOrThreadgroup(p->tokens, v));
    }
    EXPECT_EQ(constant, (std::vector<bool>{true, true, false, false, true}));
    EXPECT_EQ(externOrThreadgroup, (std::vector<bool>{false, true, true, false, false}));
}

// Test that extern "C" blocks are scanned (the restriction check reports them).
TEST(Scanner, ExternBlock) {
    auto p = parse("extern \"C\" { void f() {} }");
    ASSERT_EQ(p->module.functions.size(), 1u);
}

// Test that a declaration running into the end of the input is reported, not looped on.
TEST(Scanner, MissingSemicolonAtEnd) {
    auto p = parse("int x = 3");
    EXPECT_EQ(p->messages(), (std::vector<std::string>{
                                 "test.metal:1:1: error: expected ';' at the end of the declaration"}));
}

// Test that a missing body after a kernel's parameter list is reported with the function's name.
TEST(Scanner, MissingBody) {
    auto p = parse("kernel void f(device float* a)");
    EXPECT_EQ(p->messages(),
              (std::vector<std::string>{"test.metal:1:1: error: expected ';' or a function body after the "
                                        "declaration of 'f'"}));
}

// Test that a namespace without a body is reported.
TEST(Scanner, NamespaceWithoutBody) {
    auto p = parse("namespace a;");
    EXPECT_EQ(p->messages(),
              (std::vector<std::string>{"test.metal:1:12: error: expected '{' after the namespace name"}));
}

// Test that a template header the angle matching cannot close (a comparison after a name the
// file does not declare as a value: here one from a library) is an error at its line that
// says how to write it.
TEST(Scanner, UnclosedTemplateHeaderNamesTheFix) {
    auto p = testing::parse("using namespace library;\n"
                            "template <typename T, enable_if_t<kLimit < 8, bool> = true> void f();");
    ASSERT_EQ(p->messages().size(), 1u);
    EXPECT_NE(p->messages()[0].find("test.metal:2:10: error: expected '>' to close the template parameter list"),
              std::string::npos)
        << p->messages()[0];
    EXPECT_NE(p->messages()[0].find("parenthesise it, '(x < 8)'"), std::string::npos) << p->messages()[0];
    auto q = testing::parse("template <int N, typename T, enable_if_t<N < 8, bool> = true> void f();");
    EXPECT_TRUE(q->messages().empty()) << q->messages()[0];
}

} // namespace
} // namespace metalcpu::msl
