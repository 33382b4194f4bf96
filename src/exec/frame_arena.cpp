#include "exec/frame_arena.h"

#include <algorithm>

namespace metalcpu::exec {

void* FrameArena::allocate(std::size_t size) {
    size = (size + 63) / 64 * 64; // frames on their own cache lines
    while (chunk_ < chunks_.size() && offset_ + size > chunkSizes_[chunk_]) {
        ++chunk_;
        offset_ = 0;
    }
    if (chunk_ == chunks_.size()) {
        std::size_t bytes = std::max(kChunkBytes, size);
        chunks_.push_back(Chunk(new (std::align_val_t(kChunkAlign)) unsigned char[bytes]));
        chunkSizes_.push_back(bytes);
        offset_ = 0;
    }
    void* frame = chunks_[chunk_].get() + offset_;
    offset_ += size;
    return frame;
}

void FrameArena::reset() {
    chunk_ = 0;
    offset_ = 0;
}

} // namespace metalcpu::exec
