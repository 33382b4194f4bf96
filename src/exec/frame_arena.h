#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace metalcpu::exec {

/// Bump allocator for the coroutine frames of one group (one frame per thread of a
/// coroutine kernel). reset() frees everything at once; memory is kept for the next group.
class FrameArena {
public:
    void* allocate(std::size_t size);
    void reset();

private:
    static constexpr std::size_t kChunkBytes = 1 << 20;
    std::vector<std::unique_ptr<unsigned char[]>> chunks_;
    std::vector<std::size_t> chunkSizes_;
    std::size_t chunk_ = 0;  ///< chunk being filled
    std::size_t offset_ = 0; ///< bytes used in it
};

} // namespace metalcpu::exec
