// Tests of exec/regions: the tag table of checked pointers.
#include "exec/regions.h"

#include <gtest/gtest.h>

namespace metalcpu::exec {
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

} // namespace
} // namespace metalcpu::exec
