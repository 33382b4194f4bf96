#include "jit/kernel_compiler.h"

#include "compiler/source_access.h"
#include "compiler/translate.h"
#include "jit/cache_directory.h"
#include "jit/compile_parts.h"
#include "jit/compiler_process.h"
#include "jit/compiler_messages.h"
#include "jit/isa.h"
#include "jit/library_file.h"
#include "jit/make_dependencies.h"
#include "jit/object_file.h"
#include "jit/precompiled_prelude.h"
#include "jit/toolchain.h"
#include "support/config.h"
#include "support/files.h"
#include "support/hash.h"
#include "support/log.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <sstream>

namespace metalcpu::jit {
namespace {

std::vector<std::string> splitFlags(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> flags;
    for (std::string flag; in >> flag;) flags.push_back(flag);
    return flags;
}

/// One instruction-set level to compile for: -march=level, and -mtune=native when `tuned`.
struct Target {
    std::string level;
    bool tuned = false;
};

/// The levels `build` asks for (BuildOptions::levels); METALCPU_KERNEL_FLAGS' -march= wins.
std::vector<Target> targetsOf(const BuildOptions& build) {
    if (std::string forced = levelInFlags(splitFlags(support::config().kernelFlags)); !forced.empty()) return {{forced}};
    if (build.levels.empty()) return {{hostLevel(), true}};
    std::vector<Target> targets;
    for (const std::string& level : build.levels)
        targets.push_back(level == "native" ? Target{hostLevel(), true} : Target{level});
    return targets;
}

/// Flags every kernel compile shares. The kernel is freestanding C++20: no host headers,
/// no exceptions, no RTTI, no thread-safe statics (they would import from libc). Then the
/// math mode's flags, the level's, the build's (the `metal` tool's -O, -g, -W), then
/// METALCPU_KERNEL_FLAGS, which can override them.
std::vector<std::string> codeFlags(MathMode mode, const Target& target, const BuildOptions& build) {
    std::vector<std::string> flags = {"-std=c++20", build.optimisation, "-fPIC", "-fno-exceptions", "-fno-rtti",
                                      "-fno-threadsafe-statics", "-fno-stack-protector",
                                      "-fvisibility=hidden", "-fno-plt", "-nostdinc",
                                      // `#pragma omp simd` on the loops over a group's threads
                                      // (metalcpu/kernel_support.h); no OpenMP runtime. The
                                      // macro says the pragma is understood (GCC defines none
                                      // for -fopenmp-simd; host code that includes the header
                                      // would warn about an unknown pragma).
                                      "-fopenmp-simd", "-DMETALCPU_OPENMP_SIMD=1",
                                      // A kernel library must unload when released: a GNU
                                      // unique symbol (a default-visibility static in an
                                      // inline function or template) would pin it.
                                      "-fno-gnu-unique",
                                      // Clang's (so Metal's) default error limit: one bad
                                      // template instantiation can otherwise bury its first
                                      // message under hundreds.
                                      "-fmax-errors=20"};
    for (const std::string& flag : mathModeFlags(mode)) flags.push_back(flag);
    for (const std::string& flag : levelFlags(target.level, target.tuned)) flags.push_back(flag);
    flags.insert(flags.end(), build.codeFlags.begin(), build.codeFlags.end());
    // Warnings only when asked for, and then only those about the user's lines are shown.
    if (build.warnings) flags.insert(flags.end(), build.warningFlags.begin(), build.warningFlags.end());
    else flags.push_back("-w");
    for (const std::string& extra : splitFlags(support::config().kernelFlags)) flags.push_back(extra);
    return flags;
}

CompileResult missingToolchain(const std::string& error) { return CompileResult{false, error + "\n"}; }

/// `path` as seen from this process when a compiler running in `workingDirectory` names it.
std::string inDirectory(const std::string& workingDirectory, const std::string& path) {
    const bool relative = !workingDirectory.empty() && !path.empty() && path[0] != '/';
    return relative ? workingDirectory + "/" + path : path;
}

/// `path` (as a compiler running in `workingDirectory` names it) made absolute, for a rule of
/// its confinement.
std::string absoluteIn(const std::string& workingDirectory, const std::string& path) {
    std::error_code error;
    const std::filesystem::path absolute = std::filesystem::absolute(inDirectory(workingDirectory, path), error);
    return error ? path : absolute.lexically_normal().string();
}

/// Compiles one translated file into one image: `task` (the input, the output and what to
/// make) with `flags`. The prelude is read precompiled when there is one for the file (whose
/// start is `head`) and these flags (precompiled_prelude.h); a compile with it that fails
/// over it is done again without it, and that one's result is the result, so the prelude
/// changes how long a compile takes, never what it makes or says. `codeBytes`: the file's
/// translatedCodeBytes(), which its time limit grows with.
CompileResult compileImage(const Toolchain& tools, const std::vector<std::string>& flags,
                           const std::vector<std::string>& task, const std::string& head,
                           const std::string& workingDirectory, const Scratch& scratch,
                           const std::vector<std::string>& readable, std::uint64_t codeBytes) {
    std::vector<std::string> plain = {tools.compiler, "-x", "c++"};
    plain.insert(plain.end(), flags.begin(), flags.end());
    plain.insert(plain.end(), task.begin(), task.end());
    std::optional<PrecompiledPrelude> prelude = PrecompiledPrelude::of(tools, flags, head);
    if (!prelude || !prelude->prepare(tools)) return runCompiler(tools, plain, workingDirectory, scratch, readable, 0, codeBytes);
    std::vector<std::string> argv = prelude->arguments();
    argv.insert(argv.begin(), tools.compiler);
    argv.insert(argv.end(), plain.begin() + 1, plain.end());
    std::vector<std::string> readableWith = readable;
    readableWith.push_back(prelude->file());
    CompileResult result = runCompiler(tools, argv, workingDirectory, scratch, readableWith, 0, codeBytes);
    if (result.ok) return result;
    // Leased, it is no sweep's to remove; but a cache cleaner (`rm -rf`) may take it away in
    // the middle, which fails the compile however it fails (the confined compiler's view
    // cannot even be made without it).
    if (!support::fileExists(prelude->file())) {
        support::log().debug("compiling again without the precompiled prelude {}, which was removed during the "
                             "compile",
                             prelude->file());
        return runCompiler(tools, plain, workingDirectory, scratch, readable, 0, codeBytes);
    }
    if (!prelude->mentionedIn(result.diagnostics)) return result;
    support::log().debug("compiling again without the precompiled prelude {}, which the failed compile mentions",
                         prelude->file());
    CompileResult without = runCompiler(tools, plain, workingDirectory, scratch, readable, 0, codeBytes);
    if (without.ok) prelude->discard(result.diagnostics);
    return without;
}

/// One image compiled in parts (compile_parts.h): the part files, what names this image's
/// objects in the scratch directory, the image to make and whether it is a shared library
/// (else a relocatable object, for an .air).
struct ImageInParts {
    std::vector<std::string> files;
    std::string name;
    std::string image;
    bool sharedLibrary = false;
};

/// Compiles each part of an image at once, then links their objects into the image with the
/// image's flags. Parts repeat what every kernel shares: an inline function or template
/// instance is kept once (COMDAT), and a function of the user's with external linkage, the
/// same code in each part, once (--allow-multiple-definition). When a part fails, the image
/// is compiled whole (`whole`), whose messages are those of a compile without parts.
template <typename Whole>
CompileResult compileImageInParts(const Toolchain& tools, const std::vector<std::string>& flags, const ImageInParts& parts,
                                  const std::string& head, const Scratch& scratch,
                                  const std::vector<std::string>& readable, std::uint64_t codeBytes, const Whole& whole) {
    support::log().debug("compiling {} in {} parts at once", parts.image, parts.files.size());
    std::vector<std::string> objects;
    std::vector<std::future<CompileResult>> compiles;
    for (std::size_t p = 0; p < parts.files.size(); ++p) {
        objects.push_back(scratch.file((parts.name + "-part" + std::to_string(p) + ".o").c_str()));
        std::vector<std::string> task = {"-c", parts.files[p], "-o", objects.back()}, readablePart = readable;
        readablePart.push_back(parts.files[p]);
        compiles.push_back(std::async(std::launch::async, [&, task, readablePart] {
            return compileImage(tools, flags, task, head, {}, scratch, readablePart, codeBytes);
        }));
    }
    bool compiled = true;
    for (std::future<CompileResult>& compile : compiles) compiled = compile.get().ok && compiled;
    if (compiled) {
        std::vector<std::string> argv = {tools.compiler};
        argv.insert(argv.end(), flags.begin(), flags.end());
        if (parts.sharedLibrary) argv.insert(argv.end(), {"-shared", "-nostdlib", "-Wl,-z,defs"});
        else argv.insert(argv.end(), {"-r", "-nostdlib"});
        argv.push_back("-Wl,--allow-multiple-definition");
        argv.insert(argv.end(), objects.begin(), objects.end());
        if (parts.sharedLibrary) argv.push_back("-lgcc");
        argv.insert(argv.end(), {"-o", parts.image});
        CompileResult linked = runCompiler(tools, argv, {}, scratch, objects);
        if (linked.ok) return linked;
        support::log().debug("compiling {} whole: linking its parts failed: {}", parts.image, linked.diagnostics);
    } else {
        support::log().debug("compiling {} whole: a part of it failed", parts.image);
    }
    return whole();
}

/// Moves what a compiler made in its scratch directory to where it was asked for.
CompileResult delivered(const std::string& made, const std::string& destination) {
    if (support::moveFile(made, destination)) return CompileResult{true, {}};
    return CompileResult{false, "cannot write " + destination + "\n"};
}

const char kMathPreambleComment[] = "// metalcpu math settings: MTLMathMode, MTLMathFloatingPointFunctions\n";
const char kMathModeDefine[] = "#define METALCPU_MATH_MODE ";
/// How much of a translated file's start its preambles may take.
constexpr std::size_t kPreambleLimit = 64 * 1024;

/// The first bytes of a file: enough for the preamble of a translated file.
std::string headOf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string buffer(kPreambleLimit, '\0');
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    buffer.resize(static_cast<std::size_t>(in.gcount()));
    return buffer;
}

/// A translated file records, after its math settings, the directories its source could
/// read (SourceAccess's roots): its compile may read them too, to quote the source's lines
/// in messages, but nothing else of the user's.
const char kSourceRootLine[] = "// metalcpu source root: ";

std::string sourceRootsPreamble(const std::vector<std::filesystem::path>& roots) {
    std::string lines;
    for (const std::filesystem::path& root : roots)
        if (root.string().find('\n') == std::string::npos) lines += kSourceRootLine + root.string() + "\n";
    return lines;
}

/// The roots recorded by sourceRootsPreamble() in the preamble at the start of `translatedCpp`.
std::vector<std::string> recordedSourceRoots(const std::string& translatedCpp) {
    std::vector<std::string> roots;
    std::istringstream in(translatedCpp);
    for (std::string line; std::getline(in, line) && (line.rfind("//", 0) == 0 || line.rfind("#define ", 0) == 0);)
        if (line.rfind(kSourceRootLine, 0) == 0 && line.size() > sizeof kSourceRootLine && line[sizeof kSourceRootLine - 1] == '/')
            roots.push_back(line.substr(sizeof kSourceRootLine - 1));
    return roots;
}

} // namespace

std::vector<std::string> mathModeFlags(MathMode mode) {
    switch (mode) {
    // Metal's fast math never reassociates: sums are added in the order written (a stencil or
    // a reduction gives the GPU's result), where GCC's -ffast-math regroups them
    // ((x + big) - big becomes x; loops of sums are vectorised in another order). Contraction
    // into fma stays allowed, as on the GPU (it only happens where the target has fma).
    case MathMode::Fast:
        return {"-ffast-math", "-fno-associative-math", "-ffp-contract=fast"};
    case MathMode::Relaxed:
        // Fast math that keeps infinities and NaNs (no __FAST_MATH__ then).
        return {"-ffast-math", "-fno-associative-math", "-ffp-contract=fast", "-fno-finite-math-only"};
    case MathMode::Safe:
        break;
    }
    // IEEE 754 arithmetic: no reassociation, no contraction into fma, NaN, infinities and
    // signed zeros honoured. Kernels have no errno, so math functions need not set it.
    return {"-fno-math-errno", "-ffp-contract=off"};
}

std::string mathSettingsPreamble(MathMode mode, MathFunctions functions) {
    return std::string(kMathPreambleComment) + kMathModeDefine +
           std::to_string(static_cast<int>(mode)) + "\n#define METALCPU_MATH_FP32_FUNCTIONS " +
           std::to_string(static_cast<int>(functions)) + "\n";
}

MathMode recordedMathMode(const std::string& translatedCpp) {
    // Only the preamble at the very start counts: an embedded validation flavour carries
    // its own further on.
    const std::string prefix = std::string(kMathPreambleComment) + kMathModeDefine;
    if (translatedCpp.compare(0, prefix.size(), prefix) != 0) return MathMode::Fast;
    int value = -1;
    std::from_chars(translatedCpp.data() + prefix.size(), translatedCpp.data() + translatedCpp.size(), value);
    switch (value) {
    case static_cast<int>(MathMode::Safe):
        return MathMode::Safe;
    case static_cast<int>(MathMode::Relaxed):
        return MathMode::Relaxed;
    default:
        return MathMode::Fast;
    }
}

std::string KernelCompileSettings::key() const {
    support::Hasher hasher;
    for (const auto* list : {&includeDirectories, &quoteDirectories, &systemDirectories, &forcedIncludes, &macros,
                             &undefinedMacros}) {
        for (const std::string& item : *list) hasher.add(item).add(std::string_view("\0", 1));
        hasher.add("|");
    }
    hasher.add(static_cast<std::uint64_t>(languageVersion))
        .add(static_cast<std::uint64_t>(mathMode))
        .add(static_cast<std::uint64_t>(mathFunctions));
    return hasher.hex();
}

namespace {

/// The C++ lines that define `macro` (replacing the prelude's default) as `variable`, a
/// string holding `text`: a raw string literal whose delimiter does not occur in the text.
std::string embedSource(const std::string& macro, const std::string& variable, const std::string& text) {
    std::string delimiter = "mcv";
    for (int n = 0; text.find(")" + delimiter + "\"") != std::string::npos; ++n) delimiter = "mcv" + std::to_string(n);
    return "#undef " + macro + "\n#define " + macro + " " + variable + "\nstatic const char " + variable + "[] = R\"" +
           delimiter + "(" + text + ")" + delimiter + "\";\n";
}

/// What the shader-validation flavour's translation has to say beyond the plain one's, as
/// warnings (accesses it cannot check; a translation that failed, which leaves the file's
/// kernels without validation): the plain compile succeeds either way.
std::string validationDiagnostics(const msl::Translation& plain, const msl::Translation& validation) {
    std::vector<msl::Diagnostic> extra;
    for (msl::Diagnostic d : validation.diagnostics) {
        const bool inPlain = std::any_of(plain.diagnostics.begin(), plain.diagnostics.end(), [&](const msl::Diagnostic& p) {
            return p.format() == d.format();
        });
        if (inPlain) continue;
        if (d.severity == msl::Diagnostic::Severity::Error) {
            d.severity = msl::Diagnostic::Severity::Warning;
            d.message = std::string(kValidationUnavailable) + d.message;
        }
        extra.push_back(std::move(d));
    }
    return msl::formatDiagnostics(extra, kDiagnosticsLimit);
}

} // namespace

std::string insertAfterPrelude(const std::string& translatedCpp, const std::string& lines) {
    const std::size_t at = translatedCpp.find(msl::kPreludeInclude);
    if (at == std::string::npos) return translatedCpp;
    const std::size_t after = at + msl::kPreludeInclude.size();
    return translatedCpp.substr(0, after) + lines + translatedCpp.substr(after);
}

std::string embedValidationSource(const std::string& validationCpp) {
    return embedSource("METALCPU_VALIDATION_SOURCE", "metalcpu_validation_source", validationCpp);
}

namespace {
/// The first line of a validationFailureSource(); each line of the reason follows as an #error.
constexpr std::string_view kValidationFailed =
    "#error metalcpu: this file's shader-validation translation failed, so it has no instrumented flavour:\n";
} // namespace

std::string validationFailureSource(const std::string& reason) {
    std::string text(kValidationFailed);
    std::istringstream lines(reason);
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) text += "#error " + line + "\n";
    return text;
}

std::optional<std::string> validationFailureReason(std::string_view validationSource) {
    if (!validationSource.starts_with(kValidationFailed)) return std::nullopt;
    std::string reason;
    std::istringstream lines{std::string(validationSource.substr(kValidationFailed.size()))};
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with("#error ")) reason += line.substr(7) + "\n";
    return reason;
}

std::string embedSpecialisationSource(const std::string& translatedCpp) {
    return embedSource("METALCPU_SPECIALISATION_SOURCE", "metalcpu_specialisation_source", translatedCpp);
}

namespace {

/// A source preprocessed for translation, and what may be read while translating it.
struct Preprocessed {
    CompileResult result;
    std::string text;
    std::optional<msl::SourceAccess> access;
};

/// Files the preprocessor read that belong to metalcpu, not the user: the standard
/// library's stubs (in the cache, in a directory named after metalcpu's version, which a
/// cache cleaner or an upgrade removes) and the scratch directory. A depfile naming them
/// would stop make after the next upgrade.
bool isMetalcpuFile(const std::string& file, const Toolchain& tools, const Scratch& scratch) {
    const std::string absolute = absoluteIn({}, file);
    for (const std::string& root : {tools.stdlibRoot, scratch.path()})
        if (!root.empty() && (absolute == root || absolute.rfind(root + "/", 0) == 0)) return true;
    return false;
}

/// The host names of a translation's kernels, in its order.
std::vector<std::string> hostNames(const msl::Translation& translation) {
    std::vector<std::string> names;
    for (const msl::KernelInfo& k : translation.kernels) names.push_back(k.hostName);
    return names;
}

Preprocessed preprocess(const std::string& sourcePath, const std::string& workingDirectory,
                        const KernelCompileSettings& settings, const BuildOptions& build) {
    Preprocessed out;
    std::string error;
    std::shared_ptr<const Toolchain> tools = toolchain(&error);
    if (!tools) {
        out.result = missingToolchain(error);
        return out;
    }

    // The preprocessor may open only files inside the source's directory and the include
    // directories (the stubs first): checked before it runs (compiler/source_access.h).
    // The search path SourceAccess follows holds every directory of the preprocessor's
    // ("quoted" ones too): each is a root, so the order in which they are tried cannot let a
    // file outside them in.
    std::vector<std::string> searchPath = settings.quoteDirectories;
    searchPath.push_back(tools->stubDir);
    searchPath.insert(searchPath.end(), settings.includeDirectories.begin(), settings.includeDirectories.end());
    searchPath.insert(searchPath.end(), settings.systemDirectories.begin(), settings.systemDirectories.end());
    out.access.emplace(sourcePath, workingDirectory, searchPath, settings.forcedIncludes);
    std::vector<msl::Diagnostic> refusals = out.access->check();
    if (!build.sourceName.empty())
        for (msl::Diagnostic& d : refusals)
            if (d.file == sourcePath) d.file = build.sourceName;
    if (std::string refused = msl::formatDiagnostics(refusals, kDiagnosticsLimit); !refused.empty()) {
        out.result = CompileResult{false, refused};
        return out;
    }

    // -w unless warnings are wanted: those of this pass (`#warning`, a macro redefined,
    // `#pragma once in main file`) are the user's, but newLibrary(source) shows none.
    std::vector<std::string> argv = {tools->compiler, "-E", "-x", "c++", "-std=c++20", "-nostdinc"};
    if (build.warnings) argv.insert(argv.end(), build.warningFlags.begin(), build.warningFlags.end());
    else argv.push_back("-w");
    for (const std::string& dir : settings.quoteDirectories) argv.push_back("-iquote" + dir);
    argv.push_back("-I" + tools->stubDir);
    for (const std::string& dir : settings.includeDirectories) argv.push_back("-I" + dir);
    for (const std::string& dir : settings.systemDirectories) argv.push_back("-isystem" + dir);
    argv.push_back("-D__METAL_VERSION__=" + std::to_string(settings.languageVersion));
    argv.push_back("-D__METAL_MACOS__");
    // Apple's compiler defines __METAL__ too; headers shared by host and kernels test it
    // (PyTorch's c10/metal: `#ifdef __METAL__ ... constant constexpr`).
    argv.push_back("-D__METAL__");
    // <metal_stdlib> is a stub in this pass, so its macros that sources test with #if are
    // given here too: MLX and llama.cpp pick `typedef bfloat bfloat16_t;` by __HAVE_BFLOAT__.
    argv.push_back("-D__HAVE_BFLOAT__");
    // Metal 4 defines __HAVE_TENSOR__; ggml and PyTorch pick their tensor path by it.
    if (settings.languageVersion >= 400) argv.push_back("-D__HAVE_TENSOR__");
    // The same math flags as the compile, for code that tests __FAST_MATH__ and friends.
    for (const std::string& flag : mathModeFlags(settings.mathMode)) argv.push_back(flag);
    for (const std::string& macro : settings.macros) argv.push_back("-D" + macro);
    for (const std::string& macro : settings.undefinedMacros) argv.push_back("-U" + macro);
    for (const std::string& file : settings.forcedIncludes) argv.insert(argv.end(), {"-include", file});
    // Into files of its own, of bounded size, not a pipe: a macro that expands without end
    // would otherwise fill this process's memory.
    Scratch scratch;
    const std::string preprocessedPath = scratch.file("preprocessed.ii"), depsPath = scratch.file("dependencies.d");
    if (build.dependencies) argv.insert(argv.end(), {"-MD", "-MF", depsPath, "-MT", "source"});
    argv.insert(argv.end(), {sourcePath, "-o", preprocessedPath});
    // The preprocessor reads inside the roots only, also where a name is made by macros
    // (a computed include, a pasted __has_include) and the front end cannot check it first.
    std::vector<std::string> roots;
    for (const std::filesystem::path& root : out.access->roots()) roots.push_back(root.string());
    roots.push_back(absoluteIn(workingDirectory, sourcePath));
    for (const std::string& dir : searchPath) roots.push_back(absoluteIn(workingDirectory, dir));
    const std::uint64_t sourceLimit = megabytes(support::config().compileSourceLimit);
    CompileResult preprocessing = runCompiler(*tools, argv, workingDirectory, scratch, roots, sourceLimit);
    // Writing past RLIMIT_FSIZE fails, so a file at the limit is one that was stopped there.
    std::error_code missing;
    const bool tooLarge = sourceLimit && std::filesystem::file_size(preprocessedPath, missing) >= sourceLimit && !missing;
    std::optional<std::string> preprocessed = tooLarge ? std::nullopt : support::readFile(preprocessedPath);
    if (tooLarge) {
        out.result = CompileResult{false, "error: the preprocessed source of " + sourcePath + " exceeds its limit of " +
                                              std::to_string(support::config().compileSourceLimit) +
                                              " MiB: does a macro expand without end? (METALCPU_COMPILE_SOURCE_LIMIT "
                                              "raises the limit; 0 removes it)\n"};
        return out;
    }
    if (!preprocessing.ok) {
        out.result = preprocessing;
        return out;
    }
    if (!preprocessed) {
        out.result = CompileResult{false, "cannot read " + preprocessedPath + "\n"};
        return out;
    }
    if (build.dependencies) {
        std::optional<std::string> rule = support::readFile(depsPath);
        if (!rule) {
            out.result = CompileResult{false, "cannot read " + depsPath + "\n"};
            return out;
        }
        build.dependencies->clear();
        for (std::string& file : readMakePrerequisites(*rule))
            if (!isMetalcpuFile(inDirectory(workingDirectory, file), *tools, scratch)) build.dependencies->push_back(std::move(file));
    }
    out.result = CompileResult{true, userMessages(preprocessing.diagnostics, {tools->stdlibRoot, scratch.path()})};
    out.text = std::move(*preprocessed);
    return out;
}

} // namespace

CompileResult preprocessFile(const std::string& sourcePath, const std::string& workingDirectory,
                             const KernelCompileSettings& settings, std::string* preprocessed,
                             const BuildOptions& build) {
    Preprocessed made = preprocess(sourcePath, workingDirectory, settings, build);
    if (made.result.ok) *preprocessed = std::move(made.text);
    return made.result;
}

unsigned interleaveLanesSetting() {
    const int lanes = support::config().interleaveLanes;
    if (lanes >= 0 && lanes <= 16) return static_cast<unsigned>(lanes);
    static std::once_flag warned;
    std::call_once(warned, [lanes] {
        support::log().warn("METALCPU_INTERLEAVE_LANES={} is not 0 to 16; the front end chooses each kernel's lanes", lanes);
    });
    return 0;
}

CompileResult translateFile(const std::string& sourcePath, const std::string& workingDirectory,
                            const KernelCompileSettings& settings, const std::string& cppPath,
                            const BuildOptions& build) {
    Preprocessed preprocessed = preprocess(sourcePath, workingDirectory, settings, build);
    if (!preprocessed.result.ok) return preprocessed.result;
    const msl::SourceAccess& access = *preprocessed.access;

    msl::TranslateOptions options;
    options.mainFile = build.sourceName.empty() ? sourcePath : build.sourceName;
    const std::string keyDigits = support::Hasher().add(options.mainFile).hex().substr(0, 11);
    std::from_chars(keyDigits.data(), keyDigits.data() + keyDigits.size(), options.fileKey, 16);
    // The preprocessor keeps lines but not the spacing within them; the original files give
    // every token its column back, so messages point at the right place.
    options.allowsFile = [&access](const std::string& file) { return access.allows(file); };
    options.readOriginalSource = [&access](const std::string& file) { return access.read(file); };
    options.tokenLimit = static_cast<std::size_t>(support::config().compileTokenLimit > 0 ? support::config().compileTokenLimit : 0);
    options.interleaveThreads = support::config().interleaveThreads != 0;
    options.interleaveLanes = interleaveLanesSetting();
    msl::Translation translation = msl::translate(preprocessed.text, options);
    std::string diagnostics = preprocessed.result.diagnostics;
    diagnostics += msl::formatDiagnostics(translation.diagnostics, kDiagnosticsLimit);
    if (!translation.ok) return CompileResult{false, diagnostics};
    // Why a barrier kernel stays a coroutine or on fibers, for whoever tunes it (the pipeline's
    // own log line names the lowering; a library loaded from the cache is not translated).
    for (const msl::KernelInfo& k : translation.kernels)
        if (!k.workItemLoopsRefusal.empty())
            support::log().debug("kernel '{}' is not split into work-item loops: {}", k.hostName, k.workItemLoopsRefusal);
    for (const msl::KernelInfo& k : translation.kernels) {
        if (k.lockstepPoints.empty()) continue;
        std::string places;
        for (const std::string& p : k.lockstepPoints) places += (places.empty() ? "" : ", ") + p;
        support::log().debug("kernel '{}' keeps its SIMD-groups in lockstep before {} store(s) to threadgroup "
                             "memory in some lanes: {}", k.hostName, k.lockstepPoints.size(), places);
    }
    for (const msl::KernelInfo& k : translation.kernels) {
        if (k.interleavesThreads)
            support::log().debug("kernel '{}' runs its threads interleaved in its uniform loops, {} at a time",
                                 k.hostName, k.interleavedLanes);
        else if (!k.interleavingRefusal.empty())
            support::log().debug("kernel '{}' does not interleave its threads: {}", k.hostName, k.interleavingRefusal);
    }
    // The instrumented twin for shader validation travels inside the library as text and is
    // compiled only if a validated pipeline is ever made from it. Both start with the math
    // settings, which the compile of each reads back.
    std::string preamble = mathSettingsPreamble(settings.mathMode, settings.mathFunctions);
    // The stdlib headers are read by the compile of the translation, which -D never reaches:
    // what they test is defined here (<metal_logging> exists from MSL 3.2, and logs only
    // with enableLogging).
    preamble += "#define __METAL_VERSION__ " + std::to_string(settings.languageVersion) + "\n";
    if (std::find(settings.macros.begin(), settings.macros.end(), kEnableLoggingMacro) != settings.macros.end())
        preamble += std::string("#define ") + kEnableLoggingMacro + " 1\n";
    const std::string head = preamble + kernelSelectorsPreamble(hostNames(translation)) + sourceRootsPreamble(access.roots());
    options.validation = true;
    msl::Translation validation = msl::translate(preprocessed.text, options);
    diagnostics += validationDiagnostics(translation, validation);
    // A file with function constants also carries its own text, which the runtime compiles
    // again with their values (jit/specialisation.h).
    std::string embedded;
    if (translation.hasFunctionConstants) embedded += embedSpecialisationSource(head + translation.cpp);
    if (validation.ok) {
        embedded += embedValidationSource(preamble + kernelSelectorsPreamble(hostNames(validation)) + validation.cpp);
    } else {
        std::vector<msl::Diagnostic> errors;
        for (const msl::Diagnostic& d : validation.diagnostics)
            if (d.severity == msl::Diagnostic::Severity::Error) errors.push_back(d);
        embedded += embedValidationSource(validationFailureSource(msl::formatDiagnostics(errors, kDiagnosticsLimit)));
    }
    translation.cpp = head + insertAfterPrelude(translation.cpp, embedded);
    if (!support::writeFileAtomically(cppPath, translation.cpp))
        return CompileResult{false, "cannot write " + cppPath + "\n"};
    return CompileResult{true, diagnostics};
}

std::vector<std::string> kernelCodeFlags(MathMode mode, const std::string& level, const BuildOptions& build) {
    return codeFlags(mode, Target{level}, build);
}

CompileResult compileTranslation(const std::string& cppPath, const std::string& workingDirectory,
                                 const std::string& outputPath, bool sharedLibrary, const std::string& cacheKey,
                                 const BuildOptions& build) {
    std::string error;
    std::shared_ptr<const Toolchain> tools = toolchain(&error);
    if (!tools) return missingToolchain(error);
    const std::string head = headOf(inDirectory(workingDirectory, cppPath));
    const std::optional<std::string> whole = support::readFile(inDirectory(workingDirectory, cppPath));
    const std::uint64_t codeBytes = whole ? translatedCodeBytes(*whole) : 0;
    std::vector<Target> targets = targetsOf(build);
    if (build.syntaxOnly) targets.resize(1);
    std::vector<std::string> readable = recordedSourceRoots(head);
    readable.insert(readable.end(), {absoluteIn(workingDirectory, cppPath), tools->includeDir});
    Scratch scratch;
    // A big file of several kernels is compiled in parts when there are CPUs for them
    // (compile_parts.h); not when its warnings are shown, which each part would repeat.
    std::vector<std::string> partFiles;
    if (whole && !build.syntaxOnly && !build.warnings)
        for (const std::vector<std::string>& part : compileParts(*whole, targets.size(), codeBytes, compileJobs())) {
            partFiles.push_back(scratch.file(("part" + std::to_string(partFiles.size()) + ".cpp").c_str()));
            if (!support::writeFileAtomically(partFiles.back(), partSource(*whole, part, partFiles.size() == 1)))
                return CompileResult{false, "cannot write " + partFiles.back() + "\n"};
        }
    // One compiler process per level (per part of it), all at once: on two cores the three
    // default levels take about 2.9 times one level's CPU time but 1.6 times its wall time
    // (docs/tools.md).
    std::vector<ImageSource> images;
    std::vector<std::future<CompileResult>> compiles;
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const std::string image = scratch.file((std::to_string(i) + (sharedLibrary ? ".so" : ".o")).c_str());
        images.push_back(ImageSource{targets[i].level, image});
        std::vector<std::string> flags = codeFlags(recordedMathMode(head), targets[i], build);
        // The standard library is a system directory: its own code warns about nothing the
        // user wrote.
        flags.insert(flags.end(), {"-isystem", tools->includeDir});
        std::vector<std::string> task;
        if (build.syntaxOnly) task = {"-fsyntax-only", cppPath};
        else if (sharedLibrary) task = {"-shared", "-nostdlib", "-Wl,-z,defs", cppPath, "-lgcc", "-o", image};
        else task = {"-c", cppPath, "-o", image};
        const ImageInParts parts{partFiles, std::to_string(i), image, sharedLibrary};
        compiles.push_back(std::async(std::launch::async, [&, flags, task, parts] {
            const auto compileWhole = [&] {
                return compileImage(*tools, flags, task, head, workingDirectory, scratch, readable, codeBytes);
            };
            if (parts.files.empty()) return compileWhole();
            return compileImageInParts(*tools, flags, parts, head, scratch, readable, codeBytes, compileWhole);
        }));
    }
    // The first level's messages are the file's (every level warns alike); another level's
    // only when it alone fails.
    CompileResult compiled = compiles[0].get();
    for (std::size_t i = 1; i < compiles.size(); ++i) {
        CompileResult result = compiles[i].get();
        if (compiled.ok && !result.ok)
            compiled = CompileResult{false, "error: compiling for " + targets[i].level + ":\n" + result.diagnostics};
    }
    const std::string messages =
        userMessages(compiled.diagnostics, {cppPath, absoluteIn(workingDirectory, cppPath), tools->includeDir});
    if (!compiled.ok) return CompileResult{false, messages};
    if (build.syntaxOnly) return CompileResult{true, messages};
    const std::string made = scratch.file(sharedLibrary ? "library.metallib" : "object.air");
    std::string problem = sharedLibrary ? writeLibraryFile(made, images, cacheKey) : writeObjectBundle(made, images);
    CompileResult result = problem.empty() ? delivered(made, inDirectory(workingDirectory, outputPath))
                                           : CompileResult{false, "error: " + problem + "\n"};
    result.diagnostics = messages + result.diagnostics;
    return result;
}

namespace {

/// The first line of a file that keeps which warning flags a compiler knows: a file without it
/// (of another format, or damaged) is not read, and the compiler is asked again.
constexpr std::string_view kWarningAnswerHeader = "metalcpu warning flags 1\n";

/// Where what the compiler of `tools` answered about `flags` is kept: a file in the cache's
/// warning-flags/ named by a hash of the compiler's identity (path, size and time stamp: an
/// upgraded compiler is asked again), metalcpu's version and sources, and the flags in their
/// order. Empty when that directory cannot be used; then the compiler is asked every time.
std::string warningAnswerPath(const Toolchain& tools, const std::vector<std::string>& flags) {
    std::string error;
    if (!prepareCacheSubdirectory(tools.warningFlagsDir, &error)) {
        support::log().debug("warning flags are not kept: {}", error);
        return {};
    }
    support::Hasher key;
    key.add(tools.identity).add(libraryVersion()).add(translatorIdentity());
    for (const std::string& flag : flags) key.add(flag);
    return tools.warningFlagsDir + "/" + key.hex();
}

/// The kept answer at `path`: for each of `flags`, whether the compiler knows it. nullopt when
/// there is none, or it cannot be read, or it is about other flags; the compiler is then asked.
/// Whatever the file says, only the flags the user gave can reach the compiler.
std::optional<std::vector<bool>> keptWarningAnswer(const std::string& path, const std::vector<std::string>& flags) {
    std::optional<std::string> text = support::readFile(path);
    if (!text || !text->starts_with(kWarningAnswerHeader)) return std::nullopt;
    std::istringstream lines(text->substr(kWarningAnswerHeader.size()));
    std::vector<bool> known;
    for (std::string line; std::getline(lines, line);) {
        const std::size_t i = known.size();
        if (i < flags.size() && line == "known " + flags[i]) known.push_back(true);
        else if (i < flags.size() && line == "unknown " + flags[i]) known.push_back(false);
        else return std::nullopt;
    }
    if (known.size() != flags.size()) return std::nullopt;
    return known;
}

/// Asks the compiler which of `flags` it knows: one run on an empty file. nullopt when it gave
/// no answer (it could not run, or failed without naming a flag).
std::optional<std::vector<bool>> askWarningFlags(const Toolchain& tools, const std::vector<std::string>& flags) {
    Scratch scratch;
    const std::string empty = scratch.file("empty.cpp");
    if (!support::writeFileAtomically(empty, "")) return std::nullopt;
    std::vector<std::string> argv = {tools.compiler, "-x", "c++", "-fsyntax-only"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.push_back(empty);
    support::log().debug("asking {} which of {} warning flags it knows", tools.compiler, flags.size());
    CompileResult probe = runCompiler(tools, argv, {}, scratch, {empty});
    std::vector<bool> known;
    for (const std::string& flag : flags) {
        // GCC: "unrecognized command-line option '-Wx'" (an error); Clang: "unknown warning
        // option '-Wx'"; GCC for a C-only warning: "command-line option '-Wx' is valid for C".
        bool mentioned = false;
        for (const char* quote : {"'", "\xE2\x80\x99"})
            mentioned = mentioned || probe.diagnostics.find(flag + quote) != std::string::npos;
        known.push_back(!mentioned);
    }
    if (!probe.ok && std::find(known.begin(), known.end(), false) == known.end()) return std::nullopt;
    return known;
}

} // namespace

std::vector<std::string> knownWarningFlags(const std::vector<std::string>& flags, std::vector<std::string>* unknown) {
    std::string error;
    std::shared_ptr<const Toolchain> tools = toolchain(&error);
    if (flags.empty() || !tools) return flags;
    // A build runs metal once per source with the same flags: the compiler is asked once.
    const std::string kept = warningAnswerPath(*tools, flags);
    std::optional<std::vector<bool>> known = kept.empty() ? std::nullopt : keptWarningAnswer(kept, flags);
    if (!known) {
        // Without an answer every flag goes to the compiler, which then says what is wrong.
        known = askWarningFlags(*tools, flags);
        if (!known) return flags;
        std::string answer(kWarningAnswerHeader);
        for (std::size_t i = 0; i < flags.size(); ++i) answer += ((*known)[i] ? "known " : "unknown ") + flags[i] + "\n";
        // Not kept (a full disk): asked again next time.
        if (!kept.empty()) support::writeFileAtomically(kept, answer);
    }
    std::vector<std::string> result;
    for (std::size_t i = 0; i < flags.size(); ++i) {
        if ((*known)[i]) result.push_back(flags[i]);
        else if (unknown) unknown->push_back(flags[i]);
    }
    return result;
}

namespace {

/// The levels every one of `objects` was compiled for, in the first one's order; empty with
/// the levels of each in `error` when they have none in common.
std::vector<std::string> commonLevels(const std::vector<ObjectKernels>& objects, std::string* error) {
    std::vector<std::string> common;
    for (const ObjectImage& image : objects.front().images) common.push_back(image.level);
    for (const ObjectKernels& object : objects)
        std::erase_if(common, [&](const std::string& level) {
            return std::none_of(object.images.begin(), object.images.end(),
                                [&](const ObjectImage& image) { return image.level == level; });
        });
    if (common.empty())
        for (const ObjectKernels& object : objects) {
            *error += *error == "" ? "error: the objects were compiled for no instruction-set level in common:" : ";";
            for (std::size_t i = 0; i < object.images.size(); ++i)
                *error += (i == 0 ? " " + object.name + " for " : ", ") + object.images[i].level;
        }
    return common;
}

} // namespace

CompileResult linkLibrary(const std::vector<std::string>& objects, const std::string& outputPath,
                          const std::string& cacheKey, const std::vector<std::string>& objectNames) {
    std::string error;
    std::shared_ptr<const Toolchain> tools = toolchain(&error);
    if (!tools) return missingToolchain(error);
    std::vector<ObjectKernels> kernels;
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const std::string& name = i < objectNames.size() ? objectNames[i] : objects[i];
        std::optional<LinkInput> input = readLinkInput(objects[i], name, &error);
        if (!input) return CompileResult{false, "error: " + error + "\n"};
        kernels.insert(kernels.end(), input->objects.begin(), input->objects.end());
    }
    if (std::string duplicates = duplicateKernels(kernels); !duplicates.empty()) {
        std::string text;
        std::istringstream lines(duplicates);
        for (std::string line; std::getline(lines, line);) text += "error: " + line + "\n";
        return CompileResult{false, text};
    }
    if (kernels.empty()) return CompileResult{false, "error: there is nothing to link\n"};
    const std::vector<std::string> levels = commonLevels(kernels, &error);
    if (levels.empty()) return CompileResult{false, error + "\n"};
    // Each level's objects (archive members among them) as files of their own, linked by one
    // linker process per level, all at once.
    Scratch scratch;
    std::vector<ImageSource> images;
    std::vector<std::future<CompileResult>> links;
    for (std::size_t l = 0; l < levels.size(); ++l) {
        std::vector<std::string> argv = {tools->compiler, "-shared", "-nostdlib", "-Wl,-z,defs"};
        std::vector<std::string> readable;
        for (std::size_t o = 0; o < kernels.size(); ++o) {
            const std::string path = scratch.file((std::to_string(l) + "-" + std::to_string(o) + ".o").c_str());
            auto image = std::find_if(kernels[o].images.begin(), kernels[o].images.end(),
                                      [&](const ObjectImage& i) { return i.level == levels[l]; });
            if (!support::writeFileAtomically(path, image->bytes)) return CompileResult{false, "cannot write " + path + "\n"};
            argv.push_back(path);
            readable.push_back(path);
        }
        images.push_back(ImageSource{levels[l], scratch.file((std::to_string(l) + ".so").c_str())});
        argv.insert(argv.end(), {"-lgcc", "-o", images.back().path});
        links.push_back(std::async(std::launch::async, [&, argv, readable] {
            return runCompiler(*tools, argv, {}, scratch, readable);
        }));
    }
    CompileResult linked{true, {}};
    for (std::future<CompileResult>& link : links) {
        CompileResult result = link.get();
        if (linked.ok && !result.ok) linked = result;
    }
    if (!linked.ok) return linked;
    const std::string made = scratch.file("library.metallib");
    if (std::string problem = writeLibraryFile(made, images, cacheKey); !problem.empty())
        return CompileResult{false, "error: " + problem + "\n"};
    return delivered(made, outputPath);
}

} // namespace metalcpu::jit
