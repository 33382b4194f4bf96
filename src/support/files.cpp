#include "support/files.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace metalcpu::support {
namespace {

std::string octal(mode_t mode) {
    char text[8];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
    return text;
}

/// Why the file system object at `path`, as lstat() describes it in `info`, is not trusted;
/// `sharedOwner` also accepts root as owner and a sticky directory that others may write.
std::string untrustedEntry(const std::string& path, const struct stat& info, bool directory, bool sharedOwner) {
    const uid_t self = geteuid();
    if (S_ISLNK(info.st_mode)) return path + " is a symbolic link";
    if (directory && !S_ISDIR(info.st_mode)) return path + " is not a directory";
    if (!directory && !S_ISREG(info.st_mode)) return path + " is not a regular file";
    if (info.st_uid != self && !(sharedOwner && info.st_uid == 0))
        return path + " belongs to uid " + std::to_string(info.st_uid) + ", not to this user (uid " +
               std::to_string(self) + ")";
    if (sharedOwner && S_ISDIR(info.st_mode) && (info.st_mode & S_ISVTX)) return {};
    const bool group = info.st_mode & S_IWGRP, others = info.st_mode & S_IWOTH;
    if (!group && !others) return {};
    return path + " is writable by " + (group && others ? "its group and others" : group ? "its group" : "others") +
           " (mode " + octal(info.st_mode) + ")";
}

std::string untrustedAt(const std::string& path, bool directory, bool sharedOwner) {
    struct stat info {};
    if (lstat(path.c_str(), &info) != 0) return "cannot inspect " + path;
    return untrustedEntry(path, info, directory, sharedOwner);
}

} // namespace

std::optional<std::string> readFile(const std::string& path) {
    struct stat info {};
    // A directory opens like a file but reads as nothing.
    if (stat(path.c_str(), &info) != 0 || S_ISDIR(info.st_mode)) return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string createUniqueFile(const std::string& prefix) {
    std::string pattern = prefix + ".XXXXXX";
    int fd = mkstemp(pattern.data());
    if (fd < 0) return {};
    close(fd);
    return pattern;
}

bool writeFile(const std::string& path, const std::string& contents) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    out.close();
    return static_cast<bool>(out);
}

bool writeFileAtomically(const std::string& path, const std::string& contents) {
    if (isSpecialFile(path)) {
        std::ofstream out(path, std::ios::binary);
        out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
        return static_cast<bool>(out.flush());
    }
    // A name of its own for every writer: threads and processes may write the same path at once.
    std::string temporary = createUniqueFile(path + ".tmp");
    if (temporary.empty()) return false;
    bool written = false;
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
        written = static_cast<bool>(out);
    }
    std::error_code error;
    if (written) fs::rename(temporary, path, error);
    if (!written || error) {
        fs::remove(temporary, error);
        return false;
    }
    return true;
}

bool isSpecialFile(const std::string& path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode);
}

bool moveFile(const std::string& from, const std::string& to) {
    if (isSpecialFile(to)) {
        // Renamed over, /dev/null would become a regular file for every process of the machine.
        std::optional<std::string> contents = readFile(from);
        if (!contents || !writeFileAtomically(to, *contents)) return false;
        std::remove(from.c_str());
        return true;
    }
    if (std::rename(from.c_str(), to.c_str()) == 0) return true;
    if (errno != EXDEV) return false;
    struct stat info {};
    std::optional<std::string> contents = readFile(from);
    if (stat(from.c_str(), &info) != 0 || !contents || !writeFileAtomically(to, *contents)) return false;
    chmod(to.c_str(), info.st_mode & 0777);
    std::remove(from.c_str());
    return true;
}

bool makeDirectories(const std::string& path, unsigned mode) {
    std::error_code error;
    fs::path current;
    for (const fs::path& part : fs::path(path)) {
        current /= part;
        if (!fs::exists(current, error)) {
            if (mkdir(current.c_str(), mode) != 0 && !fs::is_directory(current, error)) return false;
        }
    }
    return fs::is_directory(path, error);
}

std::string makeTemporaryDirectory(const std::string& prefix) {
    std::error_code error;
    fs::path temporary = fs::temp_directory_path(error);
    return makeUniqueDirectory(error ? "/tmp/" + prefix : (temporary / prefix).string());
}

std::string makeUniqueDirectory(const std::string& prefix) {
    std::string pattern = prefix + "XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) return {};
    return pattern;
}

void removeTree(const std::string& path) {
    std::error_code error;
    fs::remove_all(path, error);
}

std::string executableDirectory() {
    std::error_code error;
    fs::path self = fs::read_symlink("/proc/self/exe", error);
    return error ? std::string() : self.parent_path().string();
}

bool fileExists(const std::string& path) {
    struct stat info;
    return stat(path.c_str(), &info) == 0;
}

std::string untrustedDirectory(const std::string& path) { return untrustedAt(path, true, false); }

std::string untrustedFile(const std::string& path, const struct stat& info) {
    return untrustedEntry(path, info, false, false);
}

std::string untrustedParents(const std::string& path) {
    fs::path above;
    for (const fs::path& part : fs::path(path)) {
        above /= part;
        std::string reason = untrustedAt(above.string(), true, true);
        if (!reason.empty()) return reason;
    }
    return {};
}

std::string untrustedPath(const std::string& path) {
    std::string reason = untrustedParents(fs::path(path).parent_path().string());
    return reason.empty() ? untrustedDirectory(path) : reason;
}

std::string untrustedTree(const std::string& path) {
    std::string reason = untrustedDirectory(path);
    std::error_code error;
    for (fs::recursive_directory_iterator entry(path, error), end; reason.empty() && !error && entry != end;
         entry.increment(error)) {
        struct stat info {};
        reason = lstat(entry->path().c_str(), &info) != 0
                     ? "cannot inspect " + entry->path().string()
                     : untrustedEntry(entry->path().string(), info, S_ISDIR(info.st_mode), false);
    }
    if (reason.empty() && error) reason = "cannot read " + path;
    return reason;
}

std::string resolvedPath(const std::string& path) {
    char* resolved = realpath(path.c_str(), nullptr);
    if (!resolved) return {};
    std::string result = resolved;
    std::free(resolved);
    return result;
}

} // namespace metalcpu::support
