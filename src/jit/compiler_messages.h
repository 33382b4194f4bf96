// The host compiler's messages about a translated kernel file, sorted into what a person should
// read: every error, and the warnings about the user's own lines (docs/tools.md, "Warnings").
#pragma once

#include <string>
#include <vector>

namespace metalcpu::jit {

/// GCC's or Clang's output for a translated file, with the warnings that are not about the
/// user's code left out (each with its quoted source lines and notes): those in metalcpu's
/// generated code (msl::kGeneratedFileName, identifiers starting with "__mc_" or in
/// metalcpu_kernel::), in files under any of `hiddenPaths` (the translated file itself, the
/// kernel standard library), and the compiler's notes about its command line. Errors are
/// always kept, with their context ("In function ...", "required from ...") and notes.
std::string userMessages(const std::string& output, const std::vector<std::string>& hiddenPaths);

/// The host compiler's `output` about the translated file `translated`, with every location
/// "file:line:column" that falls in text the front end inserted or moved along a line (the
/// translated file's column map, msl::CodeWriter::columnMap()) moved to the column of the
/// source that text stands for: an error inside a rewritten declaration points at the
/// declaration in the .metal file or source string, not past its line's end.
std::string sourceColumns(const std::string& output, const std::string& translated);

/// Whether `line` is a message's first line with severity `severity` ("warning", "error",
/// "note"): "file:line:col: warning: ...", "file:line: warning: ..." or "program: warning: ...".
/// `messageStart`, when given, receives the position of the text after "warning: ".
bool isMessageLine(const std::string& line, const std::string& severity, std::size_t* messageStart = nullptr);

} // namespace metalcpu::jit
