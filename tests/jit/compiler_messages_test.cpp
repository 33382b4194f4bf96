#include "jit/compiler_messages.h"

#include <gtest/gtest.h>

namespace metalcpu::jit {
namespace {

// Test that the user's warnings stay with their context and quoted lines, and that the
// warnings about metalcpu's generated code and standard library go, with their notes.
TEST(CompilerMessages, KeepsTheUsersWarnings) {
    const std::string output =
        "/tmp/w/0.cpp: In function 'void __mc_0_run_group(const mc_group*)':\n"
        "<metalcpu generated>:12:5: warning: unused variable '__t' [-Wunused-variable]\n"
        "k.metal: In function 'void add(float*)':\n"
        "k.metal:7:9: warning: unused variable 'unused' [-Wunused-variable]\n"
        "    7 |     int unused = 3;\n"
        "      |         ^~~~~~\n"
        "k.metal:8:152: warning: declaration of '__mc_b4 gid' shadows a parameter [-Wshadow]\n"
        "k.metal:5:20: note: shadowed declaration is here\n"
        "/cache/stdlib/include/metal_math:40:3: warning: conversion from 'int' [-Wconversion]\n"
        "k.metal:9:3: warning: comparison of integer expressions of different signedness [-Wsign-compare]\n"
        "cc1plus: note: unrecognized command-line option '-Wno-c++17-extensions' may have been intended to silence "
        "earlier diagnostics\n";
    EXPECT_EQ(userMessages(output, {"/tmp/w/0.cpp", "/cache/stdlib/include"}),
              "k.metal: In function 'add':\n"
              "k.metal:7:9: warning: unused variable 'unused' [-Wunused-variable]\n"
              "    7 |     int unused = 3;\n"
              "      |         ^~~~~~\n"
              "k.metal:9:3: warning: comparison of integer expressions of different signedness [-Wsign-compare]\n");
}

// Test that a mistake in a helper the front end inlined into a kernel is said once: the
// copy's message (its locals renamed "x_i1", its slot type "__mc_t1") goes when the helper's
// own says the same at the same place, wherever the copy comes; a message that differs, or the
// same message at another place or in another instantiation, stays.
TEST(CompilerMessages, InlinedCopiesOfAMistakeAreSaidOnce) {
    const std::string helper = "k.metal: In function 'float helper(float*, uint)':\n"
                               "k.metal:8:7: error: request for member 'y' in 'x', which is of non-class type 'float'\n"
                               "    8 |     x.y = y;\n"
                               "      |       ^\n";
    const std::string copy =
        "k.metal: In lambda function:\n"
        "k.metal:8:7: error: request for member 'y' in 'x_i1', which is of non-class type '__mc_t1' {aka 'float'}\n"
        "    8 |     x.y = y;\n"
        "      |          ^\n"
        "k.metal:7:9: warning: unused variable 'unused_value_i3' [-Wunused-variable]\n"
        "k.metal:9:2: error: 'zz' was not declared in this scope\n";
    const std::string helperWarnings = "k.metal:7:9: warning: unused variable 'unused_value' [-Wunused-variable]\n"
                                       "k.metal:9:2: error: 'zz' was not declared in this scope\n";
    const std::string expected = "k.metal: In function 'helper':\n"
                                 "k.metal:8:7: error: request for member 'y' in 'x', which is of non-class type 'float'\n"
                                 "    8 |     x.y = y;\n"
                                 "      |       ^\n"
                                 "k.metal:7:9: warning: unused variable 'unused_value' [-Wunused-variable]\n"
                                 "k.metal:9:2: error: 'zz' was not declared in this scope\n";
    EXPECT_EQ(userMessages(helper + helperWarnings + copy, {}), expected);
    // The copy first (a helper defined after the kernel that calls it).
    const std::string copyFirst = userMessages(copy + helper + helperWarnings, {});
    EXPECT_EQ(copyFirst.find("x_i1"), std::string::npos) << copyFirst;
    EXPECT_EQ(copyFirst.find("unused_value_i3"), std::string::npos) << copyFirst;
    EXPECT_EQ(copyFirst.find("In lambda function"), std::string::npos) << copyFirst;
    EXPECT_NE(copyFirst.find("in 'x', which"), std::string::npos) << copyFirst;
    // A copy's message with no twin of the helper's stays (a mistake only the copy makes).
    const std::string alone = userMessages(copy, {});
    EXPECT_NE(alone.find("'x_i1'"), std::string::npos) << alone;
    EXPECT_NE(alone.find("'zz' was not declared"), std::string::npos) << alone;
    // Another place, or the same message in a second instantiation (not a copy): both stay.
    const std::string twoPlaces = userMessages("k.metal:8:7: error: bad 'x'\nk.metal:8:9: error: bad 'x_i1'\n", {});
    EXPECT_EQ(twoPlaces, "k.metal:8:7: error: bad 'x'\nk.metal:8:9: error: bad 'x_i1'\n");
    const std::string instantiations = "k.metal: In instantiation of 'void f(T) [with T = float]':\n"
                                       "k.metal:3:5: error: bad 'x'\n"
                                       "k.metal: In instantiation of 'void f(T) [with T = int]':\n"
                                       "k.metal:3:5: error: bad 'x'\n";
    EXPECT_EQ(userMessages(instantiations, {}), "k.metal: In instantiation of 'f [with T = float]':\n"
                                                "k.metal:3:5: error: bad 'x'\n"
                                                "k.metal: In instantiation of 'f [with T = int]':\n"
                                                "k.metal:3:5: error: bad 'x'\n");
}

// Test that a context line quotes the function's name, not the generated code's signature
// (address spaces dropped, metalcpu's group parameter added), template arguments kept.
TEST(CompilerMessages, ContextNamesTheFunction) {
    const std::string output =
        "kernel.metal: In function 'void E_4(float*, half*, metal::uint3, metal::uint3, const mc_group*)':\n"
        "kernel.metal:6:42: error: bad\n"
        "k.metal: In instantiation of 'metal::vec<float, 4> ns::f(T) [with T = float]':\n"
        "k.metal:9:1: error: worse\n"
        "k.metal: In lambda function:\n"
        "k.metal:10:1: error: worst\n";
    EXPECT_EQ(userMessages(output, {}), "kernel.metal: In function 'E_4':\n"
                                        "kernel.metal:6:42: error: bad\n"
                                        "k.metal: In instantiation of 'ns::f [with T = float]':\n"
                                        "k.metal:9:1: error: worse\n"
                                        "k.metal: In lambda function:\n"
                                        "k.metal:10:1: error: worst\n");
}

// Test that errors are kept wherever they are, with their context and notes, and that a
// context whose first warning was left out is shown with the next kept one.
TEST(CompilerMessages, KeepsErrors) {
    const std::string output = "k.metal: In function 'void k()':\n"
                               "k.metal:3:5: warning: unused variable '__mc_tmp' [-Wunused-variable]\n"
                               "k.metal:4:5: error: 'y' was not declared in this scope\n"
                               "<metalcpu generated>:9:1: error: no matching function\n"
                               "<metalcpu generated>:9:1: note: candidate: 'f(int)'\n"
                               "compilation terminated.\n";
    EXPECT_EQ(userMessages(output, {}), "k.metal: In function 'k':\n"
                                        "k.metal:4:5: error: 'y' was not declared in this scope\n"
                                        "<metalcpu generated>:9:1: error: no matching function\n"
                                        "<metalcpu generated>:9:1: note: candidate: 'f(int)'\n"
                                        "compilation terminated.\n");
}

// Test that GCC's error about writing a const object, which quotes its lowering of the
// expression, says what it means instead, its quoted source line kept; other errors and a
// warning of the same words are left as they are.
TEST(CompilerMessages, ReadOnlyLocationIsSaidPlainly) {
    const std::string output = "k.metal:4:11: error: assignment of read-only location '*(in + ((sizetype)(((long "
                               "unsigned int)i) * 4)))'\n"
                               "    4 |     in[i] = 2.0f;\n"
                               "k.metal:5:5: error: increment of read-only location '* p'\n"
                               "k.metal:6:5: error: 'y' was not declared in this scope\n";
    EXPECT_EQ(userMessages(output, {}),
              "k.metal:4:11: error: assignment of read-only location: what it writes is const (through a `device "
              "const` or `constant` pointer or reference, or a const variable)\n"
              "    4 |     in[i] = 2.0f;\n"
              "k.metal:5:5: error: increment of read-only location: what it writes is const (through a `device const` "
              "or `constant` pointer or reference, or a const variable)\n"
              "k.metal:6:5: error: 'y' was not declared in this scope\n");
}

// Test recognising a message's first line and where its text starts.
TEST(CompilerMessages, MessageLines) {
    std::size_t start = 0;
    EXPECT_TRUE(isMessageLine("k.metal:3:9: warning: unused [-Wunused]", "warning", &start));
    EXPECT_EQ(start, std::string("k.metal:3:9: warning: ").size());
    EXPECT_TRUE(isMessageLine("cc1plus: warning: option", "warning"));
    EXPECT_TRUE(isMessageLine("<stdin>:2:1: error: expected '}'", "error"));
    EXPECT_FALSE(isMessageLine("k.metal:3:9: error: x", "warning"));
    EXPECT_FALSE(isMessageLine("    3 | warning: x", "warning"));
}

// Test that a location inside text the front end inserted, or in a user's token it pushed
// along the line, moves to the source column the column map gives (the file's and line's
// spans only), and that other locations, other lines and other files stay, as do those only
// the map of an embedded text (the validation flavour's, before the end) would move.
TEST(CompilerMessages, ColumnsInsideInsertedText) {
    const std::string translated = "static const char v[] = R\"mcv(\n//@columns \"program_source\" 4 1-100=1\n)mcv\";\n"
                                   "#line 3 \"program_source\"\nconstant bool dot = ...;\n"
                                   "#line 1 \"<metalcpu generated>\"\nint x;\n"
                                   "//@columns \"program_source\" 3 20-200=15 200-210=18\n"
                                   "//@columns \"a \\\"b\\\".metal\" 7 9-40=5\n";
    const std::string output = "program_source:3:221: error: reference to 'dot' is ambiguous\n"
                               "program_source:3:205: error: expected ';'\n"
                               "program_source:3:12: error: not moved\n"
                               "program_source:4:30: error: another line\n"
                               "a \"b\".metal:7:12: note: a quoted name\n"
                               "program_source:3:30:   required from here\n"
                               "    3 | constant bool dot\n";
    EXPECT_EQ(sourceColumns(output, translated), "program_source:3:221: error: reference to 'dot' is ambiguous\n"
                                                 "program_source:3:18: error: expected ';'\n"
                                                 "program_source:3:12: error: not moved\n"
                                                 "program_source:4:30: error: another line\n"
                                                 "a \"b\".metal:7:5: note: a quoted name\n"
                                                 "program_source:3:15:   required from here\n"
                                                 "    3 | constant bool dot\n");
    EXPECT_EQ(sourceColumns(output, "no map\n"), output);
}

} // namespace
} // namespace metalcpu::jit
