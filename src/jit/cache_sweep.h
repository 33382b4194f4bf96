// What keeps the run-time cache from growing for ever: the precompiled preludes of compilers,
// flag sets and flavours no longer used, the compiled libraries of sources, settings and
// metalcpu versions no longer used, and the standard libraries of other metalcpu versions, are
// removed once nobody has used them for METALCPU_CACHE_UNUSED_DAYS; what a process uses is
// held with a lease that no sweep removes (docs/architecture.md, "Unused entries").
#pragma once

#include <chrono>
#include <memory>
#include <string>

namespace metalcpu::jit {

/// A cache file this process is using (a precompiled prelude, a compiled library being read,
/// a standard library's `complete` stamp): a shared lock on it (flock), which a sweep must take exclusively before it removes
/// the file, so nothing is removed while any process holds one; and the file's time stamp,
/// which says when it was last used, refreshed when it is older than an hour.
class CacheLease {
public:
    /// The lease of the regular file `path` (reached without a symbolic link), or nullptr,
    /// saying why in the debug log, when there is none to hold: the file is missing, is
    /// something else, or a sweep is removing it or has removed it since it was opened. The
    /// caller then does without it (makes it again, compiles without it).
    static std::shared_ptr<CacheLease> take(const std::string& path);
    ~CacheLease();
    CacheLease(const CacheLease&) = delete;
    CacheLease& operator=(const CacheLease&) = delete;

private:
    explicit CacheLease(int descriptor) : descriptor_(descriptor) {}
    int descriptor_;
};

/// How long a cache entry nobody uses is kept: METALCPU_CACHE_UNUSED_DAYS days, or zero (for
/// ever) when that is 0 or less.
std::chrono::seconds unusedEntryLifetime();

/// Removes from `preludeDir` (a stdlib-*/pch directory) the precompiled preludes (*.h.gch) and
/// the notes that one is wanted (*.wanted) last used more than `lifetime` ago, of this user,
/// reached without a link, and not leased by any process. Nothing when `lifetime` is zero.
void removeUnusedPreludes(const std::string& preludeDir, std::chrono::seconds lifetime);

/// Removes from `kernelDir` (the cache's kernels/ directory) the compiled libraries
/// (*.metallib) and their compile locks (*.compiling, compile_lock.h) last used more than
/// `lifetime` ago, of this user, reached without a link, and
/// not leased by any process (one opening it from the cache holds a lease while it reads it;
/// once read, a library is in a memory file of its own and needs the file no more). Entries
/// being written (staging names) are left alone. Nothing when `lifetime` is zero.
void removeUnusedLibraries(const std::string& kernelDir, std::chrono::seconds lifetime);

/// Removes from `cacheRoot` the standard library directories (stdlib-<version>-<hash>) other
/// than `current` whose `complete` stamp was last used more than `lifetime` ago, with their
/// precompiled preludes: of this user, not links, and not leased by any process. Each is
/// renamed aside (to a staging name) before it is removed, so a process finds it whole or
/// not at all. Nothing when `lifetime` is zero.
void removeUnusedStandardLibraries(const std::string& cacheRoot, const std::string& current,
                                   std::chrono::seconds lifetime);

} // namespace metalcpu::jit
