#include "foundation/url.h"

#include "foundation/string.h"

#include <cctype>
#include <filesystem>
#include <functional>

namespace metalcpu::ns {

namespace {

std::string percentEncoded(std::string_view path) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (char c : path) {
        auto byte = static_cast<unsigned char>(c);
        bool plain = std::isalnum(byte) || std::string_view("/-._~!$&'()*+,;=:@").find(c) != std::string_view::npos;
        if (plain) {
            out += c;
        } else {
            out += '%';
            out += hex[byte >> 4];
            out += hex[byte & 15];
        }
    }
    return out;
}

std::string percentDecoded(std::string_view text) {
    auto digit = [](char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && digit(text[i + 1]) >= 0 && digit(text[i + 2]) >= 0) {
            out += static_cast<char>(digit(text[i + 1]) * 16 + digit(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

} // namespace

std::uint64_t URL::hash() const { return std::hash<std::string>{}(text_); }

bool URL::isEqual(const ObjectBase& other) const {
    auto* url = dynamic_cast<const URL*>(&other);
    return url && url->text_ == text_;
}

NS::URL* URL::initWithString(const NS::String* string) {
    if (!implOf<String>(string)) {
        // Foundation returns nil for a nil or malformed string.
        release();
        return nullptr;
    }
    text_ = textOf(string);
    constexpr std::string_view fileScheme = "file://";
    isFile_ = text_.compare(0, fileScheme.size(), fileScheme) == 0;
    if (isFile_) {
        std::string_view rest = std::string_view(text_).substr(fileScheme.size());
        // "file://localhost/path" and "file:///path" both name /path.
        std::size_t slash = rest.find('/');
        path_ = slash == std::string_view::npos ? std::string() : percentDecoded(rest.substr(slash));
    }
    return asPublicClass();
}

NS::URL* URL::initFileURLWithPath(const NS::String* path) {
    if (!implOf<String>(path)) {
        release();
        return nullptr;
    }
    setFilePath(textOf(path));
    return asPublicClass();
}

void URL::setFilePath(std::string_view path) {
    // Foundation makes relative paths absolute against the working directory.
    std::error_code error;
    std::filesystem::path absolute = std::filesystem::absolute(std::filesystem::path(path), error);
    path_ = error ? std::string(path) : absolute.string();
    isFile_ = true;
    text_ = "file://" + percentEncoded(path_);
}

} // namespace metalcpu::ns

namespace ns = metalcpu::ns;

NS::URL* NS::URL::fileURLWithPath(const String* pPath) { return ns::autoreleased(alloc()->initFileURLWithPath(pPath)); }

NS::URL* NS::URL::alloc() { return ns::make<ns::URL>(); }

NS::URL* NS::URL::init() { return ns::call<ns::URL>(this, &ns::URL::init); }

NS::URL* NS::URL::init(const String* pString) { return ns::call<ns::URL>(this, &ns::URL::initWithString, pString); }

NS::URL* NS::URL::initFileURLWithPath(const String* pPath) {
    return ns::call<ns::URL>(this, &ns::URL::initFileURLWithPath, pPath);
}

const char* NS::URL::fileSystemRepresentation() const {
    return ns::call<ns::URL>(this, &ns::URL::fileSystemRepresentation);
}
