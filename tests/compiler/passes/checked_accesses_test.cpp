#include "compiler/passes/checked_accesses.h"
#include "compiler/passes/threadgroup_variables.h"

#include "compiler/compiler_test_util.h"
#include "compiler/edits.h"
#include "compiler/passes/address_spaces.h"
#include "compiler/pipeline.h"
#include "compiler/unit.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

constexpr const char* kChecked = "::metalcpu_kernel::checked_ptr<";

/// `source` after the type rewrites of the validation flavour, in the pipeline's order.
std::string types(std::string_view source) {
    auto p = testing::parse(source);
    return testing::runPasses(*p, {rewriteCheckedPointerTypes, rewriteAddressSpaces}, true);
}

/// What rewriteCheckedAccesses() made of a snippet: the output, without the namespace of the
/// checked operations, and what it recorded.
struct Accesses {
    std::string output;
    std::vector<AccessSite> sites;
    std::vector<UncheckedAccess> unchecked;
    std::vector<std::string> messages;
    std::vector<std::string> members; ///< Findings::memberSelectors
};

Accesses checkSource(std::string_view source, std::vector<std::uint64_t>* watchedScalars = nullptr) {
    auto p = testing::parse(source);
    TranslateOptions options;
    options.validation = true;
    const Unit unit(p->tokens, p->partner, p->module);
    Findings found;
    found.threadgroupVariables = findThreadgroupVariables(unit, 0, p->diagnostics);
    EditList edits(p->tokens, p->diagnostics);
    PassContext context{unit, edits, p->diagnostics, options, found};
    edits.beginPass("checked-accesses");
    rewriteCheckedAccesses(context);
    Accesses result{testing::render(p->tokens), found.accessSites, found.uncheckedAccesses, p->messages(),
                    found.memberSelectors};
    const std::string space = "::metalcpu_kernel::";
    for (std::size_t at; (at = result.output.find(space)) != std::string::npos;) result.output.erase(at, space.size());
    if (watchedScalars) *watchedScalars = found.watchedThreadgroupScalars;
    return result;
}

/// The selector of the `n`th distinct member the accesses name (checked_accesses.h).
std::string member(int n) { return "::__mc_member_" + std::to_string(n) + "{}"; }

/// The accesses of `body` (the body of a function f), with sites numbered from 0.
std::string accesses(std::string_view body, std::vector<AccessSite>* sites = nullptr) {
    Accesses a = checkSource("void f() {" + std::string(body) + "}");
    if (sites) *sites = a.sites;
    return a.output;
}

// Test that pointers in the three checked address spaces become checked pointers with the
// space's constness, and that thread pointers and references stay raw.
TEST(CheckedPointerTypes, Spaces) {
    EXPECT_EQ(types("device float* p;"), std::string(kChecked) + " float, 1> p;");
    EXPECT_EQ(types("constant float* p;"), std::string(kChecked) + "const float, 2> p;");
    EXPECT_EQ(types("threadgroup float4* p;"), std::string(kChecked) + " float4, 3> p;");
    EXPECT_EQ(types("const device T* p;"), std::string(kChecked) + "const T, 1> p;");
    EXPECT_EQ(types("device const vec<float, 4>* p;"), std::string(kChecked) + "const vec<float, 4>, 1> p;");
    // Qualifiers before the address space qualify the pointee, not the checked pointer
    // (GPUExample's `volatile device atomic_int *result`).
    EXPECT_EQ(types("volatile device atomic_int* p;"), std::string(kChecked) + "volatile atomic_int, 1> p;");
    EXPECT_EQ(types("const volatile device int* p;"), std::string(kChecked) + "const volatile int, 1> p;");
    EXPECT_EQ(types("device volatile float* p;"), std::string(kChecked) + " volatile float, 1> p;");
    EXPECT_EQ(types("thread float* p;"), "float* p;");
    EXPECT_EQ(types("device float& r = x;"), "float& r = x;");
    EXPECT_EQ(types("constant Params& c;"), "const Params& c;");
    // A placeholder type deduces the checked pointer itself.
    EXPECT_EQ(types("const constant auto* p = in;"), "auto p = in;");
    EXPECT_EQ(types("device auto* p = out;"), "auto p = out;");
    // Array parameters are pointers.
    EXPECT_EQ(types("void f(device float a[], constant int k[4] [[buffer(1)]]);"),
              "void f(" + std::string(kChecked) + " float, 1> a, " + kChecked + "const int, 2> k [[buffer(1)]]);");
}

// Test that a reference to a threadgroup array becomes the checked array a named threadgroup
// array is in the kernel (checked by index, with its tag), whatever its rank and qualifiers,
// and that references in other spaces and thread arrays stay as they are. A reference to const
// elements is a checked array of mutable ones (no threadgroup array is a const object), so that
// `threadgroup const T (&src)[A]` in a template (SPIRV-Cross's spvArrayCopyFromThreadGroup*)
// deduces T from the caller's checked array.
TEST(CheckedPointerTypes, ThreadgroupArrayReferences) {
    constexpr const char* kArray = "::metalcpu_kernel::checked_array<";
    EXPECT_EQ(types("void f(threadgroup float (&t)[4][8], uint i);"),
              "void f(" + std::string(kArray) + " float [4][8], 3> t, uint i);");
    EXPECT_EQ(types("void f(const threadgroup float (&t)[N]);"), "void f( " + std::string(kArray) + " float [N], 3> t);");
    EXPECT_EQ(types("void f(threadgroup const float (&t)[16]) {}"), "void f(" + std::string(kArray) + " float [16], 3> t) {}");
    EXPECT_EQ(types("template <typename T, uint A> void f(thread T (&d)[A], threadgroup const T (&s)[A]);"),
              "template <typename T, uint A> void f( T (&d)[A], " + std::string(kArray) + " T [A], 3> s);");
    EXPECT_EQ(types("void f(float (&t)[4]);"), "void f(float (&t)[4]);");
    EXPECT_EQ(types("void f(device float (&t)[4]);"), "void f( float (&t)[4]);");
}

// Test that a declaration already erased (a kernel's explicit instantiation, which the glue
// replaces) stays erased, array parameters included: MLX's binary kernels spell out
// `constant const int shape[2]` in theirs (issue 10).
TEST(CheckedPointerTypes, ErasedDeclarationsStayErased) {
    auto p = testing::parse(
        "template <typename T, int N> kernel void g(device const T* a [[buffer(0)]], constant const int shape[N] "
        "[[buffer(2)]]) {}\n"
        "template [[host_name(\"g2\")]] kernel void g<float, 2>(device const float* a [[buffer(0)]], "
        "constant const int shape[2] [[buffer(2)]]);\nint x;");
    const std::string out = testing::runPassesUntil(*p, "address-spaces", true);
    EXPECT_EQ(out.substr(out.find('\n')), "\n\nint x;");
    EXPECT_EQ(p->messages(), std::vector<std::string>{});
}

// Test that each address space of a pointer is rewritten once, by the checked pointer types,
// and that address-spaces leaves it so (no pass un-erases another's edit): the overlap check
// of the edit list would report an internal error otherwise.
TEST(CheckedPointerTypes, AddressSpacesKeepTheirRewrite) {
    auto p = testing::parse("kernel void k(constant const float* c [[buffer(0)]], device float* o [[buffer(1)]]) {\n"
                            "  constant float& r = *c; threadgroup float* t = nullptr; o[0] = r; }");
    const std::string out = testing::runPassesUntil(*p, "address-spaces", true);
    EXPECT_NE(out.find(std::string(kChecked) + "const float, 2> c"), std::string::npos) << out;
    EXPECT_NE(out.find(std::string(kChecked) + " float, 1> o"), std::string::npos) << out;
    EXPECT_NE(out.find("const float& r = *c;"), std::string::npos) << out;
    EXPECT_NE(out.find(std::string(kChecked) + " float, 3> t"), std::string::npos) << out;
    EXPECT_EQ(p->messages(), std::vector<std::string>{});
    auto c = testing::parse("constant const float* c;");
    const std::size_t space = c->find("constant");
    const Unit unit(c->tokens, c->partner, c->module);
    Findings found;
    TranslateOptions options;
    EditList edits(c->tokens, c->diagnostics);
    PassContext context{unit, edits, c->diagnostics, options, found};
    edits.beginPass("checked-pointer-types");
    rewriteCheckedPointerTypes(context);
    edits.beginPass("address-spaces");
    rewriteAddressSpaces(context);
    EXPECT_EQ(edits.rewrittenBy(space), "checked-pointer-types");
    EXPECT_EQ(c->messages(), std::vector<std::string>{});
}

// Test that casts to checked pointers become pointer_cast and C casts name the type.
TEST(CheckedPointerTypes, Casts) {
    EXPECT_EQ(types("auto q = reinterpret_cast<device uchar*>(p);"),
              "auto q = ::metalcpu_kernel::pointer_cast<" + std::string(kChecked) + " uchar, 1>>(p);");
    EXPECT_EQ(types("auto q = (device float*)a;"), "auto q = (" + std::string(kChecked) + " float, 1>)a;");
}

// Test loads, stores and read-modify-writes through subscripts, with Apple's columns.
TEST(CheckedAccesses, Subscripts) {
    std::vector<AccessSite> sites;
    EXPECT_EQ(accesses("out[i + 1] = in[i];", &sites),
              "void f() {store(out, i + 1, ::__mc_sites[0]) = load(in, i, ::__mc_sites[1]);}");
    ASSERT_EQ(sites.size(), 2u);
    EXPECT_EQ(sites[0].column, 22u) << "the store's site is its `=`";
    EXPECT_EQ(sites[1].column, 24u) << "the load's site is the accessed name";
    EXPECT_EQ(sites[0].function, "f");
    EXPECT_EQ(accesses("a[i] += 1; ++b[j]; c[k]--;"),
              "void f() {update(a, i, ::__mc_sites[0]) += 1; ++update(b, j, ::__mc_sites[1]); "
              "update(c, k, ::__mc_sites[2])--;}");
    EXPECT_EQ(accesses("p[i].x = 1;"), "void f() {store_member(p, i, " + member(0) + ", ::__mc_sites[0]) = 1;}");
    EXPECT_EQ(accesses("t[y][x] = 0;"), "void f() {store(load(t, y, ::__mc_sites[0]), x, ::__mc_sites[1]) = 0;}");
    // A condition's parentheses are no operand's: the `++` after them is the next statement's.
    EXPECT_EQ(accesses("if (a[i]) ++n; while (b[j]) --n;"),
              "void f() {if (load(a, i, ::__mc_sites[0])) ++n; while (load(b, j, ::__mc_sites[1])) --n;}");
    EXPECT_EQ(accesses("(a[i]) = 1; ++(b[j]);"),
              "void f() {(store(a, i, ::__mc_sites[0])) = 1; ++(update(b, j, ::__mc_sites[1]));}");
}

// Test *p, p->m and &x[i].
TEST(CheckedAccesses, DereferencesAndAddresses) {
    EXPECT_EQ(accesses("*p = *q;"), "void f() {store(p, 0, ::__mc_sites[0]) = load(q, 0, ::__mc_sites[1]);}");
    EXPECT_EQ(accesses("p->m = 1;"), "void f() {store_member(p, 0, " + member(0) + ", ::__mc_sites[0]) = 1;}");
    EXPECT_EQ(accesses("auto q = &a[i];"), "void f() {auto q = address_of(a, i);}");
    EXPECT_EQ(accesses("auto q = &(a[i]);"), "void f() {auto q = (address_of(a, i));}");
    // A member's address reads nothing; where the element is not the `&`'s whole operand, it
    // is named (as a load) and its address taken.
    EXPECT_EQ(accesses("auto q = &a[i].x; auto r = &b[i][j];"),
              "void f() {auto q = member_address(a, i, " + member(0) +
                  "); auto r = address_of(load(b, i, ::__mc_sites[0]), j);}");
    EXPECT_EQ(accesses("auto q = &p->a.b;"), "void f() {auto q = member_address(p, 0, " + member(0) + ");}");
    // Parenthesised and cast operands.
    EXPECT_EQ(accesses("(p + 1)->m = 1;"), "void f() {store_member((p + 1), 0, " + member(0) + ", ::__mc_sites[0]) = 1;}");
    EXPECT_EQ(accesses("x = static_cast<T*>(q)->m;"),
              "void f() {x = load_member(static_cast<T*>(q), 0, " + member(0) + ", ::__mc_sites[0]);}");
    EXPECT_EQ(accesses("x = reinterpret_cast<T*>(q)[i];"),
              "void f() {x = load(reinterpret_cast<T*>(q), i, ::__mc_sites[0]);}");
    // Dereferences of a named cast (PyTorch's c10/metal/indexing.h) and after a C cast and in
    // comparisons.
    EXPECT_EQ(accesses("return *reinterpret_cast<T*>(p + o);"),
              "void f() {return load(reinterpret_cast<T*>(p + o), 0, ::__mc_sites[0]);}");
    EXPECT_EQ(accesses("*static_cast<T*>(p) = 1;"), "void f() {store(static_cast<T*>(p), 0, ::__mc_sites[0]) = 1;}");
    EXPECT_EQ(accesses("x = (float)*p;"), "void f() {x = (float)load(p, 0, ::__mc_sites[0]);}");
    // A C cast where an operand starts after `return`, a condition or another cast: these
    // dereferences were taken for products and left unchecked, uncounted.
    EXPECT_EQ(accesses("return (float)*p;"), "void f() {return (float)load(p, 0, ::__mc_sites[0]);}");
    EXPECT_EQ(accesses("if (c) x = 0; else (void)*p;"), "void f() {if (c) x = 0; else (void)load(p, 0, ::__mc_sites[0]);}");
    EXPECT_EQ(accesses("if (c) (void)*p;"), "void f() {if (c) (void)load(p, 0, ::__mc_sites[0]);}");
    EXPECT_EQ(accesses("x = (float)(int)*p;"), "void f() {x = (float)(int)load(p, 0, ::__mc_sites[0]);}");
    EXPECT_EQ(accesses("b = a < *p || a > *q;"),
              "void f() {b = a < load(p, 0, ::__mc_sites[0]) || a > load(q, 0, ::__mc_sites[1]);}");
    EXPECT_EQ(accesses("vec<float, 2>* v = w;"), "void f() {vec<float, 2>* v = w;}");
    // A pointer to a function, called or declared, reads nothing; a call's argument does.
    EXPECT_EQ(accesses("x = (*g)(1);"), "void f() {x = (*g)(1);}");
    EXPECT_EQ(accesses("void (*h)(int) = g;"), "void f() {void (*h)(int) = g;}");
    EXPECT_EQ(accesses("x = k(*p)(1);"), "void f() {x = k(load(p, 0, ::__mc_sites[0]))(1);}");
    // A pointer to an array is declared, then read through: the dereference names the elements
    // (checked.h's elements_of()), which the subscript checks; so through more parentheses.
    EXPECT_EQ(accesses("float (*q)[4] = r; x = (*q)[1];"),
              "void f() {float (*q)[4] = r; x = load((elements_of(q, ::__mc_sites[0])), 1, ::__mc_sites[1]);}");
    EXPECT_EQ(accesses("y = &((*q))[0] + n;"), "void f() {y = address_of(((elements_of(q, ::__mc_sites[0]))), 0) + n;}");
    // A dereferenced pointer member is read; the dereference's own access is the update.
    EXPECT_EQ(accesses("*p[i].t += 1;"),
              "void f() {update(load_member(p, i, " + std::string("::__mc_member_0{}") +
                  ", ::__mc_sites[1]), 0, ::__mc_sites[0]) += 1;}");
    // Trailing return types are no accesses.
    EXPECT_EQ(accesses("auto g = [](int k) -> int { return k; };"), "void f() {auto g = [](int k) -> int { return k; };}");
    EXPECT_EQ(accesses("auto g = []<class T>(T k) -> T { return k; };"),
              "void f() {auto g = []<class T>(T k) -> T { return k; };}");
}

// Test that atomic functions and simdgroup_load/simdgroup_store take the call's site first (the
// column of the function's name), qualified or not, and that a function of the file's own of the
// same name, or a name that is not called, takes none.
TEST(CheckedAccesses, CallSitesOfLibraryAccesses) {
    std::vector<AccessSite> sites;
    EXPECT_EQ(accesses("atomic_fetch_add_explicit(&c[i], 1u, memory_order_relaxed); x = metal::atomic_load_explicit(c, "
                       "memory_order_relaxed); simdgroup_load(m, tg + 8, 8);",
                       &sites),
              "void f() {atomic_fetch_add_explicit(::__mc_sites[0], address_of(c, i), 1u, memory_order_relaxed); x = "
              "metal::atomic_load_explicit(::__mc_sites[1], c, memory_order_relaxed); simdgroup_load(::__mc_sites[2], "
              "m, tg + 8, 8);}");
    ASSERT_EQ(sites.size(), 3u);
    EXPECT_EQ(sites[0].column, 11u);
    EXPECT_EQ(sites[0].function, "f");
    EXPECT_EQ(sites[1].column, 82u);
    EXPECT_EQ(accesses("auto g = &simdgroup_store;"), "void f() {auto g = &simdgroup_store;}");
    EXPECT_EQ(checkSource("void atomic_fetch_add_explicit(device float* p, float v) {}\n"
                          "void f() { atomic_fetch_add_explicit(q, 1.0f); }")
                  .output,
              "void atomic_fetch_add_explicit(device float* p, float v) {}\nvoid f() { atomic_fetch_add_explicit(q, "
              "1.0f); }");
}

// Test that declarators, lambda introducers, attributes and multiplications stay.
// Test that a member access names the member through the element (checked.h checks the
// member's bytes alone): nested members, members after `->` and after a subscript of a member
// array, with the site of the access; that a member function call stops the members (its
// object is the element, loaded whole); that unevaluated operands keep the element's load
// (a checked array would change their type); and that a whole argument of a call keeps an
// array member an array (argument_member), which a reference to an array may bind.
TEST(CheckedAccesses, Members) {
    std::vector<AccessSite> sites;
    EXPECT_EQ(accesses("x = p[i].a.b;", &sites),
              "void f() {x = load_member(p, i, " + member(0) + ", ::__mc_sites[0]);}");
    ASSERT_EQ(sites.size(), 1u);
    EXPECT_EQ(sites[0].column, 15u) << "a load's site is the accessed name";
    // A member subscripted where it is named: its elements, by the subscript's use.
    EXPECT_EQ(accesses("p->m[j] += 1;"), "void f() {update(update_member_elements(p, 0, " + member(0) +
                                             ", ::__mc_sites[0]), j, ::__mc_sites[1]) += 1;}");
    EXPECT_EQ(accesses("x[i].v[j] = 0;"), "void f() {store(store_member_elements(x, i, " + member(0) +
                                              ", ::__mc_sites[0]), j, ::__mc_sites[1]) = 0;}");
    EXPECT_EQ(accesses("q = x[ib].qs + 8;"), "void f() {q = load_member(x, ib, " + member(0) + ", ::__mc_sites[0]) + 8;}");
    EXPECT_EQ(accesses("x = p[i].s[j].d;"),
              "void f() {x = load_member(load_member_elements(p, i, " + member(0) + ", ::__mc_sites[0]), j, " +
                  member(1) + ", ::__mc_sites[1]);}");
    // `(*p).m` is `p->m`; a dereference in parentheses that a call or cast opens, or with no
    // member after it, is the element.
    EXPECT_EQ(accesses("x = (*p).a.b; (*(q + 1)).c = 2;", &sites),
              "void f() {x = load_member(p, 0, " + member(0) + ", ::__mc_sites[0]); store_member((q + 1), 0, " +
                  member(1) + ", ::__mc_sites[1]) = 2;}");
    ASSERT_EQ(sites.size(), 2u);
    EXPECT_EQ(sites[0].column, 20u) << "a load's site is the member's name";
    EXPECT_EQ(accesses("x = g(*p).a; y = (*p) + 1;"),
              "void f() {x = g(load(p, 0, ::__mc_sites[0])).a; y = (load(p, 0, ::__mc_sites[1])) + 1;}");
    EXPECT_EQ(accesses("x = p[i].q->d;"),
              "void f() {x = load_member(load_member(p, i, " + member(0) + ", ::__mc_sites[0]), 0, " + member(1) +
                  ", ::__mc_sites[1]);}");
    EXPECT_EQ(accesses("++p[i].n;"), "void f() {++update_member(p, i, " + member(0) + ", ::__mc_sites[0]);}");
    // One selector per distinct member, defined before the file's code.
    const Accesses shared = checkSource("void f() { x = p[i].a.b + q->a.b + p[j].c; }");
    EXPECT_EQ(shared.members, (std::vector<std::string>{"a.b", "c"}));
    EXPECT_EQ(memberSelectorDefinitions(shared.members),
              "struct __mc_member_0 { template <class E> constexpr decltype(auto) operator()(E&& e) const { return "
              "(e.a.b); } };\n"
              "struct __mc_member_1 { template <class E> constexpr decltype(auto) operator()(E&& e) const { return "
              "(e.c); } };\n");
    // A member function's object is the element, through member_call() (checked.h); a member's
    // member function, the member.
    EXPECT_EQ(accesses("x = p[i].f(); y = p[i].a.g();"),
              "void f() {x = member_call(p, i, ::__mc_sites[0])->f(); y = load_member(p, i, " + member(0) +
                  ", ::__mc_sites[1]).g();}");
    EXPECT_EQ(accesses("x = p->f();"), "void f() {x = member_call(p, 0, ::__mc_sites[0])->f();}");
    EXPECT_EQ(accesses("x = p[i].template f<2>();"),
              "void f() {x = member_call(p, i, ::__mc_sites[0])->template f<2>();}");
    // Unevaluated operands.
    EXPECT_EQ(accesses("x = sizeof(p[0].qs) + sizeof p->qs; decltype(p[0].d) y;"),
              "void f() {x = sizeof(load(p, 0, ::__mc_sites[0]).qs) + sizeof load(p, 0, ::__mc_sites[1]).qs; "
              "decltype(load(p, 0, ::__mc_sites[2]).d) y;}");
    // Whole arguments of calls and initialisers of references.
    EXPECT_EQ(accesses("copy(b->file, s); g(p[i].qs + 1);"),
              "void f() {copy(argument_member(b, 0, " + member(0) + ", ::__mc_sites[0]), s); g(load_member(p, i, " +
                  member(1) + ", ::__mc_sites[1]) + 1);}");
    EXPECT_EQ(accesses("auto& q = p[i].qs; auto r = p[i].qs;"),
              "void f() {auto& q = argument_member(p, i, " + member(0) + ", ::__mc_sites[0]); auto r = load_member(p, i, " +
                  member(0) + ", ::__mc_sites[1]);}");
}

// Test that each use of a scalar threadgroup variable becomes an access of element 0 of the
// array of one it is declared as (threadgroup-variables): a load, store or update with its site,
// a member's bytes, `&` a checked pointer; unwatched where a reference may bind it (an argument
// of the file's own function, a reference's initialiser) and the element's type where it is
// not evaluated. A variable subscripted (a vector), or whose name is declared again in the
// function, stays as it was.
TEST(CheckedAccesses, ScalarThreadgroupVariables) {
    std::vector<std::uint64_t> watched;
    std::vector<AccessSite> sites;
    Accesses a = checkSource("void g(float& r);\n"
                             "void f(float x) { threadgroup float t; threadgroup S s; t = x; x = t + 1; t += x; "
                             "++t; s.m = t; x = s.m; auto p = &t; auto q = &s.m; g(t); x = min(t, x); "
                             "float& r = t; x = sizeof(t); }",
                             &watched);
    EXPECT_EQ(a.output, "void g(float& r);\n"
                        "void f(float x) { threadgroup float t; threadgroup S s; store(t, 0, ::__mc_sites[0]) = x; "
                        "x = load(t, 0, ::__mc_sites[1]) + 1; update(t, 0, ::__mc_sites[2]) += x; "
                        "++update(t, 0, ::__mc_sites[3]); store_member(s, 0, " + member(0) +
                            ", ::__mc_sites[6]) = load(t, 0, ::__mc_sites[4]); x = load_member(s, 0, " + member(0) +
                            ", ::__mc_sites[7]); auto p = address_of(t, 0); auto q = member_address(s, 0, " +
                            member(0) + "); g(t.data[0]); x = min(load(t, 0, ::__mc_sites[5]), x); "
                            "float& r = t.data[0]; x = sizeof(t[0]); }");
    EXPECT_EQ(watched.size(), 2u);
    ASSERT_EQ(a.sites.size(), 8u);
    EXPECT_EQ(a.sites[0].column, 59u) << "a store's site is its `=`";
    EXPECT_EQ(a.sites[1].column, 68u) << "a load's the name";
    // Subscripted (as any vector is), or its name declared again: as written.
    Accesses b = checkSource("void f(float x) { threadgroup float4 v; v[1] = x; threadgroup float u; u = x; "
                             "{ float u = 2; x = u; } }",
                             &watched);
    EXPECT_EQ(b.output, "void f(float x) { threadgroup float4 v; store(v, 1, ::__mc_sites[0]) = x; threadgroup float u; u = x; "
                        "{ float u = 2; x = u; } }");
    EXPECT_TRUE(watched.empty());
}

// Test that a use of a scalar threadgroup variable that starts the statement right after its
// declaration is an access like the others (the declaration's range ends past its `;`, at that
// very token): each assignment form, a member, a call's argument.
TEST(CheckedAccesses, ScalarThreadgroupVariableUsedFirstThingAfterItsDeclaration) {
    auto first = [](std::string_view statement) {
        std::vector<std::uint64_t> watched;
        Accesses a = checkSource("void g(int& r);\nvoid f(int x) { threadgroup int t; " + std::string(statement) + " }",
                                 &watched);
        EXPECT_EQ(watched.size(), 1u) << statement;
        const std::string prefix = "void g(int& r);\nvoid f(int x) { threadgroup int t; ";
        return a.output.substr(prefix.size(), a.output.size() - prefix.size() - 2);
    };
    EXPECT_EQ(first("t = 1;"), "store(t, 0, ::__mc_sites[0]) = 1;");
    EXPECT_EQ(first("t += x;"), "update(t, 0, ::__mc_sites[0]) += x;");
    EXPECT_EQ(first("t++;"), "update(t, 0, ::__mc_sites[0])++;");
    EXPECT_EQ(first("t = t + 1;"), "store(t, 0, ::__mc_sites[0]) = load(t, 0, ::__mc_sites[1]) + 1;");
    EXPECT_EQ(first("g(t);"), "g(t.data[0]);");
    EXPECT_EQ(first("&t;"), "address_of(t, 0);");
}

TEST(CheckedAccesses, LeavesDeclarationsAlone) {
    EXPECT_EQ(accesses("float a[4] = {1, 2, 3, 4};"), "void f() {float a[4] = {1, 2, 3, 4};}");
    EXPECT_EQ(accesses("vec<float, 2> v[2];"), "void f() {vec<float, 2> v[2];}");
    EXPECT_EQ(accesses("auto g = [&](int k) { return k; };"), "void f() {auto g = [&](int k) { return k; };}");
    EXPECT_EQ(accesses("float y = a * b;"), "void f() {float y = a * b;}");
    EXPECT_EQ(accesses("float* p = q;"), "void f() {float* p = q;}");
    EXPECT_EQ(accesses("float a, *b;"), "void f() {float a, *b;}");
    // Local arrays of pointers in any address space (issue 10: `device float* ptrs[2] = {a, b};`
    // made the whole file's validation flavour fail to compile).
    EXPECT_EQ(accesses("device float* ptrs[2] = {a, b};"), "void f() {device float* ptrs[2] = {a, b};}");
    EXPECT_EQ(accesses("device const float* p[2];"), "void f() {device const float* p[2];}");
    EXPECT_EQ(accesses("const constant T* p[N] = {};"), "void f() {const constant T* p[N] = {};}");
    EXPECT_EQ(accesses("threadgroup float* p[2]; thread int* q[3];"),
              "void f() {threadgroup float* p[2]; thread int* q[3];}");
    EXPECT_EQ(accesses("ptrs[i][j] = 0;"), "void f() {store(load(ptrs, i, ::__mc_sites[0]), j, ::__mc_sites[1]) = 0;}");
}

// Test that a `*` after a comma declares only where the comma continues a declarator list (the
// unit's declarators): `float a, *b;` and `vec<float, 2> a, *b` declare, where the old
// walk back to the statement's start saw no type followed by a name; `return a, *p;` and
// `x = 1, *p = 2;` are comma expressions whose dereferences are checked, where the old walk
// took `return a` for a type and a name and left the dereference unchecked without a count.
TEST(CheckedAccesses, DeclaratorListsAfterAComma) {
    const std::pair<const char*, const char*> cases[] = {
        {"float a, *p[2];", "float a, *p[2];"},
        {"device float* a = q, *b = a + 1;", "device float* a = q, *b = a + 1;"},
        {"vec<float, 2> a, *b = c;", "vec<float, 2> a, *b = c;"},
        {"for (int i = 0, *q = p; i < 1; ++i) {}", "for (int i = 0, *q = p; i < 1; ++i) {}"},
        {"x = 1, *p = 2;", "x = 1, store(p, 0, ::__mc_sites[0]) = 2;"},
        {"g(a, *p);", "g(a, load(p, 0, ::__mc_sites[0]));"},
        {"return a, *p;", "return a, load(p, 0, ::__mc_sites[0]);"},
    };
    for (const auto& [body, expected] : cases) EXPECT_EQ(accesses(body), "void f() {" + std::string(expected) + "}");
}

// Test the accesses the pass reads off the unit's unary operators, casts and parentheses,
// which its own reading of the neighbouring tokens missed or broke: dereferences after a
// condition or another operator were left unchecked and uncounted; a named cast's result times
// a name, a parenthesised operand after a condition and a dereferenced cast of an address made
// output that does not compile, as did a product after a postfix increment and a dereferenced
// call with template arguments; a parenthesised operand after `>` was given up on, and before
// `->` taken for a lambda's parameters and left unchecked; a trailing return type after
// `noexcept(...)` was counted as an unchecked access, or before a name broke the output.
TEST(CheckedAccesses, OperandsTheUnitDelimits) {
    const std::pair<const char*, const char*> cases[] = {
        {"if (c) *p = 1;", "if (c) store(p, 0, ::__mc_sites[0]) = 1;"},
        {"while (n--) *p++ = 0;", "while (n--) store(p++, 0, ::__mc_sites[0]) = 0;"},
        {"x = a * *p;", "x = a * load(p, 0, ::__mc_sites[0]);"},
        {"x = a & *p;", "x = a & load(p, 0, ::__mc_sites[0]);"},
        {"x = a * &b[i];", "x = a * address_of(b, i);"},
        {"x = static_cast<int>(y) * z;", "x = static_cast<int>(y) * z;"},
        // llama.cpp's kernel_tri (ggml-metal.metal), whose validation flavour did not compile.
        {"dst_row[i0] = static_cast<T>(_ggml_vec_tri_cmp<ttype>(i0, i1)) * src_row[i0];",
         "store(dst_row, i0, ::__mc_sites[0]) = static_cast<T>(_ggml_vec_tri_cmp<ttype>(i0, i1)) * "
         "load(src_row, i0, ::__mc_sites[1]);"},
        {"if (c) (a)[0] = 1;", "if (c) store((a), 0, ::__mc_sites[0]) = 1;"},
        {"x = *(fptr)p;", "x = load((fptr)p, 0, ::__mc_sites[0]);"},
        {"x = a > (b)[i];", "x = a > load((b), i, ::__mc_sites[0]);"},
        {"q = &*p;", "q = &*p;"},
        {"x = (float*)y;", "x = (float*)y;"},
        {"x = a++ * b; y = ++*p;", "x = a++ * b; y = ++update(p, 0, ::__mc_sites[0]);"},
        {"x = *f<T>(p);", "x = load(f<T>(p), 0, ::__mc_sites[0]);"},
        {"x = a > (p)->m;", "x = a > load_member((p), 0, ::__mc_member_0{}, ::__mc_sites[0]);"},
        {"auto g = [](int k) mutable noexcept(true) -> int { return k; };",
         "auto g = [](int k) mutable noexcept(true) -> int { return k; };"},
        {"auto g = [](T k) noexcept(true) -> T { return k; };", "auto g = [](T k) noexcept(true) -> T { return k; };"},
    };
    for (const auto& [body, expected] : cases) {
        Accesses a = checkSource("void f() {" + std::string(body) + "}");
        EXPECT_EQ(a.output, "void f() {" + std::string(expected) + "}");
        EXPECT_TRUE(a.unchecked.empty()) << body;
    }
    // The operand of a cast after a dereference is no postfix expression: counted, not broken.
    Accesses cast = checkSource("void f() { x = *(float*)&y; }");
    EXPECT_EQ(cast.output, "void f() { x = *(float*)&y; }");
    EXPECT_EQ(cast.unchecked.size(), 1u);
    // So is a member access after a postfix increment, which was skipped without a count.
    Accesses increment = checkSource("void f() { x = p++->m; }");
    EXPECT_EQ(increment.output, "void f() { x = p++->m; }");
    EXPECT_EQ(increment.unchecked.size(), 1u);
}

// Test that only function bodies are rewritten.
TEST(CheckedAccesses, OnlyInBodies) {
    EXPECT_TRUE(checkSource("struct S { float a[4]; }; constant float k[2] = {1, 2};").sites.empty());
}

// Test that multiplications and comparisons the Unit could take for array declarators
// (`T* p[N]`, `vec<T, 2> v[N]`) are accesses in arguments, parentheses and initialiser lists.
TEST(CheckedAccesses, ExpressionsThatLookLikeDeclarators) {
    const std::pair<const char*, const char*> cases[] = {
        {"g(a, b * c[i]);", "g(a, b * load(c, i, ::__mc_sites[0]));"},
        {"g(b * c[i]);", "g(b * load(c, i, ::__mc_sites[0]));"},
        {"x = (a * b[i]) + 1;", "x = (a * load(b, i, ::__mc_sites[0])) + 1;"},
        {"if (i < n && x > y[i]) return;", "if (i < n && x > load(y, i, ::__mc_sites[0])) return;"},
        {"float2 v = {a * b[i], 0};", "float2 v = {a * load(b, i, ::__mc_sites[0]), 0};"},
        {"{ float* p[2]; }", "{ float* p[2]; }"}, // a block, not an initialiser list
    };
    for (const auto& [body, expected] : cases) EXPECT_EQ(accesses(body), "void f() {" + std::string(expected) + "}");
}

// Test that an access the pass recognises but cannot delimit is counted and reported once,
// with the first one's place and reason, and that a clean body reports nothing.
TEST(CheckedAccesses, UncheckedAccessesWarnOnce) {
    Accesses a = checkSource("void f() {\n  x = g<int>(p)[i];\n  y = **q;\n  z = h(p)->m;\n  w = a[i];\n}");
    ASSERT_EQ(a.unchecked.size(), 3u);
    EXPECT_EQ(a.unchecked[0].reason, "a subscript of a call with template arguments");
    EXPECT_EQ(a.unchecked[1].reason, "a dereference whose operand the front end cannot delimit");
    EXPECT_EQ(a.unchecked[2].reason, "a member access through a call's result");
    EXPECT_EQ(a.messages, std::vector<std::string>{"test.metal:2:16: warning: shader validation cannot check 3 "
                                                   "accesses in this file; the first: a subscript of a call with "
                                                   "template arguments"});
    EXPECT_EQ(a.sites.size(), 2u) << "a[i] and the inner dereference of **q are still checked";
    EXPECT_NE(a.output.find("y = *load(q, 0, ::__mc_sites[0]);"), std::string::npos) << a.output;

    Accesses clean = checkSource("void f() { x = g(p)[i]; *q = 1; p->m = 2; }");
    EXPECT_TRUE(clean.unchecked.empty());
    EXPECT_EQ(clean.messages, std::vector<std::string>{});
    EXPECT_EQ(clean.sites.size(), 3u);
}

// Test the site table's text.
TEST(CheckedAccesses, SiteTable) {
    FileTable files("program_source");
    EXPECT_EQ(accessSiteTable({}, files), "");
    EXPECT_EQ(accessSiteTable({AccessSite{0, "k", 9, 20}}, files),
              "static constexpr ::mc_site __mc_sites[] = {\n    {\"program_source\", \"k\", 9u, 20u},\n};\n");
}

// Test that an access that begins a call collective-calls wraps (`p->add(...)`, `p[1].add(...)`,
// made `(simd_call_site(), p->add(...))`) opens inside the call's wrapper, so that each closes its
// own parenthesis: metal-flash-attention's `C->multiply(*A, *B)` under shader validation had
// its access close the call's wrapper, and the validated flavour did not compile.
TEST(CheckedAccesses, AccessesOpeningACollectiveCall) {
    auto p = testing::parse("struct S { float v; void add(float x) { v += simd_sum(x); } };\n"
                            "kernel void k(device S* p, device float* o) {\n"
                            "    p->add(1.0f); p[1].add(2.0f); o[0] = p->v; }\n");
    const std::string out = testing::runPassesUntil(*p, "checked-accesses", true);
    const std::string site = "(::metalcpu_kernel::simd_call_site(), ";
    EXPECT_NE(out.find(site + "::metalcpu_kernel::member_call(p, 0, ::__mc_sites[0])->add(1.0f))"), std::string::npos)
        << out;
    EXPECT_NE(out.find(site + "::metalcpu_kernel::member_call(p, 1, ::__mc_sites[1])->add(2.0f))"), std::string::npos)
        << out;
    EXPECT_EQ(out.find("::metalcpu_kernel::member_call(" + site), std::string::npos) << out;
    EXPECT_EQ(out.find("::metalcpu_kernel::load(" + site), std::string::npos) << out;
}

} // namespace
} // namespace metalcpu::msl
