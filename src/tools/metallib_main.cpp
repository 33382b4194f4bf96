// metallib: links .air objects made by `metal -c`, and archives of them (metal-ar), into one
// .metallib (docs/tools.md):
//   metallib a.air b.air -o default.metallib
//   metallib kernels.a            (writes default.metallib, as Apple's does)
//   metallib - -o -               (standard input to standard output, for pipes)

#include "jit/kernel_compiler.h"
#include "support/files.h"
#include "support/scratch_directories.h"
#include "tools/response_files.h"
#include "tools/standard_streams.h"
#include "tools/tool_info.h"
#include "tools/tool_options.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

using namespace metalcpu;

const char kUsage[] = "usage: metallib <file.air | archive.a | ->... [-o <output.metallib | ->]\n"
                      "  Links the objects metal -c made, and every member of each archive, into one library\n"
                      "  (default.metallib without -o). - is standard input (one object) or, after -o, output.\n"
                      "  @file reads more arguments from file.\n";

int fail(const std::string& message) {
    std::fprintf(stderr, "metallib: error: %s\n", message.c_str());
    return 1;
}

int link(tools::MetallibOptions options, const std::string& work) {
    std::vector<std::string> names = options.inputs;
    for (std::size_t i = 0; i < options.inputs.size(); ++i) {
        if (options.inputs[i] != "-") continue;
        if (std::count(names.begin(), names.begin() + i, "<stdin>") > 0)
            return fail("standard input (-) can be read once");
        options.inputs[i] = work + "/standard-input.air";
        names[i] = "<stdin>";
        if (!tools::saveStandardInput(options.inputs[i])) return fail("cannot read standard input");
    }
    const std::string output = options.output == "-" ? work + "/standard-output.metallib" : options.output;
    jit::CompileResult linked = jit::linkLibrary(options.inputs, output, {}, names);
    if (!linked.ok) {
        std::fprintf(stderr, "metallib: error: cannot link %s\n%s", options.output.c_str(), linked.diagnostics.c_str());
        return 1;
    }
    if (options.output == "-" && !tools::copyFileToStandardOutput(output)) return fail("cannot write to standard output");
    return 0;
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
    const bool toStandardOutput = options.output == "-";
    if (toStandardOutput)
        if (const std::string refusal = tools::binaryOutputRefusal("a .metallib"); !refusal.empty()) return fail(refusal);
    // `-` (an object on standard input) and `-o -` go through files of this run's own.
    std::string work;
    if (toStandardOutput || std::count(options.inputs.begin(), options.inputs.end(), "-") > 0) {
        work = support::makeScratchDirectory("metalcpu-metallib-");
        if (work.empty()) return fail("cannot create a temporary directory");
    }
    int status = link(options, work);
    if (!work.empty()) support::removeScratchDirectory(work);
    return status;
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
