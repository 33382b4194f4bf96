// NS::Range.
#include <Foundation/NSRange.hpp>

#include <gtest/gtest.h>

#include <cstddef>

namespace {

// Test that Range has metal-cpp's packed layout.
TEST(RangeTest, Layout) {
    static_assert(sizeof(NS::Range) == 2 * sizeof(NS::UInteger));
    static_assert(offsetof(NS::Range, location) == 0);
    static_assert(offsetof(NS::Range, length) == sizeof(NS::UInteger));
}

// Test Make, Equal, LocationInRange and Max.
TEST(RangeTest, Members) {
    NS::Range range = NS::Range::Make(10, 5);
    EXPECT_EQ(range.location, 10u);
    EXPECT_EQ(range.length, 5u);
    EXPECT_TRUE(range.Equal(NS::Range(10, 5)));
    EXPECT_FALSE(range.Equal(NS::Range(10, 6)));
    EXPECT_TRUE(range.LocationInRange(10));
    EXPECT_TRUE(range.LocationInRange(14));
    EXPECT_FALSE(range.LocationInRange(15));
    EXPECT_FALSE(range.LocationInRange(9));
    EXPECT_EQ(range.Max(), 15u);
}

} // namespace
