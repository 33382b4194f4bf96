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

/// Whether `line` is a message's first line with severity `severity` ("warning", "error",
/// "note"): "file:line:col: warning: ...", "file:line: warning: ..." or "program: warning: ...".
/// `messageStart`, when given, receives the position of the text after "warning: ".
bool isMessageLine(const std::string& line, const std::string& severity, std::size_t* messageStart = nullptr);

} // namespace metalcpu::jit
