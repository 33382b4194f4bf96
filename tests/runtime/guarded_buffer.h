#pragma once
// An output buffer with canary words around it, for execution tests.
#include <Metal/Metal.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace metalcpu::testing {

// Canary words around output: a thread that writes outside its element shows up.
inline constexpr std::uint32_t kCanary = 0xC0FFEE11u;

/// A shared buffer for a kernel's output with kGuardWords canary words on either side and
/// canaries in between too, so an element the kernel leaves unwritten shows up as well.
/// Bind it with bind(); the guard is 32 bytes, a valid offset for any element type.
class GuardedBuffer {
public:
    static constexpr unsigned kGuardWords = 8;

    GuardedBuffer(MTL::Device* device, std::size_t bytes) : bytes_((bytes + 3) / 4 * 4) {
        buffer_ = device->newBuffer(bytes_ + 2 * kGuardWords * 4, MTL::ResourceStorageModeShared);
        auto* words = static_cast<std::uint32_t*>(buffer_->contents());
        std::fill(words, words + bytes_ / 4 + 2 * kGuardWords, kCanary);
    }
    ~GuardedBuffer() { buffer_->release(); }
    GuardedBuffer(const GuardedBuffer&) = delete;
    GuardedBuffer& operator=(const GuardedBuffer&) = delete;

    MTL::Buffer* buffer() const { return buffer_; }
    static constexpr NS::UInteger offset() { return kGuardWords * 4; }
    void bind(MTL::ComputeCommandEncoder* encoder, NS::UInteger index) const {
        encoder->setBuffer(buffer_, offset(), index);
    }
    template <class T>
    T* data() {
        return reinterpret_cast<T*>(static_cast<char*>(buffer_->contents()) + offset());
    }
    template <class T>
    const T* data() const {
        return reinterpret_cast<const T*>(static_cast<const char*>(buffer_->contents()) + offset());
    }
    /// Fails the test when a canary before or after the output was overwritten.
    void expectCanariesIntact() const {
        const auto* words = static_cast<const std::uint32_t*>(buffer_->contents());
        const std::size_t after = kGuardWords + bytes_ / 4;
        for (unsigned i = 0; i < kGuardWords; ++i) {
            EXPECT_EQ(words[i], kCanary) << "canary " << i << " before the output";
            EXPECT_EQ(words[after + i], kCanary) << "canary " << i << " after the output";
        }
    }

private:
    std::size_t bytes_;
    MTL::Buffer* buffer_;
};

} // namespace metalcpu::testing
