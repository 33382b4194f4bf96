// Why a kernel has no shader-validation flavour, in words a user can act on: the host
// compiler's messages about the instrumented text (checked pointers, checked.h's templates)
// run to pages and name metalcpu's headers; what the user needs is the kernel, the place in
// their source and the compiler's first complaint.
#pragma once

#include <string>

namespace metalcpu::jit {

/// The place in the user's source and the first error of `diagnostics`, the host compiler's
/// output for an instrumented flavour: `program_source:12:17: error: ...` (the place of the
/// first error when it is in the user's source, else where the user's code instantiated what
/// failed, `required from here`), or the first error line alone when no place is the user's.
/// Empty when `diagnostics` holds no error.
std::string firstInstrumentationError(const std::string& diagnostics);

/// The reason a pipeline's error and the library's warning give when kernel `kernel` of the
/// library at `path` has no shader-validation flavour because its instrumented text does not
/// compile: the kernel, firstInstrumentationError(), then the compiler's output.
std::string flavourCompileFailure(const std::string& kernel, const std::string& path, const std::string& diagnostics);

} // namespace metalcpu::jit
