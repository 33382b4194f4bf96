#include "exec/threadgroup_memory.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace metalcpu::exec {
namespace {

// Test that the same site key gives the same storage and different keys do not overlap.
TEST(ThreadgroupMemory, SitesAreStableAndDisjoint) {
    ThreadgroupMemory memory;
    mc_group group{};
    std::uint64_t lengths[METALCPU_MAX_THREADGROUP_BINDINGS] = {};
    std::string error;
    ASSERT_TRUE(memory.bindArguments(lengths, 32768, group, error));
    memory.beginGroup();
    auto* a = static_cast<char*>(memory.variable(1, 100, 4));
    auto* b = static_cast<char*>(memory.variable(2, 64, 16));
    EXPECT_EQ(memory.variable(1, 100, 4), a);
    EXPECT_TRUE(b >= a + 100 || b + 64 <= a);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b) % 16, 0u);
    EXPECT_FALSE(memory.overflowed());
}

// Test that [[threadgroup(n)]] arguments get zeroed, aligned, separate regions.
TEST(ThreadgroupMemory, ArgumentsAreLaidOutFirst) {
    ThreadgroupMemory memory;
    mc_group group{};
    std::uint64_t lengths[METALCPU_MAX_THREADGROUP_BINDINGS] = {};
    lengths[0] = 48;
    lengths[3] = 16;
    std::string error;
    ASSERT_TRUE(memory.bindArguments(lengths, 32768, group, error));
    memory.beginGroup();
    ASSERT_NE(group.threadgroup_arguments[0], nullptr);
    ASSERT_NE(group.threadgroup_arguments[3], nullptr);
    EXPECT_EQ(group.threadgroup_arguments[1], nullptr);
    EXPECT_GE(group.threadgroup_arguments[3], group.threadgroup_arguments[0] + 48);
    for (int i = 0; i < 48; ++i) EXPECT_EQ(group.threadgroup_arguments[0][i], 0);
    auto* variable = static_cast<char*>(memory.variable(9, 8, 8));
    EXPECT_GE(variable, group.threadgroup_arguments[3] + 16);
}

// Test that arguments over the limit are refused with a message naming the limit.
TEST(ThreadgroupMemory, ArgumentsOverTheLimitAreRefused) {
    ThreadgroupMemory memory;
    mc_group group{};
    std::uint64_t lengths[METALCPU_MAX_THREADGROUP_BINDINGS] = {};
    lengths[0] = 40000;
    std::string error;
    EXPECT_FALSE(memory.bindArguments(lengths, 32768, group, error));
    EXPECT_NE(error.find("32768"), std::string::npos);
}

// Test that a variable that does not fit marks the group overflowed and gets safe storage.
TEST(ThreadgroupMemory, OverflowGivesSafeStandIn) {
    ThreadgroupMemory memory;
    mc_group group{};
    std::uint64_t lengths[METALCPU_MAX_THREADGROUP_BINDINGS] = {};
    std::string error;
    ASSERT_TRUE(memory.bindArguments(lengths, 1024, group, error));
    memory.beginGroup();
    auto* big = static_cast<char*>(memory.variable(5, 4096, 16));
    ASSERT_NE(big, nullptr);
    big[4095] = 1; // inside the stand-in
    EXPECT_TRUE(memory.overflowed());
    EXPECT_EQ(memory.variable(5, 4096, 16), big);
}

// Test that the next group of a run gets its arguments zeroed again at the same addresses, and
// its variables placed afresh (zeroed, from the end of the arguments), with no overflow carried.
TEST(ThreadgroupMemory, NextGroupStartsClean) {
    ThreadgroupMemory memory;
    mc_group group{};
    std::uint64_t lengths[METALCPU_MAX_THREADGROUP_BINDINGS] = {};
    lengths[2] = 40;
    std::string error;
    ASSERT_TRUE(memory.bindArguments(lengths, 1024, group, error));
    memory.beginGroup();
    char* const argument = group.threadgroup_arguments[2];
    ASSERT_NE(argument, nullptr);
    for (int i = 0; i < 40; ++i) argument[i] = 7;
    auto* first = static_cast<char*>(memory.variable(3, 32, 16));
    for (int i = 0; i < 32; ++i) first[i] = 9;
    (void)memory.variable(4, 4096, 16); // does not fit
    ASSERT_TRUE(memory.overflowed());

    memory.beginGroup();
    EXPECT_FALSE(memory.overflowed());
    EXPECT_EQ(group.threadgroup_arguments[2], argument);
    for (int i = 0; i < 40; ++i) EXPECT_EQ(argument[i], 0) << i;
    auto* second = static_cast<char*>(memory.variable(5, 32, 16));
    EXPECT_EQ(second, first); // the first free bytes after the arguments again
    for (int i = 0; i < 32; ++i) EXPECT_EQ(second[i], 0) << i;
    EXPECT_EQ(memory.used(), static_cast<std::uint64_t>(second + 32 - argument));
}

} // namespace
} // namespace metalcpu::exec
