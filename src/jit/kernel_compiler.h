#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace metalcpu::jit {

/// Which floating-point optimisations the compiler may make: MTLMathMode, same values.
enum class MathMode { Safe = 0, Relaxed = 1, Fast = 2 };

/// What the plain metal:: math functions are (metal::fast:: or metal::precise::):
/// MTLMathFloatingPointFunctions, same values.
enum class MathFunctions { Fast = 0, Precise = 1 };

/// How kernels are compiled: what MTL::CompileOptions and the `metal` tool's flags say.
struct KernelCompileSettings {
    std::vector<std::string> includeDirectories;
    std::vector<std::string> macros; ///< "NAME" or "NAME=VALUE"
    int languageVersion = 320;       ///< the value of __METAL_VERSION__
    MathMode mathMode = MathMode::Fast;                ///< Metal's default: fast math
    MathFunctions mathFunctions = MathFunctions::Fast; ///< Metal's default: metal:: is fast::

    /// Everything above as one string, for cache keys.
    std::string key() const;
};

/// Defined (in KernelCompileSettings::macros) when kernels are compiled with shader logging
/// on (CompileOptions::enableLogging, `metal -fmetal-enable-logging`); without it, as in
/// Metal, os_log calls compile but log nothing (<metal_logging>).
inline constexpr const char* kEnableLoggingMacro = "__METALCPU_ENABLE_LOGGING__";

/// The most output of one compiler process, and of the front end, that a compile's
/// diagnostics keep; they say how much more there was.
constexpr std::size_t kDiagnosticsLimit = 64 * 1024;

/// The result of one compilation step. `diagnostics` is what a person should read: the
/// compiler's messages, pointing at the .metal file (or "program_source") and line.
struct CompileResult {
    bool ok = false;
    std::string diagnostics;
};

/// The host compiler's flags for a math mode (docs/compiler.md, "Math modes").
std::vector<std::string> mathModeFlags(MathMode mode);

/// The lines a translated file starts with to record its math settings: they define
/// METALCPU_MATH_MODE and METALCPU_MATH_FP32_FUNCTIONS (read by <metal_stdlib>), and
/// compileTranslation() reads them back to choose the compiler's flags.
std::string mathSettingsPreamble(MathMode mode, MathFunctions functions);

/// The math mode recorded by mathSettingsPreamble() at the start of `translatedCpp`;
/// MathMode::Fast when there is none (files translated before the preamble existed).
MathMode recordedMathMode(const std::string& translatedCpp);

/// Preprocesses and translates one MSL file into C++ written to `cppPath`, with the file's
/// instrumented flavour for shader validation embedded (embedValidationSource()), or why it
/// could not be made (validationFailureSource()). Both
/// start with the settings' mathSettingsPreamble().
/// `sourcePath` is opened relative to `workingDirectory` and is the name diagnostics use.
/// With `depfile`, also writes make-style dependencies of `depTarget` on every header.
CompileResult translateFile(const std::string& sourcePath, const std::string& workingDirectory,
                            const KernelCompileSettings& settings, const std::string& cppPath,
                            const std::string& depfile = {}, const std::string& depTarget = {});

/// The C++ lines that put `validationCpp` (a file translated with shader validation) into a
/// translated file as METALCPU_VALIDATION_SOURCE, i.e. its mc_module::validation_source.
std::string embedValidationSource(const std::string& validationCpp);

/// What a file carries as its validation source when its instrumented translation failed
/// (`reason`: that translation's errors): a text whose compile stops with the reason, which
/// KernelLibrary reads back without compiling (validationFailureReason()), so that a
/// validated pipeline's error says why the flavour is missing.
std::string validationFailureSource(const std::string& reason);
/// The reason in a validation source made by validationFailureSource(), or nullopt when it
/// is an instrumented translation.
std::optional<std::string> validationFailureReason(std::string_view validationSource);

/// The C++ lines that put a file's own translated text (preambles included) into it as
/// METALCPU_SPECIALISATION_SOURCE, i.e. its mc_module::specialisation_source.
std::string embedSpecialisationSource(const std::string& translatedCpp);

/// Compiles translated C++ into an object file (an .air) or, with `sharedLibrary`, straight
/// into a kernel library (a .metallib, sealed for `cacheKey`: library_file.h), with the
/// flags of the math mode the file records.
CompileResult compileTranslation(const std::string& cppPath, const std::string& workingDirectory,
                                 const std::string& outputPath, bool sharedLibrary, const std::string& cacheKey = {});

/// Links .air objects into a .metallib, sealed for `cacheKey` (empty: a library the tools
/// build). A library that would run code while it loads is refused (elf_check.h).
CompileResult linkLibrary(const std::vector<std::string>& objects, const std::string& outputPath,
                          const std::string& cacheKey = {});

} // namespace metalcpu::jit
