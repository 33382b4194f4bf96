#include "foundation/string_encoding.h"

#include <bit>
#include <cstdint>
#include <cstdio>

namespace metalcpu::ns {

namespace {

constexpr char32_t kReplacement = 0xFFFD;

bool isSurrogate(char32_t c) { return c >= 0xD800 && c <= 0xDFFF; }

void appendUtf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

/// Reads one code point from valid-or-not UTF-8 at `i`; nothing when the sequence is bad.
std::optional<char32_t> readUtf8(std::string_view text, std::size_t& i) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    unsigned char lead = byte(i);
    if (lead < 0x80) {
        ++i;
        return lead;
    }
    std::size_t extra;
    char32_t c;
    char32_t minimum;
    if ((lead & 0xE0) == 0xC0) {
        extra = 1, c = lead & 0x1F, minimum = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
        extra = 2, c = lead & 0x0F, minimum = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
        extra = 3, c = lead & 0x07, minimum = 0x10000;
    } else {
        return std::nullopt;
    }
    if (i + extra >= text.size()) return std::nullopt;
    for (std::size_t k = 1; k <= extra; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return std::nullopt;
        c = (c << 6) | (byte(i + k) & 0x3F);
    }
    if (c < minimum || c > 0x10FFFF || isSurrogate(c)) return std::nullopt;
    i += extra + 1;
    return c;
}

/// The next code point of text that should be valid UTF-8; a bad byte becomes U+FFFD.
char32_t nextCodePoint(std::string_view text, std::size_t& i) {
    std::optional<char32_t> c = readUtf8(text, i);
    if (c) return *c;
    ++i;
    return kReplacement;
}

/// Windows-1252's characters for 0x80..0x9F (the five unassigned bytes map to C1 controls).
constexpr char16_t kCp1252High[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

enum class Order { Host, Big, Little };

std::uint32_t readUnit(const unsigned char* p, std::size_t size, Order order) {
    bool big = order == Order::Big || (order == Order::Host && std::endian::native == std::endian::big);
    std::uint32_t value = 0;
    for (std::size_t k = 0; k < size; ++k) value = (value << 8) | p[big ? k : size - 1 - k];
    return value;
}

void writeUnit(std::string& out, std::uint32_t value, std::size_t size, Order order) {
    bool big = order == Order::Big || (order == Order::Host && std::endian::native == std::endian::big);
    for (std::size_t k = 0; k < size; ++k) {
        std::size_t shift = 8 * (big ? size - 1 - k : k);
        out += static_cast<char>((value >> shift) & 0xFF);
    }
}

/// Reads a byte-order mark for the generic UTF-16/UTF-32 encodings.
Order orderFromMark(std::string_view& bytes, std::size_t size) {
    auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    if (bytes.size() < size) return Order::Host;
    if (readUnit(p, size, Order::Big) == 0xFEFF) {
        bytes.remove_prefix(size);
        return Order::Big;
    }
    if (readUnit(p, size, Order::Little) == 0xFEFF) {
        bytes.remove_prefix(size);
        return Order::Little;
    }
    return Order::Host;
}

std::optional<std::string> decodeUtf16(std::string_view bytes, Order order) {
    if (bytes.size() % 2 != 0) return std::nullopt;
    std::u16string units;
    auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    for (std::size_t i = 0; i < bytes.size(); i += 2) units += static_cast<char16_t>(readUnit(p + i, 2, order));
    return utf8Of(units);
}

std::optional<std::string> decodeUtf32(std::string_view bytes, Order order) {
    if (bytes.size() % 4 != 0) return std::nullopt;
    std::string out;
    auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    for (std::size_t i = 0; i < bytes.size(); i += 4) {
        char32_t c = readUnit(p + i, 4, order);
        if (c > 0x10FFFF || isSurrogate(c)) return std::nullopt;
        appendUtf8(out, c);
    }
    return out;
}

int hexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// NonLossyASCII: ASCII with "\\", "\ooo" (octal, for U+0080..U+00FF) and "\uXXXX".
std::optional<std::string> decodeNonLossy(std::string_view bytes) {
    std::u16string units;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        auto c = static_cast<unsigned char>(bytes[i]);
        if (c >= 0x80) return std::nullopt;
        if (c != '\\') {
            units += static_cast<char16_t>(c);
            continue;
        }
        if (i + 1 < bytes.size() && bytes[i + 1] == '\\') {
            units += u'\\';
            ++i;
        } else if (i + 5 < bytes.size() && bytes[i + 1] == 'u') {
            unsigned value = 0;
            for (std::size_t k = 2; k < 6; ++k) {
                int digit = hexDigit(bytes[i + k]);
                if (digit < 0) return std::nullopt;
                value = value * 16 + static_cast<unsigned>(digit);
            }
            units += static_cast<char16_t>(value);
            i += 5;
        } else if (i + 3 < bytes.size() && bytes[i + 1] >= '0' && bytes[i + 1] <= '3') {
            unsigned value = 0;
            for (std::size_t k = 1; k < 4; ++k) {
                char digit = bytes[i + k];
                if (digit < '0' || digit > '7') return std::nullopt;
                value = value * 8 + static_cast<unsigned>(digit - '0');
            }
            units += static_cast<char16_t>(value);
            i += 3;
        } else {
            units += u'\\';
        }
    }
    return utf8Of(units);
}

std::string encodeNonLossy(std::string_view utf8) {
    std::string out;
    for (char16_t unit : utf16Of(utf8)) {
        char escape[8];
        if (unit == u'\\') {
            out += "\\\\";
        } else if (unit < 0x80) {
            out += static_cast<char>(unit);
        } else if (unit < 0x100) {
            std::snprintf(escape, sizeof escape, "\\%03o", static_cast<unsigned>(unit));
            out += escape;
        } else {
            std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(unit));
            out += escape;
        }
    }
    return out;
}

} // namespace

bool isSupportedEncoding(NS::StringEncoding encoding) {
    switch (encoding) {
    case NS::ASCIIStringEncoding:
    case NS::NonLossyASCIIStringEncoding:
    case NS::UTF8StringEncoding:
    case NS::ISOLatin1StringEncoding:
    case NS::WindowsCP1252StringEncoding:
    case NS::UTF16StringEncoding:
    case NS::UTF16BigEndianStringEncoding:
    case NS::UTF16LittleEndianStringEncoding:
    case NS::UTF32StringEncoding:
    case NS::UTF32BigEndianStringEncoding:
    case NS::UTF32LittleEndianStringEncoding:
        return true;
    default:
        return false;
    }
}

std::size_t codeUnitSize(NS::StringEncoding encoding) {
    switch (encoding) {
    case NS::UTF16StringEncoding:
    case NS::UTF16BigEndianStringEncoding:
    case NS::UTF16LittleEndianStringEncoding:
        return 2;
    case NS::UTF32StringEncoding:
    case NS::UTF32BigEndianStringEncoding:
    case NS::UTF32LittleEndianStringEncoding:
        return 4;
    default:
        return 1;
    }
}

bool isValidUtf8(std::string_view bytes) {
    for (std::size_t i = 0; i < bytes.size();)
        if (!readUtf8(bytes, i)) return false;
    return true;
}

std::u16string utf16Of(std::string_view utf8) {
    std::u16string units;
    units.reserve(utf8.size());
    for (std::size_t i = 0; i < utf8.size();) {
        char32_t c = nextCodePoint(utf8, i);
        if (c >= 0x10000) {
            c -= 0x10000;
            units += static_cast<char16_t>(0xD800 + (c >> 10));
            units += static_cast<char16_t>(0xDC00 + (c & 0x3FF));
        } else {
            units += static_cast<char16_t>(c);
        }
    }
    return units;
}

std::string utf8Of(std::u16string_view utf16) {
    std::string out;
    out.reserve(utf16.size());
    for (std::size_t i = 0; i < utf16.size(); ++i) {
        char32_t c = utf16[i];
        if (c >= 0xD800 && c <= 0xDBFF && i + 1 < utf16.size() && utf16[i + 1] >= 0xDC00 && utf16[i + 1] <= 0xDFFF) {
            c = 0x10000 + ((c - 0xD800) << 10) + (utf16[i + 1] - 0xDC00);
            ++i;
        } else if (isSurrogate(c)) {
            c = kReplacement;
        }
        appendUtf8(out, c);
    }
    return out;
}

std::optional<std::string> decodeToUtf8(std::string_view bytes, NS::StringEncoding encoding) {
    switch (encoding) {
    case NS::UTF8StringEncoding:
        if (!isValidUtf8(bytes)) return std::nullopt;
        return std::string(bytes);
    case NS::ASCIIStringEncoding:
        if (isValidUtf8(bytes)) return std::string(bytes); // ASCII, or UTF-8 read leniently
        [[fallthrough]];
    case NS::ISOLatin1StringEncoding: {
        std::string out;
        for (char c : bytes) appendUtf8(out, static_cast<unsigned char>(c));
        return out;
    }
    case NS::WindowsCP1252StringEncoding: {
        std::string out;
        for (char c : bytes) {
            auto byte = static_cast<unsigned char>(c);
            appendUtf8(out, byte >= 0x80 && byte < 0xA0 ? kCp1252High[byte - 0x80] : byte);
        }
        return out;
    }
    case NS::NonLossyASCIIStringEncoding:
        return decodeNonLossy(bytes);
    case NS::UTF16StringEncoding: {
        Order order = orderFromMark(bytes, 2);
        return decodeUtf16(bytes, order);
    }
    case NS::UTF16BigEndianStringEncoding:
        return decodeUtf16(bytes, Order::Big);
    case NS::UTF16LittleEndianStringEncoding:
        return decodeUtf16(bytes, Order::Little);
    case NS::UTF32StringEncoding: {
        Order order = orderFromMark(bytes, 4);
        return decodeUtf32(bytes, order);
    }
    case NS::UTF32BigEndianStringEncoding:
        return decodeUtf32(bytes, Order::Big);
    case NS::UTF32LittleEndianStringEncoding:
        return decodeUtf32(bytes, Order::Little);
    default:
        return std::nullopt;
    }
}

std::optional<std::string> encodeFromUtf8(std::string_view utf8, NS::StringEncoding encoding) {
    if (!isSupportedEncoding(encoding)) return std::nullopt;
    if (encoding == NS::UTF8StringEncoding) return std::string(utf8);
    if (encoding == NS::NonLossyASCIIStringEncoding) return encodeNonLossy(utf8);
    std::string out;
    std::size_t unitSize = codeUnitSize(encoding);
    Order order = Order::Host;
    if (encoding == NS::UTF16BigEndianStringEncoding || encoding == NS::UTF32BigEndianStringEncoding) order = Order::Big;
    if (encoding == NS::UTF16LittleEndianStringEncoding || encoding == NS::UTF32LittleEndianStringEncoding)
        order = Order::Little;
    for (std::size_t i = 0; i < utf8.size();) {
        char32_t c = nextCodePoint(utf8, i);
        switch (unitSize) {
        case 4:
            writeUnit(out, c, 4, order);
            break;
        case 2:
            if (c >= 0x10000) {
                writeUnit(out, 0xD800 + ((c - 0x10000) >> 10), 2, order);
                writeUnit(out, 0xDC00 + ((c - 0x10000) & 0x3FF), 2, order);
            } else {
                writeUnit(out, c, 2, order);
            }
            break;
        default:
            if (encoding == NS::ASCIIStringEncoding && c >= 0x80) return std::nullopt;
            if (encoding == NS::ISOLatin1StringEncoding && c >= 0x100) return std::nullopt;
            if (encoding == NS::WindowsCP1252StringEncoding && c >= 0x80) {
                if (c >= 0xA0 && c < 0x100) {
                    out += static_cast<char>(c);
                    break;
                }
                std::size_t k = 0;
                while (k < 32 && kCp1252High[k] != c) ++k;
                if (k == 32) return std::nullopt;
                out += static_cast<char>(0x80 + k);
                break;
            }
            out += static_cast<char>(c);
        }
    }
    return out;
}

} // namespace metalcpu::ns
