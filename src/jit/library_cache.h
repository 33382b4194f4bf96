#pragma once

#include "jit/kernel_compiler.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace metalcpu::jit {

class KernelLibrary;

/// Compiles MSL source text (newLibrary(source)) into a kernel library, or finds the one
/// an earlier compile (in this or another process) left in the cache, and opens it.
/// Diagnostics name the source "program_source", as Metal does. Safe to call from many
/// threads at once; threads asking for the same library build it once.
struct SourceBuild {
    bool ok = false;        ///< `library` is open
    bool fromCache = false; ///< it was in the cache already
    std::string libraryPath;
    std::string diagnostics;
    std::shared_ptr<KernelLibrary> library;
};
SourceBuild buildLibraryFromSource(const std::string& source, const KernelCompileSettings& settings);

/// Deferred machine code: buildLibraryFromSource() of a file of more kernels than this
/// compiles a reflection image (reflectionImageLines()) and each kernel's code when a pipeline
/// first needs it (KernelLibrary::kernelCode()). METALCPU_DEFERRED_CODE_KERNELS; 0 (its
/// default): sixteen times compileJobs(); negative: never (0 returned).
std::size_t deferredCodeThreshold();

/// Compiles the instrumented (shader validation) flavours of a library's files — the
/// mc_module::validation_source texts, or one kernel's part of them (selectingKernel()) with
/// that kernel's name in `kernel` for the notice of a slow compile — into one kernel library,
/// through the same cache.
SourceBuild buildValidationLibrary(const std::vector<std::string>& validationSources, const std::string& kernel = {});

/// Compiles a specialised file (specialisedSource(), jit/specialisation.h) into a kernel
/// library, through the same cache: the same source and values are compiled once.
SourceBuild buildSpecialisedLibrary(const std::string& specialisedCpp);

/// Compiles one kernel's part of a reflection image's text (selectingKernel() of the text it
/// carries) into a kernel library holding that kernel's machine code, through the same cache;
/// `kernel` names it in the notice of a slow compile.
SourceBuild buildKernelCode(const std::string& kernelCpp, const std::string& kernel);

/// How long a compile of the three above may take before the log warns that it is compiling
/// (once per library: later runs load it from the cache). One second; tests change it.
void setSlowCompileDelay(std::chrono::milliseconds delay);

} // namespace metalcpu::jit
