#pragma once

#include <Foundation/NSTypes.hpp>

#include <string>

namespace NS {
class Error;
}

namespace metalcpu::rt {

/// Error domains Metal uses; metal-cpp has no constants for these, programs print them.
inline constexpr const char* kLibraryErrorDomain = "MTLLibraryErrorDomain";
inline constexpr const char* kCommandBufferErrorDomain = "MTLCommandBufferErrorDomain";
inline constexpr const char* kPipelineErrorDomain = "CompilerError";

/// Stores a new autoreleased NS::Error in `*out` (when `out` is not null), as Metal's
/// `NSError**` out-parameters do.
void setError(NS::Error** out, const char* domain, NS::Integer code, const std::string& description);

/// Stores nil in `*out` (when `out` is not null). Every public call with an `NS::Error**`
/// does this first, so the out-parameter is nil after a success: ported code declares
/// `NS::Error* error;` uninitialised and tests `if (error)` (VkFFT's Metal backend does),
/// which works on macOS.
inline void clearError(NS::Error** out) {
    if (out) *out = nullptr;
}

} // namespace metalcpu::rt
