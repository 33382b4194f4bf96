// Standard input and output for binaries, as tinygrad's offline compile pipes them:
// `metal -c - -o - | metallib - -o -` (docs/tools.md, "Standard input and output").
#pragma once

#include <string>

namespace metalcpu::tools {

/// Why a binary cannot go to standard output now (it is a terminal), else "".
std::string binaryOutputRefusal(const char* what);

/// Copies the file at `path` to standard output; false when it cannot.
bool copyFileToStandardOutput(const std::string& path);

/// Writes everything on standard input into the file at `path`; false when it cannot.
bool saveStandardInput(const std::string& path);

} // namespace metalcpu::tools
