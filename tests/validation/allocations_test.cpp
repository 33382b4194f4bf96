// Tests of validation/allocations: the registry of live buffers and constants.
#include "validation/allocations.h"

#include <gtest/gtest.h>

namespace metalcpu::val {
namespace {

// Test that the registry finds the allocation holding an address and the one just below it.
TEST(AllocationRegistry, FindAndContains) {
    AllocationRegistry& registry = AllocationRegistry::shared();
    registry.add(0x10000, 256, [] { return std::string("first"); });
    registry.add(0x20000, 64, [] { return std::string("second"); });
    auto inside = registry.find(0x10010);
    ASSERT_TRUE(inside);
    EXPECT_EQ(inside->label(), "first");
    auto past = registry.find(0x10100); // one past the end: still "first", as the nearest below
    ASSERT_TRUE(past);
    EXPECT_EQ(past->begin, 0x10000u);
    EXPECT_TRUE(registry.contains(0x10000, 256));
    EXPECT_FALSE(registry.contains(0x10000, 257));
    EXPECT_FALSE(registry.contains(0x100fe, 4));
    EXPECT_TRUE(registry.contains(0x20000, 4));
    EXPECT_FALSE(registry.find(0x100).has_value());
    registry.remove(0x10000);
    registry.remove(0x20000);
    EXPECT_FALSE(registry.contains(0x10000, 4));
}

// Test that an allocation registered twice (a kernel library opened twice maps its constants
// at the same address) stays until both registrations are removed.
TEST(AllocationRegistry, RegistrationsAreCounted) {
    AllocationRegistry& registry = AllocationRegistry::shared();
    registry.add(0x30000, 16, [] { return std::string("constant kTable"); });
    registry.add(0x30000, 16, [] { return std::string("constant kTable"); });
    registry.remove(0x30000);
    EXPECT_TRUE(registry.contains(0x30000, 16)) << "the second library still maps it";
    registry.remove(0x30000);
    EXPECT_FALSE(registry.contains(0x30000, 4));
}

} // namespace
} // namespace metalcpu::val
