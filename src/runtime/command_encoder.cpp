#include "runtime/command_encoder.h"

#include "runtime/command_buffer.h"
#include "runtime/debug_layer.h"

namespace metalcpu::rt {

CommandEncoder::CommandEncoder(CommandBuffer* commandBuffer, const char* debugClassName)
    : commandBuffer_(commandBuffer), debugClassName_(debugClassName) {
    commandBuffer_->retain();
    commandBuffer_->beginEncoder(this);
}

CommandEncoder::~CommandEncoder() {
    if (!ended_) {
        // Apple's base encoder class asserts this with or without the debug layer.
        DebugLayer::reject({"_MTLCommandEncoder", "dealloc", 131}, "Command encoder released without endEncoding");
        commandBuffer_->endEncoder(this);
    }
    commandBuffer_->release();
}

bool CommandEncoder::usable(const char* selector) {
    if (!ended_) return true;
    DebugLayer::reject({debugClassName_, selector, 96}, "Invalid usage because encoding has ended.");
    return false;
}

void CommandEncoder::endEncoding() {
    if (ended_) {
        DebugLayer::reject({debugClassName_, "endEncoding", 91}, "endEncoding was already called!");
        return;
    }
    ended_ = true;
    commandBuffer_->endEncoder(this);
}

} // namespace metalcpu::rt
