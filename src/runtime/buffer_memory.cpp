#include "runtime/buffer_memory.h"

#include "isolation/device_process.h"
#include "isolation/shared_arena.h"

#include <atomic>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace metalcpu::rt {
namespace {

std::size_t hostPageSize() {
    static const std::size_t size = [] {
        long page = sysconf(_SC_PAGESIZE);
        return page > 0 ? static_cast<std::size_t>(page) : std::size_t(4096);
    }();
    return size;
}

/// The granule in this process: 16 KiB, or the host's page when that is larger.
std::size_t granule() { return hostPageSize() > BufferMemory::kGranule ? hostPageSize() : BufferMemory::kGranule; }

void* mapAnonymous(std::size_t bytes, int protection) {
    void* address = mmap(nullptr, bytes, protection, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return address == MAP_FAILED ? nullptr : address;
}

std::atomic<std::size_t> g_guarded{0};

/// The memory shared with a device process, when kernels run in one (decided once).
iso::SharedArena* sharedArena() {
    static iso::SharedArena* arena =
        iso::configuredIsolation() == iso::Isolation::None ? nullptr : iso::SharedArena::host();
    return arena;
}

/// Slots of 2^k granules (k < kClasses) carved from shared mappings of kPoolBytes. A freed
/// slot gives its pages back to the system (MADV_DONTNEED), which also makes it read as
/// zeros again, and waits in its class's free list. Larger buffers are mapped on their own.
class Pool {
public:
    static constexpr int kClasses = 7; // 1 to 64 granules: 16 KiB to 1 MiB
    static constexpr std::size_t kPoolBytes = std::size_t(64) << 20;

    static Pool& shared() {
        static Pool* pool = new Pool; // buffers may outlive static destruction
        return *pool;
    }

    /// The class whose slots hold `size` bytes, or -1 when none does.
    static int classOf(std::uint64_t size) {
        for (int k = 0; k < kClasses; ++k)
            if (size <= (std::uint64_t(1) << k) * granule()) return k;
        return -1;
    }

    std::uint8_t* take(int k) {
        std::lock_guard lock(mutex_);
        std::vector<std::uint8_t*>& free = free_[k];
        if (free.empty()) {
            const std::size_t slot = (std::size_t(1) << k) * granule();
            auto* block = static_cast<std::uint8_t*>(mapAnonymous(kPoolBytes, PROT_READ | PROT_WRITE));
            if (!block) return nullptr;
            for (std::size_t offset = kPoolBytes; offset >= slot; offset -= slot) free.push_back(block + offset - slot);
        }
        std::uint8_t* slot = free.back();
        free.pop_back();
        return slot;
    }

    void give(int k, std::uint8_t* slot) {
        madvise(slot, (std::size_t(1) << k) * granule(), MADV_DONTNEED);
        std::lock_guard lock(mutex_);
        free_[k].push_back(slot);
    }

private:
    std::mutex mutex_;
    std::vector<std::uint8_t*> free_[kClasses];
};

} // namespace

bool BufferMemory::sharedWithDevice() {
    // Not in a child made by fork() (it may not allocate from its parent's arena and runs no
    // device process), nor once the program went on without one (METALCPU_ISOLATION unset).
    iso::SharedArena* arena = sharedArena();
    return arena && !arena->forked() && iso::DeviceProcess::forExecution();
}

bool BufferMemory::seenByDevice(const void* memory, std::uint64_t length) {
    iso::SharedArena* arena = sharedArena();
    return arena && arena->contains(memory, length ? length : 1);
}

std::uint64_t BufferMemory::roundedSize(std::uint64_t length) {
    const std::uint64_t g = granule();
    if (length == 0) length = 1;
    if (length > UINT64_MAX - g) return 0;
    return (length + g - 1) / g * g;
}

BufferMemory::BufferMemory(std::uint64_t length) {
    const std::uint64_t size = roundedSize(length);
    const std::size_t guard = hostPageSize();
    if (size == 0 || size > SIZE_MAX - 2 * guard) return;
    size_ = size;
    if (sharedWithDevice()) {
        // Only there can kernels in the device process reach it: memory elsewhere would make
        // them fault, so a full arena is no memory, as a GPU's is (newBuffer returns nil).
        // Its exact length: validation in the device process checks against it.
        if ((bytes_ = sharedArena()->allocate(length))) placement_ = Placement::Shared;
        return;
    }
    // Guarded while the budget lasts: reserve guard + size + guard inaccessible, open the middle.
    if (g_guarded.fetch_add(1) < kGuardedBudget) {
        if (void* reserved = mapAnonymous(static_cast<std::size_t>(size) + 2 * guard, PROT_NONE)) {
            auto* base = static_cast<std::uint8_t*>(reserved);
            if (mprotect(base + guard, static_cast<std::size_t>(size), PROT_READ | PROT_WRITE) == 0) {
                bytes_ = base + guard;
                placement_ = Placement::Guarded;
                return;
            }
            munmap(reserved, static_cast<std::size_t>(size) + 2 * guard);
        }
    }
    g_guarded.fetch_sub(1);
    if (int k = Pool::classOf(size); k >= 0) {
        if ((bytes_ = Pool::shared().take(k))) placement_ = Placement::Pooled;
        return;
    }
    if ((bytes_ = static_cast<std::uint8_t*>(mapAnonymous(static_cast<std::size_t>(size), PROT_READ | PROT_WRITE))))
        placement_ = Placement::Plain;
}

BufferMemory::~BufferMemory() {
    const std::size_t guard = hostPageSize();
    switch (placement_) {
    case Placement::Guarded:
        munmap(bytes_ - guard, static_cast<std::size_t>(size_) + 2 * guard);
        g_guarded.fetch_sub(1);
        break;
    case Placement::Pooled:
        Pool::shared().give(Pool::classOf(size_), bytes_);
        break;
    case Placement::Plain:
        munmap(bytes_, static_cast<std::size_t>(size_));
        break;
    case Placement::Shared:
        sharedArena()->release(bytes_);
        break;
    case Placement::None:
        break;
    }
}

} // namespace metalcpu::rt
