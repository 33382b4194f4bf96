// The first step of translating an MSL file: the host compiler's preprocessor, confined to the
// directories the source may read (compiler/source_access.h), into text for the front end.
#pragma once

#include "compiler/source_access.h"
#include "jit/kernel_compiler.h"

#include <optional>
#include <string>

namespace metalcpu::jit {

/// A source preprocessed for translation, and what may be read while translating it.
struct Preprocessed {
    CompileResult result;
    std::string text;
    std::optional<msl::SourceAccess> access;
};

/// Preprocesses `sourcePath` (opened relative to `workingDirectory`) with `settings`' include
/// directories and macros; the standard library's headers stay #include lines of their own.
Preprocessed preprocess(const std::string& sourcePath, const std::string& workingDirectory,
                        const KernelCompileSettings& settings, const BuildOptions& build);

} // namespace metalcpu::jit
