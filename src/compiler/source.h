// Where tokens come from: the files named by the preprocessor's linemarkers, and positions
// in them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace metalcpu::msl {

/// A position in an input file: the file (an index into a FileTable) and the 1-based line and
/// column (in bytes, a tab counting as one column, as Apple's compiler and GCC count them).
struct Location {
    std::uint32_t file = 0;
    std::uint32_t line = 0;
    std::uint32_t column = 0;

    friend bool operator==(const Location&, const Location&) = default;
};

/// The files of one translation unit, in the order the linemarkers first name them. File 0 is
/// the main file: the first file named, or the whole input when there are no linemarkers.
class FileTable {
public:
    /// @param mainFileName how the main file is reported ("program_source" for strings);
    ///        empty to report it by its linemarker spelling.
    explicit FileTable(std::string mainFileName);

    /// The index of the file a linemarker names, adding it when it is new. The first file
    /// named becomes the main file (index 0).
    std::uint32_t intern(const std::string& spelling);

    /// How diagnostics, #line markers and reflection name `file`.
    const std::string& reportedName(std::uint32_t file) const;

    /// The file name exactly as the linemarker spelled it (unescaped); "" for an unnamed main file.
    const std::string& spelling(std::uint32_t file) const;

    /// Names such as "<built-in>" and "<command-line>" that are no real file.
    static bool isPseudoFile(std::string_view spelling);

    std::size_t size() const { return files_.size(); }

private:
    struct File {
        std::string spelling;
        std::string reported;
    };
    std::vector<File> files_;
    bool mainNamed_ = false;
};

/// A GCC linemarker (`# 12 "file.metal" 1`) or `#line 12 "file.metal"` directive.
struct LineMarker {
    std::uint32_t line = 0;     ///< the number of the line that follows the marker
    std::string file;           ///< unescaped; empty when the directive names no file
    bool entersFile = false;    ///< flag 1: the start of an #include
    bool returnsToFile = false; ///< flag 2: back in the includer after an #include
    bool systemHeader = false;  ///< flag 3
};

/// Parses the text after the `#` of a directive line. Returns nothing when the line is not a
/// linemarker or #line directive (or is malformed).
std::optional<LineMarker> parseLineMarker(std::string_view directive);

/// `text` as a C string literal, quotes included, with `"`, `\` and control characters escaped.
std::string quoteString(std::string_view text);

} // namespace metalcpu::msl
