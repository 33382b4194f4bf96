#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

#include <limits>

namespace metalcpu::msl {
namespace {

using testing::parse;

// Test that every bracket knows its partner.
TEST(Syntax, MatchBrackets) {
    auto p = parse("f(a[1], {b});");
    ASSERT_FALSE(p->diagnostics.hasErrors());
    EXPECT_EQ(p->partner[p->find("(")], p->find(")"));
    EXPECT_EQ(p->partner[p->find(")")], p->find("("));
    EXPECT_EQ(p->partner[p->find("[")], p->find("]"));
    EXPECT_EQ(p->partner[p->find("{")], p->find("}"));
    EXPECT_EQ(p->partner[p->find("a")], kNoToken);
}

// Test that a mismatched bracket is reported with a note at the opener.
TEST(Syntax, MismatchedBracket) {
    auto p = parse("void f(int a] {}");
    EXPECT_EQ(p->messages(), (std::vector<std::string>{
                                 "test.metal:1:13: error: expected ')' before ']'",
                                 "test.metal:1:7: note: to match this '('",
                             }));
}

// Test that an unclosed bracket is reported at the end of the input.
TEST(Syntax, UnclosedBracket) {
    auto p = parse("kernel void f(device float* a\n{\n}");
    EXPECT_EQ(p->messages(), (std::vector<std::string>{
                                 "test.metal:3:2: error: expected ')' at the end of the input",
                                 "test.metal:1:14: note: to match this '('",
                             }));
}

// Test that brackets nest up to Clang's (so Metal's) limit of 256, and past it are one error
// at the first bracket too deep: every stage after this one follows brackets recursively, in
// the host process, so the depth bounds its stack.
TEST(Syntax, BracketDepth) {
    auto fine = parse("x = " + std::string(128, '(') + std::string(128, '[') + "1" + std::string(128, ']') +
                      std::string(128, ')') + ";");
    EXPECT_FALSE(fine->diagnostics.hasErrors());
    auto deep = parse("namespace a {\n" + std::string(100000, '{') + std::string(100000, '}') + "}");
    EXPECT_EQ(deep->messages(),
              (std::vector<std::string>{"test.metal:2:256: error: bracket nesting level exceeded maximum of 256"}));
}

// Test that both attribute spellings are skipped whole, and nothing else is an attribute.
TEST(Syntax, AttributeEnds) {
    auto p = parse("[[gnu::aligned(16 / 2)]] __attribute__((aligned(32 / 2))) __attribute((used)) [x] f(y);");
    EXPECT_EQ(attributeEnd(p->tokens, p->partner, 0), p->find("]", 1));
    EXPECT_TRUE(startsGnuAttribute(p->tokens, p->partner, p->find("__attribute__")));
    EXPECT_EQ(attributeEnd(p->tokens, p->partner, p->find("__attribute__")), p->find(")", 3));
    EXPECT_EQ(attributeEnd(p->tokens, p->partner, p->find("__attribute")), p->find(")", 5));
    EXPECT_EQ(attributeEnd(p->tokens, p->partner, p->find("x") - 1), kNoToken);
    EXPECT_EQ(attributeEnd(p->tokens, p->partner, p->find("f")), kNoToken);
    EXPECT_FALSE(startsGnuAttribute(p->tokens, p->partner, p->find("f")));
}

// Test that template angle brackets match across nesting, `>>` included, and skip parentheses.
TEST(Syntax, AngleBrackets) {
    auto p = parse("a<b<c>, (d > e)> x;");
    std::size_t open = p->find("<");
    std::size_t close = p->find(">", 2);
    EXPECT_EQ(closingAngle(p->tokens, p->partner, open, p->tokens.size()), close);
    EXPECT_EQ(openingAngle(p->tokens, p->partner, close, 0), open);
    auto q = parse("v<vec<int, 2>> y;");
    EXPECT_EQ(closingAngle(q->tokens, q->partner, q->find("<"), q->tokens.size()), q->find(">", 1));
}

// Test that a `<` after `)`, `]`, a literal or a keyword inside template arguments is a
// comparison, as C++ reads it (MLX reduction/ops.h: `enable_if_t<sizeof(T) < 8, bool> = true`),
// and that `operator>` closes nothing.
TEST(Syntax, ComparisonsInsideAngleBrackets) {
    auto p = parse("template <typename T, enable_if_t<sizeof(T) < 8, bool> = true> T f();");
    std::size_t open = p->find("<");
    std::size_t close = p->find(">", 1);
    EXPECT_EQ(closingAngle(p->tokens, p->partner, open, p->tokens.size()), close);
    EXPECT_EQ(openingAngle(p->tokens, p->partner, close, 0), open);
    std::size_t inner = p->find("<", 1);
    EXPECT_EQ(closingAngle(p->tokens, p->partner, inner, p->tokens.size()), p->find(">"));
    EXPECT_EQ(openingAngle(p->tokens, p->partner, p->find(">"), 0), inner);
    for (const char* text : {"x<a[0] < 4> y;", "x<1 < 2, T> y;", "x<true < false> y;"}) {
        auto q = parse(text);
        EXPECT_EQ(closingAngle(q->tokens, q->partner, q->find("<"), q->tokens.size()), q->find(">")) << text;
        EXPECT_EQ(openingAngle(q->tokens, q->partner, q->find(">"), 0), q->find("<")) << text;
    }
    auto r = parse("x<&S::operator>, int> y;");
    EXPECT_EQ(closingAngle(r->tokens, r->partner, r->find("<"), r->tokens.size()), r->find(">", 1));
}

// Test that a `<` after a name that is a non-type template parameter, and nowhere a template,
// is a comparison, as Clang reads it (`<` after a name that is not a template): in a later
// parameter's default and in the template's body. A name that is also a template keeps
// opening a list, and so does a type parameter's name.
TEST(Syntax, ComparisonAfterANonTypeTemplateParameter) {
    auto p = parse("template <int N, enable_if_t<N < 8, bool> = true> int f() { return g<N < 4, T>(); }");
    const std::size_t open = p->find("<", 1), close = p->find(">", 1);
    EXPECT_TRUE(p->tokens[p->find("N", 1)].neverTemplate);
    EXPECT_EQ(closingAngle(p->tokens, p->partner, p->find("<"), p->tokens.size()), close);
    EXPECT_EQ(closingAngle(p->tokens, p->partner, open, p->tokens.size()), p->find(">"));
    EXPECT_EQ(openingAngle(p->tokens, p->partner, close, 0), p->find("<"));
    const std::size_t call = p->find("<", 3);
    ASSERT_TRUE(p->tokens[call - 1].is("g"));
    EXPECT_EQ(closingAngle(p->tokens, p->partner, call, p->tokens.size()), p->find(">", 2));
    EXPECT_EQ(openingAngle(p->tokens, p->partner, p->find(">", 2), 0), call);

    auto q = parse("template <int M> struct A {};\ntemplate <typename M> struct B {};\n"
                   "template <int K> struct M {};\nusing C = x<M<1>, K < 2>;");
    EXPECT_FALSE(q->tokens[q->find("M", 3)].neverTemplate) << "M is also a template";
    EXPECT_TRUE(q->tokens[q->find("K", 1)].neverTemplate);
    const std::size_t x = q->find("x");
    EXPECT_EQ(closingAngle(q->tokens, q->partner, x + 1, q->tokens.size()), q->tokens.size() - 3);
}

// Test that attribute specifiers are split into attributes with namespaces and arguments.
TEST(Syntax, AttributeSpec) {
    auto p = parse("[[kernel, max_total_threads_per_threadgroup(WM * 32), gnu::always_inline]] void f();");
    ASSERT_TRUE(startsAttributeSpec(p->tokens, 0));
    AttributeSpec spec = parseAttributeSpec(p->tokens, p->partner, 0);
    EXPECT_EQ(spec.open, 0u);
    EXPECT_EQ(spec.close, p->find("]", 1));
    ASSERT_EQ(spec.attributes.size(), 3u);
    EXPECT_EQ(spec.attributes[0].name, "kernel");
    EXPECT_FALSE(spec.attributes[0].hasArguments);
    EXPECT_EQ(spec.attributes[1].name, "max_total_threads_per_threadgroup");
    EXPECT_EQ(sourceText(p->tokens, spec.attributes[1].arguments.begin, spec.attributes[1].arguments.end),
              "WM * 32");
    EXPECT_EQ(spec.attributes[2].name, "gnu::always_inline");
    EXPECT_NE(spec.find("kernel"), nullptr);
    EXPECT_EQ(spec.find("buffer"), nullptr);
}

// Test which attributes count as standard (kept in the output).
TEST(Syntax, StandardAttributes) {
    EXPECT_TRUE(isStandardAttribute("maybe_unused"));
    EXPECT_TRUE(isStandardAttribute("likely"));
    EXPECT_TRUE(isStandardAttribute("gnu::always_inline"));
    EXPECT_FALSE(isStandardAttribute("buffer"));
    EXPECT_FALSE(isStandardAttribute("thread_position_in_grid"));
    EXPECT_FALSE(isStandardAttribute("clang::optnone"));
}

// Test that type text is normalised: spaces between words only, after commas, and after `*`/`&`.
TEST(Syntax, TypeText) {
    auto p = parse("device   const float * const & vec < float , 4 > ::ns::T");
    EXPECT_EQ(typeText(p->tokens, 0, p->tokens.size() - 1),
              "device const float* const& vec<float, 4>::ns::T");
}

// Test that source text keeps one space wherever the source had whitespace.
TEST(Syntax, SourceText) {
    auto p = parse("a  +b*( c )");
    EXPECT_EQ(sourceText(p->tokens, 0, p->tokens.size() - 1), "a +b*( c )");
}

// Test that adjacent string literals concatenate and escapes are read.
TEST(Syntax, StringLiteralValue) {
    auto p = parse(R"("fill_" "float\"4")");
    EXPECT_EQ(stringLiteralValue(p->tokens, 0, 2), "fill_float\"4");
    auto q = parse("u8\"x\" y");
    EXPECT_FALSE(stringLiteralValue(q->tokens, 0, 1));
    EXPECT_FALSE(stringLiteralValue(q->tokens, 1, 2));
}

// Test the integer evaluator on literals, precedence, shifts written as two `>`, and failure.
TEST(Syntax, EvaluateInteger) {
    auto eval = [](std::string_view s) {
        auto p = parse(s);
        return evaluateInteger(p->tokens, 0, p->tokens.size() - 1);
    };
    EXPECT_EQ(eval("30"), 30);
    EXPECT_EQ(eval("0x1Fu"), 31);
    EXPECT_EQ(eval("2 + 3 * 4"), 14);
    EXPECT_EQ(eval("(2 + 3) * 4"), 20);
    EXPECT_EQ(eval("1 << 10"), 1024);
    EXPECT_EQ(eval("1024 >> 2"), 256);
    EXPECT_EQ(eval("-1"), -1);
    EXPECT_EQ(eval("010"), 8);
    EXPECT_FALSE(eval("N * 2"));
    EXPECT_FALSE(eval("1 / 0"));
    EXPECT_FALSE(eval("1 2"));
}

// Test that the evaluator, which runs in the host process, has no value where C++ has none:
// LLONG_MIN / -1 (SIGFPE on x86-64), remainders by zero, signed overflow of + - * << and
// negation, shifts out of range; and that nesting past 256 levels is no constant either
// (the recursion stays shallow). The largest and smallest values themselves are fine.
TEST(Syntax, EvaluateIntegerHasNoUndefinedResults) {
    auto eval = [](std::string_view s) {
        auto p = parse(s);
        return evaluateInteger(p->tokens, 0, p->tokens.size() - 1);
    };
    EXPECT_FALSE(eval("(-9223372036854775807 - 1) / -1"));
    EXPECT_FALSE(eval("(-9223372036854775807 - 1) % -1"));
    EXPECT_FALSE(eval("1 % 0"));
    EXPECT_FALSE(eval("9223372036854775807 + 1"));
    EXPECT_FALSE(eval("-9223372036854775807 - 2"));
    EXPECT_FALSE(eval("4611686018427387904 * 2"));
    EXPECT_FALSE(eval("-(-9223372036854775807 - 1)"));
    EXPECT_FALSE(eval("1 << 63"));
    EXPECT_FALSE(eval("3 << 62"));
    EXPECT_FALSE(eval("1 << -1"));
    EXPECT_EQ(eval("-9223372036854775807 - 1"), std::numeric_limits<long long>::min());
    EXPECT_EQ(eval("(-9223372036854775807 - 1) / 1"), std::numeric_limits<long long>::min());
    EXPECT_EQ(eval("-2 << 62"), std::numeric_limits<long long>::min());
    EXPECT_EQ(eval("-8 >> 1"), -4);
    EXPECT_EQ(eval(std::string(200, '(') + "1" + std::string(200, ')')), 1);
    EXPECT_FALSE(eval(std::string(100000, '(') + "1" + std::string(100000, ')')));
    EXPECT_FALSE(eval(std::string(100000, '-') + "1"));
}

} // namespace
} // namespace metalcpu::msl
