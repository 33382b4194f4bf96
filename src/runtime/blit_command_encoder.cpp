#include "runtime/blit_command_encoder.h"

#include "runtime/buffer.h"
#include "runtime/command_buffer.h"
#include "support/log.h"

namespace metalcpu::rt {

BlitCommandEncoder::BlitCommandEncoder(CommandBuffer* commandBuffer) : commandBuffer_(commandBuffer) {
    commandBuffer_->retain();
}

BlitCommandEncoder::~BlitCommandEncoder() {
    if (!ended_) {
        support::log().error("Command encoder released without endEncoding");
        commandBuffer_->endEncoder(this);
    }
    commandBuffer_->release();
}

bool BlitCommandEncoder::usable(const char* method) {
    if (!ended_) return true;
    support::log().error("{} after endEncoding: ignored", method);
    return false;
}

void BlitCommandEncoder::copy(const MTL::Buffer* source, std::uint64_t sourceOffset, const MTL::Buffer* destination,
                              std::uint64_t destinationOffset, std::uint64_t size) {
    if (!usable("copyFromBuffer")) return;
    Buffer* from = ns::implOf<Buffer>(source);
    Buffer* to = ns::implOf<Buffer>(destination);
    if (!from || !to) {
        commandBuffer_->append(InvalidCommand{"copyFromBuffer: the source and destination buffers must not be nil"});
        return;
    }
    if (sourceOffset + size > from->length() || destinationOffset + size > to->length() ||
        sourceOffset + size < sourceOffset || destinationOffset + size < destinationOffset) {
        commandBuffer_->append(InvalidCommand{
            "copyFromBuffer: copying " + std::to_string(size) + " bytes from offset " + std::to_string(sourceOffset) +
            " of a " + std::to_string(from->length()) + "-byte buffer to offset " + std::to_string(destinationOffset) +
            " of a " + std::to_string(to->length()) + "-byte buffer goes past the end"});
        return;
    }
    commandBuffer_->keepAlive(from->asPublicClass());
    commandBuffer_->keepAlive(to->asPublicClass());
    commandBuffer_->append(CopyCommand{from, sourceOffset, to, destinationOffset, size});
}

void BlitCommandEncoder::fill(const MTL::Buffer* buffer, std::uint64_t offset, std::uint64_t length,
                              std::uint8_t value) {
    if (!usable("fillBuffer")) return;
    Buffer* target = ns::implOf<Buffer>(buffer);
    if (!target) {
        commandBuffer_->append(InvalidCommand{"fillBuffer: the buffer must not be nil"});
        return;
    }
    if (offset + length > target->length() || offset + length < offset) {
        commandBuffer_->append(InvalidCommand{"fillBuffer: range " + std::to_string(offset) + "+" +
                                              std::to_string(length) + " goes past the end of a " +
                                              std::to_string(target->length()) + "-byte buffer"});
        return;
    }
    commandBuffer_->keepAlive(target->asPublicClass());
    commandBuffer_->append(FillCommand{target, offset, length, value});
}

void BlitCommandEncoder::endEncoding() {
    if (ended_) {
        support::log().error("endEncoding was already called!");
        return;
    }
    ended_ = true;
    commandBuffer_->endEncoder(this);
}

} // namespace metalcpu::rt
