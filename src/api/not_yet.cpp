#include "api/not_yet.h"

#include "foundation/factories.h"
#include "support/log.h"

#include <Foundation/NSError.hpp>

#include <mutex>
#include <set>
#include <string>

namespace metalcpu::api {

void unsupported(const char* method) {
    static std::mutex mutex;
    static std::set<std::string> reported;
    std::lock_guard lock(mutex);
    if (!reported.insert(method).second) return;
    support::log().warn("{} is not supported by metalcpu yet; it does nothing and returns zero", method);
}

void writeUnsupportedError(NS::Error** error, const char* method) {
    if (!error) return;
    constexpr NS::Integer kFeatureUnsupportedError = 3328; // NSFeatureUnsupportedError
    *error = ns::autoreleased(ns::makeError("NSCocoaErrorDomain", kFeatureUnsupportedError,
                                            std::string(method) + " is not supported by metalcpu yet"));
}

} // namespace metalcpu::api
