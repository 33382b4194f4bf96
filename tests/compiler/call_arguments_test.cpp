#include "compiler/call_arguments.h"

#include "compiler/compiler_test_util.h"
#include "compiler/signature.h"
#include "compiler/unit.h"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace metalcpu::msl {
namespace {

using testing::parse;

struct Call {
    std::unique_ptr<testing::Parsed> parsed;
    std::unique_ptr<Unit> unit;
    CallArgument argument;
};

// The call argument at the `n`-th token spelled `name` in `source`.
Call argumentAt(std::string_view source, std::string_view name, int n = 0) {
    Call c;
    c.parsed = parse(source);
    EXPECT_TRUE(c.parsed->messages().empty()) << c.parsed->messages()[0];
    c.unit = std::make_unique<Unit>(c.parsed->tokens, c.parsed->partner, c.parsed->module);
    c.argument = callArgumentAt(*c.unit, c.parsed->find(name, n));
    return c;
}

std::string callee(const Call& c) {
    return c.argument.callee == kNoToken ? "" : c.parsed->tokens[c.argument.callee].spelling;
}

// Test which call and which argument a token is in: nested calls, template arguments and
// braces inside arguments, member and qualified callees, and tokens in no call's arguments.
TEST(CallArguments, Positions) {
    Call c = argumentAt("void k() { f(vec<float, 4>(x), g(y, k), {a, b}, k); }", "k", 2);
    EXPECT_EQ(callee(c), "f");
    EXPECT_EQ(c.argument.index, 3u);
    c = argumentAt("void k() { f(vec<float, 4>(x), g(y, k), k); }", "k", 1);
    EXPECT_EQ(callee(c), "g");
    EXPECT_EQ(c.argument.index, 1u);
    c = argumentAt("void k() { f<uint, 2>(a, k); }", "k", 1);
    EXPECT_EQ(callee(c), "f");
    EXPECT_EQ(c.argument.index, 1u);
    c = argumentAt("void k() { s.f(k); ns::g(k); }", "k", 1);
    EXPECT_EQ(callee(c), "f");
    EXPECT_EQ(c.unit->role(c.argument.callee), TokenRole::Member);
    c = argumentAt("void k() { s.f(k); ns::g(k); }", "k", 2);
    EXPECT_EQ(callee(c), "g");
    EXPECT_EQ(c.unit->role(c.argument.callee), TokenRole::QualifiedPart);
    c = argumentAt("void k() { (f)(k); }", "k", 1);
    EXPECT_NE(c.argument.open, kNoToken);
    EXPECT_EQ(c.argument.callee, kNoToken);
    // A direct initialiser calls a constructor of the declared type.
    c = argumentAt("void k() { Foo f(a, k); }", "k", 1);
    EXPECT_EQ(callee(c), "Foo");
    EXPECT_EQ(c.argument.index, 1u);
    EXPECT_EQ(c.argument.declarator, c.parsed->find("f"));
    c = argumentAt("void k() { static const ns::S<T, 2> s(k); }", "k", 1);
    EXPECT_EQ(callee(c), "S");
    c = argumentAt("void k() { device float* p = q, *r(k); }", "k", 1);
    EXPECT_EQ(callee(c), "float");
    EXPECT_EQ(c.argument.declarator, c.parsed->find("r"));
    c = argumentAt("void k() { f(k); }", "k", 1);
    EXPECT_EQ(c.argument.declarator, kNoToken);
    for (std::string_view outside : {"void k() { x = k; }", "void k() { uint v[] = {k}; }", "void k() { if (k) {} }",
                                     "void k() { f(a, [&] { y = k; }); }"}) {
        c = argumentAt(outside, "k", 1);
        EXPECT_EQ(c.argument.open, kNoToken) << outside;
    }
}

// Test which parameter declarations are references the callee may write through.
TEST(CallArguments, WritableReferences) {
    const std::vector<std::pair<std::string, bool>> cases = {
        {"thread uint& k", true},         {"uint& k", true},
        {"thread uint (&k)[4]", true},    {"const thread uint*& p", true},
        {"T&& k", true},                  {"thread float2& v", true},
        {"const thread uint& k", false},  {"thread const uint& k", false},
        {"uint const& k", false},         {"const vec<T, 2>& v", false},
        {"const thread uint (&k)[4]", false}, {"uint k", false},
        {"device float* p", false},       {"thread float& k = dflt", true},
    };
    for (const auto& [declaration, writable] : cases) {
        auto p = parse("template <class T> void f(" + declaration + ");");
        ASSERT_TRUE(p->messages().empty()) << declaration;
        ASSERT_EQ(p->module.functions.size(), 1u) << declaration;
        const FunctionDecl& f = p->module.functions[0];
        const std::vector<TokenRange> params = splitParameters(p->tokens, p->partner, f.parametersOpen, f.parametersClose);
        ASSERT_EQ(params.size(), 1u) << declaration;
        EXPECT_EQ(isWritableReference(p->tokens, p->partner, params[0]), writable) << declaration;
    }
}

// Test the decision for a call: the file's overloads, callable objects and types, explicit
// template arguments, members, and the library's functions that store through a reference.
TEST(CallArguments, MayBindWritableReference) {
    auto decide = [](const std::string& source, int n = 1) {
        Call c = argumentAt(source, "k", n);
        const std::set<std::string> types = declaredTypeNames(c.parsed->tokens, 0, c.parsed->tokens.size());
        return mayBindWritableReference(*c.unit, c.argument, types);
    };
    EXPECT_FALSE(decide("void g(uint a, float b);\nvoid k() { g(k, 1.0f); }"));
    EXPECT_TRUE(decide("void g(uint a, thread float& b);\nvoid k() { g(1, k); }"));
    EXPECT_TRUE(decide("void g(uint a); void g(thread uint& a);\nvoid k() { g(k); }"));
    EXPECT_TRUE(decide("template <class... T> void g(T... a);\nvoid k() { g(k); }"));
    EXPECT_TRUE(decide("template <class T> void g(T a);\nvoid k() { g<thread uint&>(k); }"));
    EXPECT_FALSE(decide("template <class T> void g(T a);\nvoid k() { g<uint>(k); }"));
    EXPECT_TRUE(decide("struct S { uint& r; };\nvoid k() { S(k); }"));
    EXPECT_TRUE(decide("struct F { void operator()(thread uint&) const; };\nconstant F g{};\nvoid k() { g(k); }"));
    EXPECT_TRUE(decide("void k() { s.g(k); }"));
    EXPECT_TRUE(decide("void k() { other::g(k); }"));
    EXPECT_FALSE(decide("void k() { min(k, 2u); metal::max(k, 1u); float(k); }"));
    EXPECT_FALSE(decide("void k() { modf(k, x); }"));
    EXPECT_TRUE(decide("void k() { modf(x, k); }"));
    EXPECT_TRUE(decide("void k() { metal::precise::sincos(x, k); }"));
    EXPECT_TRUE(decide("void k() { simdgroup_load(k, p); }"));
    EXPECT_FALSE(decide("void k() { simdgroup_store(k, p); }"));
    // Direct initialisers: a reference bound, or the constructor's parameters.
    EXPECT_FALSE(decide("void k() { device float* p(k); float4 v(k, 1.0f); }"));
    EXPECT_FALSE(decide("void k() { device float* p(x); float4 v(k, 1.0f); }"));
    EXPECT_TRUE(decide("void k() { thread uint& r(k); }"));
    EXPECT_TRUE(decide("void k() { float a = 0, &r(k); }"));
    EXPECT_TRUE(decide("struct S { uint& r; };\nvoid k() { S s(k); }"));
    EXPECT_TRUE(decide("struct S { S(thread uint& a); };\nvoid k() { S s(k); }"));
    EXPECT_FALSE(decide("struct S { S(uint a); };\nvoid k() { S s(k); }"));
}

// Test that every function of the library that may write through a reference parameter is
// known as one: the library's headers, read by the front end's own scanner.
TEST(CallArguments, LibraryOutParametersAreComplete) {
    const std::filesystem::path include = std::filesystem::path(METALCPU_TEST_SOURCE_DIR) / "src/stdlib/include";
    std::size_t functions = 0, writers = 0;
    for (const auto& entry : std::filesystem::directory_iterator(include)) {
        if (!entry.is_regular_file() || entry.path().filename().string().rfind("metal_", 0) != 0) continue;
        std::ifstream in(entry.path());
        // Without its directives (continued lines included) and the macro invocations that
        // stand for declarations (`METALCPU_DEFINE_...(sum)`): the scanner reads the functions
        // written out. The ones macros make take values (the SIMD-group functions).
        std::stringstream text;
        bool directive = false;
        for (std::string line; std::getline(in, line);) {
            const std::size_t first = line.find_first_not_of(' ');
            directive = directive || (first != std::string::npos && line[first] == '#');
            const bool invocation = first != std::string::npos && std::isupper(static_cast<unsigned char>(line[first])) &&
                                    line.find('(') != std::string::npos && line.back() == ')' &&
                                    line.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", first) == line.find('(');
            for (std::size_t m; (m = line.find("METALCPU_INLINE")) != std::string::npos;) line.erase(m, 15);
            text << (directive || invocation ? "" : line) << "\n";
            directive = directive && !line.empty() && line.back() == '\\';
        }
        auto p = parse(text.str());
        ASSERT_TRUE(p->messages().empty()) << entry.path() << ": " << p->messages()[0];
        for (const FunctionDecl& f : p->module.functions) {
            if (!f.enclosingClass.empty() || f.name.rfind("operator", 0) == 0 || f.name.rfind("__", 0) == 0 ||
                f.parametersOpen == kNoToken)
                continue;
            ++functions;
            const auto params = splitParameters(p->tokens, p->partner, f.parametersOpen, f.parametersClose);
            for (std::size_t a = 0; a < params.size(); ++a) {
                if (!isWritableReference(p->tokens, p->partner, params[a])) continue;
                ++writers;
                std::string call = "void k() { " + f.name + "(";
                for (std::size_t b = 0; b < params.size(); ++b) call += (b ? ", " : "") + std::string(a == b ? "k" : "x");
                Call c = argumentAt(call + "); }", "k", 1);
                EXPECT_TRUE(mayBindWritableReference(*c.unit, c.argument, {}))
                    << f.name << " argument " << a << " in " << entry.path().filename();
            }
        }
    }
    EXPECT_GT(functions, 50u) << "the scanner read the headers";
    EXPECT_GE(writers, 6u);
}

} // namespace
} // namespace metalcpu::msl
