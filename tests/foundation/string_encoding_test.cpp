// The encoding conversions behind NS::String.
#include "foundation/string_encoding.h"

#include <gtest/gtest.h>

namespace metalcpu::ns {
namespace {

// Test that UTF-8 validation rejects malformed, overlong and surrogate sequences.
TEST(StringEncodingTest, Utf8Validation) {
    EXPECT_TRUE(isValidUtf8("plain \u00e9 \U0001F600"));
    EXPECT_FALSE(isValidUtf8("\xc3"));         // truncated
    EXPECT_FALSE(isValidUtf8("\xc0\xaf"));     // overlong
    EXPECT_FALSE(isValidUtf8("\xed\xa0\x80")); // a surrogate
    EXPECT_FALSE(isValidUtf8("\xf4\x90\x80\x80")); // beyond U+10FFFF
}

// Test that ASCII input holding UTF-8 is read as UTF-8, and other high bytes as Latin-1.
TEST(StringEncodingTest, LenientAscii) {
    EXPECT_EQ(decodeToUtf8("// \u00a9", NS::ASCIIStringEncoding), "// \u00a9");
    EXPECT_EQ(decodeToUtf8("\xa9", NS::ASCIIStringEncoding), "\u00a9");
    EXPECT_EQ(encodeFromUtf8("\u00a9", NS::ASCIIStringEncoding), std::nullopt);
}

// Test UTF-16 with and without a byte-order mark, and unpaired surrogates.
TEST(StringEncodingTest, Utf16) {
    using namespace std::string_literals;
    EXPECT_EQ(decodeToUtf8("\xfe\xff\0h"s, NS::UTF16StringEncoding), "h");
    EXPECT_EQ(decodeToUtf8("\xff\xfeh\0"s, NS::UTF16StringEncoding), "h");
    EXPECT_EQ(decodeToUtf8("h\0"s, NS::UTF16StringEncoding), "h"); // host order (little-endian here)
    EXPECT_EQ(decodeToUtf8("\x3d\xd8"s, NS::UTF16LittleEndianStringEncoding), "\ufffd");
    EXPECT_EQ(decodeToUtf8("abc"s, NS::UTF16StringEncoding), std::nullopt); // odd length
    EXPECT_EQ(encodeFromUtf8("\U0001F600", NS::UTF16BigEndianStringEncoding), "\xd8\x3d\xde\x00"s);
}

// Test UTF-32 both ways.
TEST(StringEncodingTest, Utf32) {
    using namespace std::string_literals;
    EXPECT_EQ(encodeFromUtf8("A", NS::UTF32LittleEndianStringEncoding), "A\0\0\0"s);
    EXPECT_EQ(decodeToUtf8("\0\x01\xf6\x00"s, NS::UTF32BigEndianStringEncoding), "\U0001F600");
    EXPECT_EQ(decodeToUtf8("\0\0\xd8\0"s, NS::UTF32BigEndianStringEncoding), std::nullopt);
}

// Test NonLossyASCII escapes both ways.
TEST(StringEncodingTest, NonLossyAscii) {
    EXPECT_EQ(encodeFromUtf8("a\\\u00e9\u4e2d", NS::NonLossyASCIIStringEncoding), "a\\\\\\351\\u4e2d");
    EXPECT_EQ(decodeToUtf8("a\\\\\\351\\u4e2d", NS::NonLossyASCIIStringEncoding), "a\\\u00e9\u4e2d");
}

// Test Windows-1252's special range and unsupported encodings.
TEST(StringEncodingTest, Cp1252AndUnsupported) {
    EXPECT_EQ(encodeFromUtf8("\u20ac\u00e9", NS::WindowsCP1252StringEncoding), "\x80\xe9");
    EXPECT_EQ(encodeFromUtf8("\u4e2d", NS::WindowsCP1252StringEncoding), std::nullopt);
    EXPECT_FALSE(isSupportedEncoding(NS::ShiftJISStringEncoding));
    EXPECT_EQ(decodeToUtf8("x", NS::MacOSRomanStringEncoding), std::nullopt);
}

} // namespace
} // namespace metalcpu::ns
