#pragma once

#include "foundation/object.h"

#include <Foundation/NSError.hpp>

#include <mutex>

namespace NS {
class Array;
class Dictionary;
class String;
} // namespace NS

namespace metalcpu::ns {

/// NS::Error: a domain, a code and a user-info dictionary; the localized texts come from
/// the dictionary's well-known keys.
class Error final : public Implements<NS::Error> {
public:
    ~Error() override;
    const char* className() const override { return "NSError"; }
    std::string description() const override;

    NS::Error* init() { return asPublicClass(); }
    NS::Error* initWithDomain(NS::ErrorDomain domain, NS::Integer code, NS::Dictionary* userInfo);

    NS::Integer code() const { return code_; }
    NS::ErrorDomain domain() const { return domain_; }
    NS::Dictionary* userInfo() const { return userInfo_; }
    NS::String* localizedDescription() const;
    NS::Array* localizedRecoveryOptions() const;
    NS::String* localizedRecoverySuggestion() const;
    NS::String* localizedFailureReason() const;

private:
    NS::Object* userInfoValue(NS::String* key) const;

    NS::String* domain_ = nullptr; ///< owned
    NS::Integer code_ = 0;
    NS::Dictionary* userInfo_ = nullptr; ///< owned; an empty dictionary when none was given
    /// Foundation's generic text, made when the user info has no description (owned).
    mutable NS::String* genericDescription_ = nullptr;
    mutable std::once_flag genericOnce_;
};

} // namespace metalcpu::ns
