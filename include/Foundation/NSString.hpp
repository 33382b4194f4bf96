#pragma once

#include "NSDefines.hpp"
#include "NSObjCRuntime.hpp"
#include "NSObject.hpp"
#include "NSRange.hpp"
#include "NSTypes.hpp"

#include <cstddef>

namespace NS {
class String;
}

namespace metalcpu::detail {
/// The constant string behind MTLSTR: one immortal object per distinct text (interned),
/// so neither a loop over MTLSTR nor MakeConstantString allocates more than once.
NS::String* constantString(const char* utf8, std::size_t length);
} // namespace metalcpu::detail

namespace NS {

enum StringEncoding : UInteger {
    ASCIIStringEncoding = 1,
    NEXTSTEPStringEncoding = 2,
    JapaneseEUCStringEncoding = 3,
    UTF8StringEncoding = 4,
    ISOLatin1StringEncoding = 5,
    SymbolStringEncoding = 6,
    NonLossyASCIIStringEncoding = 7,
    ShiftJISStringEncoding = 8,
    ISOLatin2StringEncoding = 9,
    UnicodeStringEncoding = 10,
    WindowsCP1251StringEncoding = 11,
    WindowsCP1252StringEncoding = 12,
    WindowsCP1253StringEncoding = 13,
    WindowsCP1254StringEncoding = 14,
    WindowsCP1250StringEncoding = 15,
    ISO2022JPStringEncoding = 21,
    MacOSRomanStringEncoding = 30,

    UTF16StringEncoding = UnicodeStringEncoding,

    UTF16BigEndianStringEncoding = 0x90000100,
    UTF16LittleEndianStringEncoding = 0x94000100,

    UTF32StringEncoding = 0x8c000100,
    UTF32BigEndianStringEncoding = 0x98000100,
    UTF32LittleEndianStringEncoding = 0x9c000100,
};

using StringCompareOptions = UInteger;
enum : StringCompareOptions {
    CaseInsensitiveSearch = 1,
    LiteralSearch = 2,
    BackwardsSearch = 4,
    AnchoredSearch = 8,
    NumericSearch = 64,
    DiacriticInsensitiveSearch = 128,
    WidthInsensitiveSearch = 256,
    ForcedOrderingSearch = 512,
    RegularExpressionSearch = 1024,
};

using unichar = unsigned short;

// An immutable Unicode string. Lengths and indices count UTF-16 code units, as Foundation
// does; utf8String() and cString() return pointers that live as long as the string.
class String : public Copying<String> {
public:
    static String* string();
    static String* string(const String* pString);
    static String* string(const char* pString, StringEncoding encoding);

    static String* alloc();
    String* init();
    String* init(const String* pString);
    String* init(const char* pString, StringEncoding encoding);
    String* init(void* pBytes, UInteger len, StringEncoding encoding, bool freeBuffer);

    [[nodiscard]] unichar character(UInteger index) const;
    [[nodiscard]] UInteger length() const;

    [[nodiscard]] const char* cString(StringEncoding encoding) const;
    [[nodiscard]] const char* utf8String() const;
    [[nodiscard]] UInteger maximumLengthOfBytes(StringEncoding encoding) const;
    [[nodiscard]] UInteger lengthOfBytes(StringEncoding encoding) const;

    bool isEqualToString(const String* pString) const;
    Range rangeOfString(const String* pString, StringCompareOptions options) const;

    [[nodiscard]] const char* fileSystemRepresentation() const;

    String* stringByAppendingString(const String* pString) const;
    ComparisonResult caseInsensitiveCompare(const String* pString) const;
};

// A constant NS::String* from a string literal. Retain and release do nothing on it and it
// is never freed; each use site looks it up once.
#define MTLSTR(literal)                                                                                            \
    ([]() -> NS::String* {                                                                                         \
        static NS::String* const metalcpuConstant =                                                                \
            ::metalcpu::detail::constantString("" literal "", sizeof("" literal "") - 1);                        \
        return metalcpuConstant;                                                                                   \
    }())

template <std::size_t Length>
[[deprecated("please use MTLSTR(str)")]] const String* MakeConstantString(const char (&str)[Length]) {
    return ::metalcpu::detail::constantString(str, Length - 1);
}

} // namespace NS
