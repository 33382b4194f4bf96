// Confining a child process to the files it needs (docs/architecture.md, "Confined
// compilers"): the compilers metalcpu runs on kernel source that anyone may have written.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace metalcpu::support {

/// What of the file system a confined child may reach. Paths are absolute; each names a file
/// or a whole directory tree, and one that does not exist is left out. /dev/null is always
/// readable and writable.
struct FileAccess {
    std::vector<std::string> readable; ///< it may read (and run) these
    std::vector<std::string> writable; ///< it may read, write, create and remove in these
};

/// What this machine offers to confine a child, found out once per process.
struct ConfinementSupport {
    /// The Landlock ABI version: 0 when the kernel has no Landlock (or it is turned off).
    /// With it a child can open nothing outside its FileAccess.
    int landlockAbi = 0;
    /// Whether a child can have a private view of the file system (a user and mount
    /// namespace) in which only its FileAccess exists: then it cannot even learn whether
    /// another file exists. Containers often forbid user namespaces.
    bool privateView = false;
};
const ConfinementSupport& confinementSupport();

/// Everything a child needs to confine itself, prepared in the parent, which may allocate,
/// read the file system and log; the child enters it between fork and exec with system
/// calls alone. Uses what confinementSupport() says the machine offers: both layers, one, or
/// (said once in the log, at debug level) none.
class Confinement {
public:
    /// Prepares the confinement to `access`; `workingDirectory` (absolute, or empty for this
    /// process's) is where the child will run, which its view must hold. nullptr with the
    /// reason in `error` when it cannot be prepared.
    static std::unique_ptr<Confinement> prepare(const FileAccess& access, const std::string& workingDirectory,
                                                std::string* error);
    ~Confinement();

    /// In the child, between fork and exec: enters the private view (then changes into the
    /// working directory) and restricts the process with Landlock, for good (no_new_privs).
    /// Only async-signal-safe calls. 0, or the errno of the step that failed, whose name
    /// goes to `failedStep`.
    int enter(const char** failedStep) const noexcept;

    Confinement(const Confinement&) = delete;
    Confinement& operator=(const Confinement&) = delete;

private:
    /// One thing the private view holds, made in the child in order.
    struct ViewStep {
        enum class Kind { Directory, Link, Bind } kind = Kind::Directory;
        std::string where;   ///< its place while the view is built: the view's root + its path
        std::string target;  ///< Link: what it points to; Bind: what is mounted there
        bool makePlace = true;  ///< Bind: create the mount point (else it exists already)
        bool directory = true;  ///< Bind: of a directory (else a file)
        bool writable = false;  ///< Bind: else remounted read-only
        unsigned long keptFlags = 0; ///< Bind: the source mount's flags a read-only remount keeps
    };
    Confinement() = default;
    int enterView(const char** failedStep) const noexcept;

    int ruleset_ = -1;             ///< the Landlock ruleset; -1 without Landlock
    std::string viewRoot_;         ///< an empty directory of ours the view is built on; empty: no view
    std::vector<ViewStep> steps_;  ///< what the view holds, parents before children
    std::string workingDirectory_; ///< absolute
    std::string setgroups_, uidMap_, gidMap_; ///< what the user namespace's files are given
};

} // namespace metalcpu::support
