#include "jit/preprocess.h"

#include "jit/compiler_messages.h"
#include "jit/compiler_process.h"
#include "jit/make_dependencies.h"
#include "jit/toolchain.h"
#include "support/config.h"
#include "support/confinement.h"
#include "support/files.h"

#include <filesystem>

namespace metalcpu::jit {
namespace {

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

} // namespace

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
    const support::ConfinementSupport& confinement = support::confinementSupport();
    out.access->setCompilersConfined(confinement.landlockAbi > 0 || confinement.privateView);
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
    // SIMD-group matrices are there from Metal 2.3; MFA's storage type and MLX's steel GEMMs
    // are guarded by it, and MFA v1's async copies by __HAVE_SIMDGROUP_FUTURE__ (its header
    // then includes <metal_simdgroup_future>, which metalcpu has: metalcpu/stdlib/async_copy.h).
    if (settings.languageVersion >= 230) {
        argv.push_back("-D__HAVE_SIMDGROUP_MATRIX__");
        argv.push_back("-D__HAVE_SIMDGROUP_FUTURE__");
    }
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
    const std::string step = "preprocessing " + (build.sourceName.empty() ? sourcePath : build.sourceName);
    CompileResult preprocessing = runCompiler(*tools, argv, step, workingDirectory, scratch, roots, sourceLimit);
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


CompileResult preprocessFile(const std::string& sourcePath, const std::string& workingDirectory,
                             const KernelCompileSettings& settings, std::string* preprocessed,
                             const BuildOptions& build) {
    Preprocessed made = preprocess(sourcePath, workingDirectory, settings, build);
    if (made.result.ok) *preprocessed = std::move(made.text);
    return made.result;
}

} // namespace metalcpu::jit
