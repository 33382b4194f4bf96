#include "jit/library_cache.h"

#include "jit/toolchain.h"
#include "support/config.h"
#include "support/files.h"
#include "support/hash.h"
#include "support/log.h"

#include <metalcpu/kernel_abi.h>

#include <unistd.h>

namespace metalcpu::jit {
namespace {

/// The cache file for `key` (plus `suffix`), and whether it is already there. False with
/// diagnostics when the toolchain or the cache directory is unusable.
bool lookUp(support::Hasher key, const std::string& suffix, SourceBuild& build) {
    std::string error;
    std::shared_ptr<const Toolchain> tools = toolchain(&error);
    if (!tools) {
        build.diagnostics = error + "\n";
        return false;
    }
    // Everything that changes the compiled code is part of the key.
    key.add(tools->identity).add(tools->stdlibHash).add(libraryVersion());
    key.add(static_cast<std::uint64_t>(METALCPU_KERNEL_ABI_VERSION)).add(support::config().kernelFlags);
    std::string directory = tools->cacheRoot + "/kernels";
    build.libraryPath = directory + "/" + key.hex() + suffix;
    if (support::fileExists(build.libraryPath)) {
        build.ok = true;
        build.fromCache = true;
        return true;
    }
    if (!support::makeDirectories(directory, 0700)) {
        build.diagnostics = "cannot create " + directory + "\n";
        return false;
    }
    return true;
}

/// Builds into a staging file with `make`, then renames it into place, so that other
/// processes see the library whole or not at all.
template <class Make>
void publish(SourceBuild& build, Make&& make) {
    std::string staging = build.libraryPath + ".staging." + std::to_string(getpid());
    CompileResult made = make(staging);
    build.diagnostics += made.diagnostics;
    if (made.ok) {
        build.ok = std::rename(staging.c_str(), build.libraryPath.c_str()) == 0;
        if (!build.ok) build.diagnostics += "cannot write " + build.libraryPath + "\n";
    }
    std::remove(staging.c_str());
}

} // namespace

SourceBuild buildLibraryFromSource(const std::string& source, const KernelCompileSettings& settings) {
    SourceBuild build;
    support::Hasher key;
    key.add(source).add(settings.key());
    if (!lookUp(key, ".metallib", build) || build.fromCache) return build;

    // The source is compiled from a file named program_source in a private directory, so
    // that the compiler's messages say program_source:LINE:COL as Metal's do.
    std::string work = support::makeTemporaryDirectory("metalcpu-build-");
    if (work.empty()) {
        build.diagnostics = "cannot create a temporary directory\n";
        return build;
    }
    if (!support::writeFileAtomically(work + "/program_source", source)) {
        build.diagnostics = "cannot write " + work + "/program_source\n";
        support::removeTree(work);
        return build;
    }
    CompileResult translated = translateFile("program_source", work, settings, work + "/translated.cpp");
    build.diagnostics = translated.diagnostics;
    if (translated.ok)
        publish(build, [&](const std::string& staging) {
            return compileTranslation(work + "/translated.cpp", work, staging, true);
        });
    support::removeTree(work);
    support::log().debug("compiled program_source into {}", build.libraryPath);
    return build;
}

SourceBuild buildValidationLibrary(const std::vector<std::string>& validationSources) {
    SourceBuild build;
    support::Hasher key;
    for (const std::string& source : validationSources) key.add(source);
    if (!lookUp(key, ".validation.metallib", build) || build.fromCache) return build;

    std::string work = support::makeTemporaryDirectory("metalcpu-validation-");
    if (work.empty()) {
        build.diagnostics = "cannot create a temporary directory\n";
        return build;
    }
    std::vector<std::string> objects;
    bool ok = true;
    for (std::size_t i = 0; ok && i < validationSources.size(); ++i) {
        std::string cpp = work + "/validation" + std::to_string(i) + ".cpp";
        std::string object = work + "/validation" + std::to_string(i) + ".air";
        CompileResult compiled = support::writeFileAtomically(cpp, validationSources[i])
                                     ? compileTranslation(cpp, work, object, false)
                                     : CompileResult{false, "cannot write " + cpp + "\n"};
        build.diagnostics += compiled.diagnostics;
        ok = compiled.ok;
        objects.push_back(object);
    }
    if (ok) publish(build, [&](const std::string& staging) { return linkLibrary(objects, staging); });
    support::removeTree(work);
    support::log().debug("compiled the shader-validation flavour into {}", build.libraryPath);
    return build;
}

} // namespace metalcpu::jit
