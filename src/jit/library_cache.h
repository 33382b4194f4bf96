#pragma once

#include "jit/kernel_compiler.h"

#include <string>
#include <vector>

namespace metalcpu::jit {

/// Compiles MSL source text (newLibrary(source)) into a kernel library, or finds the one
/// an earlier compile (in this or another process) left in the cache. Diagnostics name the
/// source "program_source", as Metal does.
struct SourceBuild {
    bool ok = false;
    bool fromCache = false;
    std::string libraryPath;
    std::string diagnostics;
};
SourceBuild buildLibraryFromSource(const std::string& source, const KernelCompileSettings& settings);

/// Compiles the instrumented (shader validation) flavours of a library's files — the
/// mc_module::validation_source texts — into one kernel library, through the same cache.
SourceBuild buildValidationLibrary(const std::vector<std::string>& validationSources);

} // namespace metalcpu::jit
