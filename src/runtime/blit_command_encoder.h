#pragma once

#include "foundation/object.h"
#include "runtime/label.h"

#include <Metal/MTLBlitCommandEncoder.hpp>

#include <cstdint>

namespace metalcpu::rt {

class CommandBuffer;

/// A blit encoder: buffer copies and fills, checked against the buffers' lengths.
class BlitCommandEncoder final : public ns::Implements<MTL::BlitCommandEncoder> {
public:
    explicit BlitCommandEncoder(CommandBuffer* commandBuffer);
    ~BlitCommandEncoder() override;
    const char* className() const override { return "MTLBlitCommandEncoder"; }

    Label& label() { return label_; }
    CommandBuffer* commandBuffer() const { return commandBuffer_; }

    void copy(const MTL::Buffer* source, std::uint64_t sourceOffset, const MTL::Buffer* destination,
              std::uint64_t destinationOffset, std::uint64_t size);
    void fill(const MTL::Buffer* buffer, std::uint64_t offset, std::uint64_t length, std::uint8_t value);
    void endEncoding();
    bool ended() const { return ended_; }

private:
    bool usable(const char* method);
    CommandBuffer* commandBuffer_; ///< retained
    bool ended_ = false;
    Label label_;
};

} // namespace metalcpu::rt
