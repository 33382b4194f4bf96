// Builds a fixed kernel source through the run-time cache and prints "hit" or "compiled"
// (and, with --path, the library's path on a second line).
#include "jit/library_cache.h"

#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
    const char* source = "kernel void probe(device int* out [[buffer(0)]]) { out[0] = 42; }\n";
    metalcpu::jit::SourceBuild build = metalcpu::jit::buildLibraryFromSource(source, {});
    if (!build.ok) {
        std::fputs(build.diagnostics.c_str(), stderr);
        return 1;
    }
    std::puts(build.fromCache ? "hit" : "compiled");
    if (argc > 1 && std::strcmp(argv[1], "--path") == 0) std::puts(build.libraryPath.c_str());
    return 0;
}
