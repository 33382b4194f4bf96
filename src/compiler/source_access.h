// Which files kernel source may make the preprocessor and the front end read: those inside
// the source's directory, the include directories and the standard library's (the roots),
// after symbolic links are resolved. Checked before the preprocessor opens anything, so that
// no message can quote a file the kernel was not allowed to include (docs/compiler.md,
// "Includes").
#pragma once

#include "compiler/translate.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace metalcpu::msl {

class SourceAccess {
public:
    /// @param mainFile the source file as the preprocessor is given it; relative names are
    ///        relative to `workingDirectory`. Its directory is a root.
    /// @param workingDirectory where the preprocessor runs; empty for this process's.
    /// @param searchPath the preprocessor's -I directories, in its order (the standard
    ///        library's stubs first). Each is a root.
    /// @param forcedIncludes the preprocessor's -include files, read before the main file's
    ///        first line: looked for in the working directory, then along `searchPath`, as
    ///        the preprocessor does. The directory each is found in is a root, as the main
    ///        file's is: the command line named them.
    SourceAccess(std::string mainFile, const std::string& workingDirectory, std::vector<std::string> searchPath,
                 const std::vector<std::string>& forcedIncludes = {});

    /// Follows every #include of the main file, and of the files it includes, along the
    /// preprocessor's search order, and reports (at the directive, in files named as the
    /// preprocessor names them) every reference that would reach outside the roots: an
    /// include, #include_next, #import or #embed whose file resolves outside them, a
    /// __has_include probe for such a file, a #line naming one (see setCompilersConfined()),
    /// #pragma GCC dependency, and computed includes and probes, which cannot be checked
    /// before preprocessing. Directives
    /// in conditional groups count whether or not the group is taken. Only files inside the
    /// roots are read.
    std::vector<Diagnostic> check() const;

    /// Says whether the compilers that read this source run confined to the roots
    /// (support/confinement.h; false until said). A `#line` name is a display name the
    /// preprocessor never opens; only a compiler's message could, to quote a line of it. A
    /// confined compiler cannot, so check() then accepts every `#line` name, as Metal does;
    /// unconfined, it refuses one made by macros and one that names an existing file outside
    /// the roots (a name of a file that does not exist here, as generators write the path of
    /// their input on another machine, is accepted either way).
    void setCompilersConfined(bool confined) { compilersConfined_ = confined; }

    /// Whether `file` (named as the preprocessor names it: relative to the working directory)
    /// lies inside a root once symbolic links and `..` are resolved. A file that does not exist
    /// is judged by where it would be.
    bool allows(const std::string& file) const;

    /// Whether a `#line` may name `file`: always with confined compilers, else when allows()
    /// it or it names no existing file (see setCompilersConfined()). Nothing reads it either way.
    bool allowsLineName(const std::string& file) const;

    /// The contents of `file` when allows() it and it is a regular file; nothing otherwise.
    std::optional<std::string> read(const std::string& file) const;

    /// The roots, canonical.
    const std::vector<std::filesystem::path>& roots() const { return roots_; }

private:
    struct Visit;
    void visit(const std::string& file, int depth, Visit& state) const;
    std::filesystem::path resolve(const std::string& file) const;

    std::string mainFile_;
    std::vector<std::string> forcedIncludes_; ///< as found: relative to the working directory or a search directory
    std::filesystem::path base_; ///< the working directory, absolute
    std::vector<std::string> searchPath_;
    std::vector<std::filesystem::path> roots_;
    bool compilersConfined_ = false;
};

} // namespace metalcpu::msl
