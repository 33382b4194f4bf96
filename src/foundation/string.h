#pragma once

#include "foundation/object.h"

#include <Foundation/NSString.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace metalcpu::ns {

/// NS::String: immutable text kept as UTF-8, with its UTF-16 form (Foundation's unit for
/// lengths and indices) and other encodings computed on first use and kept for the
/// string's lifetime, so the pointers utf8String() and cString() return stay valid.
class String final : public Implements<NS::String> {
public:
    /// Tag of the constructor for constant strings (MTLSTR, error domains, keys).
    struct ConstantText {};

    /// An empty string; what NS::String::alloc() makes before init().
    String() = default;
    /// `utf8` must be valid UTF-8.
    explicit String(std::string_view utf8) { assign(utf8); }
    /// A string that is never freed, over static, NUL-terminated text. constexpr, so that
    /// the library's constant strings exist before any static initialiser runs.
    constexpr String(ConstantText, std::string_view utf8) : Implements(ImmortalTag{}), text_(utf8) {}
    ~String() override;

    const char* className() const override { return "NSString"; }
    std::string description() const override { return std::string(text_); }
    std::uint64_t hash() const override;
    bool isEqual(const ObjectBase& other) const override;

    std::string_view utf8() const { return text_; }
    const std::u16string& utf16() const;

    // The methods of NS::String (see NSString.hpp).
    NS::String* init() { return asPublicClass(); }
    NS::String* initWithString(const NS::String* string);
    NS::String* initWithCString(const char* text, NS::StringEncoding encoding);
    NS::String* initWithBytes(void* bytes, NS::UInteger length, NS::StringEncoding encoding, bool freeBuffer);
    NS::unichar character(NS::UInteger index) const;
    NS::UInteger length() const { return utf16().size(); }
    const char* cString(NS::StringEncoding encoding) const;
    const char* utf8String() const { return text_.data(); }
    NS::UInteger maximumLengthOfBytes(NS::StringEncoding encoding) const;
    NS::UInteger lengthOfBytes(NS::StringEncoding encoding) const;
    bool isEqualToString(const NS::String* other) const;
    NS::Range rangeOfString(const NS::String* other, NS::StringCompareOptions options) const;
    NS::String* stringByAppendingString(const NS::String* other) const;
    NS::ComparisonResult caseInsensitiveCompare(const NS::String* other) const;

private:
    /// Sets the text of a string made by alloc(); only before anyone else sees it.
    void assign(std::string_view utf8);
    /// init()'s failure path, as in Cocoa: the allocated object is released.
    NS::String* fail();

    /// What is computed on first use. Kept apart so that constant strings can be
    /// constant-initialised (a mutex or a mutable string member would prevent it).
    struct Cache {
        std::once_flag utf16Once;
        std::u16string utf16;
        std::mutex encodedMutex;
        /// cString() results by encoding, each NUL-terminated with a unit of its width.
        std::vector<std::pair<NS::StringEncoding, std::unique_ptr<std::string>>> encoded;
    };
    Cache& cache() const;

    // A raw array rather than a std::string: constant strings must be constant-initialised,
    // which libstdc++'s std::string does not allow with every compiler.
    char* owned_ = nullptr;  ///< the NUL-terminated text of a dynamic string (new[])
    std::string_view text_{""}; ///< owned_, or the static text of a constant string
    mutable std::atomic<Cache*> cache_{nullptr};
};

/// The text of an NS::String the library made or received; empty for null or non-strings.
std::string_view textOf(const NS::String* string);

} // namespace metalcpu::ns
