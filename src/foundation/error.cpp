#include "foundation/error.h"

#include "foundation/collections.h"
#include "foundation/factories.h"
#include "foundation/string.h"

#include <Foundation/NSArray.hpp>
#include <Foundation/NSDictionary.hpp>
#include <Foundation/NSString.hpp>

#include <string_view>

namespace metalcpu::ns {

// The domain and key constants are constant-initialised, so they are valid even in the
// static initialisers of other libraries and programs. Their texts are Foundation's.
namespace constants {
constinit Immortal<String> cocoaErrorDomain{String::ConstantText{}, std::string_view("NSCocoaErrorDomain")};
constinit Immortal<String> posixErrorDomain{String::ConstantText{}, std::string_view("NSPOSIXErrorDomain")};
constinit Immortal<String> osStatusErrorDomain{String::ConstantText{}, std::string_view("NSOSStatusErrorDomain")};
constinit Immortal<String> machErrorDomain{String::ConstantText{}, std::string_view("NSMachErrorDomain")};
constinit Immortal<String> underlyingError{String::ConstantText{}, std::string_view("NSUnderlyingError")};
constinit Immortal<String> localizedDescription{String::ConstantText{}, std::string_view("NSLocalizedDescription")};
constinit Immortal<String> localizedFailureReason{String::ConstantText{},
                                                  std::string_view("NSLocalizedFailureReason")};
constinit Immortal<String> localizedRecoverySuggestion{String::ConstantText{},
                                                       std::string_view("NSLocalizedRecoverySuggestion")};
constinit Immortal<String> localizedRecoveryOptions{String::ConstantText{},
                                                    std::string_view("NSLocalizedRecoveryOptions")};
constinit Immortal<String> recoveryAttempter{String::ConstantText{}, std::string_view("NSRecoveryAttempter")};
constinit Immortal<String> helpAnchor{String::ConstantText{}, std::string_view("NSHelpAnchor")};
constinit Immortal<String> debugDescription{String::ConstantText{}, std::string_view("NSDebugDescription")};
constinit Immortal<String> localizedFailure{String::ConstantText{}, std::string_view("NSLocalizedFailure")};
constinit Immortal<String> stringEncoding{String::ConstantText{}, std::string_view("NSStringEncodingErrorKey")};
constinit Immortal<String> url{String::ConstantText{}, std::string_view("NSURL")};
constinit Immortal<String> filePath{String::ConstantText{}, std::string_view("NSFilePath")};
} // namespace constants

Error::~Error() {
    releaseIfAny(domain_);
    releaseIfAny(userInfo_);
    releaseIfAny(genericDescription_);
}

std::string Error::description() const {
    std::string text = "Error Domain=" + stringOf(domain_) + " Code=" + std::to_string(code_) + " \"" +
                       stringOf(localizedDescription()) + "\"";
    if (userInfo_ && userInfo_->count() > 0) {
        text += " UserInfo={";
        auto* info = static_cast<Dictionary*>(coreOf(userInfo_));
        for (std::size_t i = 0; i < info->keys().size(); ++i) {
            if (i) text += ", ";
            text += info->keys()[i]->description() + "=" + info->values()[i]->description();
        }
        text += "}";
    }
    return text;
}

NS::Error* Error::initWithDomain(NS::ErrorDomain domain, NS::Integer code, NS::Dictionary* userInfo) {
    if (implOf<String>(domain)) domain_ = domain->copy();
    code_ = code;
    // Foundation answers userInfo with an empty dictionary when none was given.
    userInfo_ = implOf<Dictionary>(userInfo) ? userInfo->retain() : make<Dictionary>();
    return asPublicClass();
}

NS::Object* Error::userInfoValue(NS::String* key) const {
    return userInfo_ ? userInfo_->object(key) : nullptr;
}

NS::String* Error::localizedDescription() const {
    NS::Object* text = userInfoValue(&constants::localizedDescription.value);
    if (implOf<String>(text)) return static_cast<NS::String*>(text);
    std::call_once(genericOnce_, [this] {
        // Foundation's wording, with its typographic apostrophe.
        genericDescription_ = makeString("The operation couldn\u2019t be completed. (" + stringOf(domain_) +
                                         " error " + std::to_string(code_) + ".)");
    });
    return genericDescription_;
}

NS::Array* Error::localizedRecoveryOptions() const {
    NS::Object* options = userInfoValue(&constants::localizedRecoveryOptions.value);
    return implOf<Array>(options) ? static_cast<NS::Array*>(options) : nullptr;
}

NS::String* Error::localizedRecoverySuggestion() const {
    NS::Object* text = userInfoValue(&constants::localizedRecoverySuggestion.value);
    return implOf<String>(text) ? static_cast<NS::String*>(text) : nullptr;
}

NS::String* Error::localizedFailureReason() const {
    NS::Object* text = userInfoValue(&constants::localizedFailureReason.value);
    return implOf<String>(text) ? static_cast<NS::String*>(text) : nullptr;
}

} // namespace metalcpu::ns

namespace ns = metalcpu::ns;
namespace constants = metalcpu::ns::constants;

const NS::ErrorDomain NS::CocoaErrorDomain = &constants::cocoaErrorDomain.value;
const NS::ErrorDomain NS::POSIXErrorDomain = &constants::posixErrorDomain.value;
const NS::ErrorDomain NS::OSStatusErrorDomain = &constants::osStatusErrorDomain.value;
const NS::ErrorDomain NS::MachErrorDomain = &constants::machErrorDomain.value;

const NS::ErrorUserInfoKey NS::UnderlyingErrorKey = &constants::underlyingError.value;
const NS::ErrorUserInfoKey NS::LocalizedDescriptionKey = &constants::localizedDescription.value;
const NS::ErrorUserInfoKey NS::LocalizedFailureReasonErrorKey = &constants::localizedFailureReason.value;
const NS::ErrorUserInfoKey NS::LocalizedRecoverySuggestionErrorKey = &constants::localizedRecoverySuggestion.value;
const NS::ErrorUserInfoKey NS::LocalizedRecoveryOptionsErrorKey = &constants::localizedRecoveryOptions.value;
const NS::ErrorUserInfoKey NS::RecoveryAttempterErrorKey = &constants::recoveryAttempter.value;
const NS::ErrorUserInfoKey NS::HelpAnchorErrorKey = &constants::helpAnchor.value;
const NS::ErrorUserInfoKey NS::DebugDescriptionErrorKey = &constants::debugDescription.value;
const NS::ErrorUserInfoKey NS::LocalizedFailureErrorKey = &constants::localizedFailure.value;
const NS::ErrorUserInfoKey NS::StringEncodingErrorKey = &constants::stringEncoding.value;
const NS::ErrorUserInfoKey NS::URLErrorKey = &constants::url.value;
const NS::ErrorUserInfoKey NS::FilePathErrorKey = &constants::filePath.value;

NS::Error* NS::Error::error(ErrorDomain domain, Integer code, Dictionary* pDictionary) {
    return ns::autoreleased(alloc()->init(domain, code, pDictionary));
}

NS::Error* NS::Error::alloc() { return ns::make<ns::Error>(); }

NS::Error* NS::Error::init() { return ns::call<ns::Error>(this, &ns::Error::init); }

NS::Error* NS::Error::init(ErrorDomain domain, Integer code, Dictionary* pDictionary) {
    return ns::call<ns::Error>(this, &ns::Error::initWithDomain, domain, code, pDictionary);
}

NS::Integer NS::Error::code() const { return ns::call<ns::Error>(this, &ns::Error::code); }

NS::ErrorDomain NS::Error::domain() const { return ns::call<ns::Error>(this, &ns::Error::domain); }

NS::Dictionary* NS::Error::userInfo() const { return ns::call<ns::Error>(this, &ns::Error::userInfo); }

NS::String* NS::Error::localizedDescription() const {
    return ns::call<ns::Error>(this, &ns::Error::localizedDescription);
}

NS::Array* NS::Error::localizedRecoveryOptions() const {
    return ns::call<ns::Error>(this, &ns::Error::localizedRecoveryOptions);
}

NS::String* NS::Error::localizedRecoverySuggestion() const {
    return ns::call<ns::Error>(this, &ns::Error::localizedRecoverySuggestion);
}

NS::String* NS::Error::localizedFailureReason() const {
    return ns::call<ns::Error>(this, &ns::Error::localizedFailureReason);
}
