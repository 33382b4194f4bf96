#pragma once

#include "foundation/object.h"
#include "runtime/buffer_directory.h"
#include "runtime/gpu_family.h"
#include "runtime/label.h"

#include <Metal/MTLDevice.hpp>
#include <metalcpu/kernel_abi.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace metalcpu::rt {

/// The one device: this machine's CPU, presented with the limits of an Apple GPU so that
/// programs that size their work from the device's numbers keep working unchanged.
class Device final : public ns::Implements<MTL::Device> {
public:
    /// The process-wide device. It is never destroyed; CreateSystemDefaultDevice() hands
    /// out +1 references to it.
    static Device* systemDefault();

    const char* className() const override { return "MTLDevice"; }
    std::string description() const override;

    const std::string& name() const { return name_; }
    Label& label() { return label_; }

    // Limits (Apple7+ and Mac2 families).
    static constexpr std::uint32_t kMaxThreadsPerThreadgroup = METALCPU_MAX_THREADS_PER_THREADGROUP;
    static constexpr std::uint64_t kMaxThreadgroupMemoryLength = METALCPU_MAX_THREADGROUP_MEMORY_LENGTH;
    static constexpr std::uint32_t kMaxBufferBindings = METALCPU_MAX_BUFFER_BINDINGS;
    static constexpr std::uint64_t kMaxSetBytesLength = 4096;
    std::uint64_t maxBufferLength() const { return maxBufferLength_; }
    std::uint64_t recommendedMaxWorkingSetSize() const { return workingSetSize_; }
    std::uint64_t currentAllocatedSize() const { return allocated_.load(std::memory_order_relaxed); }
    std::uint32_t threadExecutionWidth() const;
    bool supportsFamily(MTL::GPUFamily family) const;
    /// The GPU family and cooperative-tensor layout this device emulates (METALCPU_GPU_FAMILY).
    const GpuEmulation& emulation() const { return emulation_; }
    /// Tests run several layouts in one process; call it only while nothing is encoded.
    void setEmulationForTesting(const GpuEmulation& emulation) { emulation_ = emulation; }

    /// Buffers: nullptr when the length is zero or beyond maxBufferLength, memory runs out,
    /// or `bytes` is null.
    MTL::Buffer* newBuffer(std::uint64_t length, MTL::ResourceOptions options);
    MTL::Buffer* newBuffer(const void* bytes, std::uint64_t length, MTL::ResourceOptions options);
    MTL::Buffer* newBufferNoCopy(void* bytes, std::uint64_t length, MTL::ResourceOptions options,
                                 std::function<void(void*, std::uint64_t)> deallocator);
    void trackAllocation(std::int64_t bytes) { allocated_.fetch_add(static_cast<std::uint64_t>(bytes)); }

    MTL::CommandQueue* newCommandQueue(std::uint64_t maxCommandBufferCount);
    /// Every live buffer by GPU address (for MTL4 argument tables).
    BufferDirectory& bufferDirectory() { return bufferDirectory_; }

private:
    Device();
    /// Whether a new buffer may have `length` bytes: not zero, not over maxBufferLength
    /// (reported otherwise).
    bool validBufferLength(std::uint64_t length) const;
    std::string name_;
    std::uint64_t maxBufferLength_ = 0;
    std::uint64_t workingSetSize_ = 0;
    std::atomic<std::uint64_t> allocated_{0};
    GpuEmulation emulation_;
    Label label_;
    BufferDirectory bufferDirectory_;
};

} // namespace metalcpu::rt
