#pragma once

#include "runtime/command_encoder.h"
#include "runtime/commands.h"

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

/// Records a buffer-to-buffer copy into `sink`, checked against both lengths; a mistake is
/// reported as `-[debugClassName copyFromBuffer:…]` and recorded so that the command buffer
/// fails there. The blit encoder and the MTL4 compute encoder both copy this way.
void encodeBufferCopy(CommandSink& sink, const char* debugClassName, const MTL::Buffer* source,
                      std::uint64_t sourceOffset, const MTL::Buffer* destination, std::uint64_t destinationOffset,
                      std::uint64_t size);
/// Records a fill of `length` bytes at `offset` with `value`, checked as encodeBufferCopy.
void encodeBufferFill(CommandSink& sink, const char* debugClassName, const MTL::Buffer* buffer, std::uint64_t offset,
                      std::uint64_t length, std::uint8_t value);

} // namespace metalcpu::rt
