// Builds a fixed kernel source through the run-time cache and prints "hit" or "compiled"
// (and, with --path, the library's path on a second line). With --value N the kernel stores N
// instead of 42: another source, so a new compile.
#include "jit/library_cache.h"

#include <cstdio>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
    std::string value = "42";
    bool printPath = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--path") == 0) printPath = true;
        else if (std::strcmp(argv[i], "--value") == 0 && i + 1 < argc) value = argv[++i];
    }
    const std::string source = "kernel void probe(device int* out [[buffer(0)]]) { out[0] = " + value + "; }\n";
    metalcpu::jit::SourceBuild build = metalcpu::jit::buildLibraryFromSource(source, {});
    if (!build.ok) {
        std::fputs(build.diagnostics.c_str(), stderr);
        return 1;
    }
    std::puts(build.fromCache ? "hit" : "compiled");
    if (printPath) std::puts(build.libraryPath.c_str());
    return 0;
}
