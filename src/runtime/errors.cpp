#include "runtime/errors.h"

#include "foundation/factories.h"
#include "foundation/object.h"

#include <Foundation/NSError.hpp>

namespace metalcpu::rt {

void setError(NS::Error** out, const char* domain, NS::Integer code, const std::string& description) {
    if (!out) return;
    *out = ns::autoreleased(ns::makeError(domain, code, description));
}

} // namespace metalcpu::rt
