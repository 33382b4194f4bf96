#include "compiler/passes/function_pointer_casts.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::vector<std::string> check(std::string_view source) {
    auto p = testing::parse(source);
    return testing::runCheck(*p, checkFunctionPointerCasts);
}

// Test that casts to a spelled-out function pointer type are refused in every cast form.
TEST(FunctionPointerCasts, SpelledOut) {
    EXPECT_EQ(check("void f(device ulong* a) {\n"
                    "    ((void (*)(int))a[0])(1);\n"
                    "    reinterpret_cast<void (*)()>(a[1])();\n"
                    "    __builtin_bit_cast(void (*)(), a[2])();\n"
                    "    as_type<void (* const)(int)>(a[3])(1);\n"
                    "    metal::bit_cast<void (&)()>(*a);\n"
                    "    if (a) (void (*)())a[4];\n"
                    "    return (void (**)())a;\n}\n"),
              (std::vector<std::string>{
                  "test.metal:2:6: error: kernel code cannot cast to a function pointer type ('void(*)(int)')",
                  "test.metal:3:5: error: kernel code cannot cast to a function pointer type ('void(*)()')",
                  "test.metal:4:5: error: kernel code cannot cast to a function pointer type ('void(*)()')",
                  "test.metal:5:5: error: kernel code cannot cast to a function pointer type ('void(* const)(int)')",
                  "test.metal:6:12: error: kernel code cannot cast to a function pointer type ('void(&)()')",
                  "test.metal:7:12: error: kernel code cannot cast to a function pointer type ('void(*)()')",
                  "test.metal:8:12: error: kernel code cannot cast to a function pointer type ('void(**)()')",
              }));
}

// Test that casts to function pointer types named through the file's typedefs and aliases
// are refused: pointer aliases, function-type aliases with `*`, aliases of aliases, alias
// templates, decltype of a function, and functional casts.
TEST(FunctionPointerCasts, ThroughAliases) {
    EXPECT_EQ(check("typedef void (*fn_t)(int);\n"
                    "using fn2_t = void (*)(int);\n"
                    "typedef void fun_t(int);\n"
                    "typedef void (paren_t)(int);\n"
                    "typedef fn2_t again_t;\n"
                    "template <class T> using tmpl_t = T (*)(T);\n"
                    "float g(float x) { return x; }\n"
                    "void f(device ulong* a) {\n"
                    "    ((fn_t)a[0])(1); ((fn2_t)a[1])(1); ((fun_t*)a[2])(1); ((paren_t*)a[3])(1);\n"
                    "    ((again_t)a[4])(1); reinterpret_cast<tmpl_t<float>>(a[5])(1.0f);\n"
                    "    reinterpret_cast<decltype(&g)>(a[6])(1.0f);\n"
                    "    fn_t(a[7])(1);\n}\n"),
              (std::vector<std::string>{
                  "test.metal:9:6: error: kernel code cannot cast to a function pointer type ('fn_t')",
                  "test.metal:9:23: error: kernel code cannot cast to a function pointer type ('fn2_t')",
                  "test.metal:9:41: error: kernel code cannot cast to a function pointer type ('fun_t*')",
                  "test.metal:9:60: error: kernel code cannot cast to a function pointer type ('paren_t*')",
                  "test.metal:10:6: error: kernel code cannot cast to a function pointer type ('again_t')",
                  "test.metal:10:25: error: kernel code cannot cast to a function pointer type ('tmpl_t<float>')",
                  "test.metal:11:5: error: kernel code cannot cast to 'decltype(& g)': it may be a function pointer "
                  "type (it is named through decltype or typeof, or has a function type among its template arguments)",
                  "test.metal:12:5: error: kernel code cannot cast to a function pointer type ('fn_t')",
              }));
}

/// The error for a cast to `type`, which may be a function pointer type, at `line:column`.
std::string possible(int line, int column, const std::string& type) {
    return "test.metal:" + std::to_string(line) + ":" + std::to_string(column) + ": error: kernel code cannot cast to '" +
           type + "': it may be a function pointer type (it is named through decltype or typeof, or has a function "
                  "type among its template arguments)";
}

// Test the casts the front end cannot see through, which it refuses because their target may be
// a function pointer type: decltype and typeof of anything (a unary-plus lambda, `(&g)`, a
// conditional, a variable holding `&g`), aliases of them, functional casts to them, template
// arguments that involve a function type (`ptr<void()>`, `P<void()>::type`, an alias of one),
// and a cast of what a lambda returns.
TEST(FunctionPointerCasts, WhatTheFrontEndCannotSeeThrough) {
    EXPECT_EQ(check("void g() {}\n"
                    "template <class T> using ptr = T*;\n"
                    "template <class T> struct P { using type = T*; };\n"
                    "using F = decltype(+[] {});\n"
                    "void k(device ulong* a) {\n"
                    "    auto f = (long (*)())[&] { return a[1]; }(); f();\n"
                    "    reinterpret_cast<F>(a[1])(); reinterpret_cast<decltype((&g))>(a[1])();\n"
                    "    reinterpret_cast<decltype(true ? &g : &g)>(a[1])(); reinterpret_cast<__typeof__(g)*>(a[1])();\n"
                    "    auto p = &g; reinterpret_cast<decltype(p)>(a[1])();\n"
                    "    reinterpret_cast<ptr<void()>>(a[1])(); reinterpret_cast<P<void()>::type>(a[1])();\n"
                    "    decltype(p)(a[1])(); F(a[1])(); ((decltype(p))a[1])(); __builtin_bit_cast(F, a[1])();\n"
                    "    using G = ptr<void()>; ((G)a[1])();\n}\n"),
              (std::vector<std::string>{
                  "test.metal:6:14: error: kernel code cannot cast to a function pointer type ('long(*)()')",
                  possible(7, 5, "F"),
                  possible(7, 34, "decltype((& g))"),
                  possible(8, 5, "decltype(true?& g:& g)"),
                  possible(8, 57, "__typeof__(g)*"),
                  possible(9, 18, "decltype(p)"),
                  possible(10, 5, "ptr<void()>"),
                  possible(10, 44, "P<void()>::type"),
                  possible(11, 5, "decltype(p)"),
                  possible(11, 26, "F"),
                  possible(11, 38, "decltype(p)"),
                  possible(11, 60, "F"),
                  possible(12, 29, "G"),
              }));
}

// Test that function pointers themselves stay allowed: ggml's function-pointer template
// parameters and the calls through them, parameters, static_cast to pick an overload, the
// decltype aliases of explicit instantiations, and casts that only look alike (a pointer to
// an array, vector conversions, sizeof, calls through parenthesised expressions).
TEST(FunctionPointerCasts, HarmlessNeighbours) {
    EXPECT_EQ(check("struct block_q4_0 { half d; uchar qs[16]; };\n"
                    "template <typename type4x4>\n"
                    "void dequantize_q4_0(device const block_q4_0* xb, short il, thread type4x4& reg) {\n"
                    "    reg = (type4x4)(*xb).d;\n}\n"
                    "typedef void (dequantize_t)(device const block_q4_0*, short, thread float4x4&);\n"
                    "template <typename block_q, short nl, void (*dequantize_func)(device const block_q*, short, "
                    "thread float4x4&)>\n"
                    "kernel void kernel_get_rows(device const block_q* src, device float4x4* dst, uint i "
                    "[[thread_position_in_grid]]) {\n"
                    "    float4x4 temp;\n    dequantize_func(src + i, 0, temp);\n    (*dequantize_func)(src, 1, temp);\n"
                    "    dst[i] = temp;\n}\n"
                    "typedef decltype(kernel_get_rows<block_q4_0, 2, dequantize_q4_0>) get_rows_t;\n"
                    "template [[host_name(\"kernel_get_rows_q4_0\")]] kernel get_rows_t kernel_get_rows<block_q4_0, 2, "
                    "dequantize_q4_0>;\n"
                    "float twice(float x) { return 2 * x; }\n"
                    "float apply(float (*op)(float), float x) { return op(x); }\n"
                    "void f(device float* a, device int (*rows)[4], thread float (*pick)(float)) {\n"
                    "    a[0] = apply(static_cast<float (*)(float)>(twice), a[1]);\n"
                    "    device int (*p)[4] = (device int (*)[4])a;\n"
                    "    a[2] = (float)(sizeof(dequantize_t*)) + float(a[3]) + (pick)(a[4]) + (apply(twice, 1))(+1);\n"
                    "    dequantize_t* q = nullptr; (void)q; (void)p; (void)rows;\n"
                    "    decltype(a[0]) s = static_cast<decltype(a[0])>(a[1]); (void)(vec<float, 4>)s;\n}\n"),
              std::vector<std::string>{});
}

// Test the C-style casts a kernel could hide a function pointer type in: after `return`, `else`,
// `case` and a condition, to an alias that carries no type keyword or `*` (the unit's roles
// know casts by those marks), with a parenthesised operand, to an alias template of a function
// type, to decltype, and as the operand of another cast, which a struct holding the pointer
// would let the kernel call (`((S)(fn_t)a[5])(1)` with `S(fn_t)` and `S::operator()`).
TEST(FunctionPointerCasts, CStyleCastsWhereverAnOperandStarts) {
    EXPECT_EQ(check("typedef void (*fn_t)(int);\n"
                    "template <class T> using ptr = T*;\n"
                    "void g(int) {} struct S { fn_t f; S(fn_t h) : f(h) {} void operator()(int x) const { f(x); } };\n"
                    "fn_t f(device ulong* a, int c) {\n"
                    "    if (c) (fn_t)a[0]; else (fn_t)a[1];\n"
                    "    switch (c) { case (fn_t)a[2] != nullptr: break; }\n"
                    "    ((ptr<void(int)>)a[3])(1); ((decltype(&g))a[4])(1);\n"
                    "    (void)(ulong)(fn_t)a[5]; ((S)(fn_t)(a[6]))(1); (float)(uint)(ulong)(fn_t*)a[7];\n"
                    "    return (fn_t)a[8];\n}\n"),
              (std::vector<std::string>{
                  "test.metal:5:12: error: kernel code cannot cast to a function pointer type ('fn_t')",
                  "test.metal:5:29: error: kernel code cannot cast to a function pointer type ('fn_t')",
                  "test.metal:6:23: error: kernel code cannot cast to a function pointer type ('fn_t')",
                  possible(7, 6, "ptr<void(int)>"),
                  possible(7, 33, "decltype(& g)"),
                  "test.metal:8:18: error: kernel code cannot cast to a function pointer type ('fn_t')",
                  "test.metal:8:34: error: kernel code cannot cast to a function pointer type ('fn_t')",
                  "test.metal:8:72: error: kernel code cannot cast to a function pointer type ('fn_t*')",
                  "test.metal:9:12: error: kernel code cannot cast to a function pointer type ('fn_t')",
              }));
}

// Test that the unit's cast role counts on its own: after `co_await`, which the neighbours' test
// does not know to start an operand, only the unit sees the cast.
TEST(FunctionPointerCasts, TheUnitsCastRoleCountsAlone) {
    EXPECT_EQ(check("typedef void fun_t(int);\n"
                    "task f(device ulong* a) { co_await (fun_t*)a[0]; }\n"),
              std::vector<std::string>{
                  "test.metal:2:36: error: kernel code cannot cast to a function pointer type ('fun_t*')"});
}

// Test that parentheses that are no cast to a function pointer type stay accepted: ordinary
// parenthesised expressions, the calls a function-like macro leaves (`#define APPLY(f, x)
// (f)(x)` makes `(twice)(a[3])`), casts to
// arithmetic, vector and pointer-to-data types, and a cast's parenthesised operand.
TEST(FunctionPointerCasts, OrdinaryParenthesesStayAccepted) {
    EXPECT_EQ(check("float twice(float x) { return 2 * x; }\n"
                    "float f(device float* a, thread float* (*pick)(int)) {\n"
                    "    float x = (a[0] + a[1]) * (a[2]);\n"
                    "    x += (twice)(a[3]) + (float)x + (float)(x) + float(x) + (int)(a[4]) * 2;\n"
                    "    device float2* v = (device float2*)a; thread float* t = (pick)(1);\n"
                    "    if (x > 0) (void)v; else (void)t;\n"
                    "    return (x) + (float)v[0].x;\n}\n"),
              std::vector<std::string>{});
}

// Test that a member named like an alias (the unit's accessed member, after `.` or `->`) is
// called, not a functional cast to the alias.
TEST(FunctionPointerCasts, MembersNamedLikeAnAlias) {
    EXPECT_EQ(check("typedef void (*fn_t)(int);\n"
                    "struct C { int operator()(int x) const { return x; } };\n"
                    "struct S { C fn_t; };\n"
                    "int f(thread S& s, thread S* p) { return s.fn_t(1) + p->fn_t(2); }\n"),
              std::vector<std::string>{});
}

} // namespace
} // namespace metalcpu::msl
