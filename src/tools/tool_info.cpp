#include "tools/tool_info.h"

#include "jit/toolchain.h"
#include "support/files.h"

namespace metalcpu::tools {

std::string toolPath() { return support::resolvedPath("/proc/self/exe"); }

std::string versionText(const std::string& tool, bool verbose) {
    std::string text = "metalcpu " + tool + " " + jit::libraryVersion() +
                       " (Metal Shading Language to C++ for this machine's CPU)\n";
    if (!verbose) return text;
    text += "InstalledDir: " + support::executableDirectory() + "\n";
    std::string error;
    std::shared_ptr<const jit::Toolchain> tools = jit::toolchain(&error);
    text += tools ? "Kernel compiler: " + tools->compiler + "\n" : "Kernel compiler: none: " + error + "\n";
    return text;
}

} // namespace metalcpu::tools
