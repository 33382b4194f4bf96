#pragma once

#include "runtime/buffer_memory.h"
#include "runtime/resource_core.h"

#include <Metal/MTLBuffer.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

namespace metalcpu::rt {

/// A buffer: host memory that kernels read and write directly. Shared and managed storage
/// hand that memory to the program through contents(); private storage does not (as on
/// Apple GPUs), but kernels still use it. gpuAddress() is the host address, so addresses
/// that kernels store and load are ordinary pointers.
class Buffer final : public ns::Implements<MTL::Buffer, ResourceCore> {
public:
    /// A zero-filled buffer of `length` bytes, in whole pages of its own (BufferMemory);
    /// memory() is null when they cannot be mapped.
    Buffer(Device* device, std::uint64_t length, MTL::ResourceOptions options);
    /// A buffer over memory the program owns (newBuffer(bytesNoCopy…)); `deallocator` runs
    /// when the buffer is destroyed.
    Buffer(Device* device, void* memory, std::uint64_t length, MTL::ResourceOptions options,
           std::function<void(void*, std::uint64_t)> deallocator);
    ~Buffer() override;

    // The core's, not the public class's trampolines of the same names.
    using ResourceCore::device;
    using ResourceCore::label;
    using ResourceCore::storageMode;

    const char* className() const override { return "MTLBuffer"; }
    std::string description() const override;

    /// The memory kernels use, whatever the storage mode.
    std::uint8_t* memory() const { return memory_; }
    /// contents() as the program sees it: nullptr for private storage.
    void* contents() const;
    /// Whether kernels see the buffer through a copy of the program's memory: a bytesNoCopy
    /// buffer, when kernels run in a device process and the memory is not shared with it.
    /// memory() is the copy. A command buffer that uses the buffer calls beginStaging()
    /// before its first command that does, and endStaging() when it ends.
    bool staged() const { return programMemory_ != nullptr; }
    /// Copies the program's memory in, unless another command buffer in flight uses the copy
    /// (the copy then holds its results, which the program's memory does not have yet).
    void beginStaging();
    /// Copies the kernels' results back when `written` (only then: a copy back of a buffer
    /// kernels only read would undo the program's writes since).
    void endStaging(bool written);
    std::uint64_t length() const { return length_; }
    /// The memory the buffer occupies: its length rounded up to whole 16 KiB pages, or the
    /// length of a bytesNoCopy buffer's memory, which the program allocated.
    std::uint64_t allocatedSize() const override { return pages_ && !programMemory_ ? pages_->size() : length_; }

private:
    void registerAddress();

    std::unique_ptr<BufferMemory> pages_; ///< null for bytesNoCopy buffers
    std::uint8_t* memory_ = nullptr;
    std::uint8_t* programMemory_ = nullptr; ///< a staged buffer's memory, as the program gave it
    std::uint64_t length_ = 0;
    std::function<void(void*, std::uint64_t)> deallocator_;
    std::mutex stagingMutex_;
    int stagingUsers_ = 0; ///< command buffers between beginStaging() and endStaging()
};

} // namespace metalcpu::rt
