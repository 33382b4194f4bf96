// Tests of <metal_integer> on every integer width, signed and unsigned, and on vectors.
#include <gtest/gtest.h>

#include <metal_stdlib>

#include "stdlib/test_util.h"

#include <cstdint>
#include <limits>
#include <type_traits>

namespace {

using metal::char2;
using metal::int2;
using metal::int4;
using metal::uint2;
using metal::uint4;
using metal::ushort2;
using metalcpu_test::expect_vec_eq;

// Test that abs works on integers and absdiff returns the unsigned difference without overflow.
TEST(Integer, AbsAndAbsdiff) {
    EXPECT_EQ(metal::abs(-5), 5);
    EXPECT_EQ(metal::abs(static_cast<long>(-1) << 40), 1l << 40);
    EXPECT_EQ(metal::absdiff(3, 10), 7u);
    EXPECT_EQ(metal::absdiff(-2147483647 - 1, 2147483647), 0xffffffffu);
    EXPECT_TRUE((std::is_same_v<decltype(metal::absdiff(1, 2)), uint>));
    EXPECT_EQ(metal::absdiff(static_cast<uchar>(250), static_cast<uchar>(5)), 245);
    expect_vec_eq(metal::absdiff(int2(-3, 4), int2(3, -4)), {6u, 8u});
}

// Test that addsat and subsat saturate at the limits of signed and unsigned types of each width.
TEST(Integer, SaturatingArithmetic) {
    EXPECT_EQ(metal::addsat(static_cast<char>(100), static_cast<char>(100)), 127);
    EXPECT_EQ(metal::addsat(static_cast<char>(-100), static_cast<char>(-100)), -128);
    EXPECT_EQ(metal::addsat(static_cast<uchar>(200), static_cast<uchar>(100)), 255);
    EXPECT_EQ(metal::subsat(static_cast<uchar>(5), static_cast<uchar>(10)), 0);
    EXPECT_EQ(metal::addsat(static_cast<short>(30000), static_cast<short>(30000)), 32767);
    EXPECT_EQ(metal::subsat(static_cast<ushort>(1), static_cast<ushort>(2)), 0);
    EXPECT_EQ(metal::addsat(2147483647, 1), 2147483647);
    EXPECT_EQ(metal::subsat(-2147483647 - 1, 1), -2147483647 - 1);
    EXPECT_EQ(metal::addsat(0xfffffff0u, 0x20u), 0xffffffffu);
    EXPECT_EQ(metal::addsat(std::numeric_limits<long>::max(), 1l), std::numeric_limits<long>::max());
    EXPECT_EQ(metal::subsat(std::numeric_limits<long>::min(), 1l), std::numeric_limits<long>::min());
    EXPECT_EQ(metal::addsat(~0ul, 1ul), ~0ul);
    EXPECT_EQ(metal::addsat(3, 4), 7);
    expect_vec_eq(metal::addsat(ushort2(65535, 1), ushort2(1, 1)),
                  {static_cast<ushort>(65535), static_cast<ushort>(2)});
}

// Test that clz, ctz and popcount count bits on each width, zero counting every bit.
TEST(Integer, BitCounts) {
    EXPECT_EQ(metal::clz(1u), 31u);
    EXPECT_EQ(metal::clz(0u), 32u);
    EXPECT_EQ(metal::clz(0x80000000u), 0u);
    EXPECT_EQ(metal::clz(static_cast<uchar>(1)), 7);
    EXPECT_EQ(metal::clz(static_cast<uchar>(0)), 8);
    EXPECT_EQ(metal::clz(static_cast<ushort>(0x0100)), 7);
    EXPECT_EQ(metal::clz(-1), 0);
    EXPECT_EQ(metal::clz(1ul), 63ul);
    EXPECT_EQ(metal::ctz(8u), 3u);
    EXPECT_EQ(metal::ctz(0u), 32u);
    EXPECT_EQ(metal::ctz(static_cast<short>(0)), 16);
    EXPECT_EQ(metal::ctz(1ul << 40), 40ul);
    EXPECT_EQ(metal::popcount(0xf0f0u), 8u);
    EXPECT_EQ(metal::popcount(-1), 32);
    EXPECT_EQ(metal::popcount(static_cast<char>(-1)), 8);
    EXPECT_EQ(metal::popcount(~0ul), 64ul);
    expect_vec_eq(metal::clz(uint4(1u, 2u, 0u, 0xffffffffu)), {31u, 30u, 32u, 0u});
    EXPECT_TRUE((std::is_same_v<decltype(metal::popcount(uint4())), uint4>));
}

// Test that extract_bits reads bit fields (sign-extending signed types) and insert_bits writes them.
TEST(Integer, BitFields) {
    EXPECT_EQ(metal::extract_bits(0xabcdu, 4u, 8u), 0xbcu);
    EXPECT_EQ(metal::extract_bits(0xf0, 4u, 4u), -1) << "a signed field is sign-extended";
    EXPECT_EQ(metal::extract_bits(0x70, 4u, 4u), 7);
    EXPECT_EQ(metal::extract_bits(0x12345678u, 0u, 32u), 0x12345678u);
    EXPECT_EQ(metal::extract_bits(0x12345678u, 5u, 0u), 0u);
    EXPECT_EQ(metal::insert_bits(0xffffffffu, 0u, 8u, 8u), 0xffff00ffu);
    EXPECT_EQ(metal::insert_bits(0u, 0xabcu, 4u, 8u), 0xbc0u);
    EXPECT_EQ(metal::insert_bits(0x1111u, 0x2222u, 0u, 32u), 0x2222u);
    expect_vec_eq(metal::extract_bits(uint2(0xffu, 0x0fu), 2u, 4u), {0xfu, 0x3u});
}

// Test that reverse_bits reverses the bits of each width.
TEST(Integer, ReverseBits) {
    EXPECT_EQ(metal::reverse_bits(1u), 0x80000000u);
    EXPECT_EQ(metal::reverse_bits(0x0000ff01u), 0x80ff0000u);
    EXPECT_EQ(metal::reverse_bits(static_cast<uchar>(0x01)), 0x80);
    EXPECT_EQ(metal::reverse_bits(static_cast<ushort>(0x00f1)), 0x8f00);
    EXPECT_EQ(metal::reverse_bits(1ul), 1ul << 63);
}

// Test that hadd and rhadd average without overflowing.
TEST(Integer, HalvingAdds) {
    EXPECT_EQ(metal::hadd(3, 4), 3);
    EXPECT_EQ(metal::rhadd(3, 4), 4);
    EXPECT_EQ(metal::hadd(0xffffffffu, 0xfffffffdu), 0xfffffffeu);
    EXPECT_EQ(metal::rhadd(0xffffffffu, 0xfffffffeu), 0xffffffffu);
    EXPECT_EQ(metal::hadd(-3, -4), -4) << "floor((-7) / 2)";
    EXPECT_EQ(metal::rhadd(-3, -4), -3);
    EXPECT_EQ(metal::hadd(2147483647, 2147483647), 2147483647);
    EXPECT_EQ(metal::hadd(static_cast<uchar>(255), static_cast<uchar>(253)), 254);
}

// Test that mulhi, madhi and madsat match products formed in a wider type.
TEST(Integer, HighProducts) {
    EXPECT_EQ(metal::mulhi(0x80000000u, 4u), 2u);
    EXPECT_EQ(metal::mulhi(0xffffffffu, 0xffffffffu), 0xfffffffeu);
    EXPECT_EQ(metal::mulhi(-2, 3), -1) << "-6 has an all-ones high word";
    EXPECT_EQ(metal::mulhi(1 << 30, 8), 2);
    EXPECT_EQ(metal::mulhi(static_cast<uchar>(200), static_cast<uchar>(200)), 156) << "40000 >> 8";
    EXPECT_EQ(metal::mulhi(1ul << 63, 4ul), 2ul);
    EXPECT_EQ(metal::mulhi(-1l, -1l), 0l);
    EXPECT_EQ(metal::madhi(0x80000000u, 4u, 5u), 7u);
    EXPECT_EQ(metal::madsat(1 << 20, 1 << 20, 0), 2147483647);
    EXPECT_EQ(metal::madsat(-(1 << 20), 1 << 20, 0), -2147483647 - 1);
    EXPECT_EQ(metal::madsat(3, 4, 5), 17);
    EXPECT_EQ(metal::madsat(static_cast<uchar>(16), static_cast<uchar>(16), static_cast<uchar>(0)), 255);
    EXPECT_EQ(metal::madsat(~0ul, 2ul, 0ul), ~0ul);
}

// Test that mul24 and mad24 multiply and rotate rotates left modulo the width.
TEST(Integer, Mul24AndRotate) {
    EXPECT_EQ(metal::mul24(1000, -1000), -1000000);
    EXPECT_EQ(metal::mad24(1000u, 1000u, 7u), 1000007u);
    EXPECT_EQ(metal::rotate(0x80000001u, 1u), 0x00000003u);
    EXPECT_EQ(metal::rotate(0x12345678u, 8u), 0x34567812u);
    EXPECT_EQ(metal::rotate(0x12345678u, 40u), 0x34567812u) << "the amount is taken modulo 32";
    EXPECT_EQ(metal::rotate(static_cast<uchar>(0x81), static_cast<uchar>(4)), 0x18);
    EXPECT_EQ(metal::rotate(1ul, 64ul), 1ul);
    expect_vec_eq(metal::rotate(uint2(1u, 2u), uint2(31u, 0u)), {0x80000000u, 2u});
}

// Test that min, max and clamp work on integer vectors and mixed integer scalars.
TEST(Integer, MinMaxClamp) {
    EXPECT_EQ(metal::min(-1, 1), -1);
    EXPECT_EQ(metal::max(static_cast<long>(1) << 40, 5l), 1l << 40);
    expect_vec_eq(metal::clamp(int4(-10, 0, 10, 20), -5, 15), {-5, 0, 10, 15});
    expect_vec_eq(metal::max(char2(-1, 5), static_cast<char>(0)), {static_cast<char>(0), static_cast<char>(5)});
    EXPECT_EQ(metal::max3(1u, 3u, 2u), 3u);
}

} // namespace
