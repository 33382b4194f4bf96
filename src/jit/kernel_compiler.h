#pragma once

#include <string>
#include <vector>

namespace metalcpu::jit {

/// How kernels are compiled: what MTL::CompileOptions and the `metal` tool's flags say.
struct KernelCompileSettings {
    std::vector<std::string> includeDirectories;
    std::vector<std::string> macros; ///< "NAME" or "NAME=VALUE"
    int languageVersion = 320;       ///< the value of __METAL_VERSION__
    bool fastMath = true;            ///< Metal compiles with fast math unless told otherwise

    /// Everything above as one string, for cache keys.
    std::string key() const;
};

/// The result of one compilation step. `diagnostics` is what a person should read: the
/// compiler's messages, pointing at the .metal file (or "program_source") and line.
struct CompileResult {
    bool ok = false;
    std::string diagnostics;
};

/// Preprocesses and translates one MSL file into C++ written to `cppPath`, with the file's
/// instrumented flavour for shader validation embedded (embedValidationSource()).
/// `sourcePath` is opened relative to `workingDirectory` and is the name diagnostics use.
/// With `depfile`, also writes make-style dependencies of `depTarget` on every header.
CompileResult translateFile(const std::string& sourcePath, const std::string& workingDirectory,
                            const KernelCompileSettings& settings, const std::string& cppPath,
                            const std::string& depfile = {}, const std::string& depTarget = {});

/// The C++ lines that put `validationCpp` (a file translated with shader validation) into a
/// translated file as METALCPU_VALIDATION_SOURCE, i.e. its mc_module::validation_source.
std::string embedValidationSource(const std::string& validationCpp);

/// Compiles translated C++ into an object file (an .air) or, with `sharedLibrary`, straight
/// into a kernel library (a .metallib).
CompileResult compileTranslation(const std::string& cppPath, const std::string& workingDirectory,
                                 const std::string& outputPath, bool sharedLibrary);

/// Links .air objects into a .metallib.
CompileResult linkLibrary(const std::vector<std::string>& objects, const std::string& outputPath);

} // namespace metalcpu::jit
