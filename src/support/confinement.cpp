#include "support/confinement.h"

#include "support/files.h"
#include "support/landlock.h"
#include "support/log.h"
#include "support/process.h"
#include "support/scratch_directories.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <linux/landlock.h>
#include <map>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace metalcpu::support {
namespace {

constexpr std::uint64_t kReadFile = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_EXECUTE;
constexpr std::uint64_t kReadDirectory = kReadFile | LANDLOCK_ACCESS_FS_READ_DIR;
/// The rights that apply to a file itself (the others are rights on a directory's entries).
constexpr std::uint64_t kFileRights =
    kReadFile | LANDLOCK_ACCESS_FS_WRITE_FILE | kLandlockTruncate | kLandlockIoctlDevice;

/// Lets the ruleset grant `rights` (of those it handles) beneath `path`; a path that does
/// not exist is skipped. False only when the kernel refuses a rule.
bool allowBeneath(int ruleset, const std::string& path, std::uint64_t rights, std::uint64_t handled) {
    int fd = open(path.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0) return true;
    struct stat info {};
    landlock_path_beneath_attr rule{};
    rule.allowed_access = rights & handled & (fstat(fd, &info) == 0 && S_ISDIR(info.st_mode) ? ~0ULL : kFileRights);
    rule.parent_fd = fd;
    const bool added = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) == 0;
    close(fd);
    return added;
}

/// A Landlock ruleset that allows `access` and /dev/null, nothing else of the file system,
/// no TCP and no signals or abstract sockets beyond the child's own processes; -1 with the
/// reason in `error`.
int makeRuleset(int abi, const FileAccess& access, std::string* error) {
    const int ruleset = makeLandlockRuleset(abi, error);
    if (ruleset < 0) return -1;
    const std::uint64_t handled = landlockFileRights(abi);
    bool added = allowBeneath(ruleset, "/dev/null", kFileRights, handled);
    for (const std::string& path : access.readable) added = added && allowBeneath(ruleset, path, kReadDirectory, handled);
    for (const std::string& path : access.writable) added = added && allowBeneath(ruleset, path, ~0ULL, handled);
    if (!added) {
        *error = "cannot add a Landlock rule: " + std::string(std::strerror(errno));
        close(ruleset);
        return -1;
    }
    return ruleset;
}

/// The flags of the mount holding `path` that a read-only bind remount in a user namespace
/// must keep (the kernel locks them), as MS_* flags.
unsigned long lockedMountFlags(const std::string& path) {
    struct statvfs info {};
    if (statvfs(path.c_str(), &info) != 0) return 0;
    unsigned long flags = 0;
    const std::pair<unsigned long, unsigned long> kept[] = {
        {ST_NOSUID, MS_NOSUID},     {ST_NODEV, MS_NODEV},           {ST_NOEXEC, MS_NOEXEC},
        {ST_NOATIME, MS_NOATIME},   {ST_NODIRATIME, MS_NODIRATIME}, {ST_RELATIME, MS_RELATIME}};
    for (auto [statFlag, mountFlag] : kept)
        if (info.f_flag & statFlag) flags |= mountFlag;
    return flags;
}

/// What the private view of a FileAccess holds, by path: every directory on the way to each
/// allowed path, every symbolic link met there (so the path resolves in the view as it does
/// outside), and the allowed file or tree itself, mounted from outside.
class ViewPlan {
public:
    struct Entry {
        enum class Kind { Directory, Link, Bind } kind = Kind::Directory;
        std::string target;
        bool directory = true;
        bool writable = false;
    };

    /// Adds `path` (absolute) and the way to it; a path that does not exist adds nothing.
    void add(const std::string& path, bool writable) { walk(path, writable, true); }
    /// Adds the directory `path` and the way to it, but nothing of what it holds.
    void addDirectory(const std::string& path) { walk(path, false, false); }
    const std::map<std::string, Entry>& entries() const { return entries_; }

private:
    void walk(std::string pending, bool writable, bool mountLast) {
        // Component by component, so that ".." after a symbolic link goes where the kernel goes.
        for (int links = 0; links < 40; ++links) {
            std::vector<std::string> parts;
            for (const fs::path& part : fs::path(pending).relative_path())
                if (!part.empty() && part != ".") parts.push_back(part.string());
            fs::path current = "/";
            bool followed = false;
            for (std::size_t i = 0; i < parts.size() && !followed; ++i) {
                if (parts[i] == "..") {
                    current = current.parent_path();
                    continue;
                }
                const fs::path next = current / parts[i];
                struct stat info {};
                if (lstat(next.c_str(), &info) != 0) return;
                if (S_ISLNK(info.st_mode)) {
                    std::error_code error;
                    const fs::path target = fs::read_symlink(next, error);
                    if (error) return;
                    record(next.string(), Entry{Entry::Kind::Link, target.string()});
                    fs::path rest = target.is_absolute() ? target : current / target;
                    for (std::size_t after = i + 1; after < parts.size(); ++after) rest /= parts[after];
                    pending = rest.string();
                    followed = true;
                } else if (i + 1 == parts.size()) {
                    if (mountLast) record(next.string(), Entry{Entry::Kind::Bind, next.string(), S_ISDIR(info.st_mode), writable});
                    else if (S_ISDIR(info.st_mode)) record(next.string(), Entry{});
                } else if (S_ISDIR(info.st_mode)) {
                    record(next.string(), Entry{});
                    current = next;
                } else {
                    return;
                }
            }
            if (!followed) return;
        }
    }

    void record(const std::string& path, const Entry& entry) {
        auto [place, added] = entries_.emplace(path, entry);
        if (added) return;
        Entry& known = place->second;
        if (entry.kind == Entry::Kind::Bind && known.kind == Entry::Kind::Bind) known.writable |= entry.writable;
        else if (entry.kind == Entry::Kind::Bind) known = entry;
    }

    std::map<std::string, Entry> entries_;
};

/// Whether `path` lies strictly inside the directory `tree`.
bool inside(const std::string& path, const std::string& tree) {
    return path.size() > tree.size() && path.compare(0, tree.size(), tree) == 0 &&
           (tree == "/" || path[tree.size()] == '/');
}

/// Writes `text` to the file `path`; 0 or errno. Async-signal-safe.
int writeTo(const char* path, const std::string& text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    const int error = written ? 0 : errno;
    close(fd);
    return error;
}

/// Whether a child can make the private view here: it tries the namespaces and a mount.
bool privateViewWorks() {
    const std::string uidMap = std::to_string(geteuid()) + " " + std::to_string(geteuid()) + " 1\n";
    const std::string gidMap = std::to_string(getegid()) + " " + std::to_string(getegid()) + " 1\n";
    pid_t child = forkWaitable();
    if (child == 0) {
        const bool works = unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0 && writeTo("/proc/self/setgroups", "deny") == 0 &&
                           writeTo("/proc/self/uid_map", uidMap) == 0 && writeTo("/proc/self/gid_map", gidMap) == 0 &&
                           mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
                           mount("tmpfs", "/", "tmpfs", MS_NOSUID | MS_NODEV, "size=64k") == 0;
        _exit(works ? 0 : 1);
    }
    if (child < 0) return false;
    const int status = waitChild(child);
    return status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

} // namespace

const ConfinementSupport& confinementSupport() {
    static const ConfinementSupport support = [] {
        ConfinementSupport found;
        found.landlockAbi = landlockAbi();
        found.privateView = privateViewWorks();
        if (found.landlockAbi > 0 && found.privateView)
            log().debug("compilers run confined: Landlock (ABI {}) and a private view of the file system",
                        found.landlockAbi);
        else if (found.landlockAbi > 0)
            log().debug("compilers run confined by Landlock (ABI {}); without user namespaces they can learn "
                        "whether a file outside their roots exists, though not read it",
                        found.landlockAbi);
        else if (found.privateView)
            log().debug("no Landlock in this kernel: compilers run confined by a private view of the file system only");
        else
            log().debug("no Landlock and no user namespaces: compilers are not confined, and only the front "
                        "end's checks keep kernel source from naming files outside its roots");
        return found;
    }();
    return support;
}

std::unique_ptr<Confinement> Confinement::prepare(const FileAccess& access, const std::string& workingDirectory,
                                                  std::string* error) {
    const ConfinementSupport& support = confinementSupport();
    std::unique_ptr<Confinement> made(new Confinement);
    std::error_code noPath;
    made->workingDirectory_ = workingDirectory.empty() ? fs::current_path(noPath).string() : workingDirectory;
    if (support.landlockAbi > 0 && (made->ruleset_ = makeRuleset(support.landlockAbi, access, error)) < 0)
        return nullptr;
    if (!support.privateView) return made;

    ViewPlan plan;
    plan.add("/dev/null", true);
    for (const std::string& path : access.readable) plan.add(path, false);
    for (const std::string& path : access.writable) plan.add(path, true);
    plan.addDirectory(made->workingDirectory_);
    made->viewRoot_ = makeScratchDirectory("metalcpu-view-");
    if (made->viewRoot_.empty()) {
        *error = "cannot create a directory for a compiler's view of the file system";
        return nullptr;
    }
    // What lies inside a mounted tree exists there already: only a mount of other rights
    // goes on top of it.
    std::vector<std::pair<std::string, bool>> mounted;
    for (const auto& [path, entry] : plan.entries()) {
        bool covered = false, coveredWritable = false;
        for (const auto& [tree, writable] : mounted)
            if (inside(path, tree)) covered = true, coveredWritable = coveredWritable || writable;
        const bool isBind = entry.kind == ViewPlan::Entry::Kind::Bind;
        if (covered && (!isBind || coveredWritable || !entry.writable)) continue;
        ViewStep step;
        step.kind = entry.kind == ViewPlan::Entry::Kind::Link ? ViewStep::Kind::Link
                    : isBind                                  ? ViewStep::Kind::Bind
                                                              : ViewStep::Kind::Directory;
        step.where = made->viewRoot_ + path;
        step.target = entry.target;
        step.makePlace = !covered;
        step.directory = entry.directory;
        step.writable = entry.writable;
        if (isBind) {
            step.keptFlags = lockedMountFlags(path);
            mounted.emplace_back(path, entry.writable);
        }
        made->steps_.push_back(std::move(step));
    }
    made->setgroups_ = "deny";
    made->uidMap_ = std::to_string(geteuid()) + " " + std::to_string(geteuid()) + " 1\n";
    made->gidMap_ = std::to_string(getegid()) + " " + std::to_string(getegid()) + " 1\n";
    return made;
}

Confinement::~Confinement() {
    if (ruleset_ >= 0) close(ruleset_);
    // The child mounted its view in a namespace of its own: here the directory holds only its
    // `.owner` (scratch_directories.h), which a killed process's next compile finds let go.
    if (!viewRoot_.empty()) removeScratchDirectory(viewRoot_);
}

int Confinement::enterView(const char** failedStep) const noexcept {
    auto fail = [failedStep](const char* step) {
        *failedStep = step;
        return errno != 0 ? errno : EPERM;
    };
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return fail("unshare");
    // This user stays itself inside: the namespace grants nothing on files outside it.
    const std::pair<const char*, const std::string*> maps[] = {
        {"/proc/self/setgroups", &setgroups_}, {"/proc/self/uid_map", &uidMap_}, {"/proc/self/gid_map", &gidMap_}};
    for (const auto& [file, text] : maps)
        if ((errno = writeTo(file, *text)) != 0) return fail("map this user into its namespace");
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return fail("make mounts private");
    if (mount("tmpfs", viewRoot_.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") != 0)
        return fail("mount the view's root");
    for (const ViewStep& step : steps_) {
        const char* where = step.where.c_str();
        switch (step.kind) {
        case ViewStep::Kind::Directory:
            if (mkdir(where, 0755) != 0 && errno != EEXIST) return fail("make a directory of the view");
            break;
        case ViewStep::Kind::Link:
            if (symlink(step.target.c_str(), where) != 0 && errno != EEXIST) return fail("make a link of the view");
            break;
        case ViewStep::Kind::Bind:
            if (step.makePlace) {
                int made = step.directory ? mkdir(where, 0755) : open(where, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
                if (made < 0 && errno != EEXIST) return fail("make a mount point of the view");
                if (!step.directory) close(made);
            }
            if (mount(step.target.c_str(), where, nullptr, MS_BIND | MS_REC, nullptr) != 0)
                return fail("mount an allowed path into the view");
            if (!step.writable &&
                mount(nullptr, where, nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY | step.keptFlags, nullptr) != 0)
                return fail("make an allowed path read-only");
            break;
        }
    }
    // The view becomes the root, and the old root is let go of: nothing else is reachable.
    if (chdir(viewRoot_.c_str()) != 0 || syscall(SYS_pivot_root, ".", ".") != 0 || umount2(".", MNT_DETACH) != 0)
        return fail("enter the view");
    if (mount(nullptr, "/", nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, nullptr) != 0)
        return fail("make the view's root read-only");
    if (chdir(workingDirectory_.c_str()) != 0) return fail("change into the working directory");
    return 0;
}

int Confinement::enter(const char** failedStep) const noexcept {
    errno = 0;
    if (!viewRoot_.empty())
        if (int error = enterView(failedStep)) return error;
    if (ruleset_ < 0) return 0;
    return restrictSelfByLandlock(ruleset_, failedStep);
}

} // namespace metalcpu::support
