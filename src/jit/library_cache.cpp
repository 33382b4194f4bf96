#include "jit/library_cache.h"

#include "jit/toolchain.h"
#include "support/config.h"
#include "support/files.h"
#include "support/hash.h"
#include "support/log.h"

#include <metalcpu/kernel_abi.h>

#include <unistd.h>

namespace metalcpu::jit {

SourceBuild buildLibraryFromSource(const std::string& source, const KernelCompileSettings& settings) {
    SourceBuild build;
    std::string error;
    const Toolchain* tools = toolchain(&error);
    if (!tools) {
        build.diagnostics = error + "\n";
        return build;
    }
    // Everything that changes the compiled code is part of the key.
    support::Hasher key;
    key.add(source).add(settings.key()).add(tools->identity).add(tools->stdlibHash).add(libraryVersion());
    key.add(static_cast<std::uint64_t>(METALCPU_KERNEL_ABI_VERSION)).add(support::config().kernelFlags);
    std::string directory = tools->cacheRoot + "/kernels";
    build.libraryPath = directory + "/" + key.hex() + ".metallib";
    if (support::fileExists(build.libraryPath)) {
        build.ok = true;
        build.fromCache = true;
        return build;
    }
    if (!support::makeDirectories(directory, 0700)) {
        build.diagnostics = "cannot create " + directory + "\n";
        return build;
    }

    // The source is compiled from a file named program_source in a private directory, so
    // that the compiler's messages say program_source:LINE:COL as Metal's do.
    std::string work = support::makeTemporaryDirectory("metalcpu-build-");
    if (work.empty()) {
        build.diagnostics = "cannot create a temporary directory\n";
        return build;
    }
    support::writeFileAtomically(work + "/program_source", source);
    CompileResult translated = translateFile("program_source", work, settings, work + "/translated.cpp");
    build.diagnostics = translated.diagnostics;
    if (translated.ok) {
        std::string staging = build.libraryPath + ".staging." + std::to_string(getpid());
        CompileResult compiled = compileTranslation(work + "/translated.cpp", work, staging, true);
        build.diagnostics += compiled.diagnostics;
        if (compiled.ok) {
            // rename() makes the library appear whole to other processes.
            build.ok = std::rename(staging.c_str(), build.libraryPath.c_str()) == 0;
            if (!build.ok) build.diagnostics += "cannot write " + build.libraryPath + "\n";
        }
        std::remove(staging.c_str());
    }
    support::removeTree(work);
    support::log().debug("compiled program_source into {}", build.libraryPath);
    return build;
}

} // namespace metalcpu::jit
