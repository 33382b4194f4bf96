#include "support/hash.h"

#include <gtest/gtest.h>

namespace metalcpu::support {
namespace {

// Test that the hash is stable, 32 hex digits, and sensitive to content and boundaries.
TEST(Hasher, DistinguishesContentAndBoundaries) {
    std::string ab_c = Hasher().add("ab").add("c").hex();
    std::string a_bc = Hasher().add("a").add("bc").hex();
    EXPECT_EQ(ab_c.size(), 32u);
    EXPECT_NE(ab_c, a_bc);
    EXPECT_EQ(ab_c, Hasher().add("ab").add("c").hex());
    EXPECT_NE(Hasher().add(std::uint64_t(1)).hex(), Hasher().add(std::uint64_t(2)).hex());
}

} // namespace
} // namespace metalcpu::support
