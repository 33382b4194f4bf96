#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <vector>

namespace metalcpu::exec {

/// Bump allocator for one group's coroutine frames (one per thread of a coroutine kernel)
/// and per-thread slots (one array per variable of a work-item loop kernel that lives across
/// a barrier). reset() frees everything at once; memory is kept for the next group.
class FrameArena {
public:
    void* allocate(std::size_t size);
    void reset();

private:
    static constexpr std::size_t kChunkBytes = 1 << 20;
    static constexpr std::size_t kChunkAlign = 64;
    /// Chunks come from an aligned new[], so they need the aligned delete[].
    struct AlignedDelete {
        void operator()(unsigned char* p) const { ::operator delete[](p, std::align_val_t(kChunkAlign)); }
    };
    using Chunk = std::unique_ptr<unsigned char[], AlignedDelete>;
    std::vector<Chunk> chunks_;
    std::vector<std::size_t> chunkSizes_;
    std::size_t chunk_ = 0;  ///< chunk being filled
    std::size_t offset_ = 0; ///< bytes used in it
};

} // namespace metalcpu::exec
