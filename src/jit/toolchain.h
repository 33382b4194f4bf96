#pragma once

#include <memory>
#include <string>
#include <vector>

namespace metalcpu::jit {

class CacheLease;

/// What compiling kernels needs on this machine, prepared at first use.
struct Toolchain {
    std::string configured; ///< METALCPU_CXX when this was prepared
    std::string compiler;   ///< the host C++ compiler that builds kernels
    std::string identity;   ///< compiler path, size and time stamp: part of every cache key
    /// What running the compiler reads: the compiler (with every link on the way to it),
    /// the installation it belongs to, the system's programs and libraries. A confined
    /// compiler may read these and its inputs only (support/confinement.h).
    std::vector<std::string> programFiles;
    std::string cacheChoice; ///< cacheRootDirectory() when this was prepared
    std::string cacheRoot;  ///< the per-user cache directory, trusted, its links resolved
    std::string kernelDir;  ///< <cacheRoot>/kernels: compiled libraries, named after their keys
    /// <cacheRoot>/warning-flags: which -W flags the compiler knows (knownWarningFlags()),
    /// made at first use
    std::string warningFlagsDir;
    std::string stdlibHash; ///< content hash of the embedded standard library
    std::string stdlibRoot; ///< where it is written out: <cacheRoot>/stdlib-<version>-<hash>
    /// The standard library's `complete` stamp, leased (cache_sweep.h): no process's sweep
    /// removes the directory while this toolchain is held
    std::shared_ptr<const CacheLease> stdlibLease;
    std::string includeDir; ///< the kernel standard library, written out from metalcpu itself
    /// <stdlibRoot>/pch: the kernel prelude precompiled for each compiler, flag set and
    /// flavour (precompiled_prelude.h), made at first use
    std::string preludeDir;
    std::string stubDir;    ///< empty <metal_*> headers for the preprocessing pass
};

/// The toolchain, or nullptr with a message in `error` when kernels cannot be compiled here
/// (no compiler, or a cache directory that cannot be created, written or trusted:
/// cache_directory.h). It is prepared again when the cache directory was removed while the
/// process runs (a cache cleaner, `rm -rf ~/.cache/metalcpu`), or names another place or
/// METALCPU_CXX another compiler after support::reloadConfig(). A caller's copy stays valid
/// while it holds it.
std::shared_ptr<const Toolchain> toolchain(std::string* error);

/// metalcpu's version, part of every cache key.
const char* libraryVersion();

/// A hash of the sources of the front end and of this directory, taken when metalcpu was
/// built (hash_sources.cmake): part of every cache key, so a changed translator never reuses
/// what an older one compiled, even at the same version.
const char* translatorIdentity();

} // namespace metalcpu::jit
