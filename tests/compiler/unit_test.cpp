#include "compiler/unit.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>

namespace metalcpu::msl {
namespace {

/// The role of every token of `source` as "spelling:role", one per token, joined by spaces;
/// tokens whose role is Unknown print their spelling alone.
std::string roles(std::string_view source) {
    auto p = testing::parse(source);
    const Unit unit(p->tokens, p->partner, p->module);
    std::string out;
    for (std::size_t i = 0; i + 1 < p->tokens.size(); ++i) {
        if (!out.empty()) out += ' ';
        out += p->tokens[i].spelling;
        if (unit.role(i) != TokenRole::Unknown) out += std::string(":") + tokenRoleName(unit.role(i));
    }
    return out;
}

// Test that declared names are declarators, and names used in expressions are names.
TEST(UnitRoles, DeclaratorsAndNames) {
    EXPECT_EQ(roles("float a = b;"), "float:keyword a:declarator =:assignment b:name ;");
    EXPECT_EQ(roles("device float* p, q;"), "device:name float:keyword * p:declarator , q:declarator ;");
    EXPECT_EQ(roles("vec<float, 4> v[2];"),
              "vec:name < float:keyword , 4 > v:declarator [:array-bound 2 ] ;");
    EXPECT_EQ(roles("void f(int x) { return x; }"),
              "void:keyword f:declarator ( int:keyword x:declarator ) { return:keyword x:name ; }");
}

// Test that every declarator of a declaration is one (arrays after a comma were read as
// subscripts, which broke the shader-validation flavour), and that commas inside arguments,
// template argument lists and comma expressions keep their names.
TEST(UnitRoles, DeclaratorLists) {
    EXPECT_EQ(roles("void f() { float x[4], y[4]; }"),
              "void:keyword f:declarator ( ) { float:keyword x:declarator [:array-bound 4 ] , y:declarator "
              "[:array-bound 4 ] ; }");
    EXPECT_EQ(roles("void f() { int a = g(b, c[0]), d[2] = {e, h[1]}; }"),
              "void:keyword f:declarator ( ) { int:keyword a:declarator =:assignment g:callee (:call b:name , c:name "
              "[:subscript 0 ] ) , d:declarator [:array-bound 2 ] =:assignment { e:name , h:name [:subscript 1 ] } ; "
              "}");
    EXPECT_EQ(roles("void f() { int a = k<b, c[0]>(); x = 1, y[0] = 2; }"),
              "void:keyword f:declarator ( ) { int:keyword a:declarator =:assignment k:callee < b:name , c:name "
              "[:subscript 0 ] > (:call ) ; x:name =:assignment 1 , y:name [:subscript 0 ] =:assignment 2 ; }");
}

// Test that a `*` between two names at the start of a statement declares, and in an
// expression multiplies.
TEST(UnitRoles, PointerDeclarationOrProduct) {
    EXPECT_EQ(roles("void f() { T* p = 0; y = a * b; }"),
              "void:keyword f:declarator ( ) { T:name * p:declarator =:assignment 0 ; y:name =:assignment a:name * "
              "b:name ; }");
}

// Test that `T* p[N]` and `vec<T, 2> v[N]` declare where a declaration can start, and that
// the same tokens inside call arguments, parentheses and initialiser lists are operations.
TEST(UnitRoles, DeclarationsOnlyWhereTheyCanBe) {
    EXPECT_EQ(roles("void f() { T* p[2]; }"),
              "void:keyword f:declarator ( ) { T:name * p:declarator [:array-bound 2 ] ; }");
    EXPECT_EQ(roles("void f() { g(a, b * c[i]); }"),
              "void:keyword f:declarator ( ) { g:callee (:call a:name , b:name * c:name [:subscript i:name ] ) ; }");
    EXPECT_EQ(roles("void f() { float v[2] = {a * b[0], 1}; }"),
              "void:keyword f:declarator ( ) { float:keyword v:declarator [:array-bound 2 ] =:assignment { a:name * "
              "b:name [:subscript 0 ] , 1 } ; }");
    // Comparisons that look like `vec<T, 2> v[N]` or `T* p[N]` where no declaration starts.
    EXPECT_EQ(roles("void f() { bool ok = i < n && x > y[i]; }"),
              "void:keyword f:declarator ( ) { bool:keyword ok:declarator =:assignment i:name < n:name && x:name > "
              "y:name [:subscript i:name ] ; }");
    EXPECT_EQ(roles("void f() { return i < n && x > y[i]; }"),
              "void:keyword f:declarator ( ) { return:keyword i:name < n:name && x:name > y:name [:subscript i:name "
              "] ; }");
    EXPECT_EQ(roles("void f() { for (T* p[2]; x * y[j] < 4; ) {} }"),
              "void:keyword f:declarator ( ) { for:keyword ( T:name * p:declarator [:array-bound 2 ] ; x:name * "
              "y:name [:subscript j:name ] < 4 ; ) { } }");
    EXPECT_EQ(roles("void f(device T* p[2]) {}"),
              "void:keyword f:declarator ( device:name T:name * p:declarator [:array-bound 2 ] ) { }");
}

// Test members, qualified names, calls and named casts.
TEST(UnitRoles, MembersCallsCasts) {
    EXPECT_EQ(roles("x = s.device + p->n + ns::k;"),
              "x:name =:assignment s:name . device:member + p:name -> n:member + ns:name :: k:qualified-part ;");
    EXPECT_EQ(roles("y = f(a) + metal::max<T>(b, c);"),
              "y:name =:assignment f:callee (:call a:name ) + metal:name :: max:qualified-part < T:name > (:call b:name , "
              "c:name ) ;");
    EXPECT_EQ(roles("q = static_cast<int>(v) + (device float*)p;"),
              "q:name =:assignment static_cast:keyword < int:keyword > (:cast v:name ) + (:cast device:name "
              "float:keyword * ) p:name ;");
    EXPECT_EQ(roles("void f() { s.g(); }"), "void:keyword f:declarator ( ) { s:name . g:member (:call ) ; }");
    // `template` after `.`, `->` or `::` only says that a template's name follows.
    EXPECT_EQ(roles("x = a.template g<T>(y) + p->template h<U>() + n::template m<T>();"),
              "x:name =:assignment a:name . template:keyword g:member < T:name > (:call y:name ) + p:name -> "
              "template:keyword h:member < U:name > (:call ) + n:name :: template:keyword m:qualified-part < T:name > "
              "(:call ) ;");
    EXPECT_EQ(roles("void f() { if (a) b(); }"),
              "void:keyword f:declarator ( ) { if:keyword ( a:name ) b:callee (:call ) ; }");
}

// Test C-style casts where an operand starts: after `return` and its kin, after a condition and
// after another cast; and parentheses there that are no cast: a parenthesised operand, never a
// call (as a call, `if (c) (a)[0] = 1;` had checked accesses take `(c)` for the callee).
TEST(UnitRoles, CastsWhereAnOperandStarts) {
    EXPECT_EQ(roles("void f() { return (float)*p; }"),
              "void:keyword f:declarator ( ) { return:keyword (:cast float:keyword ) *:dereference p:name ; }");
    EXPECT_EQ(roles("void f() { if (c) (void)*p; else (void)x; }"),
              "void:keyword f:declarator ( ) { if:keyword ( c:name ) (:cast void:keyword ) *:dereference p:name ; "
              "else:keyword "
              "(:cast void:keyword ) x:name ; }");
    EXPECT_EQ(roles("void f() { x = (float)(int)*p + (float)(y); }"),
              "void:keyword f:declarator ( ) { x:name =:assignment (:cast float:keyword ) (:cast int:keyword ) "
              "*:dereference p:name + (:cast float:keyword ) ( y:name ) ; }");
    EXPECT_EQ(roles("void f() { if (c) (a)[0] = 1; return (b); }"),
              "void:keyword f:declarator ( ) { if:keyword ( c:name ) ( a:name ) [:subscript 0 ] =:assignment 1 ; "
              "return:keyword ( b:name ) ; }");
}

// Test that a `*` or `&` after a comma that continues a declarator list declares (`float a,
// *b;`), and that isDeclaratorOperator() says so for it and not for operators.
TEST(UnitRoles, PointerDeclaratorsAfterAComma) {
    EXPECT_EQ(roles("void f() { float a, *b, &c = a; x = 1, *p = 2; }"),
              "void:keyword f:declarator ( ) { float:keyword a:declarator , * b:declarator , & c:declarator "
              "=:assignment a:name ; x:name =:assignment 1 , *:dereference p:name =:assignment 2 ; }");
    EXPECT_EQ(roles("void f() { vec<float, 2> a, * const *b; return a, *b; }"),
              "void:keyword f:declarator ( ) { vec:name < float:keyword , 2 > a:declarator , * const:keyword * "
              "b:declarator ; return:keyword a:name , *:dereference b:name ; }");
    auto p = testing::parse("void f() { float a, *b; T* q; x = 1, *p = 2; y = a * b; }");
    const Unit unit(p->tokens, p->partner, p->module);
    EXPECT_TRUE(unit.isDeclaratorOperator(p->find("*", 0)));  // *b
    EXPECT_TRUE(unit.isDeclaratorOperator(p->find("*", 1)));  // T* q
    EXPECT_FALSE(unit.isDeclaratorOperator(p->find("*", 2))); // *p = 2
    EXPECT_FALSE(unit.isDeclaratorOperator(p->find("*", 3))); // a * b
    EXPECT_FALSE(unit.isDeclaratorOperator(p->find("a")));    // not a `*` or `&`
}

// Test that a `*` or `&` is unary where an operand starts before it: at a statement's start,
// after an operator, a condition, a C-style cast or `return`; and where it follows an operand
// (`a * b`, a named cast's result), a type (`float*`, `T* p`) or is no operator (`[&]`), it is
// none. The checked accesses' own guess took `if (c) *p = 0;`, `a * *p` and `a & *p` for no
// dereference and left them unchecked, and `static_cast<int>(y) * z` for one.
TEST(UnitRoles, UnaryOperators) {
    EXPECT_EQ(roles("void f() { *p = a * *q + (a & *r); x = &y[0]; z = a & b; }"),
              "void:keyword f:declarator ( ) { *:dereference p:name =:assignment a:name * *:dereference q:name + ( "
              "a:name & *:dereference r:name ) ; x:name =:assignment &:address-of y:name [:subscript 0 ] ; z:name "
              "=:assignment a:name & b:name ; }");
    EXPECT_EQ(roles("void f() { if (c) *p = 0; while (n) *q++ = 0; return **pp; }"),
              "void:keyword f:declarator ( ) { if:keyword ( c:name ) *:dereference p:name =:assignment 0 ; "
              "while:keyword ( n:name ) *:dereference q:name ++:increment =:assignment 0 ; return:keyword "
              "*:dereference *:dereference pp:name ; }");
    EXPECT_EQ(roles("void f() { x = static_cast<int>(y) * z; q = &*p; }"),
              "void:keyword f:declarator ( ) { x:name =:assignment static_cast:keyword < int:keyword > (:cast y:name ) "
              "* z:name ; q:name =:assignment &:address-of *:dereference p:name ; }");
    EXPECT_EQ(roles("void f() { T** q; x = (float**)p; y = reinterpret_cast<float**>(p); g([&] { }); }"),
              "void:keyword f:declarator ( ) { T:name * * q:declarator ; x:name =:assignment (:cast float:keyword * * "
              ") p:name ; y:name =:assignment reinterpret_cast:keyword < float:keyword * * > (:cast p:name ) ; "
              "g:callee (:call [:lambda & ] { } ) ; }");
    EXPECT_EQ(roles("void f() { x = a++ * b; y = ++*p + (c)-- * d; }"),
              "void:keyword f:declarator ( ) { x:name =:assignment a:name ++:increment * b:name ; y:name =:assignment "
              "++:increment *:dereference p:name + ( c:name ) --:increment * d:name ; }");
    EXPECT_EQ(roles("void f() { b = a < *p || a > *q; }"),
              "void:keyword f:declarator ( ) { b:name =:assignment a:name < *:dereference p:name || a:name > "
              "*:dereference q:name ; }");
}

// Test that a `&` after a comparison's `<` or `>` takes an address (it was read as a template
// argument's, `foo<&x>`, always), and after a template argument list's `<` it does not.
TEST(UnitRoles, AddressesCompared) {
    EXPECT_EQ(roles("void f() { b = p < &x; c = q > &y[0]; }"),
              "void:keyword f:declarator ( ) { b:name =:assignment p:name < &:address-of x:name ; c:name "
              "=:assignment q:name > &:address-of y:name [:subscript 0 ] ; }");
    EXPECT_EQ(roles("void f() { while (p < &e[n]) n = a > b; }"),
              "void:keyword f:declarator ( ) { while:keyword ( p:name < &:address-of e:name [:subscript n:name ] ) "
              "n:name =:assignment a:name > b:name ; }");
    EXPECT_EQ(roles("void f() { g<&x>(y); h<&S::m, 2>(); }"),
              "void:keyword f:declarator ( ) { g:callee < & x:name > (:call y:name ) ; h:callee < & S:name :: "
              "m:qualified-part , 2 > (:call ) ; }");
    EXPECT_EQ(roles("void f() { vec<float, 2>& v = w; x = static_cast<thread T&>(y); }"),
              "void:keyword f:declarator ( ) { vec:name < float:keyword , 2 > & v:declarator =:assignment w:name ; "
              "x:name =:assignment static_cast:keyword < thread:name T:name & > (:cast y:name ) ; }");
}

// Test that a parenthesised group followed by a name or a literal is a cast whatever the type
// (no parenthesised expression is followed by one), where an expression may start only: the
// parameters of a declaration and a placement stay no cast.
TEST(UnitRoles, CastsToAnyType) {
    EXPECT_EQ(roles("void f() { x = (fptr)p + (T)1; y = (a) + b; }"),
              "void:keyword f:declarator ( ) { x:name =:assignment (:cast fptr:name ) p:name + (:cast T:name ) 1 ; "
              "y:name =:assignment ( a:name ) + b:name ; }");
    EXPECT_EQ(roles("void f() { return (U)v; }"),
              "void:keyword f:declarator ( ) { return:keyword (:cast U:name ) v:name ; }");
    EXPECT_EQ(roles("void g(T) override;"), "void:keyword g:declarator ( T:name ) override:name ;");
    EXPECT_EQ(roles("void h() { new (p) T; }"), "void:keyword h:declarator ( ) { new:keyword ( p:name ) T:name ; }");
}

// Test that a `->` after a lambda's introducer or parameters (past its specifiers) or after a
// function declarator's parameters starts a trailing return type, and after an operand does
// not: `a > (p)->m` was taken for a lambda's template parameters and left unchecked.
TEST(UnitRoles, TrailingReturnTypes) {
    auto p = testing::parse("auto h(int x) -> int;\n"
                            "void f() {\n"
                            "  auto g = [](int k) mutable noexcept(true) -> int { return k; };\n"
                            "  auto t = []<class T>(T k) [[nodiscard]] -> T { return k; };\n"
                            "  auto e = [] -> int { return 0; };\n"
                            "  x = a > (p)->m + (q + 1)->m + s()->m + r->m;\n"
                            "}\n");
    const Unit unit(p->tokens, p->partner, p->module);
    for (int n = 0; n < 4; ++n) EXPECT_TRUE(unit.startsTrailingReturnType(p->find("->", n))) << n;
    for (int n = 4; n < 8; ++n) EXPECT_FALSE(unit.startsTrailingReturnType(p->find("->", n))) << n;
    EXPECT_FALSE(unit.startsTrailingReturnType(p->find("x"))); // not a `->`
}

// Test that a name declared with a direct initialiser, `T v(x)`, is a declarator (its `(` a
// call's: a constructor's or a conversion's, as in `T v = T(x)`), after a type name or keyword,
// a template type, a declarator's `*`/`&` or a comma that continues a declarator list; read as
// a called name, a pass took candle's `block_reducer<T, OP, N> reduce(shared);` for a call of
// the function `reduce` around it.
TEST(UnitRoles, DirectInitialisedDeclarators) {
    EXPECT_EQ(roles("void f() { float4 acc(0.0f); }"),
              "void:keyword f:declarator ( ) { float4:name acc:declarator (:call 0.0f ) ; }");
    EXPECT_EQ(roles("void f() { block_reducer<T, OP, N> reduce(shared); reduce(x); }"),
              "void:keyword f:declarator ( ) { block_reducer:name < T:name , OP:name , N:name > reduce:declarator (:call "
              "shared:name ) ; reduce:callee (:call x:name ) ; }");
    EXPECT_EQ(roles("void f() { Foo g(a, b[0]), h(c); int n(4); }"),
              "void:keyword f:declarator ( ) { Foo:name g:declarator (:call a:name , b:name [:subscript 0 ] ) , "
              "h:declarator (:call c:name ) ; int:keyword n:declarator (:call 4 ) ; }");
    EXPECT_EQ(roles("void f() { const device T* p(q); T& r(*s); }"),
              "void:keyword f:declarator ( ) { const:keyword device:name T:name * p:declarator (:call q:name ) ; T:name & "
              "r:declarator (:call *:dereference s:name ) ; }");
    EXPECT_EQ(roles("void f() { for (It it(a); it.ok(); ) {} }"),
              "void:keyword f:declarator ( ) { for:keyword ( It:name it:declarator (:call a:name ) ; it:name . ok:member "
              "(:call ) ; ) { } }");
    EXPECT_EQ(roles("constant float4 k(1.0f);"), "constant:name float4:name k:declarator (:call 1.0f ) ;");
}

// Test the shapes of a direct initialiser that are something else: `T f(U);` declares a
// function (its name is a declarator all the same; at namespace scope, where the scanner lists
// it, its `(` is no call or cast); `a < b > (c)`
// names nothing; and where no declaration starts, a name after a type-like name, `>`, `*` or
// `&` is called: after an operator, `return` and its kin, in arguments, conditions and
// initialiser lists.
TEST(UnitRoles, DirectInitialiserLookalikes) {
    EXPECT_EQ(roles("T f(U);"), "T:name f:declarator ( U:name ) ;");
    EXPECT_EQ(roles("void g(int) const;"), "void:keyword g:declarator ( int:keyword ) const:keyword ;");
    EXPECT_EQ(roles("void f() { T h(U); }"), "void:keyword f:declarator ( ) { T:name h:declarator (:call U:name ) ; }");
    EXPECT_EQ(roles("void f() { a < b > (c); x = a < b > (c); }"),
              "void:keyword f:declarator ( ) { a:callee < b:name > (:call c:name ) ; x:name =:assignment a:callee < "
              "b:name > (:call c:name ) ; }");
    EXPECT_EQ(roles("void f() { x = a < b > g(c); y = a * g(b); z = c & g(d); }"),
              "void:keyword f:declarator ( ) { x:name =:assignment a:name < b:name > g:callee (:call c:name ) ; "
              "y:name =:assignment a:name * g:callee (:call b:name ) ; z:name =:assignment c:name & g:callee (:call "
              "d:name ) ; }");
    EXPECT_EQ(roles("void f() { return T(x); }"),
              "void:keyword f:declarator ( ) { return:keyword T:callee (:call x:name ) ; }");
    EXPECT_EQ(roles("void f() { if (c) g(x); else h(y); p = new T(z); }"),
              "void:keyword f:declarator ( ) { if:keyword ( c:name ) g:callee (:call x:name ) ; else:keyword "
              "h:callee (:call y:name ) ; p:name =:assignment new:keyword T:callee (:call z:name ) ; }");
    EXPECT_EQ(roles("void f() { k(a, b * m(c)); if (i < n && j > g(c)) {} v = {a * g(b)}; }"),
              "void:keyword f:declarator ( ) { k:callee (:call a:name , b:name * m:callee (:call c:name ) ) ; "
              "if:keyword ( i:name < n:name && j:name > g:callee (:call c:name ) ) { } v:name =:assignment { a:name "
              "* g:callee (:call b:name ) } ; }");
    // The alternative spellings of operators are no type names (`and`, `xor`, `compl`...).
    EXPECT_EQ(roles("void f() { b = a xor g(x) bitand h(y) or compl k(z); }"),
              "void:keyword f:declarator ( ) { b:name =:assignment a:name xor:name g:callee (:call x:name ) "
              "bitand:name h:callee (:call y:name ) or:name compl:name k:callee (:call z:name ) ; }");
    EXPECT_EQ(roles("void f() { for (; i < n && j > g(c); ) {} return a, b(c); }"),
              "void:keyword f:declarator ( ) { for:keyword ( ; i:name < n:name && j:name > g:callee (:call c:name ) "
              "; ) { } return:keyword a:name , b:callee (:call c:name ) ; }");
}

// Test that a pointer to an array or a function declares its name in parentheses, where a
// declaration starts, and that the same group in an expression dereferences (the validation
// flavour took `float (*q)[4] = r;` for a load and a store, and did not compile).
TEST(UnitRoles, ParenthesisedDeclarators) {
    EXPECT_EQ(roles("void f() { float (*q)[4] = r; }"),
              "void:keyword f:declarator ( ) { float:keyword ( * q:declarator ) [:array-bound 4 ] =:assignment r:name ; }");
    EXPECT_EQ(roles("void f() { T (*g)(int) = h; }"),
              "void:keyword f:declarator ( ) { T:name ( * g:declarator ) ( int:keyword ) =:assignment h:name ; }");
    EXPECT_EQ(roles("void f() { threadgroup T (&t)[4] = u; }"),
              "void:keyword f:declarator ( ) { threadgroup:name T:name ( & t:declarator ) [:array-bound 4 ] "
              "=:assignment u:name ; }");
    EXPECT_EQ(roles("void f(float (&a)[4]);"),
              "void:keyword f:declarator ( float:keyword ( & a:declarator ) [:array-bound 4 ] ) ;");
    EXPECT_EQ(roles("void f() { x = (*q)[1] + (*g)(2); }"),
              "void:keyword f:declarator ( ) { x:name =:assignment ( *:dereference q:name ) [:subscript 1 ] + ( "
              "*:dereference g:name ) (:call 2 ) ; }");
    EXPECT_EQ(roles("void f() { return (*g)(2); }"),
              "void:keyword f:declarator ( ) { return:keyword ( *:dereference g:name ) (:call 2 ) ; }");
}

// Test the three meanings of `[`: subscript, array bound, lambda; and attributes.
TEST(UnitRoles, Brackets) {
    EXPECT_EQ(roles("a[i] = f()[0];"),
              "a:name [:subscript i:name ] =:assignment f:callee (:call ) [:subscript 0 ] ;");
    EXPECT_EQ(roles("auto g = [&](int k) { return k; };"),
              "auto:keyword g:declarator =:assignment [:lambda & ] ( int:keyword k:declarator ) { "
              "return:keyword k:name ; } ;");
    EXPECT_EQ(roles("float m[2][3];"), "float:keyword m:declarator [:array-bound 2 ] [:array-bound 3 ] ;");
    EXPECT_EQ(roles("kernel void k(uint i [[thread_position_in_grid]]) {}"),
              "kernel:name void:keyword k:declarator ( uint:name i:declarator [:attribute [:attribute "
              "thread_position_in_grid:attribute ]:attribute ]:attribute ) { }");
}

// Test assignments, compound assignments (`>>=` arrives as `>` `>=`) and increments.
TEST(UnitRoles, Assignments) {
    EXPECT_EQ(roles("a += 1; b >>= 2; ++c; d--;"),
              "a:name +=:compound-assignment 1 ; b:name >:compound-assignment >= 2 ; ++:increment c:name ; "
              "d:name --:increment ;");
}

// Test statement starts from the statement trees, and the innermost function of a token.
TEST(UnitStatements, StartsAndFunctions) {
    auto p = testing::parse("void f(int n) { int a = 0; if (n) { a = g(n); } for (;;) break; }\n"
                            "void h() { x = 1; }");
    const Unit unit(p->tokens, p->partner, p->module);
    EXPECT_TRUE(unit.startsStatement(p->find("int", 1)));
    EXPECT_TRUE(unit.startsStatement(p->find("if")));
    EXPECT_TRUE(unit.startsStatement(p->find("a", 1)));
    EXPECT_FALSE(unit.startsStatement(p->find("g")));
    EXPECT_TRUE(unit.startsStatement(p->find("break")));
    EXPECT_TRUE(unit.startsStatement(p->find("x")));
    EXPECT_EQ(unit.functionAt(p->find("g")), 0u);
    EXPECT_EQ(unit.functionAt(p->find("x")), 1u);
    EXPECT_EQ(unit.functionAt(p->find("n")), kNoToken); // a parameter, not in the body
    ASSERT_NE(unit.body(0), nullptr);
    EXPECT_EQ(unit.body(0)->size(), 3u);
    EXPECT_EQ(unit.lexicalBodies(), 0u);
}

// Test that the bodies of lambdas written in a function body, nested ones included, have
// statement trees of their own, whose statements start statements; a body the parser cannot
// delimit has none and starts nothing.
TEST(UnitStatements, LambdaBodies) {
    auto p = testing::parse("void f() {\n"
                            "  auto g = [&](int k) { int y = k; if (k) { y += 1; } return y; };\n"
                            "  auto h = [] { auto i = [] { return 2; }; return i(); };\n"
                            "  auto b = [] { x = 1 };\n"
                            "}");
    const Unit unit(p->tokens, p->partner, p->module);
    EXPECT_EQ(unit.nestedBody(p->find("{")), nullptr); // the function's own body
    const std::vector<Statement>* g = unit.nestedBody(p->find("{", 1));
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(g->size(), 3u);
    EXPECT_EQ((*g)[1].kind, StatementKind::If);
    EXPECT_TRUE(unit.startsStatement(p->find("int", 1)));
    EXPECT_TRUE(unit.startsStatement(p->find("if")));
    EXPECT_TRUE(unit.startsStatement(p->find("y", 1)));
    EXPECT_FALSE(unit.startsStatement(p->find("k", 1)));
    EXPECT_TRUE(unit.startsStatement(p->find("return")));
    ASSERT_NE(unit.nestedBody(p->find("{", 3)), nullptr);
    EXPECT_EQ(unit.nestedBody(p->find("{", 3))->size(), 2u);
    ASSERT_NE(unit.nestedBody(p->find("{", 4)), nullptr);
    EXPECT_EQ(unit.nestedBody(p->find("{", 4))->size(), 1u);
    EXPECT_TRUE(unit.startsStatement(p->find("return", 1)));
    EXPECT_TRUE(unit.startsStatement(p->find("return", 2)));
    EXPECT_EQ(unit.nestedBody(p->find("{", 5)), nullptr);
    EXPECT_FALSE(unit.startsStatement(p->find("x")));
}

// Test that the member functions a local class defines, constructors, operators, those of a
// class nested in it and lambdas in them included, have statement trees whose statements start
// statements; the class's data members and a member declared without a body start none.
TEST(UnitStatements, LocalClassMemberBodies) {
    auto p = testing::parse("void f() {\n"
                            "  struct S {\n"
                            "    int n = 1;\n"
                            "    S(int k) : n(k) { if (k) { n += 1; } }\n"
                            "    float operator()(float x) const { float y = x; return y * n; }\n"
                            "    void g();\n"
                            "    struct In { int h() { auto l = [] { return 2; }; return l(); } };\n"
                            "  };\n"
                            "  S s(2);\n"
                            "}");
    const Unit unit(p->tokens, p->partner, p->module);
    EXPECT_EQ(p->module.functions.size(), 1u); // the scanner lists only f
    const std::vector<NestedBody> nested = findNestedBodies(unit, 0);
    ASSERT_EQ(nested.size(), 3u); // S, In and the lambda
    ASSERT_EQ(nested[0].memberBodies.size(), 2u);
    ASSERT_EQ(nested[1].memberBodies.size(), 1u);
    const std::vector<Statement>* constructor = unit.nestedBody(nested[0].memberBodies[0]);
    ASSERT_NE(constructor, nullptr);
    ASSERT_EQ(constructor->size(), 1u);
    EXPECT_EQ((*constructor)[0].kind, StatementKind::If);
    ASSERT_NE(unit.nestedBody(nested[0].memberBodies[1]), nullptr);
    EXPECT_EQ(unit.nestedBody(nested[0].memberBodies[1])->size(), 2u);
    ASSERT_NE(unit.nestedBody(nested[1].memberBodies[0]), nullptr);
    EXPECT_EQ(unit.nestedBody(nested[1].memberBodies[0])->size(), 2u);
    EXPECT_TRUE(unit.startsStatement(p->find("if")));
    EXPECT_TRUE(unit.startsStatement(p->find("n", 2)));      // n += 1
    EXPECT_TRUE(unit.startsStatement(p->find("float", 2)));  // float y = x;
    EXPECT_TRUE(unit.startsStatement(p->find("return", 0))); // return y * n;
    EXPECT_TRUE(unit.startsStatement(p->find("return", 1))); // in the lambda
    EXPECT_TRUE(unit.startsStatement(p->find("return", 2))); // return l();
    EXPECT_TRUE(unit.startsStatement(p->find("S", 2)));      // S s(2); in f's own tree
    EXPECT_FALSE(unit.startsStatement(p->find("int")));      // a data member
    EXPECT_FALSE(unit.startsStatement(p->find("void", 1)));  // declared without a body
    EXPECT_FALSE(unit.startsStatement(p->find("k", 1)));     // a member initialiser
}

// Test that a local class whose body the scanner cannot read lists no member bodies, and its
// code starts no statements (it did before there were trees).
TEST(UnitStatements, LocalClassMemberBodiesUnread) {
    auto p = testing::parse("void f() { struct S { int g() { return 1; } int x }; }");
    const Unit unit(p->tokens, p->partner, p->module);
    const std::vector<NestedBody> nested = findNestedBodies(unit, 0);
    ASSERT_EQ(nested.size(), 1u);
    EXPECT_TRUE(nested[0].memberBodies.empty());
    EXPECT_FALSE(unit.startsStatement(p->find("return")));
}

// Test that a lambda's tree decides its statements' starts in a function body the parser
// cannot delimit (judged by its tokens, where a for's `;` would start one).
TEST(UnitStatements, LambdaBodiesInLexicalBodies) {
    auto p = testing::parse("void f() { auto g = [] { for (int i = 0; i < 4; ++i) {} return 1; }; y = 2 }");
    const Unit unit(p->tokens, p->partner, p->module);
    EXPECT_EQ(unit.lexicalBodies(), 1u);
    ASSERT_NE(unit.nestedBody(p->find("{", 1)), nullptr);
    EXPECT_FALSE(unit.startsStatement(p->find("i", 1)));
    EXPECT_TRUE(unit.startsStatement(p->find("for")));
    EXPECT_TRUE(unit.startsStatement(p->find("return")));
    EXPECT_TRUE(unit.startsStatement(p->find("y"))); // judged by its tokens
}

/// The source text of the postfix expression of statement `source` (in a function body) whose
/// last token is the n-th spelled `last`, as Unit::postfixStart() delimits it; "refused" when it
/// stops at template arguments, "none" when there is no start.
std::string postfixOf(std::string_view source, std::string_view last, int n, TemplateArguments how) {
    auto p = testing::parse("void f() { " + std::string(source) + " }");
    const Unit unit(p->tokens, p->partner, p->module);
    const std::size_t end = p->find(last, n);
    bool refused = false;
    const std::size_t start = unit.postfixStart(end, how, &refused);
    if (start == kNoToken) return refused ? "refused" : "none";
    EXPECT_FALSE(refused);
    return sourceText(p->tokens, start, end + 1);
}

// Test where a postfix expression starts: back over subscripts, calls, members and
// qualifications, to a parenthesised expression or a named cast, with a C-style cast outside.
TEST(UnitExpressions, PostfixStart) {
    for (TemplateArguments how : {TemplateArguments::Refuse, TemplateArguments::Follow}) {
        EXPECT_EQ(postfixOf("x = a[i].b[j];", "]", 1, how), "a[i].b[j]");
        EXPECT_EQ(postfixOf("x = p->f(y);", ")", 1, how), "p->f(y)");
        EXPECT_EQ(postfixOf("this->x = 0;", "x", 0, how), "this->x");
        EXPECT_EQ(postfixOf("x = ns::v[i];", "]", 0, how), "ns::v[i]");
        EXPECT_EQ(postfixOf("x = ::v[i];", "]", 0, how), "::v[i]");
        EXPECT_EQ(postfixOf("x = (*p)[i];", "]", 0, how), "(*p)[i]");
        EXPECT_EQ(postfixOf("x = g(y)[0];", "]", 0, how), "g(y)[0]");
        EXPECT_EQ(postfixOf("x = static_cast<device S&>(s).m;", "m", 0, how), "static_cast<device S&>(s).m");
        EXPECT_EQ(postfixOf("x = (float)a[i];", "]", 0, how), "a[i]");
        EXPECT_EQ(postfixOf("x = a->*m;", "m", 0, how), "m"); // `->*` binds looser than a postfix
        EXPECT_EQ(postfixOf("x = c > ::v[i];", "]", 0, how), "::v[i]"); // no `<`: a comparison
        EXPECT_EQ(postfixOf("auto g = [&](int k) { return k; };", "]", 0, how), "none");
        EXPECT_EQ(postfixOf("x = 1;", "1", 0, how), "none");
    }
}

/// The source text of the postfix expression of statement `source` (in a function body) that
/// starts at the n-th token spelled `first`, as Unit::postfixEnd() delimits it; "none" when
/// there is none.
std::string postfixFrom(std::string_view source, std::string_view first, int n = 0) {
    auto p = testing::parse("void f() { " + std::string(source) + " }");
    const Unit unit(p->tokens, p->partner, p->module);
    const std::size_t begin = p->find(first, n);
    const std::size_t end = unit.postfixEnd(begin);
    return end == kNoToken ? "none" : sourceText(p->tokens, begin, end + 1);
}

// Test where a postfix expression ends: forwards over subscripts, calls with their template
// arguments, member accesses and postfix increments; past a C-style cast to its operand.
TEST(UnitExpressions, PostfixEnd) {
    EXPECT_EQ(postfixFrom("x = a[i].b[j] + 1;", "a"), "a[i].b[j]");
    EXPECT_EQ(postfixFrom("x = p->f(y)->m * 2;", "p"), "p->f(y)->m");
    EXPECT_EQ(postfixFrom("x = ns::g<T>(y)[0];", "ns"), "ns::g<T>(y)[0]");
    EXPECT_EQ(postfixFrom("x = ::v[i];", "::"), "::v[i]");
    EXPECT_EQ(postfixFrom("x = (p + 1)[i];", "(", 1), "(p + 1)[i]");
    EXPECT_EQ(postfixFrom("x = (float)a[i];", "(", 1), "(float)a[i]");
    EXPECT_EQ(postfixFrom("x = reinterpret_cast<device T*>(p)[i];", "reinterpret_cast"),
              "reinterpret_cast<device T*>(p)[i]");
    EXPECT_EQ(postfixFrom("x = a++;", "a"), "a++");
    EXPECT_EQ(postfixFrom("x = a.*m;", "a"), "a"); // `.*` binds looser than a postfix
    EXPECT_EQ(postfixFrom("x = 1;", "1"), "none");
}

// Test that template arguments stop the walk when refused (the `>` may close a comparison)
// and are followed as the roles read them otherwise.
TEST(UnitExpressions, PostfixStartTemplateArguments) {
    EXPECT_EQ(postfixOf("x = a.template f<T>(y).g;", "g", 0, TemplateArguments::Refuse), "refused");
    EXPECT_EQ(postfixOf("x = a.template f<T>(y).g;", "g", 0, TemplateArguments::Follow), "a.template f<T>(y).g");
    EXPECT_EQ(postfixOf("x = a < b && c > (d)[i];", "]", 0, TemplateArguments::Refuse), "refused");
    EXPECT_EQ(postfixOf("x = S<T>::v[i];", "]", 0, TemplateArguments::Refuse), "refused");
    EXPECT_EQ(postfixOf("x = S<T>::v[i];", "]", 0, TemplateArguments::Follow), "S<T>::v[i]");
    EXPECT_EQ(postfixOf("x = ns::h<T>(y)[0];", "]", 0, TemplateArguments::Follow), "ns::h<T>(y)[0]");
}

// Test where a qualified name starts: its namespaces and class templates, not the object of a
// member.
TEST(UnitExpressions, QualifiedNameStart) {
    auto p = testing::parse("void f() { a::b::c(); ::d::e(); S<T>::g(); x.ns::h(); y.k(); n::template m<T>(); w; }");
    const Unit unit(p->tokens, p->partner, p->module);
    EXPECT_EQ(unit.qualifiedNameStart(p->find("c")), p->find("a"));
    EXPECT_EQ(unit.qualifiedNameStart(p->find("e")), p->find("::", 2));
    EXPECT_EQ(unit.qualifiedNameStart(p->find("g")), p->find("S"));
    EXPECT_EQ(unit.qualifiedNameStart(p->find("h")), p->find("ns"));
    EXPECT_EQ(unit.role(p->find("ns")), TokenRole::Member);
    EXPECT_EQ(unit.qualifiedNameStart(p->find("k")), p->find("k"));
    EXPECT_EQ(unit.qualifiedNameStart(p->find("m")), p->find("n"));
    EXPECT_EQ(unit.qualifiedNameStart(p->find("w")), p->find("w"));
}

// Test the assignment operator that ends before a token (`>>=` arrives as `>` `>=`) and the
// `(` of a call by its callee's name, with template arguments between.
TEST(UnitExpressions, AssignmentsAndCalls) {
    auto p = testing::parse("void f() { a = g(x); b >>= h<T>(y); c += s.m(z); d == q(w); n = sizeof(v); }");
    const Unit unit(p->tokens, p->partner, p->module);
    EXPECT_EQ(unit.assignmentBefore(p->find("g")), p->find("="));
    EXPECT_EQ(unit.assignmentBefore(p->find("h")), p->find(">"));
    EXPECT_EQ(unit.assignmentBefore(p->find(">=")), kNoToken); // inside `>>=`
    EXPECT_EQ(unit.assignmentBefore(p->find("s")), p->find("+="));
    EXPECT_EQ(unit.assignmentBefore(p->find("q")), kNoToken); // a comparison
    EXPECT_EQ(unit.assignmentBefore(p->find("x")), kNoToken);
    EXPECT_EQ(unit.callOpen(p->find("g")), p->find("(", 1));
    EXPECT_EQ(unit.callOpen(p->find("h")), p->find("(", 2));
    EXPECT_EQ(unit.callOpen(p->find("m")), p->find("(", 3));
    EXPECT_EQ(unit.callOpen(p->find("s")), kNoToken); // the object, not the callee
    EXPECT_EQ(unit.callOpen(p->find("sizeof")), kNoToken); // an operand, not arguments
    EXPECT_EQ(unit.callOpen(p->find("a")), kNoToken);
}

/// How Unit::useOf() reads the first occurrence of `expression` (its tokens, spelled as in the
/// source) in statement `source` of a function body: "read", or the use and its operator
/// ("assigned =", "compound >" for `>>=`, "incremented ++", "address &").
std::string useIn(std::string_view source, std::string_view expression, ObjectParts parts) {
    auto p = testing::parse("void f() { " + std::string(source) + " }");
    auto e = testing::parse(expression);
    const std::size_t length = e->tokens.size() - 1; // without the end of the file
    const Unit unit(p->tokens, p->partner, p->module);
    for (std::size_t first = 0; first + length < p->tokens.size(); ++first) {
        bool same = true;
        for (std::size_t k = 0; k < length && same; ++k) same = p->tokens[first + k].spelling == e->tokens[k].spelling;
        if (!same) continue;
        const ExpressionUse use = unit.useOf(first, first + length - 1, parts);
        switch (use.kind) {
        case UseKind::Read: return "read";
        case UseKind::Assigned: return "assigned " + p->tokens[use.operatorToken].spelling;
        case UseKind::CompoundAssigned: return "compound " + p->tokens[use.operatorToken].spelling;
        case UseKind::Incremented: return "incremented " + p->tokens[use.operatorToken].spelling;
        case UseKind::AddressTaken: return "address " + p->tokens[use.operatorToken].spelling;
        }
    }
    return "not found";
}

// Test what the operators around a name do to it: assignments (`>>=` arrives as `>` `>=`),
// increments on either side, a unary `&`, and the reads that look like them.
TEST(UnitExpressions, UseOfKinds) {
    const std::pair<const char*, const char*> cases[] = {
        {"x = 1;", "assigned ="},       {"int x = 1;", "assigned ="},  {"x += 2;", "compound +="},
        {"x >>= 1;", "compound >"},     {"++x;", "incremented ++"},    {"y = x--;", "incremented --"},
        {"g(&x);", "address &"},        {"p = (T*)&x;", "address &"},  {"y = x;", "read"},
        {"y = x == 1;", "read"},        {"y = x > 1;", "read"},        {"y = a & x;", "read"},
        {"y = *x;", "read"},            {"b = p < &x;", "address &"}, {"b = p > &x;", "address &"},
    };
    for (ObjectParts parts : {ObjectParts::None, ObjectParts::Members, ObjectParts::All})
        for (const auto& [source, use] : cases) EXPECT_EQ(useIn(source, "x", parts), use) << source;
}

// Test which parts of an object count as the object: members after `.` with Members, and those
// after `->` and subscripts too with All; a prefix operator only where the parts end the operand.
TEST(UnitExpressions, UseOfParts) {
    const auto all = [](std::string_view source, std::string_view expression) {
        return useIn(source, expression, ObjectParts::None) + ", " + useIn(source, expression, ObjectParts::Members) +
               ", " + useIn(source, expression, ObjectParts::All);
    };
    EXPECT_EQ(all("x.y += 2;", "x"), "read, compound +=, compound +=");
    EXPECT_EQ(all("x.a.b = 2;", "x"), "read, assigned =, assigned =");
    EXPECT_EQ(all("x[i] = 3;", "x"), "read, read, assigned =");
    EXPECT_EQ(all("x[i].y[j]++;", "x"), "read, read, incremented ++");
    EXPECT_EQ(all("x->z = 1;", "x"), "read, read, assigned =");
    EXPECT_EQ(all("float x[4] = {};", "x"), "read, read, assigned =");
    EXPECT_EQ(all("p = &x[0];", "x"), "read, read, address &");
    EXPECT_EQ(all("++x.y;", "x"), "read, incremented ++, incremented ++");
    EXPECT_EQ(all("++x.f();", "x"), "read, read, read");        // the call's result
    EXPECT_EQ(all("x.f() = 1;", "x"), "read, read, read");
    EXPECT_EQ(all("++a[i][j];", "a[i]"), "read, read, incremented ++");
    EXPECT_EQ(all("y = x.*m = 1;", "x"), "read, read, read"); // `.*` names another object
    EXPECT_EQ(all("a[x] = 1;", "x"), "read, read, read");
}

// Test that parentheses that only group an expression are looked through, and those of a
// call, a cast or a condition are not: `if (a[i]) ++x;` reads `a[i]`.
TEST(UnitExpressions, UseOfParentheses) {
    EXPECT_EQ(useIn("(x) = 1;", "x", ObjectParts::None), "assigned =");
    EXPECT_EQ(useIn("++(x);", "x", ObjectParts::None), "incremented ++");
    EXPECT_EQ(useIn("p = &((x));", "x", ObjectParts::None), "address &");
    EXPECT_EQ(useIn("(a[i]).y = 0;", "a[i]", ObjectParts::Members), "assigned =");
    EXPECT_EQ(useIn("return (x)++;", "x", ObjectParts::None), "incremented ++");
    EXPECT_EQ(useIn("if (a[i]) ++x;", "a[i]", ObjectParts::All), "read");
    EXPECT_EQ(useIn("while (x) --n;", "x", ObjectParts::All), "read");
    EXPECT_EQ(useIn("f(x) = 1;", "x", ObjectParts::All), "read");
    EXPECT_EQ(useIn("f(x)++;", "x", ObjectParts::All), "read");
    EXPECT_EQ(useIn("y = sizeof(x)++;", "x", ObjectParts::All), "read");
    EXPECT_EQ(useIn("y = (float)(x)++;", "x", ObjectParts::None), "incremented ++"); // after a cast, they group
    EXPECT_EQ(useIn("if (c) (x) = 1;", "x", ObjectParts::None), "assigned =");
    // Operands that are no names: a dereference and a subscript.
    EXPECT_EQ(useIn("*p = 1;", "*p", ObjectParts::Members), "assigned =");
    EXPECT_EQ(useIn("a[i].x += 2;", "a[i]", ObjectParts::Members), "compound +=");
    EXPECT_EQ(useIn("y = ++*p;", "*p", ObjectParts::Members), "incremented ++");
}

// Test where a type ends: past its qualifiers, address spaces, qualification and template
// arguments, at its `*`, `&` or `(`, or at the name it declares.
TEST(UnitExpressions, TypeEnd) {
    auto p = testing::parse("void f(const device metal::vec<const float, 4>* p, device float a[],\n"
                            "       threadgroup T (&t)[4], typename S::U u) { return; }");
    const Unit unit(p->tokens, p->partner, p->module);
    EXPECT_EQ(unit.typeEnd(p->find("const")), p->find("*"));
    EXPECT_EQ(unit.typeEnd(p->find("device", 1)), p->find("a"));
    EXPECT_EQ(unit.typeEnd(p->find("threadgroup")), p->find("(", 1));
    EXPECT_EQ(unit.typeEnd(p->find("typename")), p->find("u"));
    EXPECT_EQ(unit.typeEnd(p->find("*")), p->find("*")); // no type starts there
    EXPECT_EQ(unit.typeEnd(p->find("return")), p->find("return"));
}

} // namespace
} // namespace metalcpu::msl
