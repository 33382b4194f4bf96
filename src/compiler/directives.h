// The places in unpreprocessed source where the preprocessor would open, probe or name another
// file: #include and its relatives, __has_include, #line, #pragma GCC dependency. Found before
// the preprocessor runs, so that a kernel cannot make it read a file it may not (source_access.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace metalcpu::msl {

/// One directive or operator that names a file.
struct FileReference {
    enum class Kind {
        Include,     ///< #include, #import: the first file found along the search path is read
        IncludeNext, ///< #include_next: a later file along the search path is read
        Embed,       ///< #embed (C23, GCC 15): the file's bytes become data
        Probe,       ///< __has_include, __has_include_next, __has_embed: the file is looked for
        LineFile,    ///< #line N "file", # N "file": diagnostics will quote that file
        Dependency,  ///< #pragma GCC dependency, also through _Pragma: the file is looked for
    };
    Kind kind = Kind::Include;
    std::string directive; ///< as messages name it: "#include", "__has_include", "#line"
    std::string name;      ///< the file name as written, without its quotes or angle brackets
    bool angled = false;   ///< <name> rather than "name"
    /// The name is not written out (`#include HEADER`, `__has_include(NAME)`): macros make it,
    /// so it is unknown before preprocessing.
    bool computed = false;
    std::uint32_t line = 0, column = 0; ///< of the `#`, or of the operator's name
};

/// Every file reference in `text`, in order. Follows the preprocessor's first phases as GCC
/// does (line splices, also with blanks before the newline; comments; string, character and
/// raw string literals; the `%:` digraph; a leading byte order mark) and errs towards finding
/// too much: directives inside `#if 0` and inside raw string literals are reported too, since
/// conditions cannot be evaluated before macros are known.
std::vector<FileReference> findFileReferences(std::string_view text);

} // namespace metalcpu::msl
