// metallib: links .air objects made by `metal -c` into one .metallib.
//   metallib a.air b.air -o default.metallib

#include "jit/kernel_compiler.h"

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

int run(int argc, char** argv) {
    std::vector<std::string> objects;
    std::string output;
    for (int i = 1; i < argc; ++i) {
        std::string argument = argv[i];
        if (argument == "-o" && i + 1 < argc) {
            output = argv[++i];
        } else if (argument.rfind("-o", 0) == 0 && argument.size() > 2) {
            output = argument.substr(2);
        } else if (argument == "-h" || argument == "--help") {
            std::puts("usage: metallib <file.air>... -o <output.metallib>");
            return 0;
        } else if (!argument.empty() && argument[0] == '-') {
            // flags of Apple's metallib that change nothing here
        } else {
            objects.push_back(argument);
        }
    }
    if (objects.empty() || output.empty()) {
        std::fputs("metallib: error: usage: metallib <file.air>... -o <output.metallib>\n", stderr);
        return 1;
    }
    metalcpu::jit::CompileResult linked = metalcpu::jit::linkLibrary(objects, output);
    if (!linked.ok) {
        std::fprintf(stderr, "metallib: error: cannot link %s\n%s", output.c_str(), linked.diagnostics.c_str());
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
        std::fprintf(stderr, "metallib: error: %s\n", e.what());
    } catch (...) {
        std::fputs("metallib: error: internal error\n", stderr);
    }
    return 1;
}
