#include "compiler/call_targets.h"
#include "compiler/call_graph.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace metalcpu::msl {
namespace {

struct Graph {
    std::unique_ptr<testing::Parsed> parsed;
    CallGraph graph;

    /// The function `name` of class `owner` ("" for a free function).
    std::size_t index(std::string_view owner, std::string_view name) const {
        for (std::size_t i = 0; i < parsed->module.functions.size(); ++i) {
            const FunctionDecl& f = parsed->module.functions[i];
            if (f.name == name && f.enclosingClass == owner) return i;
        }
        ADD_FAILURE() << "no function " << owner << "::" << name;
        return 0;
    }
    bool calls(std::string_view owner, std::string_view name, std::string_view calleeOwner,
               std::string_view callee) const {
        const std::vector<std::size_t>& c = graph.callees[index(owner, name)];
        return std::find(c.begin(), c.end(), index(calleeOwner, callee)) != c.end();
    }
    bool usesBarriers(std::string_view owner, std::string_view name) const {
        for (std::size_t r : reachableFunctions(graph, index(owner, name)))
            if (graph.usesBarriersDirectly[r]) return true;
        return false;
    }
};

Graph graphOf(std::string_view source) {
    Graph g;
    g.parsed = testing::parse(source);
    g.graph = buildCallGraph(g.parsed->tokens, g.parsed->partner, g.parsed->module);
    return g;
}

// Test MLX sort's shape: a static `sort` calls another class's static `sort` through a member
// alias. The call reaches only that class's function, so the caller does not call itself.
TEST(CallTargets, QualifierThroughAClassAlias) {
    Graph g = graphOf("template <typename T> struct ThreadSort { static void sort(thread T* v) { v[0] = v[1]; } };\n"
                      "template <typename T> struct BlockSort {\n"
                      "  using thread_sort_t = ThreadSort<T>;\n"
                      "  static void sort(thread T* v) {\n"
                      "    thread_sort_t::sort(v);\n"
                      "    threadgroup_barrier(mem_flags::mem_threadgroup);\n"
                      "  }\n"
                      "};\n"
                      "kernel void k(device float* p) { float v[2]; BlockSort<float>::sort(v); }");
    EXPECT_TRUE(g.calls("BlockSort", "sort", "ThreadSort", "sort"));
    EXPECT_FALSE(g.calls("BlockSort", "sort", "BlockSort", "sort"));
    EXPECT_TRUE(g.calls("", "k", "BlockSort", "sort"));
    EXPECT_FALSE(g.calls("", "k", "ThreadSort", "sort"));
    EXPECT_FALSE(g.usesBarriers("ThreadSort", "sort"));
}

// Test that an alias in the caller's body hides those of other bodies (MLX's kernels each
// declare their own `sort_kernel`), and that a typedef counts as an alias.
TEST(CallTargets, AliasOfTheCallersOwnScope) {
    Graph g = graphOf("struct Synced { static void run() { threadgroup_barrier(mem_flags::mem_none); } };\n"
                      "struct Plain { static void run() {} };\n"
                      "kernel void a() { using op_t = Synced; if (true) { op_t::run(); } }\n"
                      "kernel void b() { typedef Plain op_t; op_t::run(); }");
    EXPECT_TRUE(g.usesBarriers("", "a"));
    EXPECT_FALSE(g.usesBarriers("", "b"));
}

// Test that `Q::template f<T>()` and `x.template f<T>()` are a qualified and a member call, not
// an unqualified one that the caller's own `f` would hide.
TEST(CallTargets, TemplateKeywordBeforeTheName) {
    Graph g = graphOf("struct Synced { template <typename T> static void run() { threadgroup_barrier(mem_flags::mem_none); }\n"
                      "                template <typename T> void go() { threadgroup_barrier(mem_flags::mem_none); } };\n"
                      "template <typename S> struct Caller {\n"
                      "  template <typename T> static void run() {}\n"
                      "  template <typename T> void go() {}\n"
                      "  static void a() { Synced::template run<int>(); }\n"
                      "  void b(Synced s) { s.template go<int>(); }\n"
                      "};");
    EXPECT_TRUE(g.usesBarriers("Caller", "a"));
    EXPECT_TRUE(g.usesBarriers("Caller", "b"));
}

// Test that an unqualified call in a member function reaches the class's own member of that
// name only, a member call only members, and a call from a free function no member.
TEST(CallTargets, ClassMembersAndFreeFunctions) {
    Graph g = graphOf("void step() { threadgroup_barrier(mem_flags::mem_none); }\n"
                      "struct Walker {\n"
                      "  void step() {}\n"
                      "  void walk() { step(); }\n"
                      "};\n"
                      "kernel void by_member() { Walker w; w.step(); }\n"
                      "kernel void by_walk() { Walker w; w.walk(); }\n"
                      "kernel void free_call() { step(); }");
    EXPECT_FALSE(g.calls("Walker", "walk", "", "step"));
    EXPECT_TRUE(g.calls("Walker", "walk", "Walker", "step"));
    EXPECT_FALSE(g.usesBarriers("", "by_member"));
    EXPECT_FALSE(g.usesBarriers("", "by_walk"));
    EXPECT_TRUE(g.calls("", "free_call", "", "step"));
    EXPECT_FALSE(g.calls("", "free_call", "Walker", "step"));
}

// Test that where lookup is not followed, every function of the name stays a callee: a
// qualifier naming a template parameter or an alias of one, a class that does not declare the
// name (it may inherit it), a member defined outside its class, a friend found by ADL.
TEST(CallTargets, UnfollowedLookupKeepsEveryFunction) {
    Graph g = graphOf("struct Synced { static void run() { threadgroup_barrier(mem_flags::mem_none); } };\n"
                      "struct Plain { static void run() {} };\n"
                      "struct Empty {};\n"
                      "template <typename Op> void by_parameter() { Op::run(); }\n"
                      "template <typename T> void by_alias() { using op_t = T; op_t::run(); }\n"
                      "void by_base() { Empty::run(); }\n"
                      "struct Outside { void go(); };\n"
                      "void go() { threadgroup_barrier(mem_flags::mem_none); }\n"
                      "void Outside::go() { }\n"
                      "struct Holder { void go() {} void call() { Outside o; o.go(); } };\n"
                      "struct Pal { friend void meet(Pal p) { threadgroup_barrier(mem_flags::mem_none); } };\n"
                      "void greet() { Pal p; meet(p); }");
    EXPECT_TRUE(g.usesBarriers("", "by_parameter"));
    EXPECT_TRUE(g.usesBarriers("", "by_alias"));
    EXPECT_TRUE(g.usesBarriers("", "by_base"));
    EXPECT_TRUE(g.usesBarriers("Pal", "meet"));
    EXPECT_TRUE(g.usesBarriers("", "greet"));
    // `o.go()` may be the member defined outside its class, not the free `go`.
    const std::size_t call = g.index("Holder", "call");
    bool reachesOutOfClass = false, reachesFree = false;
    for (std::size_t c : g.graph.callees[call]) {
        const FunctionDecl& f = g.parsed->module.functions[c];
        if (f.name != "go") continue;
        const bool qualified = g.parsed->tokens[f.nameToken - 1].isPunct("::");
        if (qualified) reachesOutOfClass = true;
        if (!qualified && f.enclosingClass.empty()) reachesFree = true;
    }
    EXPECT_TRUE(reachesOutOfClass);
    EXPECT_FALSE(reachesFree);
}

} // namespace
} // namespace metalcpu::msl
