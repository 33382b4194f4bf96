#include "isolation/shared_arena.h"

#include "support/log.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

namespace metalcpu::iso {
namespace {

/// The arena's size: address space only (the memory file is sparse and the mapping reserves
/// nothing), enough for any program a CPU can run. Smaller sizes are tried when a limit on
/// address space (RLIMIT_AS) refuses it.
constexpr std::uint64_t kArenaSizes[] = {std::uint64_t(1) << 40, std::uint64_t(1) << 36, std::uint64_t(1) << 32};

/// Where the arena is placed: far from where Linux puts programs, their heaps, libraries and
/// stacks, so that a freshly started device process finds the same range free.
constexpr std::uint64_t kArenaPlaces[] = {0x200000000000ull, 0x300000000000ull, 0x100000000000ull,
                                          0x400000000000ull};

/// The process's arena, for the fork() child handler.
SharedArena* g_hostArena = nullptr;

std::atomic_ref<std::uint32_t> owner(std::uint32_t* owners, std::uint64_t granule) {
    return std::atomic_ref<std::uint32_t>(owners[granule]);
}

} // namespace

// ---- ArenaDirectory --------------------------------------------------------------------

std::uint64_t ArenaDirectory::bytesFor(std::uint64_t granules) {
    return granules * (sizeof(std::uint32_t) + sizeof(std::uint64_t));
}

ArenaDirectory::ArenaDirectory(void* memory, std::uint64_t base, std::uint64_t granules)
    : owners_(static_cast<std::uint32_t*>(memory)),
      lengths_(reinterpret_cast<std::uint64_t*>(static_cast<char*>(memory) + granules * sizeof(std::uint32_t))),
      base_(base), granules_(granules) {}

bool ArenaDirectory::find(std::uint64_t address, Allocation* found) const noexcept {
    if (!owners_ || address < base_ || address - base_ >= granules_ * kArenaGranule) return false;
    const std::uint64_t granule = (address - base_) / kArenaGranule;
    const std::uint32_t first = owner(owners_, granule).load(std::memory_order_acquire);
    if (first == 0 || first - 1 >= granules_) return false;
    const std::uint64_t length = std::atomic_ref<std::uint64_t>(lengths_[first - 1]).load(std::memory_order_acquire);
    found->begin = base_ + std::uint64_t(first - 1) * kArenaGranule;
    found->length = length;
    found->size = (length + kArenaGranule - 1) / kArenaGranule * kArenaGranule;
    if (found->size == 0) found->size = kArenaGranule;
    return address - found->begin < found->size;
}

bool ArenaDirectory::findAtOrBelow(std::uint64_t address, Allocation* found) const noexcept {
    if (find(address, found)) return true;
    // Allocations are one free granule apart: the one below ends in the granule before.
    return address >= base_ + kArenaGranule && find(address - kArenaGranule, found);
}

void ArenaDirectory::record(std::uint64_t begin, std::uint64_t length, std::uint64_t size) {
    const std::uint64_t first = (begin - base_) / kArenaGranule;
    std::atomic_ref<std::uint64_t>(lengths_[first]).store(length, std::memory_order_relaxed);
    for (std::uint64_t g = first; g < first + size / kArenaGranule; ++g)
        owner(owners_, g).store(static_cast<std::uint32_t>(first + 1), std::memory_order_release);
}

void ArenaDirectory::erase(std::uint64_t begin, std::uint64_t size) {
    const std::uint64_t first = (begin - base_) / kArenaGranule;
    for (std::uint64_t g = first; g < first + size / kArenaGranule; ++g)
        owner(owners_, g).store(0, std::memory_order_release);
}

// ---- SharedArena -----------------------------------------------------------------------

SharedArena* SharedArena::host(std::string* why) {
    static std::string failure;
    static SharedArena* arena = [] {
        auto* made = new SharedArena; // buffers may outlive static destruction
        if (made->create(&failure)) {
            g_hostArena = made;
            pthread_atfork(nullptr, nullptr, [] { g_hostArena->forked_.store(true, std::memory_order_relaxed); });
            return made;
        }
        // What follows (in-process kernels or failing command buffers) depends on
        // METALCPU_ISOLATION, and the device process's side says it.
        support::log().warn("no memory to share with a device process: {}", failure);
        delete made;
        return static_cast<SharedArena*>(nullptr);
    }();
    if (!arena && why) *why = failure;
    return arena;
}

bool SharedArena::create(std::string* why) {
    if (sysconf(_SC_PAGESIZE) > static_cast<long>(kArenaGranule)) {
        *why = "this machine's pages are larger than 16 KiB";
        return false;
    }
    memoryFile_ = memfd_create("metalcpu-arena", MFD_CLOEXEC);
    directoryFile_ = memfd_create("metalcpu-arena-directory", MFD_CLOEXEC);
    if (memoryFile_ < 0 || directoryFile_ < 0) *why = std::string("memfd_create: ") + std::strerror(errno);
    else if (map(why)) return true;
    for (int* file : {&memoryFile_, &directoryFile_}) {
        if (*file >= 0) close(*file);
        *file = -1;
    }
    return false;
}

bool SharedArena::map(std::string* why) {
    for (std::uint64_t size : kArenaSizes) {
        const std::uint64_t granules = size / kArenaGranule;
        const std::uint64_t directoryBytes = ArenaDirectory::bytesFor(granules);
        if (ftruncate(memoryFile_, static_cast<off_t>(size)) != 0 ||
            ftruncate(directoryFile_, static_cast<off_t>(directoryBytes)) != 0) {
            *why = std::string("ftruncate: ") + std::strerror(errno);
            continue;
        }
        void* directory = mmap(nullptr, directoryBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE,
                               directoryFile_, 0);
        if (directory == MAP_FAILED) {
            *why = std::string("mapping the directory: ") + std::strerror(errno);
            continue;
        }
        for (std::uint64_t place : kArenaPlaces) {
            void* memory = mmap(reinterpret_cast<void*>(place), size, PROT_READ | PROT_WRITE,
                                MAP_SHARED | MAP_NORESERVE | MAP_FIXED_NOREPLACE, memoryFile_, 0);
            if (memory == MAP_FAILED) {
                *why = std::string("mapping the arena: ") + std::strerror(errno);
                continue;
            }
            if (memory != reinterpret_cast<void*>(place)) { // a kernel without MAP_FIXED_NOREPLACE
                munmap(memory, size);
                *why = "the arena's address range is taken";
                continue;
            }
            directoryBytes_ = directoryBytes;
            directory_ = ArenaDirectory(directory, place, granules);
            addFree(0, size);
            return true;
        }
        munmap(directory, directoryBytes);
    }
    return false;
}

std::uint8_t* SharedArena::allocate(std::uint64_t length) {
    if (forked()) return nullptr; // the parent allocates from the same file and directory
    if (length == 0) length = 1;
    if (length > bytes()) return nullptr;
    const std::uint64_t size = (length + kArenaGranule - 1) / kArenaGranule * kArenaGranule;
    Span span;
    {
        std::lock_guard lock(mutex_);
        span.guarded = guarded_ < kGuardedBudget;
        // The allocation, the free granule after it and, guarded, one before it too.
        span.bytes = size + kArenaGranule * (span.guarded ? 2 : 1);
        auto run = freeBySize_.lower_bound(span.bytes); // best fit
        if (run == freeBySize_.end()) return nullptr;
        span.offset = run->second;
        const std::uint64_t left = run->first - span.bytes;
        freeBySize_.erase(run);
        free_.erase(span.offset);
        if (left) addFree(span.offset + span.bytes, left);
        guarded_ += span.guarded;
        allocatedBytes_ += size;
    }
    const std::uint64_t offset = span.offset + (span.guarded ? kArenaGranule : 0);
    auto* memory = reinterpret_cast<std::uint8_t*>(base() + offset);
    if (span.guarded) {
        mprotect(memory - kArenaGranule, kArenaGranule, PROT_NONE);
        mprotect(memory + size, kArenaGranule, PROT_NONE);
    }
    // Zero it: a device process may have written through a stale pointer since it was freed.
    fallocate(memoryFile_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset),
              static_cast<off_t>(size));
    directory_.record(base() + offset, length, size);
    std::lock_guard lock(mutex_);
    allocated_.emplace(offset, span);
    return memory;
}

void SharedArena::release(std::uint8_t* memory) {
    if (!memory || forked()) return; // punching it would zero the parent's buffer
    const std::uint64_t offset = reinterpret_cast<std::uint64_t>(memory) - base();
    Span span;
    {
        std::lock_guard lock(mutex_);
        auto found = allocated_.find(offset);
        if (found == allocated_.end()) return;
        span = found->second;
        allocated_.erase(found);
    }
    const std::uint64_t size = span.bytes - kArenaGranule * (span.guarded ? 2 : 1);
    directory_.erase(base() + offset, size);
    if (span.guarded) mprotect(reinterpret_cast<void*>(base() + span.offset), span.bytes, PROT_READ | PROT_WRITE);
    fallocate(memoryFile_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(span.offset),
              static_cast<off_t>(span.bytes));
    std::lock_guard lock(mutex_);
    guarded_ -= span.guarded;
    allocatedBytes_ -= size;
    // Merge with the free runs on either side.
    std::uint64_t at = span.offset, bytes = span.bytes;
    auto next = free_.lower_bound(at);
    if (next != free_.end() && at + bytes == next->first) {
        bytes += next->second;
        removeFree(next);
        next = free_.lower_bound(at);
    }
    if (next != free_.begin()) {
        auto previous = std::prev(next);
        if (previous->first + previous->second == at) {
            at = previous->first;
            bytes += previous->second;
            removeFree(previous);
        }
    }
    addFree(at, bytes);
}

void SharedArena::addFree(std::uint64_t offset, std::uint64_t bytes) {
    free_.emplace(offset, bytes);
    freeBySize_.emplace(bytes, offset);
}

void SharedArena::removeFree(std::map<std::uint64_t, std::uint64_t>::iterator run) {
    auto [first, last] = freeBySize_.equal_range(run->second);
    for (auto it = first; it != last; ++it)
        if (it->second == run->first) {
            freeBySize_.erase(it);
            break;
        }
    free_.erase(run);
}

bool SharedArena::contains(const void* address, std::uint64_t bytes) const {
    const auto begin = reinterpret_cast<std::uint64_t>(address);
    return begin >= base() && begin - base() < this->bytes() && this->bytes() - (begin - base()) >= bytes;
}

std::uint64_t SharedArena::allocatedBytes() const {
    std::lock_guard lock(mutex_);
    return allocatedBytes_;
}

} // namespace metalcpu::iso
