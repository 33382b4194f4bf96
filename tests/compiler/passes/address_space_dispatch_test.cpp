#include "compiler/passes/address_space_dispatch.h"

#include "compiler/compiler_test_util.h"
#include "compiler/passes/member_overloads.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

std::string rewrite(std::string_view source, bool validation = false) {
    auto p = testing::parse(source);
    std::string out = testing::runPass(*p, collapseAddressSpaceOverloads, validation);
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
    return out;
}

// Test that free functions overloaded only on a pointer parameter's address space, with
// different bodies, stay: the threadgroup one takes a tag first, and the calls whose argument
// points into threadgroup memory pass one (a threadgroup array, an element's address, pointer
// arithmetic, a threadgroup pointer parameter), those into thread memory do not. Calls of
// other overloads (a literal or a value where the versions take a pointer) and of another
// namespace's function are left alone.
TEST(AddressSpaceDispatch, PointerParameters) {
    EXPECT_EQ(rewrite("float total(thread const float* p, int n) { return p[0]; }\n"
                      "float total(threadgroup const float* p, int n) { return p[1]; }\n"
                      "float total(int a, int b) { return a; }\n"
                      "float pass(threadgroup float* q) { return total(q, 1); }\n"
                      "kernel void k(device float* out, uint lid [[thread_index_in_threadgroup]]) {\n"
                      "  threadgroup float shared[8];\n"
                      "  float local[2];\n"
                      "  thread float* lp = local;\n"
                      "  out[0] = total(local, 2) + total(shared, 2) + total(&shared[lid], 1) + total(shared + 1, 1);\n"
                      "  float v = 2;\n"
                      "  out[1] = total(lp, 1) + total(3, 4) + total(&local[1], 1) + total(v, 1) + metal::total(shared, 1);\n"
                      "}"),
              "float total(thread const float* p, int n) { return p[0]; }\n"
              "float total(::metalcpu_kernel::address_space_tag<3>, threadgroup const float* p, int n) { return p[1]; }\n"
              "float total(int a, int b) { return a; }\n"
              "float pass(threadgroup float* q) { return total(::metalcpu_kernel::address_space_tag<3>{}, q, 1); }\n"
              "kernel void k(device float* out, uint lid [[thread_index_in_threadgroup]]) {\n"
              "threadgroup float shared[8];\n"
              "float local[2];\n"
              "thread float* lp = local;\n"
              "out[0] = total(local, 2) + total(::metalcpu_kernel::address_space_tag<3>{}, shared, 2) + "
              "total(::metalcpu_kernel::address_space_tag<3>{}, &shared[lid], 1) + "
              "total(::metalcpu_kernel::address_space_tag<3>{}, shared + 1, 1);\n"
              "float v = 2;\n"
              "out[1] = total(lp, 1) + total(3, 4) + total(&local[1], 1) + total(v, 1) + metal::total(shared, 1);\n"
              "}");
}

// Test references and member functions: a reference parameter bound to a threadgroup variable,
// an element through a threadgroup or device pointer, a member of a thread local, and calls
// through `.`, `->` and unqualified in the class's own members. In the checked flavour,
// pointers in different spaces are different types already, but references are not.
TEST(AddressSpaceDispatch, ReferencesAndMembers) {
    const char* source = "struct Acc {\n"
                         "  float v;\n"
                         "  void add(thread const float& x) { v += x; }\n"
                         "  void add(device const float& x) { v += 2 * x; }\n"
                         "  void twice(device const float* p) { add(p[0]); add(*p); }\n"
                         "};\n"
                         "struct P { float x; };\n"
                         "kernel void k(device float* in [[buffer(0)]], device P* ps [[buffer(1)]]) {\n"
                         "  threadgroup float t;\n"
                         "  P local;\n"
                         "  Acc acc, *a = &acc;\n"
                         "  acc.add(local.x); a->add(in[3]); acc.add(ps->x); acc.add(ps[1].x);\n"
                         "}";
    const char* expected = "struct Acc {\n"
                           "float v;\n"
                           "void add(thread const float& x) { v += x; }\n"
                           "void add(::metalcpu_kernel::address_space_tag<1>, device const float& x) { v += 2 * x; }\n"
                           "void twice(device const float* p) { add(::metalcpu_kernel::address_space_tag<1>{}, p[0]); "
                           "add(::metalcpu_kernel::address_space_tag<1>{}, *p); }\n"
                           "};\n"
                           "struct P { float x; };\n"
                           "kernel void k(device float* in [[buffer(0)]], device P* ps [[buffer(1)]]) {\n"
                           "threadgroup float t;\n"
                           "P local;\n"
                           "Acc acc, *a = &acc;\n"
                           "acc.add(local.x); a->add(::metalcpu_kernel::address_space_tag<1>{}, in[3]); "
                           "acc.add(::metalcpu_kernel::address_space_tag<1>{}, ps->x); "
                           "acc.add(::metalcpu_kernel::address_space_tag<1>{}, ps[1].x);\n"
                           "}";
    EXPECT_EQ(rewrite(source), expected);
    EXPECT_EQ(rewrite(source, true), expected);
}

// Test that a local declared in an inner block that has ended does not decide a later call's
// overload: the declaration in scope does.
TEST(AddressSpaceDispatch, ScopesOfDeclarations) {
    EXPECT_EQ(rewrite("void put(thread float& x) { x = 1; }\n"
                      "void put(threadgroup float& x) { x = 2; }\n"
                      "kernel void k() {\n"
                      "  float x;\n"
                      "  { threadgroup float x; put(x); }\n"
                      "  for (int i = 0; i < 2; ++i) put(x);\n"
                      "}"),
              "void put(thread float& x) { x = 1; }\n"
              "void put(::metalcpu_kernel::address_space_tag<3>, threadgroup float& x) { x = 2; }\n"
              "kernel void k() {\n"
              "float x;\n"
              "{ threadgroup float x; put(::metalcpu_kernel::address_space_tag<3>{}, x); }\n"
              "for (int i = 0; i < 2; ++i) put(x);\n"
              "}");
}

// Test that an `auto` variable carries the address space of its initializer, as Clang deduces
// it (MFA's `auto A_block = (threadgroup float*)(block); auto A_block_src = A_block;`): a cast
// to a pointer type, another `auto` pointer, an array (which decays), `auto*`, `const auto`,
// `auto&` bound to a pointer or to an element, and a call of the program's function that
// returns a threadgroup pointer. A value copied into an `auto` (an element, a literal, a
// functional cast to a scalar type) is a thread value: another overload's call, left alone.
TEST(AddressSpaceDispatch, AutoVariablesCarryTheirInitializersSpace) {
    EXPECT_EQ(rewrite("float pick(const device float* p) { return p[0]; }\n"
                      "float pick(const threadgroup float* p) { return p[1]; }\n"
                      "float pick(float v) { return v; }\n"
                      "threadgroup float* at(threadgroup float* p, uint i) { return p + i; }\n"
                      "kernel void k(device float* out, threadgroup uchar* block [[threadgroup(0)]]) {\n"
                      "  threadgroup float shared[8];\n"
                      "  auto tile = (threadgroup float*)(block);\n"
                      "  auto src = tile;\n"
                      "  const auto arr = shared;\n"
                      "  auto* star = static_cast<threadgroup float*>(tile) + 1;\n"
                      "  auto& ref = src;\n"
                      "  auto& elem = shared[2];\n"
                      "  auto moved = at(shared, 2);\n"
                      "  auto dev = out;\n"
                      "  auto v = shared[1];\n"
                      "  auto n = 4; auto u = float(n);\n"
                      "  out[0] = pick(src + 1) + pick(arr) + pick(star) + pick(ref) + pick(&elem) + pick(moved);\n"
                      "  out[1] = pick(dev) + pick(v) + pick((device float*)block) + pick(n) + pick(u);\n"
                      "}"),
              "float pick(const device float* p) { return p[0]; }\n"
              "float pick(::metalcpu_kernel::address_space_tag<3>, const threadgroup float* p) { return p[1]; }\n"
              "float pick(float v) { return v; }\n"
              "threadgroup float* at(threadgroup float* p, uint i) { return p + i; }\n"
              "kernel void k(device float* out, threadgroup uchar* block [[threadgroup(0)]]) {\n"
              "threadgroup float shared[8];\n"
              "auto tile = (threadgroup float*)(block);\n"
              "auto src = tile;\n"
              "const auto arr = shared;\n"
              "auto* star = static_cast<threadgroup float*>(tile) + 1;\n"
              "auto& ref = src;\n"
              "auto& elem = shared[2];\n"
              "auto moved = at(shared, 2);\n"
              "auto dev = out;\n"
              "auto v = shared[1];\n"
              "auto n = 4; auto u = float(n);\n"
              "out[0] = pick(::metalcpu_kernel::address_space_tag<3>{}, src + 1) + "
              "pick(::metalcpu_kernel::address_space_tag<3>{}, arr) + "
              "pick(::metalcpu_kernel::address_space_tag<3>{}, star) + "
              "pick(::metalcpu_kernel::address_space_tag<3>{}, ref) + "
              "pick(::metalcpu_kernel::address_space_tag<3>{}, &elem) + "
              "pick(::metalcpu_kernel::address_space_tag<3>{}, moved);\n"
              "out[1] = pick(dev) + pick(v) + pick((device float*)block) + pick(n) + pick(u);\n"
              "}");
}

// Test that an `auto` whose initializer does not tell its address space (a call of a function
// this does not know, a pointer member, a template's `T*` cast, one that names itself) is the
// compile error the docs promise at a call that needs it, never a silent call of one version.
TEST(AddressSpaceDispatch, UntellableAutoVariablesAreErrors) {
    auto p = testing::parse("float pick(const device float* p) { return p[0]; }\n"
                            "float pick(const threadgroup float* p) { return p[1]; }\n"
                            "struct S { threadgroup float* q; };\n"
                            "template <typename T> float f(thread S& s, threadgroup uchar* b) {\n"
                            "  auto a = unknown(b);\n"
                            "  auto m = s.q;\n"
                            "  auto t = (T*)(b);\n"
                            "  return pick(a) + pick(m) + pick(t) + pick(s.q);\n"
                            "}");
    testing::runPass(*p, collapseAddressSpaceOverloads);
    ASSERT_EQ(p->messages().size(), 8u) << p->messages()[0];
    for (std::size_t i = 0; i < 8; i += 2)
        EXPECT_NE(p->messages()[i].find("error: cannot tell which overload of 'pick' this call means"),
                  std::string::npos)
            << p->messages()[i];
    EXPECT_NE(p->messages()[0].find("test.metal:8:15:"), std::string::npos) << p->messages()[0];
    EXPECT_NE(p->messages()[6].find("test.metal:8:45:"), std::string::npos) << p->messages()[6];
}

// Test overloads that differ in address space and in another parameter's type, MFA's
// `load(const device U*, uint, ushort2)` and `load(const threadgroup U*, ushort, ushort2)`:
// Clang drops the version whose address space the argument's is not, so each call gets the tag
// of its argument's space (the device one, first, none) and C++ chooses among the versions
// with that tag by the rest. Functions returning pointers into different spaces
// (`apply_offset`) are told apart too, and their calls initialise `auto` variables of the
// returned space. Not in the checked flavour, where the pointers' types differ already.
TEST(AddressSpaceDispatch, OverloadsDifferingInOtherTypesToo) {
    const char* source =
        "struct St {\n"
        "  static device float* off(device float* p, uint n) { return p + n; }\n"
        "  static threadgroup float* off(threadgroup float* p, ushort n) { return p + 2 * n; }\n"
        "  template <typename U> void load(const device U* s, uint e) { }\n"
        "  template <typename U> void load(const threadgroup U* s, ushort e) { }\n"
        "};\n"
        "kernel void k(device float* out, threadgroup uchar* b [[threadgroup(0)]]) {\n"
        "  St st;\n"
        "  auto tg = St::off((threadgroup float*)b, 1);\n"
        "  auto dv = St::off(out, 1);\n"
        "  st.load(tg, 8); st.load(dv, 8);\n"
        "}";
    EXPECT_EQ(rewrite(source),
              "struct St {\n"
              "static device float* off(device float* p, uint n) { return p + n; }\n"
              "static threadgroup float* off(::metalcpu_kernel::address_space_tag<3>, threadgroup float* p, "
              "ushort n) { return p + 2 * n; }\n"
              "template <typename U> void load(const device U* s, uint e) { }\n"
              "template <typename U> void load(::metalcpu_kernel::address_space_tag<3>, const threadgroup U* s, "
              "ushort e) { }\n"
              "};\n"
              "kernel void k(device float* out, threadgroup uchar* b [[threadgroup(0)]]) {\n"
              "St st;\n"
              "auto tg = St::off(::metalcpu_kernel::address_space_tag<3>{}, (threadgroup float*)b, 1);\n"
              "auto dv = St::off(out, 1);\n"
              "st.load(::metalcpu_kernel::address_space_tag<3>{}, tg, 8); st.load(dv, 8);\n"
              "}");
    const std::string checked = rewrite(source, true);
    EXPECT_EQ(checked.find("address_space_tag"), std::string::npos) << checked;
}

// Test that a call whose argument's address space cannot be told, a call no version takes, and
// the function's address are errors at their lines.
TEST(AddressSpaceDispatch, UntellableCallsAreErrors) {
    auto p = testing::parse("float get(thread const float* p) { return p[0]; }\n"
                            "float get(threadgroup const float* p) { return p[1]; }\n"
                            "kernel void k(device float* out) {\n"
                            "  threadgroup float s[4];\n"
                            "  out[0] = get(pick(s));\n"
                            "  out[1] = get(out);\n"
                            "  auto f = &get;\n"
                            "}");
    testing::runPass(*p, collapseAddressSpaceOverloads);
    EXPECT_EQ(p->messages(),
              (std::vector<std::string>{
                  "test.metal:5:16: error: cannot tell which overload of 'get' this call means: they differ only in "
                  "the address space of parameter 1, and metalcpu, which runs every address space as one memory, "
                  "cannot tell this argument's (pass a variable, parameter or threadgroup variable of the calling "
                  "function, or give the overloads different names)",
                  "test.metal:1:7: note: the overloads of 'get' are here",
                  "test.metal:6:12: error: no overload of 'get' takes arguments in the device address space here",
                  "test.metal:1:7: note: the overloads of 'get' are here",
                  "test.metal:7:13: error: the address of 'get', which is overloaded only on address spaces, cannot "
                  "be taken: metalcpu tells the overloads apart at their calls"}));
}

// Test that a call that could also mean another overload taking a reference in the same place
// (`add(device const int&)`) is an error, not a silent call of the float version, while a
// call with a literal still goes to the other overload.
TEST(AddressSpaceDispatch, RivalOverloadsMakeCallsUntellable) {
    auto p = testing::parse("float add(thread const float& x) { return x; }\n"
                            "float add(device const float& x) { return 2 * x; }\n"
                            "float add(device const int& x) { return 3; }\n"
                            "kernel void k(device int* ints, device float* fs) {\n"
                            "  add(ints[0]);\n"
                            "  add(3);\n"
                            "}");
    testing::runPass(*p, collapseAddressSpaceOverloads);
    EXPECT_EQ(p->messages(),
              (std::vector<std::string>{
                  "test.metal:5:3: error: cannot tell which function 'add' this call means: some overloads of 'add' "
                  "differ only in address spaces, which metalcpu tells apart by the argument, and another takes a "
                  "pointer or reference in the same place (give the overloads different names)",
                  "test.metal:3:7: note: the other 'add' is here"}));
}

// Test that the name is left alone where it means something else: a local variable named like
// the functions (its address is no function's), and, in a member function, the class's own
// member of that name, which hides the free functions.
TEST(AddressSpaceDispatch, HiddenNamesAreNotCalls) {
    const char* source = "float total(thread const float* p) { return p[0]; }\n"
                         "float total(threadgroup const float* p) { return p[1]; }\n"
                         "struct S {\n"
                         "  float total(threadgroup const float* p) { return 0; }\n"
                         "  float use(threadgroup const float* p) { return total(p); }\n"
                         "};\n"
                         "kernel void k(device float* out) {\n"
                         "  float total = 1;\n"
                         "  thread float* t = &total;\n"
                         "  out[0] = *t;\n"
                         "}";
    auto p = testing::parse(source);
    const std::string out = testing::runPass(*p, collapseAddressSpaceOverloads);
    EXPECT_TRUE(p->messages().empty()) << p->messages()[0];
    EXPECT_NE(out.find("float use(threadgroup const float* p) { return total(p); }"), std::string::npos) << out;
    EXPECT_NE(out.find("thread float* t = &total;"), std::string::npos) << out;
}

// Test that overloads this cannot tell apart at their calls stay an error naming both: on the
// address space of `this`, and operators.
TEST(AddressSpaceDispatch, ThisAndOperatorsStayErrors) {
    auto p = testing::parse("struct S {\n"
                            "  int f() thread { return 1; }\n"
                            "  int f() device { return 2; }\n"
                            "};\n"
                            "thread C& operator+=(thread C& a, C b) { return a; }\n"
                            "device C& operator+=(device C& a, C b) { atomic_add(a, b); return a; }");
    testing::runPass(*p, collapseAddressSpaceOverloads);
    ASSERT_EQ(p->messages().size(), 4u);
    EXPECT_NE(p->messages()[0].find("test.metal:6:11: error: 'operator+=' is overloaded only on address spaces"),
              std::string::npos)
        << p->messages()[0];
    EXPECT_NE(p->messages()[2].find("test.metal:3:7: error: 'f' is overloaded only on address spaces"),
              std::string::npos)
        << p->messages()[2];
}

// Test overloads whose parameters are aliases of address-space-qualified pointers (a
// `typedef` and a `using`, the learner's repro): they are overloads on address spaces, a local
// declared with the alias points where the alias says, and in the checked flavour (where the
// pointers are different types) nothing changes. They were one function, defined twice.
TEST(AddressSpaceDispatch, AliasedPointerTypes) {
    const char* source = "typedef threadgroup float* tg_ptr;\n"
                         "using dev_ptr = device float*;\n"
                         "float pick(tg_ptr p) { return p[0] + 2000.0f; }\n"
                         "float pick(dev_ptr p) { return p[0] + 1000.0f; }\n"
                         "kernel void k(device float* out [[buffer(0)]], ushort lid [[thread_index_in_threadgroup]]) {\n"
                         "  threadgroup float tile[64];\n"
                         "  tg_ptr t = tile;\n"
                         "  dev_ptr d = out;\n"
                         "  out[lid] = pick(t) + pick(out) + pick(d) + pick(tile);\n"
                         "}";
    EXPECT_EQ(rewrite(source),
              "typedef threadgroup float* tg_ptr;\n"
              "using dev_ptr = device float*;\n"
              "float pick(tg_ptr p) { return p[0] + 2000.0f; }\n"
              "float pick(::metalcpu_kernel::address_space_tag<1>, dev_ptr p) { return p[0] + 1000.0f; }\n"
              "kernel void k(device float* out [[buffer(0)]], ushort lid [[thread_index_in_threadgroup]]) {\n"
              "threadgroup float tile[64];\n"
              "tg_ptr t = tile;\n"
              "dev_ptr d = out;\n"
              "out[lid] = pick(t) + pick(::metalcpu_kernel::address_space_tag<1>{}, out) + "
              "pick(::metalcpu_kernel::address_space_tag<1>{}, d) + pick(tile);\n"
              "}");
    auto p = testing::parse(source);
    const std::string checked = testing::runPass(*p, collapseAddressSpaceOverloads, true);
    EXPECT_EQ(checked.find("address_space_tag"), std::string::npos) << checked;
}

} // namespace
} // namespace metalcpu::msl
