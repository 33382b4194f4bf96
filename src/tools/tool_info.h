// What every tool says about itself (--version, -v) and where it lives.
#pragma once

#include <string>

namespace metalcpu::tools {

/// The running tool's file, its links resolved (/proc/self/exe): a stable installed path that
/// depfiles name, so that upgrading metalcpu rebuilds what it built.
std::string toolPath();

/// "metalcpu <tool> <version>"; with `verbose`, also where the tool is installed and which
/// C++ compiler builds kernels (or why there is none).
std::string versionText(const std::string& tool, bool verbose);

} // namespace metalcpu::tools
