#include "jit/kernel_compiler.h"

#include "compiler/translate.h"
#include "jit/toolchain.h"
#include "support/config.h"
#include "support/files.h"
#include "support/hash.h"
#include "support/process.h"

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
/// no exceptions, no RTTI, no thread-safe statics (they would import from libc).
std::vector<std::string> codeFlags() {
    std::vector<std::string> flags = {"-std=c++20", "-O2", "-fPIC", "-fno-exceptions", "-fno-rtti",
                                      "-fno-threadsafe-statics", "-fno-stack-protector",
                                      "-fvisibility=hidden", "-fno-plt", "-nostdinc"};
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

} // namespace

std::string KernelCompileSettings::key() const {
    support::Hasher hasher;
    for (const std::string& dir : includeDirectories) hasher.add(dir);
    hasher.add("|");
    for (const std::string& macro : macros) hasher.add(macro);
    hasher.add(static_cast<std::uint64_t>(languageVersion)).add(static_cast<std::uint64_t>(fastMath));
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

    std::vector<std::string> argv = {tools->compiler, "-E", "-x", "c++", "-std=c++20", "-nostdinc",
                                     "-I" + tools->stubDir};
    for (const std::string& dir : settings.includeDirectories) argv.push_back("-I" + dir);
    argv.push_back("-D__METAL_VERSION__=" + std::to_string(settings.languageVersion));
    argv.push_back("-D__METAL_MACOS__");
    if (settings.fastMath) argv.push_back("-ffast-math");
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
    options.fileKey = std::stoull(support::Hasher().add(sourcePath).hex().substr(0, 11), nullptr, 16);
    // The preprocessor keeps lines but not the spacing within them; the original files give
    // every token its column back, so messages point at the right place.
    options.readOriginalSource = [workingDirectory](const std::string& file) -> std::optional<std::string> {
        if (file.empty() || file[0] == '<') return std::nullopt;
        std::string path = (file[0] == '/' || workingDirectory.empty()) ? file : workingDirectory + "/" + file;
        return support::readFile(path);
    };
    msl::Translation translation = msl::translate(preprocessed.output, options);
    std::string diagnostics;
    for (const msl::Diagnostic& diagnostic : translation.diagnostics) diagnostics += diagnostic.format() + "\n";
    if (!translation.ok) return CompileResult{false, diagnostics};
    // The instrumented twin for shader validation travels inside the library as text and is
    // compiled only if a validated pipeline is ever made from it.
    options.validation = true;
    msl::Translation validation = msl::translate(preprocessed.output, options);
    if (validation.ok) translation.cpp = embedValidationSource(validation.cpp) + translation.cpp;
    if (!support::writeFileAtomically(cppPath, translation.cpp))
        return CompileResult{false, "cannot write " + cppPath + "\n"};
    return CompileResult{true, diagnostics};
}

CompileResult compileTranslation(const std::string& cppPath, const std::string& workingDirectory,
                                 const std::string& outputPath, bool sharedLibrary) {
    std::string error;
    std::shared_ptr<const Toolchain> tools = toolchain(&error);
    if (!tools) return missingToolchain(error);
    std::vector<std::string> argv = {tools->compiler, "-x", "c++"};
    for (const std::string& flag : codeFlags()) argv.push_back(flag);
    argv.insert(argv.end(), {"-ffast-math", "-w", "-I" + tools->includeDir});
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
