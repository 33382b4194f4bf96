// Where buffers live: whole pages outside the malloc heap.
#pragma once

#include <cstddef>
#include <cstdint>

namespace metalcpu::rt {

/// The memory of one buffer that metalcpu allocates (not bytesNoCopy buffers).
///
/// Apple silicon maps buffers in whole 16 KiB pages, so a kernel that stores a little past
/// the end of a small buffer touches nothing else on a Mac. Buffers here are likewise whole
/// 16 KiB granules (allocatedSize()), zero-filled, never in the malloc heap, in one of two
/// placements:
///
/// - **Guarded**: a mapping of its own with an inaccessible page on either side, so a store
///   past the rounded end faults instead of landing in another buffer. Each costs the process
///   two of its memory mappings (vm.max_map_count, 65530 by default, shared with malloc,
///   thread stacks and libraries), so only the first kGuardedBudget live buffers get one.
/// - **Pooled**: beyond that budget (and when a mapping fails), a slot in a large shared
///   mapping: still outside the heap and in whole granules, but next to other buffers, as
///   buffers can be on a GPU.
/// - **Shared**: while kernels run in a device process (METALCPU_ISOLATION), every buffer
///   made is in the memory both processes map at the same address (iso::SharedArena), with a
///   free granule after it that the device process never maps. When the arena has no room,
///   there is no memory (bytes() is null): memory elsewhere would fault in a kernel. Buffers
///   made after the program went on without a device process are in the other placements.
class BufferMemory {
public:
    /// Apple silicon's page size, the granule of allocatedSize().
    static constexpr std::size_t kGranule = 16384;
    /// Live guarded buffers at most: 2 × 8192 mappings, an eighth of the default limit.
    static constexpr std::size_t kGuardedBudget = 8192;

    /// `length` bytes (at least one) rounded up to the granule; null bytes() when no memory
    /// can be had.
    explicit BufferMemory(std::uint64_t length);
    ~BufferMemory();
    BufferMemory(const BufferMemory&) = delete;
    BufferMemory& operator=(const BufferMemory&) = delete;

    std::uint8_t* bytes() const { return bytes_; }
    /// The usable size: the length rounded up to whole granules.
    std::uint64_t size() const { return size_; }
    /// Whether inaccessible pages surround the memory.
    bool guarded() const { return placement_ == Placement::Guarded; }
    /// Whether a device process sees the memory at the same address.
    bool shared() const { return placement_ == Placement::Shared; }

    /// Whether new buffers are Shared: kernels run in a device process (one is started or
    /// may still be, and this is not a child made by fork()).
    static bool sharedWithDevice();
    /// Whether [memory, memory + length) is memory a device process sees (another buffer's).
    static bool seenByDevice(const void* memory, std::uint64_t length);

    /// The size a buffer of `length` bytes occupies: whole granules of 16 KiB, or of the host's
    /// page where that is larger.
    static std::uint64_t roundedSize(std::uint64_t length);

private:
    enum class Placement { None, Guarded, Pooled, Plain, Shared };
    std::uint8_t* bytes_ = nullptr;
    std::uint64_t size_ = 0;
    Placement placement_ = Placement::None;
};

} // namespace metalcpu::rt
