#pragma once

#include "foundation/object.h"

#include <Foundation/NSNumber.hpp>

#include <string>
#include <type_traits>

namespace NS {
class String;
}

namespace metalcpu::ns {

/// What NS::Value and NS::Number share: bytes and their Objective-C type encoding (as
/// @encode writes it, e.g. "i", "d", "{Range=QQ}").
class ValueCore : public ObjectBase {
public:
    const char* objCType() const { return type_.c_str(); }
    void getValue(void* value, NS::UInteger size) const;
    bool isEqualToValue(NS::Value* other) const;
    void* pointerValue() const;

protected:
    std::string bytes_;
    std::string type_;
};

/// NS::Value: a copy of any plain value, described by its type encoding.
class Value final : public Implements<NS::Value, ValueCore> {
public:
    const char* className() const override { return "NSValue"; }
    std::string description() const override;
    std::uint64_t hash() const override;
    bool isEqual(const ObjectBase& other) const override;

    /// Copies the bytes of `value`; its size comes from the encoding `type`. Fails (nil)
    /// for encodings whose size cannot be known.
    NS::Value* initWithBytes(const void* value, const char* type);
    NS::Value* initWithPointer(const void* pointer);
    NS::Value* initWithCoder(const NS::Coder* coder);
};

/// NS::Number: a signed, unsigned, floating-point or boolean scalar. Getters convert as C
/// casts do, except that floating-point values out of an integer type's range saturate.
class Number final : public Implements<NS::Number, ValueCore> {
public:
    const char* className() const override { return "NSNumber"; }
    std::string description() const override { return text(); }
    std::uint64_t hash() const override;
    bool isEqual(const ObjectBase& other) const override;

    template <class T>
    NS::Number* initWith(T value);
    NS::Number* initWithCoder(const NS::Coder* coder);

    template <class T>
    T as() const;
    std::string text() const;
    NS::String* stringValue() const;
    NS::ComparisonResult compare(const NS::Number* other) const;
    bool isEqualToNumber(const NS::Number* other) const;

private:
    enum class Kind { Signed, Unsigned, Floating, Bool };
    bool isFloating() const { return kind_ == Kind::Floating; }
    bool isSingle_ = false; ///< a float (printed with float precision)
    Kind kind_ = Kind::Signed;
    long long signed_ = 0;
    unsigned long long unsigned_ = 0;
    double floating_ = 0;
};

} // namespace metalcpu::ns
