// Tests that GoogleTest prints reports and their fields by the PrintTo overloads declared in
// <metalcpu/Validation.hpp>, in a file that does not include <metalcpu/ValidationTesting.hpp>:
// every file prints them alike.
#include "sample_report.h"

#include <gtest/gtest.h>

namespace metalcpu::validation {
namespace {

// Test that kinds, spaces, accesses and positions print by name, and reports as their text.
TEST(ReportPrinting, WithoutTheTestingHeader) {
    EXPECT_EQ(::testing::PrintToString(ReportKind::WildPointer), "wild-pointer");
    EXPECT_EQ(::testing::PrintToString(AddressSpace::Threadgroup), "threadgroup");
    EXPECT_EQ(::testing::PrintToString(Access::Store), "store");
    EXPECT_EQ(::testing::PrintToString(Position{1, 2, 3}), "(1, 2, 3)");
    EXPECT_EQ(::testing::PrintToString(deviceStore()), "\n" + deviceStore().text());
}

} // namespace
} // namespace metalcpu::validation
