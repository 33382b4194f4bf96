// Landlock (Linux 5.13 and later): how an unprivileged process gives up, for good, the files,
// TCP ports, signals and abstract sockets it does not need. Shared by the confined compilers
// (support/confinement.h) and the device process's sandbox (device/sandbox.h).
#pragma once

#include <cstdint>
#include <string>

namespace metalcpu::support {

/// Rights of later Landlock ABIs than the system's <linux/landlock.h> may know; the running
/// kernel's ABI decides which are used.
inline constexpr std::uint64_t kLandlockTruncate = 1ULL << 14;    ///< ABI 3
inline constexpr std::uint64_t kLandlockIoctlDevice = 1ULL << 15; ///< ABI 5

/// The kernel's Landlock ABI version: 0 when it has none (or it is turned off, or a container's
/// own filter refuses the call).
int landlockAbi();

/// Every file-system right Landlock ABI `abi` handles.
std::uint64_t landlockFileRights(int abi);

/// A Landlock ruleset that handles everything ABI `abi` can restrict: every file-system right,
/// TCP bind and connect (ABI 4), signals and abstract Unix sockets beyond the process's own
/// domain (ABI 6). Without rules it allows none of them; rules for paths may then be added
/// with landlock_add_rule. The descriptor, or -1 with the reason in `error`.
int makeLandlockRuleset(int abi, std::string* error);

/// Restricts the calling thread, and what it starts later, by `ruleset`, for good: sets
/// no_new_privs first, as Landlock requires of an unprivileged process. Only system calls
/// (async-signal-safe, so usable between fork and exec). 0, or the errno of the step that
/// failed, whose name goes to `failedStep`.
int restrictSelfByLandlock(int ruleset, const char** failedStep) noexcept;

} // namespace metalcpu::support
