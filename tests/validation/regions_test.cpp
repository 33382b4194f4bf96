// Tests of validation/regions: the tag table and the allocation registry.
#include "validation/regions.h"

#include <gtest/gtest.h>

#include <set>

namespace metalcpu::val {
namespace {

// Test that acquired tags are distinct, non-zero, hold their owner and region, and are reused.
TEST(RegionTable, AcquireSetRelease) {
    RegionTable& table = RegionTable::shared();
    RegionOwner a, b;
    std::uint32_t ta = table.acquire(&a), tb = table.acquire(&b);
    ASSERT_NE(ta, 0u);
    ASSERT_NE(tb, 0u);
    EXPECT_NE(ta, tb);
    EXPECT_EQ(table.owner(ta), &a);
    table.set(ta, 4096, 100);
    EXPECT_EQ(table.regions()[ta].begin, 4096u);
    EXPECT_EQ(table.regions()[ta].length, 100u);
    EXPECT_EQ(table.regions()[0].length, 0u) << "tag 0 must stay empty";
    table.release(ta);
    EXPECT_EQ(table.owner(ta), nullptr);
    EXPECT_EQ(table.regions()[ta].length, 0u);
    std::uint32_t again = table.acquire(&a);
    EXPECT_EQ(again, ta) << "the last released tag is handed out first";
    table.release(again);
    table.release(tb);
}

// Test that a tagged address keeps the address in the low bits and the tag in the high ones.
TEST(RegionTable, TaggedAddresses) {
    const std::uint64_t address = 0x00007f0012345678ull;
    const std::uint64_t tagged = RegionTable::tagged(0x1234, address);
    EXPECT_EQ(tagged >> METALCPU_REGION_TAG_SHIFT, 0x1234u);
    EXPECT_EQ(tagged & ((std::uint64_t(1) << METALCPU_REGION_TAG_SHIFT) - 1), address);
}

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
