#pragma once

#include "runtime/command_encoder.h"

#include <Metal/MTLBlitCommandEncoder.hpp>

#include <cstdint>

namespace metalcpu::rt {

class CommandBuffer;

/// A blit encoder: buffer copies and fills, checked against the buffers' lengths.
class BlitCommandEncoder final : public ns::Implements<MTL::BlitCommandEncoder, CommandEncoder> {
public:
    explicit BlitCommandEncoder(CommandBuffer* commandBuffer);
    const char* className() const override { return "MTLBlitCommandEncoder"; }

    void copy(const MTL::Buffer* source, std::uint64_t sourceOffset, const MTL::Buffer* destination,
              std::uint64_t destinationOffset, std::uint64_t size);
    void fill(const MTL::Buffer* buffer, std::uint64_t offset, std::uint64_t length, std::uint8_t value);
};

} // namespace metalcpu::rt
