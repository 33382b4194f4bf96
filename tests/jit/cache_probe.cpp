// Builds a fixed kernel source through the run-time cache and prints "hit" or "compiled".
#include "jit/library_cache.h"

#include <cstdio>

int main() {
    const char* source = "kernel void probe(device int* out [[buffer(0)]]) { out[0] = 42; }\n";
    metalcpu::jit::SourceBuild build = metalcpu::jit::buildLibraryFromSource(source, {});
    if (!build.ok) {
        std::fputs(build.diagnostics.c_str(), stderr);
        return 1;
    }
    std::puts(build.fromCache ? "hit" : "compiled");
    return 0;
}
