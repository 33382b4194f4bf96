#include "jit/library_cache.h"

#include "jit/cache_directory.h"
#include "jit/cache_sweep.h"
#include "jit/compile_lock.h"
#include "jit/compile_parts.h"
#include "jit/compiler_process.h"
#include "jit/isa.h"
#include "jit/kernel_compiler.h"
#include "jit/kernel_library.h"
#include "jit/toolchain.h"
#include "support/config.h"
#include "support/files.h"
#include "support/hash.h"
#include "support/log.h"
#include "support/scratch_directories.h"

#include <metalcpu/kernel_abi.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <sys/stat.h>
#include <thread>

namespace metalcpu::jit {
namespace {

/// Removes what is at a cache entry's path: a file, a link, or a directory tree planted
/// there (without following links in it), so that the entry can be built again.
void removeEntry(const std::string& path) {
    struct stat info {};
    if (lstat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) support::removeTree(path);
    else std::remove(path.c_str());
}

std::atomic<std::chrono::milliseconds> slowCompileDelay{std::chrono::seconds(1)};

/// Logs `message` as a warning when the compile it lives around is still going after
/// slowCompileDelay: a first run that compiles its kernels takes seconds, which nobody
/// expects of a Metal program, and silence would look like a hang.
class SlowCompileNotice {
public:
    explicit SlowCompileNotice(std::string message) {
        try {
            watcher_ = std::thread([this, message = std::move(message), delay = slowCompileDelay.load()] {
                std::unique_lock lock(mutex_);
                if (!finishedChanged_.wait_for(lock, delay, [this] { return finished_; }))
                    support::log().warn("{}", message);
            });
        } catch (const std::system_error&) {
            // No thread to spare: the compile goes on without its notice.
        }
    }
    ~SlowCompileNotice() {
        {
            std::lock_guard lock(mutex_);
            finished_ = true;
        }
        finishedChanged_.notify_one();
        if (watcher_.joinable()) watcher_.join();
    }
    SlowCompileNotice(const SlowCompileNotice&) = delete;
    SlowCompileNotice& operator=(const SlowCompileNotice&) = delete;

private:
    std::mutex mutex_;
    std::condition_variable finishedChanged_;
    bool finished_ = false;
    std::thread watcher_;
};

/// What looking up a cache entry found.
enum class Lookup {
    Loaded,      ///< it was there, sound, and is open
    Missing,     ///< it was not there, or was damaged and is removed: build it
    Unavailable, ///< it could not be read for want of descriptors or memory: the reason is in the diagnostics
};

/// Opens the cache entry `build.libraryPath`, built for `key`. A damaged one (truncated,
/// changed, planted, another user's, of another kind) is removed, to be built again: it is
/// never loaded. One this process cannot read for now (out of descriptors, say) stays: it
/// may be sound, and building it again would run out the same way.
Lookup openCached(SourceBuild& build, const std::string& key) {
    struct stat info {};
    if (lstat(build.libraryPath.c_str(), &info) != 0) return Lookup::Missing;
    // Held while the file is read, so that no unused-entry sweep removes it meanwhile; taking
    // it says the entry was used now (a time-stamp write once an hour at most). Without one
    // (a sweep is removing it, or it is no file) the read goes on: the bytes read end up in a
    // memory file of the library's own, which needs the name no more.
    std::shared_ptr<CacheLease> lease = CacheLease::take(build.libraryPath);
    std::string error;
    bool unavailable = false;
    build.library = KernelLibrary::open(build.libraryPath, &error, key, &unavailable);
    lease.reset();
    if (!build.library && unavailable) {
        build.diagnostics = "cannot load the cached kernel library: " + error + "\n";
        return Lookup::Unavailable;
    }
    if (!build.library) {
        support::log().warn("rebuilding a damaged kernel cache entry: {}", error);
        removeEntry(build.libraryPath);
        return Lookup::Missing;
    }
    build.ok = true;
    build.fromCache = true;
    return Lookup::Loaded;
}

/// How long a compile waits for another process compiling the same library: the wall time
/// that one's compile may take (ten times its CPU limit, the validation flavour's), or for as
/// long as it takes when compiles have no limit.
std::chrono::seconds compileLockWait() {
    const int timeout = support::config().compileTimeout;
    return std::chrono::seconds(timeout > 0 ? 10L * kValidationCompileTimeFactor * timeout : 0);
}

/// Finds the library for `key` (plus `suffix`) in the cache, or builds it with `make` into a
/// staging file of its own and renames that into place, so that other processes see the
/// library whole or not at all. `make(path, key)` writes a library sealed for `key` to `path`;
/// `what` names the library in the notice of a slow compile.
template <class Make>
SourceBuild buildThroughCache(support::Hasher hasher, const std::string& suffix, const std::string& what, Make&& make) {
    SourceBuild build;
    std::string error;
    std::shared_ptr<const Toolchain> tools = toolchain(&error);
    if (!tools) {
        build.diagnostics = error + "\n";
        return build;
    }
    // Everything that changes the compiled code is part of the key.
    hasher.add(tools->identity).add(tools->stdlibHash).add(libraryVersion()).add(translatorIdentity());
    hasher.add(static_cast<std::uint64_t>(METALCPU_KERNEL_ABI_VERSION)).add(support::config().kernelFlags);
    hasher.add(static_cast<std::uint64_t>(support::config().interleaveThreads != 0));
    hasher.add(static_cast<std::uint64_t>(interleaveLanesSetting()));
    hasher.add(static_cast<std::uint64_t>(support::config().laneVectors != 0));
    // Kernels are compiled for this CPU's level and tuned for it; a cache directory that
    // machines share (a home directory on a network) keeps an entry for each.
    hasher.add(hostTarget());
    const std::string key = hasher.hex();
    const std::string& directory = tools->kernelDir;
    build.libraryPath = directory + "/" + key + suffix;

    std::shared_ptr<std::mutex> entry = cacheEntryMutex(build.libraryPath);
    std::lock_guard lock(*entry);
    if (openCached(build, key) != Lookup::Missing) return build;
    // Another process may be compiling the same library: wait for it, then look again.
    // The notice of that wait starts when the lock is found held: one started before taking it
    // would, with a short delay, tell of a wait there never was.
    std::optional<CompileLock> compiling;
    std::optional<SlowCompileNotice> waiting;
    compiling.emplace(build.libraryPath, compileLockWait(), [&] {
        waiting.emplace("waiting for another process compiling " + what + " (" + build.libraryPath + ")");
    });
    waiting.reset();
    if (openCached(build, key) != Lookup::Missing) return build;
    std::string staging = support::createUniqueFile(build.libraryPath + ".staging");
    if (staging.empty()) {
        build.diagnostics = "cannot write in " + directory + "\n";
        return build;
    }
    CompileResult made;
    {
        SlowCompileNotice notice("compiling " + what +
                                 "; a first run compiles each library once, later runs load it from the kernel "
                                 "cache in " + directory);
        made = make(staging, key);
    }
    build.diagnostics += made.diagnostics;
    // The linker made the file with the umask's mode; a cache entry is its owner's alone.
    if (made.ok && (chmod(staging.c_str(), 0600) != 0 || std::rename(staging.c_str(), build.libraryPath.c_str()) != 0))
        build.diagnostics += "cannot write " + build.libraryPath + "\n";
    else if (made.ok && (build.library = KernelLibrary::open(build.libraryPath, &error, key)))
        build.ok = true;
    else if (made.ok)
        build.diagnostics += error + "\n";
    std::remove(staging.c_str());
    return build;
}

} // namespace

void setSlowCompileDelay(std::chrono::milliseconds delay) { slowCompileDelay.store(delay); }

std::size_t deferredCodeThreshold() {
    const int setting = support::config().deferredCodeKernels;
    if (setting < 0) return 0;
    // A pipeline of a deferred kernel costs about one kernel's compile plus the whole file's
    // front end (a second or so); compiling everything at once costs each kernel's compile
    // (0.66 s of CPU each for ggml's mat-vec instantiations) shared among the jobs. Programs
    // use a few kernels of a big library, test suites most kernels of a small one: past some
    // sixteen kernels per job (a compile of ten seconds or more), deferring wins.
    return setting > 0 ? static_cast<std::size_t>(setting) : 16 * compileJobs();
}

SourceBuild buildLibraryFromSource(const std::string& source, const KernelCompileSettings& settings) {
    BuildOptions options;
    options.deferCodeAbove = deferredCodeThreshold();
    support::Hasher key;
    // The threshold decides what the library holds (a reflection image or every kernel's code).
    key.add(source).add(settings.key()).add(static_cast<std::uint64_t>(options.deferCodeAbove));
    const char* what = "the kernels of newLibrary(source)";
    SourceBuild build = buildThroughCache(key, ".metallib", what, [&](const std::string& output, const std::string& cacheKey) {
        // The source is compiled from a file named program_source in a private directory, so
        // that the compiler's messages say program_source:LINE:COL as Metal's do.
        std::string work = support::makeScratchDirectory("metalcpu-build-");
        if (work.empty()) return CompileResult{false, "cannot create a temporary directory\n"};
        CompileResult result{false, "cannot write " + work + "/program_source\n"};
        if (support::writeFileAtomically(work + "/program_source", source)) {
            result = translateAndCompile("program_source", work, settings, work + "/translated.cpp", output, true, cacheKey,
                                         options);
        }
        support::removeScratchDirectory(work);
        return result;
    });
    if (build.ok && !build.fromCache) support::log().debug("compiled program_source into {}", build.libraryPath);
    return build;
}

SourceBuild buildValidationLibrary(const std::vector<std::string>& validationSources, const std::string& kernel) {
    // A named threadgroup array's subscript is checked against its extent where it is used
    // (checked.h): inside a loop, an index the loop does not change (tile[row][k]'s row) is
    // checked at every step unless the compiler unswitches the loop on it, which GCC does
    // from -O3 on. With the flag the instrumented tiled matmul executes 1.3× the
    // instructions of its plain flavour (3.9× before the checks by index; README, "Shader
    // validation's cost").
    BuildOptions options;
    options.codeFlags = {"-funswitch-loops"};
    options.compileTimeFactor = kValidationCompileTimeFactor;
    support::Hasher key;
    for (const std::string& flag : options.codeFlags) key.add(flag);
    for (const std::string& source : validationSources) key.add(source);
    const std::string what = kernel.empty() ? "the shader-validation flavour of a library"
                                            : "the shader-validation flavour of kernel " + kernel;
    SourceBuild build = buildThroughCache(key, ".validation.metallib", what, [&](const std::string& output,
                                                                                 const std::string& cacheKey) {
        std::string work = support::makeScratchDirectory("metalcpu-validation-");
        if (work.empty()) return CompileResult{false, "cannot create a temporary directory\n"};
        std::vector<std::string> objects;
        CompileResult result{true, {}};
        for (std::size_t i = 0; result.ok && i < validationSources.size(); ++i) {
            std::string cpp = work + "/validation" + std::to_string(i) + ".cpp";
            std::string object = work + "/validation" + std::to_string(i) + ".air";
            CompileResult compiled = support::writeFileAtomically(cpp, validationSources[i])
                                         ? compileTranslation(cpp, work, object, false, {}, options)
                                         : CompileResult{false, "cannot write " + cpp + "\n"};
            result = CompileResult{compiled.ok, result.diagnostics + compiled.diagnostics};
            objects.push_back(object);
        }
        if (result.ok) result = linkLibrary(objects, output, cacheKey);
        support::removeScratchDirectory(work);
        return result;
    });
    if (build.ok && !build.fromCache)
        support::log().debug("compiled the shader-validation flavour into {}", build.libraryPath);
    return build;
}

namespace {

/// A translated text made for one kernel (specialised, or its machine code) compiled into a
/// library through the cache, under `suffix`; `what` names it in the notice of a slow compile
/// and the log.
SourceBuild buildOneKernelText(const std::string& cpp, const std::string& suffix, const std::string& what) {
    support::Hasher key;
    key.add(cpp);
    SourceBuild build = buildThroughCache(key, suffix, what, [&](const std::string& output, const std::string& cacheKey) {
        std::string work = support::makeScratchDirectory("metalcpu-kernel-");
        if (work.empty()) return CompileResult{false, "cannot create a temporary directory\n"};
        const std::string path = work + "/kernel.cpp";
        CompileResult result = support::writeFileAtomically(path, cpp)
                                   ? compileTranslation(path, work, output, true, cacheKey)
                                   : CompileResult{false, "cannot write " + path + "\n"};
        support::removeScratchDirectory(work);
        return result;
    });
    if (build.ok && !build.fromCache) support::log().debug("compiled {} into {}", what, build.libraryPath);
    return build;
}

} // namespace

SourceBuild buildSpecialisedLibrary(const std::string& specialisedCpp) {
    return buildOneKernelText(specialisedCpp, ".specialised.metallib", "a library specialised with function constants");
}

SourceBuild buildKernelCode(const std::string& kernelCpp, const std::string& kernel) {
    return buildOneKernelText(kernelCpp, ".kernel.metallib", "the machine code of kernel " + kernel);
}

} // namespace metalcpu::jit
