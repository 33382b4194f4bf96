// The memory a host program and its device process share: every buffer and texture of the
// program lives here, at the same address in both processes (docs/architecture.md, "The
// device process").
#pragma once

#include <cstddef>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace metalcpu::iso {

/// The arena's granule: Apple silicon's 16 KiB page, the unit buffers are allocated in.
inline constexpr std::uint64_t kArenaGranule = 16384;

/// Which granules of the arena hold a live allocation, and where each allocation starts and
/// ends: written by the host as it allocates and frees, read by the device process (its
/// fault handler grants access to a live allocation's pages on first touch, and shader
/// validation checks addresses read from memory against it). Lock-free: one word per
/// granule, so a reader in a signal handler never waits.
class ArenaDirectory {
public:
    /// Bytes of directory an arena of `granules` granules needs.
    static std::uint64_t bytesFor(std::uint64_t granules);

    ArenaDirectory() = default;
    /// Over `memory` (bytesFor(granules) bytes, zeroed when new) for an arena at `base`.
    ArenaDirectory(void* memory, std::uint64_t base, std::uint64_t granules);

    struct Allocation {
        std::uint64_t begin = 0;  ///< address of its first byte
        std::uint64_t length = 0; ///< bytes the program asked for
        std::uint64_t size = 0;   ///< bytes it occupies: whole granules
    };
    /// The live allocation holding `address`; false when there is none. Async-signal-safe.
    bool find(std::uint64_t address, Allocation* found) const noexcept;
    /// The nearest live allocation that starts at or below `address` (an access just past the
    /// end of a buffer is reported against that buffer); false when there is none.
    bool findAtOrBelow(std::uint64_t address, Allocation* found) const noexcept;

    /// Host only: records and forgets allocations.
    void record(std::uint64_t begin, std::uint64_t length, std::uint64_t size);
    void erase(std::uint64_t begin, std::uint64_t size);

    std::uint64_t base() const { return base_; }
    std::uint64_t bytes() const { return granules_ * kArenaGranule; }

private:
    /// Per granule: 0 when free, else 1 + the index of its allocation's first granule.
    std::uint32_t* owners_ = nullptr;
    /// Per first granule of an allocation: its length in bytes.
    std::uint64_t* lengths_ = nullptr;
    std::uint64_t base_ = 0;
    std::uint64_t granules_ = 0;
};

/// The host's side of the arena: one memory file mapped at an address reserved for it,
/// which a device process maps at the same address, so `contents()`, `gpuAddress()` and
/// pointers stored in argument buffers mean the same in both. Allocations are whole granules
/// with at least one free granule between two of them, which the device process never maps
/// (a store past a buffer's pages faults there, as on a GPU). In the host, the first
/// kGuardedBudget live allocations also have a granule on either side that this process
/// cannot touch (as BufferMemory's guarded buffers do); each costs two memory mappings of the
/// process's vm.max_map_count, so later ones do without.
class SharedArena {
public:
    /// The process's arena, made at the first call; nullptr when it cannot be (the reason
    /// goes to `why` and, once, to the log).
    static SharedArena* host(std::string* why = nullptr);

    /// Live allocations at most that are guarded in this process.
    static constexpr std::uint64_t kGuardedBudget = 8192;

    /// `length` bytes (at least one) in whole granules, zero-filled; nullptr when the arena
    /// is full, and always in a child made by fork(). Thread-safe.
    std::uint8_t* allocate(std::uint64_t length);
    /// Gives back what allocate() returned; its pages are returned to the system. In a child
    /// made by fork() it does nothing: the memory, its file and the directory are shared with
    /// the parent, whose buffers they still are.
    void release(std::uint8_t* memory);
    /// Whether this process is a child made by fork() after the arena was (it inherited the
    /// mapping, shared with its parent, and may not allocate from it).
    bool forked() const { return forked_.load(std::memory_order_relaxed); }
    /// Whether [address, address + bytes) lies inside the arena.
    bool contains(const void* address, std::uint64_t bytes = 1) const;

    const ArenaDirectory& directory() const { return directory_; }
    std::uint64_t base() const { return directory_.base(); }
    std::uint64_t bytes() const { return directory_.bytes(); }
    /// The memory files a device process maps: the arena's and the directory's.
    int memoryFile() const { return memoryFile_; }
    int directoryFile() const { return directoryFile_; }
    std::uint64_t directoryBytes() const { return directoryBytes_; }
    /// Bytes of the arena allocated now (for tests and the log).
    std::uint64_t allocatedBytes() const;

    SharedArena(const SharedArena&) = delete;
    SharedArena& operator=(const SharedArena&) = delete;

private:
    SharedArena() = default;
    bool create(std::string* why);
    bool map(std::string* why);

    int memoryFile_ = -1;
    int directoryFile_ = -1;
    std::uint64_t directoryBytes_ = 0;
    ArenaDirectory directory_;
    mutable std::mutex mutex_;
    void addFree(std::uint64_t offset, std::uint64_t bytes);
    void removeFree(std::map<std::uint64_t, std::uint64_t>::iterator run);

    std::map<std::uint64_t, std::uint64_t> free_;            ///< offset -> bytes of each free run
    std::multimap<std::uint64_t, std::uint64_t> freeBySize_; ///< the same runs by size, for best fit
    struct Span {
        std::uint64_t offset = 0; ///< where its run begins (a guard granule, when guarded)
        std::uint64_t bytes = 0;  ///< the run: guards, the allocation and the free granule after it
        bool guarded = false;
    };
    std::map<std::uint64_t, Span> allocated_; ///< by the allocation's own offset
    std::uint64_t guarded_ = 0;               ///< live guarded allocations
    std::uint64_t allocatedBytes_ = 0;
    std::atomic<bool> forked_{false};
};

} // namespace metalcpu::iso
