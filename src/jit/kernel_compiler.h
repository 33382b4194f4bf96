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
    std::vector<std::string> includeDirectories; ///< -I: searched for every #include
    std::vector<std::string> quoteDirectories;   ///< -iquote: searched for #include "file" only, first
    std::vector<std::string> systemDirectories;  ///< -isystem: searched after includeDirectories
    std::vector<std::string> forcedIncludes;     ///< -include: read before the source's first line
    std::vector<std::string> macros; ///< "NAME" or "NAME=VALUE"
    std::vector<std::string> undefinedMacros; ///< -U NAME: undefined after every definition above
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

/// What the `metal` tool's command line adds to building a file beyond its settings; none of
/// it changes what the kernels compute, so none of it is part of a cache key. Kernels
/// compiled at run time use the defaults.
struct BuildOptions {
    /// translateFile(), preprocessFile(): how messages, #line markers and reflection name the
    /// source; empty for its path ("<stdin>" for a source read from standard input).
    std::string sourceName;
    /// translateFile(), preprocessFile(): receives the files the source read (the source
    /// first, as the preprocessor names them), metalcpu's own headers left out.
    std::vector<std::string>* dependencies = nullptr;
    /// Show the preprocessor's and the host compiler's warnings about the user's lines
    /// (compiler_messages.h); without, they are silenced (-w), as for newLibrary(source).
    bool warnings = false;
    std::vector<std::string> warningFlags; ///< compileTranslation(): -Wall, -Wno-x, ... for the host compiler
    std::string optimisation = "-O2";      ///< compileTranslation(): the host compiler's -O flag
    std::vector<std::string> codeFlags;    ///< compileTranslation(): -g, -g1, -fno-inline
    /// compileTranslation(): the instruction-set levels (isa.h) to compile for, an image each
    /// in the .air or .metallib, or "native": this CPU's best level, tuned for it. Empty: native
    /// alone, as kernels compiled at run time are (the cache key holds hostTarget()). A
    /// -march= or -mcpu= in METALCPU_KERNEL_FLAGS replaces them with its level alone.
    std::vector<std::string> levels;
    bool syntaxOnly = false;               ///< compileTranslation(): check the file, write nothing
    /// compileTranslation(): each compiler process may take this many times the CPU time
    /// METALCPU_COMPILE_TIMEOUT gives a file of its size (kValidationCompileTimeFactor for a
    /// shader-validation flavour, whose code costs that much more to compile).
    unsigned compileTimeFactor = 1;
    /// translateFile(): no kernel gets a vector-lane form, whatever METALCPU_LANE_VECTORS says
    /// (translateAndCompile()'s second try).
    bool withoutLaneVectors = false;
    /// translateFile(): set to whether a kernel of the file got a vector-lane form.
    bool* hasLaneVectors = nullptr;
    /// translateFile(): a file of more kernels than this is translated into a reflection image
    /// (deferred machine code, reflectionImageLines(): newLibrary(source) with
    /// METALCPU_DEFERRED_CODE_KERNELS); 0: never, as the metal tool builds every file.
    std::size_t deferCodeAbove = 0;
    /// translateFile(): set to whether the file was translated into a reflection image.
    bool* deferredCode = nullptr;
};

/// METALCPU_INTERLEAVE_LANES as the front end takes it (msl::TranslateOptions::interleaveLanes):
/// 0, the front end's choice, or a lane count from 1 to 16; another value is warned about
/// once and read as 0. Part of the kernel cache's key.
unsigned interleaveLanesSetting();

/// How a warning of translateFile() about a file's shader-validation flavour begins: it says
/// what metalcpu cannot instrument, not what is wrong with the user's code, so the `metal`
/// tool's -Werror leaves it a warning.
inline constexpr std::string_view kValidationUnavailable = "shader validation will not be available for this file: ";

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
/// `sourcePath` is opened relative to `workingDirectory` and is the name diagnostics use
/// unless `build` names it otherwise.
CompileResult translateFile(const std::string& sourcePath, const std::string& workingDirectory,
                            const KernelCompileSettings& settings, const std::string& cppPath,
                            const BuildOptions& build = {});

/// translateFile() into `cppPath`, then compileTranslation() of it into `outputPath`. When
/// the compile of a file with vector-lane forms fails, the file is translated and compiled
/// again without them, so that a lane form the host compiler rejects (metalcpu's bug, not the
/// kernel's) costs the kernels their lanes, never their library: a warning names the
/// compiler's first error, and the messages are the second try's.
CompileResult translateAndCompile(const std::string& sourcePath, const std::string& workingDirectory,
                                  const KernelCompileSettings& settings, const std::string& cppPath,
                                  const std::string& outputPath, bool sharedLibrary, const std::string& cacheKey = {},
                                  const BuildOptions& build = {});

/// Preprocesses one MSL file as translateFile() does, into `preprocessed`: the source with
/// its macros expanded and its headers read, linemarkers included; the standard library's
/// headers stay #include lines of their own.
CompileResult preprocessFile(const std::string& sourcePath, const std::string& workingDirectory,
                             const KernelCompileSettings& settings, std::string* preprocessed,
                             const BuildOptions& build = {});

/// `translatedCpp` with `lines` right after its prelude include (msl::kPreludeInclude: the
/// translator writes it before any of the user's code, so the first one is always its own),
/// where a file's own definitions go; unchanged when it has none.
std::string insertAfterPrelude(const std::string& translatedCpp, const std::string& lines);

/// The C++ lines that put `validationCpp` (a file translated with shader validation) into a
/// translated file as METALCPU_VALIDATION_SOURCE, i.e. its mc_module::validation_source; they
/// go after the prelude (insertAfterPrelude()), replacing its default.
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
/// METALCPU_SPECIALISATION_SOURCE, i.e. its mc_module::specialisation_source; they go after
/// the prelude, as embedValidationSource()'s do.
std::string embedSpecialisationSource(const std::string& translatedCpp);

/// The lines (after the prelude) that make a translated file a reflection image: every
/// kernel's row of its table (name, parameters, flags, reflection) with neither entry point
/// (METALCPU_KERNEL_CODE is nullptr), so that no kernel is made into machine code, while the
/// compiler still checks every kernel. Such a file carries its own text
/// (embedSpecialisationSource()), from which KernelLibrary::kernelCode() compiles one kernel
/// when a pipeline needs it.
std::string reflectionImageLines();

/// Compiles translated C++ into an object file (an .air) or, with `sharedLibrary`, straight
/// into a kernel library (a .metallib, sealed for `cacheKey`: library_file.h), with the
/// flags of the math mode the file records: once for each of `build.levels`, in processes
/// that run at the same time; a big file of several kernels in parts, a process each, when
/// there are CPUs for them and no warnings to show (compile_parts.h).
CompileResult compileTranslation(const std::string& cppPath, const std::string& workingDirectory,
                                 const std::string& outputPath, bool sharedLibrary, const std::string& cacheKey = {},
                                 const BuildOptions& build = {});

/// The host compiler's flags for an image of one instruction-set level (isa.h) of a file in
/// math mode `mode`, as compileTranslation() runs it, without the standard library's
/// directory (Toolchain::includeDir) and the input and output: for checking what the host
/// compiler makes of a translation (tests/jit/vectorised_work_items_test.cpp).
std::vector<std::string> kernelCodeFlags(MathMode mode, const std::string& level, const BuildOptions& build = {});

/// The warning flags of `flags` (-Wall, -Wshadow, ...) that the host compiler knows; the
/// others (Clang's own, such as -Wshorten-64-to-32, given to GCC) are appended to `unknown`.
/// One run of the compiler on an empty file, whose answer is kept in the cache directory
/// (Toolchain::warningFlagsDir) for this compiler and these flags in this order: a build that
/// runs `metal` once per source with the same flags runs the compiler for them once. An
/// answer that cannot be read or kept means asking again, never a different result.
std::vector<std::string> knownWarningFlags(const std::vector<std::string>& flags, std::vector<std::string>* unknown);

/// Links .air objects, and archives of them (every member is linked), into a .metallib, sealed
/// for `cacheKey` (empty: a library the tools build): an image for each instruction-set level
/// that every object was compiled for, linked at the same time. Refused, naming the files as
/// `objectNames` does (default: their paths): an input that is not such an object
/// (object_file.h), two objects that define the same kernel, objects with no level in common,
/// and a library that would run code while it loads (elf_check.h).
CompileResult linkLibrary(const std::vector<std::string>& objects, const std::string& outputPath,
                          const std::string& cacheKey = {}, const std::vector<std::string>& objectNames = {});

} // namespace metalcpu::jit
