#include "foundation/string.h"

#include "foundation/string_encoding.h"
#include "support/log.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <unordered_map>

namespace metalcpu::ns {

namespace {

/// Simple case folding of one UTF-16 unit: ASCII, Latin-1, Greek and Cyrillic capitals.
/// (Foundation folds all of Unicode; these cover identifiers and messages in practice.)
char16_t foldCase(char16_t c) {
    if (c >= u'A' && c <= u'Z') return static_cast<char16_t>(c + 32);
    if (c < 0xC0) return c;
    if (c <= 0xDE && c != 0xD7) return static_cast<char16_t>(c + 32);
    if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) return static_cast<char16_t>(c + 32);
    if (c >= 0x410 && c <= 0x42F) return static_cast<char16_t>(c + 32);
    if (c >= 0x400 && c <= 0x40F) return static_cast<char16_t>(c + 80);
    return c;
}

std::u16string folded(std::u16string_view text) {
    std::u16string out(text);
    for (char16_t& c : out) c = foldCase(c);
    return out;
}

/// The bytes of a C string in `encoding`: up to the first zero code unit.
std::string_view cStringBytes(const char* text, NS::StringEncoding encoding) {
    std::size_t unit = codeUnitSize(encoding);
    if (unit == 1) return std::string_view(text);
    std::size_t size = 0;
    for (;; size += unit) {
        bool zero = true;
        for (std::size_t k = 0; k < unit; ++k) zero = zero && text[size + k] == 0;
        if (zero) break;
    }
    return std::string_view(text, size);
}

void reportUnsupported(NS::StringEncoding encoding) {
    support::log().warn("NS::String: string encoding {} is not supported by metalcpu (supported: ASCII, UTF-8, "
                        "Latin-1, Windows-1252, NonLossyASCII, UTF-16, UTF-32)",
                        static_cast<NS::UInteger>(encoding));
}

} // namespace

std::uint64_t String::hash() const { return std::hash<std::string_view>{}(text_); }

bool String::isEqual(const ObjectBase& other) const {
    auto* string = dynamic_cast<const String*>(&other);
    return string && string->text_ == text_;
}

String::Cache& String::cache() const {
    Cache* cache = cache_.load(std::memory_order_acquire);
    if (cache) return *cache;
    auto* made = new Cache();
    if (cache_.compare_exchange_strong(cache, made, std::memory_order_acq_rel)) return *made;
    delete made; // another thread won
    return *cache;
}

const std::u16string& String::utf16() const {
    Cache& cached = cache();
    std::call_once(cached.utf16Once, [&] { cached.utf16 = utf16Of(text_); });
    return cached.utf16;
}

String::~String() {
    delete cache_.load(std::memory_order_relaxed);
    delete[] owned_;
}

void String::assign(std::string_view utf8) {
    char* text = new char[utf8.size() + 1];
    std::memcpy(text, utf8.data(), utf8.size());
    text[utf8.size()] = '\0';
    delete[] owned_;
    owned_ = text;
    text_ = std::string_view(text, utf8.size());
}

NS::String* String::fail() {
    release();
    return nullptr;
}

NS::String* String::initWithString(const NS::String* string) {
    String* source = implOf<String>(string);
    if (!source) return fail();
    assign(source->text_);
    return asPublicClass();
}

NS::String* String::initWithCString(const char* text, NS::StringEncoding encoding) {
    if (!text) return fail();
    if (!isSupportedEncoding(encoding)) {
        reportUnsupported(encoding);
        return fail();
    }
    std::optional<std::string> utf8 = decodeToUtf8(cStringBytes(text, encoding), encoding);
    if (!utf8) return fail();
    assign(*utf8);
    return asPublicClass();
}

NS::String* String::initWithBytes(void* bytes, NS::UInteger length, NS::StringEncoding encoding, bool freeBuffer) {
    if (!bytes && length > 0) return fail();
    if (!isSupportedEncoding(encoding)) {
        reportUnsupported(encoding);
        return fail();
    }
    std::optional<std::string> utf8 =
        decodeToUtf8(std::string_view(static_cast<const char*>(bytes), length), encoding);
    // As documented for Foundation: on failure the caller keeps ownership of the buffer.
    if (!utf8) return fail();
    assign(*utf8);
    if (freeBuffer) std::free(bytes);
    return asPublicClass();
}

NS::unichar String::character(NS::UInteger index) const {
    const std::u16string& units = utf16();
    if (index >= units.size()) {
        support::log().error("NS::String::character: index {} is beyond the end of a string of length {}", index,
                             units.size());
        return 0;
    }
    return units[index];
}

const char* String::cString(NS::StringEncoding encoding) const {
    if (encoding == NS::UTF8StringEncoding) return utf8String();
    Cache& cached = cache();
    std::lock_guard lock(cached.encodedMutex);
    for (const auto& [known, bytes] : cached.encoded)
        if (known == encoding) return bytes ? bytes->c_str() : nullptr;
    std::optional<std::string> bytes = encodeFromUtf8(text_, encoding);
    if (!isSupportedEncoding(encoding)) reportUnsupported(encoding);
    std::unique_ptr<std::string> stored;
    if (bytes) {
        stored = std::make_unique<std::string>(std::move(*bytes));
        stored->append(codeUnitSize(encoding) - 1, '\0'); // c_str() adds the last zero byte
    }
    const char* result = stored ? stored->c_str() : nullptr;
    cached.encoded.emplace_back(encoding, std::move(stored));
    return result;
}

NS::UInteger String::maximumLengthOfBytes(NS::StringEncoding encoding) const {
    if (!isSupportedEncoding(encoding)) return 0;
    NS::UInteger units = length();
    switch (encoding) {
    case NS::UTF8StringEncoding:
        return units * 3;
    case NS::NonLossyASCIIStringEncoding:
        return units * 6;
    default:
        return units * codeUnitSize(encoding);
    }
}

NS::UInteger String::lengthOfBytes(NS::StringEncoding encoding) const {
    if (encoding == NS::UTF8StringEncoding) return text_.size();
    std::optional<std::string> bytes = encodeFromUtf8(text_, encoding);
    return bytes ? bytes->size() : 0;
}

bool String::isEqualToString(const NS::String* other) const {
    String* string = implOf<String>(other);
    return string && string->text_ == text_;
}

NS::Range String::rangeOfString(const NS::String* other, NS::StringCompareOptions options) const {
    NS::Range notFound(static_cast<NS::UInteger>(NS::NotFound), 0);
    String* needleString = implOf<String>(other);
    if (!needleString) return notFound;
    std::u16string hay = utf16();
    std::u16string needle = needleString->utf16();
    if (needle.empty() || needle.size() > hay.size()) return notFound;
    if (options & NS::CaseInsensitiveSearch) {
        hay = folded(hay);
        needle = folded(needle);
    }
    bool backwards = options & NS::BackwardsSearch;
    std::size_t at;
    if (options & NS::AnchoredSearch) {
        at = backwards ? hay.size() - needle.size() : 0;
        if (hay.compare(at, needle.size(), needle) != 0) return notFound;
    } else {
        at = backwards ? hay.rfind(needle) : hay.find(needle);
        if (at == std::u16string::npos) return notFound;
    }
    return NS::Range(at, needle.size());
}

NS::String* String::stringByAppendingString(const NS::String* other) const {
    std::string text(text_);
    text += textOf(other);
    return autoreleased(make<String>(std::move(text)));
}

NS::ComparisonResult String::caseInsensitiveCompare(const NS::String* other) const {
    String* string = implOf<String>(other);
    if (!string) return NS::OrderedDescending;
    std::u16string left = folded(utf16());
    std::u16string right = folded(string->utf16());
    int order = left.compare(right);
    return order < 0 ? NS::OrderedAscending : order > 0 ? NS::OrderedDescending : NS::OrderedSame;
}

std::string_view textOf(const NS::String* string) {
    String* impl = implOf<String>(string);
    return impl ? impl->utf8() : std::string_view();
}

} // namespace metalcpu::ns

NS::String* metalcpu::detail::constantString(const char* utf8, std::size_t length) {
    using metalcpu::ns::String;
    static std::mutex mutex;
    // Interned by text: every use of the same literal, anywhere, gets the same object.
    static auto* table = new std::unordered_map<std::string_view, String*>();
    std::string_view text(utf8, length);
    std::lock_guard lock(mutex);
    auto found = table->find(text);
    if (found != table->end()) return found->second;
    auto* string = new String(String::ConstantText{}, text);
    table->emplace(text, string);
    return string;
}

namespace ns = metalcpu::ns;

NS::String* NS::String::string() { return ns::autoreleased(ns::make<ns::String>()); }

NS::String* NS::String::string(const String* pString) {
    return ns::autoreleased(alloc()->init(pString));
}

NS::String* NS::String::string(const char* pString, StringEncoding encoding) {
    return ns::autoreleased(alloc()->init(pString, encoding));
}

NS::String* NS::String::alloc() { return ns::make<ns::String>(); }

NS::String* NS::String::init() { return ns::call<ns::String>(this, &ns::String::init); }

NS::String* NS::String::init(const String* pString) {
    return ns::call<ns::String>(this, &ns::String::initWithString, pString);
}

NS::String* NS::String::init(const char* pString, StringEncoding encoding) {
    return ns::call<ns::String>(this, &ns::String::initWithCString, pString, encoding);
}

NS::String* NS::String::init(void* pBytes, UInteger len, StringEncoding encoding, bool freeBuffer) {
    return ns::call<ns::String>(this, &ns::String::initWithBytes, pBytes, len, encoding, freeBuffer);
}

NS::unichar NS::String::character(UInteger index) const {
    return ns::call<ns::String>(this, &ns::String::character, index);
}

NS::UInteger NS::String::length() const { return ns::call<ns::String>(this, &ns::String::length); }

const char* NS::String::cString(StringEncoding encoding) const {
    return ns::call<ns::String>(this, &ns::String::cString, encoding);
}

const char* NS::String::utf8String() const { return ns::call<ns::String>(this, &ns::String::utf8String); }

NS::UInteger NS::String::maximumLengthOfBytes(StringEncoding encoding) const {
    return ns::call<ns::String>(this, &ns::String::maximumLengthOfBytes, encoding);
}

NS::UInteger NS::String::lengthOfBytes(StringEncoding encoding) const {
    return ns::call<ns::String>(this, &ns::String::lengthOfBytes, encoding);
}

bool NS::String::isEqualToString(const String* pString) const {
    return ns::call<ns::String>(this, &ns::String::isEqualToString, pString);
}

NS::Range NS::String::rangeOfString(const String* pString, StringCompareOptions options) const {
    // Messaging nil returns a zeroed struct in Objective-C.
    ns::String* self = ns::implOf<ns::String>(this);
    return self ? self->rangeOfString(pString, options) : Range(0, 0);
}

const char* NS::String::fileSystemRepresentation() const {
    // Linux paths are bytes; metalcpu's file names are UTF-8.
    return ns::call<ns::String>(this, &ns::String::utf8String);
}

NS::String* NS::String::stringByAppendingString(const String* pString) const {
    return ns::call<ns::String>(this, &ns::String::stringByAppendingString, pString);
}

NS::ComparisonResult NS::String::caseInsensitiveCompare(const String* pString) const {
    return ns::call<ns::String>(this, &ns::String::caseInsensitiveCompare, pString);
}
