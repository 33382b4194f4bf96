#include "runtime/buffer.h"

#include "runtime/device.h"
#include "validation/allocations.h"

#include <cstdio>
#include <cstring>

namespace metalcpu::rt {

Buffer::Buffer(Device* device, std::uint64_t length, MTL::ResourceOptions options)
    : Implements(device, options), pages_(std::make_unique<BufferMemory>(length)), memory_(pages_->bytes()),
      length_(length) {
    if (memory_) device->trackAllocation(static_cast<std::int64_t>(pages_->size()));
    registerAddress();
}

void Buffer::registerAddress() {
    // Shader validation checks addresses that kernels read from memory (gpuAddress values)
    // against the buffer they point into; MTL4 argument tables bind such addresses.
    if (!memory_) return;
    device()->bufferDirectory().add(this);
    val::AllocationRegistry::shared().add(reinterpret_cast<std::uint64_t>(memory_), length_,
                                          [this] { return label().text("<unnamed>"); });
}

Buffer::Buffer(Device* device, void* memory, std::uint64_t length, MTL::ResourceOptions options,
               std::function<void(void*, std::uint64_t)> deallocator)
    : Implements(device, options), memory_(static_cast<std::uint8_t*>(memory)), length_(length),
      deallocator_(std::move(deallocator)) {
    if (memory_ && BufferMemory::sharedWithDevice() && !BufferMemory::seenByDevice(memory_, length_)) {
        // A device process cannot see the program's memory: kernels get a copy of it, in the
        // memory it shares. Without room there, the buffer has no memory (newBuffer returns
        // nil), as kernels could not reach the program's.
        programMemory_ = memory_;
        pages_ = std::make_unique<BufferMemory>(length);
        memory_ = pages_->bytes();
        if (memory_) std::memcpy(memory_, programMemory_, static_cast<std::size_t>(length_));
        else deallocator_ = nullptr; // newBuffer returns nil: the program keeps its memory
    }
    registerAddress();
}

void Buffer::beginStaging() {
    std::lock_guard lock(stagingMutex_);
    if (stagingUsers_++ == 0 && length_) std::memcpy(memory_, programMemory_, static_cast<std::size_t>(length_));
}

void Buffer::endStaging(bool written) {
    std::lock_guard lock(stagingMutex_);
    --stagingUsers_;
    if (written && length_) std::memcpy(programMemory_, memory_, static_cast<std::size_t>(length_));
}

Buffer::~Buffer() {
    if (memory_) {
        val::AllocationRegistry::shared().remove(reinterpret_cast<std::uint64_t>(memory_));
        device()->bufferDirectory().remove(this);
    }
    if (pages_ && !programMemory_) {
        if (memory_) device()->trackAllocation(-static_cast<std::int64_t>(pages_->size()));
    } else if (deallocator_) {
        deallocator_(programMemory_ ? programMemory_ : memory_, length_);
    }
}

void* Buffer::contents() const {
    if (storageMode() == MTL::StorageModePrivate) return nullptr;
    return programMemory_ ? programMemory_ : memory_;
}

std::string Buffer::description() const {
    char text[160];
    std::snprintf(text, sizeof text, "<MTLBuffer: %p> label = %s length = %llu", static_cast<const void*>(this),
                  label().text("<none>").c_str(), static_cast<unsigned long long>(length_));
    return text;
}

} // namespace metalcpu::rt
