#include "runtime/buffer.h"

#include "runtime/device.h"
#include "validation/regions.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace metalcpu::rt {
namespace {

/// Alignment of buffer memory: large enough for any vector or matrix type kernels use.
constexpr std::size_t kBufferAlignment = 64;

} // namespace

Buffer::Buffer(Device* device, std::uint64_t length, MTL::ResourceOptions options)
    : device_(device), length_(length), options_(options) {
    std::size_t bytes = static_cast<std::size_t>(length == 0 ? 1 : length);
    bytes = (bytes + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
    memory_ = static_cast<std::uint8_t*>(std::aligned_alloc(kBufferAlignment, bytes));
    if (memory_) std::memset(memory_, 0, bytes);
    device_->trackAllocation(static_cast<std::int64_t>(bytes));
    registerForValidation();
}

void Buffer::registerForValidation() {
    // Shader validation checks addresses that kernels read from memory (gpuAddress values)
    // against the buffer they point into.
    if (!memory_) return;
    val::AllocationRegistry::shared().add(reinterpret_cast<std::uint64_t>(memory_), length_,
                                          [this] { return label_.text("<unnamed>"); });
}

Buffer::Buffer(Device* device, void* memory, std::uint64_t length, MTL::ResourceOptions options,
               std::function<void(void*, std::uint64_t)> deallocator)
    : device_(device), memory_(static_cast<std::uint8_t*>(memory)), length_(length), options_(options),
      ownsMemory_(false), deallocator_(std::move(deallocator)) {
    registerForValidation();
}

Buffer::~Buffer() {
    if (memory_) val::AllocationRegistry::shared().remove(reinterpret_cast<std::uint64_t>(memory_));
    if (ownsMemory_) {
        std::size_t bytes = static_cast<std::size_t>(length_ == 0 ? 1 : length_);
        bytes = (bytes + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
        device_->trackAllocation(-static_cast<std::int64_t>(bytes));
        std::free(memory_);
    } else if (deallocator_) {
        deallocator_(memory_, length_);
    }
}

void* Buffer::contents() const { return storageMode() == MTL::StorageModePrivate ? nullptr : memory_; }

MTL::StorageMode Buffer::storageMode() const {
    return static_cast<MTL::StorageMode>((options_ >> 4) & 0xf);
}

std::string Buffer::description() const {
    char text[160];
    std::snprintf(text, sizeof text, "<MTLBuffer: %p> label = %s length = %llu", static_cast<const void*>(this),
                  label_.text("<none>").c_str(), static_cast<unsigned long long>(length_));
    return text;
}

} // namespace metalcpu::rt
