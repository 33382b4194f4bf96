#pragma once

#include <optional>
#include <string>

struct stat;

namespace metalcpu::support {

/// The whole file, or nothing when it cannot be read.
std::optional<std::string> readFile(const std::string& path);

/// Writes `contents` to `path` through a temporary file of its own and a rename, so that a
/// concurrent reader (another process sharing the cache) never sees a half-written file and
/// concurrent writers (threads or processes) never share the temporary. The file is
/// private (mode 0600).
bool writeFileAtomically(const std::string& path, const std::string& contents);

/// Writes `contents` to `path`, created (or replaced) with the mode the umask gives, as a
/// compiler writes its output: a file nobody else reads meanwhile (a scratch file).
bool writeFile(const std::string& path, const std::string& contents);

/// Moves the file `from` to `to`, replacing it: a rename, or, where the two are on different
/// file systems, a copy with `from`'s permissions renamed into place (writeFileAtomically())
/// and `from` removed. A `to` that is a device, a pipe or a socket (`-o /dev/null`) is never
/// replaced: it is written into. False when it cannot.
bool moveFile(const std::string& from, const std::string& to);

/// Whether `path` names (through symbolic links) something other than a regular file or a
/// directory: a device, a pipe or a socket, which a tool writes into and never replaces or
/// removes.
bool isSpecialFile(const std::string& path);

/// Creates a new, empty, private (0600) file named `prefix` plus a unique suffix and returns
/// its name; empty when it cannot. For staging files that other writers must not share.
std::string createUniqueFile(const std::string& prefix);

/// Creates `path` and its parents with the given mode; true if it exists afterwards.
bool makeDirectories(const std::string& path, unsigned mode = 0700);

/// A new private directory under the system's temporary directory.
std::string makeTemporaryDirectory(const std::string& prefix);

/// A new private (0700) directory named `prefix` plus a unique suffix; empty when it cannot
/// be made.
std::string makeUniqueDirectory(const std::string& prefix);

/// Removes a directory tree; errors are ignored.
void removeTree(const std::string& path);

/// The directory holding the running executable.
std::string executableDirectory();

bool fileExists(const std::string& path);

/// Why the directory `path` cannot be trusted with files this process will load and run,
/// or empty when it can: a directory (not a symbolic link) owned by this user and writable
/// by no one else.
std::string untrustedDirectory(const std::string& path);

/// untrustedDirectory() for `path` and also every directory above it, which may belong to
/// this user or root and be writable by others only with the sticky bit (as /tmp is); else
/// someone else could rename `path` away and put another in its place. `path` must be
/// absolute and free of symbolic links (realpath()).
std::string untrustedPath(const std::string& path);

/// untrustedPath()'s rule for the directories above `path`, applied to `path` and every
/// directory above it: each may belong to this user or root, and be writable by others only
/// with the sticky bit. For a directory that is to hold a new one. `path` must be absolute
/// and free of symbolic links.
std::string untrustedParents(const std::string& path);

/// untrustedDirectory() for `path` and everything in it, recursively: files too must be this
/// user's and writable by no one else, and nothing may be a symbolic link.
std::string untrustedTree(const std::string& path);

/// untrustedDirectory()'s rule for a regular file described by `info` (fstat() of an open
/// descriptor, so that what is checked is what was opened); `path` names it in the reason.
std::string untrustedFile(const std::string& path, const struct stat& info);

/// `path` with every symbolic link resolved (realpath()); empty when it does not exist.
std::string resolvedPath(const std::string& path);

} // namespace metalcpu::support
