#include "jit/make_dependencies.h"

#include <gtest/gtest.h>

namespace metalcpu::jit {
namespace {

using Strings = std::vector<std::string>;

// Test reading GCC's depfiles: continued lines, make's escapes, several rules, and phony
// rules (which add nothing), each file once.
TEST(MakeDependencies, ReadsPrerequisites) {
    EXPECT_EQ(readMakePrerequisites("k.air: k.metal \\\n  inc/a\\ b.h \\\r\n  we\\#ird$$.h\n"),
              (Strings{"k.metal", "inc/a b.h", "we#ird$.h"}));
    EXPECT_EQ(readMakePrerequisites("x y: a.metal h.h\nz: h.h g.h\n\nh.h:\n"), (Strings{"a.metal", "h.h", "g.h"}));
    EXPECT_EQ(readMakePrerequisites(""), Strings{});
}

// Test writing a rule: names quoted for make, one per line; -MP's empty rules.
TEST(MakeDependencies, FormatsRules) {
    EXPECT_EQ(quoteForMake("a b#$c"), "a\\ b\\#$$c");
    EXPECT_EQ(formatMakeRule({"k.air"}, {"k.metal", "my h.h"}, {"my h.h"}),
              "k.air: \\\n  k.metal \\\n  my\\ h.h\n\nmy\\ h.h:\n");
    EXPECT_EQ(formatMakeRule({"a", "b"}, {}), "a b:\n");
    // What is written reads back.
    EXPECT_EQ(readMakePrerequisites(formatMakeRule({"t"}, {"a $b.h", "#c.h"})), (Strings{"a $b.h", "#c.h"}));
}

} // namespace
} // namespace metalcpu::jit
