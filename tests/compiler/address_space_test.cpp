#include "compiler/address_space.h"

#include "compiler/syntax.h"
#include "stdlib/include/metalcpu/kernel_abi.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace metalcpu::msl {
namespace {

Token identifier(std::string spelling) {
    Token t;
    t.kind = TokenKind::Identifier;
    t.spelling = std::move(spelling);
    return t;
}

// Test that the table holds every address space once, in the enum's order, and that each
// spelling leads back to its space (as a word, as an identifier, as a type qualifier).
TEST(AddressSpaceTable, EverySpellingRoundTrips) {
    std::set<std::string_view> spellings;
    for (std::size_t i = 0; i < addressSpaces().size(); ++i) {
        const SpaceInfo& info = addressSpaces()[i];
        EXPECT_EQ(static_cast<std::size_t>(info.space), i);
        EXPECT_EQ(&infoOf(info.space), &info);
        EXPECT_EQ(addressSpaceNamed(info.spelling), info.space) << info.spelling;
        EXPECT_EQ(addressSpaceOf(identifier(std::string(info.spelling))), info.space) << info.spelling;
        EXPECT_TRUE(isTypeQualifier(info.spelling)) << info.spelling;
        spellings.insert(info.spelling);
    }
    EXPECT_EQ(spellings.size(), 7u);
    EXPECT_EQ(spellingOf(Space::ThreadgroupImageblock), "threadgroup_imageblock");
}

// Test that other words, and tokens that are not identifiers, spell no address space.
TEST(AddressSpaceTable, OtherWordsAreNoSpace) {
    for (std::string_view word : {"", "const", "Device", "threadgroup_", "global", "local", "private", "kernel"})
        EXPECT_FALSE(addressSpaceNamed(word)) << word;
    Token string = identifier("device");
    string.kind = TokenKind::String;
    EXPECT_FALSE(addressSpaceOf(string));
}

// Test that exactly the four spaces metalcpu runs are supported and reflected, and that the
// others are neither (their code is an error at the qualifier).
TEST(AddressSpaceTable, SupportedSpaces) {
    std::set<Space> supported;
    for (const SpaceInfo& info : addressSpaces()) {
        EXPECT_EQ(supportedAddressSpaceOf(identifier(std::string(info.spelling))).has_value(), info.supported);
        EXPECT_EQ(info.reflected != AddressSpace::None, info.supported) << info.spelling;
        if (info.supported) supported.insert(info.space);
    }
    EXPECT_EQ(supported, (std::set<Space>{Space::Thread, Space::Device, Space::Constant, Space::Threadgroup}));
    EXPECT_TRUE(infoOf(Space::Constant).readOnly);
    EXPECT_FALSE(infoOf(Space::Device).readOnly);
}

// Test that the numbers the translator writes into checked_ptr<T, Space> are the kernel ABI's
// mc_address_space values, which the kernel library's checked pointers and threadgroup arrays
// (metalcpu/checked.h) use by name, and that reflection reports the same values.
TEST(AddressSpaceTable, CheckedNumbersAreTheKernelLibrarys) {
    EXPECT_EQ(infoOf(Space::Device).number, MC_ADDRESS_SPACE_DEVICE);
    EXPECT_EQ(infoOf(Space::Constant).number, MC_ADDRESS_SPACE_CONSTANT);
    EXPECT_EQ(infoOf(Space::Threadgroup).number, MC_ADDRESS_SPACE_THREADGROUP);
    EXPECT_EQ(static_cast<int>(infoOf(Space::Thread).reflected), MC_ADDRESS_SPACE_THREAD);
    for (const SpaceInfo& info : addressSpaces()) {
        EXPECT_EQ(isCheckedSpace(info.space),
                  info.space == Space::Device || info.space == Space::Constant || info.space == Space::Threadgroup)
            << info.spelling;
        if (isCheckedSpace(info.space)) {
            EXPECT_EQ(info.number, static_cast<int>(info.reflected)) << info.spelling;
        }
    }
}

// Test that the numbers of address_space_tag<Spaces...> tell the supported spaces apart, with
// `thread` (the version that never needs a tag) as 0.
TEST(AddressSpaceTable, TagNumbersAreDistinct) {
    std::set<int> numbers;
    for (const SpaceInfo& info : addressSpaces())
        if (info.supported) {
            EXPECT_TRUE(numbers.insert(info.number).second) << info.spelling;
        }
    EXPECT_EQ(infoOf(Space::Thread).number, 0);
}

} // namespace
} // namespace metalcpu::msl
