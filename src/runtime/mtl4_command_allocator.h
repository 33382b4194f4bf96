#pragma once

#include "foundation/object.h"
#include "runtime/label.h"

#include <Metal/MTL4CommandAllocator.hpp>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace metalcpu::rt {

class Device;
class Mtl4CommandBuffer;

/// An MTL4 command allocator: on a GPU, the memory command buffers encode into. Here
/// commands live in their command buffer, so the allocator only counts what was recorded
/// (allocatedSize) and knows which command buffer is encoding with it, to catch a reset
/// that would pull the memory from under an uncommitted command buffer.
class Mtl4CommandAllocator final : public ns::Implements<MTL4::CommandAllocator> {
public:
    explicit Mtl4CommandAllocator(Device* device) : device_(device) {}
    const char* className() const override { return "MTL4CommandAllocator"; }

    Device* device() const { return device_; }
    Label& label() { return label_; }
    std::uint64_t allocatedSize() const { return allocated_.load(std::memory_order_relaxed); }
    void reset();

    /// `buffer` begins encoding with this allocator (after beginCommandBuffer) / is
    /// committed or begins again elsewhere.
    void attach(Mtl4CommandBuffer* buffer);
    void detach(Mtl4CommandBuffer* buffer);
    Mtl4CommandBuffer* openBuffer() {
        std::lock_guard lock(mutex_);
        return open_;
    }
    void noteRecorded(std::uint64_t bytes) { allocated_.fetch_add(bytes, std::memory_order_relaxed); }

private:
    Device* device_;
    Label label_;
    std::atomic<std::uint64_t> allocated_{0};
    std::mutex mutex_;
    Mtl4CommandBuffer* open_ = nullptr; ///< begun and not yet committed; not retained
};

} // namespace metalcpu::rt
