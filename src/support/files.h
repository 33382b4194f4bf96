#pragma once

#include <optional>
#include <string>

namespace metalcpu::support {

/// The whole file, or nothing when it cannot be read.
std::optional<std::string> readFile(const std::string& path);

/// Writes `contents` to `path` through a temporary file and a rename, so that a concurrent
/// reader (another process sharing the cache) never sees a half-written file.
bool writeFileAtomically(const std::string& path, const std::string& contents);

/// Creates `path` and its parents with the given mode; true if it exists afterwards.
bool makeDirectories(const std::string& path, unsigned mode = 0700);

/// A new private directory under the system's temporary directory.
std::string makeTemporaryDirectory(const std::string& prefix);

/// Removes a directory tree; errors are ignored.
void removeTree(const std::string& path);

/// The directory holding the running executable.
std::string executableDirectory();

bool fileExists(const std::string& path);

} // namespace metalcpu::support
