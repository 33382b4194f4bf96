#pragma once

#include <memory>
#include <mutex>
#include <string>

namespace metalcpu::jit {

/// The cache directory a user chose: METALCPU_CACHE_DIR, else $XDG_CACHE_HOME/metalcpu (when
/// XDG_CACHE_HOME is absolute, as the XDG specification requires), else
/// $HOME/.cache/metalcpu; made absolute. Empty when none of them is set: the process then
/// uses a private directory of its own (docs/architecture.md, "The kernel cache").
std::string cacheRootDirectory();

/// Makes the cache directory ready: cacheRootDirectory() (or, when that is empty, a new
/// private directory under the temporary directory, removed when the process exits),
/// created with mode 0700 if missing, its symbolic links resolved, and checked to be
/// trusted (support::untrustedPath()). Returns the resolved path, or empty with the reason
/// and how to fix it in `error`.
std::string prepareCacheDirectory(std::string* error);

/// Creates the directory `path` inside the cache if missing and checks that it is trusted
/// (support::untrustedDirectory()); false with the reason in `error`.
bool prepareCacheSubdirectory(const std::string& path, std::string* error);

/// A mutex per cache entry (a path) that some thread of this process is looking up or
/// building, so that threads asking for the same entry at once build it once and the others
/// use it. Processes need none: each writes a name of its own and renames it into place.
std::shared_ptr<std::mutex> cacheEntryMutex(const std::string& path);

/// The message for a cache directory that is not trusted for `reason`.
std::string untrustedCacheMessage(const std::string& root, const std::string& reason);

} // namespace metalcpu::jit
