// NS::Value and NS::Number.
#include "foundation/value.h"

#include "foundation/factories.h"

#include <Foundation/NSString.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>

namespace metalcpu::ns {

namespace {

/// Size and alignment of an Objective-C type encoding at `p` (which it advances past the
/// type), as clang lays the type out on LP64; nothing for encodings it does not know.
struct Layout {
    std::size_t size;
    std::size_t align;
};

std::optional<Layout> layoutOf(const char*& p) {
    while (*p && std::strchr("rnNoORVA", *p)) ++p; // qualifiers: const, in, out, atomic…
    char code = *p;
    if (!code) return std::nullopt;
    ++p;
    switch (code) {
    case 'c':
    case 'C':
    case 'B':
        return Layout{1, 1};
    case 's':
    case 'S':
        return Layout{2, 2};
    case 'i':
    case 'I':
    case 'l': // Objective-C encodes a 32-bit quantity as 'l' even on LP64
    case 'L':
    case 'f':
        return Layout{4, 4};
    case 'q':
    case 'Q':
    case 'd':
        return Layout{8, 8};
    case 'D':
        return Layout{16, 16};
    case 'v':
        return Layout{0, 1};
    case '*':
    case '@':
    case '#':
    case ':':
    case '?':
        if (code == '@' && *p == '?') ++p; // a block
        return Layout{sizeof(void*), alignof(void*)};
    case '^': {
        const char* pointee = p;
        if (!layoutOf(pointee)) return std::nullopt;
        p = pointee;
        return Layout{sizeof(void*), alignof(void*)};
    }
    case '[': {
        char* end = nullptr;
        unsigned long count = std::strtoul(p, &end, 10);
        p = end;
        std::optional<Layout> element = layoutOf(p);
        if (!element || *p != ']') return std::nullopt;
        ++p;
        return Layout{element->size * count, element->align};
    }
    case '{':
    case '(': {
        char close = code == '{' ? '}' : ')';
        while (*p && *p != '=' && *p != close) ++p; // the tag name
        if (*p == '=') ++p;
        Layout whole{0, 1};
        while (*p && *p != close) {
            std::optional<Layout> member = layoutOf(p);
            if (!member) return std::nullopt;
            whole.align = std::max(whole.align, member->align);
            if (code == '{')
                whole.size = (whole.size + member->align - 1) / member->align * member->align + member->size;
            else
                whole.size = std::max(whole.size, member->size);
        }
        if (*p != close) return std::nullopt;
        ++p;
        whole.size = (whole.size + whole.align - 1) / whole.align * whole.align;
        return whole;
    }
    default:
        return std::nullopt;
    }
}

template <class T>
const char* encodingOf() {
    if constexpr (std::is_same_v<T, bool>) return "c"; // Foundation reports BOOL as char
    else if constexpr (std::is_same_v<T, char>) return "c";
    else if constexpr (std::is_same_v<T, unsigned char>) return "C";
    else if constexpr (std::is_same_v<T, short>) return "s";
    else if constexpr (std::is_same_v<T, unsigned short>) return "S";
    else if constexpr (std::is_same_v<T, int>) return "i";
    else if constexpr (std::is_same_v<T, unsigned int>) return "I";
    else if constexpr (std::is_same_v<T, long> || std::is_same_v<T, long long>) return "q";
    else if constexpr (std::is_same_v<T, unsigned long> || std::is_same_v<T, unsigned long long>) return "Q";
    else if constexpr (std::is_same_v<T, float>) return "f";
    else return "d";
}

/// A double converted to an integer type, saturating instead of overflowing.
template <class T>
T saturated(double value) {
    if (std::isnan(value)) return T{};
    if (value <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
    if (value >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(value);
}

std::string hexBytes(const std::string& bytes) {
    std::string text;
    char digits[4];
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i && i % 4 == 0) text += ' ';
        std::snprintf(digits, sizeof digits, "%02x", static_cast<unsigned char>(bytes[i]));
        text += digits;
    }
    return text;
}

} // namespace

void ValueCore::getValue(void* value, NS::UInteger size) const {
    if (!value) return;
    std::memcpy(value, bytes_.data(), std::min<std::size_t>(size, bytes_.size()));
}

bool ValueCore::isEqualToValue(NS::Value* other) const {
    ValueCore* value = implOf<ValueCore>(other);
    return value && value->type_ == type_ && value->bytes_ == bytes_;
}

void* ValueCore::pointerValue() const {
    void* pointer = nullptr;
    if (bytes_.size() >= sizeof pointer) std::memcpy(&pointer, bytes_.data(), sizeof pointer);
    return pointer;
}

std::string Value::description() const { return "<" + hexBytes(bytes_) + ">"; }

std::uint64_t Value::hash() const { return std::hash<std::string>{}(bytes_); }

bool Value::isEqual(const ObjectBase& other) const {
    auto* value = dynamic_cast<const Value*>(&other);
    return value && value->type_ == type_ && value->bytes_ == bytes_;
}

NS::Value* Value::initWithBytes(const void* value, const char* type) {
    const char* cursor = type ? type : "";
    std::optional<Layout> layout = layoutOf(cursor);
    if (!layout || (!value && layout->size > 0)) {
        release();
        return nullptr;
    }
    bytes_.assign(static_cast<const char*>(value), layout->size);
    type_ = type;
    return asPublicClass();
}

NS::Value* Value::initWithPointer(const void* pointer) {
    bytes_.assign(reinterpret_cast<const char*>(&pointer), sizeof pointer);
    type_ = "^v";
    return asPublicClass();
}

NS::Value* Value::initWithCoder(const NS::Coder*) {
    release();
    return nullptr;
}

template <class T>
NS::Number* Number::initWith(T value) {
    bytes_.assign(reinterpret_cast<const char*>(&value), sizeof value);
    type_ = encodingOf<T>();
    if constexpr (std::is_same_v<T, bool>) {
        kind_ = Kind::Bool;
        signed_ = value;
    } else if constexpr (std::is_floating_point_v<T>) {
        kind_ = Kind::Floating;
        floating_ = value;
        isSingle_ = std::is_same_v<T, float>;
    } else if constexpr (std::is_signed_v<T>) {
        kind_ = Kind::Signed;
        signed_ = value;
    } else {
        kind_ = Kind::Unsigned;
        unsigned_ = value;
    }
    return asPublicClass();
}

NS::Number* Number::initWithCoder(const NS::Coder*) {
    release();
    return nullptr;
}

template <class T>
T Number::as() const {
    switch (kind_) {
    case Kind::Floating:
        if constexpr (std::is_floating_point_v<T>)
            return static_cast<T>(floating_);
        else if constexpr (std::is_same_v<T, bool>)
            return floating_ != 0;
        else
            return saturated<T>(floating_);
    case Kind::Unsigned:
        if constexpr (std::is_same_v<T, bool>)
            return unsigned_ != 0;
        else
            return static_cast<T>(unsigned_);
    default:
        if constexpr (std::is_same_v<T, bool>)
            return signed_ != 0;
        else
            return static_cast<T>(signed_);
    }
}

std::string Number::text() const {
    char digits[64];
    std::to_chars_result end{};
    switch (kind_) {
    case Kind::Floating:
        end = isSingle_ ? std::to_chars(digits, digits + sizeof digits, static_cast<float>(floating_))
                        : std::to_chars(digits, digits + sizeof digits, floating_);
        break;
    case Kind::Unsigned:
        end = std::to_chars(digits, digits + sizeof digits, unsigned_);
        break;
    default:
        end = std::to_chars(digits, digits + sizeof digits, signed_);
    }
    return std::string(digits, end.ptr);
}

NS::String* Number::stringValue() const { return autoreleased(makeString(text())); }

NS::ComparisonResult Number::compare(const NS::Number* other) const {
    Number* number = implOf<Number>(other);
    if (!number) return NS::OrderedDescending;
    if (isFloating() || number->isFloating()) {
        double left = as<double>(), right = number->as<double>();
        return left < right ? NS::OrderedAscending : left > right ? NS::OrderedDescending : NS::OrderedSame;
    }
    auto wide = [](const Number& n) {
        return n.kind_ == Kind::Unsigned ? static_cast<__int128>(n.unsigned_) : static_cast<__int128>(n.signed_);
    };
    __int128 left = wide(*this), right = wide(*number);
    return left < right ? NS::OrderedAscending : left > right ? NS::OrderedDescending : NS::OrderedSame;
}

bool Number::isEqualToNumber(const NS::Number* other) const {
    return implOf<Number>(other) && compare(other) == NS::OrderedSame;
}

std::uint64_t Number::hash() const {
    // Equal numbers hash alike whatever their type: 1, 1u, 1.0f and 1.0 are equal.
    if (isFloating() && floating_ != std::floor(floating_)) return std::hash<double>{}(floating_);
    if (kind_ == Kind::Unsigned) return unsigned_;
    return isFloating() ? static_cast<std::uint64_t>(saturated<long long>(floating_))
                        : static_cast<std::uint64_t>(signed_);
}

bool Number::isEqual(const ObjectBase& other) const {
    auto* number = dynamic_cast<const Number*>(&other);
    return number && compare(number->asPublicClass()) == NS::OrderedSame;
}

} // namespace metalcpu::ns

namespace ns = metalcpu::ns;

// NS::Value

NS::Value* NS::Value::value(const void* pValue, const char* pType) {
    return ns::autoreleased(alloc()->init(pValue, pType));
}

NS::Value* NS::Value::value(const void* pPointer) {
    return ns::autoreleased(ns::call<ns::Value>(alloc(), &ns::Value::initWithPointer, pPointer));
}

NS::Value* NS::Value::alloc() { return ns::make<ns::Value>(); }

NS::Value* NS::Value::init(const void* pValue, const char* pType) {
    return ns::call<ns::Value>(this, &ns::Value::initWithBytes, pValue, pType);
}

NS::Value* NS::Value::init(const Coder* pCoder) { return ns::call<ns::Value>(this, &ns::Value::initWithCoder, pCoder); }

void NS::Value::getValue(void* pValue, UInteger size) const {
    ns::call<ns::ValueCore>(this, &ns::ValueCore::getValue, pValue, size);
}

const char* NS::Value::objCType() const { return ns::call<ns::ValueCore>(this, &ns::ValueCore::objCType); }

bool NS::Value::isEqualToValue(Value* pValue) const {
    return ns::call<ns::ValueCore>(this, &ns::ValueCore::isEqualToValue, pValue);
}

void* NS::Value::pointerValue() const { return ns::call<ns::ValueCore>(this, &ns::ValueCore::pointerValue); }

// NS::Number

NS::Number* NS::Number::number(char value) { return ns::autoreleased(alloc()->init(value)); }
NS::Number* NS::Number::number(unsigned char value) { return ns::autoreleased(alloc()->init(value)); }
NS::Number* NS::Number::number(short value) { return ns::autoreleased(alloc()->init(value)); }
NS::Number* NS::Number::number(unsigned short value) { return ns::autoreleased(alloc()->init(value)); }
NS::Number* NS::Number::number(int value) { return ns::autoreleased(alloc()->init(value)); }
NS::Number* NS::Number::number(unsigned int value) { return ns::autoreleased(alloc()->init(value)); }
NS::Number* NS::Number::number(long value) { return ns::autoreleased(alloc()->init(value)); }
NS::Number* NS::Number::number(unsigned long value) { return ns::autoreleased(alloc()->init(value)); }
NS::Number* NS::Number::number(long long value) { return ns::autoreleased(alloc()->init(value)); }
NS::Number* NS::Number::number(unsigned long long value) { return ns::autoreleased(alloc()->init(value)); }
NS::Number* NS::Number::number(float value) { return ns::autoreleased(alloc()->init(value)); }
NS::Number* NS::Number::number(double value) { return ns::autoreleased(alloc()->init(value)); }
NS::Number* NS::Number::number(bool value) { return ns::autoreleased(alloc()->init(value)); }

NS::Number* NS::Number::alloc() { return ns::make<ns::Number>(); }

NS::Number* NS::Number::init(const Coder* pCoder) {
    return ns::call<ns::Number>(this, &ns::Number::initWithCoder, pCoder);
}

NS::Number* NS::Number::init(char value) { return ns::call<ns::Number>(this, &ns::Number::initWith<char>, value); }
NS::Number* NS::Number::init(unsigned char value) {
    return ns::call<ns::Number>(this, &ns::Number::initWith<unsigned char>, value);
}
NS::Number* NS::Number::init(short value) { return ns::call<ns::Number>(this, &ns::Number::initWith<short>, value); }
NS::Number* NS::Number::init(unsigned short value) {
    return ns::call<ns::Number>(this, &ns::Number::initWith<unsigned short>, value);
}
NS::Number* NS::Number::init(int value) { return ns::call<ns::Number>(this, &ns::Number::initWith<int>, value); }
NS::Number* NS::Number::init(unsigned int value) {
    return ns::call<ns::Number>(this, &ns::Number::initWith<unsigned int>, value);
}
NS::Number* NS::Number::init(long value) { return ns::call<ns::Number>(this, &ns::Number::initWith<long>, value); }
NS::Number* NS::Number::init(unsigned long value) {
    return ns::call<ns::Number>(this, &ns::Number::initWith<unsigned long>, value);
}
NS::Number* NS::Number::init(long long value) {
    return ns::call<ns::Number>(this, &ns::Number::initWith<long long>, value);
}
NS::Number* NS::Number::init(unsigned long long value) {
    return ns::call<ns::Number>(this, &ns::Number::initWith<unsigned long long>, value);
}
NS::Number* NS::Number::init(float value) { return ns::call<ns::Number>(this, &ns::Number::initWith<float>, value); }
NS::Number* NS::Number::init(double value) { return ns::call<ns::Number>(this, &ns::Number::initWith<double>, value); }
NS::Number* NS::Number::init(bool value) { return ns::call<ns::Number>(this, &ns::Number::initWith<bool>, value); }

char NS::Number::charValue() const { return ns::call<ns::Number>(this, &ns::Number::as<char>); }
unsigned char NS::Number::unsignedCharValue() const {
    return ns::call<ns::Number>(this, &ns::Number::as<unsigned char>);
}
short NS::Number::shortValue() const { return ns::call<ns::Number>(this, &ns::Number::as<short>); }
unsigned short NS::Number::unsignedShortValue() const {
    return ns::call<ns::Number>(this, &ns::Number::as<unsigned short>);
}
int NS::Number::intValue() const { return ns::call<ns::Number>(this, &ns::Number::as<int>); }
unsigned int NS::Number::unsignedIntValue() const { return ns::call<ns::Number>(this, &ns::Number::as<unsigned int>); }
long NS::Number::longValue() const { return ns::call<ns::Number>(this, &ns::Number::as<long>); }
unsigned long NS::Number::unsignedLongValue() const {
    return ns::call<ns::Number>(this, &ns::Number::as<unsigned long>);
}
long long NS::Number::longLongValue() const { return ns::call<ns::Number>(this, &ns::Number::as<long long>); }
unsigned long long NS::Number::unsignedLongLongValue() const {
    return ns::call<ns::Number>(this, &ns::Number::as<unsigned long long>);
}
float NS::Number::floatValue() const { return ns::call<ns::Number>(this, &ns::Number::as<float>); }
double NS::Number::doubleValue() const { return ns::call<ns::Number>(this, &ns::Number::as<double>); }
bool NS::Number::boolValue() const { return ns::call<ns::Number>(this, &ns::Number::as<bool>); }
NS::Integer NS::Number::integerValue() const { return ns::call<ns::Number>(this, &ns::Number::as<Integer>); }
NS::UInteger NS::Number::unsignedIntegerValue() const { return ns::call<ns::Number>(this, &ns::Number::as<UInteger>); }

NS::String* NS::Number::stringValue() const { return ns::call<ns::Number>(this, &ns::Number::stringValue); }

NS::ComparisonResult NS::Number::compare(const Number* pOtherNumber) const {
    return ns::call<ns::Number>(this, &ns::Number::compare, pOtherNumber);
}

bool NS::Number::isEqualToNumber(const Number* pNumber) const {
    return ns::call<ns::Number>(this, &ns::Number::isEqualToNumber, pNumber);
}

NS::String* NS::Number::descriptionWithLocale(const Object*) const {
    // No locales on Linux: numbers are written as in the C locale.
    return ns::call<ns::Number>(this, &ns::Number::stringValue);
}
