#include "jit/compile_lock.h"

#include "support/log.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace metalcpu::jit {
namespace {

/// How often a waiting process asks for the lock again: flock() has no timed wait, and a
/// blocking one could not give up on a holder that is stopped (under a debugger, say).
constexpr std::chrono::milliseconds kPollInterval(50);

bool sameFile(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

} // namespace

std::string compileLockPath(const std::string& entryPath) { return entryPath + ".compiling"; }

CompileLock::CompileLock(const std::string& entryPath, std::chrono::seconds limit,
                         const std::function<void()>& beforeWaiting) {
    const std::string path = compileLockPath(entryPath);
    const auto deadline = std::chrono::steady_clock::now() + limit;
    // Twice at most: a sweep may remove the file between this process's open and its lock,
    // and a lock on a file no longer at the path would keep nobody out.
    bool toldOfTheWait = false;
    for (int attempt = 0; attempt < 2; ++attempt) {
        const int descriptor = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (descriptor < 0) {
            support::log().debug("compiling without the compile lock {}: {}", path, std::strerror(errno));
            return;
        }
        bool locked = flock(descriptor, LOCK_EX | LOCK_NB) == 0;
        if (!locked && errno != EWOULDBLOCK) {
            support::log().debug("compiling without the compile lock {}: {}", path, std::strerror(errno));
            close(descriptor);
            return;
        }
        if (!locked) {
            support::log().debug("waiting for another process compiling the same library ({})", path);
            if (beforeWaiting && !toldOfTheWait) beforeWaiting();
            toldOfTheWait = true;
            while (!locked && (limit.count() == 0 || std::chrono::steady_clock::now() < deadline)) {
                std::this_thread::sleep_for(kPollInterval);
                locked = flock(descriptor, LOCK_EX | LOCK_NB) == 0;
            }
        }
        struct stat held {}, there {};
        if (locked && fstat(descriptor, &held) == 0 && lstat(path.c_str(), &there) == 0 && sameFile(held, there)) {
            descriptor_ = descriptor;
            return;
        }
        close(descriptor);
        if (!locked) {
            support::log().debug("compiling without the compile lock {}: another process held it for {} s", path,
                                 limit.count());
            return;
        }
    }
}

CompileLock::~CompileLock() {
    if (descriptor_ >= 0) close(descriptor_);
}

} // namespace metalcpu::jit
