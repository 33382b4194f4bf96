#include "runtime/mtl4_command_buffer.h"

#include "runtime/buffer.h"
#include "runtime/command_buffer.h"
#include "runtime/debug_layer.h"
#include "runtime/log_state.h"
#include "runtime/mtl4_command_allocator.h"
#include "runtime/mtl4_compute_command_encoder.h"

namespace metalcpu::rt {
namespace {

constexpr const char* kClass = "MTL4DebugCommandBuffer";
constexpr const char* kBegin = "beginCommandBufferWithAllocator:options:";

} // namespace

Mtl4CommandBuffer::~Mtl4CommandBuffer() {
    releaseRecording();
    if (allocator_) {
        allocator_->detach(this);
        allocator_->release();
    }
    if (logState_) logState_->release();
}

void Mtl4CommandBuffer::releaseRecording() {
    commands_.clear();
    stagedUses_.clear();
    residencyUses_.clear();
    for (NS::Object* object : keptAlive_) object->release();
    keptAlive_.clear();
}

void Mtl4CommandBuffer::begin(MTL4::CommandAllocator* allocator, LogState* logState) {
    if (state_ == State::Begun || state_ == State::Ended)
        return DebugLayer::reject({kClass, kBegin, 210}, "beginCommandBufferWithAllocator has already been called.");
    auto* pool = ns::implOf<Mtl4CommandAllocator>(allocator);
    if (!pool) return DebugLayer::reject({kClass, kBegin, 204}, "allocator must not be nil.");
    if (Mtl4CommandBuffer* other = pool->openBuffer(); other && other != this)
        return DebugLayer::reject({kClass, kBegin, 215},
                                  "Failed to begin command buffer (label: " + label_.text("(null)") +
                                      ") as command allocator (label: " + pool->label().text("(null)") +
                                      ") already has an open command buffer (label: " +
                                      other->label().text("(null)") + ").");
    releaseRecording();
    residencySets_.clear();
    if (allocator_) allocator_->release();
    allocator_ = pool;
    allocator_->retain();
    allocator_->attach(this);
    if (logState) logState->retain();
    if (logState_) logState_->release();
    logState_ = logState;
    encodersMade_ = 0;
    allocatorReset_ = false;
    state_ = State::Begun;
}

void Mtl4CommandBuffer::end() {
    if (state_ != State::Begun)
        return DebugLayer::reject({kClass, "endCommandBuffer", 260},
                                  "beginCommandBufferWithAllocator must be called before endCommandBuffer.");
    if (openEncoder_) {
        DebugLayer::reject({kClass, "endCommandBuffer", 263},
                           "All associated command encoders must be ended before endCommandBuffer is called.");
        openEncoder_->endEncoding();
    }
    state_ = State::Ended;
}

MTL4::ComputeCommandEncoder* Mtl4CommandBuffer::computeCommandEncoder() {
    if (state_ != State::Begun) {
        DebugLayer::reject({kClass, "computeCommandEncoder", 301},
                           "Call beginCommandBufferWithAllocator before creating a command encoder.");
        return nullptr;
    }
    if (openEncoder_) {
        DebugLayer::reject({kClass, "computeCommandEncoder", 304}, "Command buffer already has an open command encoder.");
        return nullptr;
    }
    MTL4::ComputeCommandEncoder* encoder = ns::make<Mtl4ComputeCommandEncoder>(this);
    openEncoder_ = ns::implOf<Mtl4ComputeCommandEncoder>(encoder);
    return ns::autoreleased(encoder);
}

void Mtl4CommandBuffer::endEncoder(Mtl4ComputeCommandEncoder* encoder) {
    if (openEncoder_ == encoder) openEncoder_ = nullptr;
}

void Mtl4CommandBuffer::append(Command command) {
    commands_.push_back(std::move(command));
    if (allocator_) allocator_->noteRecorded(sizeof(Command));
}

void Mtl4CommandBuffer::keepAlive(NS::Object* object) {
    if (object) keptAlive_.push_back(object->retain());
}

void Mtl4CommandBuffer::useBuffer(Buffer* buffer, bool writes) {
    if (buffer && buffer->staged()) stagedUses_.push_back(StagedUse{commands_.size(), buffer, writes});
}

void Mtl4CommandBuffer::moveInto(rt::CommandBuffer& target) {
    // Each use is handed over just before its command, so the target stages the buffer there.
    auto use = stagedUses_.begin();
    for (std::size_t index = 0; index < commands_.size(); ++index) {
        for (; use != stagedUses_.end() && use->command == index; ++use) target.useBuffer(use->buffer, use->writes);
        target.append(std::move(commands_[index]));
    }
    for (NS::Object* object : keptAlive_) target.keepAlive(object);
    releaseRecording();
    if (allocator_) {
        allocator_->detach(this);
        allocator_->release();
        allocator_ = nullptr;
    }
    state_ = State::Committed;
}

} // namespace metalcpu::rt
