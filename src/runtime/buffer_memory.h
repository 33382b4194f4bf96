// Where buffers live: whole pages mapped for each buffer, outside the malloc heap.
#pragma once

#include <cstddef>
#include <cstdint>

namespace metalcpu::rt {

/// The memory of one buffer that metalcpu allocates (not bytesNoCopy buffers).
///
/// Apple silicon maps buffers in whole 16 KiB pages, so a kernel that stores a little past
/// the end of a small buffer touches nothing else on a Mac. Each buffer here is likewise its
/// own mapping rounded up to 16 KiB (allocatedSize()), zero-filled, with an inaccessible page
/// on either side where the address space allows: a store past the rounded end faults
/// instead of landing in another buffer or in the runtime's heap.
class BufferMemory {
public:
    /// Apple silicon's page size, the granule of allocatedSize().
    static constexpr std::size_t kGranule = 16384;

    /// `length` bytes (at least one) rounded up to the granule; null bytes() when the
    /// memory cannot be mapped.
    explicit BufferMemory(std::uint64_t length);
    ~BufferMemory();
    BufferMemory(const BufferMemory&) = delete;
    BufferMemory& operator=(const BufferMemory&) = delete;

    std::uint8_t* bytes() const { return bytes_; }
    /// The usable size: the length rounded up to whole granules.
    std::uint64_t size() const { return size_; }
    /// Whether inaccessible pages surround the memory (false when the mapping count or the
    /// address space ran short and the buffer was mapped without them).
    bool guarded() const { return guard_ != 0; }

    /// The size a buffer of `length` bytes occupies.
    static std::uint64_t roundedSize(std::uint64_t length);

private:
    std::uint8_t* bytes_ = nullptr;
    std::uint64_t size_ = 0;
    std::size_t guard_ = 0; ///< bytes of inaccessible memory on each side
};

} // namespace metalcpu::rt
