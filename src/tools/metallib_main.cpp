// metallib: links .air objects made by `metal -c`, and archives of them (metal-ar), into one
// .metallib (docs/tools.md):
//   metallib a.air b.air -o default.metallib
//   metallib kernels.a            (writes default.metallib, as Apple's does)

#include "jit/kernel_compiler.h"
#include "tools/response_files.h"
#include "tools/tool_info.h"
#include "tools/tool_options.h"

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

using namespace metalcpu;

const char kUsage[] = "usage: metallib <file.air | archive.a>... [-o <output.metallib>]\n"
                      "  Links the objects metal -c made, and every member of each archive, into one library\n"
                      "  (default.metallib without -o). @file reads more arguments from file.\n";

int fail(const std::string& message) {
    std::fprintf(stderr, "metallib: error: %s\n", message.c_str());
    return 1;
}

int run(int argc, char** argv) {
    std::string error;
    const std::vector<std::string> arguments = tools::expandResponseFiles(std::vector<std::string>(argv + 1, argv + argc), &error);
    if (!error.empty()) return fail(error);
    tools::MetallibOptions options = tools::parseMetallibOptions(arguments);
    if (options.help) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (options.version) {
        std::fputs(tools::versionText("metallib", false).c_str(), stdout);
        return 0;
    }
    if (!options.error.empty()) return fail(options.error + "\n" + kUsage);
    jit::CompileResult linked = jit::linkLibrary(options.inputs, options.output);
    if (!linked.ok) {
        std::fprintf(stderr, "metallib: error: cannot link %s\n%s", options.output.c_str(), linked.diagnostics.c_str());
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    // An error message, never std::terminate(), whatever happens.
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        return fail(e.what());
    } catch (...) {
        return fail("internal error");
    }
}
