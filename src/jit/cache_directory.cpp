#include "jit/cache_directory.h"

#include "support/config.h"
#include "support/files.h"
#include "support/log.h"

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <unistd.h>

namespace fs = std::filesystem;

namespace metalcpu::jit {
namespace {

/// The private cache of a process without a home: made at first use, removed at exit by
/// the process that made it (not by a child that forked and exits).
struct PrivateCache {
    std::string path;
    pid_t owner = 0;
};
PrivateCache& privateCache() {
    // Never destroyed: the exit handler reads it after static destructors may have run.
    static PrivateCache* cache = new PrivateCache;
    return *cache;
}

void removePrivateCache() {
    const PrivateCache& cache = privateCache();
    if (!cache.path.empty() && cache.owner == getpid()) support::removeTree(cache.path);
}

/// The private cache directory, made on first use; empty when it cannot be made.
std::string privateCacheDirectory() {
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    PrivateCache& cache = privateCache();
    if (cache.path.empty()) {
        cache.path = support::makeTemporaryDirectory("metalcpu-cache-");
        cache.owner = getpid();
        if (!cache.path.empty()) std::atexit(removePrivateCache);
    }
    return cache.path;
}

} // namespace

std::string cacheRootDirectory() {
    std::string root = support::config().cacheDir;
    if (root.empty()) {
        std::string xdg = support::environment("XDG_CACHE_HOME");
        std::string home = support::environment("HOME");
        if (!xdg.empty() && xdg[0] == '/') root = xdg + "/metalcpu";
        else if (!home.empty()) root = home + "/.cache/metalcpu";
        else return {};
    }
    // Absolute, because kernels are compiled in other working directories.
    std::error_code error;
    fs::path absolute = fs::absolute(root, error);
    return error ? root : absolute.lexically_normal().string();
}

std::string untrustedCacheMessage(const std::string& root, const std::string& reason) {
    return "the cache directory " + root + " cannot be trusted with compiled kernels: " + reason +
           ". It must belong to you and be writable by no one else, and so must every directory "
           "above it (which may also belong to root, or be shared with the sticky bit set, as /tmp "
           "is). Fix the owner or mode (chmod go-w), or set METALCPU_CACHE_DIR to a private directory";
}

namespace {

/// Why the directory `root` (absolute) cannot be a cache, or empty when it can: it is
/// created if missing, but only below directories that pass untrustedParents(), so that
/// nothing is made in a place that would be refused anyway; then resolved and checked.
/// `resolved` receives the path with its links resolved.
std::string unusableCache(const std::string& root, std::string* resolved) {
    fs::path existing = root;
    std::error_code error;
    while (!fs::exists(existing, error) && existing.has_relative_path()) existing = existing.parent_path();
    if (existing != fs::path(root)) {
        const std::string above = support::resolvedPath(existing.string());
        if (std::string reason = above.empty() ? "cannot resolve " + existing.string() : support::untrustedParents(above);
            !reason.empty())
            return untrustedCacheMessage(root, reason);
    }
    if (!support::makeDirectories(root, 0700)) return "cannot create the cache directory " + root;
    // Resolved once: links in the path are followed now, and never again.
    *resolved = support::resolvedPath(root);
    std::string reason = resolved->empty() ? "cannot resolve " + root : support::untrustedPath(*resolved);
    return reason.empty() ? std::string() : untrustedCacheMessage(root, reason);
}

} // namespace

std::string prepareCacheDirectory(std::string* error) {
    std::string root = cacheRootDirectory();
    if (root.empty() && (root = privateCacheDirectory()).empty()) {
        *error = "cannot create a private cache directory in the temporary directory (no HOME, "
                 "XDG_CACHE_HOME or METALCPU_CACHE_DIR names a cache)";
        return {};
    }
    std::string resolved;
    std::string problem = unusableCache(root, &resolved);
    if (problem.empty()) return resolved;
    // A directory the user chose is theirs to fix; the default one may be a home directory
    // this process does not own (root in a CI container whose HOME belongs to the runner's
    // user): there the process compiles into a private directory, as without a home.
    const bool chosen = !support::config().cacheDir.empty();
    const std::string fallback = chosen ? std::string() : privateCacheDirectory();
    if (fallback.empty() || !unusableCache(fallback, &resolved).empty()) {
        *error = problem;
        return {};
    }
    static std::once_flag warned;
    std::call_once(warned, [&] {
        support::log().warn("{}; compiled kernels go to a private directory, {}, removed at exit, and are not "
                            "shared with other processes (set METALCPU_CACHE_DIR to a directory of this user's to "
                            "keep them)",
                            problem, fallback);
    });
    return resolved;
}

std::shared_ptr<std::mutex> cacheEntryMutex(const std::string& path) {
    static std::mutex guard;
    static std::map<std::string, std::weak_ptr<std::mutex>> entries;
    std::lock_guard lock(guard);
    std::erase_if(entries, [](const auto& entry) { return entry.second.expired(); });
    std::weak_ptr<std::mutex>& slot = entries[path];
    std::shared_ptr<std::mutex> mutex = slot.lock();
    if (!mutex) {
        mutex = std::make_shared<std::mutex>();
        slot = mutex;
    }
    return mutex;
}

bool prepareCacheSubdirectory(const std::string& path, std::string* error) {
    if (!support::makeDirectories(path, 0700)) {
        *error = "cannot create " + path;
        return false;
    }
    std::string reason = support::untrustedDirectory(path);
    if (!reason.empty()) *error = untrustedCacheMessage(fs::path(path).parent_path().string(), reason);
    return reason.empty();
}

} // namespace metalcpu::jit
