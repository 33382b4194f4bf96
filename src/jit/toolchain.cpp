#include "jit/toolchain.h"

#include "jit/cache_directory.h"
#include "jit/cache_sweep.h"
#include "jit/compiler_process.h"
#include "jit/embedded_stdlib.h"
#include "support/config.h"
#include "support/files.h"
#include "support/hash.h"
#include "support/log.h"
#include "support/process.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>
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
                                   "metal_initializer_list",
                                   "simd/simd.h"};

std::string chooseCompiler() {
    std::string configured = support::config().kernelCompiler;
    if (!configured.empty()) return support::findProgram(configured);
    std::string built = METALCPU_BUILD_CXX;
    if (!built.empty() && access(built.c_str(), X_OK) == 0) return built;
    for (const char* fallback : {"c++", "g++", "clang++"}) {
        std::string found = support::findProgram(fallback);
        if (!found.empty()) return found;
    }
    return {};
}

std::string identityOf(const std::string& compiler) {
    struct stat info {};
    std::error_code error;
    std::string resolved = fs::weakly_canonical(compiler, error).string();
    if (error || stat(resolved.c_str(), &info) != 0) return compiler;
    return resolved + ":" + std::to_string(info.st_size) + ":" + std::to_string(info.st_mtime);
}

std::vector<std::string> programFilesOf(const std::string& compiler) {
    std::vector<std::string> files = {compiler};
    std::error_code error;
    const fs::path real = fs::canonical(compiler, error);
    if (!error) {
        // <prefix>/bin/g++ finds its helpers and libraries in <prefix>/lib and <prefix>/libexec;
        // the rest of <prefix> (a home directory, say) is none of its business.
        files.push_back(real.parent_path().string());
        const fs::path prefix = real.parent_path().parent_path();
        if (real.parent_path().filename() == "bin" && prefix != "/")
            for (const char* part : {"lib", "lib32", "lib64", "libexec"}) files.push_back((prefix / part).string());
    }
    // /etc/alternatives: Debian's /usr/bin/c++ (and a wrapper script's compiler) lead through it.
    for (const char* system :
         {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc/ld.so.cache", "/etc/alternatives"})
        files.emplace_back(system);
    return files;
}

/// The guard that makes a Metal 4 header an error below MSL 4.0, as the header spells it.
constexpr std::string_view kMetal4Guard = "#if defined(__METAL_VERSION__) && __METAL_VERSION__ < 400\n";

/// The empty stand-in of top-level header `contents` for the preprocessing pass, keeping the
/// header's language-version guard: a kernel that includes a Metal 4 header below 4.0 then gets
/// one #error, included from its own #include line, instead of one per header the prelude
/// brings in, wrapped in the prelude's include chain.
std::string standInFor(std::string_view contents) {
    std::string stub = "// stand-in: the real header is part of kernel_prelude.h\n";
    const std::size_t guard = contents.find(kMetal4Guard);
    const std::size_t end = guard == std::string_view::npos ? guard : contents.find("#endif\n", guard);
    if (end != std::string_view::npos) stub += std::string(contents.substr(guard, end + 7 - guard));
    return stub;
}

std::string stdlibHash() {
    int count = 0;
    const EmbeddedFile* files = embeddedStdlib(&count);
    support::Hasher hasher;
    hasher.add("stand-ins keep the MSL 4.0 guard"); // a cache of empty stand-ins is re-extracted
    for (int i = 0; i < count; ++i) hasher.add(files[i].path).add(files[i].contents);
    return hasher.hex().substr(0, 16);
}

/// Writes `contents` to `path`, creating its directory; false with a message in `error`.
bool writeWithDirectories(const std::string& path, const std::string& contents, std::string* error) {
    if (support::makeDirectories(fs::path(path).parent_path().string()) &&
        support::writeFileAtomically(path, contents))
        return true;
    *error = "cannot write " + path;
    return false;
}

/// Writes the embedded headers and the stubs under `root`, unless an earlier process did.
bool extractStdlib(const std::string& root, std::string* error) {
    if (support::fileExists(root + "/complete")) return true;
    // Processes that share the cache may extract at once; each into a directory of its own.
    std::string staging = support::makeUniqueDirectory(root + ".staging.");
    if (staging.empty()) {
        *error = "cannot create a directory beside " + root;
        return false;
    }
    int count = 0;
    const EmbeddedFile* files = embeddedStdlib(&count);
    bool written = true;
    for (int i = 0; written && i < count; ++i) {
        std::string relative = files[i].path;
        written = writeWithDirectories(staging + "/include/" + relative, files[i].contents, error);
        // Every top-level header gets an empty stand-in for the preprocessing pass.
        if (written && relative.rfind("metalcpu/", 0) != 0)
            written = writeWithDirectories(staging + "/stubs/" + relative, standInFor(files[i].contents), error);
    }
    for (const char* name : kExtraStubs) {
        std::string stub = staging + "/stubs/" + name;
        if (!written || support::fileExists(stub)) continue;
        written = writeWithDirectories(stub, "// stand-in: not provided by metalcpu yet\n", error);
    }
    if (!written || !support::writeFileAtomically(staging + "/complete", "")) {
        if (written) *error = "cannot write " + staging + "/complete";
        support::removeTree(staging);
        return false;
    }
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

/// How old a staging file must be before it counts as left behind by a process that was
/// killed: twice the wall time a compile within METALCPU_COMPILE_TIMEOUT may take, which is per
/// 512 KiB of translated code (compiler_process.h), of a source of at most
/// METALCPU_COMPILE_SOURCE_LIMIT, whose translation is about as large again, compiled as a
/// shader-validation flavour (kValidationCompileTimeFactor times as long).
std::chrono::seconds stagingLifetime() {
    const support::Config& config = support::config();
    const std::chrono::seconds hour(3600);
    if (config.compileTimeout <= 0 || config.compileSourceLimit <= 0) return 24 * hour;
    const long blocks = std::max<long>(1, 2 * static_cast<long>(megabytes(config.compileSourceLimit) / kTimeoutCodeBytes));
    return std::max(hour, std::chrono::seconds(2L * kWallTimePerCpuTime * kValidationCompileTimeFactor *
                                               config.compileTimeout * blocks));
}

/// Removes, from the cache directory `directory`, the staging files and directories (named
/// *.staging.XXXXXX and *.tmp.XXXXXX) that writers killed mid-write left behind, once they are
/// older than stagingLifetime(); a writer that still runs renames its own away well before.
void removeStaleStaging(const std::string& directory) {
    const auto now = std::chrono::system_clock::now();
    std::error_code error;
    for (fs::directory_iterator entry(directory, error), end; !error && entry != end; entry.increment(error)) {
        const std::string name = entry->path().filename().string();
        if (name.find(".staging.") == std::string::npos && name.find(".tmp.") == std::string::npos) continue;
        struct stat info {};
        if (lstat(entry->path().c_str(), &info) != 0) continue;
        if (now - std::chrono::system_clock::from_time_t(info.st_mtime) < stagingLifetime()) continue;
        if (S_ISDIR(info.st_mode)) support::removeTree(entry->path().string());
        else std::remove(entry->path().c_str());
    }
}

} // namespace

const char* libraryVersion() { return METALCPU_VERSION; }

std::shared_ptr<const Toolchain> toolchain(std::string* error) {
    // Every kernel compile comes here, the tools' too: a misspelt METALCPU_ variable is said.
    support::warnAboutConfiguration();
    static std::mutex mutex;
    static std::shared_ptr<const Toolchain> prepared;
    std::lock_guard lock(mutex);
    std::string cacheChoice = cacheRootDirectory();
    std::string configured = support::config().kernelCompiler;
    if (prepared && prepared->cacheChoice == cacheChoice && prepared->configured == configured &&
        support::fileExists(prepared->stdlibRoot + "/complete") && support::fileExists(prepared->kernelDir)) {
        // A few lstat calls: the cache and its kernels are checked again at every use, the
        // standard library (written once) when the toolchain is prepared.
        std::string reason = support::untrustedPath(prepared->cacheRoot);
        if (reason.empty()) reason = support::untrustedDirectory(prepared->kernelDir);
        if (reason.empty()) return prepared;
        *error = untrustedCacheMessage(prepared->cacheRoot, reason);
        return nullptr;
    }

    auto made = std::make_shared<Toolchain>();
    made->configured = configured;
    made->compiler = chooseCompiler();
    if (made->compiler.empty() || access(made->compiler.c_str(), X_OK) != 0) {
        *error = configured.empty() ? "no C++ compiler found to build kernels (install g++ or set METALCPU_CXX)"
                                    : "METALCPU_CXX names no executable C++ compiler: " + configured;
        return nullptr;
    }
    made->identity = identityOf(made->compiler);
    made->programFiles = programFilesOf(made->compiler);
    made->cacheChoice = cacheChoice;
    made->cacheRoot = prepareCacheDirectory(error);
    if (made->cacheRoot.empty()) return nullptr;
    made->stdlibHash = stdlibHash();
    made->stdlibRoot = made->cacheRoot + "/stdlib-" + std::string(libraryVersion()) + "-" + made->stdlibHash;
    // Leased once written out; a sweep of another version's process that removes it between
    // the two (it was unused for METALCPU_CACHE_UNUSED_DAYS) makes it to be written out again.
    for (int attempt = 0; !made->stdlibLease && attempt < 3; ++attempt) {
        if (!extractStdlib(made->stdlibRoot, error)) return nullptr;
        made->stdlibLease = CacheLease::take(made->stdlibRoot + "/complete");
    }
    if (!made->stdlibLease) {
        *error = "cannot hold the kernel standard library in " + made->stdlibRoot +
                 ": other processes remove it as it is written out";
        return nullptr;
    }
    // Kernels include these headers: nobody else may have changed them.
    if (std::string reason = support::untrustedTree(made->stdlibRoot); !reason.empty()) {
        *error = untrustedCacheMessage(made->cacheRoot, reason);
        return nullptr;
    }
    made->kernelDir = made->cacheRoot + "/kernels";
    if (!prepareCacheSubdirectory(made->kernelDir, error)) return nullptr;
    made->warningFlagsDir = made->cacheRoot + "/warning-flags";
    removeStaleStaging(made->cacheRoot);
    removeStaleStaging(made->kernelDir);
    removeStaleStaging(made->warningFlagsDir);
    made->includeDir = made->stdlibRoot + "/include";
    made->preludeDir = made->stdlibRoot + "/pch";
    removeStaleStaging(made->preludeDir);
    made->stubDir = made->stdlibRoot + "/stubs";
    // Once per process that starts using the cache: three directory listings.
    removeUnusedStandardLibraries(made->cacheRoot, made->stdlibRoot, unusedEntryLifetime());
    removeUnusedPreludes(made->preludeDir, unusedEntryLifetime());
    removeUnusedLibraries(made->kernelDir, unusedEntryLifetime());
    prepared = std::move(made);
    return prepared;
}

} // namespace metalcpu::jit
