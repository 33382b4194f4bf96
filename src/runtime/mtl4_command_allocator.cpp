#include "runtime/mtl4_command_allocator.h"

#include "runtime/mtl4_command_buffer.h"

namespace metalcpu::rt {

void Mtl4CommandAllocator::reset() {
    {
        std::lock_guard lock(mutex_);
        // The command buffer's commands are its own, so nothing is lost here; what Metal's
        // layer reports (at commit, where it knows the index) is the program's mistake.
        if (open_) open_->noteAllocatorReset();
    }
    allocated_.store(0, std::memory_order_relaxed);
}

void Mtl4CommandAllocator::attach(Mtl4CommandBuffer* buffer) {
    std::lock_guard lock(mutex_);
    open_ = buffer;
}

void Mtl4CommandAllocator::detach(Mtl4CommandBuffer* buffer) {
    std::lock_guard lock(mutex_);
    if (open_ == buffer) open_ = nullptr;
}

} // namespace metalcpu::rt
