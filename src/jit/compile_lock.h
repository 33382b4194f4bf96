// Processes that want the same library compile it once: the first holds the entry's compile
// lock while it compiles, the others wait for it and then find the library in the cache. A
// test suite run by `ctest -j` (one process per test, the neighbours of a suite starting
// together) otherwise compiles each suite's kernels once per job.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace metalcpu::jit {

/// An exclusive lock (flock) on `<cache entry>.compiling`, the entry's compile lock, held
/// while this process compiles the entry. The lock belongs to the open file, so a process that
/// ends, however it ends, lets go of it; the file stays, empty, for the next compile (an
/// unused-entry sweep removes it with the entries, cache_sweep.h).
class CompileLock {
public:
    /// Takes the lock of `entryPath`, waiting while another process holds it, for at most
    /// `limit` (zero: for as long as it is held). Once it is taken, the entry may be in the
    /// cache (the holder put it there): look again before compiling. Without the lock (the
    /// file cannot be made, or the wait ran out) the compile goes on unlocked: that costs
    /// only a compile twice. `beforeWaiting`, if given, is called once, when the lock is found
    /// held and the wait begins (a caller's notice of the wait starts there, not before: a
    /// lock taken at once is no wait to tell of).
    CompileLock(const std::string& entryPath, std::chrono::seconds limit,
                const std::function<void()>& beforeWaiting = {});
    ~CompileLock();
    CompileLock(const CompileLock&) = delete;
    CompileLock& operator=(const CompileLock&) = delete;

    bool held() const { return descriptor_ >= 0; }

private:
    int descriptor_ = -1;
};

/// The path of `entryPath`'s compile lock.
std::string compileLockPath(const std::string& entryPath);

} // namespace metalcpu::jit
