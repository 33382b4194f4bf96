#include "jit/compile_parts.h"
#include "jit/kernel_compiler.h"
#include "jit/preprocess.h"
#include "jit/translated_file.h"
#include "compiler/translate.h"
#include "support/config.h"
#include "support/files.h"
#include "support/hash.h"
#include "support/log.h"

#include <algorithm>
#include <charconv>
#include <mutex>

namespace metalcpu::jit {
namespace {

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

/// The host names of a translation's kernels, in its order.
std::vector<std::string> hostNames(const msl::Translation& translation) {
    std::vector<std::string> names;
    for (const msl::KernelInfo& k : translation.kernels) names.push_back(k.hostName);
    return names;
}

} // namespace

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
    options.allowsLineName = [&access](const std::string& file) { return access.allowsLineName(file); };
    options.readOriginalSource = [&access](const std::string& file) { return access.read(file); };
    options.tokenLimit = static_cast<std::size_t>(support::config().compileTokenLimit > 0 ? support::config().compileTokenLimit : 0);
    options.interleaveThreads = support::config().interleaveThreads != 0;
    options.interleaveLanes = interleaveLanesSetting();
    options.laneVectors = support::config().laneVectors != 0 && !build.withoutLaneVectors;
    // A file whose machine code is deferred is compiled one kernel at a time: each kernel's
    // compile then leaves out the code only other kernels reach.
    options.selectKernelsAbove = build.deferCodeAbove;
    msl::Translation translation = msl::translate(preprocessed.text, options);
    if (build.hasLaneVectors)
        *build.hasLaneVectors = std::any_of(translation.kernels.begin(), translation.kernels.end(),
                                            [](const msl::KernelInfo& k) { return k.runsLaneVectors; });
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
        if (k.runsLaneVectors)
            support::log().debug("kernel '{}' runs its threads as vector lanes, {} at a time", k.hostName, k.interleavedLanes);
        else if (!k.laneVectorRefusal.empty())
            support::log().debug("kernel '{}' does not run its threads as vector lanes: {}", k.hostName, k.laneVectorRefusal);
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
    // A file of many kernels compiled at run time is compiled as a reflection image, which
    // carries its own text too: each kernel's machine code is compiled from it when a pipeline
    // first needs the kernel (KernelLibrary::kernelCode()).
    const bool deferred = build.deferCodeAbove > 0 && translation.kernels.size() > build.deferCodeAbove;
    if (build.deferredCode) *build.deferredCode = deferred;
    std::string embedded;
    if (translation.hasFunctionConstants || deferred) embedded += embedSpecialisationSource(head + translation.cpp);
    if (validation.ok) {
        embedded += embedValidationSource(preamble + kernelSelectorsPreamble(hostNames(validation)) + validation.cpp);
    } else {
        std::vector<msl::Diagnostic> errors;
        for (const msl::Diagnostic& d : validation.diagnostics)
            if (d.severity == msl::Diagnostic::Severity::Error) errors.push_back(d);
        embedded += embedValidationSource(validationFailureSource(msl::formatDiagnostics(errors, kDiagnosticsLimit)));
    }
    if (deferred) {
        embedded += reflectionImageLines();
        support::log().debug("{} has {} kernels (more than {}): compiling their reflection now, each kernel's machine "
                             "code when a pipeline first needs it",
                             options.mainFile, translation.kernels.size(), build.deferCodeAbove);
    }
    translation.cpp = head + insertAfterPrelude(translation.cpp, embedded);
    if (!support::writeFileAtomically(cppPath, translation.cpp))
        return CompileResult{false, "cannot write " + cppPath + "\n"};
    return CompileResult{true, diagnostics};
}

CompileResult translateAndCompile(const std::string& sourcePath, const std::string& workingDirectory,
                                  const KernelCompileSettings& settings, const std::string& cppPath,
                                  const std::string& outputPath, bool sharedLibrary, const std::string& cacheKey,
                                  const BuildOptions& build) {
    bool lanes = false;
    BuildOptions withLanes = build;
    withLanes.hasLaneVectors = &lanes;
    const auto attempt = [&](const BuildOptions& options) {
        CompileResult translated = translateFile(sourcePath, workingDirectory, settings, cppPath, options);
        if (!translated.ok) return translated;
        CompileResult compiled = compileTranslation(cppPath, workingDirectory, outputPath, sharedLibrary, cacheKey, options);
        return CompileResult{compiled.ok, translated.diagnostics + compiled.diagnostics};
    };
    CompileResult result = attempt(withLanes);
    if (result.ok || !lanes) return result;
    BuildOptions withoutLanes = build;
    withoutLanes.withoutLaneVectors = true;
    CompileResult again = attempt(withoutLanes);
    if (again.ok) {
        const std::string& d = result.diagnostics;
        std::size_t error = d.find("error:");
        const std::size_t lineStart = error == std::string::npos ? 0 : d.rfind('\n', error) + 1;
        const std::string first = d.substr(lineStart, d.find('\n', lineStart) - lineStart);
        support::log().warn("the vector-lane form of {}'s kernels did not compile, so they run without it (a metalcpu "
                            "bug; METALCPU_LANE_VECTORS=0 says the same without this compile): {}",
                            build.sourceName.empty() ? sourcePath : build.sourceName, first);
        support::log().debug("the compile with vector lanes said:\n{}", result.diagnostics);
    }
    return again;
}

} // namespace metalcpu::jit
