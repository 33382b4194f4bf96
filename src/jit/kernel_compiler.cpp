#include "jit/kernel_compiler.h"

#include "compiler/source_access.h"
#include "compiler/translate.h"
#include "jit/toolchain.h"
#include "support/config.h"
#include "support/files.h"
#include "support/hash.h"
#include "support/process.h"

#include <charconv>
#include <fstream>
#include <sstream>

namespace metalcpu::jit {
namespace {

std::vector<std::string> splitFlags(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> flags;
    for (std::string flag; in >> flag;) flags.push_back(flag);
    return flags;
}

/// Flags every kernel compile shares. The kernel is freestanding C++20: no host headers,
/// no exceptions, no RTTI, no thread-safe statics (they would import from libc). Then the
/// math mode's flags, then METALCPU_KERNEL_FLAGS, which can override them.
std::vector<std::string> codeFlags(MathMode mode) {
    std::vector<std::string> flags = {"-std=c++20", "-O2", "-fPIC", "-fno-exceptions", "-fno-rtti",
                                      "-fno-threadsafe-statics", "-fno-stack-protector",
                                      "-fvisibility=hidden", "-fno-plt", "-nostdinc"};
    for (const std::string& flag : mathModeFlags(mode)) flags.push_back(flag);
    for (const std::string& extra : splitFlags(support::config().kernelFlags)) flags.push_back(extra);
    return flags;
}

/// Keeps the compiler's messages about the user's code and drops lines that would only
/// name metalcpu's temporary files.
std::string cleanDiagnostics(const std::string& output, const std::string& hidePath) {
    std::istringstream in(output);
    std::string cleaned;
    for (std::string line; std::getline(in, line);) {
        if (!hidePath.empty() && line.find(hidePath) != std::string::npos &&
            line.find("error") == std::string::npos)
            continue;
        cleaned += line;
        cleaned += '\n';
    }
    return cleaned;
}

CompileResult missingToolchain(const std::string& error) { return CompileResult{false, error + "\n"}; }

const char kMathPreambleComment[] = "// metalcpu math settings: MTLMathMode, MTLMathFloatingPointFunctions\n";
const char kMathModeDefine[] = "#define METALCPU_MATH_MODE ";
/// The preamble's length up to the mode's digit.
constexpr std::size_t kMathModeDigitAt = sizeof kMathPreambleComment - 1 + sizeof kMathModeDefine - 1;

/// The first bytes of a file: enough for the preamble of a translated file.
std::string headOf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char buffer[kMathModeDigitAt + 1];
    in.read(buffer, sizeof buffer);
    return std::string(buffer, static_cast<std::size_t>(in.gcount()));
}

} // namespace

std::vector<std::string> mathModeFlags(MathMode mode) {
    switch (mode) {
    case MathMode::Fast:
        return {"-ffast-math"};
    case MathMode::Relaxed:
        // Fast math that keeps infinities and NaNs (no __FAST_MATH__ then).
        return {"-ffast-math", "-fno-finite-math-only"};
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
    for (const std::string& dir : includeDirectories) hasher.add(dir);
    hasher.add("|");
    for (const std::string& macro : macros) hasher.add(macro);
    hasher.add(static_cast<std::uint64_t>(languageVersion))
        .add(static_cast<std::uint64_t>(mathMode))
        .add(static_cast<std::uint64_t>(mathFunctions));
    return hasher.hex();
}

std::string embedValidationSource(const std::string& validationCpp) {
    // A raw string literal whose delimiter does not occur in the text.
    std::string delimiter = "mcv";
    for (int n = 0; validationCpp.find(")" + delimiter + "\"") != std::string::npos; ++n)
        delimiter = "mcv" + std::to_string(n);
    return "#define METALCPU_VALIDATION_SOURCE metalcpu_validation_source\n"
           "static const char metalcpu_validation_source[] = R\"" +
           delimiter + "(" + validationCpp + ")" + delimiter + "\";\n";
}

CompileResult translateFile(const std::string& sourcePath, const std::string& workingDirectory,
                            const KernelCompileSettings& settings, const std::string& cppPath,
                            const std::string& depfile, const std::string& depTarget) {
    std::string error;
    std::shared_ptr<const Toolchain> tools = toolchain(&error);
    if (!tools) return missingToolchain(error);

    // The preprocessor may open only files inside the source's directory and the include
    // directories (the stubs first): checked before it runs (compiler/source_access.h).
    std::vector<std::string> searchPath = {tools->stubDir};
    searchPath.insert(searchPath.end(), settings.includeDirectories.begin(), settings.includeDirectories.end());
    const msl::SourceAccess access(sourcePath, workingDirectory, searchPath);
    if (std::string refused = msl::formatDiagnostics(access.check()); !refused.empty())
        return CompileResult{false, refused};

    // -w: the preprocessor's warnings (`#pragma once in main file`) would land in the middle
    // of its output, which is read as the kernel's text.
    std::vector<std::string> argv = {tools->compiler, "-E", "-x", "c++", "-std=c++20", "-nostdinc", "-w"};
    for (const std::string& dir : searchPath) argv.push_back("-I" + dir);
    argv.push_back("-D__METAL_VERSION__=" + std::to_string(settings.languageVersion));
    argv.push_back("-D__METAL_MACOS__");
    // The same math flags as the compile, for code that tests __FAST_MATH__ and friends.
    for (const std::string& flag : mathModeFlags(settings.mathMode)) argv.push_back(flag);
    for (const std::string& macro : settings.macros) argv.push_back("-D" + macro);
    if (!depfile.empty()) {
        argv.insert(argv.end(), {"-MD", "-MF", depfile, "-MT", depTarget.empty() ? cppPath : depTarget});
    }
    argv.push_back(sourcePath);
    support::ProcessResult preprocessed = support::runProcess(argv, workingDirectory);
    if (!preprocessed.started) return CompileResult{false, "cannot run " + tools->compiler + "\n"};
    if (preprocessed.exitCode != 0) {
        // Only the compiler's stderr is useful here, but it is interleaved with the output;
        // the messages are the lines that look like diagnostics.
        std::istringstream in(preprocessed.output);
        std::string messages;
        for (std::string line; std::getline(in, line);) {
            if (line.find(": error:") != std::string::npos || line.find(": fatal error:") != std::string::npos ||
                line.find(": warning:") != std::string::npos || line.rfind("In file included", 0) == 0)
                messages += line + "\n";
        }
        return CompileResult{false, messages.empty() ? preprocessed.output : messages};
    }

    msl::TranslateOptions options;
    options.mainFile = sourcePath;
    const std::string keyDigits = support::Hasher().add(sourcePath).hex().substr(0, 11);
    std::from_chars(keyDigits.data(), keyDigits.data() + keyDigits.size(), options.fileKey, 16);
    // The preprocessor keeps lines but not the spacing within them; the original files give
    // every token its column back, so messages point at the right place.
    options.allowsFile = [&access](const std::string& file) { return access.allows(file); };
    options.readOriginalSource = [&access](const std::string& file) { return access.read(file); };
    msl::Translation translation = msl::translate(preprocessed.output, options);
    std::string diagnostics;
    for (const msl::Diagnostic& diagnostic : translation.diagnostics) diagnostics += diagnostic.format() + "\n";
    if (!translation.ok) return CompileResult{false, diagnostics};
    // The instrumented twin for shader validation travels inside the library as text and is
    // compiled only if a validated pipeline is ever made from it. Both start with the math
    // settings, which the compile of each reads back.
    const std::string preamble = mathSettingsPreamble(settings.mathMode, settings.mathFunctions);
    options.validation = true;
    msl::Translation validation = msl::translate(preprocessed.output, options);
    if (validation.ok) translation.cpp = embedValidationSource(preamble + validation.cpp) + translation.cpp;
    translation.cpp = preamble + translation.cpp;
    if (!support::writeFileAtomically(cppPath, translation.cpp))
        return CompileResult{false, "cannot write " + cppPath + "\n"};
    return CompileResult{true, diagnostics};
}

CompileResult compileTranslation(const std::string& cppPath, const std::string& workingDirectory,
                                 const std::string& outputPath, bool sharedLibrary) {
    std::string error;
    std::shared_ptr<const Toolchain> tools = toolchain(&error);
    if (!tools) return missingToolchain(error);
    const bool relative = !workingDirectory.empty() && !cppPath.empty() && cppPath[0] != '/';
    const MathMode mode = recordedMathMode(headOf(relative ? workingDirectory + "/" + cppPath : cppPath));
    std::vector<std::string> argv = {tools->compiler, "-x", "c++"};
    for (const std::string& flag : codeFlags(mode)) argv.push_back(flag);
    argv.insert(argv.end(), {"-w", "-I" + tools->includeDir});
    if (sharedLibrary) {
        argv.insert(argv.end(), {"-shared", "-nostdlib", "-Wl,-z,defs", cppPath, "-lgcc", "-o", outputPath});
    } else {
        argv.insert(argv.end(), {"-c", cppPath, "-o", outputPath});
    }
    support::ProcessResult compiled = support::runProcess(argv, workingDirectory);
    if (!compiled.started) return CompileResult{false, "cannot run " + tools->compiler + "\n"};
    if (compiled.exitCode != 0)
        return CompileResult{false, cleanDiagnostics(compiled.output, cppPath)};
    return CompileResult{true, {}};
}

CompileResult linkLibrary(const std::vector<std::string>& objects, const std::string& outputPath) {
    std::string error;
    std::shared_ptr<const Toolchain> tools = toolchain(&error);
    if (!tools) return missingToolchain(error);
    std::vector<std::string> argv = {tools->compiler, "-shared", "-nostdlib", "-Wl,-z,defs"};
    argv.insert(argv.end(), objects.begin(), objects.end());
    argv.insert(argv.end(), {"-lgcc", "-o", outputPath});
    support::ProcessResult linked = support::runProcess(argv);
    if (!linked.started) return CompileResult{false, "cannot run " + tools->compiler + "\n"};
    if (linked.exitCode != 0) return CompileResult{false, linked.output};
    return CompileResult{true, {}};
}

} // namespace metalcpu::jit
