#pragma once

#include "foundation/object.h"
#include "runtime/label.h"

#include <Metal/MTLBuffer.hpp>

#include <cstdint>
#include <functional>

namespace metalcpu::rt {

class Device;

/// A buffer: host memory that kernels read and write directly. Shared and managed storage
/// hand that memory to the program through contents(); private storage does not (as on
/// Apple GPUs), but kernels still use it. gpuAddress() is the host address, so addresses
/// that kernels store and load are ordinary pointers.
class Buffer final : public ns::Implements<MTL::Buffer> {
public:
    /// A zero-filled buffer of `length` bytes (at least one byte is allocated).
    Buffer(Device* device, std::uint64_t length, MTL::ResourceOptions options);
    /// A buffer over memory the program owns (newBuffer(bytesNoCopy…)); `deallocator` runs
    /// when the buffer is destroyed.
    Buffer(Device* device, void* memory, std::uint64_t length, MTL::ResourceOptions options,
           std::function<void(void*, std::uint64_t)> deallocator);
    ~Buffer() override;

    const char* className() const override { return "MTLBuffer"; }
    std::string description() const override;

    /// The memory kernels use, whatever the storage mode.
    std::uint8_t* memory() const { return memory_; }
    /// contents() as the program sees it: nullptr for private storage.
    void* contents() const;
    std::uint64_t length() const { return length_; }
    MTL::ResourceOptions options() const { return options_; }
    MTL::StorageMode storageMode() const;
    Device* device() const { return device_; }
    Label& label() { return label_; }
    const Label& label() const { return label_; }

private:
    void registerForValidation();

    Device* device_;
    std::uint8_t* memory_ = nullptr;
    std::uint64_t length_ = 0;
    MTL::ResourceOptions options_ = 0;
    bool ownsMemory_ = true;
    std::function<void(void*, std::uint64_t)> deallocator_;
    Label label_;
};

} // namespace metalcpu::rt
