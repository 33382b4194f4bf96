#include "compiler/statements.h"

#include "compiler/compiler_test_util.h"
#include "compiler/unit.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace metalcpu::msl {
namespace {

/// The statements of the body of the only function in `source`.
struct Body {
    std::unique_ptr<testing::Parsed> parsed;
    std::optional<std::vector<Statement>> statements;
};

Body parseBody(const std::string& source) {
    Body b;
    b.parsed = testing::parse(source);
    b.statements = parseBlock(b.parsed->tokens, b.parsed->partner, b.parsed->module.functions.at(0).bodyOpen);
    return b;
}

std::vector<StatementKind> kinds(const std::vector<Statement>& statements) {
    std::vector<StatementKind> out;
    for (const Statement& s : statements) out.push_back(s.kind);
    return out;
}

// Test that a body splits into its statements, with pragmas and attributes in front of a
// statement belonging to it and the children of compound, selection, loop and labelled ones.
TEST(Statements, Kinds) {
    Body b = parseBody("void f() {\n"
                       "  int x = 1; { x++; } if (x) x = 2; else { x = 3; }\n"
                       "#pragma unroll\n"
                       "  for (int i = 0; i < 4; ++i) x += i;\n"
                       "  while (x) --x; do { x = 1; } while (x < 0); switch (x) { case 1: break; default: x = 0; }\n"
                       "  [[likely]] return; ; continue; goto end; end: x = [&] { return 1; }();\n"
                       "#pragma once\n"
                       "}");
    ASSERT_TRUE(b.statements);
    const std::vector<Statement>& s = *b.statements;
    EXPECT_EQ(kinds(s), (std::vector<StatementKind>{
                            StatementKind::Simple, StatementKind::Compound, StatementKind::If, StatementKind::For,
                            StatementKind::While, StatementKind::Do, StatementKind::Switch, StatementKind::Return,
                            StatementKind::Empty, StatementKind::Continue, StatementKind::Goto, StatementKind::Labeled,
                            StatementKind::Empty}));
    const TokenList& t = b.parsed->tokens;
    EXPECT_EQ(s[2].children.size(), 2u); // then and else
    EXPECT_EQ(s[2].children[1].kind, StatementKind::Compound);
    EXPECT_EQ(t[s[3].tokens.begin].kind, TokenKind::Pragma); // the pragma belongs to the loop
    EXPECT_TRUE(t[s[3].keyword].isIdentifier("for"));
    EXPECT_EQ(sourceText(t, s[3].header.begin, s[3].header.end), "int i = 0; i < 4; ++i");
    EXPECT_EQ(sourceText(t, s[5].header.begin, s[5].header.end), "x < 0"); // do-while's condition
    EXPECT_EQ(kinds(s[6].children[0].children), (std::vector<StatementKind>{StatementKind::Labeled,
                                                                           StatementKind::Labeled}));
    EXPECT_TRUE(t[s[7].keyword].isIdentifier("return")); // after its attribute
    EXPECT_EQ(s[11].children.at(0).kind, StatementKind::Simple); // the lambda is inside the statement
}

// Test that what cannot be delimited gives nothing rather than a guess.
TEST(Statements, Undelimited) {
    EXPECT_FALSE(parseBody("void f() { int x = 1 }").statements);
    EXPECT_FALSE(parseBody("void f() { do { } }").statements);
    EXPECT_FALSE(parseBody("void f() { if x; }").statements);
}

// Test that statements nest up to 256 deep (ifs, else-ifs, labels, loops), and that deeper
// ones give nothing: the recursion, here and in every user of the tree, stays shallow.
TEST(Statements, NestingDepth) {
    auto chain = [](int n) {
        std::string body = "void f(int x) { if (x == 0) x = 1;";
        for (int i = 1; i < n; ++i) body += " else if (x == " + std::to_string(i) + ") x = 1;";
        return body + " }";
    };
    EXPECT_TRUE(parseBody(chain(200)).statements);
    EXPECT_FALSE(parseBody(chain(100000)).statements);
    std::string cases = "void f(int x) { switch (x) { ";
    for (int i = 0; i < 100000; ++i) cases += "case " + std::to_string(i) + ": ";
    EXPECT_FALSE(parseBody(cases + "x = 1; } }").statements);
    std::string loops = "void f(int x) { ";
    for (int i = 0; i < 100000; ++i) loops += "while (x) ";
    EXPECT_FALSE(parseBody(loops + "--x; }").statements);
}

std::optional<Declaration> declaration(const std::string& statement, std::unique_ptr<testing::Parsed>& keep) {
    Body b = parseBody("void f() { " + statement + " }");
    keep = std::move(b.parsed);
    if (!b.statements || b.statements->size() != 1) return std::nullopt;
    return parseDeclaration(keep->tokens, keep->partner, b.statements->front());
}

// Test declarations: the type, each declarator's name, initializers and arrays.
TEST(Statements, Declarations) {
    std::unique_ptr<testing::Parsed> p;
    auto d = declaration("device const float* const row = a + 1;", p);
    ASSERT_TRUE(d);
    EXPECT_EQ(sourceText(p->tokens, d->type.begin, d->type.end), "device const float* const");
    ASSERT_EQ(d->names.size(), 1u);
    EXPECT_EQ(p->tokens[d->names[0]].spelling, "row");
    EXPECT_TRUE(d->hasInitializer);
    EXPECT_FALSE(d->isArray);

    d = declaration("vec<float, 4> v{1, 2}, *w, &r = v;", p);
    ASSERT_TRUE(d);
    EXPECT_EQ(sourceText(p->tokens, d->type.begin, d->type.end), "vec<float, 4>");
    ASSERT_EQ(d->names.size(), 3u);
    EXPECT_EQ(p->tokens[d->names[2]].spelling, "r");
    EXPECT_TRUE(d->hasInitializer);

    d = declaration("float tile[16][16];", p);
    ASSERT_TRUE(d);
    EXPECT_TRUE(d->isArray);
    EXPECT_FALSE(d->hasInitializer);

    d = declaration("float4 v(1.0f);", p);
    ASSERT_TRUE(d);
    EXPECT_TRUE(d->hasInitializer);

    for (const char* expression : {"x = 1;", "a[i] = 2;", "f(x);", "x += 1;", "p->q = 3;", "ns::f(x);",
                                   "static_cast<float>(x);", "++i;", "return x;", "*p = 1;", "a.b = c;"})
        EXPECT_FALSE(declaration(expression, p)) << expression;
}

// Test that static locals are found with their names and constness, in lambdas and local
// classes too, while static member functions of local classes are not variables.
TEST(Statements, StaticLocals) {
    auto p = testing::parse("void f() {\n"
                            "  static const float a = 1; static int counter; static constexpr int n = 2;\n"
                            "  static const S s(1, 2);\n"
                            "  auto g = [] { static const int inner = 3; return inner; };\n"
                            "  struct L { static int member() { return 0; } };\n"
                            "}\n");
    const FunctionDecl& f = p->module.functions.at(0);
    std::vector<std::string> found;
    for (const StaticLocal& local : findStaticLocals(p->tokens, p->partner, {f.bodyOpen, f.bodyClose + 1}))
        found.push_back(p->tokens[local.nameToken].spelling + (local.isConstant ? " const" : "") +
                        (local.isConstexpr ? " constexpr" : ""));
    EXPECT_EQ(found, (std::vector<std::string>{"a const", "counter", "n const constexpr", "s const", "inner const"}));
}

// Test which identifiers name something by themselves.
TEST(Statements, UnqualifiedNames) {
    auto p = testing::parse("void f() { a.b; c->d; ns::e; g; }");
    EXPECT_TRUE(isUnqualifiedName(p->tokens, p->find("a")));
    EXPECT_FALSE(isUnqualifiedName(p->tokens, p->find("b")));
    EXPECT_FALSE(isUnqualifiedName(p->tokens, p->find("d")));
    EXPECT_FALSE(isUnqualifiedName(p->tokens, p->find("e")));
    EXPECT_TRUE(isUnqualifiedName(p->tokens, p->find("g")));
}

} // namespace
} // namespace metalcpu::msl
