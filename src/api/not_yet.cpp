#include "api/not_yet.h"

#include "foundation/factories.h"

#include <Foundation/NSError.hpp>

#include <string>

namespace metalcpu::api {

void writeUnsupportedError(NS::Error** error, const char* method) {
    if (!error) return;
    constexpr NS::Integer kFeatureUnsupportedError = 3328; // NSFeatureUnsupportedError
    *error = ns::autoreleased(ns::makeError("NSCocoaErrorDomain", kFeatureUnsupportedError,
                                            std::string(method) + " is not supported by metalcpu yet"));
}

} // namespace metalcpu::api
