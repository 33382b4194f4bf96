#pragma once

#include <Foundation/NSString.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace metalcpu::ns {

/// Conversions between NS::StringEncoding byte sequences and UTF-8, the form NS::String
/// keeps. Supported: ASCII, NonLossyASCII, UTF-8, ISO Latin-1, Windows-1252, UTF-16 and
/// UTF-32 (host order unless a byte-order mark or the BE/LE variant says otherwise).
/// Others (Shift-JIS, MacRoman, …) fail.
bool isSupportedEncoding(NS::StringEncoding encoding);

/// Bytes per code unit (1, 2 or 4): a C string in this encoding ends at a zero unit.
std::size_t codeUnitSize(NS::StringEncoding encoding);

/// The text of `bytes` as UTF-8, or nothing when the bytes are not valid in `encoding`.
/// Deliberately lenient for ASCII: bytes above 0x7F are read as UTF-8 when they form valid
/// UTF-8 (kernel sources read with ASCIIStringEncoding often hold UTF-8 comments), else as
/// Latin-1. Unpaired UTF-16 surrogates become U+FFFD.
std::optional<std::string> decodeToUtf8(std::string_view bytes, NS::StringEncoding encoding);

/// `utf8` in `encoding`, or nothing when a character cannot be represented there.
std::optional<std::string> encodeFromUtf8(std::string_view utf8, NS::StringEncoding encoding);

bool isValidUtf8(std::string_view bytes);

/// UTF-16 code units of valid UTF-8 text.
std::u16string utf16Of(std::string_view utf8);

/// UTF-8 of UTF-16 code units; unpaired surrogates become U+FFFD.
std::string utf8Of(std::u16string_view utf16);

} // namespace metalcpu::ns
