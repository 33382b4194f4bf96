#pragma once

#include <string>
#include <string_view>

namespace metalcpu::jit {

/// A kernel library file (.metallib, or a cache entry) is the shared object the linker
/// wrote, followed by a trailer that metalcpu appends when it publishes the file: the
/// object's size, the cache key it was built for, and a content hash (docs/kernel-abi.md,
/// "The library file"). The dynamic loader maps only the object's segments, so the trailer
/// costs nothing at load.

/// Appends the trailer to the library the linker just wrote at `path`, after checking its
/// ELF image (elf_check.h); `cacheKey` is empty for libraries the tools build. Returns what
/// is wrong, or empty on success.
std::string sealLibraryFile(const std::string& path, const std::string& cacheKey = {});

/// Checks a whole library file: the trailer (size, magic, version, hash, and `cacheKey`
/// when one is expected) and then the ELF image. Returns what is wrong, or empty.
std::string checkLibraryFile(std::string_view file, const std::string& cacheKey = {});

/// Reads the library at `path` into a sealed memory file (memfd: nobody can change it
/// afterwards) and checks it with checkLibraryFile(). With `cacheKey` the file is a cache
/// entry and must also be a regular file of this user that no one else can write, reached
/// without a symbolic link. Returns the memory file's descriptor, or -1 with the reason in
/// `error`; `digest`, when given, receives the content hash the file was sealed with.
/// `unavailable`, when given, says whether a failure was this process's for now (out of
/// descriptors or memory), not the file's: such a file may well be sound.
int readVerifiedLibrary(const std::string& path, const std::string& cacheKey, std::string* error,
                        std::string* digest = nullptr, bool* unavailable = nullptr);

} // namespace metalcpu::jit
