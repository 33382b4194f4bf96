#pragma once

#include "NSDefines.hpp"
#include "NSObject.hpp"
#include "NSTypes.hpp"

namespace NS {

using ErrorDomain = class String*;

extern const ErrorDomain CocoaErrorDomain;
extern const ErrorDomain POSIXErrorDomain;
extern const ErrorDomain OSStatusErrorDomain;
extern const ErrorDomain MachErrorDomain;

using ErrorUserInfoKey = class String*;

extern const ErrorUserInfoKey UnderlyingErrorKey;
extern const ErrorUserInfoKey LocalizedDescriptionKey;
extern const ErrorUserInfoKey LocalizedFailureReasonErrorKey;
extern const ErrorUserInfoKey LocalizedRecoverySuggestionErrorKey;
extern const ErrorUserInfoKey LocalizedRecoveryOptionsErrorKey;
extern const ErrorUserInfoKey RecoveryAttempterErrorKey;
extern const ErrorUserInfoKey HelpAnchorErrorKey;
extern const ErrorUserInfoKey DebugDescriptionErrorKey;
extern const ErrorUserInfoKey LocalizedFailureErrorKey;
extern const ErrorUserInfoKey StringEncodingErrorKey;
extern const ErrorUserInfoKey URLErrorKey;
extern const ErrorUserInfoKey FilePathErrorKey;

class Error : public Copying<Error> {
public:
    static Error* error(ErrorDomain domain, Integer code, class Dictionary* pDictionary);

    static Error* alloc();
    Error* init();
    Error* init(ErrorDomain domain, Integer code, class Dictionary* pDictionary);

    [[nodiscard]] Integer code() const;
    [[nodiscard]] ErrorDomain domain() const;
    [[nodiscard]] class Dictionary* userInfo() const;

    [[nodiscard]] class String* localizedDescription() const;
    [[nodiscard]] class Array* localizedRecoveryOptions() const;
    [[nodiscard]] class String* localizedRecoverySuggestion() const;
    [[nodiscard]] class String* localizedFailureReason() const;
};

} // namespace NS
