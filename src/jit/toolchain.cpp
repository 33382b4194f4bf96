#include "jit/toolchain.h"

#include "jit/embedded_stdlib.h"
#include "support/config.h"
#include "support/files.h"
#include "support/hash.h"

#include <filesystem>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace metalcpu::jit {
namespace {

// Apple's headers that kernels may include but that metalcpu does not (yet) provide.
// The preprocessing pass needs a stub for each so that `#include <metal_texture>` is not
// an error there; the real compile then reports any use of what is missing.
const char* const kExtraStubs[] = {"metal_texture",      "metal_graphics",  "metal_pack",
                                   "metal_raytracing",   "metal_logging",   "metal_tensor",
                                   "metal_cooperative_tensor", "metal_simdgroup_matrix",
                                   "metal_imageblocks",  "metal_uniform",   "metal_variant",
                                   "metal_initializer_list", "metal_quadgroup", "metal_simdgroup",
                                   "simd/simd.h"};

std::string resolveCompiler(const std::string& name) {
    if (name.find('/') != std::string::npos) return name;
    std::string path = support::environment("PATH", "/usr/bin:/bin");
    size_t start = 0;
    while (start <= path.size()) {
        size_t end = path.find(':', start);
        if (end == std::string::npos) end = path.size();
        std::string candidate = path.substr(start, end - start) + "/" + name;
        if (access(candidate.c_str(), X_OK) == 0) return candidate;
        start = end + 1;
    }
    return {};
}

std::string chooseCompiler() {
    std::string configured = support::config().kernelCompiler;
    if (!configured.empty()) return resolveCompiler(configured);
    std::string built = METALCPU_BUILD_CXX;
    if (!built.empty() && access(built.c_str(), X_OK) == 0) return built;
    for (const char* fallback : {"c++", "g++", "clang++"}) {
        std::string found = resolveCompiler(fallback);
        if (!found.empty()) return found;
    }
    return {};
}

std::string identityOf(const std::string& compiler) {
    struct stat info {};
    std::string resolved = fs::weakly_canonical(compiler).string();
    if (stat(resolved.c_str(), &info) != 0) return compiler;
    return resolved + ":" + std::to_string(info.st_size) + ":" + std::to_string(info.st_mtime);
}

std::string stdlibHash() {
    int count = 0;
    const EmbeddedFile* files = embeddedStdlib(&count);
    support::Hasher hasher;
    for (int i = 0; i < count; ++i) hasher.add(files[i].path).add(files[i].contents);
    return hasher.hex().substr(0, 16);
}

/// Writes the embedded headers and the stubs under `root`, unless an earlier process did.
bool extractStdlib(const std::string& root, std::string* error) {
    if (support::fileExists(root + "/complete")) return true;
    std::string staging = root + ".staging." + std::to_string(getpid());
    support::removeTree(staging);
    int count = 0;
    const EmbeddedFile* files = embeddedStdlib(&count);
    for (int i = 0; i < count; ++i) {
        std::string relative = files[i].path;
        std::string target = staging + "/include/" + relative;
        support::makeDirectories(fs::path(target).parent_path().string());
        if (!support::writeFileAtomically(target, files[i].contents)) {
            *error = "cannot write " + target;
            return false;
        }
        // Every top-level header gets an empty stand-in for the preprocessing pass.
        if (relative.rfind("metalcpu/", 0) != 0) {
            std::string stub = staging + "/stubs/" + relative;
            support::makeDirectories(fs::path(stub).parent_path().string());
            support::writeFileAtomically(stub, "// stand-in: the real header is part of kernel_prelude.h\n");
        }
    }
    for (const char* name : kExtraStubs) {
        std::string stub = staging + "/stubs/" + name;
        if (support::fileExists(stub)) continue;
        support::makeDirectories(fs::path(stub).parent_path().string());
        support::writeFileAtomically(stub, "// stand-in: not provided by metalcpu yet\n");
    }
    support::writeFileAtomically(staging + "/complete", "");
    std::error_code ignored;
    fs::rename(staging, root, ignored);
    // Another process may have won the race; either way the directory is complete now.
    support::removeTree(staging);
    if (!support::fileExists(root + "/complete")) {
        *error = "cannot create the kernel standard library in " + root;
        return false;
    }
    return true;
}

} // namespace

std::string cacheRootDirectory() {
    std::string configured = support::config().cacheDir;
    if (!configured.empty()) return configured;
    std::string xdg = support::environment("XDG_CACHE_HOME");
    if (!xdg.empty()) return xdg + "/metalcpu";
    std::string home = support::environment("HOME");
    if (!home.empty()) return home + "/.cache/metalcpu";
    return "/tmp/metalcpu-" + std::to_string(getuid());
}

const char* libraryVersion() { return METALCPU_VERSION; }

std::shared_ptr<const Toolchain> toolchain(std::string* error) {
    static std::mutex mutex;
    static std::shared_ptr<const Toolchain> prepared;
    std::lock_guard lock(mutex);
    std::string cacheRoot = cacheRootDirectory();
    if (prepared && prepared->cacheRoot == cacheRoot && support::fileExists(prepared->stdlibRoot + "/complete"))
        return prepared;

    auto made = std::make_shared<Toolchain>();
    made->compiler = chooseCompiler();
    if (made->compiler.empty()) {
        *error = "no C++ compiler found to build kernels (install g++ or set METALCPU_CXX)";
        return nullptr;
    }
    made->identity = identityOf(made->compiler);
    made->cacheRoot = cacheRoot;
    if (!support::makeDirectories(made->cacheRoot, 0700)) {
        *error = "cannot create the cache directory " + made->cacheRoot;
        return nullptr;
    }
    made->stdlibHash = stdlibHash();
    made->stdlibRoot = made->cacheRoot + "/stdlib-" + std::string(libraryVersion()) + "-" + made->stdlibHash;
    if (!extractStdlib(made->stdlibRoot, error)) return nullptr;
    made->includeDir = made->stdlibRoot + "/include";
    made->stubDir = made->stdlibRoot + "/stubs";
    prepared = std::move(made);
    return prepared;
}

} // namespace metalcpu::jit
