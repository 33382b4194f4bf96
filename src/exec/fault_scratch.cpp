#include "exec/fault_scratch.h"

#include <algorithm>
#include <cstring>

namespace metalcpu::exec {

void* FaultScratch::zeroed(std::size_t size) {
    if (size > capacity_) {
        capacity_ = std::max({size, kFirstBlock, capacity_ * 2});
        blocks_.push_back(std::make_unique<unsigned char[]>(capacity_));
    }
    unsigned char* block = blocks_.back().get();
    std::memset(block, 0, size);
    return block;
}

} // namespace metalcpu::exec
