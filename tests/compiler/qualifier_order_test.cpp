#include "compiler/qualifier_order.h"

#include "compiler/compiler_test_util.h"
#include "compiler/lexer.h"
#include "compiler/syntax.h"
#include "compiler/template_names.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

/// The spellings of `source`'s tokens after placeAddressSpacesFirst(), one blank apart.
std::string reordered(std::string_view source) {
    auto p = testing::parse(source); // parse() places them first, as translate() does
    EXPECT_FALSE(p->diagnostics.hasErrors()) << testing::messages(p->diagnostics.list())[0];
    std::string out;
    for (const Token& t : p->tokens)
        if (t.kind != TokenKind::End) out += (out.empty() ? "" : " ") + t.spelling;
    return out;
}

// Test that every order of a pointer parameter's qualifiers reads as the address space first:
// Slang writes `uint device* p`, `T const device* p` (valid MSL, the same types).
TEST(QualifierOrder, EverySpellingOfAParameterPutsTheSpaceFirst) {
    EXPECT_EQ(reordered("void f(device uint* p);"), "void f ( device uint * p ) ;");
    EXPECT_EQ(reordered("void f(uint device* p);"), "void f ( device uint * p ) ;");
    EXPECT_EQ(reordered("void f(const device uint* p);"), "void f ( const device uint * p ) ;");
    EXPECT_EQ(reordered("void f(device const uint* p);"), "void f ( device const uint * p ) ;");
    EXPECT_EQ(reordered("void f(uint const device* p);"), "void f ( device uint const * p ) ;");
    EXPECT_EQ(reordered("void f(uint device const* p);"), "void f ( device uint const * p ) ;");
    EXPECT_EQ(reordered("void f(Params constant& p, unsigned int threadgroup* t);"),
              "void f ( constant Params & p , threadgroup unsigned int * t ) ;");
}

// Test that the type moved over may hold template arguments with brackets, nested names and
// nested pointers (Slang's `array<float, int(2048)> threadgroup* k_tile_0`), and that the
// brackets' partners move with them.
TEST(QualifierOrder, TemplateArgumentsAndNestedNamesMoveWhole) {
    auto p = testing::parse("struct C { metal::array<float, int(2048)> threadgroup* tile; atomic<uint> device* n; };");
    ASSERT_FALSE(p->diagnostics.hasErrors());
    EXPECT_EQ(reordered("struct C { metal::array<float, int(2048)> threadgroup* tile; atomic<uint> device* n; };"),
              "struct C { threadgroup metal :: array < float , int ( 2048 ) > * tile ; device atomic < uint > * n ; } ;");
    const std::size_t open = p->find("("), close = p->find(")");
    EXPECT_EQ(p->partner[open], close);
    EXPECT_EQ(p->partner[close], open);
    EXPECT_EQ(p->partner[p->find("{")], p->find("}"));
    // Inside template arguments and casts the type starts after the `<`.
    EXPECT_EQ(reordered("auto q = static_cast<uint device*>(p);"), "auto q = static_cast < device uint * > ( p ) ;");
    EXPECT_EQ(reordered("vec<uint device*, 2> v;"), "vec < device uint * , 2 > v ;");
}

// Test that the qualifiers that are not a type's leading ones stay: of a pointer (after its
// `*`), of a member function (after its parameters), a member named like a space, a template
// header's `>` and a keyword before the type.
TEST(QualifierOrder, OtherQualifiersStay) {
    EXPECT_EQ(reordered("device uint* device* p;"), "device uint * device * p ;");
    EXPECT_EQ(reordered("uint device* device* p;"), "device uint * device * p ;");
    EXPECT_EQ(reordered("struct S { int get() const device; };"), "struct S { int get ( ) const device ; } ;");
    EXPECT_EQ(reordered("struct S { int get() device const; };"), "struct S { int get ( ) device const ; } ;");
    EXPECT_EQ(reordered("int f() { return s.device * 2; }"), "int f ( ) { return s . device * 2 ; }");
    EXPECT_EQ(reordered("template <typename T> T device* f(T device* p);"),
              "template < typename T > device T * f ( device T * p ) ;");
    EXPECT_EQ(reordered("static constexpr float constant k = 1;"), "static constexpr constant float k = 1 ;");
}

} // namespace
} // namespace metalcpu::msl
