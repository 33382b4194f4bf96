// metal: compiles .metal files into .air objects (-c) or straight into a .metallib.
//   metal -c a.metal -o a.air [-I dir] [-D NAME=VALUE] [-std=metal3.1] [-MD -MF a.d]
//   metal a.metal b.metal -o default.metallib

#include "jit/kernel_compiler.h"
#include "support/files.h"
#include "tools/tool_options.h"

#include <cstdio>
#include <exception>
#include <filesystem>
#include <new>
#include <string>
#include <vector>

namespace {

const char kUsage[] =
    "usage: metal [-c] <file.metal>... -o <output> [-I <dir>] [-D <name>[=<value>]] [-std=metal<X.Y>]\n"
    "             [-ffast-math | -fno-fast-math] [-fmetal-math-mode=fast|relaxed|safe]\n"
    "             [-fmetal-math-fp32-functions=fast|precise] [-MD -MF <depfile> [-MT <target>]]\n"
    "  -c writes one .air object per input; without it the inputs are linked into a .metallib.\n";

int fail(const std::string& message) {
    std::fprintf(stderr, "metal: error: %s\n", message.c_str());
    return 1;
}

int run(int argc, char** argv) {
    using namespace metalcpu;
    tools::MetalOptions options = tools::parseMetalOptions(std::vector<std::string>(argv + 1, argv + argc));
    if (options.help) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (!options.error.empty()) return fail(options.error + "\n" + kUsage);
    if (options.compileOnly && options.inputs.size() > 1 && !options.output.empty())
        return fail("-o with -c takes one input file");

    jit::KernelCompileSettings settings;
    settings.includeDirectories = options.includeDirectories;
    settings.macros = options.macros;
    settings.languageVersion = options.languageVersion;
    settings.mathMode = options.mathMode;
    settings.mathFunctions = options.mathFunctions;

    std::string work = support::makeTemporaryDirectory("metalcpu-metal-");
    if (work.empty()) return fail("cannot create a temporary directory");
    std::vector<std::string> objects;
    int status = 0;
    for (size_t i = 0; i < options.inputs.size() && status == 0; ++i) {
        const std::string& input = options.inputs[i];
        if (std::filesystem::path(input).extension() == ".air") {
            objects.push_back(input);
            continue;
        }
        std::string object = options.compileOnly
                                 ? (options.output.empty() ? std::filesystem::path(input).stem().string() + ".air"
                                                           : options.output)
                                 : work + "/" + std::to_string(i) + ".air";
        std::string translated = work + "/" + std::to_string(i) + ".cpp";
        jit::CompileResult result =
            jit::translateFile(input, {}, settings, translated, options.depfile, options.depTarget.empty() ? object : options.depTarget);
        if (result.ok) {
            std::fputs(result.diagnostics.c_str(), stderr);
            result = jit::compileTranslation(translated, {}, object, false);
        }
        if (!result.ok) {
            std::fputs(result.diagnostics.c_str(), stderr);
            status = 1;
        }
        objects.push_back(object);
    }
    if (status == 0 && !options.compileOnly) {
        std::string output = options.output.empty() ? "default.metallib" : options.output;
        jit::CompileResult linked = jit::linkLibrary(objects, output);
        if (!linked.ok) {
            std::fputs(linked.diagnostics.c_str(), stderr);
            status = 1;
        }
    }
    support::removeTree(work);
    return status;
}

} // namespace

int main(int argc, char** argv) {
    // The MSL front end runs in this process: running out of memory there (before
    // METALCPU_COMPILE_TOKEN_LIMIT stops a huge source) is an error, not std::terminate().
    try {
        return run(argc, argv);
    } catch (const std::bad_alloc&) {
        return fail("out of memory (METALCPU_COMPILE_TOKEN_LIMIT bounds how large a source the front end takes)");
    } catch (const std::exception& e) {
        return fail(std::string("internal error: ") + e.what());
    } catch (...) {
        return fail("internal error");
    }
}
