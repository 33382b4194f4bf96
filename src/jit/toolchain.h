#pragma once

#include <string>

namespace metalcpu::jit {

/// What compiling kernels needs on this machine, prepared once per process.
struct Toolchain {
    std::string compiler;   ///< the host C++ compiler that builds kernels
    std::string identity;   ///< compiler path, size and time stamp: part of every cache key
    std::string includeDir; ///< the kernel standard library, written out from metalcpu itself
    std::string stubDir;    ///< empty <metal_*> headers for the preprocessing pass
    std::string cacheRoot;  ///< the per-user cache directory (mode 0700)
    std::string stdlibHash; ///< content hash of the embedded standard library
};

/// The toolchain, or nullptr with a message in `error` when kernels cannot be compiled here.
const Toolchain* toolchain(std::string* error);

/// The cache directory: METALCPU_CACHE_DIR, else $XDG_CACHE_HOME/metalcpu, else
/// ~/.cache/metalcpu, else a directory under /tmp named after the user.
std::string cacheRootDirectory();

/// metalcpu's version, part of every cache key.
const char* libraryVersion();

} // namespace metalcpu::jit
