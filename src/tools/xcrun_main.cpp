// xcrun: finds and runs metalcpu's tools as Apple's xcrun finds and runs the SDK's, so that
// a Makefile written for macOS runs unchanged with metalcpu's bin/ on PATH (docs/tools.md):
//   xcrun -sdk macosx metal -c k.metal -o k.air
//   xcrun -sdk macosx metallib k.air -o k.metallib
//   xcrun -f metal          xcrun --show-sdk-path

#include "support/files.h"
#include "tools/tool_info.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace metalcpu;

const char* const kTools[] = {"metal", "metallib", "metal-ar"};

const char kUsage[] =
    "usage: xcrun [-sdk <sdk>] [-toolchain <name>] [-v] [-l] [-n] [-k] <tool> [<argument>...]\n"
    "       xcrun [-sdk <sdk>] -f | --find <tool>\n"
    "       xcrun [-sdk <sdk>] --show-sdk-path\n"
    "  Runs (or, with -f, prints the path of) metalcpu's metal, metallib or metal-ar, found beside\n"
    "  xcrun. Every SDK name is accepted: kernels are built for this machine whichever it names.\n"
    "  --show-sdk-path prints the installation's prefix (the directory above bin/).\n";

int fail(const std::string& message) {
    std::fprintf(stderr, "xcrun: error: %s\n", message.c_str());
    return 1;
}

/// The tool `name` beside xcrun, or empty when it is not one of metalcpu's.
std::string toolFile(const std::string& name) {
    for (const char* tool : kTools)
        if (name == tool) return support::executableDirectory() + "/" + name;
    return {};
}

int unknownTool(const std::string& name) {
    return fail("unable to find utility \"" + name + "\": metalcpu's xcrun runs metal, metallib and metal-ar only");
}

} // namespace

int main(int argc, char** argv) {
    bool verbose = false, log = false;
    std::string find;
    int i = 1;
    for (; i < argc; ++i) {
        const std::string argument = argv[i];
        auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        if (argument == "-sdk" || argument == "--sdk" || argument == "-toolchain" || argument == "--toolchain") {
            if (!value()) return fail("missing value after " + argument);
        } else if (argument.starts_with("--sdk=") || argument.starts_with("--toolchain=")) {
            // the SDK or toolchain names nothing here
        } else if (argument == "-f" || argument == "--find") {
            const char* tool = value();
            if (!tool) return fail("missing tool after " + argument);
            find = tool;
        } else if (argument == "--show-sdk-path") {
            std::printf("%s\n", std::filesystem::path(support::executableDirectory()).parent_path().c_str());
            return 0;
        } else if (argument == "-v" || argument == "--verbose") {
            verbose = true;
        } else if (argument == "-l" || argument == "--log") {
            log = true;
        } else if (argument == "-n" || argument == "--no-cache" || argument == "-k" || argument == "--kill-cache") {
            // xcrun's cache of lookups: there is none
        } else if (argument == "-r" || argument == "--run") {
            if (i + 1 >= argc) return fail("missing tool after " + argument);
        } else if (argument == "-h" || argument == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (argument == "--version") {
            std::fputs(tools::versionText("xcrun", false).c_str(), stdout);
            return 0;
        } else if (!argument.empty() && argument[0] == '-') {
            return fail("unknown option '" + argument + "'\n" + kUsage);
        } else {
            break;
        }
    }
    if (!find.empty()) {
        const std::string file = toolFile(find);
        if (file.empty()) return unknownTool(find);
        std::printf("%s\n", file.c_str());
        return 0;
    }
    if (i >= argc) return fail(std::string("no tool to run\n") + kUsage);
    const std::string file = toolFile(argv[i]);
    if (file.empty()) return unknownTool(argv[i]);
    if (verbose) std::fprintf(stderr, "xcrun: note: found utility %s\n", file.c_str());
    if (log) {
        std::string line = file;
        for (int a = i + 1; a < argc; ++a) line += std::string(" ") + argv[a];
        std::fprintf(stderr, "%s\n", line.c_str());
    }
    std::vector<char*> arguments(argv + i, argv + argc);
    arguments.push_back(nullptr);
    execv(file.c_str(), arguments.data());
    return fail("cannot run " + file + ": " + std::strerror(errno));
}
