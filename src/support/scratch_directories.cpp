#include "support/scratch_directories.h"

#include "support/files.h"

#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <mutex>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace metalcpu::support {
namespace {

constexpr char kOwnerFile[] = ".owner";
constexpr char kNamePrefix[] = "metalcpu-";

/// The lock of each scratch directory this process holds: its `.owner`'s descriptor. A lock
/// belongs to the open file, so it ends when the process does, however it ends.
struct Owned {
    std::mutex mutex;
    std::map<std::string, int> locks;
};

Owned& owned() {
    static Owned* table = new Owned; // never destroyed: used until the process ends
    return *table;
}

std::string temporaryDirectory() {
    std::error_code error;
    const std::filesystem::path temporary = std::filesystem::temp_directory_path(error);
    return error ? std::string("/tmp") : temporary.string();
}

} // namespace

std::string makeScratchDirectory(const std::string& prefix) {
    static std::once_flag swept;
    std::call_once(swept, [] { removeOrphanedScratchDirectories(); });
    const std::string path = makeUniqueDirectory(temporaryDirectory() + "/" + prefix);
    if (path.empty()) return path;
    // Locked before it has its name: a sweep never sees an `.owner` that nobody holds yet.
    const std::string pending = path + "/.owner-pending";
    const int fd = open(pending.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0 || rename(pending.c_str(), (path + "/" + kOwnerFile).c_str()) != 0) {
        if (fd >= 0) close(fd);
        removeTree(path);
        return {};
    }
    std::lock_guard<std::mutex> lock(owned().mutex);
    owned().locks[path] = fd;
    return path;
}

void removeScratchDirectory(const std::string& path) {
    removeTree(path);
    std::lock_guard<std::mutex> lock(owned().mutex);
    const auto it = owned().locks.find(path);
    if (it == owned().locks.end()) return;
    close(it->second);
    owned().locks.erase(it);
}

int removeOrphanedScratchDirectories() {
    const std::string temporary = temporaryDirectory();
    DIR* directory = opendir(temporary.c_str());
    if (!directory) return 0;
    int removed = 0;
    while (const dirent* entry = readdir(directory)) {
        const std::string name = entry->d_name;
        if (!name.starts_with(kNamePrefix)) continue;
        const std::string path = temporary + "/" + name;
        struct stat info;
        if (lstat(path.c_str(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != geteuid()) continue;
        const int fd = open((path + "/" + kOwnerFile).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0) continue;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) { // its owner has ended
            removeTree(path);
            ++removed;
        }
        close(fd);
    }
    closedir(directory);
    return removed;
}

} // namespace metalcpu::support
