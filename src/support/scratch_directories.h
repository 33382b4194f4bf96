// Private working directories of a compile, in the system's temporary directory, that a
// killed process does not leave behind for good: each holds a locked `.owner` file while its
// process lives, and the next process that makes one removes those whose lock nobody holds.
#pragma once

#include <string>

namespace metalcpu::support {

/// A new private (0700) directory `<temporary directory>/<prefix>XXXXXX` holding `.owner`,
/// which this process keeps locked (flock) until removeScratchDirectory(); empty when it cannot
/// be made. The first call of a process removes the orphaned scratch directories
/// (removeOrphanedScratchDirectories()).
std::string makeScratchDirectory(const std::string& prefix);

/// Removes a directory makeScratchDirectory() made, and lets go of its lock.
void removeScratchDirectory(const std::string& path);

/// Removes the directories of the temporary directory whose names start with "metalcpu-", that
/// belong to this user and hold an `.owner` that no process has locked: the process that made
/// them ended without removing them (SIGKILL, or a signal whose default action ends it). A
/// directory without `.owner` (being made, or not a scratch directory) is left alone. Returns
/// how many it removed.
int removeOrphanedScratchDirectories();

} // namespace metalcpu::support
