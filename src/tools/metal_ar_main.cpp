// metal-ar: archives .air objects, as Apple's does, with the system's `ar` (binutils), whose
// command line it takes unchanged:   metal-ar rcs kernels.a a.air b.air
// metallib and metal link every member of such an archive.

#include "support/process.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

int main(int, char** argv) {
    const std::string ar = metalcpu::support::findProgram("ar");
    if (ar.empty()) {
        std::fputs("metal-ar: error: no `ar` on PATH to make archives with (install binutils)\n", stderr);
        return 1;
    }
    argv[0] = const_cast<char*>("ar");
    execv(ar.c_str(), argv);
    std::fprintf(stderr, "metal-ar: error: cannot run %s: %s\n", ar.c_str(), std::strerror(errno));
    return 1;
}
