#include "runtime/buffer_memory.h"

#include <sys/mman.h>
#include <unistd.h>

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

} // namespace

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
    // Reserve guard + size + guard inaccessible, then open the middle.
    if (void* reserved = mapAnonymous(static_cast<std::size_t>(size) + 2 * guard, PROT_NONE)) {
        auto* base = static_cast<std::uint8_t*>(reserved);
        if (mprotect(base + guard, static_cast<std::size_t>(size), PROT_READ | PROT_WRITE) == 0) {
            bytes_ = base + guard;
            size_ = size;
            guard_ = guard;
            return;
        }
        munmap(reserved, static_cast<std::size_t>(size) + 2 * guard);
    }
    // Out of mappings (vm.max_map_count) or address space: a plain mapping, which the kernel
    // can merge with its neighbours.
    if (void* plain = mapAnonymous(static_cast<std::size_t>(size), PROT_READ | PROT_WRITE)) {
        bytes_ = static_cast<std::uint8_t*>(plain);
        size_ = size;
    }
}

BufferMemory::~BufferMemory() {
    if (bytes_) munmap(bytes_ - guard_, static_cast<std::size_t>(size_) + 2 * guard_);
}

} // namespace metalcpu::rt
