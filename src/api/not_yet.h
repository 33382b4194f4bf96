#pragma once

// Methods whose functionality metalcpu does not have yet (textures, events, Metal 4 queues…).
// On a live receiver they log once, through unsupported(), and return zero; on nil they
// return zero silently, as every method does.

#include "foundation/object.h"

namespace NS {
class Error;
}

namespace metalcpu::api {

/// Logs, once per method, that a declared Metal method does nothing yet in metalcpu.
/// `method` is e.g. "MTL::Device::newTexture".
void unsupported(const char* method);

/// Writes to `*error` (when `error` is not null) an autoreleased NSCocoaErrorDomain error with
/// code NSFeatureUnsupportedError (3328) saying that `method` is not supported yet.
void writeUnsupportedError(NS::Error** error, const char* method);

/// The body of a not-yet-supported method of a class metalcpu implements (`Impl`): when the
/// receiver is a live `Impl`, logs `method` once and fills `error` if given.
template <class Impl>
void notYet(ns::Receiver receiver, const char* method, NS::Error** error = nullptr) {
    if (!ns::implOf<Impl>(receiver)) return;
    unsupported(method);
    writeUnsupportedError(error, method);
}

/// The body of a static method (alloc(), a shared instance) of a class that metalcpu cannot
/// make yet: logs once and returns nothing.
inline void cannotMake(const char* method) { unsupported(method); }

} // namespace metalcpu::api
