#include "jit/cache_sweep.h"

#include "support/config.h"
#include "support/files.h"
#include "support/log.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace metalcpu::jit {
namespace {

/// How old a leased file's time stamp may grow before the lease refreshes it: far below the
/// shortest lifetime (a day), so an entry in use never looks unused, while a process that
/// compiles all day writes it once an hour at most.
constexpr std::chrono::hours kRefreshInterval(1);

using Clock = std::chrono::system_clock;

/// The reason to keep an entry used within the lifetime: counted, not logged one by one.
constexpr std::string_view kRecent = "recent";

Clock::duration ageOf(const struct stat& info) {
    return Clock::now() - Clock::from_time_t(info.st_mtime);
}

long daysOf(Clock::duration age) { return std::chrono::duration_cast<std::chrono::hours>(age).count() / 24; }

bool sameFile(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

/// An open file a sweep judges: opened without following a link, and closed (its lock
/// released) when done.
class Candidate {
public:
    explicit Candidate(const std::string& path)
        : descriptor_(open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)), openError_(errno) {
        if (descriptor_ >= 0 && fstat(descriptor_, &info_) != 0) info_.st_mode = 0;
    }
    ~Candidate() {
        if (descriptor_ >= 0) close(descriptor_);
    }
    Candidate(const Candidate&) = delete;
    Candidate& operator=(const Candidate&) = delete;

    /// Why the file at `path` may not be removed for being unused for `lifetime`, or empty
    /// when it may: then this holds it locked exclusively, so no process leases it until
    /// the caller has removed it.
    std::string keepReason(const std::string& path, std::chrono::seconds lifetime) {
        if (descriptor_ < 0)
            return openError_ == ELOOP ? "it is a symbolic link, not followed"
                                       : std::string("cannot open it: ") + std::strerror(openError_);
        if (!S_ISREG(info_.st_mode)) return "it is not a regular file";
        if (info_.st_uid != geteuid()) return "it belongs to another user";
        if (ageOf(info_) < lifetime) return std::string(kRecent);
        if (flock(descriptor_, LOCK_EX | LOCK_NB) != 0) return "a process is using it";
        // A lease taken and let go since it was opened refreshed the time stamp; a file put
        // in its place since is another file.
        struct stat now {};
        if (fstat(descriptor_, &now) != 0 || ageOf(now) < lifetime) return "used just now";
        if (lstat(path.c_str(), &now) != 0 || !sameFile(now, info_)) return "replaced just now";
        return {};
    }
    long unusedDays() const { return daysOf(ageOf(info_)); }

private:
    int descriptor_;
    int openError_;
    struct stat info_ {};
};

/// Says at debug level that `path` is kept, but for the common case of an entry used
/// recently, which would fill the log with every entry at every process's start.
void logKept(const std::string& path, const std::string& reason, int* recent) {
    if (reason == kRecent) ++*recent;
    else support::log().debug("cache sweep: keeping {}: {}", path, reason);
}

/// Removes from `directory` the files whose names end in one of `suffixes` last used more
/// than `lifetime` ago (removeUnusedPreludes(), removeUnusedLibraries()). Staging names end
/// otherwise (`<entry>.staging.XXXXXX`): they are removeStaleStaging()'s.
void removeUnusedFiles(const std::string& directory, std::initializer_list<std::string_view> suffixes,
                       std::chrono::seconds lifetime) {
    if (lifetime.count() == 0) return;
    int recent = 0;
    std::error_code error;
    for (fs::directory_iterator entry(directory, error), end; !error && entry != end; entry.increment(error)) {
        const std::string path = entry->path().string();
        if (std::none_of(suffixes.begin(), suffixes.end(), [&](std::string_view suffix) { return path.ends_with(suffix); }))
            continue;
        Candidate candidate(path);
        if (std::string reason = candidate.keepReason(path, lifetime); !reason.empty()) {
            logKept(path, reason, &recent);
            continue;
        }
        // Removed while locked: a process that opened it meanwhile finds the name gone
        // when its lease looks again, and does without (a compiled library that a process
        // had read is in its own memory file: the name going changes nothing for it).
        if (unlink(path.c_str()) == 0)
            support::log().debug("cache sweep: removed {}, unused for {} days", path, candidate.unusedDays());
        else support::log().debug("cache sweep: cannot remove {}: {}", path, std::strerror(errno));
    }
    if (recent > 0)
        support::log().debug("cache sweep: keeping {} entries of {} used in the last {} days", recent, directory,
                             daysOf(lifetime));
}

} // namespace

std::shared_ptr<CacheLease> CacheLease::take(const std::string& path) {
    const int descriptor = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (descriptor < 0) {
        support::log().debug("cannot lease {}: {}", path, std::strerror(errno));
        return nullptr;
    }
    std::shared_ptr<CacheLease> lease(new CacheLease(descriptor));
    struct stat opened {}, there {};
    if (fstat(descriptor, &opened) != 0 || !S_ISREG(opened.st_mode)) {
        support::log().debug("cannot lease {}: not a regular file", path);
        return nullptr;
    }
    // Refused while a sweep holds it to remove it; once that sweep is done the name is gone
    // or names a new file, and this one is no longer in the cache.
    if (flock(descriptor, LOCK_SH | LOCK_NB) != 0 || lstat(path.c_str(), &there) != 0 || !sameFile(opened, there)) {
        support::log().debug("cannot lease {}: an unused-entry sweep is removing it", path);
        return nullptr;
    }
    if (ageOf(opened) >= kRefreshInterval && futimens(descriptor, nullptr) != 0)
        support::log().debug("cannot refresh the time stamp of {}: {}", path, std::strerror(errno));
    return lease;
}

CacheLease::~CacheLease() { close(descriptor_); }

std::chrono::seconds unusedEntryLifetime() {
    const int days = support::config().cacheUnusedDays;
    return std::chrono::seconds(days > 0 ? 86400L * days : 0);
}

void removeUnusedPreludes(const std::string& preludeDir, std::chrono::seconds lifetime) {
    removeUnusedFiles(preludeDir, {".h.gch", ".wanted"}, lifetime);
}

void removeUnusedLibraries(const std::string& kernelDir, std::chrono::seconds lifetime) {
    removeUnusedFiles(kernelDir, {".metallib", ".compiling"}, lifetime);
}

void removeUnusedStandardLibraries(const std::string& cacheRoot, const std::string& current,
                                   std::chrono::seconds lifetime) {
    if (lifetime.count() == 0) return;
    int recent = 0;
    std::error_code error;
    for (fs::directory_iterator entry(cacheRoot, error), end; !error && entry != end; entry.increment(error)) {
        const std::string path = entry->path().string(), name = entry->path().filename().string();
        // Staging directories (a standard library being written, one being removed) are
        // removeStaleStaging()'s.
        if (!name.starts_with("stdlib-") || path == current || name.find(".staging.") != std::string::npos ||
            name.find(".tmp.") != std::string::npos)
            continue;
        struct stat info {};
        if (lstat(path.c_str(), &info) != 0) continue;
        std::string reason;
        if (S_ISLNK(info.st_mode)) reason = "it is a symbolic link, not followed";
        else if (!S_ISDIR(info.st_mode)) reason = "it is not a directory";
        else if (info.st_uid != geteuid()) reason = "it belongs to another user";
        // Opened only in a directory of this user's that is no link, and held locked until
        // the directory is renamed aside and removed.
        std::optional<Candidate> stamp;
        if (reason.empty()) reason = stamp.emplace(path + "/complete").keepReason(path + "/complete", lifetime);
        if (!reason.empty()) {
            logKept(path, reason, &recent);
            continue;
        }
        // Renamed onto an empty directory of its own first: a process that looks for it from
        // now on finds none and writes the standard library out again, never a half-removed one.
        const std::string aside = support::makeUniqueDirectory(path + ".staging.");
        if (aside.empty() || rename(path.c_str(), aside.c_str()) != 0) {
            support::log().debug("cache sweep: cannot move {} aside to remove it: {}", path, std::strerror(errno));
            if (!aside.empty()) rmdir(aside.c_str());
            continue;
        }
        support::removeTree(aside);
        support::log().debug("cache sweep: removed {} (another metalcpu version or standard library), unused for {} "
                             "days",
                             path, stamp->unusedDays());
    }
    if (recent > 0)
        support::log().debug("cache sweep: keeping {} other standard libraries in {} used in the last {} days", recent,
                             cacheRoot, daysOf(lifetime));
}

} // namespace metalcpu::jit
